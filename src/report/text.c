/* text.c - plain-text summaries of result documents. */
#include "report/text.h"

#include "core/units.h"
#include "results/result.h"
#include "results/verdict.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static const char *fmt_ms(double v, char *buf, size_t len)
{
    if (!isfinite(v) || v < 0)
        snprintf(buf, len, "-");
    else if (v < 1)
        snprintf(buf, len, "%.3f", v);
    else if (v < 100)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.0f", v);
    return buf;
}

static double num(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

/* Appends fmt with v to buf (n bytes used of cap) when v was measured; the new length. */
static size_t add_figure(char *buf, size_t cap, size_t n, const char *fmt, double v)
{
    if (!isfinite(v) || n >= cap)
        return n;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int w = snprintf(buf + n, cap - n, fmt, v);
#pragma GCC diagnostic pop
    return w < 0 ? n : n + (size_t)w < cap ? n + (size_t)w : cap - 1;
}

/* The cache hit ratio of each part the engine tells apart (monitor.cache_parts). */
static void cache_parts_line(FILE *out, const json_t *parts)
{
    if (!json_is_object(parts))
        return;
    fputs("  cache hits by part:", out);
    const char *name;
    json_t *p;
    int i = 0;
    json_object_foreach((json_t *)parts, name, p)
    {
        double hit = num(p, "hit_pct");
        if (isfinite(hit))
            fprintf(out, "%s %s %.2f%% (%.0f reads)", i++ ? "," : "", name, hit, num(p, "reads"));
        else
            fprintf(out, "%s %s unused", i++ ? "," : "", name);
    }
    fputc('\n', out);
}

/* Firebird's lock manager over the measured phase (monitor.lock_table). */
static void lock_table_line(FILE *out, const json_t *lt)
{
    if (!lt)
        return;
    if (!json_is_true(json_object_get(lt, "available"))) {
        fprintf(out, "  lock table: not read (%s)\n",
                dg_res_str(lt, "reason") ? dg_res_str(lt, "reason") : "?");
        return;
    }
    const json_t *m = json_object_get(lt, "measured");
    if (!json_is_object(m))
        return;
    double w = num(m, "mutex_wait_pct");
    fprintf(out, "  lock table (%s): ", dg_res_str(lt, "source") ? dg_res_str(lt, "source") : "?");
    if (isfinite(w))
        fprintf(out, "mutex wait %.2f%% of %.0f acquires, ", w, num(m, "acquires"));
    fprintf(out, "%.0f lock requests, %.0f waited, %.0f deadlocks\n", num(m, "enqueues"),
            num(m, "blocks"), num(m, "deadlocks"));
}

/* "server host (SOURCE): CPU 61%, server processes 88% of a core, vda 3583 IOPS (32%
 * busy), 2.15 I/O per transaction, memory 2% used, load 1.17" */
static void server_host_line(FILE *out, const json_t *sh)
{
    if (!sh)
        return;
    const char *src = dg_res_str(sh, "source"), *status = dg_res_str(sh, "status");
    const char *dev = dg_res_str(sh, "device");
    src = src ? src : "?";
    if (!status || strcmp(status, "ok") != 0) {
        fprintf(out, "  server host (%s): no figures (%s)\n", src,
                json_is_true(json_object_get(sh, "lost")) ? "the ssh session ended" : "no sample in time");
        return;
    }
    char buf[320] = "", disk[96];
    size_t n = 0;
    n = add_figure(buf, sizeof buf, n, "CPU %.0f%%, ", num(sh, "cpu_pct"));
    n = add_figure(buf, sizeof buf, n, "server processes %.0f%% of a core, ", num(sh, "server_cpu_pct"));
    snprintf(disk, sizeof disk, "%s %%.0f IOPS (%.0f%%%% busy), ", dev && *dev ? dev : "disk",
             num(sh, "disk_util_pct"));
    n = add_figure(buf, sizeof buf, n, disk, num(sh, "iops"));
    n = add_figure(buf, sizeof buf, n, "%.2f I/O per transaction, ", num(sh, "io_per_tx"));
    n = add_figure(buf, sizeof buf, n, "memory %.0f%% used, ", num(sh, "mem_used_pct"));
    n = add_figure(buf, sizeof buf, n, "load %.2f, ", num(sh, "load1"));
    if (n > 2) {
        buf[n - 2] = '\0';
        fprintf(out, "  server host (%s): %s%s\n", src, buf,
                json_is_true(json_object_get(sh, "lost")) ? " (then the ssh session ended)" : "");
    }
}

/* --wait-profile: a line per transaction type (the first eight), its classes (sixteen at
 * most) largest first: "server waits (pg_stat_activity, every 10 ms): tpcb: Lock 59%, Client 25%, ..." */
static void wait_lines(FILE *out, const json_t *wp)
{
    if (!wp)
        return;
    if (!json_is_true(json_object_get(wp, "available"))) {
        fprintf(out, "  server waits: none (%s)\n",
                dg_res_str(wp, "reason") ? dg_res_str(wp, "reason") : "not sampled");
        return;
    }
    fprintf(out, "  server waits (%s, every %g ms):\n",
            dg_res_str(wp, "source") ? dg_res_str(wp, "source") : "?", num(wp, "interval_ms"));
    const char *name;
    json_t *t;
    int shown = 0;
    json_object_foreach(json_object_get(wp, "types"), name, t)
    {
        if (shown++ == 8) {
            fputs("    ... (every type in the result file and the report)\n", out);
            break;
        }
        const json_t *cls = json_object_get(t, "classes");
        fprintf(out, "    %-20s", name);
        const char *ranked[16];
        int nr = dg_res_ranked(cls, ranked, 16);
        for (int r = 0; r < nr; r++)
            fprintf(out, "%s%s %.0f%%", r ? ", " : " ", ranked[r], 100 * num(cls, ranked[r]));
        fputs(num(t, "samples") > 0 ? "\n" : " not sampled in a transaction\n", out);
    }
}

/* A run on several nodes: what each did; on Galera, the conflicts the cluster caused
 * (among the errors and retries: the client sees them as deadlocks). */
static void cluster_lines(FILE *out, const json_t *doc)
{
    const json_t *conf = dg_res_get(doc, "totals.conflicts");
    if (conf)
        fprintf(out, "  conflicts: %.0f certification failures, %.0f brute-force aborts, %.0f replays "
                     "(the cluster's, among the errors and retries above)\n",
                num(conf, "cert_failures"), num(conf, "bf_aborts"), num(conf, "replays"));
    size_t i;
    json_t *nd;
    json_array_foreach(dg_res_get(doc, "cluster.nodes"), i, nd)
    {
        const json_t *c = json_object_get(nd, "conflicts");
        fprintf(out, "  node %s: %.0f transactions (%.1f per second), errors %.0f", dg_res_str(nd, "node"),
                num(nd, "transactions"), num(nd, "tps"), num(nd, "errors"));
        if (json_is_object(c))
            fprintf(out, ", %.0f certification failures, %.0f brute-force aborts",
                    num(c, "cert_failures"), num(c, "bf_aborts"));
        if (num(nd, "arrivals") > 0)
            fprintf(out, ", %.0f terminal%s moved here", num(nd, "arrivals"),
                    num(nd, "arrivals") == 1 ? "" : "s");
        fprintf(out, "%s\n", strcmp(dg_res_str(nd, "status") ? dg_res_str(nd, "status") : "", "ok")
                                  ? " (no figures from it at the end)" : "");
    }
    const json_t *au = dg_res_get(doc, "cluster.audit");
    if (!au)
        return;
    if (json_is_boolean(json_object_get(au, "exact")))
        fprintf(out, "  cluster audit: %.0f committed by the cluster's count, %.0f by dbgauge's: %s\n",
                num(au, "cluster_committed"), num(au, "dbgauge_committed"),
                json_is_true(json_object_get(au, "exact"))        ? "exact"
                : json_is_true(json_object_get(au, "consistent")) ? "the difference is among the "
                                                                    "transactions whose outcome is unknown"
                                                                  : "DIFFERENT");
    else if (dg_res_str(au, "why"))
        fprintf(out, "  cluster audit: not exact (%s)\n", dg_res_str(au, "why"));
}

void dg_report_text_run(FILE *out, const json_t *doc)
{
    const json_t *run = dg_res_get(doc, "run");
    const char *wl = dg_res_str(run, "workload");
    double terms = num(run, "terminals");
    double dur = num(doc, "totals.duration_s");
    fprintf(out, "\nresults: %s on %s, scale %.0f, %.0f terminal%s, %.1f s measured%s\n",
            wl ? wl : "?", dg_res_str(run, "backend") ? dg_res_str(run, "backend") : "?",
            num(run, "scale"), terms, terms == 1 ? "" : "s", isfinite(dur) ? dur : 0.0,
            json_is_false(dg_res_get(run, "complete")) ? " (INCOMPLETE)" : "");
    const json_t *tot = dg_res_get(doc, "totals");
    fprintf(out, "  transactions: %.0f (%.1f per second), errors %.0f, retries %.0f, rollbacks %.0f\n",
            num(tot, "transactions"), num(tot, "tps"), num(tot, "errors"), num(tot, "retries"),
            num(tot, "rollbacks"));
    double unk = num(tot, "unknown_outcome");
    if (isfinite(unk) && unk > 0)
        fprintf(out, "  of the errors, %.0f lost the connection while committing: their outcome is "
                     "unknown (not counted as committed)\n",
                unk);
    cluster_lines(out, doc);
    const json_t *vd = dg_res_get(doc, "verdict");
    if (vd)
        fprintf(out, "  limited by: %s (%s; confidence %s)\n",
                dg_verdict_words(dg_res_str(vd, "limited_by")), dg_res_str(vd, "why"),
                dg_res_str(vd, "confidence"));
    double tpm = num(doc, "workload_metrics.tpmC");
    if (isfinite(tpm))
        fprintf(out, "  tpmC (New-Order per minute): %.1f\n", tpm);
    /* the name column as wide as the longest name (16 at least) */
    int wname = 16;
    size_t i;
    json_t *tx;
    json_array_foreach(dg_res_get(doc, "transactions"), i, tx)
    {
        const char *nm = dg_res_str(tx, "name");
        if (nm && (int)strlen(nm) > wname && strlen(nm) < 64)
            wname = (int)strlen(nm);
    }
    fprintf(out, "\n  %-*s %10s %7s %7s %9s %8s %8s %8s %8s %8s %8s %8s\n", wname, "transaction",
            "count", "errors", "retries", "rollbacks", "avg", "max", "p50", "p90", "p95", "p99",
            "p99.9");
    json_array_foreach(dg_res_get(doc, "transactions"), i, tx)
    {
        char a[7][32];
        const json_t *l = json_object_get(tx, "latency_ms");
        fprintf(out, "  %-*s %10.0f %7.0f %7.0f %9.0f %8s %8s %8s %8s %8s %8s %8s\n", wname,
                dg_res_str(tx, "name"), num(tx, "count"), num(tx, "errors"), num(tx, "retries"),
                num(tx, "rollbacks"), fmt_ms(num(l, "avg"), a[0], 32), fmt_ms(num(l, "max"), a[1], 32),
                fmt_ms(num(l, "p50"), a[2], 32), fmt_ms(num(l, "p90"), a[3], 32),
                fmt_ms(num(l, "p95"), a[4], 32), fmt_ms(num(l, "p99"), a[5], 32),
                fmt_ms(num(l, "p999"), a[6], 32));
    }
    fprintf(out, "  (latency in ms%s)\n",
            num(run, "rate_tps") > 0 ? ", from the scheduled start of each transaction" : "");
    const json_t *w = dg_res_get(doc, "warmup");
    if (w && num(w, "duration_s") > 0)
        fprintf(out, "  warmup: %.1f s, %.0f transactions (%.1f per second), not included above\n",
                num(w, "duration_s"), num(w, "transactions"), num(w, "tps"));
    const json_t *dr = dg_res_get(doc, "drain");
    if (dr && num(dr, "transactions") + num(dr, "errors") > 0)
        fprintf(out, "  in flight at the end: %.0f transactions completed in the %.2f s after it, "
                     "not included above\n",
                num(dr, "transactions"), num(dr, "duration_s"));
    const json_t *m = dg_res_get(doc, "monitor");
    if (m) {
        char buf[256] = "";
        size_t n = 0;
        n = add_figure(buf, sizeof buf, n, "host CPU %.0f%%, ", num(m, "cpu_pct"));
        n = add_figure(buf, sizeof buf, n, "dbgauge CPU %.0f%% of a core, ", num(m, "self_cpu_pct"));
        n = add_figure(buf, sizeof buf, n, "cache hits %.2f%%, ", num(m, "cache_hit_pct"));
        n = add_figure(buf, sizeof buf, n, "disk %.0f IOPS, ", num(m, "iops"));
        double b = num(m, "db_size_after_bytes");
        if (isfinite(b)) {
            char s[32];
            dg_format_size((uint64_t)b, s, sizeof s);
            n += (size_t)snprintf(buf + n, sizeof buf - n, "database %s, ", s);
        }
        if (n > 2) {
            buf[n - 2] = '\0';
            fprintf(out, "  monitor: %s\n", buf);
        }
        /* why a figure is missing (a null cache ratio, a stalled statistics query) */
        size_t k;
        const json_t *note;
        json_array_foreach(dg_res_get(m, "notes"), k, note)
        {
            if (json_is_string(note))
                fprintf(out, "  note: %s\n", json_string_value(note));
        }
        cache_parts_line(out, dg_res_get(m, "cache_parts"));
        const json_t *pc = dg_res_get(m, "cache_per_connection");
        if (pc)
            fprintf(out, "  cache hits per connection (%.0f, since each connected): lowest %.2f%%, "
                         "median %.2f%%, highest %.2f%%\n",
                    num(pc, "connections"), num(pc, "hit_pct_min"), num(pc, "hit_pct_median"),
                    num(pc, "hit_pct_max"));
        server_host_line(out, dg_res_get(m, "server_host"));
        lock_table_line(out, dg_res_get(m, "lock_table"));
    }
    wait_lines(out, dg_res_get(doc, "wait_profile"));
    json_t *e;
    json_array_foreach(dg_res_get(doc, "errors"), i, e)
    {
        if (i == 0)
            fputs("  errors:\n", out);
        fprintf(out, "    %6.0f x %s\n", num(e, "count"), dg_res_str(e, "message"));
    }
    json_array_foreach(dg_res_get(doc, "warnings"), i, e)
        fprintf(out, "  warning: %s\n", json_string_value(e));
    const char *reason = dg_res_str(run, "stop_reason");
    if (json_is_false(dg_res_get(run, "complete")) && reason)
        fprintf(out, "  the run is incomplete: %s\n", reason);
}

void dg_report_text_load(FILE *out, const json_t *load)
{
    double bytes = num(load, "bytes"), secs = num(load, "seconds");
    char s[32];
    dg_format_size(isfinite(bytes) && bytes > 0 ? (uint64_t)bytes : 0, s, sizeof s);
    const char *measure = dg_res_str(load, "bytes_measure");
    bool sent = measure && !strcmp(measure, "sent");
    const json_t *r = json_object_get(load, "restore");
    if (json_is_object(r)) { /* dbgauge restore: the tool's own steps, the totals by kind */
        bool size = measure && !strcmp(measure, "size");
        fprintf(out, "restored %s in %.2f s (%.1f MB/s of %s) with %s\n", s, secs,
                num(load, "mb_per_s"),
                size ? "the database's size: it replaced one of about that size" : "database growth",
                dg_res_str(r, "tool"));
        const json_t *tot = json_object_get(r, "step_totals");
        const char *k;
        const json_t *t;
        json_object_foreach((json_t *)tot, k, t)
            fprintf(out, "  %s steps: %.0f, %.3f s from the first one's end to the last one's "
                         "(%.3f to %.3f s elapsed; their own times add up to %.3f s)\n",
                    k, num(t, "steps"), num(t, "seconds"), num(t, "first_elapsed_s"),
                    num(t, "last_elapsed_s"), num(t, "sum_of_steps_s"));
        return;
    }
    fprintf(out, "loaded %s in %.2f s (%.1f MB/s of %s)\n", s, secs, num(load, "mb_per_s"),
            sent ? "data sent: the database file reused free space, its growth does not "
                   "measure the load"
                 : "database growth");
    const json_t *bp = json_object_get(load, "bulk_path");
    if (json_is_object(bp)) {
        const char *why = dg_res_str(bp, "why");
        fprintf(out, "  bulk path: %s%s%s\n", dg_res_str(bp, "path"), why ? ": " : "", why ? why : "");
    }
}
