/*
 * odbc.c - the ODBC backend: any engine with an ODBC driver, through unixODBC's driver
 * manager (opened on first use: odbc_api.h).
 *
 * URL: odbc:CONNECTION-STRING, the string as the driver takes it:
 *   odbc:DSN=shop;UID=bench;PWD=secret
 *   odbc:DRIVER={PostgreSQL Unicode};SERVER=127.0.0.1;PORT=5432;DATABASE=shop;UID=bench
 * (a '%' in it is written %25, a '?' %3F; ?NAME=VALUE and --conn NAME=VALUE add
 * attributes). The password of PWD= or Password= is redacted wherever the URL is shown;
 * one given by --password-file or DBGAUGE_PASSWORD is added as PWD when the string has
 * none.
 *
 * Statements are prepared (SQLPrepare) and their parameters bound at each execution;
 * result columns are read with SQLGetData as 64-bit integers, doubles or text, from
 * their described types. Transactions switch autocommit off and end with SQLEndTran;
 * isolation levels are the connection attribute. Errors are classified from their
 * SQLSTATE (and, where a driver reports a generic one, the engine's native code).
 * SQLCancel from another thread interrupts a statement (dg_interrupt).
 *
 * Layout: the environment, errors, connecting, statements, transactions, the descriptor.
 */
#include "backend/dialect.h"
#include "backend/odbc_int.h"

#include "core/log.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the environment --------------------------------------------------------------------- */

static SQLHENV odbc_env;
static int env_rc;
static dg_err env_err;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void env_init(void)
{
    dg_err_clear(&env_err);
    if ((env_rc = dg_odbc_api_load(&env_err)) != 0)
        return;
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &odbc_env)) ||
        !dg_odbc_ok(dg_odbc.SQLSetEnvAttr(odbc_env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0)))
        env_rc = dg_err_fail(&env_err, DG_E_UNSUPPORTED,
                             "the ODBC driver manager cannot make an environment");
}

/* The process's one ODBC environment (made with the driver manager's first use). */
static int env_get(dg_err *err)
{
    pthread_once(&env_once, env_init);
    if (env_rc && err)
        *err = env_err;
    return env_rc;
}

/* ---- errors -------------------------------------------------------------------------------- */

static dg_errclass classify(const odbc_conn *c, const char *st, SQLINTEGER native)
{
    if (!strcmp(st, "40001") || !strcmp(st, "40P01") || !strcmp(st, "55P03") ||
        !strcmp(st, "40000"))
        return DG_EC_RETRY;
    if (c && c->engine == DG_ODBC_MYSQL && (native == 1213 || native == 1205))
        return DG_EC_RETRY; /* deadlock; lock wait timeout (the driver may say HY000) */
    if (c && c->engine == DG_ODBC_DB2 && (native == -911 || native == -913))
        return DG_EC_RETRY; /* deadlock or lock timeout: the transaction (or the statement,
                               57033) rolled back */
    if (c && c->engine == DG_ODBC_SQLITE && (native == 5 || native == 6))
        return DG_EC_RETRY; /* SQLITE_BUSY, SQLITE_LOCKED */
    if (c && c->engine == DG_ODBC_SQLITE && (native == 19 || native == 1555 || native == 2067))
        return DG_EC_CONSTRAINT; /* SQLITE_CONSTRAINT (primary key, unique) */
    if (c && c->engine == DG_ODBC_SQLITE && native == 1)
        return DG_EC_USER; /* SQLITE_ERROR: no such table, a syntax error */
    if (!strncmp(st, "08", 2) || !strcmp(st, "57P01") || !strcmp(st, "57P02") ||
        !strcmp(st, "57P03") || !strcmp(st, "HYT01"))
        return DG_EC_CONN_LOST;
    if (c && c->engine == DG_ODBC_DB2 && (native == -30081 || native == -1224 ||
                                          native == -30108))
        return DG_EC_CONN_LOST; /* communication error; the agent ended; rerouted */
    if (c && c->engine == DG_ODBC_MYSQL && (native == 2006 || native == 2013))
        return DG_EC_CONN_LOST; /* server gone away; lost connection during a query */
    if (!strncmp(st, "23", 2))
        return DG_EC_CONSTRAINT;
    if (!strncmp(st, "42", 2) || !strncmp(st, "22", 2) || !strncmp(st, "0A", 2) ||
        !strcmp(st, "25P02") || !strncmp(st, "3D", 2) || !strncmp(st, "3F", 2) ||
        !strncmp(st, "28", 2) || !strcmp(st, "07002") || !strcmp(st, "21S01"))
        return DG_EC_USER;
    return DG_EC_FATAL;
}

/* The diagnostic text on one line, without the driver manager's "[unixODBC]" prefix. */
static void tidy(char *msg)
{
    static const char dm[] = "[unixODBC]";
    if (!strncmp(msg, dm, sizeof dm - 1))
        memmove(msg, msg + sizeof dm - 1, strlen(msg + sizeof dm - 1) + 1);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    size_t n = strlen(msg);
    while (n && msg[n - 1] == ' ')
        msg[--n] = '\0';
}

int dg_odbc_error(odbc_conn *c, SQLSMALLINT type, SQLHANDLE handle, const char *what,
                  dg_err *err)
{
    SQLCHAR st[6] = "", text[DG_ERR_MSG_MAX];
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    text[0] = '\0';
    if (!handle || !dg_odbc_ok(dg_odbc.SQLGetDiagRec(type, handle, 1, st, &native, text,
                                                     (SQLSMALLINT)sizeof text, &len))) {
        strcpy((char *)st, "HY000");
        snprintf((char *)text, sizeof text, "the driver gave no diagnostic");
    }
    tidy((char *)text);
    dg_errclass cls = classify(c, (const char *)st, native);
    bool interrupted = c && atomic_load(&c->interrupted);
    if (interrupted)
        cls = DG_EC_CONN_LOST; /* dg_interrupt: the connection is not to be used again */
    int rc = dg_err_set(err, DG_E_DB, cls, (int)native, (const char *)st, "%s%s%s",
                        what ? what : "", what ? ": " : "", (const char *)text);
    return rc;
}

