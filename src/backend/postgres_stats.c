/*
 * postgres_stats.c - the PostgreSQL backend's statistics and server facts (dg_stats,
 * dg_server_info_get, dg_table_exists), read on the monitor connection, which reconnects
 * after a server restart (dg_backend_with_reconnect, through reopen here). The server
 * transactions these cost are listed in postgres.c's header. The connection and its errors
 * are postgres.c's (postgres_int.h).
 *
 * Layout: the monitor connection's reconnect; statistics; server facts; table_exists.
 */
#include "backend/postgres_int.h"

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- statistics and server facts --------------------------------------------------------- */

/* Replaces the monitor's session with a new one (dg_backend_with_reconnect calls it, never
 * inside a transaction); statements notice the new generation and prepare themselves
 * again. On failure the old handle stays (calls on it fail cleanly). */
static int reopen(dg_conn *conn, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    PGconn *fresh = NULL;
    int rc = dg_postgres_open_session(c, &fresh, err);
    if (rc)
        return rc;
    PQfinish(c->pg);
    c->pg = fresh;
    c->generation++;
    dg_sb_reset(&c->dealloc); /* the old session's statements died with it */
    c->ndealloc = 0;
    return 0;
}

static int64_t field_int(const PGresult *r, int col)
{
    if (PQgetisnull(r, 0, col))
        return -1;
    int64_t v;
    return dg_postgres_parse_int(PQgetvalue(r, 0, col), &v) ? v : -1;
}

/* Runs fn on the monitor connection, which reconnects after a server restart. */
static int with_reconnect(pg_conn *c, int (*fn)(dg_conn *, void *, dg_err *), void *arg,
                          dg_err *err)
{
    return dg_backend_with_reconnect(&c->base, PQstatus(c->pg) == CONNECTION_OK, reopen, fn,
                                     arg, err);
}

static int read_stats(dg_conn *conn, void *arg, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    dg_dbstats *out = arg;
    int rc;
    /* Counters of other sessions reach the shared statistics at most a second late (and at
     * their end); this session's own are flushed first, so a reading includes every
     * transaction this connection ran before it. A new transaction per reading also means
     * a fresh statistics snapshot (stats_fetch_consistency = cache). */
    if (c->server_version >= 150000 && !c->base.in_tx) {
        PGresult *f = PQexec(c->pg, FLUSH_STATS_SQL);
        PQclear(f);
    }
    const char *writes =
        c->server_version >= 170000
            ? "(SELECT sum(writes)::bigint FROM pg_stat_io WHERE object = 'relation')"
            : "(SELECT buffers_checkpoint + buffers_clean + buffers_backend FROM pg_stat_bgwriter)";
    char sql[2048];
    /* replication in the same statement (the server counts one transaction a reading) */
    snprintf(sql, sizeof sql,
             "SELECT blks_hit, blks_read, xact_commit, xact_rollback, pg_database_size(datid), %s, "
             "pg_is_in_recovery()::int, "
             "CASE WHEN NOT pg_is_in_recovery() THEN (SELECT count(*) FROM pg_stat_replication) END, "
             "CASE WHEN NOT pg_is_in_recovery() THEN (SELECT max(pg_wal_lsn_diff("
             "pg_current_wal_lsn(), replay_lsn))::bigint FROM pg_stat_replication) END, "
             "CASE WHEN pg_is_in_recovery() THEN (extract(epoch FROM now() - "
             "pg_last_xact_replay_timestamp()) * 1000)::bigint END, "
             "s.th, s.tr, s.ih, s.ir, s.oh, s.orr "
             "FROM pg_stat_database, LATERAL (SELECT sum(heap_blks_hit)::bigint AS th, "
             "sum(heap_blks_read)::bigint AS tr, sum(idx_blks_hit)::bigint AS ih, "
             "sum(idx_blks_read)::bigint AS ir, "
             "sum(coalesce(toast_blks_hit, 0) + coalesce(tidx_blks_hit, 0))::bigint AS oh, "
             "sum(coalesce(toast_blks_read, 0) + coalesce(tidx_blks_read, 0))::bigint AS orr "
             "FROM pg_statio_user_tables) s WHERE datname = current_database()",
             writes);
    PGresult *r = NULL;
    rc = dg_postgres_exec_sql(c, sql, false, &r, err);
    if (rc)
        return rc;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return dg_err_fail(err, DG_E_DB, "pg_stat_database has no row for this database");
    }
    out->cache_hits = field_int(r, 0);
    out->cache_misses = field_int(r, 1);
    out->commits = field_int(r, 2);
    out->rollbacks = field_int(r, 3);
    out->db_size_bytes = field_int(r, 4);
    out->pages_written = field_int(r, 5);
    /* a server with neither a standby nor a primary is no cluster's node */
    out->cluster.standby = field_int(r, 6);
    out->cluster.replicas = field_int(r, 7);
    out->cluster.lag_bytes = field_int(r, 8);
    out->cluster.replay_delay_ms = field_int(r, 9);
    if (out->cluster.standby == 0 && out->cluster.replicas <= 0)
        memset(&out->cluster, 0xff, sizeof out->cluster);
    /* the database's user tables by kind of object: shared buffers' hits and the blocks
       read from the OS (its page cache or the disk) */
    static const char *const parts[] = {"tables", "indexes", "toast"};
    out->ncache_parts = 0;
    for (int k = 0; k < 3; k++) {
        int64_t h = field_int(r, 10 + 2 * k), m = field_int(r, 11 + 2 * k);
        if (h < 0 || m < 0)
            continue; /* no user table (a sum of nothing), or no index at all */
        dg_cachepart *p = &out->cache_parts[out->ncache_parts++];
        snprintf(p->name, sizeof p->name, "%s", parts[k]);
        p->hits = h;
        p->misses = m;
    }
    PQclear(r);
    return 0;
}

