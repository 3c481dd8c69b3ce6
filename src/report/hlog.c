/* hlog.c - the measured intervals as an HdrHistogram interval log: see hlog.h. */
#include "report/hlog.h"

#include "core/clock.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "results/result.h"
#include "stats/hdr_codec.h"
#include "stats/hist.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

struct dg_hlog {
    bool started;
    double start_s; /* StartTime: the first interval's start, seconds since the epoch */
    dg_hist all, one;
    dg_hdr_coder *coder;
    dg_strbuf enc, tagged;
};

dg_hlog *dg_hlog_new(void)
{
    dg_hlog *h = xcalloc(1, sizeof *h);
    h->coder = dg_hdr_coder_new();
    h->enc = (dg_strbuf)DG_STRBUF_INIT;
    h->tagged = (dg_strbuf)DG_STRBUF_INIT;
    if (dg_hist_init(&h->all) != 0 || dg_hist_init(&h->one) != 0) {
        dg_hlog_free(h);
        return NULL;
    }
    return h;
}

void dg_hlog_free(dg_hlog *h)
{
    if (!h)
        return;
    dg_hist_destroy(&h->all);
    dg_hist_destroy(&h->one);
    dg_hdr_coder_free(h->coder);
    dg_sb_free(&h->enc);
    dg_sb_free(&h->tagged);
    free(h);
}

/* One data line: [Tag=TAG,]start,length,max_ms,histogram */
static void line(dg_strbuf *out, const char *tag, double start, double len, int64_t max_ns,
                 const char *b64)
{
    if (tag)
        dg_sb_printf(out, "Tag=%s,", tag);
    dg_sb_printf(out, "%.3f,%.3f,%.3f,%s\n", start, len, (double)max_ns / 1e6, b64);
}

/* A tag may not hold what separates the fields of a line (HdrHistogram's rule). */
static bool tag_ok(const char *t)
{
    for (; *t; t++)
        if (*t == ',' || *t == ' ' || *t == '\n' || *t == '\r')
            return false;
    return true;
}

int dg_hlog_interval(dg_hlog *h, const json_t *iv, int64_t end_wall_ns, dg_strbuf *out)
{
    double len = dg_res_num(iv, "dur_s", 0);
    double end_s = (double)end_wall_ns / 1e9;
    if (!h->started) {
        h->started = true;
        h->start_s = end_s - len;
        char when[32];
        dg_format_iso8601((int64_t)(h->start_s * 1e9), when, sizeof when);
        dg_sb_printf(out, "#[Logged with dbgauge]\n#[Histogram log format version 1.3]\n"
                          "#[StartTime: %.3f (seconds since epoch), %s]\n"
                          "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                          "\"Interval_Compressed_Histogram\"\n",
                     h->start_s, when);
    }
    double start = end_s - len - h->start_s;
    if (start < 0)
        start = 0;
    int rc = 0;
    dg_hist_reset(&h->all);
    dg_sb_reset(&h->tagged);
    const json_t *hists = json_object_get(iv, "histograms");
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)hists, name, v)
    {
        dg_hist_reset(&h->one);
        dg_err err = DG_ERR_INIT;
        if (!json_is_string(v) ||
            dg_hdr_decode(h->coder, json_string_value(v), json_string_length(v), &h->one, &err) != 0) {
            rc = DG_E_PARSE;
            continue;
        }
        dg_hist_merge(&h->all, &h->one);
        if (tag_ok(name))
            line(&h->tagged, name, start, len, h->one.max_ns, json_string_value(v));
    }
    dg_sb_reset(&h->enc);
    if (dg_hdr_encode(h->coder, &h->all, &h->enc) == 0)
        line(out, NULL, start, len, h->all.max_ns, dg_sb_str(&h->enc));
    dg_sb_add(out, dg_sb_str(&h->tagged));
    return rc;
}
