/*
 * merge.c - the parts of one run as one result document (see merge.h).
 *
 * Layout: checks that the parts belong together; then the merged document, section by
 * section: run, totals (warmup, drain), transactions (whole-run histograms, exact),
 * intervals (per-type HdrHistogram strings decoded, added and encoded again; the
 * interval's percentiles from their sum), monitor, workload metrics, errors and the list
 * of parts.
 */
#include "results/merge.h"
#include "results/verdict.h"

#include "core/parallel.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "results/result.h"
#include "stats/hdr_codec.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge {
    json_t *const *docs; /* in part index order */
    const char *const *paths;
    const int *index;    /* index[k]: docs[k]'s part index */
    int n;               /* the parts merged */
    int whole;           /* the run's parts: n and the missing ones */
    const dg_merge_gap *gaps;
    int ngaps;
} merge;

/* ---- belonging together ------------------------------------------------------------------ */

static char *shown(const json_t *v)
{
    if (!v)
        return xstrdup("(none)");
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (s && strlen(s) > 60)
        strcpy(s + 57, "...");
    return s ? s : xstrdup("?");
}

/* The fields every part must hold alike (dotted paths). */
static const char *const same_fields[] = {
    "dbgauge.version", "run.workload", "run.workload_hash", "run.scale", "run.backend", "run.db",
    "run.mix", "run.seed", "run.part.count", "run.part.whole_terminals", "run.duration_s",
    "run.transactions_per_terminal", "run.warmup_s", "run.interval_s", "run.think_time_ms",
    "run.think_time_exponential", "run.keying_think", "run.pipeline", "run.max_tries",
    "run.start_at",
};

static int check_one(const json_t *d, const char *path, int n, int whole, dg_err *err)
{
    if (dg_res_str(d, "kind"))
        return dg_err_fail(err, DG_E_INVAL, "%s is a %s's result: merge takes the parts of a run",
                           path, dg_res_str(d, "kind"));
    if (!json_is_object(dg_res_get(d, "run.part")))
        return dg_err_fail(err, DG_E_INVAL,
                           "%s is not a part of a run (no run.part: it ran without --part K/N)", path);
    if (!json_is_boolean(dg_res_get(d, "run.complete")))
        return dg_err_fail(err, DG_E_INVAL, "%s is the record of a run that never started", path);
    if (!dg_res_str(d, "run.start_at"))
        return dg_err_fail(err, DG_E_INVAL,
                           "%s ran without --start-at: parts started apart have intervals that "
                           "do not line up (give every part the same --start-at)",
                           path);
    double count = dg_res_num(d, "run.part.count", -1);
    if (count != whole && whole == n)
        return dg_err_fail(err, DG_E_INVAL, "%s is a part of %g, but %d files were given", path,
                           count, n);
    if (count != whole)
        return dg_err_fail(err, DG_E_INVAL, "%s is a part of %g, but the run has %d parts", path,
                           count, whole);
    const json_t *ivs = dg_res_get(d, "intervals");
    size_t i;
    const json_t *iv;
    json_array_foreach(ivs, i, iv)
    {
        if (!json_is_object(json_object_get(iv, "histograms")))
            return dg_err_fail(err, DG_E_INVAL,
                               "%s has no per-interval histograms (result format 1): its "
                               "percentiles cannot be merged exactly",
                               path);
    }
    return 0;
}

/* Orders the parts by index: by[j] is the position in the arguments of the j-th part
 * present, index[j] its part index (whole = n + ngaps parts; the gaps' indices are
 * missing). */