/* ---- connecting ------------------------------------------------------------------------------ */

static const dg_backend_option backend_options[] = {
    {"connect_timeout", "int", 0, 3600, NULL,
     "seconds to log in (SQL_ATTR_LOGIN_TIMEOUT; default: the driver's)"},
    {"bulk", "enum", 0, 0, "auto|array|values",
     "bulk path: array (a one-row INSERT executed with parameter arrays, SQL_ATTR_PARAMSET_SIZE), "
     "values (multi-row INSERT ... VALUES), or auto (default: values on PostgreSQL, always, "
     "and SQLite, whose drivers run an array row by row; elsewhere arrays where the driver "
     "takes them)"},
    {NULL, NULL, 0, 0, NULL, NULL},
};

/* Whether the connection string names the attribute (NAME=, any case, at an attribute's
 * start). */
static bool has_attr(const char *cs, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = cs; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        if (!strncasecmp(p, name, n) && p[n] == '=')
            return true;
        /* to the next attribute: past a {braced} value, then the ';' */
        const char *eq = strchr(p, '=');
        if (!eq)
            break;
        p = eq + 1;
        if (*p == '{') {
            p = strchr(p, '}');
            while (p && p[1] == '}') /* "}}" is a '}' inside the braces */
                p = strchr(p + 2, '}');
        }
        p = p ? strchr(p, ';') : NULL;
    }
    return false;
}

/* Appends NAME={VALUE}; with the value braced ('}' doubled). */
static void add_attr(dg_strbuf *sb, const char *name, const char *value)
{
    size_t n = strlen(dg_sb_str(sb));
    if (n && dg_sb_str(sb)[n - 1] != ';')
        dg_sb_add(sb, ";");
    dg_sb_printf(sb, "%s={", name);
    for (const char *p = value; *p; p++)
        dg_sb_printf(sb, "%s", *p == '}' ? "}}" : (char[]){*p, '\0'});
    dg_sb_add(sb, "};");
}

static odbc_engine engine_of(const char *dbms)
{
    char low[64];
    size_t n = 0;
    for (; dbms[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)dbms[n]);
    low[n] = '\0';
    if (strstr(low, "postgres"))
        return DG_ODBC_POSTGRES;
    if (strstr(low, "mysql") || strstr(low, "mariadb"))
        return DG_ODBC_MYSQL;
    if (strstr(low, "sqlite"))
        return DG_ODBC_SQLITE;
    if (!strncmp(low, "db2", 3)) /* "DB2/LINUXX8664", "DB2/NT64", "DB2" (z/OS) */
        return DG_ODBC_DB2;
    if (strstr(low, "cubrid"))
        return DG_ODBC_CUBRID;
    return DG_ODBC_OTHER;
}

static void info_str(SQLHDBC dbc, SQLUSMALLINT what, char *out, size_t len)
{
    SQLSMALLINT n = 0;
    out[0] = '\0';
    if (!dg_odbc_ok(dg_odbc.SQLGetInfo(dbc, what, out, (SQLSMALLINT)len, &n)))
        out[0] = '\0';
    out[len - 1] = '\0';
}

/* The generic dialect of an engine dbgauge does not know: ANSI types, FETCH FIRST. */
static const dg_dialect odbc_generic_dialect = {
    .name = "odbc",
    .t_int = "INTEGER",
    .t_bigint = "BIGINT",
    .t_double = "DOUBLE PRECISION",
    .t_text = "VARCHAR(4000)",
    .t_timestamp = "TIMESTAMP",
    .t_blob_text = "CLOB",
    .xml_style = DG_XML_NONE,
    .t_numeric = "DECIMAL",
    .t_char = "CHAR",
    .t_varchar = "VARCHAR",
    .sized_types = true,
    .now_expr = "CURRENT_TIMESTAMP",
    .for_update = " FOR UPDATE",
    .limit_style = DG_LIMIT_FETCH_FIRST,
    .alter_add_pk = true,
    .max_params = 32767,
};

/* SQLite's dialect as its ODBC driver can serve it: the driver (libsqliteodbc) runs an
 * UPDATE or DELETE as a statement without a result set, so the rows a RETURNING clause
 * gives never reach the client; the workloads then read before they write, as on
 * engines without RETURNING. */
static dg_dialect odbc_sqlite_dialect;
static pthread_once_t sqlite_dialect_once = PTHREAD_ONCE_INIT;

static void sqlite_dialect_init(void)
{
    odbc_sqlite_dialect = dg_dialect_sqlite;
    odbc_sqlite_dialect.update_returning = false;
    odbc_sqlite_dialect.delete_returning = false;
}

static void odbc_close(dg_conn *conn);
static int odbc_exec(dg_conn *conn, const char *sql, dg_err *err);

/* A setting the connection is better with but works without. */
static void odbc_exec_quiet(odbc_conn *c, const char *sql)
{
    dg_err ignored = DG_ERR_INIT;
    odbc_exec(&c->base, sql, &ignored);
}

extern const dg_backend dg_backend_odbc;

