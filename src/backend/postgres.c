/*
 * postgres.c - the PostgreSQL backend (libpq).
 *
 * URL: postgres://user:pass@host:port/db?k=v&...  (also postgresql://, pg://). Parts left
 * out fall back to libpq's defaults and PG* environment variables (PGHOST, PGPORT, PGUSER,
 * PGPASSWORD, PGDATABASE, ...; ~/.pgpass too). A host starting with '/' is a unix socket
 * directory (percent-encode it in the host part, or pass ?host=/dir). ?k=v parameters that
 * are libpq connection keywords (sslmode, connect_timeout, options, target_session_attrs,
 * ...) go to libpq; any other k=v is a server setting, as are dg_connopts settings (--conn):
 * both travel in the startup packet as "-c k=v" (libpq's `options`), so they cost no round
 * trip and no server transaction, and a bad name fails the connection with the server's
 * message. Loader sessions (bulk_session) add synchronous_commit=off. The settings handled
 * here are declared in backend_options (checked first, printed by `dbgauge list`).
 *
 * Statements: named server-side prepared statements (PQprepare once per statement and
 * connection, '?' rewritten to $n outside quotes and comments), run with PQexecPrepared
 * and text-format parameters encoded into per-statement, grow-only buffers; the whole
 * result is kept until the next execute/reset and read through fetch/column. Transactions
 * are BEGIN [ISOLATION LEVEL ...] [READ ONLY] / COMMIT / ROLLBACK.
 *
 * Events engine: a connection opened on a fiber (a thread with a waiter, core/wait.h)
 * connects with PQconnectStartParams/PQconnectPoll, runs in libpq's non-blocking mode and
 * sends every command with PQsend*, waiting for its socket through dg_wait_fd, so that its
 * worker thread runs other terminals meanwhile (DG_CAP_NONBLOCKING). The same round trips
 * and results as the blocking calls.
 *
 * Server transactions dbgauge causes outside the workload's own (they show in
 * pg_stat_database.xact_commit; the integration tests count them exactly):
 *   - connecting: 1 (the server's session start-up transaction)
 *   - dg_prepare: 1 per statement when outside a transaction block (and 1 more for asking
 *     a statement's columns before it was ever executed: PQdescribePrepared)
 *   - dg_exec, table_exists, server_info: 1 each
 *   - stats: 2 (pg_stat_force_next_flush(), then the read; see read_stats)
 *   - closing: 1 (pg_stat_force_next_flush(), so the session's counts are in the shared
 *     statistics before close returns instead of some time after the session ends)
 *   - freeing statements: 1 per 32 freed statements (a batch of DEALLOCATEs)
 *
 * Errors: the SQLSTATE decides the class (40001/40P01/55P03 RETRY; 08*, 57P01-57P03 and a
 * dead connection CONN_LOST; 23* CONSTRAINT; 42*, 22* and a few more USER; the rest FATAL).
 * The primary message is copied with the SQLSTATE. A connection lost while a COMMIT (or an
 * autocommit statement) was in flight is reported with SQLSTATE 08007 (transaction
 * resolution unknown): the server may or may not have committed it. Messages never carry
 * the password (libpq does not put it in them; they are scrubbed anyway).
 *
 * Bulk load (COPY ... FROM STDIN: postgres_load.c) and statistics and server facts
 * (postgres_stats.c) live beside this file; the three share postgres_int.h (the connection
 * type and the dg_postgres_ functions that cross files). Neither calls into the other, and
 * this file calls into neither but through the descriptor.
 *
 * Layout (the order of every server backend's <db>.c): errors (classification,
 * dg_postgres_fill_error, non-blocking commands, pipelined transactions,
 * dg_postgres_exec_sql), connection (keywords, attach, close, connect, interrupt), SQL
 * rewriting, statements, transactions, the descriptor.
 */
#include "backend/dialect.h"
#include "backend/postgres_int.h"
#include "backend/pgcopy.h"

#include "core/clock.h"
#include "core/hot.h"
#include "core/stop.h"
#include "core/strbuf.h"
#include "core/wait.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#define DEALLOCATE_BATCH 32
#define DEFAULT_CONNECT_TIMEOUT "10"

/* Type OIDs (pg_type.dat; stable since forever) that column() converts. */
enum {
    OID_BOOL = 16,
    OID_INT8 = 20,
    OID_INT2 = 21,
    OID_INT4 = 23,
    OID_OID = 26,
    OID_FLOAT4 = 700,
    OID_FLOAT8 = 701,
    OID_NUMERIC = 1700,
};

typedef struct pg_stmt {
    dg_stmt base; /* must be first */
    char name[16];
    char *pgsql;         /* the text sent to the server ($n placeholders) */
    unsigned generation; /* of the connection when prepared */
    PGresult *res;       /* result of the last execute, until the next execute/reset */
    PGresult *desc;      /* PQdescribePrepared, only when asked for columns before a result */
    int row, nrows;
    int64_t affected;
    /* parameter encoding, allocated at prepare: values[i] points into scratch[i] (numbers),
     * at the caller's text, or into textbuf[i] (text that was not NUL-terminated) */
    const char **values;
    char (*scratch)[32];
    char **textbuf;
    size_t *textcap;
} pg_stmt;

/* ---- errors ----------------------------------------------------------------------------- */

static dg_errclass classify(const char *st)
{
    if (!st || strlen(st) != 5)
        return DG_EC_FATAL;
    if (!strcmp(st, "40001") || !strcmp(st, "40P01") || !strcmp(st, "55P03"))
        return DG_EC_RETRY;
    if (!strncmp(st, "08", 2) || !strcmp(st, "57P01") || !strcmp(st, "57P02") ||
        !strcmp(st, "57P03"))
        return DG_EC_CONN_LOST;
    if (!strncmp(st, "23", 2))
        return DG_EC_CONSTRAINT;
    /* syntax/access (42), data (22), unsupported feature (0A), statement in a failed
     * transaction (25P02), invalid names (3D000 database, 3F000 schema), 28* authorization */
    if (!strncmp(st, "42", 2) || !strncmp(st, "22", 2) || !strncmp(st, "0A", 2) ||
        !strcmp(st, "25P02") || !strncmp(st, "3D", 2) || !strncmp(st, "3F", 2) ||
        !strncmp(st, "28", 2))
        return DG_EC_USER;
    return DG_EC_FATAL;
}

