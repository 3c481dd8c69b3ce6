/*
 * postgres_int.h - private to the PostgreSQL backend (postgres.c, postgres_load.c,
 * postgres_stats.c): the connection type and the functions one of those files calls in
 * another, all named dg_postgres_*. postgres.c holds errors, connection, statements and
 * transactions and calls into the other two only through the descriptor
 * (dg_backend_postgres); they call into postgres.c, never into each other.
 *
 * Layout: constants; the connection; the functions of postgres.c, then the entry points of
 * postgres_load.c and postgres_stats.c that the descriptor names.
 */
#ifndef DG_BACKEND_POSTGRES_INT_H
#define DG_BACKEND_POSTGRES_INT_H

#include "backend/backend.h"

#include "core/strbuf.h"

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

/* Publishes this session's statistics counters now. A forced flush only happens when the
 * session has a pending statistics entry: a bare SELECT pg_stat_force_next_flush() after
 * the counters were flushed at idle (at most once a second) has none, so its own commit
 * would stay unpublished until the server process exits, some time after the client is
 * gone (and would land in somebody else's reading). Reading a row of pg_database makes
 * the statement itself leave an entry, so the flush always takes place, itself included. */
#define FLUSH_STATS_SQL                                                                      \
    "SELECT pg_stat_force_next_flush() FROM pg_catalog.pg_database "                        \
    "WHERE datname = current_database()"

typedef struct pg_conn {
    dg_conn base; /* must be first */
    PGconn *pg;
    /* What PQconnectdbParams got, kept to reconnect the monitor (see reopen). */
    char **keys, **vals; /* NULL-terminated, owned */
    char *password;      /* scrubbed from messages; NULL when none or public (= user name) */
    int server_version;  /* PQserverVersion, e.g. 150018 */
    unsigned next_name;  /* statement names dg1, dg2, ... */
    unsigned generation; /* bumped by a reconnect: statements re-prepare themselves */
    dg_strbuf dealloc;   /* DEALLOCATE commands of freed statements, sent in batches */
    int ndealloc;
    bool copy_text;      /* ?copy=text: bulk loads in COPY's text format, not binary */
    bool nonblock;       /* opened by a fiber (events engine): libpq's non-blocking mode,
                            every wait through dg_wait_fd (see send_wait) */
    bool pipeline;       /* dg_connopts.pipeline: transactions run in pipeline mode */
    bool in_pipe;        /* a transaction's commands are being pipelined */
    int pending;         /* commands sent in this pipeline, their results not yet read */
} pg_conn;

extern const dg_backend dg_backend_postgres;


/* ---- postgres.c ----------------------------------------------------------------------- */

/* Fills err from a failed result (res may be NULL: then the connection's message); see its
 * definition. Returns DG_E_DB. */
int dg_postgres_fill_error(pg_conn *c, const PGresult *res, const char *inflight, dg_err *err);
/* Runs one command; 0 when it succeeded. *out (NULL allowed) receives the result, which
 * the caller PQclear()s; see its definition for may_commit. */
int dg_postgres_exec_sql(pg_conn *c, const char *sql, bool may_commit, PGresult **out,
                         dg_err *err);
/* Opens a session with the saved keywords into *out (blocking or not, as c was opened). */
int dg_postgres_open_session(pg_conn *c, PGconn **out, dg_err *err);
/* Parses the decimal integer p; false when it is not one. */
bool dg_postgres_parse_int(const char *p, int64_t *out);
/* Decimal digits of v into buf (at least 21 bytes); returns buf. */
const char *dg_postgres_format_int(int64_t v, char *buf);

/* ---- postgres_load.c ------------------------------------------------------------------ */

int dg_postgres_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                           dg_bulk **out, dg_err *err);
int dg_postgres_bulk_begin_whole(dg_conn *conn, const char *table, const char *const *cols,
                                 int ncols, dg_bulk **out, dg_err *err);
int dg_postgres_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err);
int dg_postgres_bulk_end(dg_bulk *bulk, bool commit, dg_err *err);

/* ---- postgres_stats.c ----------------------------------------------------------------- */

int dg_postgres_stats(dg_conn *conn, dg_dbstats *out, dg_err *err);
int dg_postgres_server_info(dg_conn *conn, dg_server_info *out, dg_err *err);
int dg_postgres_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err);

#endif
