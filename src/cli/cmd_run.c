/*
 * cmd_run.c - `dbgauge run`: the options become a session config (session/), the session
 * prepares the database, runs the workload and builds the result document; this command
 * prints it (live lines through the session UI, the summary at the end) and writes the
 * result file (atomically; core/file.h). With --json - (or /dev/stdout) the JSON is the
 * only thing on stdout: what would be printed there goes to stderr; the same with
 * --interval-log - (one JSON line per interval, written as each ends).
 */
#include "cli/commands.h"

#include "core/file.h"
#include "core/log.h"
#include "report/text.h"
#include "results/result.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

int dg_cli_stdout_aside(const dg_options *o)
{
    bool json_out = !o->no_results && o->json_path && dg_file_is_stdout(o->json_path);
    bool log_out = (o->interval_log && dg_file_is_stdout(o->interval_log)) ||
                   (o->hlog && dg_file_is_stdout(o->hlog));
    if (!json_out && !log_out)
        return -1;
    fflush(stdout);
    int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0)
        return -1;
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(saved);
        return -1;
    }
    return saved;
}

void dg_cli_stdout_back(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
}

/* Writes the result document where the options say and tells where it went (on stderr
 * when it went to stdout). 0, or exit status 2 when it could not be written. */
int dg_cli_write_result(const dg_options *o, json_t *doc, const char *kind, int saved_stdout)
{
    char path[1024];
    dg_cli_result_path(o, doc, kind, path, sizeof path);
    dg_cli_stdout_back(saved_stdout);
    json_t *run = json_object_get(doc, "run");
    if (o->options_files && json_is_object(run)) /* @FILE: what it said, beside run.command */
        json_object_set(run, "options_files", o->options_files);
    dg_err err = DG_ERR_INIT;
    if (dg_result_write(doc, path, &err)) {
        dg_log_error("%s", err.msg);
        return 2;
    }
    if (o->quiet && kind)
        return 0;
    if (saved_stdout >= 0)
        fprintf(stderr, "result file: standard output\n");
    else
        printf("result file: %s\n", path);
    return 0;
}

int dg_cmd_run(dg_options *o)
{
    if (o->drivers)
        return dg_cli_drivers_run(o);
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
    /* the streams, before stdout is set aside ("-" is the real one) */
    if ((o->interval_log &&
         !(ui.interval_log = dg_file_open_stream(o->interval_log, "interval log", &err))) ||
        (o->hlog && !(ui.hlog_file = dg_file_open_stream(o->hlog, "histogram log", &err)))) {
        dg_log_error("%s", err.msg);
        dg_cli_ui_free(&ui);
        dg_workload_free(wl);
        return 1;
    }
    if (o->interval_log || o->hlog)
        signal(SIGPIPE, SIG_IGN); /* a reader that goes away is a failed write, said once */
    int saved = dg_cli_stdout_aside(o);
    if (dg_session_run(&cfg, &doc, &stage, &err) != 0) {
        status = dg_cli_session_failed(&err, stage);
        goto out;
    }
    status = dg_res_get(doc, "run.complete") == json_true() ? 0 : 2;
    if (dg_cli_load_stopped(doc) == 0) /* else stopped while loading first: no run to show */
        dg_report_text_run(stdout, doc);
    if (!o->no_results && dg_cli_write_result(o, doc, NULL, saved))
        status = 2;
    saved = -1;
out:
    dg_cli_stdout_back(saved);
    dg_cli_ui_free(&ui);
    json_decref(doc);
    dg_workload_free(wl);
    return status;
}