static void wipe_free(char *s)
{
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

/* A session from c's connection string into *dbc. */
static int open_dbc(odbc_conn *c, SQLHDBC *dbc, dg_err *err)
{
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_DBC, odbc_env, dbc)))
        return dg_err_fail(err, DG_E_UNSUPPORTED, "the ODBC driver manager cannot make a connection handle");
    if (c->login_timeout >= 0)
        dg_odbc.SQLSetConnectAttr(*dbc, SQL_ATTR_LOGIN_TIMEOUT, (SQLPOINTER)(intptr_t)c->login_timeout, 0);
    SQLCHAR done[1024];
    SQLSMALLINT donelen = 0;
    SQLRETURN r = dg_odbc.SQLDriverConnect(*dbc, NULL, (SQLCHAR *)c->connstr, SQL_NTS, done,
                                           (SQLSMALLINT)sizeof done, &donelen, SQL_DRIVER_NOPROMPT);
    memset(done, 0, sizeof done); /* it may hold the password */
    if (dg_odbc_ok(r))
        return 0;
    int rc = dg_odbc_error(NULL, SQL_HANDLE_DBC, *dbc, NULL, err);
    if (err && err->cls != DG_EC_USER)
        err->cls = DG_EC_CONN_LOST; /* a server that is down may come back */
    dg_odbc.SQLFreeHandle(SQL_HANDLE_DBC, *dbc);
    *dbc = NULL;
    return rc;
}

/* The handles a session keeps for itself (transaction control), freed before it ends. */
static void free_own_handles(odbc_conn *c)
{
    if (c->txh)
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, c->txh);
    c->txh = NULL;
    for (int i = 0; i < c->ntxprep; i++)
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, c->txprep[i].h);
    c->ntxprep = 0;
}

static void own_handles(odbc_conn *c)
{
    /* the engines dbgauge knows begin and end transactions in their own SQL, on a handle
       kept for it: the driver's autocommit switch costs round trips of its own (Connector/
       ODBC sends SET autocommit both ways) */
    bool own_sql = c->engine == DG_ODBC_POSTGRES || c->engine == DG_ODBC_MYSQL ||
                   c->engine == DG_ODBC_SQLITE;
    if (own_sql &&
        !dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &c->txh)))
        c->txh = NULL;
}

int dg_odbc_reopen(dg_conn *conn, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    SQLHDBC fresh = NULL;
    int rc = open_dbc(c, &fresh, err);
    if (rc)
        return rc;
    free_own_handles(c);
    dg_odbc.SQLDisconnect(c->dbc);
    dg_odbc.SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    c->dbc = fresh;
    c->autocommit = true; /* a new session's defaults */
    c->in_sql_tx = false;
    c->isolation = 0;
    c->base.in_tx = false;
    own_handles(c);
    return 0;
}

bool dg_odbc_alive(dg_conn *conn)
{
    odbc_conn *c = (odbc_conn *)conn;
    SQLUINTEGER dead = SQL_CD_FALSE;
    if (!dg_odbc_ok(dg_odbc.SQLGetConnectAttr(c->dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL)))
        return true; /* a driver that cannot tell: the next statement's error will */
    return dead != SQL_CD_TRUE;
}