/* Copies a libpq message into buf on one line: "\n\t" continuations and newlines become
 * spaces / "; ", the trailing newline goes. */
static void one_line(const char *msg, char *buf, size_t len)
{
    size_t j = 0;
    for (const char *p = msg; *p && j + 3 < len; p++) {
        if (*p == '\n') {
            while (p[1] == '\t' || p[1] == ' ')
                p++;
            if (p[1] == '\0')
                break;
            if (j > 0 && buf[j - 1] != ' ')
                buf[j++] = ' ';
        } else {
            buf[j++] = *p;
        }
    }
    buf[j] = '\0';
}

/* Fills err from a failed result (res may be NULL: then the connection's message).
 * `inflight`: non-NULL ("COMMIT", "statement") when the command could have committed on
 * its own (a COMMIT, or a statement outside a transaction block): a connection lost then
 * leaves the outcome unknown (SQLSTATE 08007). Returns DG_E_DB. */
int dg_postgres_fill_error(pg_conn *c, const PGresult *res, const char *inflight, dg_err *err)
{
    if (!err)
        return DG_E_DB;
    const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char msg[DG_ERR_MSG_MAX];
    if (primary)
        one_line(primary, msg, sizeof msg);
    else
        one_line(res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res)
                                                   : PQerrorMessage(c->pg),
                 msg, sizeof msg);
    if (!msg[0])
        snprintf(msg, sizeof msg, "unknown PostgreSQL error");
    dg_errclass cls = st ? classify(st) : DG_EC_FATAL;
    bool dead = PQstatus(c->pg) == CONNECTION_BAD;
    if (dead || cls == DG_EC_CONN_LOST) {
        if (inflight) {
            /* the server's own SQLSTATE (e.g. 57P01) stays in the message */
            dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08007",
                       "connection lost during %s, its outcome is unknown: %s%s%s%s", inflight,
                       msg, st ? " (" : "", st ? st : "", st ? ")" : "");
            err->outcome_unknown = true;
        } else {
            if (!st)
                st = "08006"; /* connection_failure: libpq's own errors carry no SQLSTATE */
            dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, st, "%s", msg);
        }
    } else {
        dg_err_set(err, DG_E_DB, cls, 0, st, "%s", msg);
    }
    dg_backend_scrub(err, c->password);
    return DG_E_DB;
}

/* ---- non-blocking commands (the events engine) ----------------------------------------------
 * A connection opened by a fiber sends with PQsend* and waits for the socket through
 * dg_wait_fd, which parks the fiber and lets its worker run other terminals. Every other
 * connection uses libpq's blocking calls, as before. */

/* After a PQsend*: flushes, then collects the results as PQexec does (the last one, or the
 * first error). NULL only when out of memory. */
static PGresult *await_result(pg_conn *c)
{
    PGconn *pg = c->pg;
    bool broken = false;
    int f;
    while ((f = PQflush(pg)) == 1) {
        /* the kernel's buffer is full: wait for room, reading what the server sends */
        if (dg_wait_fd(PQsocket(pg), DG_WAIT_READ | DG_WAIT_WRITE, INT64_MAX) < 0 ||
            !PQconsumeInput(pg)) {
            broken = true;
            break;
        }
    }
    broken |= f < 0;
    PGresult *keep = NULL;
    for (int guard = 0; guard < 1000; guard++) {
        while (!broken && PQisBusy(pg)) {
            if (dg_wait_fd(PQsocket(pg), DG_WAIT_READ, INT64_MAX) < 0 || !PQconsumeInput(pg))
                broken = true; /* PQgetResult now reports the failure */
        }
        PGresult *r = PQgetResult(pg);
        if (!r)
            break;
        ExecStatusType st = PQresultStatus(r);
        if (keep && PQresultStatus(keep) == PGRES_FATAL_ERROR) {
            PQclear(r);
        } else {
            PQclear(keep);
            keep = r;
        }
        if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH)
            break; /* as PQexec: the caller ends the COPY */
    }
    return keep;
}

static PGresult *run_sql(pg_conn *c, const char *sql)
{
    if (!c->nonblock)
        return PQexec(c->pg, sql);
    return PQsendQuery(c->pg, sql) ? await_result(c) : NULL;
}

static PGresult *run_prepared(pg_conn *c, const char *name, int n, const char *const *values)
{
    if (!c->nonblock)
        return PQexecPrepared(c->pg, name, n, values, NULL, NULL, 0);
    return PQsendQueryPrepared(c->pg, name, n, values, NULL, NULL, 0) ? await_result(c) : NULL;
}

/* ---- pipelined transactions (dg_connopts.pipeline) --------------------------------------------
 * dg_begin enters libpq's pipeline mode and queues BEGIN; every execute (and a re-prepare
 * after a reconnect) is queued too; dg_commit queues COMMIT, syncs, and reads the results
 * in order: the first error among them is the transaction's (the server skips what
 * follows an error until the sync, answering PGRES_PIPELINE_ABORTED). One round trip per
 * transaction instead of one per command. */

/* Waits until a result can be read without blocking the thread (events engine only). */
static bool result_ready(pg_conn *c)
{
    while (c->nonblock && PQisBusy(c->pg)) {
        if (dg_wait_fd(PQsocket(c->pg), DG_WAIT_READ, INT64_MAX) < 0 || !PQconsumeInput(c->pg))
            return false; /* PQgetResult now reports the failure */
    }
    return true;
}

/* Queues a command without parameters. */
static bool pipe_send(pg_conn *c, const char *sql)
{
    if (!PQsendQueryParams(c->pg, sql, 0, NULL, NULL, NULL, NULL, 0))
        return false;
    c->pending++;
    return true;
}

/* Syncs the pipeline, reads every queued command's results and leaves pipeline mode.
 * Returns the first error result (caller PQclear()s it) or NULL when all succeeded;
 * *broken when the connection failed (err then comes from the connection). */