static int check_parts(json_t *const *docs, const char *const *paths, int n, const dg_merge_gap *gaps,
                       int ngaps, int *by, int *index, double max_skew_ms, dg_err *err)
{
    int whole = n + ngaps;
    int *pos = xcalloc((size_t)whole, sizeof *pos); /* part index -> argument + 1; -1: a gap */
    int rc = 0;
    for (int g = 0; g < ngaps; g++) {
        if (gaps[g].index < 0 || gaps[g].index >= whole || pos[gaps[g].index]) {
            rc = dg_err_fail(err, DG_E_INVAL, "missing part %d is not one of 0 ... %d, or named twice",
                             gaps[g].index, whole - 1);
            goto out;
        }
        pos[gaps[g].index] = -1;
    }
    for (int i = 0; i < n; i++) {
        if ((rc = check_one(docs[i], paths[i], n, whole, err)) != 0)
            goto out;
        double k = dg_res_num(docs[i], "run.part.index", -1);
        if (k < 0 || k >= whole || k != floor(k)) {
            rc = dg_err_fail(err, DG_E_INVAL, "%s: run.part.index %g is not a part of 0 ... %d",
                             paths[i], k, whole - 1);
            goto out;
        }
        if (pos[(int)k] < 0) {
            rc = dg_err_fail(err, DG_E_INVAL, "%s is part %d/%d, which is missing", paths[i], (int)k, whole);
            goto out;
        }
        if (pos[(int)k] > 0) {
            rc = dg_err_fail(err, DG_E_INVAL, "part %d/%d given twice: %s and %s", (int)k, whole,
                             paths[pos[(int)k] - 1], paths[i]);
            goto out;
        }
        pos[(int)k] = i + 1;
    }
    for (int k = 0, j = 0; k < whole; k++)
        if (pos[k] > 0) {
            by[j] = pos[k] - 1;
            index[j++] = k;
        }
out:
    free(pos);
    if (rc)
        return rc;
    for (size_t f = 0; f < sizeof same_fields / sizeof same_fields[0]; f++) {
        const json_t *a = dg_res_get(docs[by[0]], same_fields[f]);
        for (int k = 1; k < n; k++) {
            const json_t *b = dg_res_get(docs[by[k]], same_fields[f]);
            if ((a || b) && !(a && b && json_equal(a, b))) {
                char *sa = shown(a), *sb = shown(b);
                rc = dg_err_fail(err, DG_E_INVAL,
                                 "the parts do not belong to one run: %s is %s in %s but %s in %s",
                                 same_fields[f], sa, paths[by[0]], sb, paths[by[k]]);
                free(sa);
                free(sb);
                return rc;
            }
        }
    }
    double interval_ms = dg_res_num(docs[by[0]], "run.interval_s", 0) * 1000;
    double skew = max_skew_ms > 0 ? max_skew_ms : fmax(interval_ms / 100, DG_MERGE_SKEW_MIN_MS);
    for (int k = 0; k < n; k++) {
        double late = dg_res_num(docs[by[k]], "run.start_late_ms", NAN);
        if (!(late <= skew)) {
            char why[96];
            if (max_skew_ms > 0)
                snprintf(why, sizeof why, "--max-skew");
            else
                snprintf(why, sizeof why, "1%% of the interval, at least %.0f ms; --max-skew allows more",
                         DG_MERGE_SKEW_MIN_MS);
            return dg_err_fail(err, DG_E_INVAL,
                               "%s started measuring %.1f ms after --start-at: its intervals are "
                               "off the others' by more than %.0f ms (%s)",
                               paths[by[k]], late, skew, why);
        }
    }
    return 0;
}

/* ---- adding ------------------------------------------------------------------------------- */

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Sets key to the sum of the parts' integer values at path/key (absent counts as 0). */
static void sum_int(json_t *dst, const char *key, const json_t *const *src, int n)
{
    json_int_t s = 0;
    for (int k = 0; k < n; k++) {
        const json_t *v = json_object_get(src[k], key);
        if (json_is_integer(v))
            s += json_integer_value(v);
    }
    json_object_set_new(dst, key, json_integer(s));
}

static void max_real(json_t *dst, const char *key, const json_t *const *src, int n)
{
    double m = NAN;
    for (int k = 0; k < n; k++) {
        double v = num(src[k], key);
        if (!isnan(v) && (isnan(m) || v > m))
            m = v;
    }
    json_object_set_new(dst, key, dg_json_real(m));
}

/* The parts' objects at a dotted path (NULL where a part lacks it). */
static void at(const merge *m, const char *path, const json_t **out)
{
    for (int k = 0; k < m->n; k++)
        out[k] = dg_res_get(m->docs[k], path);
}

/* totals / warmup: counts added, the rate over the (common) duration */
/* A run on several nodes: dst's "nodes" (a copy of the first part's: the nodes' own
 * figures are the same servers read by every part) with what the parts' terminals did on
 * each node summed, and the rate over dur_s again. */
static void merge_nodes(json_t *dst, const json_t *const *src, int n, double dur_s)
{
    json_t *nodes = json_deep_copy(json_object_get(src[0], "nodes"));
    if (!json_is_array(nodes)) {
        json_decref(nodes);
        return;
    }
    static const char *const counts[] = {"transactions", "errors", "arrivals", "dbgauge_committed"};
    size_t i;
    json_t *nd;
    json_array_foreach(nodes, i, nd)
    {
        const json_t *at_node[n];
        for (int k = 0; k < n; k++)
            at_node[k] = json_array_get(json_object_get(src[k], "nodes"), i);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            if (json_object_get(nd, counts[c]))
                sum_int(nd, counts[c], at_node, n);
        json_object_set_new(nd, "tps", dg_json_real(dur_s > 0 ? num(nd, "transactions") / dur_s : NAN));
    }
    json_object_set_new(dst, "nodes", nodes);
}

/* Shares (0..1) of the parts' src[k][key], each weighted by its count src[k][wkey]: the
 * counts added and divided again (a wait profile's classes and events). */
