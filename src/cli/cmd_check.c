/* cmd_check.c - `dbgauge check` (a workload's consistency checks) and `dbgauge list`. */
#include "cli/commands.h"

#include "core/log.h"
#include "core/stop.h"
#include "core/strbuf.h"
#include "session/load.h" /* dg_session_connect, dg_session_prepare */

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void print_check(void *arg, const dg_check_result *r)
{
    int *failed = arg;
    if (!r->passed)
        (*failed)++;
    printf("  %-4s %-60s", r->passed ? "ok" : "FAIL", r->name);
    if (!r->passed && r->offending)
        printf("  %" PRId64 " offending", r->offending);
    if (r->detail[0])
        printf("  (%s)", r->detail);
    printf("\n");
    fflush(stdout);
}

static void interrupt_conn(void *conn)
{
    dg_interrupt(conn);
}

int dg_cmd_check(dg_options *o)
{
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(o, &wl))
        return 1;
    int status = 1;
    dg_err err = DG_ERR_INIT;
    dg_conn *conn = NULL;
    dg_session_config cfg;
    dg_cli_session_config(o, wl, NULL, &cfg);
    dg_session_stage stage = DG_STAGE_SETUP;
    dg_stop_watch *watch = NULL;
    /* SIGINT and SIGTERM end the check: a query still running has its connection
     * interrupted at once (nothing to finish: the checks only read), exit 2 */
    dg_sigsave saved;
    dg_stop_clear();
    dg_stop_catch(&saved);
    if (!wl->ops->check) {
        dg_log_error("workload '%s' has no consistency checks", wl->name);
        goto out;
    }
    if (dg_session_connect(&cfg, false, &conn, &err) != 0 ||
        dg_session_prepare(&cfg, conn, DG_PREPARE_CHECK, NULL, &stage, &err) != 0) {
        status = dg_cli_session_failed(&err, stage);
        goto out;
    }
    printf("checking %s, scale %lld, on %s\n", wl->name, (long long)wl->scale, conn->url_redacted);
    fflush(stdout);
    watch = dg_stop_watch_start(interrupt_conn, conn, 0);
    int failed = 0;
    /* one snapshot for every condition: sums read at different moments would disagree
     * whenever anything commits meanwhile (a run still ending, another client) */
    static const dg_txopts snapshot = {.isolation = DG_ISO_REPEATABLE_READ, .read_only = true};
    int rc = dg_begin(conn, &snapshot, &err);
    if (rc == 0) {
        rc = wl->ops->check(wl, conn, print_check, &failed, &err);
        dg_err e2 = DG_ERR_INIT;
        if (conn->in_tx)
            dg_rollback(conn, &e2); /* read only: nothing to keep */
    }
    dg_stop_watch_end(watch);
    int sig = dg_stop_signal();
    if (sig) {
        dg_log_error("check stopped: interrupted (%s) before every check ran",
                     sig == SIGINT ? "SIGINT" : "SIGTERM");
        status = 2;
    } else if (rc == 0) {
        printf("all checks passed\n");
        status = 0;
    } else if (rc == DG_E_CHECK) {
        printf("%d check%s failed\n", failed, failed == 1 ? "" : "s");
        status = 2;
    } else {
        dg_log_dberr("check could not run", &err);
        status = 2;
    }
out:
    dg_conn_close(conn);
    dg_signals_restore(&saved);
    dg_workload_free(wl);
    return status;
}

int dg_cmd_list(dg_options *o)
{
    (void)o;
    printf("workloads:\n");
    for (const dg_workload_def *const *d = dg_workload_defs(); *d; d++) {
        printf("  %-10s %s\n", (*d)->name, (*d)->summary);
        for (const char *const *v = (*d)->variants; v && *v; v++)
            printf("  %-10s   %s:%s\n", "", (*d)->name, *v);
    }
    printf("\ndatabases:\n");
    size_t n;
    const dg_backend_entry *cat = dg_backend_catalog(&n);
    for (size_t i = 0; i < n; i++) {
        if (cat[i].be)
            printf("  %-10s %s\n", cat[i].name, cat[i].be->url_help);
        else
            printf("  %-10s (not built: install %s and rebuild)\n", cat[i].name, cat[i].package);
    }
    char events[128];
    if (dg_backend_names_with(DG_CAP_NONBLOCKING, events, sizeof events) > 0)
        printf("  (the events engine, --workers N, serves %s; the others run a thread per "
               "terminal)\n", events);
    if (dg_backend_names_with(DG_CAP_PIPELINE, events, sizeof events) > 0)
        printf("  (--pipeline, a transaction in one round trip, serves %s)\n", events);
    /* each built backend's own settings, from its option table */
    for (size_t i = 0; i < n; i++) {
        const dg_backend *be = cat[i].be;
        if (!be)
            continue;
        if (be->describe_sources) { /* ODBC: the drivers and data sources installed here */
            dg_strbuf sb = DG_STRBUF_INIT;
            be->describe_sources(&sb);
            printf("\n%s", dg_sb_str(&sb));
            dg_sb_free(&sb);
        }
        printf("\n%s settings (?NAME=VALUE in the URL, or --conn NAME=VALUE):\n", be->name);
        for (const dg_backend_option *opt = be->options; opt && opt->name; opt++) {
            char type[160];
            if (!strcmp(opt->type, "int"))
                snprintf(type, sizeof type, "int %lld..%lld", opt->min, opt->max);
            else if (!strcmp(opt->type, "enum"))
                snprintf(type, sizeof type, "%s", opt->values);
            else if (!strcmp(opt->type, "text") && opt->max > 0)
                snprintf(type, sizeof type, "text, <= %lld bytes", opt->max);
            else
                snprintf(type, sizeof type, "%s", opt->type);
            if (strlen(type) > 24)
                printf("  %-18s %s\n  %-18s %-24s %s\n", opt->name, type, "", "", opt->help);
            else
                printf("  %-18s %-24s %s\n", opt->name, type, opt->help);
        }
        printf("  %-18s %s\n", "other names",
               be->other_options ? be->other_options : "refused");
    }
    return 0;
}
