/*
 * commands.h - the commands behind `dbgauge COMMAND`. Each returns the process exit
 * status (0 success, 1 usage/configuration error, 2 run aborted or incomplete) and prints
 * its own messages; only main() exits.
 */
#ifndef DG_CLI_COMMANDS_H
#define DG_CLI_COMMANDS_H

#include "cli/options.h"
#include "session/session.h"

#include <jansson.h>

int dg_cmd_run(dg_options *o);
int dg_cmd_load(dg_options *o);
int dg_cmd_restore(dg_options *o);
int dg_cmd_check(dg_options *o);
int dg_cmd_list(dg_options *o);
int dg_cmd_sweep(dg_options *o);
int dg_cmd_report(dg_options *o);
int dg_cmd_compare(dg_options *o);
int dg_cmd_merge(dg_options *o);
/* run --drivers: the run on several hosts over ssh, merged (cli/drivers.c). */
int dg_cli_drivers_run(dg_options *o);

/* Shared by report and compare: prints an input error, "FILE:LINE:COL: error: ..." as it
 * is and other messages as "dbgauge: error: ...". */
void dg_cli_input_error(const dg_err *err);

/* Shared by report and compare: refuses an output (-o; NULL: standard output) that is one
 * of the inputs of the sets (a result file or a sweep index, the same file by device and
 * inode or by realpath), with a message, before anything is written. 0 or exit status 1. */
struct dg_rep_set;
int dg_cli_check_output(const char *output, const struct dg_rep_set *sets, int nsets);

/* Shared by run and load (cmd_run.c): with the result going to standard output (--json -
 * or /dev/stdout), everything else the command prints on stdout (header, live lines,
 * summary) goes to stderr instead, so that stdout holds the JSON alone. dg_cli_stdout_aside
 * points descriptor 1 at stderr and returns the saved stdout (or -1 when the result does
 * not go to stdout); dg_cli_stdout_back puts it back (-1: nothing to do). */
int dg_cli_stdout_aside(const dg_options *o);
void dg_cli_stdout_back(int saved);

/* Writes a run's or load's result document (kind as for dg_cli_result_path) and prints
 * where it went; first puts back the stdout that dg_cli_stdout_aside saved (-1: none).
 * 0, or exit status 2 when it could not be written (the error printed). */
int dg_cli_write_result(const dg_options *o, json_t *doc, const char *kind, int saved_stdout);

/* Shared by run, load, check and sweep (session_ui.c). */

/* Opens the workload named by the options (parse errors printed). 0 or exit status 1. */
int dg_cli_open_workload(const dg_options *o, dg_workload **out);

/* The printed side of a session: callbacks in `ui` that print the header, live interval
 * lines and load steps (nothing when the options say --quiet). */
typedef struct dg_cli_ui {
    dg_session_ui ui;
    const dg_options *o;
    bool tty;       /* stderr is a terminal: show the load's progress bar */
    bool bar_shown;
    int64_t load_t0; /* when the load began (dg_now_ns): the bar's elapsed and remaining */
    FILE *interval_log; /* --interval-log: one JSON line per interval (cmd_run opens it) */
    bool interval_log_failed;
    struct dg_prom *prom; /* --metrics-file: the counters, from the run's start (on_begin) */
    FILE *hlog_file;      /* --hlog (cmd_run opens it) */
    struct dg_hlog *hlog;
    bool hlog_failed;
    bool metrics_failed;
} dg_cli_ui;
void dg_cli_ui_init(dg_cli_ui *u, const dg_options *o);
/* Closes the interval log and frees the metrics state. */
void dg_cli_ui_free(dg_cli_ui *u);

/* The session config for the options (borrowing their strings) and the opened workload;
 * with ui (not NULL) the session prints through it. */
void dg_cli_session_config(const dg_options *o, dg_workload *wl, dg_cli_ui *ui,
                           dg_session_config *cfg);

/* Prints a session's failure; returns the exit status: 2 when the database may hold a
 * partial load or a signal stopped the session, else 1. */
int dg_cli_session_failed(const dg_err *err, dg_session_stage stage);
/* For a session's document: a load stopped by a signal (kind "load", not complete) is
 * said on stderr and gives 2; anything else gives 0 and prints nothing. */
int dg_cli_load_stopped(const json_t *doc);

/* Where a result document goes: --json, else --results-dir/<stamp>-<workload>[-kind]-
 * <backend>.json (kind: NULL for a run, "load" for `dbgauge load`). */
void dg_cli_result_path(const dg_options *o, const json_t *doc, const char *kind, char *buf,
                        size_t len);

#endif
