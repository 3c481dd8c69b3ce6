/*
 * cmd_load.c - `dbgauge load`: connect, refuse existing tables unless --drop, load
 * (session/load.c times the steps; session_ui.c prints them and the load report), and
 * write the load's result file (kind "load") like `run`'s (--json - included). A load
 * stopped by SIGINT or SIGTERM writes what it loaded, marked incomplete, and exits 2.
 */
#include "cli/commands.h"

#include "core/log.h"
#include "results/result.h"

#include <stdio.h>

int dg_cmd_load(dg_options *o)
{
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(o, &wl))
        return 1;
    dg_cli_ui ui;
    dg_session_config cfg;
    dg_cli_session_config(o, wl, &ui, &cfg);
    json_t *doc = NULL;
    dg_session_stage stage = DG_STAGE_SETUP;
    dg_err err = DG_ERR_INIT;
    int status = 0;
    int saved = dg_cli_stdout_aside(o);
    if (dg_session_load_doc(&cfg, &doc, &stage, &err) != 0)
        status = dg_cli_session_failed(&err, stage);
    else
        status = dg_cli_load_stopped(doc); /* 2 for a partial load, whose file is written */
    if (doc && !o->no_results) {
        int written = dg_cli_write_result(o, doc, "load", saved);
        saved = -1;
        if (written)
            status = written;
    }
    dg_cli_stdout_back(saved);
    json_decref(doc);
    dg_workload_free(wl);
    return status;
}