static json_t *merged_shares(const json_t *const *src, int n, const char *key, const char *wkey)
{
    json_t *out = json_object();
    double total = 0;
    for (int k = 0; k < n; k++) {
        double w = num(src[k], wkey);
        if (!(w > 0))
            continue;
        total += w;
        const char *name;
        json_t *v;
        json_object_foreach(json_object_get(src[k], key), name, v)
        {
            double cur = num(out, name);
            json_object_set_new(out, name, json_real((isnan(cur) ? 0 : cur) + json_number_value(v) * w));
        }
    }
    const char *name;
    json_t *v;
    json_object_foreach(out, name, v) json_real_set(v, json_real_value(v) / total);
    return out;
}

/* One part of a wait profile (a type's, all types', an interval's "waits") over the parts
 * that have it: counts added, shares weighted by the sessions each part sampled. */
static json_t *merge_wait_shares(const json_t *const *src, int n, const char *wkey)
{
    const json_t *have[n];
    int nh = 0;
    for (int k = 0; k < n; k++)
        if (src[k])
            have[nh++] = src[k];
    if (!nh)
        return NULL;
    json_t *o = json_copy((json_t *)have[0]);
    json_object_set_new(o, "classes", merged_shares(have, nh, "classes", wkey));
    if (json_object_get(o, "events"))
        json_object_set_new(o, "events", merged_shares(have, nh, "events", wkey));
    sum_int(o, wkey, have, nh);
    if (strcmp(wkey, "samples") != 0)
        sum_int(o, "samples", have, nh);
    return o;
}

/* "wait_profile": each part sampled its own terminals' sessions, so the counts add; one
 * part without a profile leaves the run without one (its sessions' waits are unknown). */
static json_t *merge_wait_profile(const merge *m)
{
    const json_t *src[m->n];
    at(m, "wait_profile", src);
    for (int k = 0; k < m->n; k++)
        if (!json_is_true(json_object_get(src[k], "available"))) {
            json_t *j = json_object();
            json_object_set_new(j, "available", json_false());
            const char *why = dg_res_str(src[k], "reason");
            json_object_set_new(j, "reason", json_sprintf("part %d has no wait profile%s%s",
                                                          m->index[k], why ? ": " : "", why ? why : ""));
            return j;
        }
    json_t *w = json_deep_copy(src[0]);
    static const char *const counts[] = {"samples", "queries", "late", "failed", "unseen"};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        sum_int(w, counts[c], src, m->n);
    double busy = 0, qms = 0, nq = 0;
    for (int k = 0; k < m->n; k++) {
        double q = num(src[k], "queries"), a = num(src[k], "query_ms_avg"), b = num(src[k], "busy_pct");
        if (q > 0 && !isnan(a)) {
            qms += a * q;
            nq += q;
        }
        busy += isnan(b) ? 0 : b; /* a sampler session per part: their costs add */
    }
    json_object_set_new(w, "query_ms_avg", nq > 0 ? json_real(qms / nq) : json_null());
    json_object_set_new(w, "busy_pct", json_real(busy));
    json_object_set_new(w, "parts", json_integer(m->n));
    const json_t *part[m->n];
    for (int k = 0; k < m->n; k++)
        part[k] = json_object_get(src[k], "all");
    json_object_set_new(w, "all", merge_wait_shares(part, m->n, "samples"));
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(w, "types"), name, v)
    {
        for (int k = 0; k < m->n; k++)
            part[k] = json_object_get(json_object_get(src[k], "types"), name);
        json_object_set_new(json_object_get(w, "types"), name, merge_wait_shares(part, m->n, "samples"));
    }
    return w;
}

/* "cluster": the first part's, with the parts' per-node counts summed and the audit's
 * dbgauge side the whole run's. */
static json_t *merge_cluster(const merge *m, double dur_s)
{
    const json_t *src[m->n];
    at(m, "cluster", src);
    json_t *c = json_deep_copy(src[0]);
    merge_nodes(c, src, m->n, dur_s);
    json_t *au = json_object_get(c, "audit");
    if (au) {
        const json_t *aus[m->n];
        for (int k = 0; k < m->n; k++)
            aus[k] = json_object_get(src[k], "audit");
        sum_int(au, "dbgauge_committed", aus, m->n);
        sum_int(au, "unknown_outcome", aus, m->n);
        const json_t *srv = json_object_get(au, "cluster_committed");
        if (json_is_integer(srv) && !json_is_null(json_object_get(au, "exact"))) {
            json_int_t d = json_integer_value(srv) - json_integer_value(json_object_get(au, "dbgauge_committed"));
            json_object_set_new(au, "exact", json_boolean(d == 0));
            json_object_set_new(au, "consistent", json_boolean(
                d >= 0 && d <= json_integer_value(json_object_get(au, "unknown_outcome"))));
        }
    }
    return c;
}

