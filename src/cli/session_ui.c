/*
 * session_ui.c - what run, load, check and sweep share on the command line: the options
 * mapped to a session config, the printed side of a session (the header line, live
 * interval lines, load steps with a progress bar on a TTY), opening the workload, and
 * reporting a session's failure with the right exit status.
 */
#include "cli/commands.h"

#include "core/clock.h"
#include "core/buildinfo.h"
#include "core/file.h"
#include "core/log.h"
#include "core/part.h"
#include "core/stop.h"
#include "core/units.h"
#include "report/hlog.h"
#include "report/prom.h"
#include "report/text.h"
#include "results/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int dg_cli_open_workload(const dg_options *o, dg_workload **out)
{
    dg_wl_config cfg = {
        .name = o->workload,
        .scale = o->rows ? o->rows : (int64_t)o->scale,
        .scale_factor = o->rows ? 0 : o->scale,
        .seed = o->seed,
        .scripts = o->scripts,
        .nscripts = o->nscripts,
        .vars = o->defines,
        .nvars = o->ndefines,
        .mix = o->mix,
        .options = o->wlopt,
        .noptions = o->nwlopt,
        .keying_think = o->keying_think,
        .tables = (int)o->tables,
        .key_range = o->key_range,
        .part = o->part_k,
        .nparts = o->part_n,
    };
    dg_err err = DG_ERR_INIT;
    int rc = dg_workload_open(&cfg, out, &err);
    if (rc == 0 && o->rows && strcmp((*out)->def->name, "tables") != 0) {
        dg_log_error("--rows applies to workload 'tables' only, not '%s' (use --scale)",
                     (*out)->def->name);
        dg_workload_free(*out);
        *out = NULL;
        return 1;
    }
    if (rc) {
        if (rc == DG_E_PARSE) /* already "file:line:col: error: ..." with the caret lines */
            fprintf(stderr, "%s\n", err.msg);
        else
            dg_log_error("%s", err.msg);
        return 1;
    }
    return 0;
}

void dg_cli_session_config(const dg_options *o, dg_workload *wl, dg_cli_ui *ui,
                           dg_session_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->db = o->db;
    cfg->settings = o->conn;
    cfg->nsettings = o->nconn;
    cfg->wl = wl;
    cfg->seed = o->seed;
    cfg->reload = o->reload || o->drop;
    cfg->no_load = o->no_load;
    cfg->size_bytes = o->size_bytes;
    cfg->jobs = (int)o->jobs;
    cfg->no_table_stats = o->no_table_stats;
    cfg->start_at_ns = o->start_at_ns;
    cfg->start_at = o->start_at;
    cfg->server_host = o->server_host;
    cfg->events = o->events;
    cfg->db_read = o->db_read;
    cfg->nevents = o->nevents;
    cfg->terminals = (int)o->terminals;
    cfg->whole_terminals = (int)o->terminals;
    if (o->part_n > 1) { /* this process runs its share of the terminals and of the rate */
        int64_t first, count;
        dg_part_share(o->terminals, o->part_k, o->part_n, &first, &count);
        cfg->terminals = (int)count;
        cfg->first_terminal = (int)first;
        cfg->part_k = o->part_k;
        cfg->part_n = o->part_n;
        cfg->part_from = o->part_from;
    }
    cfg->duration_ns = o->duration_ns;
    cfg->transactions = o->transactions;
    cfg->warmup_ns = o->warmup_ns;
    cfg->interval_ns = o->interval_ns;
    cfg->wait_interval_ns = o->wait_interval_ns;
    cfg->rate_tps = o->rate_tps * cfg->terminals / (double)o->terminals;
    cfg->think_ns = o->think_ns;
    cfg->think_exponential = o->think_exp;
    cfg->keying_think = o->keying_think;
    cfg->max_tries = (int)o->max_tries;
    cfg->workers = (int)o->workers;
    cfg->pipeline = o->pipeline;
    cfg->command_line = o->command_line;
    if (ui) {
        dg_cli_ui_init(ui, o);
        cfg->ui = &ui->ui;
    }
}

int dg_cli_session_failed(const dg_err *err, dg_session_stage stage)
{
    dg_log_dberr(NULL, err);
    if (stage == DG_STAGE_LOAD) {
        dg_log_error("the database may hold a partial load: 'dbgauge load --drop' starts over");
        return 2;
    }
    return dg_stop_signal() ? 2 : 1; /* stopped by SIGINT or SIGTERM: an aborted session */
}