static int odbc_connect(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    int rc = dg_backend_check_settings(&dg_backend_odbc, url, opts, err);
    if (rc == 0)
        rc = env_get(err);
    if (rc)
        return rc;
    dg_strbuf cs = DG_STRBUF_INIT;
    dg_sb_add(&cs, url->path ? url->path : "");
    long timeout = -1;
    const char *bulk = "auto";
    /* ?NAME=VALUE, then --conn NAME=VALUE: attributes of the connection string */
    for (int pass = 0; pass < 2; pass++) {
        int n = pass == 0 ? url->nparams : opts->nsettings;
        const dg_setting *set = pass == 0 ? url->params : opts->settings;
        for (int i = 0; i < n; i++) {
            if (!strcasecmp(set[i].name, "connect_timeout"))
                timeout = atol(set[i].value);
            else if (!strcasecmp(set[i].name, "bulk"))
                bulk = set[i].value;
            else
                add_attr(&cs, set[i].name, set[i].value);
        }
    }
    if (url->password && *url->password && !has_attr(dg_sb_str(&cs), "PWD") &&
        !has_attr(dg_sb_str(&cs), "Password"))
        add_attr(&cs, "PWD", url->password);
    /* psqlODBC rolls back a failed statement alone by default, wrapping every statement
       in a savepoint (two more commands each): the transaction-level rollback that
       PostgreSQL itself has, unless the string asks otherwise */
    char *lower = xstrdup(dg_sb_str(&cs));
    for (char *p = lower; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (strstr(lower, "driver=") && strstr(lower, "postgres") && !has_attr(lower, "protocol"))
        add_attr(&cs, "Protocol", "7.4-1");
    memset(lower, 0, strlen(lower));
    free(lower);

    odbc_conn *c = xcalloc(1, sizeof *c);
    c->autocommit = true;
    c->arrays = -1;
    c->login_timeout = timeout;
    c->bulk = !strcasecmp(bulk, "array") ? DG_ODBC_BULK_ARRAY
              : !strcasecmp(bulk, "values") ? DG_ODBC_BULK_VALUES
                                            : DG_ODBC_BULK_AUTO;
    c->connstr = xstrdup(dg_sb_str(&cs)); /* to open the session again (dg_odbc_reopen) */
    memset((char *)dg_sb_str(&cs), 0, strlen(dg_sb_str(&cs))); /* it may hold the password */
    dg_sb_free(&cs);
    if ((rc = open_dbc(c, &c->dbc, err)) != 0) {
        wipe_free(c->connstr);
        free(c);
        return rc;
    }
    info_str(c->dbc, SQL_DBMS_NAME, c->dbms, sizeof c->dbms);
    info_str(c->dbc, SQL_DBMS_VER, c->dbms_ver, sizeof c->dbms_ver);
    info_str(c->dbc, SQL_DRIVER_NAME, c->driver, sizeof c->driver);
    info_str(c->dbc, SQL_DRIVER_VER, c->driver_ver, sizeof c->driver_ver);
    c->engine = engine_of(c->dbms);
    switch (c->engine) {
    case DG_ODBC_POSTGRES:
        c->base.dialect = &dg_dialect_postgres;
        c->base.caps |= DG_CAP_CONCURRENT_WRITERS;
        break;
    case DG_ODBC_MYSQL:
        c->base.dialect = &dg_dialect_mysql;
        c->base.caps |= DG_CAP_CONCURRENT_WRITERS;
        break;
    case DG_ODBC_SQLITE:
        pthread_once(&sqlite_dialect_once, sqlite_dialect_init);
        c->base.dialect = &odbc_sqlite_dialect;
        c->base.caps |= DG_CAP_EMBEDDED | DG_CAP_NO_LOGIN; /* the driver runs SQLite in-process */
        /* as the native backend: readers do not block the writer (write-ahead log) */
        odbc_exec_quiet(c, "PRAGMA journal_mode = WAL");
        break;
    case DG_ODBC_DB2:
        c->base.dialect = &dg_dialect_db2;
        c->base.caps |= DG_CAP_CONCURRENT_WRITERS;
        break;
    case DG_ODBC_CUBRID:
        c->base.dialect = &dg_dialect_cubrid;
        c->base.caps |= DG_CAP_CONCURRENT_WRITERS;
        break;
    case DG_ODBC_OTHER:
        c->base.dialect = &odbc_generic_dialect;
        break;
    }
    static atomic_bool warned; /* once a process, not once a terminal */
    if ((c->engine == DG_ODBC_DB2 || c->engine == DG_ODBC_CUBRID) &&
        !atomic_exchange(&warned, true))
        dg_log_warn("%s: dbgauge's %s dialect is written from the engine's manual and has "
                    "not been verified on a real server (docs/backends.md, ODBC)",
                    c->dbms, c->base.dialect->name);
    own_handles(c);
    *out = &c->base;
    return 0;
}

static void odbc_close(dg_conn *conn)
{
    odbc_conn *c = (odbc_conn *)conn;
    if (!c)
        return;
    if (c->in_sql_tx && !atomic_load(&c->interrupted) &&
        dg_odbc_ok(dg_odbc.SQLExecDirect(c->txh, (SQLCHAR *)"ROLLBACK", SQL_NTS)))
        dg_odbc.SQLFreeStmt(c->txh, SQL_CLOSE);
    free_own_handles(c);
    if (!c->autocommit && !atomic_load(&c->interrupted))
        dg_odbc.SQLEndTran(SQL_HANDLE_DBC, c->dbc, SQL_ROLLBACK);
    dg_odbc.SQLDisconnect(c->dbc);
    dg_odbc.SQLFreeHandle(SQL_HANDLE_DBC, c->dbc);
    wipe_free(c->connstr);
    dg_conn_base_free(&c->base);
    free(c);
}

static void odbc_interrupt(dg_conn *conn)
{
    odbc_conn *c = (odbc_conn *)conn;
    atomic_store(&c->interrupted, true);
    SQLHSTMT h = atomic_load(&c->active);
    if (h)
        dg_odbc.SQLCancel(h);
}

/* ---- statements ------------------------------------------------------------------------------- */

typedef struct odbc_col {
    SQLSMALLINT ctype;  /* SQL_C_SBIGINT, SQL_C_DOUBLE or SQL_C_CHAR */
    bool own_type;      /* read as text, each value then typed by its own look (SQLite) */
    char name[64];
    SQLLEN ind;
    int64_t i;
    double d;
    char *buf;
    size_t cap, len;
} odbc_col;

typedef union odbc_param {
    int64_t i;
    double d;
    char num[DG_NUMERIC_BUF];
} odbc_param;

/* What a parameter is bound as: while a value fits it, the next execution only writes
 * the buffer and the length (the driver reads both at SQLExecute), no new binding. */
typedef struct odbc_bound {
    int type;          /* dg_value type bound; -1: nothing bound */
    int scale;         /* a numeric's */
    const void *ptr;   /* a text's own buffer (the caller's, bound where it lies) */
    SQLULEN size;      /* a text's declared column size */
} odbc_bound;

typedef struct odbc_stmt {
    dg_stmt base;
    SQLHSTMT h;
    int ncols;          /* -1: not described yet */
    odbc_col *cols;
    bool cursor;        /* a result set is open */
    SQLLEN affected;
    int nbuf;
    odbc_param *pbuf;
    SQLLEN *pind;
    odbc_bound *bound;
} odbc_stmt;

static int odbc_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    odbc_stmt *s = xcalloc(1, sizeof *s);
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &s->h))) {
        int rc = dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "cannot make a statement", err);
        free(s);
        return rc;
    }
    if (!dg_odbc_ok(dg_odbc.SQLPrepare(s->h, (SQLCHAR *)sql, SQL_NTS))) {
        int rc = dg_odbc_error(c, SQL_HANDLE_STMT, s->h, NULL, err);
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, s->h);
        free(s);
        return rc;
    }
    s->base.conn = conn;
    s->base.sql = xstrdup(sql);
    s->base.nparams = dg_sql_count_params(sql);
    s->ncols = -1;
    *out = &s->base;
    return 0;
}

static void odbc_stmt_free(dg_stmt *st)
{
    odbc_stmt *s = (odbc_stmt *)st;
    if (!s)
        return;
    dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, s->h);
    for (int i = 0; i < s->ncols; i++)
        free(s->cols[i].buf);
    free(s->cols);
    free(s->pbuf);
    free(s->pind);
    free(s->bound);
    free(s->base.sql);
    free(s);
}

