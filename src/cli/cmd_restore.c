/*
 * cmd_restore.c - `dbgauge restore --db URL -- COMMAND ARGS...`: the user's own restore
 * command run and timed like a load (session/restore.c), its result written like a load's
 * (kind "load", with a "restore" object). Exit 0 when the command succeeded, 1 when it
 * failed (its message shown, the result file still written and marked incomplete), 2
 * when dbgauge was stopped (SIGINT, SIGTERM) or the result could not be written.
 */
#include "cli/commands.h"

#include "core/log.h"
#include "results/result.h"
#include "session/restore.h"

#include <stdio.h>

int dg_cmd_restore(dg_options *o)
{
    dg_cli_ui ui;
    dg_session_config cfg;
    dg_cli_session_config(o, NULL, &ui, &cfg);
    json_t *doc = NULL;
    dg_err err = DG_ERR_INIT;
    dg_restore_outcome outcome = DG_RESTORE_OK;
    int saved = dg_cli_stdout_aside(o);
    int status = 0;
    int rc = dg_session_restore_doc(&cfg, o->args, &doc, &outcome, &err);
    if (rc) {
        dg_log_error("%s", err.msg);
        status = 1;
    } else if (outcome == DG_RESTORE_FAILED) {
        dg_log_error("%s", err.msg);
        const json_t *tail = dg_res_get(doc, "load.restore.stderr_tail");
        size_t n = json_array_size(tail);
        for (size_t i = n > 5 ? n - 5 : 0; i < n; i++) /* the tool's last words */
            fprintf(stderr, "  %s\n", json_string_value(json_array_get(tail, i)));
        status = 1;
    } else if (outcome == DG_RESTORE_INTERRUPTED) {
        dg_log_error("the restore was %s: the database holds a partial restore",
                     dg_res_str(doc, "run.stop_reason"));
        status = 2;
    }
    if (doc && !o->no_results) {
        int written = dg_cli_write_result(o, doc, NULL, saved);
        saved = -1;
        if (written)
            status = written;
    }
    dg_cli_stdout_back(saved);
    dg_cli_ui_free(&ui);
    json_decref(doc);
    return status;
}
