/*
 * cmd_run.c - `dbgauge run`: the options become a session config (session/), the session
 * prepares the database, runs the workload and builds the result document; this command
 * prints it (live lines through the session UI, the summary at the end) and writes the
 * result file atomically.
 */
#include "cli/commands.h"

#include "core/log.h"
#include "report/text.h"
#include "results/result.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void dg_cli_result_path(const dg_options *o, const json_t *doc, const char *kind, char *buf, size_t len)
{
    if (o->json_path) {
        snprintf(buf, len, "%s", o->json_path);
        return;
    }
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    char name[64];
    snprintf(name, sizeof name, "%s", dg_res_str(doc, "run.workload"));
    for (char *p = name; *p; p++)
        if (*p == ':' || *p == '/')
            *p = '-';
    snprintf(buf, len, "%s/%s-%s%s%s-%s.json", o->results_dir, stamp, name, kind ? "-" : "",
             kind ? kind : "", dg_res_str(doc, "run.backend"));
}

int dg_cmd_run(dg_options *o)
{
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(o, &wl))
        return 1;
    dg_cli_ui ui;
    dg_session_config cfg;
    dg_cli_session_config(o, wl, &ui, &cfg);
    json_t *doc = NULL;
    dg_session_stage stage;
    dg_err err = DG_ERR_INIT;
    int status;
    if (dg_session_run(&cfg, &doc, &stage, &err) != 0) {
        status = dg_cli_session_failed(&err, stage);
        goto out;
    }
    status = dg_res_get(doc, "run.complete") == json_true() ? 0 : 2;
    if (dg_cli_load_stopped(doc) == 0) /* else stopped while loading first: no run to show */
        dg_report_text_run(stdout, doc);
    if (!o->no_results) {
        char path[1024];
        dg_cli_result_path(o, doc, NULL, path, sizeof path);
        if (dg_result_write(doc, path, &err)) {
            dg_log_error("%s", err.msg);
            status = 2;
        } else {
            printf("result file: %s\n", path);
        }
    }
out:
    json_decref(doc);
    dg_workload_free(wl);
    return status;
}