static void close_cursor(odbc_stmt *s)
{
    if (s->cursor) {
        dg_odbc.SQLFreeStmt(s->h, SQL_CLOSE);
        s->cursor = false;
    }
}

/* The columns of the result, described once: integers as 64-bit integers, floating point
 * as doubles, everything else (exact decimals with a scale, SQLite's NUMERIC, text, dates)
 * as text. */
static int describe(odbc_stmt *s, SQLSMALLINT n, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)s->base.conn;
    s->cols = xcalloc((size_t)n, sizeof *s->cols);
    s->ncols = n;
    for (int i = 0; i < n; i++) {
        odbc_col *col = &s->cols[i];
        SQLSMALLINT nl = 0, type = 0, digits = 0, nullable = 0;
        SQLULEN size = 0;
        if (!dg_odbc_ok(dg_odbc.SQLDescribeCol(s->h, (SQLUSMALLINT)(i + 1), (SQLCHAR *)col->name,
                                                (SQLSMALLINT)sizeof col->name, &nl, &type, &size,
                                                &digits, &nullable)))
            return dg_odbc_error(c, SQL_HANDLE_STMT, s->h, "cannot describe a column", err);
        switch (type) {
        case SQL_BIT:
        case SQL_TINYINT:
        case SQL_SMALLINT:
        case SQL_INTEGER:
        case SQL_BIGINT:
            col->ctype = SQL_C_SBIGINT;
            break;
        case SQL_NUMERIC:
        case SQL_DECIMAL:
            col->ctype = digits == 0 && size > 0 && size <= 18 ? SQL_C_SBIGINT : SQL_C_CHAR;
            break;
        case SQL_REAL:
        case SQL_FLOAT:
        case SQL_DOUBLE:
            col->ctype = SQL_C_DOUBLE;
            break;
        default:
            col->ctype = SQL_C_CHAR;
        }
        /* SQLite types values, not columns: a NUMERIC column holds 12.34 as readily as 12,
           and the driver types an expression (SUM) after the first row's value. A number
           read as the column's type lost its cents (TPC-C's balances no longer added up
           through the driver); each value is typed by its own text instead, as the
           native backend types it by SQLite's own value type. */
        if (c->engine == DG_ODBC_SQLITE && col->ctype != SQL_C_CHAR) {
            col->ctype = SQL_C_CHAR;
            col->own_type = true;
        }
        if (col->ctype == SQL_C_CHAR) {
            col->cap = 256;
            col->buf = xmalloc(col->cap);
        }
    }
    return 0;
}

/* Binds one parameter from v (its buffer: s->pbuf[i], its length: s->pind[i]), unless
 * what is bound already takes it: then only the buffer and the length are written. */
static SQLRETURN bind_param(odbc_stmt *s, int i, const dg_value *v)
{
    SQLUSMALLINT no = (SQLUSMALLINT)(i + 1);
    odbc_param *p = &s->pbuf[i];
    SQLLEN *ind = &s->pind[i];
    odbc_bound *b = &s->bound[i];
    bool same = b->type == (int)v->type;
    SQLRETURN r = SQL_SUCCESS;
    switch (v->type) {
    case DG_V_INT:
        p->i = v->u.i;
        *ind = 0;
        if (!same)
            r = dg_odbc.SQLBindParameter(s->h, no, SQL_PARAM_INPUT, SQL_C_SBIGINT, SQL_BIGINT, 0,
                                         0, &p->i, 0, ind);
        break;
    case DG_V_DOUBLE:
        p->d = v->u.d;
        *ind = 0;
        if (!same)
            r = dg_odbc.SQLBindParameter(s->h, no, SQL_PARAM_INPUT, SQL_C_DOUBLE, SQL_DOUBLE, 0,
                                         0, &p->d, 0, ind);
        break;
    case DG_V_NUMERIC: {
        size_t n = dg_format_numeric(v->u.n.unscaled, v->u.n.scale, p->num);
        *ind = (SQLLEN)n;
        if (!same || b->scale != v->u.n.scale)
            r = dg_odbc.SQLBindParameter(s->h, no, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_DECIMAL, 30,
                                         (SQLSMALLINT)v->u.n.scale, p->num, sizeof p->num, ind);
        b->scale = v->u.n.scale;
        break;
    }
    case DG_V_TEXT: {
        /* the caller's bytes where they lie: bound again when they move, or outgrow the
           declared size (or cross into a long type) */
        *ind = (SQLLEN)v->u.s.len;
        SQLULEN size = v->u.s.len ? v->u.s.len : 1;
        bool fits = same && b->ptr == v->u.s.ptr && size <= b->size &&
                    (size > 4000) == (b->size > 4000);
        if (!fits) {
            r = dg_odbc.SQLBindParameter(s->h, no, SQL_PARAM_INPUT, SQL_C_CHAR,
                                         size > 4000 ? SQL_LONGVARCHAR : SQL_VARCHAR, size, 0,
                                         (SQLPOINTER)v->u.s.ptr, (SQLLEN)v->u.s.len, ind);
            b->ptr = v->u.s.ptr;
            b->size = size;
        }
        break;
    }
    case DG_V_NULL:
    default:
        p->num[0] = '\0';
        *ind = SQL_NULL_DATA;
        if (!same)
            r = dg_odbc.SQLBindParameter(s->h, no, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 1, 0,
                                         p->num, 0, ind);
        break;
    }
    b->type = dg_odbc_ok(r) ? (int)v->type : -1;
    return r;
}

