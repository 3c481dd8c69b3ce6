/*
 * cmd_load.c - `dbgauge load`, and the load step `dbgauge run` takes on an empty
 * database: scale selection (--scale or --size), existing-table checks (--drop), the
 * timed loader with a progress bar on a TTY, and the load report (per-step timings,
 * database growth, MB/s).
 */
#include "cli/commands.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "report/text.h"
#include "results/result.h"
#include "workload/loader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dg_cli_open_workload(const dg_options *o, dg_workload **out)
{
    dg_wl_config cfg = {
        .name = o->workload,
        .scale = o->scale,
        .seed = o->seed,
        .scripts = o->scripts,
        .nscripts = o->nscripts,
        .vars = o->defines,
        .nvars = o->ndefines,
        .mix = o->mix,
        .options = o->wlopt,
        .noptions = o->nwlopt,
        .keying_think = o->keying_think,
    };
    dg_err err;
    dg_err_clear(&err);
    int rc = dg_workload_open(&cfg, out, &err);
    if (rc) {
        if (rc == DG_E_PARSE) /* already "file:line:col: error: ..." with the caret lines */
            fprintf(stderr, "%s\n", err.msg);
        else
            dg_log_error("%s", err.msg);
        return 1;
    }
    return 0;
}

dg_connopts dg_cli_connopts(const dg_options *o, bool bulk)
{
    dg_connopts co = {
        .settings = o->conn,
        .nsettings = o->nconn,
        .application_name = "dbgauge",
        .bulk_session = bulk,
    };
    return co;
}

typedef struct load_ui {
    bool quiet;
    bool tty;
    bool bar_shown;
} load_ui;

static void clear_bar(load_ui *ui)
{
    if (ui->bar_shown) {
        fprintf(stderr, "\r%-78s\r", "");
        ui->bar_shown = false;
    }
}

static void on_step(void *arg, const dg_load_step *s)
{
    load_ui *ui = arg;
    clear_bar(ui);
    if (ui->quiet)
        return;
    char rows[48] = "";
    if (s->rows)
        snprintf(rows, sizeof rows, "%llu rows", (unsigned long long)s->rows);
    char rate[48] = "";
    if (s->rows && s->seconds > 0)
        snprintf(rate, sizeof rate, "  (%.0f rows/s)", (double)s->rows / s->seconds);
    printf("  %-40s %14s %9.2f s%s\n", s->name, rows, s->seconds, rate);
    fflush(stdout);
}

