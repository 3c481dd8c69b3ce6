/*
 * odbc_stats.c - the ODBC backend's statistics, server facts and table lookups, asked of
 * the engine behind the driver in its own SQL (the native backends' queries, through
 * ODBC): PostgreSQL's pg_stat_database, MariaDB's global status, SQLite's page count;
 * Db2's monitoring table functions (written from its manual, not verified on a server).
 * An engine dbgauge does not know, and CUBRID, tell none (-1): the result then says "not
 * available".
 * The statistics are read on the monitor connection, which opens its session again after
 * the server ended it (dg_backend_with_reconnect, through dg_odbc_reopen).
 */
#include "backend/odbc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void unknown(dg_dbstats *out)
{
    out->cache_hits = out->cache_misses = out->pages_written = -1;
    out->commits = out->rollbacks = out->db_size_bytes = -1;
}

/* Db2's buffer pools one by one (the XML study drew a hit ratio per pool: data, index and
 * XML pools of their own), the system's own pools left out; a failure leaves the parts
 * out and the rest of the reading stands (not verified on a real server). */
static void db2_pools(odbc_conn *c, dg_dbstats *out)
{
    static const char sql[] =
        "SELECT VARCHAR(BP_NAME, 23), SUM(POOL_DATA_L_READS + POOL_INDEX_L_READS + "
        "POOL_XDA_L_READS - POOL_DATA_P_READS - POOL_INDEX_P_READS - POOL_XDA_P_READS), "
        "SUM(POOL_DATA_P_READS + POOL_INDEX_P_READS + POOL_XDA_P_READS) "
        "FROM TABLE(MON_GET_BUFFERPOOL(NULL, -2)) AS b WHERE BP_NAME NOT LIKE 'IBMSYSTEMBP%' "
        "GROUP BY BP_NAME ORDER BY BP_NAME FETCH FIRST 6 ROWS ONLY";
    dg_stmt *s = NULL;
    dg_err e = DG_ERR_INIT;
    out->ncache_parts = 0;
    if (dg_prepare(&c->base, sql, &s, &e) == 0 && dg_execute(s, NULL, 0, &e) == 0) {
        while (out->ncache_parts < DG_MAX_CACHE_PARTS && dg_fetch(s, &e) == 1) {
            dg_value name, h, m;
            dg_column(s, 0, &name);
            dg_column(s, 1, &h);
            dg_column(s, 2, &m);
            dg_cachepart *p = &out->cache_parts[out->ncache_parts];
            if (name.type != DG_V_TEXT || !dg_value_as_int(&h, &p->hits) ||
                !dg_value_as_int(&m, &p->misses))
                continue;
            size_t n = name.u.s.len < sizeof p->name - 1 ? name.u.s.len : sizeof p->name - 1;
            memcpy(p->name, name.u.s.ptr, n);
            while (n > 0 && p->name[n - 1] == ' ')
                n--;
            p->name[n] = '\0';
            out->ncache_parts++;
        }
    }
    dg_stmt_free(s);
}