static int odbc_execute(dg_stmt *st, const dg_value *params, int nparams, dg_err *err)
{
    odbc_stmt *s = (odbc_stmt *)st;
    odbc_conn *c = (odbc_conn *)st->conn;
    close_cursor(s);
    s->affected = -1;
    if (nparams > s->nbuf) { /* new buffers: everything is bound again */
        s->pbuf = xrealloc(s->pbuf, (size_t)nparams * sizeof *s->pbuf);
        s->pind = xrealloc(s->pind, (size_t)nparams * sizeof *s->pind);
        s->bound = xrealloc(s->bound, (size_t)nparams * sizeof *s->bound);
        for (int i = 0; i < nparams; i++)
            s->bound[i].type = -1;
        s->nbuf = nparams;
    }
    for (int i = 0; i < nparams; i++)
        if (!dg_odbc_ok(bind_param(s, i, &params[i])))
            return dg_odbc_error(c, SQL_HANDLE_STMT, s->h, "cannot bind a parameter", err);
    atomic_store(&c->active, s->h);
    SQLRETURN r = dg_odbc.SQLExecute(s->h);
    atomic_store(&c->active, (SQLHSTMT)NULL);
    if (r != SQL_NO_DATA && !dg_odbc_ok(r)) {
        int rc = dg_odbc_error(c, SQL_HANDLE_STMT, s->h, NULL, err);
        if (err && err->cls == DG_EC_CONN_LOST && c->autocommit && !c->in_sql_tx)
            err->outcome_unknown = true; /* an autocommit statement may have committed */
        return rc;
    }
    if (r == SQL_NO_DATA) {
        /* an UPDATE or DELETE that changed no row (ODBC 3), with a RETURNING clause too: no
           result set was made, and the driver manager refuses a fetch (24000: psqlODBC's
           DELETE ... RETURNING that lost Delivery's race ended the terminal) */
        s->affected = 0;
        return 0;
    }
    SQLSMALLINT n = 0;
    if (!dg_odbc_ok(dg_odbc.SQLNumResultCols(s->h, &n)))
        return dg_odbc_error(c, SQL_HANDLE_STMT, s->h, NULL, err);
    if (n > 0) {
        if (s->ncols < 0 && describe(s, n, err) != 0)
            return DG_E_DB;
        s->cursor = true;
    } else {
        SQLLEN rows = -1;
        if (dg_odbc_ok(dg_odbc.SQLRowCount(s->h, &rows)))
            s->affected = rows;
    }
    return 0;
}

/* Reads column i of the current row into its buffer (text grows as needed). */
static int read_col(odbc_stmt *s, int i, dg_err *err)
{
    odbc_col *col = &s->cols[i];
    SQLUSMALLINT no = (SQLUSMALLINT)(i + 1);
    SQLRETURN r;
    if (col->ctype == SQL_C_SBIGINT)
        r = dg_odbc.SQLGetData(s->h, no, SQL_C_SBIGINT, &col->i, 0, &col->ind);
    else if (col->ctype == SQL_C_DOUBLE)
        r = dg_odbc.SQLGetData(s->h, no, SQL_C_DOUBLE, &col->d, 0, &col->ind);
    else {
        col->len = 0;
        for (;;) {
            r = dg_odbc.SQLGetData(s->h, no, SQL_C_CHAR, col->buf + col->len,
                                   (SQLLEN)(col->cap - col->len), &col->ind);
            if (r == SQL_NO_DATA)
                break;
            if (!dg_odbc_ok(r) || col->ind == SQL_NULL_DATA)
                break;
            size_t room = col->cap - col->len - 1; /* what this call could hold */
            if (col->ind != SQL_NO_TOTAL && (size_t)col->ind <= room) {
                col->len += (size_t)col->ind;
                r = SQL_SUCCESS;
                break;
            }
            col->len += room; /* truncated: the rest comes with the next call */
            col->cap = col->ind != SQL_NO_TOTAL && (size_t)col->ind > room
                           ? col->len + (size_t)col->ind - room + 1
                           : 2 * col->cap;
            col->buf = xrealloc(col->buf, col->cap);
        }
    }
    if (r != SQL_NO_DATA && !dg_odbc_ok(r))
        return dg_odbc_error((odbc_conn *)s->base.conn, SQL_HANDLE_STMT, s->h, "cannot read a column", err);
    return 0;
}

static int odbc_fetch(dg_stmt *st, dg_err *err)
{
    odbc_stmt *s = (odbc_stmt *)st;
    odbc_conn *c = (odbc_conn *)st->conn;
    if (!s->cursor)
        return 0;
    atomic_store(&c->active, s->h);
    SQLRETURN r = dg_odbc.SQLFetch(s->h);
    atomic_store(&c->active, (SQLHSTMT)NULL);
    if (r == SQL_NO_DATA) {
        close_cursor(s);
        return 0;
    }
    if (!dg_odbc_ok(r))
        return dg_odbc_error(c, SQL_HANDLE_STMT, s->h, NULL, err);
    for (int i = 0; i < s->ncols; i++)
        if (read_col(s, i, err))
            return DG_E_DB;
    return 1;
}

static int odbc_ncols(dg_stmt *st)
{
    odbc_stmt *s = (odbc_stmt *)st;
    return s->ncols < 0 ? 0 : s->ncols;
}

static const char *odbc_colname(dg_stmt *st, int i)
{
    odbc_stmt *s = (odbc_stmt *)st;
    return i >= 0 && i < s->ncols ? s->cols[i].name : NULL;
}

