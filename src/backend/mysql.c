/*
 * mysql.c - the MariaDB / MySQL backend (libmariadb, MariaDB Connector/C).
 *
 * URL: mysql://user:pass@host:port/db (also mariadb://); what it leaves out, ~/.my.cnf's
 * [client] group gives (mysql_cnf.h). ?socket=/path connects through a
 * unix socket (the host is then ignored); ?connect_timeout=s, ?charset=name,
 * ?local_infile=0 (never use LOAD DATA LOCAL), ?user= and ?password= are client options;
 * any other ?k=v, and every dg_connopts setting (--conn), becomes `SET SESSION k = v`, run
 * by the client library as an init command while connecting (a bad name fails the
 * connection with the server's message). Defaults: utf8mb4, connect
 * timeout 10 s, LOAD DATA LOCAL allowed on the client side (served only from our own
 * buffers: whatever file name a server asks for, it gets the rows being loaded), and
 * multi-statement text commands (dg_exec may run several statements; BEGIN with an
 * isolation level is one round trip). Loader sessions (bulk_session) add
 * unique_checks=0, foreign_key_checks=0. The settings handled here are declared in
 * backend_options (checked first, printed by `dbgauge list`).
 *
 * Statements: server-side prepared statements (mysql_stmt_prepare once per statement and
 * connection). Parameter values are written into per-statement buffers that stay bound;
 * the binds go to the library again only when a parameter's type changes or a text buffer
 * grows (so the types travel to the server once, not per execute). A result set is
 * stored client-side right after execute (mysql_stmt_store_result), so rows left unread
 * never block the connection and reset is cheap. fetch() only counts rows against the
 * stored row count (no library call): the library's cursor is moved to the current row
 * when a column of it is first asked for (a seek when rows were skipped), and
 * column() converts the column asked for (mysql_stmt_fetch_column) into its buffer:
 * integers as LONGLONG, floating point as DOUBLE, everything else as text in a buffer
 * that grows (grow-only) when a value does not fit. DECIMAL comes back as an exact
 * DG_V_NUMERIC when it fits. Rows that are read and discarded cost no conversion. A
 * small result (KEEP_STORED_ROWS) read to its end or reset stays stored until the
 * statement's next execute, which frees stored rows itself; a larger one is freed then
 * and there.
 *
 * Events engine: a connection opened on a fiber (a thread with a waiter, core/wait.h) sets
 * MYSQL_OPT_NONBLOCK and makes every network call as the library's X_start / X_cont pair,
 * waiting for the socket through dg_wait_fd between them (within the library's own
 * timeout when it asks for one), so its worker runs other terminals meanwhile
 * (DG_CAP_NONBLOCKING). The calls and round trips are the blocking ones'.
 *
 * Transactions: START TRANSACTION [READ ONLY], preceded by SET TRANSACTION ISOLATION LEVEL
 * in the same round trip when an isolation level is asked for; COMMIT; ROLLBACK.
 *
 * Bulk load: LOAD DATA LOCAL INFILE or multi-row INSERTs (mysql_load.c). The local-infile
 * handler that streams a load's rows is installed on every session here: whatever file the
 * server asks for, it reads the pending rows of the connection's current bulk load.
 *
 * Errors: the vendor error number decides the class (1213 deadlock, 1205 lock wait
 * timeout, 1020 record changed (snapshot isolation), 3572 NOWAIT: RETRY; client errors
 * 2002/2003/2006/2013/2055 and server 1053/1927: CONN_LOST; duplicate key, foreign key,
 * NOT NULL, CHECK: CONSTRAINT; syntax, unknown table/column/database, access denied,
 * bad values: USER; otherwise by SQLSTATE class; the rest FATAL). After 1205 only the
 * statement was rolled back: the runner's dg_rollback ends the transaction. A connection
 * lost while a COMMIT (or an autocommit statement) was in flight is reported with
 * SQLSTATE 08007 (transaction resolution unknown).
 *
 * Bulk load (mysql_load.c) and statistics and server facts (mysql_stats.c) live beside this
 * file; the three share mysql_int.h (the connection and bulk load types and the dg_mysql_
 * functions that cross files). Neither calls into the other, and this file calls into
 * neither but through the descriptor.
 *
 * Layout (the order of every server backend's <db>.c): errors (classification,
 * fill_error, non-blocking calls, dg_mysql_exec_sql, dg_mysql_query_result), connection
 * (attach, close, connect, the local-infile handler, interrupt), statements (parameters,
 * results), transactions, the descriptor.
 */
#include "backend/dialect.h"
#include "backend/mysql_cnf.h"
#include "backend/mysql_int.h"

#include "core/clock.h"
#include "core/hot.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/strbuf.h"
#include "core/wait.h"
#include "core/xalloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define DEFAULT_CONNECT_TIMEOUT 10
#define RESULT_TEXT_INITIAL 64
/* Stored rows that a finished result (read to its end, or reset) may leave in place for
 * the statement's next mysql_stmt_execute, which frees a stored result before it sends
 * (Connector/C 3.1 and later): mysql_stmt_free_result would do the same work again, and
 * walks the connection's statements besides. More rows are freed at once, so that no
 * statement holds a large result it is done with. */
#define KEEP_STORED_ROWS 64

typedef struct my_stmt {
    dg_stmt base; /* must be first */
    MYSQL_STMT *st;
    unsigned generation;
    /* parameters: values are written into these buffers, which stay bound; the binds are
     * given to the library again only when a parameter's type changes or a text buffer
     * grows (rebinding also makes the client resend the types) */
    MYSQL_BIND *pbind;
    long long *pint;
    double *pdbl;
    char (*pnum)[32];
    char **ptext;
    size_t *ptextcap;
    unsigned long *plen;
    my_bool *pnull;
    bool pbound;
    /* results: one bind per column, bound once (again after a buffer grew) */
    int ncols;
    MYSQL_RES *meta;
    MYSQL_BIND *rbind;
    long long *rint;
    double *rdbl;
    char **rtext;
    unsigned long *rcap, *rlen;
    my_bool *rnull, *rerr;
    unsigned char *rkind; /* K_INT, K_DBL, K_TEXT, K_DECIMAL */
    unsigned rowseq;      /* bumped by each fetched row */
    unsigned *colseq;     /* rowseq when column i was last converted */
    bool has_rows;        /* a stored result is being read */
    bool more_results;    /* a CALL: the server has results after the one read (at least
                             the CALL's own status), read and dropped before the next
                             command (drain_results) */
    uint64_t nrows;       /* rows in the stored result */
    uint64_t row;         /* the current row, 1-based: rows fetch() went through */
    uint64_t libpos;      /* the row the library's cursor is on (0: none read yet);
                             invariant: libpos <= row <= nrows while has_rows */
    int64_t affected;
} my_stmt;

enum { K_INT, K_DBL, K_TEXT, K_DECIMAL };

/* ---- errors ----------------------------------------------------------------------------- */