int dg_cli_load_stopped(const json_t *doc)
{
    const char *kind = dg_res_str(doc, "kind"); /* NULL in a run's document */
    if (!kind || strcmp(kind, "load") || dg_res_get(doc, "run.complete") == json_true())
        return 0;
    dg_log_error("loading %s stopped: %s; the database holds a partial load: 'dbgauge load "
                 "--drop' starts over",
                 dg_res_str(doc, "run.workload"), dg_res_str(doc, "run.stop_reason"));
    return 2;
}

/* ---- printing a session ---------------------------------------------------------------------- */

static void clear_bar(dg_cli_ui *u)
{
    if (u->bar_shown) {
        fprintf(stderr, "\r%-100s\r", "");
        u->bar_shown = false;
    }
}

static void on_info(void *arg, const char *msg)
{
    (void)arg;
    printf("%s\n", msg);
    fflush(stdout);
}

static void on_begin(void *arg, const json_t *doc)
{
    dg_cli_ui *u = arg;
    const dg_options *o = u->o;
    if (o->metrics_file && !u->prom)
        u->prom = dg_prom_new(dg_res_str(doc, "run.workload"), dg_res_str(doc, "run.backend"),
                              o->part_n > 1 ? o->part_k : -1, DG_VERSION, dg_build_commit());
    if (o->quiet)
        return;
    char dur[32];
    dg_format_duration(o->duration_ns, dur, sizeof dur);
    printf("dbgauge %s: %s, scale %lld, on %s (%s), ", DG_VERSION, dg_res_str(doc, "run.workload"),
           (long long)dg_res_num(doc, "run.scale", 0), dg_res_str(doc, "run.db"),
           dg_res_str(doc, "server.version"));
    if (o->part_n > 1) {
        int64_t first, count;
        dg_part_share(o->terminals, o->part_k, o->part_n, &first, &count);
        printf("part %d/%d (%s): terminal%s %lld", o->part_k, o->part_n, o->part_from,
               count == 1 ? "" : "s", (long long)first + 1);
        if (count > 1)
            printf("-%lld", (long long)(first + count));
        printf(" of %lld, ", (long long)o->terminals);
    } else {
        printf("%lld terminal%s, ", (long long)o->terminals, o->terminals == 1 ? "" : "s");
    }
    if (o->transactions)
        printf("%lld transactions each", (long long)o->transactions);
    else
        printf("%s", dur);
    if (o->warmup_ns) {
        dg_format_duration(o->warmup_ns, dur, sizeof dur);
        printf(" after %s warmup", dur);
    }
    if (o->rate_tps > 0 && o->part_n > 1)
        printf(", rate %.1f of %.1f tps", dg_res_num(doc, "run.rate_tps", 0), o->rate_tps);
    else if (o->rate_tps > 0)
        printf(", rate %.1f tps", o->rate_tps);
    if (o->start_at)
        printf(", measuring from %s", o->start_at);
    printf(", seed %llu\n", (unsigned long long)o->seed);
    fflush(stdout);
}

/* A field of the interval as "%*.*f", or "-" when it was not measured (null). */
static const char *fmt_num(const json_t *iv, const char *path, int width, int prec, char *buf,
                           size_t len)
{
    double v = dg_res_num(iv, path, NAN);
    if (isfinite(v))
        snprintf(buf, len, "%*.*f", width, prec, v);
    else
        snprintf(buf, len, "%*s", width, "-");
    return buf;
}

/* --interval-log: the interval record as one JSON line, with its phase and when it ended
 * ("end_at", UTC, milliseconds). A failed write (a reader gone: EPIPE) is said once and
 * ends the log; the run goes on. */
static void log_interval(dg_cli_ui *u, const json_t *iv, bool warmup, int64_t end_wall_ns)
{
    if (!u->interval_log || u->interval_log_failed)
        return;
    json_t *line = json_copy((json_t *)iv);
    char at[48], stamp[32];
    dg_format_iso8601(end_wall_ns, stamp, sizeof stamp); /* ...SSZ: the milliseconds go before Z */
    size_t n = strlen(stamp);
    if (n)
        stamp[n - 1] = '\0';
    snprintf(at, sizeof at, "%s.%03dZ", stamp, (int)(end_wall_ns % DG_NS_PER_S / 1000000));
    json_object_set_new(line, "phase", json_string(warmup ? "warmup" : "measured"));
    json_object_set_new(line, "end_at", json_string(at));
    bool ok = json_dumpf(line, u->interval_log, JSON_COMPACT | JSON_REAL_PRECISION(10)) == 0 &&
              fputc('\n', u->interval_log) != EOF && fflush(u->interval_log) == 0;
    json_decref(line);
    if (!ok) {
        u->interval_log_failed = true;
        dg_log_warn("--interval-log: cannot write (%s): no more interval lines there; the run "
                    "goes on", strerror(errno));
    }
}

