/*
 * test_report.c - the report module: statistics of compare (t quantiles, Welch and
 * Fieller intervals, batch means), nice axis scales and tick labels, escaping, latency
 * percentiles merged from result-file histograms, and the chart-to-table conversion.
 *
 * Reference values: t quantiles from printed tables (integer df) and, for fractional df,
 * from numerical integration of the t density (Simpson's rule, 2e5 steps).
 */
#include "dgtest.h"

#include "core/strbuf.h"
#include "stats/ci.h"
#include "report/doc.h"
#include "report/html.h"
#include "report/inputs.h"
#include "report/model.h"
#include "report/numfmt.h"
#include "report/render.h"
#include "report/summary.h"
#include "report/svg.h"
#include "results/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_betainc(void)
{
    DG_CHECK_NEAR(dg_ci_betainc(1, 1, 0.3), 0.3, 1e-12);
    DG_CHECK_NEAR(dg_ci_betainc(2.5, 2.5, 0.5), 0.5, 1e-12);
    /* I_x(a, 1) = x^a */
    DG_CHECK_NEAR(dg_ci_betainc(3, 1, 0.6), 0.216, 1e-12);
    DG_CHECK(isnan(dg_ci_betainc(-1, 1, 0.5)));
    DG_CHECK_NEAR(dg_ci_betainc(2, 3, 0), 0, 0);
    DG_CHECK_NEAR(dg_ci_betainc(2, 3, 1), 1, 0);
}

static void test_t_distribution(void)
{
    /* cdf: df = 1 is Cauchy: 1/2 + atan(t)/pi */
    DG_CHECK_NEAR(dg_ci_t_cdf(1.0, 1), 0.75, 1e-12);
    DG_CHECK_NEAR(dg_ci_t_cdf(2.0, 3), 0.9303370157, 1e-9);
    DG_CHECK_NEAR(dg_ci_t_cdf(-2.0, 3), 1 - 0.9303370157, 1e-9);
    DG_CHECK_NEAR(dg_ci_t_cdf(0, 7), 0.5, 1e-15);
    /* two-sided 95% quantiles from tables */
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 1), 12.706204736, 1e-6);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 2), 4.302652730, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 5), 2.570581836, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 10), 2.228138852, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 30), 2.042272456, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 100), 1.983971519, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 1e7), 1.959964, 1e-5);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.95, 4), 2.131846786, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.995, 3), 5.840909310, 1e-7);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.025, 10), -2.228138852, 1e-8);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.5, 3), 0, 0);
    /* fractional df, as Welch-Satterthwaite gives */
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 7.5), 2.33303963, 1e-6);
    DG_CHECK_NEAR(dg_ci_t_quantile(0.975, 19.190545987541217), 2.09161836, 1e-6);
    DG_CHECK(isnan(dg_ci_t_quantile(1.0, 5)));
    DG_CHECK(isnan(dg_ci_t_quantile(0.9, 0)));
}

static void test_describe_median(void)
{
    double x[] = {2, 4, 4, 4, 5, 5, 7, 9, NAN};
    dg_ci_sample s;
    dg_ci_describe(x, 9, &s);
    DG_CHECK_INT(s.n, 8);
    DG_CHECK_NEAR(s.mean, 5, 1e-12);
    DG_CHECK_NEAR(s.var, 32.0 / 7, 1e-12);
    double one[] = {3};
    dg_ci_describe(one, 1, &s);
    DG_CHECK(s.n == 1 && s.mean == 3 && isnan(s.var));
    double m[] = {5, NAN, 1, 3};
    DG_CHECK_NEAR(dg_ci_median(m, 4), 3, 0);
    double m2[] = {4, 1, 3, 2};
    DG_CHECK_NEAR(dg_ci_median(m2, 4), 2.5, 0);
    double m3[] = {NAN};
    DG_CHECK(isnan(dg_ci_median(m3, 1)));
}

