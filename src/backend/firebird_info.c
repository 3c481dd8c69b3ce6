/*
 * firebird_info.c - statistics, server facts and table lookup for the Firebird backend.
 *
 * Sources: isc_database_info (the database class: a page cache shared by all attachments
 * in SuperServer, one per attachment in Classic and SuperClassic; the engine's version;
 * an attachment's own page fetches and reads), and the MON$ tables, read in a short
 * read-only snapshot transaction of their own because Firebird takes a MON$ snapshot once
 * per transaction: MON$DATABASE (size = MON$PAGES * MON$PAGE_SIZE, page buffers, forced
 * writes, ODS, sweep interval, owner, transaction markers), MON$IO_STATS of the database
 * (MON$STAT_GROUP 0 via MON$STAT_ID: fetches, reads, writes) and MON$ATTACHMENTS.
 * Firebird keeps no counter of commits (MON$NEXT_TRANSACTION counts started transactions,
 * dbgauge's own read and statistics transactions included), so commits and rollbacks are
 * -1. The MON$ rows cover the whole database only for the owner, SYSDBA and RDB$ADMIN; a
 * plain user sees its own attachment.
 *
 * Layout: one-row queries in their own transaction, database info, statistics (server-
 * wide and per attachment), server facts, table lookup.
 */
#include "backend/firebird_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fbi_names[] = {"read_committed", "snapshot", "serializable"};

void fb_db_info(fb_conn *c)
{
    static const char items[] = {isc_info_db_class, isc_info_firebird_version, isc_info_end};
    char buf[512];
    c->db_class = -1;
    c->build[0] = '\0';
    if (isc_database_info(c->sv, &c->db, sizeof items, items, sizeof buf, buf))
        return;
    for (const char *p = buf; p < buf + sizeof buf - 3 && *p != isc_info_end;) {
        char item = *p;
        short len = (short)isc_vax_integer(p + 1, 2);
        const char *d = p + 3;
        if (len < 0 || d + len > buf + sizeof buf)
            break;
        if (item == isc_info_db_class) {
            c->db_class = (int)isc_vax_integer(d, len);
        } else if (item == isc_info_firebird_version && len > 2) {
            /* a count, then (length, text) pairs: the first is the engine's */
            int sl = (unsigned char)d[1];
            if (sl > len - 2)
                sl = len - 2;
            snprintf(c->build, sizeof c->build, "%.*s", sl, d + 2);
        }
        p = d + len;
    }
}

/* Runs a one-row query (prepared once into *cache) in its own short read-only snapshot
 * transaction: the MON$ tables are a snapshot taken once per transaction. On success the
 * row is in (*cache)'s columns until the next call. */
static int query_row(fb_conn *c, fb_stmt **cache, const char *sql, const dg_value *params,
                     dg_err *err)
{
    static const char tpb[] = {isc_tpb_version3, isc_tpb_read, isc_tpb_concurrency, isc_tpb_wait};
    int rc;
    if (!*cache && (rc = fb_stmt_prepare(c, sql, cache, err)) != 0)
        return rc;
    fb_stmt *s = *cache;
    isc_tr_handle t = 0;
    if ((rc = fb_tx_start(c, &t, tpb, sizeof tpb, err)) != 0)
        return rc;
    rc = fb_stmt_run(s, params, &t, TXK_LOCAL, err);
    if (rc == 0) {
        ISC_STATUS r = isc_dsql_fetch(c->sv, &s->h, SQL_DIALECT, s->out);
        if (r == 100)
            rc = dg_err_fail(err, DG_E_NOTFOUND, "no row from: %s", sql);
        else if (r)
            rc = fb_error(c->sv, err, NULL);
    }
    fb_cursor_close(s);
    if (rc == 0 && isc_commit_transaction(c->sv, &t))
        rc = fb_error(c->sv, err, NULL);
    fb_tx_abandon(&t);
    return rc;
}

static int64_t col_int(fb_stmt *s, int i)
{
    dg_value v;
    int64_t x;
    fb_column(&s->base, i, &v);
    return dg_value_as_int(&v, &x) ? x : -1;
}