static json_t *merge_totals(const merge *m, const char *path)
{
    const json_t *src[m->n];
    at(m, path, src);
    json_t *t = json_deep_copy(src[0]);
    if (!t)
        return json_null();
    static const char *const counts[] = {"transactions", "errors", "retries", "retried",
                                         "rollbacks", "unknown_outcome"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (json_object_get(t, counts[i]))
            sum_int(t, counts[i], src, m->n);
    max_real(t, "duration_s", src, m->n);
    double dur = num(t, "duration_s");
    json_object_set_new(t, "tps", dg_json_real(dur > 0 ? num(t, "transactions") / dur : NAN));
    return t;
}

static json_t *merge_drain(const merge *m)
{
    const json_t *src[m->n];
    at(m, "drain", src);
    json_t *d = json_deep_copy(src[0]);
    if (!d)
        return json_null();
    static const char *const counts[] = {"transactions", "rollbacks", "errors", "unknown_outcome"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        sum_int(d, counts[i], src, m->n);
    max_real(d, "duration_s", src, m->n);
    json_t *by = json_object_get(d, "by_transaction");
    const char *name;
    json_t *entry;
    json_object_foreach(by, name, entry)
    {
        const json_t *parts[m->n];
        for (int k = 0; k < m->n; k++)
            parts[k] = json_object_get(json_object_get(src[k], "by_transaction"), name);
        const char *key;
        json_t *v;
        void *tmp;
        json_object_foreach_safe(entry, tmp, key, v)
        {
            if (json_is_integer(v))
                sum_int(entry, key, parts, m->n);
        }
    }
    return d;
}

/* errors_by_class {"CLASS": n}: added */
static json_t *sum_objects(const json_t *const *src, int n)
{
    json_t *o = json_object();
    for (int k = 0; k < n; k++) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)src[k], key, v)
        {
            json_int_t have = json_integer_value(json_object_get(o, key));
            json_object_set_new(o, key, json_integer(have + json_integer_value(v)));
        }
    }
    return o;
}

/* A part's transactions[] entry named `name`. */
static const json_t *tx_entry(const json_t *doc, const char *name)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(doc, "transactions"), i, t)
    {
        if (json_is_string(json_object_get(t, "name")) &&
            !strcmp(json_string_value(json_object_get(t, "name")), name))
            return t;
    }
    return NULL;
}

static int merge_transactions(const merge *m, json_t *doc, dg_hist *h, dg_hist *part, dg_err *err)
{
    json_t *out = json_array();
    size_t i;
    json_t *t0;
    json_array_foreach(json_object_get(m->docs[0], "transactions"), i, t0)
    {
        const char *name = json_string_value(json_object_get(t0, "name"));
        const json_t *src[m->n];
        for (int k = 0; k < m->n; k++)
            src[k] = tx_entry(m->docs[k], name ? name : "");
        json_t *t = json_deep_copy(t0);
        static const char *const counts[] = {"count", "errors", "retries", "retried", "rollbacks"};
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
            sum_int(t, counts[c], src, m->n);
        const json_t *ebc[m->n];
        bool any = false;
        for (int k = 0; k < m->n; k++) {
            ebc[k] = json_object_get(src[k], "errors_by_class");
            any |= ebc[k] != NULL;
            if (!ebc[k])
                ebc[k] = json_object();
        }
        if (any)
            json_object_set_new(t, "errors_by_class", sum_objects(ebc, m->n));
        for (int k = 0; k < m->n; k++)
            if (!json_object_get(src[k], "errors_by_class"))
                json_decref((json_t *)ebc[k]);
        dg_hist_reset(h);
        for (int k = 0; k < m->n; k++) {
            const json_t *hj = json_object_get(src[k], "histogram");
            /* read alone (its exact min, max and sum apply to its own values), then added */
            dg_hist_reset(part);
            if (hj && dg_result_hist_read(hj, part) != 0) {
                json_decref(t);
                json_decref(out);
                return dg_err_fail(err, DG_E_INVAL, "%s: the histogram of transaction '%s' is damaged",
                                   m->paths[k], name ? name : "?");
            }
            dg_hist_merge(h, part);
        }
        json_object_set_new(t, "latency_ms", dg_result_latency(h));
        json_object_set_new(t, "histogram", dg_result_hist(h));
        json_array_append_new(out, t);
    }
    json_object_set_new(doc, "transactions", out);
    return 0;
}

/* The client host's figures of an interval or a run: each part's own, never added. */
static const char *const client_fields[] = {
    "cpu_pct", "cpu_user_pct", "cpu_sys_pct", "cpu_iowait_pct", "self_cpu_pct", "self_cpu_us_per_tx",
    "disk_reads", "disk_writes", "disk_read_bytes", "disk_write_bytes", "iops", "physical_reads_per_tx",
    "self_max_rss_bytes",
};

/* Moves the client figures of the parts' objects src[] (NULL: a part without it) into
 * dst["by_part"] and sets them null in dst. */