static void odbc_column(dg_stmt *st, int i, dg_value *out)
{
    odbc_stmt *s = (odbc_stmt *)st;
    if (i < 0 || i >= s->ncols || s->cols[i].ind == SQL_NULL_DATA) {
        *out = dg_vnull();
        return;
    }
    const odbc_col *col = &s->cols[i];
    if (col->ctype == SQL_C_SBIGINT)
        *out = dg_vint(col->i);
    else if (col->ctype == SQL_C_DOUBLE)
        *out = dg_vdouble(col->d);
    else {
        col->buf[col->len] = '\0';
        *out = dg_vtext(col->buf, col->len);
        if (col->own_type && col->len > 0) {
            char *end = NULL;
            errno = 0;
            long long x = strtoll(col->buf, &end, 10);
            if (!*end && errno == 0) {
                *out = dg_vint(x);
            } else {
                double d = strtod(col->buf, &end);
                if (!*end)
                    *out = dg_vdouble(d);
            }
        }
    }
}

static int64_t odbc_affected(dg_stmt *st)
{
    return (int64_t)((odbc_stmt *)st)->affected;
}

static void odbc_reset(dg_stmt *st)
{
    close_cursor((odbc_stmt *)st);
}

static int odbc_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    SQLHSTMT h;
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &h)))
        return dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "cannot make a statement", err);
    atomic_store(&c->active, h);
    SQLRETURN r = dg_odbc.SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);
    atomic_store(&c->active, (SQLHSTMT)NULL);
    int rc = 0;
    if (r != SQL_NO_DATA && !dg_odbc_ok(r))
        rc = dg_odbc_error(c, SQL_HANDLE_STMT, h, NULL, err);
    else
        while (dg_odbc_ok(dg_odbc.SQLMoreResults(h))) /* every result of a batch */
            ;
    dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, h);
    return rc;
}

int dg_odbc_query_ints(odbc_conn *c, const char *sql, const char *param, int64_t *out, int n,
                       bool *found, dg_err *err)
{
    dg_stmt *st = NULL;
    for (int i = 0; i < n; i++)
        out[i] = -1;
    *found = false;
    int rc = odbc_prepare(&c->base, sql, &st, err);
    if (rc)
        return rc;
    dg_value v = param ? dg_vstr(param) : dg_vnull();
    if ((rc = odbc_execute(st, &v, param ? 1 : 0, err)) == 0) {
        int f = odbc_fetch(st, err);
        if (f < 0)
            rc = f;
        for (int i = 0; f == 1 && i < n && i < odbc_ncols(st); i++) {
            dg_value x;
            int64_t iv;
            odbc_column(st, i, &x);
            out[i] = dg_value_as_int(&x, &iv) ? iv : -1;
        }
        *found = f == 1;
    }
    odbc_stmt_free(st);
    return rc;
}

/* ---- transactions ---------------------------------------------------------------------------- */

static int set_autocommit(odbc_conn *c, bool on, dg_err *err)
{
    if (c->autocommit == on)
        return 0;
    if (!dg_odbc_ok(dg_odbc.SQLSetConnectAttr(c->dbc, SQL_ATTR_AUTOCOMMIT,
                                              (SQLPOINTER)(intptr_t)(on ? SQL_AUTOCOMMIT_ON
                                                                        : SQL_AUTOCOMMIT_OFF),
                                              0)))
        return dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "cannot set autocommit", err);
    c->autocommit = on;
    return 0;
}

/* The prepared handle of transaction control SQL (static text), or NULL: prepared on
 * PostgreSQL only, where psqlODBC makes it a named statement (MySQL's protocol cannot
 * prepare START TRANSACTION). */
static SQLHSTMT tx_prepared(odbc_conn *c, const char *sql)
{
    if (c->engine != DG_ODBC_POSTGRES)
        return NULL;
    for (int i = 0; i < c->ntxprep; i++)
        if (c->txprep[i].sql == sql)
            return c->txprep[i].h;
    if (c->ntxprep == (int)(sizeof c->txprep / sizeof c->txprep[0]))
        return NULL;
    SQLHSTMT h = NULL;
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &h)))
        return NULL;
    if (!dg_odbc_ok(dg_odbc.SQLPrepare(h, (SQLCHAR *)sql, SQL_NTS))) {
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, h);
        return NULL; /* run directly: its error, if any, is reported from there */
    }
    c->txprep[c->ntxprep].sql = sql;
    c->txprep[c->ntxprep++].h = h;
    return h;
}

/* Runs transaction control SQL (static text) on a handle of the connection's own. */
static int tx_sql(odbc_conn *c, const char *sql, const char *what, dg_err *err)
{
    SQLHSTMT h = tx_prepared(c, sql);
    SQLRETURN r;
    if (h) {
        atomic_store(&c->active, h);
        r = dg_odbc.SQLExecute(h);
    } else {
        h = c->txh;
        atomic_store(&c->active, h);
        r = dg_odbc.SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);
    }
    atomic_store(&c->active, (SQLHSTMT)NULL);
    if (r != SQL_NO_DATA && !dg_odbc_ok(r))
        return dg_odbc_error(c, SQL_HANDLE_STMT, h, what, err);
    dg_odbc.SQLFreeStmt(h, SQL_CLOSE);
    return 0;
}

/* BEGIN in the engine's own words (as its native backend says it). */
static int begin_sql(odbc_conn *c, const dg_txopts *tx, dg_err *err)
{
    int iso = tx && tx->isolation >= DG_ISO_DEFAULT && tx->isolation <= DG_ISO_SERIALIZABLE
                  ? (int)tx->isolation
                  : 0;
    /* the engine's own statements, as its native backend runs them (the dialect's), one at
       a time: no multi-statement option needed */
    const char *const *q = c->base.dialect->begin[iso][tx && tx->read_only];
    int rc = 0;
    if (q[0]) {
        for (int i = 0; i < 2 && q[i] && rc == 0; i++)
            rc = tx_sql(c, q[i], "begin", err);
    } else { /* SQLite: the write lock up front for a writer, as the native backend */
        rc = tx_sql(c, tx && tx->write ? "BEGIN IMMEDIATE" : "BEGIN", "begin", err);
    }
    if (rc == 0)
        c->in_sql_tx = true;
    return rc;
}

