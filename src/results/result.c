/* result.c - result documents: atomic write, validated read, histogram (de)serialisation. */
#include "results/result.h"

#include "core/buildinfo.h"
#include "core/file.h"

#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef DG_VERSION
#define DG_VERSION "0.0.0"
#endif

json_t *dg_result_new(void)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "dbgauge",
                        json_pack("{s:s, s:s, s:i}", "version", DG_VERSION, "commit", dg_build_commit(),
                                  "format", DG_RESULT_FORMAT));
    return doc;
}

json_t *dg_json_real(double v)
{
    if (!isfinite(v))
        return json_null();
    return json_real(v);
}

/* mkdir -p for the parent directory of path. */
static int make_parent(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        free(dir);
        return 0;
    }
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
                free(dir);
                return -1;
            }
            *p = '/';
        }
    }
    int rc = mkdir(dir, 0777) != 0 && errno != EEXIST ? -1 : 0;
    free(dir);
    return rc;
}

int dg_result_write(json_t *doc, const char *path, dg_err *err)
{
    if (make_parent(path) != 0)
        return dg_err_fail(err, DG_E_IO, "cannot create the directory for '%s': %s", path,
                           strerror(errno));
    char *text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    if (!text)
        return dg_err_fail(err, DG_E_NOMEM, "cannot serialise the result document");
    size_t len = strlen(text);
    char *withnl = xrealloc(text, len + 2);
    withnl[len] = '\n';
    withnl[len + 1] = '\0';
    int rc = dg_file_write(path, withnl, len + 1, "result file", err);
    free(withnl);
    return rc;
}

int dg_result_read(const char *path, json_t **out, dg_err *err)
{
    /* a regular file of a sane size: a FIFO would block, /dev/zero never end, and a parse
     * tree takes several times the file's size in memory */
    struct stat st;
    if (stat(path, &st) != 0)
        return dg_err_fail(err, DG_E_IO, "cannot read result file '%s': %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return dg_err_fail(err, DG_E_IO, "result file '%s' is not a regular file", path);
    if (st.st_size > DG_RESULT_MAX_BYTES)
        return dg_err_fail(err, DG_E_IO, "result file '%s' is too large (%lld bytes; the limit is %d MiB)",
                           path, (long long)st.st_size, DG_RESULT_MAX_BYTES >> 20);
    /* read whole, then parsed from memory: jansson reads a FILE a character at a time
     * (getc), a quarter of merge's time on big parts */
    FILE *f = fopen(path, "rb");
    if (!f)
        return dg_err_fail(err, DG_E_IO, "cannot read result file '%s': %s", path, strerror(errno));
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap || cap > (size_t)DG_RESULT_MAX_BYTES)
            break;
        buf = xrealloc(buf, cap *= 2); /* it grew since stat */
    }
    bool failed = ferror(f) != 0;
    int read_errno = errno;
    fclose(f);
    if (failed || len > (size_t)DG_RESULT_MAX_BYTES) {
        free(buf);
        if (failed)
            return dg_err_fail(err, DG_E_IO, "cannot read result file '%s': %s", path,
                               strerror(read_errno));
        return dg_err_fail(err, DG_E_IO, "result file '%s' is too large (the limit is %d MiB)", path,
                           DG_RESULT_MAX_BYTES >> 20);
    }
    json_error_t je;
    json_t *doc = json_loadb(buf, len, 0, &je);
    free(buf);
    if (!doc)
        return dg_err_fail(err, DG_E_PARSE, "%s:%d:%d: error: %s", path, je.line, je.column,
                           je.text);
    json_t *fmt = json_object_get(json_object_get(doc, "dbgauge"), "format");
    if (!json_is_object(doc) || !fmt) {
        json_decref(doc);
        return dg_err_fail(err, DG_E_PARSE, "%s: not a dbgauge result file (no dbgauge.format)",
                           path);
    }
    if (!json_is_integer(fmt) || json_integer_value(fmt) < 1) {
        /* the value as the file has it, shortened: a format is a small integer */
        char *shown = json_dumps(fmt, JSON_ENCODE_ANY | JSON_COMPACT);
        char accepted[48];
        if (DG_RESULT_FORMAT == 1)
            snprintf(accepted, sizeof accepted, "format 1");
        else
            snprintf(accepted, sizeof accepted, "formats 1 to %d", DG_RESULT_FORMAT);
        int rc = dg_err_fail(err, DG_E_PARSE,
                             "%s: dbgauge.format %.40s%s is not a result format (this dbgauge reads "
                             "%s, an integer)",
                             path, shown ? shown : "?", shown && strlen(shown) > 40 ? "..." : "",
                             accepted);
        free(shown);
        json_decref(doc);
        return rc;
    }
    /* fmt is borrowed from doc: read the number before the document is released */
    json_int_t format = json_integer_value(fmt);
    if (format > DG_RESULT_FORMAT) {
        json_decref(doc);
        return dg_err_fail(err, DG_E_PARSE,
                           "%s: result format %lld is newer than this dbgauge understands (%d)",
                           path, (long long)format, DG_RESULT_FORMAT);
    }
    *out = doc;
    return 0;
}