static PGresult *pipe_finish(pg_conn *c, bool *broken)
{
    PGconn *pg = c->pg;
    PGresult *first = NULL;
    *broken = false;
    c->in_pipe = false;
    if (!PQpipelineSync(pg)) {
        *broken = true;
        c->pending = 0;
        return NULL;
    }
    int f;
    while ((f = PQflush(pg)) == 1) {
        if (dg_wait_fd(PQsocket(pg), DG_WAIT_READ | DG_WAIT_WRITE, INT64_MAX) < 0 ||
            !PQconsumeInput(pg)) {
            f = -1;
            break;
        }
    }
    /* the results in order: each command's, then a NULL; after them the sync's */
    for (int guard = 0; f >= 0 && guard < 4 * c->pending + 16; guard++) {
        if (!result_ready(c) && PQstatus(pg) == CONNECTION_BAD)
            break;
        PGresult *r = PQgetResult(pg);
        if (!r) {
            if (PQstatus(pg) == CONNECTION_BAD)
                break;
            continue;
        }
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            c->pending = 0;
            PQexitPipelineMode(pg);
            return first;
        }
        if (!first && (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR ||
                       st == PGRES_BAD_RESPONSE))
            first = r;
        else
            PQclear(r);
    }
    *broken = true;
    c->pending = 0;
    return first;
}

/* Runs one command with PQexec; 0 when it returned COMMAND_OK/TUPLES_OK/EMPTY_QUERY. *out
 * receives the result when not NULL (caller PQclear()s it), else it is cleared. `may_commit`:
 * the command could change data on its own (user SQL), so outside a transaction block a
 * lost connection leaves its outcome unknown. */
int dg_postgres_exec_sql(pg_conn *c, const char *sql, bool may_commit, PGresult **out,
                         dg_err *err)
{
    const char *inflight =
        may_commit && PQtransactionStatus(c->pg) == PQTRANS_IDLE ? "statement" : NULL;
    PGresult *res = run_sql(c, sql);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH) {
        /* COPY through exec(): end it, then report */
        if (st == PGRES_COPY_IN)
            PQputCopyEnd(c->pg, "COPY is not supported here");
        PGresult *r;
        while ((r = PQgetResult(c->pg)) != NULL)
            PQclear(r);
        PQclear(res);
        return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                          "COPY cannot run as a plain statement (the bulk loader uses it)");
    }
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
        int rc = dg_postgres_fill_error(c, res, inflight, err);
        PQclear(res);
        return rc;
    }
    if (out)
        *out = res;
    else
        PQclear(res);
    return 0;
}

/* ---- connection ------------------------------------------------------------------------- */

/* Is `name` a libpq connection keyword? */
static bool is_libpq_keyword(const PQconninfoOption *defs, const char *name)
{
    for (const PQconninfoOption *o = defs; o && o->keyword; o++)
        if (!strcmp(o->keyword, name))
            return true;
    return false;
}

/* Appends " -c name=value" to an `options` string, escaping spaces and backslashes as the
 * server's option splitter expects. */
static void add_option(dg_strbuf *opts, const char *name, const char *value)
{
    if (opts->len)
        dg_sb_addc(opts, ' ');
    dg_sb_add(opts, "-c ");
    for (const char *p = name; *p; p++) {
        if (*p == ' ' || *p == '\\')
            dg_sb_addc(opts, '\\');
        dg_sb_addc(opts, *p);
    }
    dg_sb_addc(opts, '=');
    for (const char *p = value; *p; p++) {
        if (*p == ' ' || *p == '\\')
            dg_sb_addc(opts, '\\');
        dg_sb_addc(opts, *p);
    }
}

typedef struct kv_list {
    char **keys, **vals;
    int n, cap;
} kv_list;

static void kv_add(kv_list *l, const char *k, const char *v)
{
    for (int i = 0; i < l->n; i++) {
        if (!strcmp(l->keys[i], k)) { /* later wins */
            free(l->vals[i]);
            l->vals[i] = xstrdup(v);
            return;
        }
    }
    if (l->n + 2 > l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->keys = xrealloc(l->keys, sizeof *l->keys * (size_t)l->cap);
        l->vals = xrealloc(l->vals, sizeof *l->vals * (size_t)l->cap);
    }
    l->keys[l->n] = xstrdup(k);
    l->vals[l->n] = xstrdup(v);
    l->n++;
    l->keys[l->n] = NULL;
    l->vals[l->n] = NULL;
}

static bool kv_has(const kv_list *l, const char *k)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->keys[i], k))
            return true;
    return false;
}

static void free_strv(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}

/* Classifies a failed connection attempt by libpq's message (libpq 15 exposes no SQLSTATE
 * for it): the server answering with FATAL is a configuration problem (USER: wrong
 * password, missing database or role, pg_hba) unless it is starting up, shutting down or
 * full (CONN_LOST: try again later); no answer at all (refused, timeout) is CONN_LOST. */
static dg_errclass classify_connect(const char *msg, const char **sqlstate)
{
    *sqlstate = "08001";
    if (!strstr(msg, "FATAL:"))
        return DG_EC_CONN_LOST;
    static const struct {
        const char *text, *state;
        dg_errclass cls;
    } known[] = {
        {"the database system is starting up", "57P03", DG_EC_CONN_LOST},
        {"the database system is shutting down", "57P03", DG_EC_CONN_LOST},
        {"the database system is in recovery mode", "57P03", DG_EC_CONN_LOST},
        {"the database system is not yet accepting connections", "57P03", DG_EC_CONN_LOST},
        {"the database system is not accepting connections", "57P03", DG_EC_CONN_LOST},
        {"too many clients", "53300", DG_EC_CONN_LOST},
        {"terminating connection", "57P01", DG_EC_CONN_LOST},
        {"password authentication failed", "28P01", DG_EC_USER},
        {"no pg_hba.conf entry", "28000", DG_EC_USER},
        {"database \"", "3D000", DG_EC_USER}, /* database "x" does not exist */
        {"role \"", "28000", DG_EC_USER},     /* role "x" does not exist */
        {"unrecognized configuration parameter", "42704", DG_EC_USER},
        {"invalid value for parameter", "22023", DG_EC_USER},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strstr(msg, known[i].text)) {
            *sqlstate = known[i].state;
            return known[i].cls;
        }
    }
    *sqlstate = "08004"; /* server rejected the connection */
    return DG_EC_USER;
}