static void col_text(fb_stmt *s, int i, char *buf, size_t len)
{
    dg_value v;
    fb_column(&s->base, i, &v);
    dg_value_format(&v, buf, len);
    /* CHAR columns of the MON$ tables come blank-padded */
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ')
        buf[--n] = '\0';
}

int fb_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    out->cache_hits = out->cache_misses = out->pages_written = -1;
    /* Firebird counts started transactions (MON$NEXT_TRANSACTION), not commits */
    out->commits = out->rollbacks = -1;
    out->db_size_bytes = -1;
    int rc = query_row(c, &c->q_stats,
                       "SELECT d.MON$PAGES * d.MON$PAGE_SIZE, i.MON$PAGE_FETCHES, i.MON$PAGE_READS, "
                       "i.MON$PAGE_WRITES FROM MON$DATABASE d JOIN MON$IO_STATS i ON i.MON$STAT_ID = "
                       "d.MON$STAT_ID",
                       NULL, err);
    if (rc)
        return rc;
    fb_stmt *s = c->q_stats;
    out->db_size_bytes = col_int(s, 0);
    /* The database row counts for the whole database only where the page cache is shared
     * (SuperServer); with a cache per attachment (Classic, SuperClassic) it is this
     * attachment's own, and the runner adds up the terminals' (fb_conn_cache_stats). */
    if (c->db_class != isc_info_db_class_server_access)
        return 0;
    int64_t fetches = col_int(s, 1), reads = col_int(s, 2);
    if (fetches >= 0 && reads >= 0) {
        out->cache_hits = fetches - reads;
        out->cache_misses = reads;
    }
    out->pages_written = col_int(s, 3);
    return 0;
}

/* Classic and SuperClassic: this attachment's page fetches and reads (its own cache), read
 * by the terminal's thread at interval boundaries; -1 where the cache is shared. */
void fb_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses)
{
    fb_conn *c = (fb_conn *)conn;
    static const char items[] = {isc_info_fetches, isc_info_reads, isc_info_end};
    char buf[64];
    int64_t fetches = -1, reads = -1;
    *hits = *misses = -1;
    if (c->db_class == isc_info_db_class_server_access ||
        isc_database_info(c->sv, &c->db, sizeof items, items, sizeof buf, buf))
        return;
    for (const char *p = buf; p < buf + sizeof buf - 3 && *p != isc_info_end;) {
        short len = (short)isc_vax_integer(p + 1, 2);
        if (len < 0 || p + 3 + len > buf + sizeof buf)
            break;
        int64_t v = isc_vax_integer(p + 3, len);
        if (*p == isc_info_fetches)
            fetches = v;
        else if (*p == isc_info_reads)
            reads = v;
        p += 3 + len;
    }
    if (fetches >= 0 && reads >= 0) {
        *hits = fetches - reads;
        *misses = reads;
    }
}

