/*
 * exec.c - runs a sweep's points (exec.h): the plan and its checks, then per point the
 * server settings and hooks around a quiet session, its result file, its status in
 * experiment.json and its summary line.
 *
 * Layout: signals, hooks, server settings (--server-ctl: set per point, put back as they
 * were at the end), the summary line, one point's session, and dg_sweep_exec, which
 * checks every point first and then runs them in order.
 */
#include "experiment/exec.h"

#include "core/log.h"
#include "core/signals.h"
#include "core/stop.h"
#include "core/xalloc.h"
#include "results/doc.h"
#include "results/result.h"
#include "session/restore.h"
#include "stats/ci.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>

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

/* A --vary server.NAME: the name a server's configuration knows, the value one a shell
 * command line can carry without quoting surprises. */
static int check_server_param(const char *server_ctl, const dg_sweep *s, dg_err *err)
{
    for (int p = 0; p < s->nparams; p++) {
        const char *name = s->params[p].name;
        if (strncmp(name, "server.", 7))
            continue;
        if (!server_ctl)
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
static int set_server(const char *server_ctl, const dg_sweep *s, const dg_sweep_point *pt,
                      char *applied, size_t applied_len, dg_setting *out, int *nout)
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
        int rc = run_ctl(server_ctl, args);
        free(args);
        if (rc)
            return -1;
    }
    if (run_ctl(server_ctl, "restart"))
        return -1;
    snprintf(applied, applied_len, "%s", key);
    return 0;
}

/* The server's recorded settings before the sweep (`CMD settings`: NAME=VALUE lines), to
 * put back at its end. */
typedef struct server_before {
    bool known;         /* `CMD settings` answered */
    int n;
    struct {
        char name[64];
        char value[128];
    } set[MAX_SERVER];
} server_before;

static void read_settings(const char *ctl, server_before *out)
{
    memset(out, 0, sizeof *out);
    char *cmd = xasprintf("%s settings", ctl);
    fflush(stdout);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return;
    char line[256];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq || eq == line || out->n == MAX_SERVER)
            continue;
        *eq = '\0';
        snprintf(out->set[out->n].name, sizeof out->set[0].name, "%s", line);
        snprintf(out->set[out->n].value, sizeof out->set[0].value, "%s", eq + 1);
        out->n++;
    }
    int st = pclose(p);
    out->known = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Puts the varied server settings back as they were before the sweep (set, or unset when
 * none was recorded; names compared ignoring case, as PostgreSQL and Firebird do) and
 * restarts the server once; says what it did, or why it could not. */
static void restore_server(const char *ctl, const dg_sweep *s, const server_before *before)
{
    if (!before->known) {
        dg_log_warn("the server keeps the last point's settings: '%s settings' (which lists "
                    "the recorded settings) failed before the sweep, so what they were is "
                    "unknown",
                    ctl);
        return;
    }
    char said[1024] = "";
    size_t n = 0;
    int rc = 0;
    for (int p = 0; p < s->nparams && rc == 0; p++) {
        const char *name = s->params[p].name;
        if (strncmp(name, "server.", 7))
            continue;
        name += 7;
        const char *was = NULL;
        for (int i = 0; i < before->n && !was; i++)
            if (!strcasecmp(before->set[i].name, name))
                was = before->set[i].value;
        char *args = was ? xasprintf("set %s %s", name, was) : xasprintf("unset %s", name);
        rc = run_ctl(ctl, args);
        free(args);
        if (n < sizeof said)
            n += (size_t)snprintf(said + n, sizeof said - n, "%s%s %s", n ? ", " : "", name,
                                  was ? was : "(not set: the server's default)");
    }
    if (rc == 0)
        rc = run_ctl(ctl, "restart");
    if (rc == 0)
        printf("server settings as before the sweep: %s; server restarted\n", said);
    else
        dg_log_warn("the server's settings could not all be put back as before the sweep (%s)",
                    said);
    fflush(stdout);
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
    if (json_is_object(dg_res_get(doc, "load.restore"))) { /* a restore sweep's point */
        printf("%s r%d %s: restored in %.2f s, %.1f MB/s%s%s%s\n", pt->id, pt->repeat, params,
               dg_res_num(doc, "load.seconds", NAN), mbps, pt->status != DG_POINT_DONE ? " (" : "",
               pt->status != DG_POINT_DONE ? dg_point_status_name(pt->status) : "",
               pt->status != DG_POINT_DONE ? ")" : "");
        fflush(stdout);
        json_decref(doc);
        return;
    }
    printf("%s r%d %s: %.1f tps, p95 %.3g ms", pt->id, pt->repeat, params, tps, p95);
    if (isfinite(cpu)) /* a run too short for a CPU reading has none */
        printf(", cpu %.0f%%", cpu);
    if (isfinite(mbps))
        printf(", loaded at %.1f MB/s", mbps);
    if (pt->status != DG_POINT_DONE)
        printf(" (%s)", dg_point_status_name(pt->status));
    printf("\n");
    fflush(stdout);
    json_decref(doc);
}