/* Server notices and warnings (e.g. VACUUM skipping catalogs it may not touch) are not
 * errors; libpq would print them on stderr. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* PQconnectdbParams without blocking the thread: PQconnectStartParams, then PQconnectPoll
 * with the waits through dg_wait_fd, within connect_timeout as libpq would, and within the
 * shared shutdown deadline once a stop is requested (a server that accepts the socket and
 * never answers, one stopped with SIGSTOP, would otherwise hold the terminal, and with it
 * the whole process, past the signal): the waits are cut into slices of STOP_POLL_NS to
 * see the request. Used by both engines: a thread per terminal waits with poll(). */
#define STOP_POLL_NS (100 * DG_NS_PER_MS)
static PGconn *connect_nonblocking(pg_conn *c)
{
    PGconn *pg = PQconnectStartParams((const char *const *)c->keys, (const char *const *)c->vals, 0);
    if (!pg || PQstatus(pg) == CONNECTION_BAD)
        return pg;
    int64_t deadline = INT64_MAX;
    for (int i = 0; c->keys[i]; i++)
        if (!strcmp(c->keys[i], "connect_timeout") && atoi(c->vals[i]) > 0)
            deadline = dg_now_ns() + (int64_t)atoi(c->vals[i]) * DG_NS_PER_S;
    PostgresPollingStatusType ps = PGRES_POLLING_WRITING;
    while (ps != PGRES_POLLING_OK && ps != PGRES_POLLING_FAILED) {
        dg_wait_forget(PQsocket(pg)); /* a new socket (another address, a retry) */
        int64_t until = dg_stop_cap_ns(deadline), now = dg_now_ns();
        if (until > now + STOP_POLL_NS)
            until = now + STOP_POLL_NS;
        int w = dg_wait_fd(PQsocket(pg), ps == PGRES_POLLING_READING ? DG_WAIT_READ : DG_WAIT_WRITE,
                           until);
        if (w < 0 || (w == 0 && dg_now_ns() >= dg_stop_cap_ns(deadline)))
            break; /* PQstatus stays short of OK: reported below with libpq's message, if any */
        if (w > 0)
            ps = PQconnectPoll(pg);
    }
    if (ps == PGRES_POLLING_OK && c->nonblock)
        PQsetnonblocking(pg, 1);
    return pg;
}

int dg_postgres_open_session(pg_conn *c, PGconn **out, dg_err *err)
{
    PGconn *pg = connect_nonblocking(c);
    if (!pg)
        return dg_err_fail(err, DG_E_NOMEM, "out of memory connecting to PostgreSQL");
    if (PQstatus(pg) != CONNECTION_OK) {
        char msg[DG_ERR_MSG_MAX];
        one_line(PQerrorMessage(pg), msg, sizeof msg);
        if (dg_stop_requested()) /* cut short by a stop: not the server's doing */
            snprintf(msg, sizeof msg, "stopped before the server answered (dbgauge is stopping)");
        else if (!msg[0]) /* a connect that ran out of connect_timeout */
            snprintf(msg, sizeof msg, "timeout expired");
        const char *st;
        dg_errclass cls = classify_connect(msg, &st);
        dg_err_set(err, DG_E_DB, cls, 0, st, "%s", msg); /* callers name the URL */
        dg_backend_scrub(err, c->password);
        PQfinish(pg);
        return DG_E_DB;
    }
    c->server_version = PQserverVersion(pg);
    PQsetNoticeProcessor(pg, ignore_notice, NULL);
    *out = pg;
    return 0;
}

static void pg_close(dg_conn *conn)
{
    pg_conn *c = (pg_conn *)conn;
    if (c->pg && PQstatus(c->pg) == CONNECTION_OK &&
        PQtransactionStatus(c->pg) == PQTRANS_IDLE && c->server_version >= 150000) {
        /* make this session's counters visible to pg_stat_database now (they are also
         * flushed when the server process exits, but that happens after we are gone) */
        PGresult *r = run_sql(c, FLUSH_STATS_SQL);
        PQclear(r);
    }
    if (c->pg)
        PQfinish(c->pg);
    free_strv(c->keys);
    free_strv(c->vals);
    free(c->password);
    dg_sb_free(&c->dealloc);
    dg_conn_base_free(&c->base);
    free(c);
}

