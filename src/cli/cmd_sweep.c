/*
 * cmd_sweep.c - `dbgauge sweep`: runs every point of an experiment grid through the same
 * code as `dbgauge run`, one result file per point, and keeps DIR/experiment.json up to
 * date after each point so an interrupted sweep can be resumed and reports find the files.
 *
 * Loading: when what shapes the data is varied (scale, size, rows, tables, or a workload
 * option wl.NAME), a point whose database, workload or shaping values differ from the
 * previous point's drops and reloads the workload (its result file then records the load:
 * the growth study's load MB/s against size). Otherwise points run on what the database
 * holds (an empty database is loaded once, as `run` does).
 */
#include "cli/commands.h"

#include "core/log.h"
#include "core/signals.h"
#include "core/stop.h"
#include "core/xalloc.h"
#include "experiment/sweep.h"
#include "results/result.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define MAX_SERVER 64 /* --vary server.NAME parameters */

static volatile sig_atomic_t interrupted;

static void on_signal(int signo)
{
    (void)signo;
    interrupted = 1;
}

static int run_hook(const dg_sweep *s, const dg_sweep_point *pt, const char *tmpl, const char *what)
{
    if (!tmpl)
        return 0;
    char *cmd = NULL;
    dg_err err;
    if (dg_sweep_expand(s, pt, tmpl, &cmd, &err)) {
        dg_log_error("%s", err.msg);
        return -1;
    }
    int st = system(cmd);
    int rc = 0;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        /* the placeholders are redacted already; a URL typed into the hook is not */
        char *shown = dg_url_redact_text(cmd);
        dg_log_error("%s hook of %s failed (status %d): %s", what, pt->id,
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1, shown);
        free(shown);
        rc = -1;
    }
    free(cmd);
    return rc;
}

/* Frees the settings dg_cli_apply() added to a point's copy of the options. */
static void free_added(dg_options *po, const dg_options *base)
{
    for (int i = base->nconn; i < po->nconn; i++)
        free((char *)po->conn[i].name);
    for (int i = base->nwlopt; i < po->nwlopt; i++)
        free((char *)po->wlopt[i].name);
    for (int i = base->ndefines; i < po->ndefines; i++)
        free((char *)po->defines[i].name);
    free(po->command_line);
}

/* Options that say where results go or how dbgauge talks, not what is measured: varying
 * them would make points that measure the same thing (or lose their results). */
static bool not_a_parameter(const char *name)
{
    static const char *const names[] = {"json", "results-dir", "no-results", "quiet", "q",
                                        "output-dir", "o", "repeat", "resume", "before-each",
                                        "after-each", "server-ctl", "help", "password-file",
                                        NULL};
    for (const char *const *n = names; *n; n++)
        if (!strcmp(*n, name))
            return true;
    return false;
}

/* Applies the point's values to po. */
static int apply_point(dg_options *po, const dg_sweep *s, const dg_sweep_point *pt, dg_err *err)
{
    for (int p = 0; p < s->nparams; p++) {
        const char *name = s->params[p].name;
        const char *v = dg_sweep_value(s, pt, p);
        int rc;
        if (not_a_parameter(name))
            return dg_err_fail(err, DG_E_INVAL,
                               "--vary %s: '%s' says where results go or how dbgauge reports, not "
                               "what is measured; it cannot be a sweep parameter",
                               name, name);
        if (!strncmp(name, "server.", 7)) {
            continue; /* applied by --server-ctl before the point (set_server) */
        } else if (!strncmp(name, "conn.", 5)) {
            char *kv = xasprintf("%s=%s", name + 5, v);
            rc = dg_cli_apply(po, DG_CMD_RUN, "conn", kv, err);
            if (rc == 0) /* dg_cli_apply keeps a pointer to the value: keep kv alive */
                po->conn[po->nconn - 1].value = v;
            free(kv);
        } else if (!strncmp(name, "wl.", 3)) {
            char *kv = xasprintf("%s=%s", name + 3, v);
            rc = dg_cli_apply(po, DG_CMD_RUN, "wl-opt", kv, err);
            if (rc == 0)
                po->wlopt[po->nwlopt - 1].value = v;
            free(kv);
        } else {
            rc = dg_cli_apply(po, DG_CMD_RUN, name, v, err);
        }
        if (rc) {
            dg_err_prefix(err, "--vary %s", name);
            return rc;
        }
    }
    return 0;
}

