/*
 * commands.h - the commands behind `dbgauge COMMAND`. Each returns the process exit
 * status (0 success, 1 usage/configuration error, 2 run aborted or incomplete) and prints
 * its own messages; only main() exits.
 */
#ifndef DG_CLI_COMMANDS_H
#define DG_CLI_COMMANDS_H

#include "cli/options.h"

#include <jansson.h>

int dg_cmd_run(dg_options *o);
int dg_cmd_load(dg_options *o);
int dg_cmd_check(dg_options *o);
int dg_cmd_list(dg_options *o);
int dg_cmd_sweep(dg_options *o);
int dg_cmd_report(dg_options *o);
int dg_cmd_compare(dg_options *o);

/* Shared by report and compare: prints an input error, "FILE:LINE:COL: error: ..." as it
 * is and other messages as "dbgauge: error: ...". */
void dg_cli_input_error(const dg_err *err);

/* Shared by run and load. */

/* Opens the workload named by the options (parse errors printed). 0 or exit status 1. */
int dg_cli_open_workload(const dg_options *o, dg_workload **out);

/* Connects to --db with the --conn settings; prints "cannot connect to URL: ..." (URL
 * redacted) on failure. 0 or exit status 1. */
int dg_cli_connect(const dg_options *o, bool bulk, dg_conn **out);

/* The per-connection settings from --conn as connection options. */
dg_connopts dg_cli_connopts(const dg_options *o, bool bulk);

/* Loads wl into the database behind conn (tables must not exist). Prints steps unless
 * quiet; on success *load_json (if not NULL) receives the "load" object of the result
 * file. Returns 0 or exit status 1/2. */
int dg_cli_load(const dg_options *o, dg_workload *wl, dg_conn *conn, json_t **load_json);

#endif