static void test_batch_means(void)
{
    double x[25], out[25];
    for (int i = 0; i < 25; i++)
        x[i] = i + 1;
    int len = 0;
    /* 25 values: 10 batches of 2, the first 5 values dropped: (6,7) (8,9) ... (24,25) */
    int nb = dg_ci_batch_means(x, 25, out, &len);
    DG_CHECK_INT(nb, 10);
    DG_CHECK_INT(len, 2);
    DG_CHECK_NEAR(out[0], 6.5, 0);
    DG_CHECK_NEAR(out[9], 24.5, 0);
    /* in place, as compare uses it */
    nb = dg_ci_batch_means(x, 25, x, &len);
    DG_CHECK_INT(nb, 10);
    DG_CHECK_NEAR(x[0], 6.5, 0);
    DG_CHECK_NEAR(x[5], 16.5, 0);
    double y[7] = {1, 2, NAN, 3, 4, 5, 6};
    nb = dg_ci_batch_means(y, 7, out, &len);
    DG_CHECK_INT(nb, 6);
    DG_CHECK_INT(len, 1);
    DG_CHECK_NEAR(out[2], 3, 0);
}

static void test_welch(void)
{
    /* A: mean 20, variance 4, n 10; B: mean 22, variance 9, n 12 (worked by hand: se^2 =
     * 0.4 + 0.75, df = 1.15^2 / (0.4^2/9 + 0.75^2/11) = 19.1905) */
    dg_ci_sample a = {10, 20, 4}, b = {12, 22, 9};
    dg_ci_result r;
    dg_ci_welch(&a, &b, 0.95, &r);
    DG_CHECK(r.ok);
    DG_CHECK_NEAR(r.df, 19.190545988, 1e-6);
    DG_CHECK_NEAR(r.t, 2.09161836, 1e-6);
    DG_CHECK_NEAR(r.diff, 2, 1e-12);
    DG_CHECK_NEAR(r.diff_lo, -0.24301081, 1e-6);
    DG_CHECK_NEAR(r.diff_hi, 4.24301081, 1e-6);
    DG_CHECK_NEAR(r.ratio, 1.1, 1e-12);
    DG_CHECK_NEAR(r.ratio_lo, 0.98830396, 1e-6);
    DG_CHECK_NEAR(r.ratio_hi, 1.22136304, 1e-6);
    DG_CHECK(!r.significant);
    /* a clear difference: 1000 vs 1200 with sd 20 over 10 samples each */
    dg_ci_sample c = {10, 1000, 400}, d = {10, 1200, 400};
    dg_ci_welch(&c, &d, 0.95, &r);
    DG_CHECK(r.ok && r.significant);
    DG_CHECK(r.ratio_lo > 1.17 && r.ratio_hi < 1.23);
    DG_CHECK(r.ratio_lo < 1.2 && r.ratio_hi > 1.2);
    /* too few values: no interval */
    dg_ci_sample e = {1, 5, NAN};
    dg_ci_welch(&e, &d, 0.95, &r);
    DG_CHECK(!r.ok && !r.significant);
    /* no variance at all: a zero-width interval */
    dg_ci_sample f = {5, 3, 0}, g = {5, 4, 0};
    dg_ci_welch(&f, &g, 0.95, &r);
    DG_CHECK(r.ok && r.significant && r.diff_lo == 1 && r.diff_hi == 1);
}