static dg_errclass classify(unsigned no, const char *st)
{
    switch (no) {
    case 1213: /* ER_LOCK_DEADLOCK */
    case 1205: /* ER_LOCK_WAIT_TIMEOUT: only the statement was rolled back */
    case 1020: /* ER_CHECKREAD: record changed since last read (snapshot isolation) */
    case 3572: /* ER_LOCK_NOWAIT (MySQL 8) */
        return DG_EC_RETRY;
    case 2002: /* CR_CONNECTION_ERROR (socket) */
    case 2003: /* CR_CONN_HOST_ERROR */
    case 2006: /* CR_SERVER_GONE_ERROR */
    case 2013: /* CR_SERVER_LOST */
    case 2055: /* CR_SERVER_LOST_EXTENDED */
    case 1040: /* ER_CON_COUNT_ERROR: too many connections */
    case 1053: /* ER_SERVER_SHUTDOWN */
    case 1927: /* ER_CONNECTION_KILLED */
    case 4031: /* ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8) */
        return DG_EC_CONN_LOST;
    case 1062: /* ER_DUP_ENTRY */
    case 1586: /* ER_DUP_ENTRY_WITH_KEY_NAME */
    case 1169: /* ER_DUP_UNIQUE */
    case 1451: /* ER_ROW_IS_REFERENCED_2 */
    case 1452: /* ER_NO_REFERENCED_ROW_2 */
    case 1216: /* ER_NO_REFERENCED_ROW */
    case 1217: /* ER_ROW_IS_REFERENCED */
    case 1048: /* ER_BAD_NULL_ERROR */
    case 4025: /* ER_CONSTRAINT_FAILED (MariaDB CHECK) */
    case 3819: /* ER_CHECK_CONSTRAINT_VIOLATED (MySQL) */
        return DG_EC_CONSTRAINT;
    case 1044: case 1045: case 1049: case 1050: case 1051: case 1052: case 1054:
    case 1060: case 1061: case 1064: case 1091: case 1136: case 1142: case 1143:
    case 1146: case 1148: case 1149: case 1193: case 1210: case 1227: case 1231:
    case 1232: case 1235: case 1247: case 1264: case 1265: case 1292: case 1295:
    case 1305: case 1366: case 1406: case 1364: case 3948:
        return DG_EC_USER;
    }
    if (st && strlen(st) == 5) {
        if (!strcmp(st, "40001"))
            return DG_EC_RETRY;
        if (!strncmp(st, "08", 2))
            return DG_EC_CONN_LOST;
        if (!strncmp(st, "23", 2))
            return DG_EC_CONSTRAINT;
        if (!strncmp(st, "42", 2) || !strncmp(st, "22", 2))
            return DG_EC_USER;
    }
    return DG_EC_FATAL;
}

/* Fills err from a vendor error. `inflight`: non-NULL ("COMMIT", "statement") when the
 * command could have committed on its own (a COMMIT, or user SQL in autocommit mode): a
 * connection lost then leaves the outcome unknown (SQLSTATE 08007). Returns DG_E_DB. */
static int fill_error(my_conn *c, unsigned no, const char *st, const char *msg,
                     const char *inflight, dg_err *err)
{
    if (!err)
        return DG_E_DB;
    if (!st || !*st || !strcmp(st, "00000"))
        st = NULL;
    dg_errclass cls = classify(no, st);
    if (cls == DG_EC_CONN_LOST && inflight) {
        dg_err_set(err, DG_E_DB, cls, (int)no, "08007",
                   "connection lost during %s, its outcome is unknown: %s (%u)", inflight, msg,
                   no);
        err->outcome_unknown = true;
    } else
        dg_err_set(err, DG_E_DB, cls, (int)no, st ? st : (cls == DG_EC_CONN_LOST ? "08S01" : NULL),
                   "%s", msg && *msg ? msg : "unknown MySQL error");
    dg_backend_scrub(err, c->password);
    return DG_E_DB;
}

static int conn_error(my_conn *c, const char *inflight, dg_err *err)
{
    return fill_error(c, dg_my.mysql_errno(c->my), dg_my.mysql_sqlstate(c->my),
                      dg_my.mysql_error(c->my), inflight, err);
}

static int stmt_error(my_conn *c, MYSQL_STMT *st, const char *inflight, dg_err *err)
{
    return fill_error(c, dg_my.mysql_stmt_errno(st), dg_my.mysql_stmt_sqlstate(st),
                      dg_my.mysql_stmt_error(st), inflight, err);
}

static bool in_transaction(my_conn *c)
{
    return (c->my->server_status & SERVER_STATUS_IN_TRANS) != 0 || c->base.in_tx;
}

/* ---- non-blocking calls (the events engine) -------------------------------------------------
 * Each helper is the blocking call on an ordinary connection, and its _start/_cont pair on
 * one opened by a fiber; between them the fiber waits for what the library asks. */

/* One wait of a _start/_cont loop; returns the status to continue with. */
static int async_wait(MYSQL *my, int status)
{
    int ev = (status & (MYSQL_WAIT_READ | MYSQL_WAIT_EXCEPT) ? DG_WAIT_READ : 0) |
             (status & MYSQL_WAIT_WRITE ? DG_WAIT_WRITE : 0);
    int64_t deadline =
        status & MYSQL_WAIT_TIMEOUT
            ? dg_now_ns() + (int64_t)dg_my.mysql_get_timeout_value_ms(my) * DG_NS_PER_MS
            : INT64_MAX;
    if (!ev) {
        dg_sleep_until_ns(deadline);
        return MYSQL_WAIT_TIMEOUT;
    }
    int r = dg_wait_fd((int)dg_my.mysql_get_socket(my), ev, deadline);
    if (r == 0)
        return MYSQL_WAIT_TIMEOUT;
    /* ready (or a failed wait: the library's next read or write then fails and says so) */
    return status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT);
}

#define ASYNC_LOOP(start, cont) \
    do {                                   \
        int st_ = (start);                 \
        while (st_)                        \
            st_ = (cont);                  \
    } while (0)

static int nb_real_query(my_conn *c, const char *sql, unsigned long len)
{
    if (!c->nonblock)
        return dg_my.mysql_real_query(c->my, sql, len);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_real_query_start(&ret, c->my, sql, len),
               dg_my.mysql_real_query_cont(&ret, c->my, async_wait(c->my, st_)));
    return ret;
}

static MYSQL_RES *nb_store_result(my_conn *c)
{
    if (!c->nonblock)
        return dg_my.mysql_store_result(c->my);
    MYSQL_RES *ret = NULL;
    ASYNC_LOOP(dg_my.mysql_store_result_start(&ret, c->my),
               dg_my.mysql_store_result_cont(&ret, c->my, async_wait(c->my, st_)));
    return ret;
}

static int nb_next_result(my_conn *c)
{
    if (!c->nonblock)
        return dg_my.mysql_next_result(c->my);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_next_result_start(&ret, c->my),
               dg_my.mysql_next_result_cont(&ret, c->my, async_wait(c->my, st_)));
    return ret;
}

static int nb_stmt_prepare(my_conn *c, MYSQL_STMT *st, const char *sql, unsigned long len)
{
    if (!c->nonblock)
        return dg_my.mysql_stmt_prepare(st, sql, len);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_stmt_prepare_start(&ret, st, sql, len),
               dg_my.mysql_stmt_prepare_cont(&ret, st, async_wait(c->my, st_)));
    return ret;
}

static int nb_stmt_execute(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock)
        return dg_my.mysql_stmt_execute(st);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_stmt_execute_start(&ret, st),
               dg_my.mysql_stmt_execute_cont(&ret, st, async_wait(c->my, st_)));
    return ret;
}

