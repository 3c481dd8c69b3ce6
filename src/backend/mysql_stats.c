/*
 * mysql_stats.c - the MariaDB/MySQL backend's statistics and server facts (dg_stats,
 * dg_server_info_get, dg_table_exists), read on the monitor connection, which reconnects
 * after a server restart (dg_backend_with_reconnect, through reopen here). The connection
 * and its errors are mysql.c's (mysql_int.h).
 *
 * Statistics: SHOW GLOBAL STATUS (Innodb_buffer_pool_read_requests - Innodb_buffer_pool_reads
 * = cache hits, Innodb_buffer_pool_reads = misses, Innodb_pages_written, Com_commit and
 * Com_rollback) and the size of the current database from information_schema.TABLES.
 * Com_commit counts COMMIT statements: it equals dbgauge's committed count for workloads
 * with explicit transactions; statements in autocommit mode are not in it. On a Galera
 * node it also counts COMMITs the cluster refused, so the session audits a cluster with
 * the wsrep_ figures (dg_clusterstats) instead: the cluster's sequence number less the
 * certification failures.
 *
 * Layout: the monitor connection's reconnect; statistics; server facts; table_exists.
 */
#include "backend/mysql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

/* ---- statistics and server facts --------------------------------------------------------- */

/* Replaces the monitor's session with a new one (dg_backend_with_reconnect calls it, never
 * inside a transaction); statements notice the new generation and prepare themselves
 * again. */
static int reopen(dg_conn *conn, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    MYSQL *fresh = NULL;
    int rc = dg_mysql_open_session(c, &fresh, err);
    if (rc)
        return rc; /* keep the dead handle: calls on it fail cleanly (2006) */
    dg_mysql_nb_close(c->nonblock, c->my);
    c->my = fresh;
    c->generation++;
    return 0;
}

/* Runs fn on the monitor connection, which reconnects after a server restart (the client
 * library notices a dead session only when it is used: fn finds out). */
static int with_reconnect(my_conn *c, int (*fn)(dg_conn *, void *, dg_err *), void *arg,
                          dg_err *err)
{
    return dg_backend_with_reconnect(&c->base, true, reopen, fn, arg, err);
}

/* One Galera status figure (its name after "wsrep_") into *cl. */
static void wsrep_figure(dg_clusterstats *cl, const char *name, int64_t v)
{
    if (!strcasecmp(name, "last_committed"))
        cl->seqno = v;
    else if (!strcasecmp(name, "local_cert_failures"))
        cl->cert_failures = v;
    else if (!strcasecmp(name, "local_bf_aborts"))
        cl->bf_aborts = v;
    else if (!strcasecmp(name, "local_replays"))
        cl->replays = v;
    else if (!strcasecmp(name, "flow_control_paused_ns"))
        cl->flow_paused_ns = v;
    else if (!strcasecmp(name, "cluster_size"))
        cl->size = v;
    else if (!strcasecmp(name, "local_state")) /* 4: Synced */
        cl->synced = v == 4;
    else if (!strcasecmp(name, "local_recv_queue"))
        cl->recv_queue = v;
}

static int read_stats(dg_conn *conn, void *arg, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    dg_dbstats *out = arg;
    MYSQL_RES *res = NULL;
    int rc = dg_mysql_query_result(c,
                          "SHOW GLOBAL STATUS WHERE Variable_name IN ("
                          "'Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads', "
                          "'Innodb_pages_written', 'Com_commit', 'Com_rollback', "
                          "'wsrep_last_committed', 'wsrep_local_cert_failures', "
                          "'wsrep_local_bf_aborts', 'wsrep_local_replays', "
                          "'wsrep_flow_control_paused_ns', 'wsrep_cluster_size', "
                          "'wsrep_local_state', 'wsrep_local_recv_queue')",
                          &res, err);
    if (rc)
        return rc;
    int64_t requests = -1, reads = -1;
    out->pages_written = out->commits = out->rollbacks = -1;
    MYSQL_ROW row;
    while ((row = dg_my.mysql_fetch_row(res)) != NULL) {
        if (!row[0] || !row[1])
            continue;
        int64_t v = strtoll(row[1], NULL, 10);
        if (!strcasecmp(row[0], "Innodb_buffer_pool_read_requests"))
            requests = v;
        else if (!strcasecmp(row[0], "Innodb_buffer_pool_reads"))
            reads = v;
        else if (!strcasecmp(row[0], "Innodb_pages_written"))
            out->pages_written = v;
        else if (!strcasecmp(row[0], "Com_commit"))
            out->commits = v;
        else if (!strcasecmp(row[0], "Com_rollback"))
            out->rollbacks = v;
        else if (!strncasecmp(row[0], "wsrep_", 6))
            wsrep_figure(&out->cluster, row[0] + 6, v);
    }
    if (out->cluster.size <= 0) /* no Galera provider, or a node out of any cluster */
        memset(&out->cluster, 0xff, sizeof out->cluster);
    dg_my.mysql_free_result(res);
    /* read requests are logical reads; the reads among them that missed went to disk */
    out->cache_hits = requests >= 0 && reads >= 0 ? requests - reads : -1;
    out->cache_misses = reads;
    res = NULL;
    rc = dg_mysql_query_result(c,
                      "SELECT COALESCE(SUM(data_length + index_length), 0) FROM "
                      "information_schema.TABLES WHERE table_schema = DATABASE()",
                      &res, err);
    if (rc)
        return rc;
    row = dg_my.mysql_fetch_row(res);
    out->db_size_bytes = row && row[0] ? strtoll(row[0], NULL, 10) : -1;
    dg_my.mysql_free_result(res);
    return 0;
}