static int read_stats(dg_conn *conn, void *arg, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    dg_dbstats *out = arg;
    unknown(out);
    int64_t v[6];
    bool found = false;
    int rc = 0;
    switch (c->engine) {
    case DG_ODBC_POSTGRES:
        /* this connection's own counts first, as the native backend does (PostgreSQL 15
           reports them at most every second otherwise) */
        if (atoi(c->dbms_ver) >= 15 && !c->base.in_tx)
            dg_odbc_query_ints(c,
                               "SELECT 0 FROM pg_stat_force_next_flush(), pg_catalog.pg_database "
                               "WHERE datname = current_database()",
                               NULL, v, 1, &found, NULL);
        rc = dg_odbc_query_ints(c,
                                "SELECT blks_hit, blks_read, xact_commit, xact_rollback, "
                                "pg_database_size(datid), (SELECT buffers_checkpoint + buffers_clean "
                                "+ buffers_backend FROM pg_stat_bgwriter) FROM pg_stat_database "
                                "WHERE datname = current_database()",
                                NULL, v, 6, &found, err);
        if (rc == 0 && found) {
            out->cache_hits = v[0];
            out->cache_misses = v[1];
            out->commits = v[2];
            out->rollbacks = v[3];
            out->db_size_bytes = v[4];
            out->pages_written = v[5];
        }
        return rc;
    case DG_ODBC_MYSQL:
        /* one row of the global status figures, in a fixed order */
        rc = dg_odbc_query_ints(
            c,
            "SELECT MAX(CASE WHEN VARIABLE_NAME = 'INNODB_BUFFER_POOL_READ_REQUESTS' THEN VARIABLE_VALUE END), "
            "MAX(CASE WHEN VARIABLE_NAME = 'INNODB_BUFFER_POOL_READS' THEN VARIABLE_VALUE END), "
            "MAX(CASE WHEN VARIABLE_NAME = 'INNODB_PAGES_WRITTEN' THEN VARIABLE_VALUE END), "
            "MAX(CASE WHEN VARIABLE_NAME = 'COM_COMMIT' THEN VARIABLE_VALUE END), "
            "MAX(CASE WHEN VARIABLE_NAME = 'COM_ROLLBACK' THEN VARIABLE_VALUE END) "
            "FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN "
            "('INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_BUFFER_POOL_READS', "
            "'INNODB_PAGES_WRITTEN', 'COM_COMMIT', 'COM_ROLLBACK')",
            NULL, v, 5, &found, err);
        if (rc == 0 && found) {
            out->cache_misses = v[1];
            out->cache_hits = v[0] >= 0 && v[1] >= 0 ? v[0] - v[1] : -1;
            out->pages_written = v[2];
            out->commits = v[3];
            out->rollbacks = v[4];
        }
        if (rc == 0)
            rc = dg_odbc_query_ints(c,
                                    "SELECT COALESCE(SUM(data_length + index_length), 0) FROM "
                                    "information_schema.TABLES WHERE table_schema = DATABASE()",
                                    NULL, &out->db_size_bytes, 1, &found, err);
        return rc;
    case DG_ODBC_SQLITE:
        rc = dg_odbc_query_ints(c, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                                NULL, &out->db_size_bytes, 1, &found, err);
        return rc;
    case DG_ODBC_DB2:
        /* the buffer pools' logical and physical reads and writes (data, index, XML) since
           the database was activated, on every member; the applications' commits and
           rollbacks; the table spaces' used pages (not verified on a real server) */
        rc = dg_odbc_query_ints(
            c,
            "SELECT SUM(POOL_DATA_L_READS + POOL_INDEX_L_READS + POOL_XDA_L_READS), "
            "SUM(POOL_DATA_P_READS + POOL_INDEX_P_READS + POOL_XDA_P_READS), "
            "SUM(POOL_DATA_WRITES + POOL_INDEX_WRITES + POOL_XDA_WRITES) "
            "FROM TABLE(MON_GET_BUFFERPOOL(NULL, -2)) AS b",
            NULL, v, 3, &found, err);
        if (rc == 0 && found) {
            out->cache_misses = v[1];
            out->cache_hits = v[0] >= 0 && v[1] >= 0 ? v[0] - v[1] : -1;
            out->pages_written = v[2];
        }
        if (rc == 0)
            rc = dg_odbc_query_ints(c,
                                    "SELECT SUM(TOTAL_APP_COMMITS), SUM(TOTAL_APP_ROLLBACKS) "
                                    "FROM TABLE(MON_GET_WORKLOAD(NULL, -2)) AS w",
                                    NULL, v, 2, &found, err);
        if (rc == 0 && found) {
            out->commits = v[0];
            out->rollbacks = v[1];
        }
        if (rc == 0)
            rc = dg_odbc_query_ints(c,
                                    "SELECT SUM(TBSP_USED_PAGES * TBSP_PAGE_SIZE) FROM "
                                    "TABLE(MON_GET_TABLESPACE(NULL, -2)) AS t",
                                    NULL, &out->db_size_bytes, 1, &found, err);
        if (rc == 0)
            db2_pools(c, out);
        return rc;
    case DG_ODBC_CUBRID: /* its statistics are its utilities' (cubrid statdump), not SQL */
    case DG_ODBC_OTHER:
        break;
    }
    return 0;
}