static int nb_stmt_store_result(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock)
        return dg_my.mysql_stmt_store_result(st);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_stmt_store_result_start(&ret, st),
               dg_my.mysql_stmt_store_result_cont(&ret, st, async_wait(c->my, st_)));
    return ret;
}

static int nb_stmt_fetch(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock)
        return dg_my.mysql_stmt_fetch(st);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_stmt_fetch_start(&ret, st),
               dg_my.mysql_stmt_fetch_cont(&ret, st, async_wait(c->my, st_)));
    return ret;
}

static void nb_stmt_free_result(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock) {
        dg_my.mysql_stmt_free_result(st);
        return;
    }
    my_bool ret = 0;
    ASYNC_LOOP(dg_my.mysql_stmt_free_result_start(&ret, st),
               dg_my.mysql_stmt_free_result_cont(&ret, st, async_wait(c->my, st_)));
}

static int nb_stmt_next_result(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock)
        return dg_my.mysql_stmt_next_result(st);
    int ret = 1;
    ASYNC_LOOP(dg_my.mysql_stmt_next_result_start(&ret, st),
               dg_my.mysql_stmt_next_result_cont(&ret, st, async_wait(c->my, st_)));
    return ret;
}

static void nb_stmt_close(my_conn *c, MYSQL_STMT *st)
{
    if (!c->nonblock) {
        dg_my.mysql_stmt_close(st);
        return;
    }
    my_bool ret = 0;
    ASYNC_LOOP(dg_my.mysql_stmt_close_start(&ret, st),
               dg_my.mysql_stmt_close_cont(&ret, st, async_wait(c->my, st_)));
}

void dg_mysql_nb_close(bool nonblock, MYSQL *my)
{
    if (!nonblock) {
        dg_my.mysql_close(my);
        return;
    }
    int ret = 0;
    (void)ret;
    ASYNC_LOOP(dg_my.mysql_close_start(my), dg_my.mysql_close_cont(my, async_wait(my, st_)));
}

/* Runs text SQL (possibly several statements), discarding result sets. `may_commit`: the
 * SQL could change data on its own (user SQL, a COMMIT). */
int dg_mysql_exec_sql(my_conn *c, const char *sql, bool may_commit, dg_err *err)
{
    const char *inflight = may_commit && !in_transaction(c) ? "statement" : NULL;
    if (nb_real_query(c, sql, (unsigned long)strlen(sql)))
        return conn_error(c, inflight, err);
    for (;;) {
        MYSQL_RES *res = nb_store_result(c);
        if (res)
            dg_my.mysql_free_result(res);
        else if (dg_my.mysql_field_count(c->my) != 0)
            return conn_error(c, inflight, err);
        int next = nb_next_result(c);
        if (next > 0)
            return conn_error(c, inflight, err);
        if (next < 0)
            return 0;
    }
}

/* Runs a query whose result is read by the caller (mysql_free_result). */
int dg_mysql_query_result(my_conn *c, const char *sql, MYSQL_RES **out, dg_err *err)
{
    if (nb_real_query(c, sql, (unsigned long)strlen(sql)))
        return conn_error(c, NULL, err);
    MYSQL_RES *res = nb_store_result(c);
    if (!res)
        return dg_my.mysql_errno(c->my)
                   ? conn_error(c, NULL, err)
                   : dg_err_fail(err, DG_E_DB, "query returned no result: %s", sql);
    *out = res;
    return 0;
}

/* ---- connection ------------------------------------------------------------------------- */

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
    dg_my.mysql_server_init(0, NULL, NULL);
}

static int infile_init(void **ptr, const char *filename, void *userdata);
static int infile_read(void *ptr, char *buf, unsigned int len);
static void infile_end(void *ptr);
static int infile_error(void *ptr, char *msg, unsigned int len);

/* Is v a plain number (SET without quotes)? */
static bool numeric_text(const char *v)
{
    const char *p = v;
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return false;
    bool dot = false;
    for (; *p; p++) {
        if (*p == '.' && !dot)
            dot = true;
        else if (*p < '0' || *p > '9')
            return false;
    }
    return true;
}

/* "SET SESSION name = value": value unquoted when a number or DEFAULT, else a quoted and
 * escaped string (what MySQL takes for strings, enums and ON/OFF alike). */
static int set_command(const char *name, const char *value, char **out, dg_err *err)
{
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || *p == '.' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                              "invalid MySQL setting name '%s'", name);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_printf(&sb, "SET SESSION %s = ", name);
    if (numeric_text(value) || !strcasecmp(value, "DEFAULT")) {
        dg_sb_add(&sb, value);
    } else {
        dg_sb_addc(&sb, '\'');
        for (const char *p = value; *p; p++) {
            if (*p == '\'' || *p == '\\')
                dg_sb_addc(&sb, '\\');
            dg_sb_addc(&sb, *p);
        }
        dg_sb_addc(&sb, '\'');
    }
    *out = dg_sb_take(&sb);
    return 0;
}

static void add_init(char ***v, int *n, char *cmd)
{
    *v = xrealloc(*v, sizeof **v * (size_t)(*n + 2));
    (*v)[(*n)++] = cmd;
    (*v)[*n] = NULL;
}

static dg_errclass classify_connect(unsigned no)
{
    switch (no) {
    case 1045: /* access denied (password) */
    case 1044: /* access denied to database */
    case 1049: /* unknown database */
    case 1193: /* unknown variable in an init command */
    case 1231: case 1232: case 1064:
    case 1698: /* access denied (plugin) */
        return DG_EC_USER;
    }
    return classify(no, NULL) == DG_EC_CONN_LOST ? DG_EC_CONN_LOST : DG_EC_FATAL;
}

/* One wait of a connect's _start/_cont loop. Every connect goes through the non-blocking
 * API, on a thread per terminal too: the wait is cut into slices of STOP_POLL_NS to see a
 * stop request, and gives up (*stopped) at the shared shutdown deadline. A server that
 * accepts the socket and never answers (stopped with SIGSTOP, hung) would otherwise hold
 * the terminal, and with it the whole process, for connect_timeout past the signal.
 * Giving up hands the library MYSQL_WAIT_TIMEOUT: it fails the connect as its own timeout
 * would, and frees what it holds. The connection's other calls stay blocking ones unless it
 * was opened by a fiber (the library allows both on one connection). */
#define STOP_POLL_NS (100 * DG_NS_PER_MS)
static int connect_wait(MYSQL *my, int status, bool *stopped)
{
    int ev = (status & (MYSQL_WAIT_READ | MYSQL_WAIT_EXCEPT) ? DG_WAIT_READ : 0) |
             (status & MYSQL_WAIT_WRITE ? DG_WAIT_WRITE : 0);
    int64_t deadline =
        status & MYSQL_WAIT_TIMEOUT
            ? dg_now_ns() + (int64_t)dg_my.mysql_get_timeout_value_ms(my) * DG_NS_PER_MS
            : INT64_MAX;
    for (;;) {
        int64_t now = dg_now_ns(), stop_at = dg_stop_cap_ns(INT64_MAX);
        if (*stopped || now >= stop_at) {
            *stopped = true;
            return MYSQL_WAIT_TIMEOUT;
        }
        if (now >= deadline)
            return MYSQL_WAIT_TIMEOUT; /* the library's own connect_timeout */
        int64_t until = deadline < stop_at ? deadline : stop_at;
        if (until > now + STOP_POLL_NS)
            until = now + STOP_POLL_NS;
        int r = ev ? dg_wait_fd((int)dg_my.mysql_get_socket(my), ev, until)
                   : (dg_sleep_until_ns(until), 0);
        if (r != 0) /* ready (or a failed wait: the library's next read or write says why) */
            return status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT);
    }
}