int fb_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    memset(out, 0, sizeof *out);
    const char *build = c->build;
    int rc = query_row(c, &c->q_info,
                       "SELECT rdb$get_context('SYSTEM', 'ENGINE_VERSION'), d.MON$PAGE_BUFFERS, "
                       "d.MON$PAGE_SIZE, d.MON$FORCED_WRITES, d.MON$ODS_MAJOR || '.' || d.MON$ODS_MINOR, "
                       "d.MON$SWEEP_INTERVAL, d.MON$SQL_DIALECT, d.MON$READ_ONLY, d.MON$OWNER, "
                       "d.MON$DATABASE_NAME, a.MON$REMOTE_PROTOCOL, cs.RDB$CHARACTER_SET_NAME, "
                       "d.MON$OLDEST_TRANSACTION, d.MON$NEXT_TRANSACTION, a.MON$SERVER_PID, "
                       "(SELECT COUNT(DISTINCT MON$SERVER_PID) FROM MON$ATTACHMENTS "
                       "WHERE MON$SYSTEM_FLAG = 0) "
                       "FROM MON$DATABASE d CROSS JOIN MON$ATTACHMENTS a "
                       "LEFT JOIN RDB$CHARACTER_SETS cs ON cs.RDB$CHARACTER_SET_ID = a.MON$CHARACTER_SET_ID "
                       "WHERE a.MON$ATTACHMENT_ID = CURRENT_CONNECTION",
                       NULL, err);
    if (rc)
        return rc;
    fb_stmt *s = c->q_info;
    char v[128], buf[128];
    col_text(s, 0, v, sizeof v);
    snprintf(out->version, sizeof out->version, "Firebird %s%s%s%s", v, build[0] ? " (" : "", build,
             build[0] ? ")" : "");
    static const struct {
        const char *name;
        int col;
    } cols[] = {{"page_buffers", 1}, {"page_size", 2},     {"forced_writes", 3},
                {"ods_version", 4},  {"sweep_interval", 5}, {"sql_dialect", 6},
                {"read_only", 7},    {"owner", 8},          {"database", 9},
                {"protocol", 10},    {"charset", 11},       {"oldest_transaction", 12},
                {"next_transaction", 13}};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        dg_value val;
        fb_column(&s->base, cols[i].col, &val);
        if (cols[i].col == 10 && val.type == DG_V_NULL)
            snprintf(buf, sizeof buf, "embedded");
        else if (cols[i].col == 3 || cols[i].col == 7)
            snprintf(buf, sizeof buf, "%s", col_int(s, cols[i].col) == 1 ? "on" : "off");
        else
            col_text(s, cols[i].col, buf, sizeof buf);
        dg_server_info_add(out, cols[i].name, buf);
    }
    /* Super shares one page cache (db class "server access"); Classic and SuperClassic give
     * each attachment its own, and Classic runs one process per attachment. */
    const char *mode = "unknown";
    if (c->db_class == isc_info_db_class_server_access)
        mode = "Super";
    else if (c->db_class == isc_info_db_class_classic_access)
        mode = col_int(s, 15) > 1 ? "Classic" : "SuperClassic or Classic";
    dg_server_info_add(out, "server_mode", mode);
    dg_server_info_add(out, "page_cache", c->db_class == isc_info_db_class_server_access
                                              ? "shared"
                                              : "per attachment");
    if (c->o.buffers > 0) {
        snprintf(buf, sizeof buf, "%d", c->o.buffers);
        dg_server_info_add(out, "buffers_requested", buf);
    }
    snprintf(buf, sizeof buf, "%s record_version wait",
             fbi_names[c->o.isolation]);
    if (c->o.isolation != FBI_READ_COMMITTED)
        snprintf(buf, sizeof buf, "%s wait", fbi_names[c->o.isolation]);
    dg_server_info_add(out, "default_isolation", buf);
    snprintf(buf, sizeof buf, "%d", c->o.lock_timeout_s);
    dg_server_info_add(out, "lock_timeout_s", buf);
    dg_server_info_add(out, "read_tx", c->o.read_shared ? "shared" : "statement");
    dg_server_info_add(out, "bulk", c->o.bulk == BULK_BLOCK ? "execute block" : "prepared insert");
    return 0;
}

int fb_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    int rc;
    if (!c->q_exists &&
        (rc = fb_stmt_prepare(c,
                           "SELECT COUNT(*) FROM RDB$RELATIONS WHERE RDB$VIEW_BLR IS NULL AND "
                           "(RDB$RELATION_NAME = ? OR RDB$RELATION_NAME = UPPER(?))",
                           &c->q_exists, err)) != 0)
        return rc;
    dg_value p[2] = {dg_vstr(table), dg_vstr(table)};
    if ((rc = fb_execute(&c->q_exists->base, p, 2, err)) != 0)
        return rc;
    int r = fb_fetch(&c->q_exists->base, err);
    if (r < 0)
        return r;
    int64_t n = r == 1 ? col_int(c->q_exists, 0) : 0;
    fb_reset(&c->q_exists->base);
    *out = n > 0;
    return 0;
}