static int pg_connect(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    pg_conn *c = xcalloc(1, sizeof *c);
    kv_list kv = {0};
    dg_strbuf options = DG_STRBUF_INIT;
    /* libpq's keywords only, without their defaults: PQconndefaults would work out every
     * default (the user's name from the password database, the service file) for each
     * terminal's session: 50 password-database lookups for a 50-terminal run */
    PQconninfoOption *defs = PQconninfoParse("", NULL);
    int rc = dg_backend_check_settings(&dg_backend_postgres, url, opts, err);
    if (rc)
        goto fail;

    if (url->host)
        kv_add(&kv, "host", url->host);
    if (url->port) {
        char port[16];
        snprintf(port, sizeof port, "%d", url->port);
        kv_add(&kv, "port", port);
    }
    if (url->user)
        kv_add(&kv, "user", url->user);
    if (url->password)
        kv_add(&kv, "password", url->password);
    if (url->path && *url->path)
        kv_add(&kv, "dbname", url->path);
    const char *env_options = getenv("PGOPTIONS");
    bool url_options = false;
    /* The URL's parameters, then --conn's (later ones win): one meaning for a name in
     * either place (a --conn password or connect_timeout is libpq's, not a server
     * setting sent in the start-up packet) */
    for (int i = 0; i < url->nparams + opts->nsettings; i++) {
        const dg_setting *p = i < url->nparams ? &url->params[i] : &opts->settings[i - url->nparams];
        if (!strcmp(p->name, "copy")) {
            c->copy_text = !strcasecmp(p->value, "text");
        } else if (!strcmp(p->name, "options")) {
            url_options = true;
            if (*p->value) {
                if (options.len)
                    dg_sb_addc(&options, ' ');
                dg_sb_add(&options, p->value);
            }
        } else if (is_libpq_keyword(defs, p->name)) {
            kv_add(&kv, p->name, p->value);
        } else {
            add_option(&options, p->name, p->value);
        }
    }
    if (!url_options && env_options && *env_options) {
        /* an explicit `options` keyword would hide PGOPTIONS: start from it */
        dg_strbuf o2 = DG_STRBUF_INIT;
        dg_sb_add(&o2, env_options);
        if (options.len) {
            dg_sb_addc(&o2, ' ');
            dg_sb_add(&o2, dg_sb_str(&options));
        }
        dg_sb_free(&options);
        options = o2;
    }
    bool sync_given = false;
    for (int i = 0; i < opts->nsettings; i++)
        if (!strcmp(opts->settings[i].name, "synchronous_commit"))
            sync_given = true;
    for (int i = 0; i < url->nparams; i++)
        if (!strcmp(url->params[i].name, "synchronous_commit"))
            sync_given = true;
    if (opts->bulk_session && !sync_given)
        add_option(&options, "synchronous_commit", "off"); /* the loader commits rarely */
    if (options.len)
        kv_add(&kv, "options", dg_sb_str(&options));
    if (!kv_has(&kv, "application_name"))
        kv_add(&kv, "fallback_application_name",
               opts->application_name ? opts->application_name : "dbgauge");
    if (!kv_has(&kv, "connect_timeout") && !getenv("PGCONNECT_TIMEOUT"))
        kv_add(&kv, "connect_timeout", DEFAULT_CONNECT_TIMEOUT);
    /* A server host that vanishes (power, network) is noticed within about a minute
     * instead of never: TCP keepalives and a limit on unacknowledged data (TCP only;
     * libpq ignores them on unix sockets). A server that is up but silent is left to the
     * runner, which interrupts calls still waiting 2 s after the end. */
    static const char *const tcp_defaults[][2] = {
        {"keepalives_idle", "10"}, {"keepalives_interval", "5"}, {"keepalives_count", "6"},
        {"tcp_user_timeout", "60000"},
    };
    for (size_t i = 0; i < sizeof tcp_defaults / sizeof tcp_defaults[0]; i++)
        if (!kv_has(&kv, tcp_defaults[i][0]))
            kv_add(&kv, tcp_defaults[i][0], tcp_defaults[i][1]);
    if (!kv_has(&kv, "client_encoding") && !getenv("PGCLIENTENCODING"))
        kv_add(&kv, "client_encoding", "UTF8");
    if (!kv.keys) { /* nothing at all: libpq's defaults */
        kv.keys = xcalloc(1, sizeof *kv.keys);
        kv.vals = xcalloc(1, sizeof *kv.vals);
    }
    c->keys = kv.keys;
    c->vals = kv.vals;

    /* The password to keep out of messages: from the URL or the environment. */
    const char *pw = NULL;
    for (int i = 0; i < kv.n; i++)
        if (!strcmp(kv.keys[i], "password"))
            pw = kv.vals[i];
    if (!pw)
        pw = getenv("PGPASSWORD");
    c->password = dg_backend_secret(pw, url->user, url->path);

    /* a fiber of the events engine connects and runs without blocking its worker */
    c->nonblock = dg_waiter_get() != NULL;
    c->pipeline = opts->pipeline;
    /* expand_dbname = 0 (in open_pg): a database name is a name, never a conninfo string */
    rc = dg_postgres_open_session(c, &c->pg, err);
    if (rc)
        goto fail;
    c->base.session_id = PQbackendPID(c->pg); /* known from the start-up, no query */
    if (opts->local_facts) {
        /* the server's data directory, for its disk (superusers and pg_read_all_settings
         * may read it; others get NULL, and no disk), and the backend serving us: its
         * parent is the postmaster, whose children are the server's processes */
        PGresult *r = run_sql(c, "SELECT current_setting('data_directory', true), pg_backend_pid()");
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
            dg_conn_set_server_facts(&c->base, url->host,
                                     PQgetisnull(r, 0, 0) ? NULL : PQgetvalue(r, 0, 0),
                                     atoi(PQgetvalue(r, 0, 1)));
        PQclear(r);
    }
    PQconninfoFree(defs);
    dg_sb_free(&options);
    *out = &c->base;
    return 0;
fail:
    PQconninfoFree(defs);
    dg_sb_free(&options);
    pg_close(&c->base);
    return rc;
}


/* Shuts the socket down under a blocked libpq call: it returns as a lost connection at
 * once, whether or not the server answers (a cancel request would need the server). */
static void pg_interrupt(dg_conn *conn)
{
    int fd = PQsocket(((pg_conn *)conn)->pg);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
}

/* ---- SQL rewriting ---------------------------------------------------------------------- */

/* Copies sql with '?' placeholders replaced by $1, $2, ... outside string literals (also
 * E'..' with backslash escapes), quoted identifiers, dollar-quoted strings and comments.
 * Returns the number of placeholders. */
static int rewrite_placeholders(const char *sql, dg_strbuf *out)
{
    int n = 0;
    const char *p = sql;
    while (*p) {
        if (*p == '\'') {
            bool esc = p > sql && (p[-1] == 'E' || p[-1] == 'e') &&
                       (p - 1 == sql || !(p[-2] == '_' || (p[-2] >= 'a' && p[-2] <= 'z') ||
                                          (p[-2] >= 'A' && p[-2] <= 'Z') ||
                                          (p[-2] >= '0' && p[-2] <= '9')));
            const char *s = p++;
            while (*p) {
                if (esc && *p == '\\' && p[1]) {
                    p += 2;
                    continue;
                }
                if (*p == '\'') {
                    if (p[1] == '\'') {
                        p += 2;
                        continue;
                    }
                    break;
                }
                p++;
            }
            if (*p)
                p++;
            dg_sb_addn(out, s, (size_t)(p - s));
        } else if (*p == '"') {
            const char *s = p++;
            while (*p && *p != '"')
                p++;
            if (*p)
                p++;
            dg_sb_addn(out, s, (size_t)(p - s));
        } else if (p[0] == '-' && p[1] == '-') {
            const char *s = p;
            while (*p && *p != '\n')
                p++;
            dg_sb_addn(out, s, (size_t)(p - s));
        } else if (p[0] == '/' && p[1] == '*') {
            const char *s = p;
            int depth = 0;
            while (*p) {
                if (p[0] == '/' && p[1] == '*') {
                    depth++;
                    p += 2;
                } else if (p[0] == '*' && p[1] == '/') {
                    p += 2;
                    if (--depth == 0)
                        break;
                } else {
                    p++;
                }
            }
            dg_sb_addn(out, s, (size_t)(p - s));
        } else if (*p == '$' && (p == sql || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                                (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                                (p[-1] >= '0' && p[-1] <= '9')))) {
            /* $tag$ ... $tag$ (tag may be empty); $1 is a parameter, copied as is */
            const char *t = p + 1;
            while (*t == '_' || (*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') ||
                   (t > p + 1 && *t >= '0' && *t <= '9'))
                t++;
            if (*t == '$') {
                size_t taglen = (size_t)(t + 1 - p);
                const char *end = NULL;
                for (const char *q = t + 1; *q; q++)
                    if (*q == '$' && !strncmp(q, p, taglen)) {
                        end = q;
                        break;
                    }
                const char *stop = end ? end + taglen : p + strlen(p);
                dg_sb_addn(out, p, (size_t)(stop - p));
                p = stop;
            } else {
                dg_sb_addc(out, *p++);
            }
        } else if (*p == '?') {
            dg_sb_printf(out, "$%d", ++n);
            p++;
        } else {
            dg_sb_addc(out, *p++);
        }
    }
    if (!out->buf)
        dg_sb_add(out, "");
    return n;
}

/* ---- statements ------------------------------------------------------------------------- */

static int prepare_on_server(pg_conn *c, pg_stmt *s, dg_err *err)
{
    if (c->in_pipe) { /* a reconnect inside a pipelined transaction: queued like the rest */
        if (!PQsendPrepare(c->pg, s->name, s->pgsql, s->base.nparams, NULL))
            return dg_postgres_fill_error(c, NULL, NULL, err);
        c->pending++;
        s->generation = c->generation;
        return 0;
    }
    PGresult *res = !c->nonblock ? PQprepare(c->pg, s->name, s->pgsql, s->base.nparams, NULL)
                    : PQsendPrepare(c->pg, s->name, s->pgsql, s->base.nparams, NULL) ? await_result(c)
                                                                                   : NULL;
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        int rc = dg_postgres_fill_error(c, res, NULL, err);
        PQclear(res);
        return rc;
    }
    PQclear(res);
    s->generation = c->generation;
    return 0;
}