/* A --vary server.NAME: the name a server's configuration knows, the value one a shell
 * command line can carry without quoting surprises. */
static int check_server_param(const dg_options *o, const dg_sweep *s, dg_err *err)
{
    for (int p = 0; p < s->nparams; p++) {
        const char *name = s->params[p].name;
        if (strncmp(name, "server.", 7))
            continue;
        if (!o->server_ctl)
            return dg_err_fail(err, DG_E_INVAL,
                               "--vary %s needs --server-ctl CMD, the command that sets a server "
                               "setting and restarts the server (scripts/servers/*.sh for the test "
                               "servers)",
                               name);
        const char *n = name + 7;
        bool ok = *n && (isalpha((unsigned char)*n) || *n == '_');
        for (const char *c = n; ok && *c; c++)
            ok = isalnum((unsigned char)*c) || *c == '_' || *c == '.';
        if (!ok)
            return dg_err_fail(err, DG_E_INVAL,
                               "--vary %s: a server setting's name is a letter or '_', then letters, "
                               "digits, '_' or '.'",
                               name);
        for (int k = 0; k < s->params[p].nvalues; k++)
            for (const char *c = s->params[p].values[k]; *c; c++)
                if (!isalnum((unsigned char)*c) && !strchr("_.:+-/", *c))
                    return dg_err_fail(err, DG_E_INVAL,
                                       "--vary %s: value '%s' has '%c'; a server setting's value "
                                       "here is letters, digits and _.:+-/",
                                       name, s->params[p].values[k], *c);
    }
    return 0;
}

/* Runs CMD ARGS through the shell; -1 (logged) unless it exits 0. */
static int run_ctl(const char *ctl, const char *args)
{
    char *cmd = xasprintf("%s %s", ctl, args);
    fflush(stdout);
    int st = system(cmd);
    int rc = 0;
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char *shown = dg_url_redact_text(cmd);
        dg_log_error("--server-ctl failed (status %d): %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                     shown);
        free(shown);
        rc = -1;
    }
    free(cmd);
    return rc;
}

/* Sets the point's server.NAME values and restarts the server, unless the server already
 * runs with them (*applied: the values last applied, "" when unknown). The point's
 * settings go to out for the session to record and read back. */
static int set_server(const dg_options *o, const dg_sweep *s, const dg_sweep_point *pt, char *applied,
                      size_t applied_len, dg_setting *out, int *nout)
{
    char key[1024] = "";
    size_t n = 0;
    *nout = 0;
    for (int p = 0; p < s->nparams && n < sizeof key && *nout < MAX_SERVER; p++) {
        if (strncmp(s->params[p].name, "server.", 7))
            continue;
        out[*nout].name = s->params[p].name + 7;
        out[*nout].value = dg_sweep_value(s, pt, p);
        n += (size_t)snprintf(key + n, sizeof key - n, "%s=%s;", out[*nout].name, out[*nout].value);
        (*nout)++;
    }
    if (*nout == 0 || !strcmp(key, applied))
        return 0;
    applied[0] = '\0';
    for (int i = 0; i < *nout; i++) {
        char *args = xasprintf("set %s %s", out[i].name, out[i].value);
        int rc = run_ctl(o->server_ctl, args);
        free(args);
        if (rc)
            return -1;
    }
    if (run_ctl(o->server_ctl, "restart"))
        return -1;
    snprintf(applied, applied_len, "%s", key);
    return 0;
}

static void summary_line(const dg_sweep *s, const dg_sweep_point *pt, const char *path)
{
    char params[512] = "";
    size_t n = 0;
    for (int p = 0; p < s->nparams && n < sizeof params; p++) {
        const char *label = dg_sweep_label(s, pt, p);
        char *v = label ? xstrdup(label) : dg_sweep_shown_value(s->params[p].name, dg_sweep_value(s, pt, p));
        n += (size_t)snprintf(params + n, sizeof params - n, "%s%s=%s", p ? " " : "", s->params[p].name, v);
        free(v);
    }
    json_t *doc = NULL;
    dg_err err;
    if (dg_result_read(path, &doc, &err) != 0) {
        printf("%s r%d %s: %s\n", pt->id, pt->repeat, params, dg_point_status_name(pt->status));
        fflush(stdout);
        return;
    }
    double tps = dg_res_num(doc, "totals.tps", NAN);
    double p95 = NAN;
    json_t *tx = dg_res_get(doc, "transactions");
    /* p95 of the busiest transaction type */
    double best = -1;
    size_t i;
    json_t *t;
    json_array_foreach(tx, i, t)
    {
        double c = dg_res_num(t, "count", 0);
        if (c > best) {
            best = c;
            p95 = dg_res_num(t, "latency_ms.p95", NAN);
        }
    }
    double cpu = dg_res_num(doc, "monitor.cpu_pct", NAN);
    double mbps = dg_res_num(doc, "load.mb_per_s", NAN);
    printf("%s r%d %s: %.1f tps, p95 %.3g ms, cpu %.0f%%", pt->id, pt->repeat, params, tps, p95, cpu);
    if (isfinite(mbps))
        printf(", loaded at %.1f MB/s", mbps);
    if (pt->status != DG_POINT_DONE)
        printf(" (%s)", dg_point_status_name(pt->status));
    printf("\n");
    fflush(stdout);
    json_decref(doc);
}