static int odbc_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    if (c->txh)
        return begin_sql(c, tx, err);
    int want = 0;
    switch (tx ? tx->isolation : DG_ISO_DEFAULT) {
    case DG_ISO_READ_COMMITTED: want = SQL_TXN_READ_COMMITTED; break;
    case DG_ISO_REPEATABLE_READ: want = SQL_TXN_REPEATABLE_READ; break;
    case DG_ISO_SERIALIZABLE: want = SQL_TXN_SERIALIZABLE; break;
    default: break;
    }
    if (want && want != c->isolation) { /* set between transactions only */
        if (!dg_odbc_ok(dg_odbc.SQLSetConnectAttr(c->dbc, SQL_ATTR_TXN_ISOLATION,
                                                  (SQLPOINTER)(intptr_t)want, 0)))
            return dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "cannot set the isolation level", err);
        c->isolation = want;
    }
    return set_autocommit(c, false, err);
}

static int end_tran(odbc_conn *c, SQLSMALLINT how, dg_err *err)
{
    if (c->in_sql_tx) {
        c->in_sql_tx = false;
        int rc = tx_sql(c, how == SQL_COMMIT ? "COMMIT" : "ROLLBACK",
                        how == SQL_COMMIT ? "commit" : "rollback", err);
        if (rc && err && how == SQL_COMMIT && err->cls == DG_EC_CONN_LOST)
            err->outcome_unknown = true; /* the COMMIT may have reached the server */
        return rc;
    }
    if (c->autocommit)
        return 0;
    SQLRETURN r = dg_odbc.SQLEndTran(SQL_HANDLE_DBC, c->dbc, how);
    if (!dg_odbc_ok(r)) {
        int rc = dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, how == SQL_COMMIT ? "commit" : "rollback", err);
        if (err && how == SQL_COMMIT && err->cls == DG_EC_CONN_LOST)
            err->outcome_unknown = true; /* the COMMIT may have reached the server */
        return rc;
    }
    return set_autocommit(c, true, err);
}

static int odbc_commit(dg_conn *conn, dg_err *err)
{
    return end_tran((odbc_conn *)conn, SQL_COMMIT, err);
}

static int odbc_rollback(dg_conn *conn, dg_err *err)
{
    return end_tran((odbc_conn *)conn, SQL_ROLLBACK, err);
}

/* ---- what the driver manager knows ------------------------------------------------------ */

/* "odbc drivers: A, B" and "odbc DSNs: X (driver), ..." for `dbgauge list`. */
static void odbc_describe_sources(dg_strbuf *out)
{
    dg_err err = DG_ERR_INIT;
    if (env_get(&err)) {
        dg_sb_printf(out, "odbc drivers: none (%s)\n", err.msg);
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        dg_sb_add(out, pass == 0 ? "odbc drivers:" : "odbc DSNs:");
        SQLUSMALLINT dir = SQL_FETCH_FIRST;
        int n = 0;
        for (;;) {
            SQLCHAR name[256], attr[512];
            SQLSMALLINT nl = 0, al = 0;
            SQLRETURN r = pass == 0 ? dg_odbc.SQLDrivers(odbc_env, dir, name, sizeof name, &nl,
                                                           attr, sizeof attr, &al)
                                    : dg_odbc.SQLDataSources(odbc_env, dir, name, sizeof name,
                                                             &nl, attr, sizeof attr, &al);
            if (!dg_odbc_ok(r))
                break;
            if (pass == 0)
                dg_sb_printf(out, "%s %s", n ? "," : "", (char *)name);
            else
                dg_sb_printf(out, "%s %s (%s)", n ? "," : "", (char *)name, (char *)attr);
            n++;
            dir = SQL_FETCH_NEXT;
        }
        dg_sb_add(out, n ? "\n" : " none\n");
    }
}

/* ---- descriptor ------------------------------------------------------------------------------- */

static const char *const odbc_schemes[] = {"odbc", NULL};

const dg_backend dg_backend_odbc = {
    .name = "odbc",
    .schemes = odbc_schemes,
    .url_help = "odbc:DSN=NAME;UID=USER;PWD=PASSWORD or odbc:DRIVER={NAME};SERVER=HOST;...  "
                "(any engine with an ODBC driver; PostgreSQL, MariaDB/MySQL and SQLite in "
                "their own dialects; Db2 and CUBRID in dialects not yet verified on a real "
                "server)",
    .caps = DG_CAP_BULK_ATOMIC,
    .dialect = &odbc_generic_dialect,
    .options = backend_options,
    .other_options = "becomes an attribute of the connection string (NAME=VALUE;)",
    .connect = odbc_connect,
    .close = odbc_close,
    .prepare = odbc_prepare,
    .stmt_free = odbc_stmt_free,
    .execute = odbc_execute,
    .fetch = odbc_fetch,
    .ncols = odbc_ncols,
    .colname = odbc_colname,
    .column = odbc_column,
    .affected = odbc_affected,
    .reset = odbc_reset,
    .exec = odbc_exec,
    .begin = odbc_begin,
    .commit = odbc_commit,
    .rollback = odbc_rollback,
    .bulk_begin = dg_odbc_bulk_begin,
    .bulk_row = dg_odbc_bulk_row,
    .bulk_end = dg_odbc_bulk_end,
    .bulk_path = dg_odbc_bulk_path,
    .stats = dg_odbc_stats,
    .server_info = dg_odbc_server_info,
    .table_exists = dg_odbc_table_exists,
    .interrupt = odbc_interrupt,
    .describe_sources = odbc_describe_sources,
};