/* Opens a new client connection from the saved parameters into *out. */
int dg_mysql_open_session(my_conn *c, MYSQL **out, dg_err *err)
{
    pthread_once(&lib_once, lib_init);
    MYSQL *my = dg_my.mysql_init(NULL);
    if (!my)
        return dg_err_fail(err, DG_E_NOMEM, "out of memory connecting to MySQL");
    unsigned timeout = c->connect_timeout;
    my_bool on = 1;
    dg_my.mysql_optionsv(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    if (c->read_timeout)
        dg_my.mysql_optionsv(my, MYSQL_OPT_READ_TIMEOUT, &c->read_timeout);
    if (c->write_timeout)
        dg_my.mysql_optionsv(my, MYSQL_OPT_WRITE_TIMEOUT, &c->write_timeout);
    dg_my.mysql_optionsv(my, MYSQL_SET_CHARSET_NAME, c->charset ? c->charset : "utf8mb4");
    if (c->client_infile)
        dg_my.mysql_optionsv(my, MYSQL_OPT_LOCAL_INFILE, &on);
    for (char **p = c->init_cmds; p && *p; p++)
        dg_my.mysql_optionsv(my, MYSQL_INIT_COMMAND, *p);
    unsigned long flags = CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS |
                          (c->client_infile ? CLIENT_LOCAL_FILES : 0);
    MYSQL *ok = NULL;
    bool stopped = false;
    if (dg_my.mysql_optionsv(my, MYSQL_OPT_NONBLOCK, 0) == 0) {
        int st = dg_my.mysql_real_connect_start(&ok, my, c->socket ? NULL : c->host, c->user,
                                                c->pass, c->db, c->socket ? 0 : c->port, c->socket,
                                                flags);
        while (st) {
            dg_wait_forget((int)dg_my.mysql_get_socket(my)); /* a socket new to the waiter */
            st = dg_my.mysql_real_connect_cont(&ok, my, connect_wait(my, st, &stopped));
        }
    } else { /* a library without the non-blocking API: a stop waits for connect_timeout */
        ok = dg_my.mysql_real_connect(my, c->socket ? NULL : c->host, c->user, c->pass, c->db,
                                      c->socket ? 0 : c->port, c->socket, flags);
    }
    if (!ok) {
        unsigned no = dg_my.mysql_errno(my);
        const char *st = dg_my.mysql_sqlstate(my);
        if (stopped) /* cut short by a stop: not the server's doing */
            dg_err_set(err, DG_E_DB, DG_EC_FATAL, (int)no, "08001",
                       "stopped before the server answered (dbgauge is stopping)");
        else
            dg_err_set(err, DG_E_DB, classify_connect(no), (int)no,
                       st && strcmp(st, "00000") ? st : "08001", "%s%s", dg_my.mysql_error(my),
                       c->from_cnf ? " (with settings from ~/.my.cnf where the URL gave none)" : "");
        dg_backend_scrub(err, c->password);
        dg_mysql_nb_close(c->nonblock, my);
        return DG_E_DB;
    }
    /* rows for LOAD DATA LOCAL come only from our buffers, never from files */
    dg_my.mysql_set_local_infile_handler(my, infile_init, infile_read, infile_end, infile_error, c);
    c->local_infile = -1;
    *out = my;
    return 0;
}

static void my_close(dg_conn *conn)
{
    my_conn *c = (my_conn *)conn;
    if (c->my)
        dg_mysql_nb_close(c->nonblock, c->my);
    free(c->host);
    free(c->user);
    free(c->pass);
    free(c->db);
    free(c->socket);
    free(c->charset);
    for (char **p = c->init_cmds; p && *p; p++)
        free(*p);
    free(c->init_cmds);
    free(c->password);
    dg_conn_base_free(&c->base);
    free(c);
}

/* The user's ~/.my.cnf ([client], [client-mariadb]), as the mysql client reads it, for
 * what the URL and --conn left unsaid: a URL without a password connects as `mysql` does. */
static void from_cnf(my_conn *c, const dg_url *url)
{
    char buf[4096];
    const char *path = dg_mycnf_path(buf, sizeof buf), *why = NULL;
    dg_mycnf cnf;
    if (!path || dg_mycnf_load(path, &cnf, &why)) {
        static atomic_bool warned; /* once, not once per terminal */
        if (why && !atomic_exchange(&warned, true))
            dg_log_warn("%s is not read: %s", path, why);
        return;
    }
    char **have[] = {&c->user, &c->pass, &c->db};
    char **take[] = {&cnf.user, &cnf.password, &cnf.database};
    for (size_t i = 0; i < sizeof have / sizeof have[0]; i++)
        if (!*have[i] && *take[i]) {
            *have[i] = *take[i];
            *take[i] = NULL;
            c->from_cnf = true;
        }
    /* where to connect: the file's only when the URL names no host (its port and socket
     * belong to its host) */
    if (!url->host && !c->socket) {
        if (cnf.host) {
            free(c->host);
            c->host = cnf.host;
            cnf.host = NULL;
            c->from_cnf = true;
        } else if (cnf.socket) {
            c->socket = cnf.socket;
            cnf.socket = NULL;
            c->from_cnf = true;
        }
        if (!c->port && !c->socket && cnf.port) {
            c->port = (unsigned)cnf.port;
            c->from_cnf = true;
        }
    }
    dg_mycnf_free(&cnf);
}

/* The server's pid from its pid file, when it is on this machine and readable (MariaDB is
 * one process: the sampler then counts it, not every mariadbd on the host); 0 otherwise. */
static int pid_from_file(const char *path)
{
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long pid = 0;
    if (fscanf(f, "%ld", &pid) != 1 || pid <= 0 || pid > INT32_MAX)
        pid = 0;
    fclose(f);
    return (int)pid;
}

static int my_connect(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    int lrc = dg_my_api_load(err);
    if (lrc)
        return lrc;
    my_conn *c = xcalloc(1, sizeof *c);
    int rc = dg_backend_check_settings(&dg_backend_mysql, url, opts, err), ninit = 0;
    if (rc)
        goto fail;
    c->host = xstrdup(url->host ? url->host : "localhost");
    c->user = url->user ? xstrdup(url->user) : NULL;
    c->pass = url->password ? xstrdup(url->password) : NULL;
    c->db = url->path && *url->path ? xstrdup(url->path) : NULL;
    c->port = url->port > 0 ? (unsigned)url->port : 0;
    c->connect_timeout = DEFAULT_CONNECT_TIMEOUT;
    c->client_infile = true;
    bool unique_given = false, fk_given = false;
    /* The URL's parameters, then --conn's (later ones win): one meaning for a name in
     * either place (a --conn password is the client's, never a SET sent to the server) */
    for (int i = 0; i < url->nparams + opts->nsettings; i++) {
        const dg_setting *p = i < url->nparams ? &url->params[i] : &opts->settings[i - url->nparams];
        if (!strcmp(p->name, "socket")) {
            free(c->socket);
            c->socket = xstrdup(p->value);
        } else if (!strcmp(p->name, "connect_timeout")) {
            c->connect_timeout = (unsigned)atoi(p->value); /* checked: 0..3600 */
        } else if (!strcmp(p->name, "read_timeout") || !strcmp(p->name, "write_timeout")) {
            unsigned *dst = p->name[0] == 'r' ? &c->read_timeout : &c->write_timeout;
            *dst = (unsigned)atoi(p->value); /* checked: 0..86400 */
        } else if (!strcmp(p->name, "local_infile")) {
            c->client_infile = dg_backend_option_bool(p->value);
        } else if (!strcmp(p->name, "charset")) {
            free(c->charset);
            c->charset = xstrdup(p->value);
        } else if (!strcmp(p->name, "password") || !strcmp(p->name, "user")) {
            char **dst = p->name[0] == 'p' ? &c->pass : &c->user; /* as in the user info */
            free(*dst);
            *dst = xstrdup(p->value);
        } else {
            char *cmd = NULL;
            if ((rc = set_command(p->name, p->value, &cmd, err)) != 0)
                goto fail;
            add_init(&c->init_cmds, &ninit, cmd);
            unique_given |= !strcmp(p->name, "unique_checks");
            fk_given |= !strcmp(p->name, "foreign_key_checks");
        }
    }
    from_cnf(c, url);
    if (opts->bulk_session) {
        /* the loader writes rows in key order into fresh tables: skip the checks */
        if (!unique_given)
            add_init(&c->init_cmds, &ninit, xstrdup("SET SESSION unique_checks = 0"));
        if (!fk_given)
            add_init(&c->init_cmds, &ninit, xstrdup("SET SESSION foreign_key_checks = 0"));
    }
    c->password = dg_backend_secret(c->pass, c->user, c->db);
    c->nonblock = dg_waiter_get() != NULL; /* a fiber of the events engine */
    if ((rc = dg_mysql_open_session(c, &c->my, err)) != 0)
        goto fail;
    c->base.session_id = (int64_t)dg_my.mysql_thread_id(c->my); /* the connection id, no query */
    if (opts->local_facts) { /* its data directory's disk, and its process */
        MYSQL_RES *res = NULL;
        dg_err ignored = DG_ERR_INIT;
        if (dg_mysql_query_result(c, "SELECT @@datadir, @@pid_file", &res, &ignored) == 0) {
            MYSQL_ROW row = dg_my.mysql_fetch_row(res);
            int pid = row && dg_host_is_local(url->host) ? pid_from_file(row[1]) : 0;
            dg_conn_set_server_facts(&c->base, url->host, row ? row[0] : NULL, pid);
            if (row && row[1] && row[1][0] == '/') /* for a sampler on the server's host */
                c->base.server_pid_file = xstrdup(row[1]);
            dg_my.mysql_free_result(res);
        }
    }
    *out = &c->base;
    return 0;
fail:
    my_close(&c->base);
    return rc;
}

/* ---- connection: the local-infile handler --------------------------------------------- */

/* The local-infile handler: whatever file the server asks for, it reads the pending rows
 * of the connection's current bulk load (nothing when there is none). */
static int infile_init(void **ptr, const char *filename, void *userdata)
{
    (void)filename;
    *ptr = userdata;
    return 0;
}

static int infile_read(void *ptr, char *buf, unsigned int len)
{
    my_conn *c = ptr;
    my_bulk *b = c->infile;
    if (!b)
        return 0;
    size_t left = b->buf.len - b->sent;
    size_t n = left < len ? left : len;
    memcpy(buf, b->buf.buf + b->sent, n);
    b->sent += n;
    return (int)n;
}

static void infile_end(void *ptr)
{
    (void)ptr;
}

static int infile_error(void *ptr, char *msg, unsigned int len)
{
    (void)ptr;
    snprintf(msg, len, "dbgauge serves LOAD DATA LOCAL only for its own bulk loads");
    return 2000; /* CR_UNKNOWN_ERROR */
}

/* Shuts the socket down under a blocked client call: it returns as a lost connection at
 * once, whether or not the server answers. */
static void my_interrupt(dg_conn *conn)
{
    my_socket fd = dg_my.mysql_get_socket(((my_conn *)conn)->my);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
}

/* ---- statements ------------------------------------------------------------------------- */

static void free_results(my_stmt *s)
{
    if (s->meta)
        dg_my.mysql_free_result(s->meta);
    s->meta = NULL;
    for (int i = 0; i < s->ncols; i++)
        free(s->rtext[i]);
    free(s->rbind);
    free(s->rint);
    free(s->rdbl);
    free(s->rtext);
    free(s->rcap);
    free(s->rlen);
    free(s->rnull);
    free(s->rerr);
    free(s->rkind);
    free(s->colseq);
    s->colseq = NULL;
    s->rbind = NULL;
    s->rint = NULL;
    s->rdbl = NULL;
    s->rtext = NULL;
    s->rcap = s->rlen = NULL;
    s->rnull = s->rerr = NULL;
    s->rkind = NULL;
    s->ncols = 0;
}

/* Sets up one bind per result column (after prepare). */
static int bind_results(my_conn *c, my_stmt *s, dg_err *err)
{
    free_results(s);
    s->meta = dg_my.mysql_stmt_result_metadata(s->st);
    if (!s->meta)
        return 0; /* no result set (DML, DDL) */
    int n = (int)dg_my.mysql_num_fields(s->meta);
    MYSQL_FIELD *f = dg_my.mysql_fetch_fields(s->meta);
    s->ncols = n;
    s->rbind = xcalloc((size_t)n, sizeof *s->rbind);
    s->rint = xcalloc((size_t)n, sizeof *s->rint);
    s->rdbl = xcalloc((size_t)n, sizeof *s->rdbl);
    s->rtext = xcalloc((size_t)n, sizeof *s->rtext);
    s->rcap = xcalloc((size_t)n, sizeof *s->rcap);
    s->rlen = xcalloc((size_t)n, sizeof *s->rlen);
    s->rnull = xcalloc((size_t)n, sizeof *s->rnull);
    s->rerr = xcalloc((size_t)n, sizeof *s->rerr);
    s->rkind = xcalloc((size_t)n, sizeof *s->rkind);
    s->colseq = xcalloc((size_t)n, sizeof *s->colseq);
    s->rowseq = 1;
    for (int i = 0; i < n; i++) {
        MYSQL_BIND *b = &s->rbind[i];
        b->is_null = &s->rnull[i];
        b->length = &s->rlen[i];
        b->error = &s->rerr[i];
        bool is_unsigned = (f[i].flags & UNSIGNED_FLAG) != 0;
        switch (f[i].type) {
        case MYSQL_TYPE_TINY:
        case MYSQL_TYPE_SHORT:
        case MYSQL_TYPE_INT24:
        case MYSQL_TYPE_LONG:
        case MYSQL_TYPE_YEAR:
            s->rkind[i] = K_INT;
            b->buffer_type = MYSQL_TYPE_LONGLONG;
            b->buffer = &s->rint[i];
            break;
        case MYSQL_TYPE_LONGLONG:
            if (!is_unsigned) { /* unsigned BIGINT may not fit: read it as text */
                s->rkind[i] = K_INT;
                b->buffer_type = MYSQL_TYPE_LONGLONG;
                b->buffer = &s->rint[i];
                break;
            }
            /* fall through */
        default:
            s->rkind[i] = f[i].type == MYSQL_TYPE_NEWDECIMAL || f[i].type == MYSQL_TYPE_DECIMAL
                              ? K_DECIMAL
                              : K_TEXT;
            s->rcap[i] = RESULT_TEXT_INITIAL;
            s->rtext[i] = xmalloc(s->rcap[i]);
            b->buffer_type = MYSQL_TYPE_STRING;
            b->buffer = s->rtext[i];
            b->buffer_length = s->rcap[i];
            break;
        case MYSQL_TYPE_FLOAT:
        case MYSQL_TYPE_DOUBLE:
            s->rkind[i] = K_DBL;
            b->buffer_type = MYSQL_TYPE_DOUBLE;
            b->buffer = &s->rdbl[i];
            break;
        }
    }
    /* not given to mysql_stmt_bind_result: fetch() only positions on a row and column()
     * converts the columns asked for (rows read and discarded cost no conversion) */
    (void)c;
    (void)err;
    return 0;
}

/* Creates and prepares s->st on the current connection. */
static int prepare_on_server(my_conn *c, my_stmt *s, dg_err *err)
{
    if (s->st)
        nb_stmt_close(c, s->st);
    s->st = dg_my.mysql_stmt_init(c->my);
    if (!s->st)
        return conn_error(c, NULL, err);
    if (nb_stmt_prepare(c, s->st, s->base.sql, (unsigned long)strlen(s->base.sql)))
        return stmt_error(c, s->st, NULL, err);
    s->generation = c->generation;
    s->has_rows = false;
    s->pbound = false; /* a new handle has no parameter binds yet */
    return bind_results(c, s, err);
}

static void my_stmt_free(dg_stmt *stmt)
{
    my_stmt *s = (my_stmt *)stmt;
    if (s->st)
        nb_stmt_close((my_conn *)stmt->conn, s->st);
    free_results(s);
    for (int i = 0; i < s->base.nparams && s->ptext; i++)
        free(s->ptext[i]);
    free(s->ptext);
    free(s->ptextcap);
    free(s->pnull);
    free(s->pbind);
    free(s->pint);
    free(s->pdbl);
    free(s->pnum);
    free(s->plen);
    free(s->base.sql);
    free(s);
}

static int my_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    my_stmt *s = xcalloc(1, sizeof *s);
    s->base.conn = conn;
    s->base.sql = xstrdup(sql);
    s->affected = -1;
    int rc = prepare_on_server(c, s, err);
    if (rc) {
        my_stmt_free(&s->base);
        return rc;
    }
    int n = (int)dg_my.mysql_stmt_param_count(s->st);
    s->base.nparams = n;
    size_t np = n > 0 ? (size_t)n : 1;
    s->pbind = xcalloc(np, sizeof *s->pbind);
    s->pint = xcalloc(np, sizeof *s->pint);
    s->pdbl = xcalloc(np, sizeof *s->pdbl);
    s->pnum = xcalloc(np, sizeof *s->pnum);
    s->ptext = xcalloc(np, sizeof *s->ptext);
    s->ptextcap = xcalloc(np, sizeof *s->ptextcap);
    s->plen = xcalloc(np, sizeof *s->plen);
    s->pnull = xcalloc(np, sizeof *s->pnull);
    for (int i = 0; i < n; i++) {
        s->pbind[i].buffer_type = MYSQL_TYPE_NULL;
        s->pbind[i].is_null = &s->pnull[i];
        s->pbind[i].length = &s->plen[i];
    }
    *out = &s->base;
    return 0;
}