/* One point: a quiet session with the point's configuration, its result written to path.
 * Returns the exit status `run` would have had; *doc gets the document when one was
 * built (and written). */
static int run_point(const dg_sweep_exec_config *x, int reload, const json_t *extra,
                     const dg_setting *server, int nserver, const char *path, json_t **doc)
{
    *doc = NULL;
    dg_session_config cfg;
    if (x->ops->open(x->ctx, reload, &cfg))
        return 1;
    cfg.extra = extra;
    cfg.server_settings = server;
    cfg.nserver_settings = nserver;
    dg_session_stage stage;
    dg_err err = DG_ERR_INIT;
    int status;
    if (x->restore_argv) { /* each point times the restore command */
        dg_restore_outcome outcome;
        if (dg_session_restore_doc(&cfg, x->restore_argv, doc, &outcome, &err) != 0) {
            dg_log_error("%s", err.msg);
            status = 1;
        } else {
            if (outcome == DG_RESTORE_FAILED)
                dg_log_error("%s", err.msg);
            status = outcome == DG_RESTORE_OK ? 0 : 2;
            if (dg_result_write(*doc, path, &err) != 0) {
                dg_log_error("%s", err.msg);
                json_decref(*doc);
                *doc = NULL;
                status = 2;
            }
        }
        dg_workload_free(cfg.wl);
        return status;
    }
    if (dg_session_run(&cfg, doc, &stage, &err) != 0) {
        status = x->ops->session_failed(&err, stage);
    } else if ((status = x->ops->load_stopped(*doc)) != 0) {
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
    dg_workload_free(cfg.wl);
    return status;
}

/* --until-ci: the figure a point's interval is about, from one of its result files: the
 * throughput of a run, the load speed of a restore (NaN: none). */
static double ci_figure(const char *path)
{
    json_t *doc = NULL;
    dg_err err = DG_ERR_INIT;
    if (dg_result_read(path, &doc, &err) != 0)
        return NAN;
    double v = json_is_object(dg_res_get(doc, "load.restore")) ? dg_res_num(doc, "load.mb_per_s", NAN)
                                                               : dg_res_num(doc, "totals.tps", NAN);
    json_decref(doc);
    return v;
}

/* --until-ci after run i of a point: once the point has min_repeat runs that completed,
 * the 95% t-interval of their figures; a half-width within until_ci_pct % of the mean
 * settles the point ("ci reached": its repeats not yet run are skipped), as does its last
 * repeat ("cap"). Prints a line when the point is settled. */
static void settle_point(dg_sweep *s, int i, const char *dir)
{
    int first = i - (s->points[i].repeat - 1), last = first + s->repeat - 1;
    double v[1000];
    int n = 0;
    for (int k = first; k <= last && n < (int)(sizeof v / sizeof v[0]); k++) {
        if (s->points[k].status != DG_POINT_DONE)
            continue;
        char *path = xasprintf("%s/%s", dir, s->points[k].file);
        double f = ci_figure(path);
        free(path);
        if (isfinite(f))
            v[n++] = f;
    }
    dg_ci_sample d;
    dg_ci_describe(v, n, &d);
    double half_pct = NAN;
    if (n >= 2 && d.mean > 0 && isfinite(d.var))
        half_pct = 100 * dg_ci_t_quantile(0.975, n - 1) * sqrt(d.var / n) / d.mean;
    bool reached = n >= s->min_repeat && isfinite(half_pct) && half_pct <= s->until_ci_pct;
    bool pending = false;
    for (int k = i + 1; k <= last; k++)
        pending |= s->points[k].status == DG_POINT_PENDING;
    if (!reached && pending)
        return;
    for (int k = first; k <= last; k++) {
        if (reached && s->points[k].status == DG_POINT_PENDING)
            s->points[k].status = DG_POINT_SKIPPED;
        s->points[k].ci_runs = n;
        s->points[k].ci_half_pct = half_pct;
        s->points[k].ci_stopped = reached ? "ci reached" : "cap";
    }
    if (isfinite(half_pct))
        printf("%s: 95%% CI +/-%.1f%% of the mean after %d run%s: %s\n", s->points[i].id, half_pct,
               n, n == 1 ? "" : "s",
               reached ? "within --until-ci" : "not within --until-ci at --max-repeat");
    else
        printf("%s: %d run%s completed, no interval: not within --until-ci at --max-repeat\n",
               s->points[i].id, n, n == 1 ? "" : "s");
    fflush(stdout);
}

int dg_sweep_exec(const dg_sweep_exec_config *x)
{
    const dg_sweep_exec_ops *ops = x->ops;
    const char *dir = x->dir;
    dg_sweep s;
    dg_err err;
    dg_err_clear(&err);
    if (dg_sweep_plan(x->vary, x->nvary, x->repeat, dir, x->command_line, &s, &err)) {
        dg_log_error("%s", err.msg);
        return 1;
    }
    s.seed = x->seed;
    s.until_ci_pct = x->until_ci_pct;
    s.min_repeat = x->min_repeat;
    int status = 1;
    if (check_server_param(x->server_ctl, &s, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    /* Check every point's options before running anything. */
    for (int i = 0; i < s.npoints; i++) {
        dg_sweep_exec_point p;
        int rc = ops->prepare(x->ctx, &s, &s.points[i], NULL, &p, &err);
        if (rc == 0) { /* a malformed URL fails now, not after the points before it ran */
            dg_url u;
            if ((rc = dg_url_parse(p.db, &u, &err)) == 0)
                dg_url_free(&u);
            ops->release(x->ctx);
        }
        if (rc) {
            dg_log_error("%s: %s", s.points[i].id, err.msg);
            goto out;
        }
    }
    struct stat st;
    if (x->resume) {
        if (dg_sweep_resume(&s, &err)) {
            dg_log_error("%s", err.msg);
            goto out;
        }
        /* the points left run with the seed of those done, so the sweep stays one */
        if (x->seed_given && s.seed != x->seed) {
            dg_log_error("cannot resume: %s/experiment.json was made with seed %llu, not --seed %llu "
                         "(leave --seed out to keep the sweep's)",
                         dir, (unsigned long long)s.seed, (unsigned long long)x->seed);
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
        todo += s.points[i].status != DG_POINT_DONE && s.points[i].status != DG_POINT_SKIPPED;
    if (s.until_ci_pct > 0) {
        int combos = s.npoints / s.repeat;
        printf("sweep: %d point%s, each run %d to %d times until its 95%% CI is within +/-%.3g%% "
               "of the mean (%d runs at most, %d to run) into %s, seed %llu\n",
               combos, combos == 1 ? "" : "s", s.min_repeat, s.repeat, s.until_ci_pct, s.npoints,
               todo, dir, (unsigned long long)s.seed);
    } else {
        printf("sweep: %d point%s (%d to run) into %s, seed %llu\n", s.npoints,
               s.npoints == 1 ? "" : "s", todo, dir, (unsigned long long)s.seed);
    }
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
    bool server_changed = false; /* a point set the server's settings: restored at the end */
    server_before before = {.known = false};
    bool any_server = false;
    for (int p = 0; p < s.nparams; p++)
        any_server |= !strncmp(s.params[p].name, "server.", 7);
    if (any_server && x->server_ctl)
        read_settings(x->server_ctl, &before);
    bool any_bad = false;
    for (int i = 0; i < s.npoints && !interrupted; i++) {
        dg_sweep_point *pt = &s.points[i];
        if (pt->status == DG_POINT_DONE || pt->status == DG_POINT_SKIPPED)
            continue;
        /* every point runs with s.seed (the caller's prepare applies it): repeatable as a whole */
        char *command_line = xasprintf("%s   [point %s repeat %d]", x->command_line, pt->id, pt->repeat);
        dg_sweep_exec_point p;
        if (ops->prepare(x->ctx, &s, pt, command_line, &p, &err)) {
            dg_log_error("%s: %s", pt->id, err.msg); /* checked above: should not happen */
            free(command_line);
            pt->status = DG_POINT_FAILED;
            any_bad = true;
            continue;
        }
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, pt->file);
        int reload = -1;
        if (any_shape) {
            char key[2400];
            int n = snprintf(key, sizeof key, "%s|%s", p.db, p.workload ? p.workload : "");
            for (int k = 0; k < s.nparams && k < 64; k++)
                if (shapes[k] && n > 0 && (size_t)n < sizeof key)
                    n += snprintf(key + n, sizeof key - (size_t)n, "|%s", dg_sweep_value(&s, pt, k));
            reload = strcmp(key, last_key) != 0;
            snprintf(last_key, sizeof last_key, "%s", key);
        }
        json_t *point = dg_sweep_point_json(&s, pt);
        json_t *extra = dg_doc_sweep_extra(point);
        json_decref(point);
        dg_setting server[MAX_SERVER];
        int nserver = 0;
        int srv = set_server(x->server_ctl, &s, pt, server_applied, sizeof server_applied,
                             server, &nserver);
        server_changed |= nserver > 0; /* tried: a failed set may have changed some */
        if (srv != 0 ||
            run_hook(&s, pt, x->before_each, "--before-each") != 0) {
            pt->status = DG_POINT_FAILED;
            pt->exit = 1;
        } else {
            json_t *doc = NULL;
            pt->exit = run_point(x, reload, extra, server, nserver, path, &doc);
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
            if (run_hook(&s, pt, x->after_each, "--after-each") != 0 && pt->status == DG_POINT_DONE)
                pt->status = DG_POINT_INCOMPLETE;
        }
        json_decref(extra);
        ops->release(x->ctx);
        free(command_line);
        if (pt->status != DG_POINT_DONE)
            any_bad = true;
        if (pt->status == DG_POINT_FAILED || pt->status == DG_POINT_INTERRUPTED)
            last_key[0] = '\0'; /* the database state is unknown: reload next time */
        summary_line(&s, pt, path);
        if (x->until_ci_pct > 0)
            settle_point(&s, i, dir);
        if (dg_sweep_write_index(&s, &err))
            dg_log_error("%s", err.msg);
    }
    dg_signals_restore(&saved);
    if (server_changed)
        restore_server(x->server_ctl, &s, &before);
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