static void test_nice_scales(void)
{
    DG_CHECK_NEAR(dg_svg_nice(3.2, true), 5, 1e-12);
    DG_CHECK_NEAR(dg_svg_nice(1.43, true), 1, 1e-12);
    DG_CHECK_NEAR(dg_svg_nice(0.0021, true), 0.002, 1e-15);
    DG_CHECK_NEAR(dg_svg_nice(2.5, false), 5, 1e-12);
    DG_CHECK_NEAR(dg_svg_nice(2000, false), 2000, 1e-9);
    dg_svg_scale s;
    dg_svg_scale_make(0, 3145, 6, false, &s);
    DG_CHECK_NEAR(s.lo, 0, 0);
    DG_CHECK_NEAR(s.hi, 3500, 1e-9);
    DG_CHECK_NEAR(s.step, 500, 1e-9);
    DG_CHECK_INT(s.nticks, 8);
    DG_CHECK_NEAR(dg_svg_scale_pos(&s, 1750), 0.5, 1e-12);
    /* an interval ending a hair after 10 s does not stretch the axis to 11 s */
    dg_svg_scale_make(0, 10.0099, 8, false, &s);
    DG_CHECK_NEAR(s.hi, 10, 1e-9);
    /* ticks are exact multiples of the step */
    dg_svg_scale_make(0.1, 0.7, 6, false, &s);
    char buf[32];
    DG_CHECK_NEAR(s.step, 0.1, 1e-12);
    dg_svg_tick_label(&s, s.ticks[2], buf, sizeof buf);
    DG_CHECK_STR(buf, "0.3");
    dg_svg_scale_make(0, 15000, 4, false, &s);
    dg_svg_tick_label(&s, 15000, buf, sizeof buf);
    DG_CHECK_STR(buf, "15k");
    dg_svg_tick_label(&s, 0, buf, sizeof buf);
    DG_CHECK_STR(buf, "0");
    /* degenerate ranges */
    dg_svg_scale_make(5, 5, 6, false, &s);
    DG_CHECK(s.lo < 5 && s.hi > 5);
    dg_svg_scale_make(NAN, NAN, 6, false, &s);
    DG_CHECK(s.hi > s.lo);
    /* log: 1-2-5 ticks over a few decades, decades over many */
    dg_svg_scale_make(0.3, 5, 6, true, &s);
    DG_CHECK(s.log);
    DG_CHECK_NEAR(s.lo, 0.2, 1e-12);
    DG_CHECK_NEAR(s.hi, 5, 1e-12);
    DG_CHECK_INT(s.nticks, 5); /* 0.2 0.5 1 2 5 */
    DG_CHECK_NEAR(dg_svg_scale_pos(&s, 1), log10(1 / 0.2) / log10(25), 1e-12);
    dg_svg_scale_make(0.01, 5000, 6, true, &s);
    DG_CHECK_NEAR(s.lo, 0.01, 1e-12);
    DG_CHECK_NEAR(s.hi, 10000, 1e-6);
    DG_CHECK_INT(s.nticks, 7);
    dg_svg_tick_label(&s, 1000, buf, sizeof buf);
    DG_CHECK_STR(buf, "1k");
}

static void test_escape(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_svg_escape(&sb, "<script>alert(\"x\")</script> & 'y'\x01");
    DG_CHECK_STR(dg_sb_str(&sb),
                 "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39; ");
    dg_sb_free(&sb);
    char buf[32];
    DG_CHECK_STR(dg_rep_fmt_num(NAN, 2, buf, sizeof buf), "-");
    DG_CHECK_STR(dg_rep_fmt_num(1234.5, DG_PREC_AUTO, buf, sizeof buf), "1234");
    DG_CHECK_STR(dg_rep_fmt_num(12.34, DG_PREC_AUTO, buf, sizeof buf), "12.3");
    DG_CHECK_STR(dg_rep_fmt_num(0.1234, DG_PREC_AUTO, buf, sizeof buf), "0.123");
    DG_CHECK_STR(dg_rep_fmt_num(-0.0001, 1, buf, sizeof buf), "0.0");
    DG_CHECK_STR(dg_rep_fmt_num(7, DG_PREC_AUTO, buf, sizeof buf), "7");
}

