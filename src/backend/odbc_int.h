/*
 * odbc_int.h - what the ODBC backend's files share (odbc.c: connections, statements,
 * transactions, errors; odbc_stats.c: statistics, server facts, tables; odbc_load.c: the
 * bulk path).
 *
 * A connection knows the engine behind its driver (SQLGetInfo's DBMS name): PostgreSQL,
 * MariaDB/MySQL and SQLite are spoken in their own dialects and asked for their own
 * statistics; any other engine gets the generic dialect and no statistics.
 */
#ifndef DG_BACKEND_ODBC_INT_H
#define DG_BACKEND_ODBC_INT_H

#include "backend/backend.h"
#include "backend/odbc_api.h"

#include <stdatomic.h>
#include <stdbool.h>

typedef enum odbc_engine {
    DG_ODBC_OTHER = 0,
    DG_ODBC_POSTGRES,
    DG_ODBC_MYSQL,
    DG_ODBC_SQLITE,
    DG_ODBC_DB2,    /* dialects written from the manuals, not verified on a real server */
    DG_ODBC_CUBRID,
} odbc_engine;

/* The bulk path (?bulk=): parameter arrays, multi-row VALUES, or arrays where the driver
 * takes them (odbc_load.c). */
typedef enum { DG_ODBC_BULK_AUTO, DG_ODBC_BULK_ARRAY, DG_ODBC_BULK_VALUES } dg_odbc_bulk_kind;

typedef struct odbc_conn {
    dg_conn base;
    SQLHDBC dbc;
    odbc_engine engine;
    char dbms[64], dbms_ver[64], driver[64], driver_ver[64];
    bool autocommit;            /* the connection attribute as last set */
    SQLHSTMT txh;               /* transaction control in SQL (known engines), or NULL */
    struct {                    /* that SQL prepared once (PostgreSQL: psqlODBC's
                                   SQLExecDirect parses and plans each time), by the
                                   address of its static text */
        const char *sql;
        SQLHSTMT h;
    } txprep[8];
    int ntxprep;
    bool in_sql_tx;             /* a transaction begun in SQL is open */
    int isolation;              /* SQL_ATTR_TXN_ISOLATION as last set (0: the default) */
    char *connstr;              /* owned, wiped at close: the connection string, password
                                   included, to open the session again (dg_odbc_reopen) */
    long login_timeout;         /* ?connect_timeout= (-1: the driver's) */
    dg_odbc_bulk_kind bulk;     /* as asked (?bulk=) */
    int arrays;                 /* the driver takes parameter arrays: 1 yes, 0 no, -1 not
                                   tried yet (dg_odbc_bulk_path tries) */
    char arrays_why[256];       /* why not, when not */
    _Atomic(SQLHSTMT) active;   /* the statement executing now (SQLCancel's target) */
    atomic_bool interrupted;
} odbc_conn;

/* Fills err from the diagnostics of handle (type SQL_HANDLE_STMT or SQL_HANDLE_DBC):
 * "what: [driver] text" (the SQLSTATE in err->sqlstate), the class from the SQLSTATE (and the engine's native
 * code where the SQLSTATE is generic). Returns DG_E_DB. */
int dg_odbc_error(odbc_conn *c, SQLSMALLINT type, SQLHANDLE handle, const char *what,
                  dg_err *err);

/* True for SQL_SUCCESS and SQL_SUCCESS_WITH_INFO. */
static inline bool dg_odbc_ok(SQLRETURN r)
{
    return r == SQL_SUCCESS || r == SQL_SUCCESS_WITH_INFO;
}

/* Runs sql (no parameters) and reads the first row's integer columns into out[0..n)
 * (-1 for NULL or missing). 0, or DG_E_DB. */
int dg_odbc_query_ints(odbc_conn *c, const char *sql, const char *param, int64_t *out, int n,
                       bool *found, dg_err *err);

/* The monitor connection's session replaced with a new one (dg_backend_with_reconnect
 * calls it, never inside a transaction); on failure the old one stays. */
int dg_odbc_reopen(dg_conn *conn, dg_err *err);
/* False when the driver says the session is dead (SQL_ATTR_CONNECTION_DEAD). */
bool dg_odbc_alive(dg_conn *conn);

/* The descriptor's bulk_path (odbc_load.c). */
void dg_odbc_bulk_path(dg_conn *conn, char *path, size_t plen, char *why, size_t wlen);

int dg_odbc_stats(dg_conn *conn, dg_dbstats *out, dg_err *err);
int dg_odbc_server_info(dg_conn *conn, dg_server_info *out, dg_err *err);
int dg_odbc_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err);

int dg_odbc_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                       dg_bulk **out, dg_err *err);
int dg_odbc_bulk_row(dg_bulk *b, const dg_value *vals, dg_err *err);
int dg_odbc_bulk_end(dg_bulk *b, bool commit, dg_err *err);

#endif