json_t *dg_result_latency(const dg_hist *h)
{
    if (h->total == 0)
        return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "avg", json_null(), "min",
                         json_null(), "max", json_null(), "p50", json_null(), "p90", json_null(),
                         "p95", json_null(), "p99", json_null(), "p999", json_null());
    const double ms = 1e6;
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                     "avg", dg_json_real(dg_hist_mean(h) / ms),
                     "min", dg_json_real((double)h->min_ns / ms),
                     "max", dg_json_real((double)h->max_ns / ms),
                     "p50", dg_json_real((double)dg_hist_percentile(h, 50) / ms),
                     "p90", dg_json_real((double)dg_hist_percentile(h, 90) / ms),
                     "p95", dg_json_real((double)dg_hist_percentile(h, 95) / ms),
                     "p99", dg_json_real((double)dg_hist_percentile(h, 99) / ms),
                     "p999", dg_json_real((double)dg_hist_percentile(h, 99.9) / ms));
}

/* One [low_ns, count] pair; built directly, not with json_pack, whose format parsing cost
 * more than the pair itself (a long run's histograms have thousands of buckets). */
static int add_bucket(void *arg, int64_t low_ns, uint64_t count)
{
    json_t *pair = json_array();
    json_array_append_new(pair, json_integer((json_int_t)low_ns));
    json_array_append_new(pair, json_integer((json_int_t)count));
    json_array_append_new(arg, pair);
    return 0;
}

json_t *dg_result_hist(const dg_hist *h)
{
    json_t *b = json_array();
    dg_hist_foreach(h, add_bucket, b);
    return json_pack("{s:s, s:o, s:I, s:I, s:I}", "unit", "ns", "buckets", b, "min_ns",
                     (json_int_t)(h->total ? h->min_ns : 0), "max_ns", (json_int_t)h->max_ns,
                     "sum_ns", (json_int_t)h->sum_ns);
}

int dg_result_hist_read(const json_t *j, dg_hist *h)
{
    json_t *b = json_object_get(j, "buckets");
    if (!json_is_array(b))
        return DG_E_PARSE;
    size_t i;
    json_t *pair;
    json_array_foreach(b, i, pair)
    {
        json_t *lo = json_array_get(pair, 0), *n = json_array_get(pair, 1);
        if (!json_is_integer(lo) || !json_is_integer(n) || json_integer_value(n) < 0)
            return DG_E_PARSE;
        dg_hist_record_n(h, (int64_t)json_integer_value(lo), (uint64_t)json_integer_value(n));
    }
    /* exact extremes and sum override the bucket approximations */
    json_t *mn = json_object_get(j, "min_ns"), *mx = json_object_get(j, "max_ns"),
           *sm = json_object_get(j, "sum_ns");
    if (h->total && json_is_integer(mn) && json_is_integer(mx)) {
        h->min_ns = (int64_t)json_integer_value(mn);
        h->max_ns = (int64_t)json_integer_value(mx);
    }
    if (h->total && json_is_integer(sm))
        h->sum_ns = (uint64_t)json_integer_value(sm);
    return 0;
}

json_t *dg_res_get(const json_t *doc, const char *path)
{
    const json_t *cur = doc;
    const char *p = path;
    while (cur && *p) {
        size_t n = strcspn(p, ".");
        char key[128];
        if (n >= sizeof key)
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        if (json_is_array(cur)) {
            char *end;
            long idx = strtol(key, &end, 10);
            cur = *end ? NULL : json_array_get(cur, (size_t)idx);
        } else {
            cur = json_object_get(cur, key);
        }
        p += n;
        if (*p == '.')
            p++;
    }
    return (json_t *)cur;
}

double dg_res_num(const json_t *doc, const char *path, double dflt)
{
    json_t *v = dg_res_get(doc, path);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

int dg_res_ranked(const json_t *obj, const char **names, int max)
{
    int n = 0;
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)obj, name, v)
    {
        if (!json_is_number(v))
            continue;
        double x = json_number_value(v);
        int k = n < max ? n++ : max; /* full: it competes for the last place */
        while (k > 0 && json_number_value(json_object_get(obj, names[k - 1])) < x) {
            if (k < max)
                names[k] = names[k - 1];
            k--;
        }
        if (k < max)
            names[k] = name;
    }
    return n;
}

const char *dg_res_str(const json_t *doc, const char *path)
{
    return json_string_value(dg_res_get(doc, path));
}
