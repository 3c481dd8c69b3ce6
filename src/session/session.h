/*
 * session.h - one benchmark session: everything between "a workload and a database URL"
 * and "a result document", for `run`, `load`, `check` and every point of a `sweep`.
 *
 *   dg_session_load_doc  `dbgauge load`: the preamble (session/load.h) and the load's
 *                        result document
 *   dg_session_run       prepare (load when empty), then run the terminals with interval
 *                        collection and monitoring (host CPU and disk, the database's cache
 *                        and size, the server's waits), warnings and notes, and build the
 *                        result document
 *
 * The session prints nothing to stdout: what a person sees comes from the callbacks in
 * dg_session_ui (the CLI prints live lines and load steps from them), so a sweep can run
 * sessions quietly and a test can run them without a terminal. Warnings go to stderr
 * through core/log. Signals: dg_session_run turns SIGINT/SIGTERM into a stop request for
 * the duration of the run (the partial result is still built, run.complete = false).
 *
 * The configuration, the UI callbacks, connecting, the preamble and the load are in
 * session/load.h (load.c), which this header includes.
 *
 * Ownership: the caller owns the config, the workload and any connection it passes; a
 * returned document belongs to the caller (json_decref).
 */
#ifndef DG_SESSION_SESSION_H
#define DG_SESSION_SESSION_H

#include "session/load.h"

#include <jansson.h>

/* `dbgauge load` as a session: connects, loads (dropping first when cfg->reload) and
 * builds the load's result document, {"kind": "load", "load": ..., "server", "host",
 * "run": what was asked}, into *doc. On failure *doc is NULL and *stage says where. */
int dg_session_load_doc(const dg_session_config *cfg, json_t **doc, dg_session_stage *stage,
                        dg_err *err);

/* Runs the whole session. On 0, *doc is the complete result document (run.complete
 * tells whether the run itself completed: an interrupted or aborted run still returns 0
 * and a document). On failure (DG_E_*), *doc is NULL, err says why and *stage where. */
/* What a sweep point had --server-ctl set (cfg->server_settings), read back from the
 * server: "requested", "effective" and "verified" added to a document's "server". */
void dg_session_server_ctl_json(dg_conn *conn, const dg_server_info *si,
                                const dg_session_config *cfg, json_t *server);

int dg_session_run(const dg_session_config *cfg, json_t **doc, dg_session_stage *stage,
                   dg_err *err);

#endif