int dg_postgres_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    return with_reconnect((pg_conn *)conn, read_stats, out, err);
}

static int read_server_info(dg_conn *conn, void *arg, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    dg_server_info *out = arg;
    memset(out, 0, sizeof *out);
    PGresult *r = NULL;
    int rc = dg_postgres_exec_sql(c,
                    "SELECT 'version', version() UNION ALL "
                    "(SELECT name, current_setting(name) FROM pg_settings WHERE name IN "
                    "('shared_buffers', 'synchronous_commit', 'fsync', 'wal_level', "
                    "'max_connections', 'effective_cache_size', 'work_mem', 'checkpoint_timeout', "
                    "'default_transaction_isolation', 'full_page_writes', 'max_wal_size', "
                    "'wal_sync_method', 'autovacuum', 'server_encoding', 'block_size') ORDER BY name)",
                    false, &r, err);
    if (rc)
        return rc;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *name = PQgetvalue(r, i, 0), *val = PQgetvalue(r, i, 1);
        if (!strcmp(name, "version")) {
            /* "PostgreSQL 15.4 (Debian ...) on x86_64-pc-linux-gnu, compiled by ..." */
            const char *on = strstr(val, " on ");
            int len = on ? (int)(on - val) : (int)strlen(val);
            snprintf(out->version, sizeof out->version, "%.*s", len, val);
            dg_server_info_add(out, "version_full", val);
        } else {
            dg_server_info_add(out, name, val);
        }
    }
    PQclear(r);
    char num[16];
    snprintf(num, sizeof num, "%d", c->server_version);
    dg_server_info_add(out, "server_version_num", num);
    dg_server_info_add(out, "bulk_path", c->copy_text ? "COPY FROM STDIN (text)"
                                                      : "COPY FROM STDIN (binary where the column types allow)");
    const char *host = PQhost(c->pg);
    dg_server_info_add(out, "connection", host && host[0] == '/' ? "unix socket" : "tcp");
    return 0;
}

int dg_postgres_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    return with_reconnect((pg_conn *)conn, read_server_info, out, err);
}

typedef struct exists_arg {
    const char *table;
    bool *out;
} exists_arg;

static int read_table_exists(dg_conn *conn, void *arg, dg_err *err)
{
    pg_conn *c = (pg_conn *)conn;
    exists_arg *a = arg;
    const char *table = a->table;
    int rc;
    /* unquoted names fold to lower case; look in the current schema only */
    char name[256];
    size_t n = 0;
    for (const char *p = table; *p && n + 1 < sizeof name; p++)
        name[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    name[n] = '\0';
    const char *vals[1] = {name};
    PGresult *r = PQexecParams(c->pg,
                               "SELECT count(*) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                               "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
                               "AND c.relname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')",
                               1, NULL, vals, NULL, NULL, 0);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = dg_postgres_fill_error(c, r, NULL, err);
        PQclear(r);
        return rc;
    }
    *a->out = field_int(r, 0) > 0;
    PQclear(r);
    return 0;
}
int dg_postgres_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    exists_arg a = {table, out};
    return with_reconnect((pg_conn *)conn, read_table_exists, &a, err);
}