/* --metrics-file: the whole exposition, replaced at each interval (no fsync: the collector
 * thread should not wait on the disk). A failed write is said once; the run goes on. */
static void write_metrics(dg_cli_ui *u, const json_t *iv, bool warmup, int64_t end_wall_ns)
{
    if (!u->prom || u->metrics_failed)
        return;
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_prom_interval(u->prom, iv, warmup, end_wall_ns, &sb);
    dg_err err = DG_ERR_INIT;
    if (dg_file_replace(u->o->metrics_file, dg_sb_str(&sb), sb.len, "metrics file", &err)) {
        u->metrics_failed = true;
        dg_log_warn("%s: no more metrics there; the run goes on", err.msg);
    }
    dg_sb_free(&sb);
}

/* --hlog: the measured interval's lines, flushed; a failed write is said once. */
static void write_hlog(dg_cli_ui *u, const json_t *iv, bool warmup, int64_t end_wall_ns)
{
    if (!u->hlog_file || u->hlog_failed || warmup)
        return;
    if (!u->hlog && !(u->hlog = dg_hlog_new())) { /* no memory for its histograms */
        u->hlog_failed = true;
        dg_log_warn("--hlog: out of memory for its histograms: no intervals there");
        return;
    }
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_hlog_interval(u->hlog, iv, end_wall_ns, &sb);
    if (fwrite(dg_sb_str(&sb), 1, sb.len, u->hlog_file) != sb.len || fflush(u->hlog_file) != 0) {
        u->hlog_failed = true;
        dg_log_warn("--hlog: cannot write (%s): no more intervals there; the run goes on",
                    strerror(errno));
    }
    dg_sb_free(&sb);
}

static void on_interval(void *arg, const json_t *iv, bool warmup, int64_t end_wall_ns)
{
    dg_cli_ui *u = arg;
    log_interval(u, iv, warmup, end_wall_ns);
    write_metrics(u, iv, warmup, end_wall_ns);
    write_hlog(u, iv, warmup, end_wall_ns);
    if (u->o->quiet)
        return;
    /* whose CPU: this host's (the client's), and the server host's when it is sampled */
    char cpu[64] = "";
    size_t n = 0;
    double cpu_pct = dg_res_num(iv, "cpu_pct", NAN);
    if (isfinite(cpu_pct))
        n += (size_t)snprintf(cpu + n, sizeof cpu - n, "  client cpu %3.0f%%", cpu_pct);
    const char *st = dg_res_str(iv, "server_host.status");
    if (st) {
        double s = dg_res_num(iv, "server_host.cpu_pct", NAN);
        if (!strcmp(st, "ok") && isfinite(s))
            snprintf(cpu + n, sizeof cpu - n, "  server cpu %3.0f%%", s);
        else
            snprintf(cpu + n, sizeof cpu - n, "  server %s", st);
    }
    /* --rate: how late transactions started against their schedule (a backlog shows here
       first) */
    char lag[48] = "";
    double lag_ms = dg_res_num(iv, "schedule_lag_ms_p99", NAN);
    if (isfinite(lag_ms))
        snprintf(lag, sizeof lag, "  lag p99 %.3f ms", lag_ms);
    char tps[32], p50[32], p95[32], p99[32];
    printf("%s%7.1f s  tps %s  lat ms p50 %s p95 %s p99 %s%s  err %lld  retry %lld%s%s\n",
           warmup ? "warmup " : "", dg_res_num(iv, "t_s", 0),
           fmt_num(iv, "tps", 9, 1, tps, sizeof tps), fmt_num(iv, "latency_ms.p50", 7, 3, p50, sizeof p50),
           fmt_num(iv, "latency_ms.p95", 7, 3, p95, sizeof p95),
           fmt_num(iv, "latency_ms.p99", 7, 3, p99, sizeof p99), lag, (long long)dg_res_num(iv, "errors", 0),
           (long long)dg_res_num(iv, "retries", 0), cpu,
           dg_res_num(iv, "reconnects", 0) > 0 || dg_res_num(iv, "downtime_s", 0) > 0
               ? "  (reconnects)"
               : "");
    fflush(stdout);
}

static void on_load_begin(void *arg, const dg_workload *wl, const char *url, int jobs, uint64_t seed)
{
    dg_cli_ui *u = arg;
    u->load_t0 = dg_now_ns();
    printf("loading %s, scale %lld, into %s (%d job%s, seed %llu)\n", wl->name, (long long)wl->scale,
           url, jobs, jobs == 1 ? "" : "s", (unsigned long long)seed);
    fflush(stdout);
}