/* Stores parameter i; returns true when its bind changed (type, or a text buffer moved). */
static bool set_param(my_stmt *s, int i, const dg_value *v)
{
    MYSQL_BIND *b = &s->pbind[i];
    enum enum_field_types type;
    void *buffer;
    s->pnull[i] = 0;
    switch (v->type) {
    case DG_V_NULL:
        s->pnull[i] = 1; /* keeps the bind's type: no rebind for NULL */
        return false;
    case DG_V_INT:
        s->pint[i] = v->u.i;
        type = MYSQL_TYPE_LONGLONG;
        buffer = &s->pint[i];
        break;
    case DG_V_DOUBLE:
        s->pdbl[i] = v->u.d;
        type = MYSQL_TYPE_DOUBLE;
        buffer = &s->pdbl[i];
        break;
    case DG_V_NUMERIC: /* exact: the decimal text */
        s->plen[i] = (unsigned long)dg_format_numeric(v->u.n.unscaled, v->u.n.scale, s->pnum[i]);
        type = MYSQL_TYPE_NEWDECIMAL;
        buffer = s->pnum[i];
        break;
    case DG_V_TEXT:
        if (s->ptextcap[i] < v->u.s.len + 1) {
            size_t cap = s->ptextcap[i] ? s->ptextcap[i] : 64;
            while (cap < v->u.s.len + 1)
                cap *= 2;
            s->ptext[i] = xrealloc(s->ptext[i], cap);
            s->ptextcap[i] = cap;
        }
        memcpy(s->ptext[i], v->u.s.ptr, v->u.s.len);
        s->plen[i] = (unsigned long)v->u.s.len;
        type = MYSQL_TYPE_STRING;
        buffer = s->ptext[i];
        break;
    default:
        return false;
    }
    if (b->buffer_type == type && b->buffer == buffer)
        return false;
    b->buffer_type = type;
    b->buffer = buffer;
    b->buffer_length = type == MYSQL_TYPE_STRING ? (unsigned long)s->ptextcap[i]
                                                 : (unsigned long)sizeof s->pnum[i];
    return true;
}

