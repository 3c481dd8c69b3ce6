/*
 * restore.h - `dbgauge restore`: the user's own restore command (gbak, pg_restore, psql,
 * mariadb, anything) run and measured like a load. The command runs as given (an argument
 * vector, no shell) in its own process group (in dbgauge's when the standard input is a
 * terminal, so it can prompt), with dbgauge's standard input and the URL's
 * credentials in the environment the tool reads (PGPASSWORD..., ISC_USER/ISC_PASSWORD,
 * MYSQL_PWD...), so no password need be on its command line. Its output is read line by
 * line (restore_log.h turns a known tool's verbose lines into steps), the database's size
 * is probed every second (the growth timeline, with the host's CPU and disk), and after
 * it exits the tables and indexes are read as after a load.
 *
 * The result is a document of kind "load" whose "load" object has a "restore" object
 * (results/doc.h's fields plus the command, redacted, the tool's exit status, the log
 * format and its stderr's tail, redacted). A command that fails (exit status not 0, or
 * killed) gives a document marked incomplete, with stop_reason saying so; a stop signal
 * ends the command (SIGTERM to its group, SIGKILL 2 s later) and gives one marked
 * interrupted. With --server-host (or a server on this machine) the server host's figures
 * are sampled each second too (timeline[].server_host, load.server_host).
 */
#ifndef DG_SESSION_RESTORE_H
#define DG_SESSION_RESTORE_H

#include "session/load.h"

#include <jansson.h>

/* The restore's outcome beside its document. */
typedef enum dg_restore_outcome {
    DG_RESTORE_OK = 0,
    DG_RESTORE_FAILED,      /* the command exited with a status other than 0, or by a signal */
    DG_RESTORE_INTERRUPTED, /* dbgauge was asked to stop (SIGINT, SIGTERM) */
} dg_restore_outcome;

/* Runs argv (NULL-ended; argv[0] found on PATH) against cfg->db (cfg->db, settings,
 * no_table_stats, command_line, extra and ui are read; ui->info gets a line as the restore
 * starts, ui->load_done the finished "load" object of a restore that succeeded). On 0,
 * *doc is the result document and *outcome what became of the command. Fails (no document)
 * when the URL is bad or the command cannot be started (err says why). */
int dg_session_restore_doc(const dg_session_config *cfg, char *const *argv, json_t **doc,
                           dg_restore_outcome *outcome, dg_err *err);

/* The command as recorded: each argument redacted (the URL's password wherever it occurs,
 * a password option's value: gbak's -pas[sword] X, --password=X, the mariadb client's -pX,
 * URLs and NAME=VALUE secrets as dg_url_redact_text finds them). A new NULL-ended array;
 * free with dg_restore_argv_free. */
char **dg_restore_argv_redact(char *const *argv, const char *password);
void dg_restore_argv_free(char **argv);

#endif