/* Sends the DEALLOCATEs of freed statements once a batch has gathered. */
static void flush_deallocations(pg_conn *c)
{
    if (c->ndealloc < DEALLOCATE_BATCH)
        return;
    if (c->pg && PQstatus(c->pg) == CONNECTION_OK &&
        PQtransactionStatus(c->pg) == PQTRANS_IDLE) {
        PGresult *r = run_sql(c, dg_sb_str(&c->dealloc));
        PQclear(r);
        dg_sb_reset(&c->dealloc);
        c->ndealloc = 0;
    }
}

static void pg_stmt_free(dg_stmt *stmt)
{
    pg_stmt *s = (pg_stmt *)stmt;
    pg_conn *c = (pg_conn *)stmt->conn;
    if (s->generation == c->generation && s->name[0]) {
        dg_sb_printf(&c->dealloc, "DEALLOCATE %s;", s->name);
        c->ndealloc++;
        flush_deallocations(c);
    }
    PQclear(s->res);
    PQclear(s->desc);
    for (int i = 0; i < s->base.nparams; i++)
        free(s->textbuf[i]);
    free(s->textbuf);
    free(s->textcap);
    free(s->values);
    free(s->scratch);
    free(s->pgsql);
    free(s->base.sql);
    free(s);
}

static int pg_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    dg_strbuf text = DG_STRBUF_INIT;
    int n = rewrite_placeholders(sql, &text);
    pg_stmt *s = xcalloc(1, sizeof *s);
    s->base.conn = conn;
    s->base.sql = xstrdup(sql);
    s->base.nparams = n;
    s->pgsql = dg_sb_take(&text);
    snprintf(s->name, sizeof s->name, "dg%u", ++c->next_name);
    size_t np = n > 0 ? (size_t)n : 1;
    s->values = xcalloc(np, sizeof *s->values);
    s->scratch = xcalloc(np, sizeof *s->scratch);
    s->textbuf = xcalloc(np, sizeof *s->textbuf);
    s->textcap = xcalloc(np, sizeof *s->textcap);
    s->affected = -1;
    int rc = prepare_on_server(c, s, err);
    if (rc) {
        s->name[0] = '\0'; /* nothing to deallocate */
        pg_stmt_free(&s->base);
        return rc;
    }
    *out = &s->base;
    return 0;
}

/* Decimal digits of an int64 into buf (at least 21 bytes), two digits per step; returns
 * buf. (The hot path formats every integer parameter: snprintf costs ~10x more.) */
const char *dg_postgres_format_int(int64_t v, char *buf)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        *--p = pairs[d + 1];
        *--p = pairs[d];
    }
    if (u >= 10) {
        *--p = pairs[u * 2 + 1];
        *--p = pairs[u * 2];
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0)
        *--p = '-';
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* Text form of parameter i, or NULL for SQL NULL. No allocation unless a text value is not
 * NUL-terminated and longer than any before it (grow-only copy buffer). */
static const char *encode_param(pg_stmt *s, int i, const dg_value *v)
{
    switch (v->type) {
    case DG_V_NULL:
        return NULL;
    case DG_V_INT:
        return dg_postgres_format_int(v->u.i, s->scratch[i]);
    case DG_V_DOUBLE:
        snprintf(s->scratch[i], sizeof s->scratch[i], "%.17g", v->u.d);
        return s->scratch[i];
    case DG_V_NUMERIC:
        dg_format_numeric(v->u.n.unscaled, v->u.n.scale, s->scratch[i]);
        return s->scratch[i];
    case DG_V_TEXT:
        if (v->u.s.ptr[v->u.s.len] == '\0')
            return v->u.s.ptr;
        if (s->textcap[i] < v->u.s.len + 1) {
            s->textcap[i] = v->u.s.len + 1;
            s->textbuf[i] = xrealloc(s->textbuf[i], s->textcap[i]);
        }
        memcpy(s->textbuf[i], v->u.s.ptr, v->u.s.len);
        s->textbuf[i][v->u.s.len] = '\0';
        return s->textbuf[i];
    }
    return NULL;
}

static void clear_result(pg_stmt *s)
{
    if (s->res) {
        PQclear(s->res);
        s->res = NULL;
    }
    s->row = -1;
    s->nrows = 0;
}