/* Reads and drops what a CALL sent after the result the caller read: further result sets
 * and the final status. Errors go to err (NULL: dropped, as in reset, where the next
 * command on the connection meets a lost connection again). */
static int drain_results(my_conn *c, my_stmt *s, dg_err *err)
{
    /* the result read (kept or not by finish_rows) goes first */
    nb_stmt_free_result(c, s->st);
    s->has_rows = false;
    while (s->more_results && dg_my.mysql_stmt_more_results(s->st)) {
        int r = nb_stmt_next_result(c, s->st);
        if (r > 0) {
            s->more_results = false;
            return err ? stmt_error(c, s->st, NULL, err) : DG_E_DB;
        }
        if (r < 0)
            break;
        if (dg_my.mysql_stmt_field_count(s->st) > 0)
            nb_stmt_free_result(c, s->st);
    }
    s->more_results = false;
    return 0;
}

static DG_HOT int my_execute(dg_stmt *stmt, const dg_value *params, int n, dg_err *err)
{
    my_stmt *s = (my_stmt *)stmt;
    my_conn *c = (my_conn *)stmt->conn;
    if (s->more_results) {
        int rc = drain_results(c, s, err);
        if (rc)
            return rc;
    }
    s->has_rows = false; /* a result still stored is freed by mysql_stmt_execute */
    s->affected = -1;
    if (n != s->base.nparams)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "statement takes %d parameters, %d given", s->base.nparams, n);
    if (s->generation != c->generation) {
        int rc = prepare_on_server(c, s, err);
        if (rc)
            return rc;
    }
    const char *inflight = in_transaction(c) ? NULL : "statement";
    if (n > 0) {
        bool rebind = !s->pbound;
        for (int i = 0; i < n; i++)
            rebind |= set_param(s, i, &params[i]);
        if (rebind) {
            if (dg_my.mysql_stmt_bind_param(s->st, s->pbind))
                return stmt_error(c, s->st, NULL, err);
            s->pbound = true;
        }
    }
    if (nb_stmt_execute(c, s->st))
        return stmt_error(c, s->st, inflight, err);
    /* A CALL has no result columns when prepared: its first result set's arrive with it
     * (once: the procedures dbgauge calls always answer in the same shape). */
    unsigned fields = dg_my.mysql_stmt_field_count(s->st);
    if (fields > 0 && s->ncols == 0) {
        int rc = bind_results(c, s, err);
        if (rc)
            return rc;
    }
    s->more_results = dg_my.mysql_stmt_more_results(s->st);
    if (s->ncols > 0 && fields > 0) {
        if (nb_stmt_store_result(c, s->st))
            return stmt_error(c, s->st, inflight, err);
        s->has_rows = true;
        s->nrows = dg_my.mysql_stmt_num_rows(s->st);
        s->row = s->libpos = 0;
        s->affected = (int64_t)s->nrows;
    } else {
        s->affected = (int64_t)dg_my.mysql_stmt_affected_rows(s->st);
        if (s->more_results) /* a CALL that returned no rows: its status next */
            return drain_results(c, s, err);
    }
    return 0;
}