/* On the monitor connection, which opens its session again when the server ended it (a
 * restart, a killed session), as the native backends' monitors do. */
int dg_odbc_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    unknown(out);
    return dg_backend_with_reconnect(conn, dg_odbc_alive(conn), dg_odbc_reopen, read_stats, out,
                                     err);
}

int dg_odbc_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    (void)err;
    odbc_conn *c = (odbc_conn *)conn;
    memset(out, 0, sizeof *out);
    snprintf(out->version, sizeof out->version, "%s %s", c->dbms, c->dbms_ver);
    char drv[160];
    snprintf(drv, sizeof drv, "%s %s", c->driver, c->driver_ver);
    dg_server_info_add(out, "odbc_driver", drv);
    dg_server_info_add(out, "odbc_dbms", c->dbms);
    char path[128], why[300];
    dg_odbc_bulk_path(conn, path, sizeof path, why, sizeof why);
    dg_server_info_add(out, "bulk_path", path);
    dg_server_info_add(out, "bulk_why", why);
    dg_server_info_add(out, "connection", "odbc");
    return 0;
}

int dg_odbc_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)conn;
    *out = false;
    const char *sql = NULL;
    char lower[256];
    size_t n = 0;
    for (const char *p = table; *p && n + 1 < sizeof lower; p++)
        lower[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    lower[n] = '\0';
    switch (c->engine) {
    case DG_ODBC_POSTGRES: /* unquoted names fold to lower case; the current schema only */
        sql = "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
              "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
              "AND c.relname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f')";
        table = lower;
        break;
    case DG_ODBC_MYSQL:
        sql = "SELECT COUNT(*) FROM information_schema.TABLES WHERE table_schema = DATABASE() "
              "AND table_name = ?";
        break;
    case DG_ODBC_SQLITE:
        sql = "SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') "
              "AND name = ? COLLATE NOCASE";
        break;
    case DG_ODBC_DB2: /* unquoted names fold to upper case; the current schema only */
        for (char *p = lower; *p; p++)
            *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        sql = "SELECT COUNT(*) FROM SYSCAT.TABLES WHERE TABSCHEMA = CURRENT SCHEMA AND "
              "TABNAME = ? AND TYPE IN ('T', 'V')";
        table = lower;
        break;
    case DG_ODBC_CUBRID: /* names are kept in lower case */
        sql = "SELECT COUNT(*) FROM db_class WHERE class_name = ? AND is_system_class = 'NO'";
        table = lower;
        break;
    case DG_ODBC_OTHER: {
        /* the driver's catalog: the table in any schema the user sees */
        SQLHSTMT h;
        if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &h)))
            return dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "cannot make a statement", err);
        int rc = 0;
        for (int pass = 0; pass < 2 && !*out && rc == 0; pass++) { /* as given, then upper case */
            char name[256];
            snprintf(name, sizeof name, "%s", table);
            if (pass)
                for (char *p = name; *p; p++)
                    *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
            SQLRETURN r = dg_odbc.SQLTables(h, NULL, 0, NULL, 0, (SQLCHAR *)name, SQL_NTS,
                                            (SQLCHAR *)"TABLE,VIEW", SQL_NTS);
            if (!dg_odbc_ok(r))
                rc = dg_odbc_error(c, SQL_HANDLE_STMT, h, "cannot list tables", err);
            else
                *out = dg_odbc_ok(dg_odbc.SQLFetch(h));
            dg_odbc.SQLFreeStmt(h, SQL_CLOSE);
        }
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, h);
        return rc;
    }
    }
    int64_t v = -1;
    bool found = false;
    int rc = dg_odbc_query_ints(c, sql, table, &v, 1, &found, err);
    *out = rc == 0 && found && v > 0;
    return rc;
}
