/*
 * cmd_load.c - `dbgauge load`: connect, refuse existing tables unless --drop, and load
 * (session/load.c times the steps; session_ui.c prints them and the load report).
 */
#include "cli/commands.h"


int dg_cmd_load(dg_options *o)
{
    dg_workload *wl = NULL;
    if (dg_cli_open_workload(o, &wl))
        return 1;
    dg_cli_ui ui;
    dg_session_config cfg;
    dg_cli_session_config(o, wl, &ui, &cfg);
    dg_conn *conn = NULL;
    dg_session_stage stage = DG_STAGE_SETUP;
    dg_err err = DG_ERR_INIT;
    int status = 0;
    if (dg_session_connect(&cfg, true, &conn, &err) != 0 ||
        dg_session_prepare(&cfg, conn, DG_PREPARE_LOAD, NULL, &stage, &err) != 0)
        status = dg_cli_session_failed(&err, stage);
    dg_conn_close(conn);
    dg_workload_free(wl);
    return status;
}