static void client_apart(const merge *m, json_t *dst, const json_t *const *src)
{
    json_t *by = json_array();
    for (int k = 0; k < m->n; k++) {
        if (!src[k])
            continue;
        json_t *p = json_object();
        json_object_set_new(p, "part", json_integer(m->index[k]));
        for (size_t f = 0; f < sizeof client_fields / sizeof client_fields[0]; f++) {
            json_t *v = json_object_get(src[k], client_fields[f]);
            if (v)
                json_object_set(p, client_fields[f], v);
        }
        json_object_set(p, "transactions", json_object_get(src[k], "transactions"));
        json_array_append_new(by, p);
    }
    for (size_t f = 0; f < sizeof client_fields / sizeof client_fields[0]; f++)
        if (json_object_get(dst, client_fields[f]))
            json_object_set_new(dst, client_fields[f], json_null());
    json_object_set_new(dst, "by_part", by);
}

static int merge_interval(const merge *m, const json_t *const *src, json_t **out, dg_hist *all,
                          dg_hist *one, dg_hdr_coder *coder, dg_strbuf *sb, dg_err *err)
{
    int first = 0;
    while (!src[first])
        first++;
    /* a shallow copy: every value this function sums is replaced, never changed in place,
     * so the rest is shared with the part (reference counts are atomic: threads may share) */
    json_t *iv = json_copy((json_t *)src[first]);
    const json_t *have[m->n];
    int nh = 0;
    for (int k = 0; k < m->n; k++)
        if (src[k])
            have[nh++] = src[k];
    static const char *const counts[] = {"transactions", "errors", "retries", "rollbacks",
                                         "reconnects", "active_terminals"};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        sum_int(iv, counts[c], have, nh);
    double down = 0;
    for (int k = 0; k < nh; k++)
        down += isnan(num(have[k], "downtime_s")) ? 0 : num(have[k], "downtime_s");
    json_object_set_new(iv, "downtime_s", dg_json_real(down));
    max_real(iv, "dur_s", have, nh);
    double dur = num(iv, "dur_s");
    json_object_set_new(iv, "tps", dg_json_real(dur >= 0.1 ? num(iv, "transactions") / dur : NAN));
    if (json_object_get(iv, "nodes"))
        merge_nodes(iv, have, nh, dur);
    const json_t *waits[nh];
    for (int k = 0; k < nh; k++)
        waits[k] = json_object_get(have[k], "waits");
    json_t *wj = merge_wait_shares(waits, nh, "sessions_sampled");
    if (wj)
        json_object_set_new(iv, "waits", wj);
    else
        json_object_del(iv, "waits");
    const json_t *txs[nh];
    for (int k = 0; k < nh; k++)
        txs[k] = json_object_get(have[k], "tx");
    json_object_set_new(iv, "tx", sum_objects(txs, nh));
    /* per type: the parts' histograms added; all types: their sum */
    dg_hist_reset(all);
    json_t *hists = json_object();
    const char *name;
    json_t *v;
    json_object_foreach(json_object_get(iv, "tx"), name, v)
    {
        dg_hist_reset(one);
        for (int k = 0; k < nh; k++) {
            const json_t *s = json_object_get(json_object_get(have[k], "histograms"), name);
            if (!s)
                continue;
            if (!json_is_string(s) ||
                dg_hdr_decode(coder, json_string_value(s), json_string_length(s), one, err) != 0) {
                dg_err_prefix(err, "the interval at %g s, transaction '%s': ", num(iv, "t_s"), name);
                json_decref(hists);
                json_decref(iv);
                return DG_E_INVAL;
            }
        }
        if (one->total) {
            dg_sb_reset(sb);
            dg_hdr_encode(coder, one, sb);
            json_object_set_new(hists, name, json_string(dg_sb_str(sb)));
            dg_hist_merge(all, one);
        }
    }
    json_object_set_new(iv, "histograms", hists);
    double mx = NAN;
    for (int k = 0; k < nh; k++) {
        double x = dg_res_num(have[k], "latency_ms.max", NAN);
        if (!isnan(x) && (isnan(mx) || x > mx))
            mx = x;
    }
    bool any = all->total > 0;
    json_object_set_new(
        iv, "latency_ms",
        json_pack("{s:o, s:o, s:o, s:o, s:o}", "p50",
                  dg_json_real(any ? (double)dg_hist_percentile(all, 50) / 1e6 : NAN), "p95",
                  dg_json_real(any ? (double)dg_hist_percentile(all, 95) / 1e6 : NAN), "p99",
                  dg_json_real(any ? (double)dg_hist_percentile(all, 99) / 1e6 : NAN), "avg",
                  dg_json_real(any ? dg_hist_mean(all) / 1e6 : NAN), "max", dg_json_real(mx)));
    if (json_object_get(iv, "schedule_lag_ms_p99"))
        max_real(iv, "schedule_lag_ms_p99", have, nh);
    client_apart(m, iv, src);
    *out = iv;
    return 0;
}