/* The end of a stored result: see KEEP_STORED_ROWS. */
static void finish_rows(my_conn *c, my_stmt *s)
{
    if (s->nrows > KEEP_STORED_ROWS)
        nb_stmt_free_result(c, s->st);
    s->has_rows = false;
}

static DG_HOT int my_fetch(dg_stmt *stmt, dg_err *err)
{
    my_stmt *s = (my_stmt *)stmt;
    my_conn *c = (my_conn *)stmt->conn;
    (void)err; /* the whole result was read (and checked) by execute */
    if (!s->has_rows)
        return 0;
    /* the rows are all here: moving to the next one is counting it (the library's
     * cursor follows only when a column of it is read, see load_column) */
    if (s->row < s->nrows) {
        s->row++;
        s->rowseq++;
        return 1;
    }
    finish_rows(c, s);
    return 0;
}

/* The rest of a stored result: nothing to read (execute stored and checked it all). */
static int my_discard(dg_stmt *stmt, dg_err *err)
{
    my_stmt *s = (my_stmt *)stmt;
    (void)err;
    if (s->has_rows)
        finish_rows((my_conn *)stmt->conn, s);
    return 0;
}

/* Puts the library's cursor on the current row: the next stored row, or a seek there
 * when rows were skipped. False if the library fails (it has no row to give). */
static bool position_row(my_stmt *s)
{
    if (s->libpos + 1 != s->row)
        dg_my.mysql_stmt_data_seek(s->st, s->row - 1);
    int r = nb_stmt_fetch((my_conn *)s->base.conn, s->st);
    if (r != 0 && r != MYSQL_DATA_TRUNCATED)
        return false;
    s->libpos = s->row;
    return true;
}

/* Converts column i of the current row into its buffer; a text value that does not fit
 * (with its NUL) grows the buffer (grow-only) and is read again. */
static bool load_column(my_stmt *s, int i)
{
    MYSQL_BIND *b = &s->rbind[i];
    if (s->libpos != s->row && !position_row(s))
        return false;
    if (dg_my.mysql_stmt_fetch_column(s->st, b, (unsigned)i, 0))
        return false;
    if ((s->rkind[i] == K_TEXT || s->rkind[i] == K_DECIMAL) && !s->rnull[i] &&
        s->rlen[i] >= s->rcap[i]) {
        unsigned long cap = s->rcap[i];
        while (cap <= s->rlen[i])
            cap *= 2;
        s->rtext[i] = xrealloc(s->rtext[i], cap);
        s->rcap[i] = cap;
        b->buffer = s->rtext[i];
        b->buffer_length = cap;
        if (dg_my.mysql_stmt_fetch_column(s->st, b, (unsigned)i, 0))
            return false;
    }
    s->colseq[i] = s->rowseq;
    return true;
}

static int my_ncols(dg_stmt *stmt)
{
    return ((my_stmt *)stmt)->ncols;
}

static const char *my_colname(dg_stmt *stmt, int i)
{
    my_stmt *s = (my_stmt *)stmt;
    if (!s->meta || i < 0 || i >= s->ncols)
        return NULL;
    return dg_my.mysql_fetch_fields(s->meta)[i].name;
}

static bool parse_decimal(const char *p, dg_value *out)
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

static DG_HOT void my_column(dg_stmt *stmt, int i, dg_value *out)
{
    my_stmt *s = (my_stmt *)stmt;
    if (!s->has_rows || s->row == 0 || i < 0 || i >= s->ncols ||
        (s->colseq[i] != s->rowseq && !load_column(s, i)) || s->rnull[i]) {
        *out = dg_vnull();
        return;
    }
    switch (s->rkind[i]) {
    case K_INT:
        *out = dg_vint(s->rint[i]);
        return;
    case K_DBL:
        *out = dg_vdouble(s->rdbl[i]);
        return;
    case K_DECIMAL:
        s->rtext[i][s->rlen[i]] = '\0';
        if (parse_decimal(s->rtext[i], out))
            return;
        break;
    }
    s->rtext[i][s->rlen[i]] = '\0';
    *out = dg_vtext(s->rtext[i], s->rlen[i]);
}

static int64_t my_affected(dg_stmt *stmt)
{
    return ((my_stmt *)stmt)->affected;
}

static DG_HOT void my_reset(dg_stmt *stmt)
{
    my_stmt *s = (my_stmt *)stmt;
    if (s->more_results)
        drain_results((my_conn *)stmt->conn, s, NULL);
    else if (s->has_rows)
        finish_rows((my_conn *)stmt->conn, s);
}

static int my_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    return dg_mysql_exec_sql((my_conn *)conn, sql, true, err);
}

/* ---- transactions ---------------------------------------------------------------------- */

/* The dialect's statements that begin a transaction, joined into one text per level and
 * access (the connection runs multi-statement texts): one round trip each. */
static char begin_text[4][2][128];
static pthread_once_t begin_once = PTHREAD_ONCE_INIT;

static void join_begin(void)
{
    for (int i = 0; i < 4; i++)
        for (int ro = 0; ro < 2; ro++) {
            const char *const *q = dg_dialect_mysql.begin[i][ro];
            snprintf(begin_text[i][ro], sizeof begin_text[i][ro], "%s%s%s", q[0],
                     q[1] ? "; " : "", q[1] ? q[1] : "");
        }
}

static int my_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    pthread_once(&begin_once, join_begin);
    int iso = tx && tx->isolation >= DG_ISO_DEFAULT && tx->isolation <= DG_ISO_SERIALIZABLE
                  ? (int)tx->isolation
                  : 0;
    return dg_mysql_exec_sql((my_conn *)conn, begin_text[iso][tx && tx->read_only], false, err);
}

static int my_commit(dg_conn *conn, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    if (nb_real_query(c, "COMMIT", 6))
        return conn_error(c, "COMMIT", err);
    return 0;
}