static DG_HOT int pg_execute(dg_stmt *stmt, const dg_value *params, int n, dg_err *err)
{
    pg_stmt *s = (pg_stmt *)stmt;
    pg_conn *c = (pg_conn *)stmt->conn;
    clear_result(s);
    s->affected = -1;
    if (n != s->base.nparams)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "statement takes %d parameters, %d given", s->base.nparams, n);
    if (s->generation != c->generation) {
        int rc = prepare_on_server(c, s, err);
        if (rc)
            return rc;
    }
    for (int i = 0; i < n; i++)
        s->values[i] = encode_param(s, i, &params[i]);
    if (c->in_pipe) { /* queued: its result is read by the commit */
        if (!PQsendQueryPrepared(c->pg, s->name, n, s->values, NULL, NULL, 0))
            return dg_postgres_fill_error(c, NULL, NULL, err);
        c->pending++;
        return 0;
    }
    const char *inflight = PQtransactionStatus(c->pg) == PQTRANS_IDLE ? "statement" : NULL;
    PGresult *res = run_prepared(c, s->name, n, s->values);
    switch (res ? PQresultStatus(res) : PGRES_FATAL_ERROR) {
    case PGRES_TUPLES_OK:
        s->res = res;
        s->nrows = PQntuples(res);
        s->affected = s->nrows;
        return 0;
    case PGRES_COMMAND_OK:
    case PGRES_EMPTY_QUERY: {
        const char *t = PQcmdTuples(res);
        s->affected = *t ? strtoll(t, NULL, 10) : -1;
        PQclear(res);
        return 0;
    }
    default: {
        int rc = dg_postgres_fill_error(c, res, inflight, err);
        PQclear(res);
        return rc;
    }
    }
}

static DG_HOT int pg_fetch(dg_stmt *stmt, dg_err *err)
{
    pg_stmt *s = (pg_stmt *)stmt;
    if (!s->res)
        return 0;
    if (++s->row < s->nrows)
        return 1;
    clear_result(s);
    return 0;
}

/* The result that describes the columns: the current one, or a description asked for. */
static const PGresult *shape(pg_stmt *s)
{
    if (s->res)
        return s->res;
    pg_conn *c = (pg_conn *)s->base.conn;
    if (!s->desc && s->generation == c->generation) {
        PGresult *d = !c->nonblock ? PQdescribePrepared(c->pg, s->name)
                      : PQsendDescribePrepared(c->pg, s->name) ? await_result(c)
                                                               : NULL;
        if (d && PQresultStatus(d) == PGRES_COMMAND_OK)
            s->desc = d;
        else
            PQclear(d);
    }
    return s->desc;
}

static int pg_ncols(dg_stmt *stmt)
{
    const PGresult *r = shape((pg_stmt *)stmt);
    return r ? PQnfields(r) : 0;
}

static const char *pg_colname(dg_stmt *stmt, int i)
{
    const PGresult *r = shape((pg_stmt *)stmt);
    return r ? PQfname(r, i) : NULL;
}

bool dg_postgres_parse_int(const char *p, int64_t *out)
{
    return dg_pgcopy_parse_int(p, strlen(p), out);
}

/* numeric text -> unscaled/scale when it fits 18 digits, else false */
static bool parse_numeric(const char *p, dg_value *out)
{
    bool neg = *p == '-';
    if (neg)
        p++;
    int64_t u = 0;
    int digits = 0, scale = 0;
    bool dot = false;
    for (; *p; p++) {
        if (*p == '.' && !dot) {
            dot = true;
            continue;
        }
        if (*p < '0' || *p > '9' || ++digits > 18)
            return false;
        u = u * 10 + (*p - '0');
        scale += dot;
    }
    if (digits == 0)
        return false;
    *out = dg_vnumeric(neg ? -u : u, scale);
    return true;
}

static DG_HOT void pg_column(dg_stmt *stmt, int i, dg_value *out)
{
    pg_stmt *s = (pg_stmt *)stmt;
    if (!s->res || s->row < 0 || s->row >= s->nrows || i < 0 || i >= PQnfields(s->res) ||
        PQgetisnull(s->res, s->row, i)) {
        *out = dg_vnull();
        return;
    }
    const char *v = PQgetvalue(s->res, s->row, i);
    switch (PQftype(s->res, i)) {
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
    case OID_OID: {
        int64_t x;
        if (dg_postgres_parse_int(v, &x)) {
            *out = dg_vint(x);
            return;
        }
        break;
    }
    case OID_FLOAT4:
    case OID_FLOAT8:
        *out = dg_vdouble(strtod(v, NULL));
        return;
    case OID_NUMERIC:
        if (parse_numeric(v, out))
            return;
        break;
    case OID_BOOL:
        *out = dg_vint(v[0] == 't');
        return;
    }
    *out = dg_vtext(v, (size_t)PQgetlength(s->res, s->row, i));
}

static int64_t pg_affected(dg_stmt *stmt)
{
    return ((pg_stmt *)stmt)->affected;
}

static DG_HOT void pg_reset(dg_stmt *stmt)
{
    clear_result((pg_stmt *)stmt);
}

/* The rest of a result that execute received whole: what the last fetch() does. */
static int pg_discard(dg_stmt *stmt, dg_err *err)
{
    (void)err;
    clear_result((pg_stmt *)stmt);
    return 0;
}

static int pg_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    if (c->in_pipe) /* queued like a statement (one command: pipeline mode takes no lists) */
        return pipe_send(c, sql) ? 0 : dg_postgres_fill_error(c, NULL, NULL, err);
    return dg_postgres_exec_sql(c, sql, true, NULL, err);
}

/* ---- transactions ---------------------------------------------------------------------- */

static int pg_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    int iso = tx && tx->isolation >= DG_ISO_DEFAULT && tx->isolation <= DG_ISO_SERIALIZABLE
                  ? (int)tx->isolation
                  : 0;
    const char *begin = dg_dialect_postgres.begin[iso][tx && tx->read_only][0];
    pg_conn *c = (pg_conn *)conn;
    if (c->pipeline && PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF &&
        PQtransactionStatus(c->pg) == PQTRANS_IDLE) {
        if (!PQenterPipelineMode(c->pg))
            return dg_postgres_fill_error(c, NULL, NULL, err);
        c->in_pipe = true;
        c->pending = 0;
        if (!pipe_send(c, begin)) {
            bool broken;
            PQclear(pipe_finish(c, &broken));
            return dg_postgres_fill_error(c, NULL, NULL, err);
        }
        return 0;
    }
    return dg_postgres_exec_sql(c, begin, false, NULL, err);
}