static void test_latency_from_histograms(void)
{
    const char *dir = getenv("DG_FIXTURES");
    if (!dir) {
        fprintf(stderr, "DG_FIXTURES not set: run through ctest\n");
        DG_CHECK(0);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/results/small.json", dir);
    json_t *doc = NULL;
    dg_err err;
    DG_CHECK_INT(dg_result_read(path, &doc, &err), 0);
    if (!doc)
        return;
    /* 500 values: 100 ~0.5 ms, 150 ~1 ms, 100 ~1.5 ms, 135 ~2 ms, 15 ~10 ms */
    double pct[4] = {50, 95, 99, 100}, v[4];
    dg_rep_latency(doc, pct, 4, v);
    DG_CHECK_NEAR(v[0], 1.0, 0.002);
    DG_CHECK_NEAR(v[1], 2.0, 0.002);
    DG_CHECK_NEAR(v[2], 10.0, 0.01);
    DG_CHECK_NEAR(v[3], 9.998336, 1e-9); /* the exact maximum */
    dg_rep_summary s;
    dg_rep_summarize(doc, &s);
    DG_CHECK_NEAR(s.tps, 100, 0);
    DG_CHECK_NEAR(s.db_size_bytes, 20e6, 0);
    DG_CHECK_NEAR(s.load_mb_per_s, 10, 0);
    DG_CHECK(s.complete);
    json_decref(doc);
}

static void test_chart_table(void)
{
    dg_report *r = dg_report_new("t");
    dg_rep_section *sec = dg_report_section(r, "s", "S");
    dg_rep_chart *c = dg_rep_chart_add(sec, "c", "TPS vs terminals", DG_CHART_LINE);
    dg_rep_axis_set(&c->x, "terminals", NULL);
    dg_rep_axis_set(&c->y, "throughput", "tx/s");
    dg_rep_series *a = dg_rep_series_add(c, "scale=1");
    dg_rep_point_add(a, 4, 300, 290, 310);
    dg_rep_point_add(a, 1, 100, NAN, NAN);
    dg_rep_series *b = dg_rep_series_add(c, "scale=10");
    dg_rep_point_add(b, 2, 120, NAN, NAN);
    dg_rep_table *t = dg_rep_chart_table(c);
    /* x, scale=1, its low and high, scale=10; rows by increasing x */
    DG_CHECK_INT(t->ncols, 5);
    DG_CHECK_INT(t->nrows, 3);
    DG_CHECK_NEAR(t->cells[0].num, 1, 0);
    DG_CHECK_NEAR(t->cells[1].num, 100, 0);
    DG_CHECK(isnan(t->cells[4].num));
    DG_CHECK_NEAR(t->cells[5 + 4].num, 120, 0);
    DG_CHECK_NEAR(t->cells[10 + 2].num, 290, 0);
    DG_CHECK_STR(t->cols[2].name, "scale=1 low");
    DG_CHECK_INT(dg_rep_chart_points(c), 3);
    dg_rep_chart_autolog(c, true, 4);
    DG_CHECK(c->x.log);
    dg_rep_chart_autolog(c, false, 4);
    DG_CHECK(!c->y.log);
    dg_rep_table_free(t);
    dg_report_free(r);
}

/* A second y axis: the right-hand series' table columns take its unit; the SVG draws its
 * ticks and title on the right, and a point at the top of the right-hand range sits at the
 * top of the plot while the left series keeps its own scale. */
static void test_chart_y2(void)
{
    dg_report *r = dg_report_new("t");
    dg_rep_section *sec = dg_report_section(r, "s", "S");
    dg_rep_chart *c = dg_rep_chart_add(sec, "c", "TPS and CPU", DG_CHART_LINE);
    dg_rep_axis_set(&c->x, "terminals", NULL);
    dg_rep_axis_set(&c->y, "throughput", "tx/s");
    dg_rep_axis_set(&c->y2, "host CPU", "%");
    c->y.zero = true;
    dg_rep_series_add(c, "throughput");
    dg_rep_series_add(c, "host CPU");
    c->series[1].right = true;
    dg_rep_point_add(&c->series[0], 1, 1000, NAN, NAN);
    dg_rep_point_add(&c->series[0], 2, 3000, NAN, NAN);
    dg_rep_point_add(&c->series[1], 1, 50, NAN, NAN);
    dg_rep_point_add(&c->series[1], 2, 100, NAN, NAN);
    dg_rep_table *t = dg_rep_chart_table(c);
    DG_CHECK_INT(t->ncols, 3);
    DG_CHECK_STR(t->cols[1].unit, "tx/s");
    DG_CHECK_STR(t->cols[2].unit, "%");
    dg_rep_table_free(t);
    dg_strbuf svg = DG_STRBUF_INIT;
    dg_svg_chart(&svg, c, "u1");
    const char *s = dg_sb_str(&svg);
    DG_CHECK(strstr(s, "class=\"axis y2\"") != NULL);
    DG_CHECK(strstr(s, "class=\"tick y2\" data-v=\"100\"") != NULL);
    DG_CHECK(strstr(s, ">host CPU (%)</text>") != NULL);
    /* both series end at the top of their own axis: their paths end at the same y */
    const char *p1 = strstr(s, "data-series=\"throughput\" d=\"");
    const char *p2 = strstr(s, "data-series=\"host CPU\" d=\"");
    DG_CHECK(p1 && p2);
    if (p1 && p2) {
        double x1, y1, x2, y2, xa, ya, xb, yb;
        DG_CHECK_INT(sscanf(p1 + strlen("data-series=\"throughput\" d=\""), "M%lf %lfL%lf %lf", &xa,
                            &ya, &x1, &y1), 4);
        DG_CHECK_INT(sscanf(p2 + strlen("data-series=\"host CPU\" d=\""), "M%lf %lfL%lf %lf", &xb,
                            &yb, &x2, &y2), 4);
        DG_CHECK_NEAR(y1, y2, 0.01);   /* 3000 of 0..3000 and 100 of 0..100 */
        DG_CHECK(yb > y2 && ya > y1); /* 50 % and 1000 tx/s lower down */
        /* 50 % is half way down, 1000 of 3000 two thirds: 1/2 = 0.75 x 2/3 */
        DG_CHECK(fabs((yb - y2) - (ya - y1) * 0.75) < 1);
    }
    dg_sb_free(&svg);
    dg_report_free(r);
}

/* A load's timeline becomes "Load speed and host CPU over time": MB/s on the left, CPU on
 * the right-hand axis, the end-of-load sliver left out. */
static void test_load_timeline(void)
{
    const char *dir = getenv("DG_FIXTURES");
    if (!dir) {
        DG_CHECK(0);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/results/small.json", dir);
    json_t *doc = NULL;
    dg_err err;
    DG_CHECK_INT(dg_result_read(path, &doc, &err), 0);
    if (!doc)
        return;
    json_t *load = json_object_get(doc, "load");
    json_object_set_new(load, "timeline",
                        json_pack("[{s:f, s:f, s:f, s:f}, {s:f, s:f, s:f, s:f}, {s:f, s:f, s:f, s:f}]",
                                  "t_s", 1.0, "dur_s", 1.0, "mb_per_s", 30.0, "cpu_pct", 80.0,
                                  "t_s", 2.0, "dur_s", 1.0, "mb_per_s", 10.0, "cpu_pct", 95.0,
                                  "t_s", 2.05, "dur_s", 0.05, "mb_per_s", 0.0, "cpu_pct", 0.0));
    char tmp[] = "/tmp/dg-test-report-XXXXXX";
    int fd = mkstemp(tmp);
    DG_CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    DG_CHECK_INT(json_dump_file(doc, tmp, 0), 0);
    json_decref(doc);
    dg_rep_set set = {0};
    DG_CHECK_INT(dg_rep_set_add(&set, tmp, &err), 0);
    dg_rep_set_label(&set);
    dg_report *r = dg_report_build(&set);
    const dg_rep_chart *c = NULL;
    for (int i = 0; i < r->nsections; i++)
        for (int j = 0; j < r->sections[i].nitems; j++) {
            const dg_rep_item *it = &r->sections[i].items[j];
            if (it->kind == DG_ITEM_CHART && strstr(it->chart->id, "-loadtime"))
                c = it->chart;
        }
    DG_CHECK(c != NULL);
    if (c) {
        DG_CHECK_INT(c->nseries, 2);
        DG_CHECK(!c->series[0].right && c->series[1].right);
        DG_CHECK_INT(c->series[0].n, 2);
        DG_CHECK_NEAR(c->series[0].pts[1].y, 10, 0);
        DG_CHECK_NEAR(c->series[1].pts[0].y, 80, 0);
        DG_CHECK_STR(c->y2.unit, "%");
    }
    dg_report_free(r);
    dg_rep_set_free(&set);
    unlink(tmp);
}

int main(void)
{
    DG_RUN(test_betainc);
    DG_RUN(test_t_distribution);
    DG_RUN(test_describe_median);
    DG_RUN(test_batch_means);
    DG_RUN(test_welch);
    DG_RUN(test_nice_scales);
    DG_RUN(test_escape);
    DG_RUN(test_latency_from_histograms);
    DG_RUN(test_chart_table);
    DG_RUN(test_chart_y2);
    DG_RUN(test_load_timeline);
    DG_TEST_END();
}