int dg_mysql_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    return with_reconnect((my_conn *)conn, read_stats, out, err);
}

static int read_server_info(dg_conn *conn, void *arg, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    dg_server_info *out = arg;
    memset(out, 0, sizeof *out);
    snprintf(out->version, sizeof out->version, "%s %s",
             strstr(dg_my.mysql_get_server_info(c->my), "MariaDB") ? "MariaDB" : "MySQL",
             dg_my.mysql_get_server_info(c->my));
    MYSQL_RES *res = NULL;
    int rc = dg_mysql_query_result(c,
                          "SHOW GLOBAL VARIABLES WHERE Variable_name IN ("
                          "'innodb_buffer_pool_size', 'innodb_flush_log_at_trx_commit', "
                          "'sync_binlog', 'tx_isolation', 'transaction_isolation', "
                          "'innodb_log_file_size', 'max_connections', 'local_infile', "
                          "'log_bin', 'innodb_flush_method', 'innodb_doublewrite', "
                          "'max_allowed_packet', 'innodb_snapshot_isolation', 'version_comment')",
                          &res, err);
    if (rc)
        return rc;
    MYSQL_ROW row;
    bool infile = false;
    while ((row = dg_my.mysql_fetch_row(res)) != NULL) {
        if (!row[0])
            continue;
        dg_server_info_add(out, row[0], row[1] ? row[1] : "");
        if (!strcasecmp(row[0], "local_infile") && row[1])
            infile = !strcasecmp(row[1], "ON") || !strcmp(row[1], "1");
    }
    dg_my.mysql_free_result(res);
    dg_server_info_add(out, "bulk_path",
                       infile && c->client_infile ? "LOAD DATA LOCAL INFILE" : "multi-row INSERT");
    dg_server_info_add(out, "connection", c->socket ? "unix socket" : "tcp");
    return 0;
}

int dg_mysql_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    return with_reconnect((my_conn *)conn, read_server_info, out, err);
}

typedef struct exists_arg {
    const char *table;
    bool *out;
} exists_arg;

static int read_table_exists(dg_conn *conn, void *arg, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    exists_arg *a = arg;
    char esc[512];
    size_t n = strlen(a->table);
    if (n > 200)
        return dg_err_fail(err, DG_E_INVAL, "table name too long: %.40s...", a->table);
    dg_my.mysql_real_escape_string(c->my, esc, a->table, (unsigned long)n);
    char sql[768];
    snprintf(sql, sizeof sql,
             "SELECT COUNT(*) FROM information_schema.TABLES WHERE table_schema = DATABASE() "
             "AND table_name = '%s'",
             esc);
    MYSQL_RES *res = NULL;
    int rc = dg_mysql_query_result(c, sql, &res, err);
    if (rc)
        return rc;
    MYSQL_ROW row = dg_my.mysql_fetch_row(res);
    *a->out = row && row[0] && atoll(row[0]) > 0;
    dg_my.mysql_free_result(res);
    return 0;
}

int dg_mysql_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    exists_arg a = {table, out};
    return with_reconnect((my_conn *)conn, read_table_exists, &a, err);
}