static int pg_commit(dg_conn *conn, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    if (c->in_pipe) {
        bool broken;
        bool sent = pipe_send(c, "COMMIT");
        PGresult *first = pipe_finish(c, &broken);
        if (first || broken || !sent) {
            /* the first error is the transaction's; a lost connection leaves it unknown */
            int rc = dg_postgres_fill_error(c, first, "COMMIT", err);
            PQclear(first);
            return rc;
        }
        return 0;
    }
    PGresult *res = run_sql(c, "COMMIT");
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        int rc = dg_postgres_fill_error(c, res, "COMMIT", err);
        PQclear(res);
        return rc;
    }
    /* COMMIT of a transaction that had failed answers ROLLBACK without an error */
    bool rolled_back = !strcmp(PQcmdStatus(res), "ROLLBACK");
    PQclear(res);
    if (rolled_back)
        return dg_err_set(err, DG_E_DB, DG_EC_USER, 0, "25P02",
                          "COMMIT rolled back: a statement of the transaction had failed");
    return 0;
}

static int pg_rollback(dg_conn *conn, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    if (c->in_pipe) { /* ended before its commit: read what was queued, then roll back */
        bool broken;
        PQclear(pipe_finish(c, &broken));
    }
    switch (PQtransactionStatus(c->pg)) {
    case PQTRANS_IDLE:
        return 0; /* nothing open (e.g. the server already ended it) */
    case PQTRANS_UNKNOWN:
        return dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08003",
                          "cannot roll back: the connection was lost");
    default:
        return dg_postgres_exec_sql(c, "ROLLBACK", false, NULL, err);
    }
}

/* ---- descriptor ------------------------------------------------------------------------- */


static const char *const postgres_schemes[] = {"postgres", NULL};

/* The settings pg_connect looks at itself; the rest pass through (other_options). */
static const dg_backend_option backend_options[] = {
    {"copy", "enum", 0, 0, "binary|text",
     "bulk load format (default binary: the server parses no text; text: COPY's text format)"},
    {"options", "text", 0, 0, NULL,
     "server options for the session (\"-c NAME=VALUE ...\"); replaces PGOPTIONS"},
    {"connect_timeout", "int", 0, 3600, NULL,
     "seconds to reach the server (default 10, or PGCONNECT_TIMEOUT; 0 waits forever)"},
    {"client_encoding", "text", 0, 0, NULL, "client character set (default UTF8, or PGCLIENTENCODING)"},
    {"application_name", "text", 0, 0, NULL, "shown in pg_stat_activity (default dbgauge)"},
    {"synchronous_commit", "text", 0, 0, NULL,
     "server setting; loader connections default to off"},
    {"password", "text", 0, 0, NULL, "the password (instead of the URL's; else PGPASSWORD); never shown"},
    {NULL, NULL, 0, 0, NULL, NULL},
};

/* The run's sessions and what they wait on: "idle" and "idle in transaction" wait for the
 * client (ClientRead), an active one without a wait event is running. Sessions of other
 * roles show no wait to a user without pg_read_all_stats, but the run's are the user's. */
#define PG_WAIT_COLS \
    "SELECT pid, CASE WHEN wait_event_type IS NULL THEN CASE WHEN state = 'active' THEN 'CPU' " \
    "ELSE 'Client' END ELSE wait_event_type END, COALESCE(wait_event, CASE WHEN state = " \
    "'active' THEN 'running' ELSE COALESCE(state, 'unknown') END) "
static const dg_wait_query pg_wait_queries[] = {
    /* the function under the view, without its joins (a third of the view's time with 64
     * sessions: the sampler's cost is the server's) */
    {PG_WAIT_COLS "FROM pg_stat_get_activity(NULL) WHERE datid = (SELECT oid FROM pg_database "
     "WHERE datname = current_database()) AND pid <> pg_backend_pid()",
     "pg_stat_activity", NULL, NULL, 0, NULL, false},
    {"SELECT pid, CASE WHEN wait_event_type IS NULL THEN CASE WHEN state = 'active' THEN 'CPU' "
     "ELSE 'Client' END ELSE wait_event_type END, COALESCE(wait_event, CASE WHEN state = "
     "'active' THEN 'running' ELSE COALESCE(state, 'unknown') END) FROM pg_stat_activity "
     "WHERE datname = current_database() AND pid <> pg_backend_pid()",
     "pg_stat_activity", NULL, NULL, 0, NULL, false},
    {NULL, NULL, NULL, NULL, 0, NULL, false},
};

const dg_backend dg_backend_postgres = {
    .name = "postgres",
    .schemes = postgres_schemes,
    .url_help = "postgres://user:pass@host:port/db?k=v | postgresql:// | pg://  (PG* variables "
                "fill absent parts)",
    .caps = DG_CAP_CONCURRENT_WRITERS | DG_CAP_BULK_ATOMIC | DG_CAP_NONBLOCKING | DG_CAP_PIPELINE,
    .dialect = &dg_dialect_postgres,
    .options = backend_options,
    .server_comms = "postgres postmaster",
    .tool_env = {"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGDATABASE"},
    .wait_queries = pg_wait_queries,
    .other_options = "other libpq keywords (sslmode, host, ...) go to libpq; any other name is "
                     "a server setting sent at start-up (-c NAME=VALUE), checked by the server",
    .connect = pg_connect,
    .close = pg_close,
    .prepare = pg_prepare,
    .stmt_free = pg_stmt_free,
    .execute = pg_execute,
    .fetch = pg_fetch,
    .discard = pg_discard,
    .ncols = pg_ncols,
    .colname = pg_colname,
    .column = pg_column,
    .affected = pg_affected,
    .reset = pg_reset,
    .exec = pg_exec,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .bulk_begin = dg_postgres_bulk_begin,
    .bulk_begin_whole = dg_postgres_bulk_begin_whole,
    .bulk_row = dg_postgres_bulk_row,
    .bulk_end = dg_postgres_bulk_end,
    .stats = dg_postgres_stats,
    .server_info = dg_postgres_server_info,
    .conn_cache_stats = NULL,
    .table_exists = dg_postgres_table_exists,
    .interrupt = pg_interrupt,
};
