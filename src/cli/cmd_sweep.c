/*
 * cmd_sweep.c - `dbgauge sweep`: the options mapped to an experiment (experiment/exec.h),
 * which runs every point of the grid through the same session as `dbgauge run`, one
 * result file per point, and keeps DIR/experiment.json up to date.
 *
 * What is the command line's stays here: where the sweep goes (--output-dir, else a
 * stamped directory under --results-dir), which options may be varied, and each point's
 * options (the sweep's options with the point's values applied through dg_cli_apply and
 * checked by dg_cli_validate), mapped to its session as `run` maps its own.
 */
#include "cli/commands.h"

#include "core/xalloc.h"
#include "experiment/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
        if (po->nargs > 0 && strcmp(name, "db") && strncmp(name, "server.", 7))
            return dg_err_fail(err, DG_E_INVAL,
                               "--vary %s: a sweep of a restore command (-- COMMAND) varies "
                               "server.NAME (with --server-ctl) or db; '%s' does not change "
                               "what the command does",
                               name, name);
        if (!strncmp(name, "server.", 7)) {
            continue; /* applied by --server-ctl before the point (experiment/exec.c) */
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

/* The point being prepared (one at a time): the sweep's options with its values. */
typedef struct point_ctx {
    const dg_options *o; /* the sweep's */
    dg_options po;       /* the point's copy; its added settings freed by free_added */
} point_ctx;

static int point_prepare(void *arg, const dg_sweep *s, const dg_sweep_point *pt,
                         const char *command_line, dg_sweep_exec_point *out, dg_err *err)
{
    point_ctx *c = arg;
    c->po = *c->o;
    c->po.cmd = DG_CMD_RUN;
    if (command_line)
        c->po.cmd_name = "run";
    c->po.command_line = NULL;
    /* one seed for every point, drawn once for the sweep (or --seed; a resumed sweep's
     * from experiment.json), so that validating the point's options draws no other; a
     * --vary seed value replaces it */
    c->po.seed = s->seed;
    c->po.seed_given = true;
    int rc = apply_point(&c->po, s, pt, err);
    if (rc == 0)
        rc = dg_cli_validate(&c->po, err);
    if (rc) {
        free_added(&c->po, c->o);
        return rc;
    }
    if (command_line)
        c->po.command_line = xstrdup(command_line);
    out->db = c->po.db;
    out->workload = c->po.workload;
    return 0;
}

static int point_open(void *arg, int reload, dg_session_config *cfg)
{
    point_ctx *c = arg;
    if (reload >= 0)
        c->po.reload = reload;
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(&c->po, &wl))
        return 1;
    dg_cli_session_config(&c->po, wl, NULL, cfg);
    return 0;
}

static void point_release(void *arg)
{
    point_ctx *c = arg;
    free_added(&c->po, c->o);
}

/* --until-ci: the fewest runs of a point, max(3, --repeat), within --max-repeat (default 10) */
static int min_repeat(const dg_options *o)
{
    int64_t most = o->max_repeat ? o->max_repeat : 10, least = o->repeat > 3 ? o->repeat : 3;
    return (int)(least < most ? least : most);
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
    static const dg_sweep_exec_ops ops = {
        .prepare = point_prepare,
        .open = point_open,
        .release = point_release,
        .session_failed = dg_cli_session_failed,
        .load_stopped = dg_cli_load_stopped,
    };
    point_ctx ctx = {.o = o};
    dg_sweep_exec_config x = {
        .vary = o->vary,
        .nvary = o->nvary,
        /* --until-ci plans the most runs of a point and skips those it does not need */
        .repeat = o->until_ci_pct > 0 ? (int)(o->max_repeat ? o->max_repeat : 10) : (int)o->repeat,
        .until_ci_pct = o->until_ci_pct,
        .min_repeat = min_repeat(o),
        .dir = dir,
        .command_line = o->command_line,
        .resume = o->resume,
        .seed = o->seed, /* drawn by dg_cli_validate when not given */
        .seed_given = o->seed_given,
        .before_each = o->before_each,
        .after_each = o->after_each,
        .server_ctl = o->server_ctl,
        .restore_argv = o->nargs > 0 ? o->args : NULL,
        .ops = &ops,
        .ctx = &ctx,
    };
    return dg_sweep_exec(&x);
}
