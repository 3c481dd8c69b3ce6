/* main.c - parse, validate, dispatch. */
#include "cli/commands.h"
#include "cli/options.h"
#include "core/buildinfo.h"
#include "core/log.h"
#include "core/stop.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        if (argc >= 3 && !strcmp(argv[1], "help") && dg_cli_command(argv[2]) != DG_CMD_NONE) {
            dg_cli_help(stdout, dg_cli_command(argv[2]));
            return 0;
        }
        dg_cli_help(argc < 2 ? stderr : stdout, DG_CMD_NONE);
        return argc < 2 ? 1 : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        /* one line: run --drivers compares the version on it */
        printf("dbgauge %s (commit %s)\n", DG_VERSION, dg_build_commit());
        return 0;
    }
    dg_options o;
    dg_err err;
    dg_err_clear(&err);
    if (dg_cli_parse(argc - 1, argv + 1, &o, &err) || dg_cli_validate(&o, &err)) {
        dg_log_error("%s", err.msg);
        dg_cli_free(&o);
        return 1;
    }
    if (o.help) {
        dg_cli_help(stdout, o.cmd);
        dg_cli_free(&o);
        return 0;
    }
    dg_log_set_quiet(o.quiet);
    int status = 1;
    switch (o.cmd) {
    case DG_CMD_RUN: status = dg_cmd_run(&o); break;
    case DG_CMD_LOAD: status = dg_cmd_load(&o); break;
    case DG_CMD_RESTORE: status = dg_cmd_restore(&o); break;
    case DG_CMD_CHECK: status = dg_cmd_check(&o); break;
    case DG_CMD_LIST: status = dg_cmd_list(&o); break;
    case DG_CMD_SWEEP: status = dg_cmd_sweep(&o); break;
    case DG_CMD_REPORT: status = dg_cmd_report(&o); break;
    case DG_CMD_COMPARE: status = dg_cmd_compare(&o); break;
    case DG_CMD_MERGE: status = dg_cmd_merge(&o); break;
    case DG_CMD_NONE: break;
    }
    dg_cli_free(&o);
    if (dg_stop_calls_left()) { /* a library's exit handlers would wait for that call */
        fflush(NULL);
        _exit(status);
    }
    return status;
}