static void on_load_step(void *arg, const dg_load_step *s)
{
    dg_cli_ui *u = arg;
    clear_bar(u);
    char rows[48] = "";
    if (s->rows)
        snprintf(rows, sizeof rows, "%llu rows", (unsigned long long)s->rows);
    char rate[48] = "";
    if (s->rows && s->seconds > 0)
        snprintf(rate, sizeof rate, "  (%.0f rows/s)", (double)s->rows / s->seconds);
    printf("  %-40s %14s %9.2f s%s\n", s->name, rows, s->seconds, rate);
    fflush(stdout);
}

/* The bar (a terminal only): the rows of every table together, the time since the load
 * began and, once a few percent are done, the time the rows may still take at the pace so
 * far (indexes come after). */
static void on_load_progress(void *arg, uint64_t rows, uint64_t total, const char *what)
{
    dg_cli_ui *u = arg;
    if (!u->tty || total == 0)
        return;
    double f = (double)rows / (double)total;
    if (f > 1)
        f = 1;
    char bar[21];
    int fill = (int)(f * 20);
    for (int i = 0; i < 20; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[20] = '\0';
    int64_t el = dg_now_ns() - u->load_t0;
    char elapsed[32], left[48] = "";
    dg_format_duration(el, elapsed, sizeof elapsed);
    if (f >= 0.02 && f < 1) {
        char t[32];
        dg_format_duration((int64_t)((double)el * (1 - f) / f), t, sizeof t);
        snprintf(left, sizeof left, ", ~%s left for the rows", t);
    }
    fprintf(stderr, "\r  loading %-20.20s [%s] %3.0f%% of rows, %s%s   ", what, bar, f * 100, elapsed,
            left);
    fflush(stderr);
    u->bar_shown = true;
}

/* An index build or an ANALYZE says nothing until it ends: on a terminal, the bar says
 * it has begun. */
static void on_load_step_begin(void *arg, const char *kind, const char *name)
{
    dg_cli_ui *u = arg;
    if (!u->tty || !strcmp(kind, "table") || !strcmp(kind, "schema"))
        return;
    char elapsed[32];
    dg_format_duration(dg_now_ns() - u->load_t0, elapsed, sizeof elapsed);
    clear_bar(u);
    fprintf(stderr, "\r  %-40.40s ... (the load: %s so far)", name, elapsed);
    fflush(stderr);
    u->bar_shown = true;
}

/* A restore (a terminal only): the time so far, the database's size and the tool's last
 * line, rewritten every second; elapsed_s < 0: the restore ended. */
static void on_restore_progress(void *arg, double elapsed_s, int64_t size_bytes, const char *line)
{
    dg_cli_ui *u = arg;
    if (!u->tty)
        return;
    if (elapsed_s < 0) {
        clear_bar(u);
        return;
    }
    char el[32], size[32] = "?";
    dg_format_duration((int64_t)(elapsed_s * DG_NS_PER_S), el, sizeof el);
    if (size_bytes >= 0)
        dg_format_size((uint64_t)size_bytes, size, sizeof size);
    fprintf(stderr, "\r  restoring: %s, database %s  %-50.50s", el, size, line ? line : "");
    fflush(stderr);
    u->bar_shown = true;
}

static void on_load_done(void *arg, const json_t *load)
{
    dg_cli_ui *u = arg;
    clear_bar(u);
    dg_report_text_load(stdout, load);
}

void dg_cli_ui_free(dg_cli_ui *u)
{
    if (u->interval_log)
        fclose(u->interval_log);
    u->interval_log = NULL;
    dg_prom_free(u->prom);
    u->prom = NULL;
    if (u->hlog_file)
        fclose(u->hlog_file);
    u->hlog_file = NULL;
    dg_hlog_free(u->hlog);
    u->hlog = NULL;
}

void dg_cli_ui_init(dg_cli_ui *u, const dg_options *o)
{
    memset(u, 0, sizeof *u);
    u->o = o;
    u->tty = isatty(2) != 0;
    u->ui.arg = u;
    if (o->interval_log || o->metrics_file || o->hlog)
        u->ui.interval = on_interval;
    if (o->metrics_file)
        u->ui.begin = on_begin;
    if (o->quiet)
        return; /* a quiet session prints nothing but errors and warnings */
    u->ui.info = on_info;
    u->ui.begin = on_begin;
    u->ui.interval = on_interval;
    u->ui.load_begin = on_load_begin;
    u->ui.load_step = on_load_step;
    u->ui.load_progress = on_load_progress;
    u->ui.load_step_begin = on_load_step_begin;
    u->ui.load_done = on_load_done;
    u->ui.restore_progress = on_restore_progress;
}