/* One point: a quiet session with the point's options, its result written to path.
 * Returns the exit status `run` would have had; *doc gets the document when one was
 * built (and written). */
static int run_point(const dg_options *po, const json_t *extra, const dg_setting *server, int nserver,
                     const char *path, json_t **doc)
{
    *doc = NULL;
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(po, &wl))
        return 1;
    dg_session_config cfg;
    dg_cli_session_config(po, wl, NULL, &cfg);
    cfg.extra = extra;
    cfg.server_settings = server;
    cfg.nserver_settings = nserver;
    dg_session_stage stage;
    dg_err err = DG_ERR_INIT;
    int status;
    if (dg_session_run(&cfg, doc, &stage, &err) != 0) {
        status = dg_cli_session_failed(&err, stage);
    } else if ((status = dg_cli_load_stopped(*doc)) != 0) {
        /* stopped while loading the point's data: no run, so no point file; the point is
         * interrupted (its reason) and --resume loads again */
    } else if (dg_result_write(*doc, path, &err) != 0) {
        dg_log_error("%s", err.msg);
        json_decref(*doc);
        *doc = NULL;
        status = 2;
    } else {
        status = dg_res_get(*doc, "run.complete") == json_true() ? 0 : 2;
    }
    dg_workload_free(wl);
    return status;
}