/* merge_intervals' work, spread over threads: chunks of CHUNK intervals, each thread with
 * its own histograms and coder; the first failing interval's error is the one reported. */
#define CHUNK 64

typedef struct iv_worker {
    dg_hist all, one;
    dg_hdr_coder *coder;
    dg_strbuf sb;
    dg_err err;
    size_t failed_at; /* the lowest interval that failed here; SIZE_MAX: none */
    int rc;
} iv_worker;

typedef struct iv_job {
    const merge *m;
    const char *key;
    size_t most;
    json_t **out; /* [most] */
    iv_worker *w;
} iv_job;

static void merge_chunk(void *ctx, int worker, int item)
{
    iv_job *job = ctx;
    iv_worker *w = &job->w[worker];
    const merge *m = job->m;
    size_t end = ((size_t)item + 1) * CHUNK < job->most ? ((size_t)item + 1) * CHUNK : job->most;
    for (size_t i = (size_t)item * CHUNK; i < end && i < w->failed_at; i++) {
        const json_t *src[m->n];
        for (int k = 0; k < m->n; k++)
            src[k] = json_array_get(json_object_get(m->docs[k], job->key), i); /* NULL past its end */
        dg_err err = DG_ERR_INIT;
        int rc = merge_interval(m, src, &job->out[i], &w->all, &w->one, w->coder, &w->sb, &err);
        if (rc) {
            w->failed_at = i;
            w->rc = rc;
            w->err = err;
        }
    }
}

static int merge_intervals(const merge *m, json_t *doc, const char *key, dg_err *err)
{
    size_t most = 0;
    for (int k = 0; k < m->n; k++)
        if (json_array_size(json_object_get(m->docs[k], key)) > most)
            most = json_array_size(json_object_get(m->docs[k], key));
    int chunks = (int)((most + CHUNK - 1) / CHUNK);
    int nw = dg_parallel_workers(chunks, 0);
    iv_worker *w = xcalloc((size_t)nw, sizeof *w);
    iv_job job = {.m = m, .key = key, .most = most, .out = xcalloc(most + 1, sizeof(json_t *)), .w = w};
    int rc = 0;
    for (int k = 0; k < nw; k++) {
        w[k].coder = dg_hdr_coder_new();
        w[k].sb = (dg_strbuf)DG_STRBUF_INIT;
        w[k].failed_at = SIZE_MAX;
        if (dg_hist_init(&w[k].all) || dg_hist_init(&w[k].one))
            rc = dg_err_fail(err, DG_E_NOMEM, "out of memory for histograms");
    }
    if (rc == 0 && chunks > 0)
        dg_parallel_for(chunks, nw, merge_chunk, &job);
    size_t failed_at = SIZE_MAX;
    for (int k = 0; k < nw; k++) {
        if (w[k].failed_at < failed_at) {
            failed_at = w[k].failed_at;
            rc = w[k].rc;
            *err = w[k].err;
        }
        dg_hdr_coder_free(w[k].coder);
        dg_sb_free(&w[k].sb);
        dg_hist_destroy(&w[k].all);
        dg_hist_destroy(&w[k].one);
    }
    free(w);
    json_t *out = json_array();
    for (size_t i = 0; i < most; i++) {
        if (rc == 0)
            json_array_append_new(out, job.out[i]);
        else
            json_decref(job.out[i]); /* NULL past the failure: json_decref takes it */
    }
    free(job.out);
    if (rc) {
        json_decref(out);
        return rc;
    }
    json_object_set_new(doc, key, out);
    return 0;
}

/* ---- run, monitor, metrics, the parts ---------------------------------------------------- */

static json_t *merge_run(const merge *m, bool *complete)
{
    const json_t *src[m->n];
    at(m, "run", src);
    json_t *r = json_deep_copy(src[0]);
    /* the terminals whose transactions the result holds: the whole run's -c, less a missing
     * part's share */
    sum_int(r, "terminals", src, m->n);
    json_object_del(r, "part");
    double rate = 0;
    bool rated = false;
    for (int k = 0; k < m->n; k++)
        if (!isnan(num(src[k], "rate_tps"))) {
            rate += num(src[k], "rate_tps");
            rated = true;
        }
    json_object_set_new(r, "rate_tps", rated ? dg_json_real(rate) : json_null());
    sum_int(r, "aborted_terminals", src, m->n);
    sum_int(r, "interrupted_terminals", src, m->n);
    max_real(r, "overrun_s", src, m->n);
    max_real(r, "connect_s", src, m->n);
    max_real(r, "close_s", src, m->n);
    max_real(r, "start_late_ms", src, m->n);
    *complete = true;
    if (m->ngaps) {
        *complete = false;
        json_t *missing = json_array();
        for (int g = 0; g < m->ngaps; g++) {
            json_t *e = json_object();
            json_object_set_new(e, "index", json_integer(m->gaps[g].index));
            json_object_set_new(e, "why", json_string(m->gaps[g].why ? m->gaps[g].why : "no result"));
            json_array_append_new(missing, e);
        }
        char *why = xasprintf("part %d/%d ended without a result: %s", m->gaps[0].index, m->whole,
                              m->gaps[0].why ? m->gaps[0].why : "no result");
        json_object_set_new(r, "complete", json_false());
        json_object_set_new(r, "stop_reason", json_string(why));
        json_object_set_new(r, "missing_parts", missing);
        free(why);
    }
    for (int k = 0; k < m->n && *complete; k++)
        if (!json_is_true(json_object_get(src[k], "complete"))) {
            *complete = false;
            char *why = xasprintf("part %d/%d: %s", m->index[k], m->whole,
                                  dg_res_str(src[k], "stop_reason"));
            json_object_set_new(r, "complete", json_false());
            json_object_set_new(r, "stop_reason", json_string(why));
            free(why);
        }
    json_object_set_new(r, "merged_parts", json_integer(m->n));
    return r;
}