static void on_progress(void *arg, uint64_t rows, uint64_t total, const char *what)
{
    load_ui *ui = arg;
    if (ui->quiet || !ui->tty || total == 0)
        return;
    double f = (double)rows / (double)total;
    if (f > 1)
        f = 1;
    char bar[31];
    int fill = (int)(f * 30);
    for (int i = 0; i < 30; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r  loading %-24.24s [%s] %3.0f%%", what, bar, f * 100);
    fflush(stderr);
    ui->bar_shown = true;
}

int dg_cli_connect(const dg_options *o, bool bulk, dg_conn **out)
{
    dg_connopts co = dg_cli_connopts(o, bulk);
    dg_err err;
    dg_err_clear(&err);
    if (dg_connect(o->db, &co, out, &err) == 0)
        return 0;
    char *url = dg_url_redact(o->db);
    char *ctx = xasprintf("cannot connect to %s", url);
    dg_log_dberr(ctx, &err);
    free(ctx);
    free(url);
    return 1;
}

int dg_cli_load(const dg_options *o, dg_workload *wl, dg_conn *conn, json_t **load_json)
{
    dg_err err;
    dg_err_clear(&err);
    if (o->size_bytes) {
        if (!wl->bytes_per_scale) {
            dg_log_error("workload '%s' has no size model: use --scale instead of --size", wl->name);
            return 1;
        }
        int64_t s = (int64_t)ceil((double)o->size_bytes / (double)wl->bytes_per_scale);
        wl->scale = s < 1 ? 1 : s;
        char sz[32];
        dg_format_size(o->size_bytes, sz, sizeof sz);
        if (!o->quiet)
            printf("--size %s: scale %lld (about %.1f MB per %s)\n", sz, (long long)wl->scale,
                   (double)wl->bytes_per_scale / 1e6, wl->scale_unit);
    }
    dg_dbstats before;
    memset(&before, 0, sizeof before);
    if (dg_stats(conn, &before, &err))
        before.db_size_bytes = -1;

    dg_connopts co = dg_cli_connopts(o, true);
    load_ui ui = {.quiet = o->quiet, .tty = isatty(2) != 0};
    dg_loader ld;
    memset(&ld, 0, sizeof ld);
    ld.url = o->db;
    ld.connopts = &co;
    ld.conn = conn;
    ld.jobs = (int)o->jobs;
    ld.seed = o->seed;
    ld.scale = wl->scale;
    ld.on_step = on_step;
    ld.on_progress = on_progress;
    ld.arg = &ui;
    dg_loader_init(&ld);

    if (!o->quiet)
        printf("loading %s, scale %lld, into %s (%d job%s, seed %llu)\n", wl->name,
               (long long)wl->scale, conn->url_redacted, ld.jobs, ld.jobs == 1 ? "" : "s",
               (unsigned long long)o->seed);
    int64_t t0 = dg_now_ns();
    int rc = wl->ops->load(wl, &ld, &err);
    if (rc == 0 && conn->dialect->post_load_sql)
        rc = dg_exec(conn, conn->dialect->post_load_sql, &err);
    double secs = (double)(dg_now_ns() - t0) / DG_NS_PER_S;
    clear_bar(&ui);
    if (rc) {
        if (err.sqlstate[0])
            dg_log_error("loading %s failed: %s [%s]", wl->name, err.msg, err.sqlstate);
        else
            dg_log_error("loading %s failed: %s", wl->name, err.msg);
        dg_log_error("the database may hold a partial load: 'dbgauge load --drop' starts over");
        return rc == DG_E_INVAL || rc == DG_E_UNSUPPORTED ? 1 : 2;
    }
    dg_dbstats after;
    memset(&after, 0, sizeof after);
    if (dg_stats(conn, &after, &err))
        after.db_size_bytes = -1;
    uint64_t sent = 0;
    for (int i = 0; i < ld.nsteps; i++)
        sent += ld.steps[i].bytes;
    double grown = before.db_size_bytes >= 0 && after.db_size_bytes >= 0
                       ? (double)(after.db_size_bytes - before.db_size_bytes)
                       : (double)sent;
    json_t *load = json_object();
    json_object_set_new(load, "workload", json_string(wl->name));
    json_object_set_new(load, "scale", json_integer(wl->scale));
    json_object_set_new(load, "jobs", json_integer(ld.jobs));
    json_object_set_new(load, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(load, "bytes", json_integer((json_int_t)grown));
    json_object_set_new(load, "data_bytes_sent", json_integer((json_int_t)sent));
    json_object_set_new(load, "db_size_bytes", json_integer(after.db_size_bytes));
    json_object_set_new(load, "seconds", dg_json_real(secs));
    json_object_set_new(load, "mb_per_s", dg_json_real(secs > 0 ? grown / 1e6 / secs : NAN));
    json_t *steps = json_array();
    for (int i = 0; i < ld.nsteps; i++) {
        const dg_load_step *s = &ld.steps[i];
        json_array_append_new(steps, json_pack("{s:s, s:s, s:o, s:I, s:I}", "name", s->name, "kind",
                                               s->kind, "seconds", dg_json_real(s->seconds), "rows",
                                               (json_int_t)s->rows, "bytes", (json_int_t)s->bytes));
    }
    json_object_set_new(load, "steps", steps);
    if (!o->quiet)
        dg_report_text_load(stdout, load);
    if (load_json)
        *load_json = load;
    else
        json_decref(load);
    return 0;
}

int dg_cmd_load(dg_options *o)
{
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(o, &wl))
        return 1;
    int status = 1;
    dg_err err;
    dg_err_clear(&err);
    dg_conn *conn = NULL;
    if (dg_cli_connect(o, true, &conn))
        goto out;
    if (!wl->tables) {
        dg_log_error("workload '%s' has no loader (it runs against tables you create)", wl->name);
        goto out;
    }
    bool all = false, some = false;
    if (dg_workload_tables_exist(wl, conn, &all, &some, &err)) {
        dg_log_dberr("cannot inspect the database", &err);
        goto out;
    }
    if (some) {
        if (!o->drop) {
            dg_log_error("%s already holds %s tables of workload '%s': add --drop to replace them",
                         conn->url_redacted, all ? "the" : "some", wl->name);
            goto out;
        }
        if (!o->quiet)
            printf("dropping the existing %s tables\n", wl->name);
        if (wl->ops->drop(wl, conn, &err)) {
            dg_log_dberr("cannot drop the existing tables", &err);
            goto out;
        }
    }
    json_t *load = NULL;
    status = dg_cli_load(o, wl, conn, &load);
    json_decref(load);
out:
    dg_conn_close(conn);
    dg_workload_free(wl);
    return status;
}