int dg_cmd_sweep(dg_options *o)
{
    char dir[1024];
    if (o->output_dir) {
        snprintf(dir, sizeof dir, "%s", o->output_dir);
    } else {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        char stamp[32];
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(dir, sizeof dir, "%s/sweep-%s", o->results_dir, stamp);
    }
    dg_sweep s;
    dg_err err;
    dg_err_clear(&err);
    if (dg_sweep_plan(o->vary, o->nvary, (int)o->repeat, dir, o->command_line, &s, &err)) {
        dg_log_error("%s", err.msg);
        return 1;
    }
    int status = 1;
    if (check_server_param(o, &s, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    /* Check every point's options before running anything. */
    for (int i = 0; i < s.npoints; i++) {
        dg_options po = *o;
        po.cmd = DG_CMD_RUN;
        po.command_line = NULL;
        int rc = apply_point(&po, &s, &s.points[i], &err);
        if (rc == 0)
            rc = dg_cli_validate(&po, &err);
        if (rc == 0) { /* a malformed URL fails now, not after the points before it ran */
            dg_url u;
            if ((rc = dg_url_parse(po.db, &u, &err)) == 0)
                dg_url_free(&u);
        }
        free_added(&po, o);
        if (rc) {
            dg_log_error("%s: %s", s.points[i].id, err.msg);
            goto out;
        }
    }
    struct stat st;
    if (o->resume) {
        if (dg_sweep_resume(&s, &err)) {
            dg_log_error("%s", err.msg);
            goto out;
        }
    } else if (stat(dir, &st) == 0) {
        char *idx = xasprintf("%s/experiment.json", dir);
        bool exists = stat(idx, &st) == 0;
        free(idx);
        if (exists) {
            dg_log_error("%s already holds a sweep: add --resume to continue it, or choose another "
                         "--output-dir",
                         dir);
            goto out;
        }
    }
    if (dg_sweep_write_index(&s, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    int todo = 0;
    for (int i = 0; i < s.npoints; i++)
        todo += s.points[i].status != DG_POINT_DONE;
    printf("sweep: %d point%s (%d to run) into %s\n", s.npoints, s.npoints == 1 ? "" : "s", todo, dir);
    fflush(stdout);

    dg_sigsave saved;
    dg_signals_catch(on_signal, &saved);
    interrupted = 0;

    /* the parameters that shape the data: varying one reloads */
    bool shapes[64] = {false};
    bool any_shape = false;
    for (int p = 0; p < s.nparams && p < 64; p++) {
        const char *n = s.params[p].name;
        shapes[p] = !strcmp(n, "scale") || !strcmp(n, "size") || !strcmp(n, "rows") ||
                    !strcmp(n, "tables") || !strncmp(n, "wl.", 3);
        any_shape |= shapes[p];
    }
    char last_key[2400] = "";
    char server_applied[1024] = "";
    bool any_bad = false;
    for (int i = 0; i < s.npoints && !interrupted; i++) {
        dg_sweep_point *pt = &s.points[i];
        if (pt->status == DG_POINT_DONE)
            continue;
        dg_options po = *o;
        po.cmd = DG_CMD_RUN;
        po.cmd_name = "run";
        po.command_line = NULL;
        if (apply_point(&po, &s, pt, &err) || dg_cli_validate(&po, &err)) {
            dg_log_error("%s: %s", pt->id, err.msg); /* checked above: should not happen */
            free_added(&po, o);
            pt->status = DG_POINT_FAILED;
            any_bad = true;
            continue;
        }
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, pt->file);
        po.seed_given = true; /* one seed for every point: repeatable as a whole */
        po.command_line = xasprintf("%s   [point %s repeat %d]", o->command_line, pt->id, pt->repeat);
        if (any_shape) {
            char key[2400];
            int n = snprintf(key, sizeof key, "%s|%s", po.db, po.workload ? po.workload : "");
            for (int p = 0; p < s.nparams && p < 64; p++)
                if (shapes[p] && n > 0 && (size_t)n < sizeof key)
                    n += snprintf(key + n, sizeof key - (size_t)n, "|%s", dg_sweep_value(&s, pt, p));
            po.reload = strcmp(key, last_key) != 0;
            snprintf(last_key, sizeof last_key, "%s", key);
        }
        json_t *extra = json_pack("{s:o}", "sweep", dg_sweep_point_json(&s, pt));
        dg_setting server[MAX_SERVER];
        int nserver = 0;
        if (set_server(o, &s, pt, server_applied, sizeof server_applied, server, &nserver) != 0 ||
            run_hook(&s, pt, o->before_each, "--before-each") != 0) {
            pt->status = DG_POINT_FAILED;
            pt->exit = 1;
        } else {
            json_t *doc = NULL;
            pt->exit = run_point(&po, extra, server, nserver, path, &doc);
            const char *reason = doc ? dg_res_str(doc, "run.stop_reason") : NULL;
            if (pt->exit == 0)
                pt->status = DG_POINT_DONE;
            else if (doc && reason && strstr(reason, "interrupted"))
                pt->status = DG_POINT_INTERRUPTED;
            else if (doc)
                pt->status = DG_POINT_INCOMPLETE;
            else
                pt->status = DG_POINT_FAILED;
            if (pt->exit != 0 && dg_stop_signal()) /* stopped, in any phase of the point */
                pt->status = DG_POINT_INTERRUPTED;
            json_decref(doc);
            if (pt->status == DG_POINT_INTERRUPTED)
                interrupted = 1;
            if (run_hook(&s, pt, o->after_each, "--after-each") != 0 && pt->status == DG_POINT_DONE)
                pt->status = DG_POINT_INCOMPLETE;
        }
        json_decref(extra);
        free_added(&po, o);
        if (pt->status != DG_POINT_DONE)
            any_bad = true;
        if (pt->status == DG_POINT_FAILED || pt->status == DG_POINT_INTERRUPTED)
            last_key[0] = '\0'; /* the database state is unknown: reload next time */
        summary_line(&s, pt, path);
        if (dg_sweep_write_index(&s, &err))
            dg_log_error("%s", err.msg);
    }
    dg_signals_restore(&saved);
    if (interrupted) {
        printf("sweep interrupted: continue with 'dbgauge sweep ... --output-dir %s --resume'\n", dir);
        status = 2;
    } else {
        printf("sweep done: %s/experiment.json\n", dir);
        status = any_bad ? 2 : 0;
    }
out:
    dg_sweep_free(&s);
    return status;
}