static int my_rollback(dg_conn *conn, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    /* also after 1205 (lock wait timeout), which rolled back only the statement */
    if (nb_real_query(c, "ROLLBACK", 8))
        return conn_error(c, NULL, err);
    return 0;
}

/* ---- descriptor ------------------------------------------------------------------------- */


static const char *const mysql_schemes[] = {"mysql", NULL};

/* The settings my_connect looks at itself; any other becomes SET SESSION (other_options). */
static const dg_backend_option backend_options[] = {
    {"socket", "text", 0, 0, NULL, "connect through this unix socket (the host is ignored)"},
    {"connect_timeout", "int", 0, 3600, NULL, "seconds to reach the server (default 10)"},
    {"read_timeout", "int", 0, 86400, NULL,
     "seconds a call may wait for the server before the connection counts as lost (default 0: "
     "no limit; a silent server is interrupted 2 s after the run's end anyway)"},
    {"write_timeout", "int", 0, 86400, NULL, "the same for sending (default 0: no limit)"},
    {"charset", "text", 0, 0, NULL, "connection character set (default utf8mb4)"},
    {"local_infile", "bool", 0, 0, NULL,
     "0: never use LOAD DATA LOCAL for bulk loads (default 1: when the server allows it)"},
    {"user", "text", 0, 0, NULL, "the user name (instead of the URL's)"},
    {"password", "text", 0, 0, NULL, "the password (instead of the URL's); never shown"},
    {"unique_checks", "bool", 0, 0, NULL, "server setting; loader connections default to 0"},
    {"foreign_key_checks", "bool", 0, 0, NULL, "server setting; loader connections default to 0"},
    {NULL, NULL, 0, 0, NULL, NULL},
};

/* The run's connections: a row lock wait from InnoDB's transactions (PROCESS privilege),
 * a file or synchronisation wait from performance_schema where it is on and readable (its
 * tables are empty when it is off); the rest is "CPU" with the connection's state as its
 * event; an idle connection ("Sleep") waits for the client. */
#define MY_WAIT_CLASS(lock, io) \
    "CASE WHEN " lock "p.STATE LIKE 'Waiting for%lock' THEN 'Lock' WHEN p.COMMAND = 'Sleep' " \
    "THEN 'Client' " io "ELSE 'CPU' END"
#define MY_WAIT_EVENT(lock, io) \
    "CASE " lock "WHEN p.COMMAND = 'Sleep' THEN 'idle' ELSE COALESCE(" io "NULLIF(p.STATE, ''), " \
    "p.COMMAND) END"
#define MY_TRX_LOCK "x.trx_state = 'LOCK WAIT' OR "
#define MY_TRX_EVENT "WHEN x.trx_state = 'LOCK WAIT' THEN 'row lock' "
#define MY_PS_CLASS \
    "WHEN w.EVENT_NAME LIKE 'wait/io/file/%' THEN 'IO' WHEN w.EVENT_NAME LIKE 'wait/synch/%' " \
    "THEN 'Synch' "
#define MY_FROM "FROM information_schema.PROCESSLIST p "
#define MY_TRX_JOIN "LEFT JOIN information_schema.INNODB_TRX x ON x.trx_mysql_thread_id = p.ID "
#define MY_PS_JOIN \
    "LEFT JOIN performance_schema.threads t ON t.PROCESSLIST_ID = p.ID LEFT JOIN " \
    "performance_schema.events_waits_current w ON w.THREAD_ID = t.THREAD_ID AND " \
    "w.END_EVENT_ID IS NULL "
#define MY_WHERE "WHERE p.DB = DATABASE() AND p.ID <> CONNECTION_ID()"
/* InnoDB refreshes what INNODB_TRX shows only when nobody read it for 0.1 s: read more
 * often, it would show the same transactions for ever */
#define MY_TRX_MS 150
#define MY_TRX_WHY "InnoDB refreshes information_schema.INNODB_TRX (its row lock waits) only when it was not read for 0.1 s"
static const dg_wait_query my_wait_queries[] = {
    {"SELECT p.ID, " MY_WAIT_CLASS(MY_TRX_LOCK, MY_PS_CLASS) ", " MY_WAIT_EVENT(MY_TRX_EVENT, "w.EVENT_NAME, ")
     " " MY_FROM MY_TRX_JOIN MY_PS_JOIN MY_WHERE,
     "information_schema.PROCESSLIST, information_schema.INNODB_TRX, "
     "performance_schema.events_waits_current",
     NULL,
     "SELECT CASE WHEN @@performance_schema = 0 THEN 'performance_schema is off (start the "
     "server with performance_schema=ON): no I/O or synchronisation waits, they count as CPU' END",
     MY_TRX_MS, MY_TRX_WHY, false},
    {"SELECT p.ID, " MY_WAIT_CLASS(MY_TRX_LOCK, "") ", " MY_WAIT_EVENT(MY_TRX_EVENT, "")
     " " MY_FROM MY_TRX_JOIN MY_WHERE,
     "information_schema.PROCESSLIST, information_schema.INNODB_TRX",
     "performance_schema is not readable by this user (GRANT SELECT ON performance_schema.*): "
     "no I/O or synchronisation waits, they count as CPU", NULL, MY_TRX_MS, MY_TRX_WHY, false},
    {"SELECT p.ID, " MY_WAIT_CLASS("", "") ", " MY_WAIT_EVENT("", "") " " MY_FROM MY_WHERE,
     "information_schema.PROCESSLIST",
     "the user has no PROCESS privilege (for information_schema.INNODB_TRX) nor SELECT on "
     "performance_schema: row lock, I/O and synchronisation waits count as CPU", NULL, 0, NULL,
     false},
    {NULL, NULL, NULL, NULL, 0, NULL, false},
};

const dg_backend dg_backend_mysql = {
    .name = "mysql",
    .schemes = mysql_schemes,
    .url_help = "mysql://user:pass@host:port/db?k=v | mariadb://...  (~/.my.cnf fills absent "
                "parts)",
    .caps = DG_CAP_CONCURRENT_WRITERS | DG_CAP_BULK_ATOMIC | DG_CAP_NONBLOCKING,
    .dialect = &dg_dialect_mysql,
    .options = backend_options,
    .server_comms = "mariadbd mysqld",
    /* the mariadb/mysql clients read no user or database from the environment */
    .tool_env = {"MYSQL_HOST", "MYSQL_TCP_PORT", NULL, "MYSQL_PWD", NULL},
    .wait_queries = my_wait_queries,
    .other_options = "any other name becomes SET SESSION NAME = VALUE while connecting, checked "
                     "by the server",
    .connect = my_connect,
    .close = my_close,
    .prepare = my_prepare,
    .stmt_free = my_stmt_free,
    .execute = my_execute,
    .fetch = my_fetch,
    .discard = my_discard,
    .ncols = my_ncols,
    .colname = my_colname,
    .column = my_column,
    .affected = my_affected,
    .reset = my_reset,
    .exec = my_exec,
    .begin = my_begin,
    .commit = my_commit,
    .rollback = my_rollback,
    .bulk_begin = dg_mysql_bulk_begin,
    .bulk_row = dg_mysql_bulk_row,
    .bulk_end = dg_mysql_bulk_end,
    .stats = dg_mysql_stats,
    .server_info = dg_mysql_server_info,
    .conn_cache_stats = NULL,
    .table_exists = dg_mysql_table_exists,
    .interrupt = my_interrupt,
};