static json_t *merge_monitor(const merge *m)
{
    const json_t *src[m->n];
    at(m, "monitor", src);
    json_t *mo = json_deep_copy(src[0]);
    if (!mo)
        return json_null();
    sum_int(mo, "reconnects", src, m->n);
    double down = 0;
    for (int k = 0; k < m->n; k++)
        down += isnan(num(src[k], "downtime_s")) ? 0 : num(src[k], "downtime_s");
    json_object_set_new(mo, "downtime_s", dg_json_real(down));
    client_apart(m, mo, src);
    /* the one server host's figures, as part 0 read them (the first part that read them:
     * a part may run without --server-host); its I/O per transaction is per the merged
     * run's transactions */
    json_t *sh = NULL;
    for (int k = 0; k < m->n && !sh; k++)
        sh = json_object_get(src[k], "server_host");
    if (sh) {
        json_t *c = json_deep_copy(sh);
        double io = num(c, "disk_reads") + num(c, "disk_writes");
        double tx = 0;
        for (int k = 0; k < m->n; k++)
            tx += num(dg_res_get(m->docs[k], "totals"), "transactions");
        json_object_set_new(c, "io_per_tx", dg_json_real(tx > 0 ? io / tx : NAN));
        json_object_set_new(mo, "server_host", c);
    }
    return mo;
}

/* Workload metrics that add across parts: rates and counts of transactions (their units
 * say so); the scale as part 0 has it; percentages and the rest stay in each part's
 * "parts" entry. */
static void merge_metrics(const merge *m, json_t *doc)
{
    const json_t *units = dg_res_get(m->docs[0], "workload_metric_units");
    const json_t *vals = dg_res_get(m->docs[0], "workload_metrics");
    if (!json_is_object(vals))
        return;
    json_t *out = json_object(), *out_units = json_object();
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)vals, name, v)
    {
        const char *u = json_string_value(json_object_get(units, name));
        if (!u)
            continue;
        bool additive = strstr(u, "/min") || strstr(u, "/s") || !strcmp(u, "transactions") ||
                        !strcmp(u, "attempts") || !strcmp(u, "rows") || !strcmp(u, "documents");
        bool scale = !strcmp(name, "warehouses") || !strcmp(name, "tables");
        if (!additive && !scale)
            continue;
        double s = 0;
        for (int k = 0; k < m->n && additive; k++) {
            const json_t *pv = json_object_get(dg_res_get(m->docs[k], "workload_metrics"), name);
            s += json_is_number(pv) ? json_number_value(pv) : 0;
        }
        json_object_set_new(out, name, additive ? dg_json_real(s) : json_deep_copy(v));
        json_object_set_new(out_units, name, json_string(u));
    }
    json_object_set_new(doc, "workload_metrics", out);
    json_object_set_new(doc, "workload_metric_units", out_units);
}

static json_t *parts_list(const merge *m)
{
    json_t *a = json_array();
    for (int k = 0; k < m->n; k++) {
        const json_t *d = m->docs[k];
        json_t *p = json_object();
        json_object_set_new(p, "index", json_integer(m->index[k]));
        json_object_set_new(p, "file", json_string(m->paths[k]));
        static const char *const run_fields[] = {"terminals", "rate_tps", "started_at", "complete",
                                                 "stop_reason", "start_late_ms", "connect_s", "command"};
        for (size_t f = 0; f < sizeof run_fields / sizeof run_fields[0]; f++) {
            json_t *v = json_object_get(json_object_get(d, "run"), run_fields[f]);
            if (v)
                json_object_set(p, run_fields[f], v);
        }
        json_object_set(p, "first_terminal", dg_res_get(d, "run.part.first_terminal"));
        json_object_set(p, "from", dg_res_get(d, "run.part.from"));
        static const char *const sections[] = {"host", "totals", "monitor", "workload_metrics"};
        for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
            json_t *v = json_object_get(d, sections[s]);
            if (v)
                json_object_set(p, sections[s], v);
        }
        json_array_append_new(a, p);
    }
    return a;
}

