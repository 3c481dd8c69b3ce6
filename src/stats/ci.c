/*
 * ci.c - t quantiles, batch means and Welch/Fieller intervals (see ci.h).
 *
 * Layout: the incomplete beta function (continued fraction, modified Lentz evaluation),
 * Student's t built on it, then the sample helpers and the intervals.
 */
#include "stats/ci.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* The continued fraction of I_x(a, b) (converges fast for x < (a + 1) / (a + b + 2)):
 *   I = front / (1 + d1 / (1 + d2 / (1 + ...)))
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d(2m) = m(b-m) x / ((a+2m-1)(a+2m)). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-15;
    double f = 1, c = 1, d = 0;
    for (int j = 1; j < 1000; j++) {
        int m = j / 2;
        double dj;
        if (j % 2)
            dj = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        else
            dj = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        d = 1 + dj * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + dj / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double delta = c * d;
        f *= delta;
        if (fabs(delta - 1) < eps)
            break;
    }
    return f;
}

double dg_ci_betainc(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    if (x > (a + 1) / (a + b + 2))
        return 1 - dg_ci_betainc(b, a, 1 - x);
    double lfront = a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b));
    return exp(lfront) / a / beta_cf(a, b, x);
}

double dg_ci_t_cdf(double t, double df)
{
    if (!(df > 0) || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1 : 0;
    double tail = 0.5 * dg_ci_betainc(df / 2, 0.5, df / (df + t * t));
    return t > 0 ? 1 - tail : tail;
}

double dg_ci_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return NAN;
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -dg_ci_t_quantile(1 - p, df);
    double lo = 0, hi = 2;
    while (dg_ci_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2;
    /* bisection: the cdf is monotone, and 200 halvings reach the double resolution */
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (dg_ci_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

void dg_ci_describe(const double *x, int n, dg_ci_sample *out)
{
    int k = 0;
    double mean = 0, m2 = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            continue;
        /* Welford: stable for long series of similar values */
        k++;
        double d = x[i] - mean;
        mean += d / k;
        m2 += d * (x[i] - mean);
    }
    out->n = k;
    out->mean = k ? mean : NAN;
    out->var = k >= 2 ? m2 / (k - 1) : NAN;
}

int dg_ci_batch_means(const double *x, int n, double *out, int *batch_len)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(x[i]))
            out[k++] = x[i];
    if (k < 2 * DG_CI_BATCHES) {
        *batch_len = 1;
        return k;
    }
    int len = k / DG_CI_BATCHES, skip = k % DG_CI_BATCHES;
    for (int b = 0; b < DG_CI_BATCHES; b++) {
        double s = 0;
        for (int j = 0; j < len; j++)
            s += out[skip + b * len + j];
        out[b] = s / len; /* reads only values at indices >= b * len + skip >= b */
    }
    *batch_len = len;
    return DG_CI_BATCHES;
}

void dg_ci_welch(const dg_ci_sample *a, const dg_ci_sample *b, double level, dg_ci_result *out)
{
    out->ok = false;
    out->significant = false;
    out->df = out->t = NAN;
    out->diff = b->mean - a->mean;
    out->ratio = a->mean != 0 ? b->mean / a->mean : NAN;
    out->diff_lo = out->diff_hi = out->ratio_lo = out->ratio_hi = NAN;
    if (a->n < 2 || b->n < 2 || !isfinite(a->var) || !isfinite(b->var))
        return;
    double va = a->var / a->n, vb = b->var / b->n;
    double den = va * va / (a->n - 1) + vb * vb / (b->n - 1);
    double df = den > 0 ? (va + vb) * (va + vb) / den : (double)(a->n + b->n - 2);
    double t = dg_ci_t_quantile(0.5 + level / 2, df);
    double half = t * sqrt(va + vb);
    out->ok = true;
    out->df = df;
    out->t = t;
    out->diff_lo = out->diff - half;
    out->diff_hi = out->diff + half;
    out->significant = out->diff_lo > 0 || out->diff_hi < 0;
    /* Fieller: the r with (mb - r ma)^2 <= t^2 (vb + r^2 va), bounded when ma is
     * significantly away from zero. */
    double ma = a->mean, mb = b->mean;
    double qa = ma * ma - t * t * va;
    double disc = t * t * (va * mb * mb + vb * ma * ma - t * t * va * vb);
    if (qa > 0 && disc >= 0) {
        double s = sqrt(disc);
        out->ratio_lo = (ma * mb - s) / qa;
        out->ratio_hi = (ma * mb + s) / qa;
    }
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    bool fa = isfinite(a), fb = isfinite(b);
    if (fa != fb)
        return fa ? -1 : 1;
    if (!fa)
        return 0;
    return a < b ? -1 : a > b;
}

double dg_ci_median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    int k = 0;
    while (k < n && isfinite(x[k]))
        k++;
    if (k == 0)
        return NAN;
    return k % 2 ? x[k / 2] : 0.5 * (x[k / 2 - 1] + x[k / 2]);
}
