/*
 * ci.h - the statistics behind `dbgauge compare` and `sweep --until-ci`: Student t
 * quantiles, sample summaries, batch means of a time series, and a Welch t-interval for
 * the difference of two means
 * with the matching (Fieller) interval for their ratio.
 *
 * Why batch means: the per-interval throughputs of one run are a time series whose
 * neighbours are correlated (a checkpoint slows several intervals in a row), so treating
 * them as independent samples makes intervals too narrow. Averaging consecutive intervals
 * into a few batches gives values that are close to independent; the Welch interval is
 * then computed on the batch means. With repeats (several result files per side) the
 * per-file values are independent samples and are used directly.
 *
 * No allocation, no global state: thread-safe.
 */
#ifndef DG_STATS_CI_H
#define DG_STATS_CI_H

#include <stdbool.h>

/* Number of batches dg_ci_batch_means() aims for. */
#define DG_CI_BATCHES 10

/* Regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1
 * (NaN outside). */
double dg_ci_betainc(double a, double b, double x);

/* Cumulative distribution function of Student's t with df > 0 degrees of freedom
 * (df may be fractional, as Welch's approximation produces). */
double dg_ci_t_cdf(double t, double df);

/* The p-quantile (0 < p < 1) of Student's t with df > 0 degrees of freedom: the t with
 * dg_ci_t_cdf(t, df) == p to about 1e-10. NaN for arguments out of range. */
double dg_ci_t_quantile(double p, double df);

/* Mean and unbiased variance of a sample. */
typedef struct dg_ci_sample {
    int n;
    double mean;
    double var; /* NaN when n < 2 */
} dg_ci_sample;

/* Summarises x[0..n) into *out (non-finite values are skipped). */
void dg_ci_describe(const double *x, int n, dg_ci_sample *out);

/* Batch means of the time series x[0..n): with n >= 2 * DG_CI_BATCHES the series is cut
 * into DG_CI_BATCHES batches of floor(n / DG_CI_BATCHES) consecutive values (the first
 * n mod DG_CI_BATCHES values, the earliest, are dropped); shorter series are returned as
 * they are (batches of one). Non-finite values are dropped first. Writes the means to
 * out (room for n values) and the batch size to *batch_len; returns the number of
 * batches. */
int dg_ci_batch_means(const double *x, int n, double *out, int *batch_len);

/* A two-sided confidence interval comparing sample b with sample a. */
typedef struct dg_ci_result {
    bool ok;          /* false when either side has fewer than 2 values or no variance info */
    double df;        /* Welch-Satterthwaite degrees of freedom */
    double t;         /* the t quantile used */
    double diff;      /* mean(b) - mean(a) */
    double diff_lo, diff_hi;
    double ratio;     /* mean(b) / mean(a) */
    double ratio_lo, ratio_hi; /* Fieller interval; NaN when it is unbounded */
    bool significant; /* the difference interval excludes 0 (equivalently, the ratio
                         interval excludes 1) */
} dg_ci_result;

/* Welch t-interval at confidence `level` (e.g. 0.95) for mean(b) - mean(a), and Fieller's
 * interval for mean(b) / mean(a) using the same t quantile. Zero variance on both sides
 * gives a zero-width interval (significant when the means differ). */
void dg_ci_welch(const dg_ci_sample *a, const dg_ci_sample *b, double level, dg_ci_result *out);

/* Median of x[0..n), which it sorts in place (non-finite values go last and are not
 * counted; NaN when there is no finite value). */
double dg_ci_median(double *x, int n);

#endif