/* errors: each part's, with its index; warnings: "part K: ..." */
static void merge_errors(const merge *m, json_t *doc)
{
    json_t *errs = json_array(), *warns = json_array();
    for (int k = 0; k < m->n; k++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(m->docs[k], "errors"), i, e)
        {
            json_t *c = json_deep_copy(e);
            if (json_is_object(c))
                json_object_set_new(c, "part", json_integer(m->index[k]));
            json_array_append_new(errs, c);
        }
        json_array_foreach(json_object_get(m->docs[k], "warnings"), i, e)
        {
            char *w = xasprintf("part %d/%d: %s", m->index[k], m->whole,
                                json_is_string(e) ? json_string_value(e) : "?");
            json_array_append_new(warns, json_string(w));
            free(w);
        }
    }
    json_object_set_new(doc, "errors", errs);
    json_object_set_new(doc, "warnings", warns);
}

int dg_result_merge(json_t *const *docs, const char *const *paths, int n, double max_skew_ms,
                    json_t **out, bool *complete, dg_err *err)
{
    return dg_result_merge_gaps(docs, paths, n, NULL, 0, max_skew_ms, out, complete, err);
}

int dg_result_merge_gaps(json_t *const *docs, const char *const *paths, int n, const dg_merge_gap *gaps,
                         int ngaps, double max_skew_ms, json_t **out, bool *complete, dg_err *err)
{
    if (n < 1)
        return dg_err_fail(err, DG_E_INVAL, "merge needs the result files of a run's parts");
    int *by = xcalloc((size_t)n, sizeof *by);
    int *index = xcalloc((size_t)n, sizeof *index);
    int rc = check_parts(docs, paths, n, gaps, ngaps, by, index, max_skew_ms, err);
    if (rc) {
        free(by);
        free(index);
        return rc;
    }
    json_t **od = xcalloc((size_t)n, sizeof *od);
    const char **op = xcalloc((size_t)n, sizeof *op);
    for (int k = 0; k < n; k++) {
        od[k] = docs[by[k]];
        op[k] = paths[by[k]];
    }
    free(by);
    merge m = {.docs = od, .paths = op, .index = index, .n = n, .whole = n + ngaps, .gaps = gaps,
               .ngaps = ngaps};
    json_t *doc = dg_result_new();
    json_object_set(json_object_get(doc, "dbgauge"), "version", dg_res_get(od[0], "dbgauge.version"));
    json_object_set_new(doc, "run", merge_run(&m, complete));
    static const char *const copied[] = {"server", "host"};
    for (size_t s = 0; s < sizeof copied / sizeof copied[0]; s++)
        if (json_object_get(od[0], copied[s]))
            json_object_set(doc, copied[s], json_object_get(od[0], copied[s]));
    json_object_set_new(doc, "totals", merge_totals(&m, "totals"));
    if (json_object_get(od[0], "cluster"))
        json_object_set_new(doc, "cluster",
                            merge_cluster(&m, num(json_object_get(doc, "totals"), "duration_s")));
    if (json_object_get(od[0], "wait_profile"))
        json_object_set_new(doc, "wait_profile", merge_wait_profile(&m));
    if (json_object_get(od[0], "events")) /* the parts ran the same commands: part 0's */
        json_object_set(doc, "events", json_object_get(od[0], "events"));
    if (json_object_get(od[0], "warmup"))
        json_object_set_new(doc, "warmup", merge_totals(&m, "warmup"));
    if (json_object_get(od[0], "drain"))
        json_object_set_new(doc, "drain", merge_drain(&m));
    dg_hist h, part;
    if (dg_hist_init(&h) != 0 || dg_hist_init(&part) != 0) {
        dg_hist_destroy(&h);
        rc = dg_err_fail(err, DG_E_NOMEM, "out of memory for histograms");
        goto out;
    }
    rc = merge_transactions(&m, doc, &h, &part, err);
    dg_hist_destroy(&h);
    dg_hist_destroy(&part);
    if (rc)
        goto out;
    merge_metrics(&m, doc);
    if ((rc = merge_intervals(&m, doc, "intervals", err)) != 0 ||
        (rc = merge_intervals(&m, doc, "warmup_intervals", err)) != 0)
        goto out;
    if (json_object_get(od[0], "monitor"))
        json_object_set_new(doc, "monitor", merge_monitor(&m));
    merge_errors(&m, doc);
    json_object_set_new(doc, "parts", parts_list(&m));
    dg_verdict_annotate(doc); /* of the merged figures, not part 0's */
out:
    free(od);
    free(op);
    free(index);
    if (rc) {
        json_decref(doc);
        return rc;
    }
    *out = doc;
    return 0;
}
