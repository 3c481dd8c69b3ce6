/*
 * firebird_stats.c - the Firebird backend's statistics, server facts and object statistics
 * (dg_stats, dg_server_info_get, conn_cache_stats, dg_table_exists, object_stats); the
 * connection, its statements and errors are firebird.c's (firebird_int.h).
 *
 * Statistics: dg_fb.isc_database_info (the database class: a page cache shared by all
 * attachments in SuperServer, one per attachment in Classic and SuperClassic; the
 * engine's version; an attachment's own page fetches and reads), and the MON$ tables,
 * read in a short read-only snapshot transaction of their own because Firebird takes a
 * MON$ snapshot once per transaction: MON$DATABASE (size = MON$PAGES * MON$PAGE_SIZE,
 * page buffers, forced writes, ODS, sweep interval, owner, transaction markers),
 * MON$IO_STATS of the database (MON$STAT_GROUP 0 via MON$STAT_ID: fetches, reads,
 * writes) and MON$ATTACHMENTS. Firebird keeps no counter of commits (MON$NEXT_TRANSACTION
 * counts started transactions, dbgauge's own read and statistics transactions
 * included), so commits and rollbacks are -1. The MON$ rows cover the whole database
 * only for the owner, SYSDBA and RDB$ADMIN; a plain user sees its own attachment.
 *
 * The monitor connection (stats, server_info, table_exists) attaches again after a server
 * restart (dg_backend_with_reconnect, through reopen here).
 *
 * Layout: statistics and server facts; table and index statistics (gstat through the
 * Services API); table_exists; the monitor connection's reconnect and the entry points.
 */
#include "backend/firebird_int.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- statistics and server facts -------------------------------------------------------- */

static const char *const fbi_names[] = {"read_committed", "snapshot", "serializable"};

static int read_stats(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    dg_dbstats *out = arg;
    out->cache_hits = out->cache_misses = out->pages_written = -1;
    /* Firebird counts started transactions (MON$NEXT_TRANSACTION), not commits */
    out->commits = out->rollbacks = -1;
    out->db_size_bytes = -1;
    int rc = dg_firebird_query_row(c, &c->q_stats,
                       "SELECT d.MON$PAGES * d.MON$PAGE_SIZE, i.MON$PAGE_FETCHES, i.MON$PAGE_READS, "
                       "i.MON$PAGE_WRITES FROM MON$DATABASE d JOIN MON$IO_STATS i ON i.MON$STAT_ID = "
                       "d.MON$STAT_ID",
                       NULL, err);
    if (rc)
        return rc;
    fb_stmt *s = c->q_stats;
    out->db_size_bytes = dg_firebird_col_int(s, 0);
    /* The database row counts for the whole database only where the page cache is shared
     * (SuperServer); with a cache per attachment (Classic, SuperClassic) it is this
     * attachment's own, and the runner adds up the terminals' (dg_firebird_conn_cache_stats). */
    if (c->db_class != isc_info_db_class_server_access)
        return 0;
    int64_t fetches = dg_firebird_col_int(s, 1), reads = dg_firebird_col_int(s, 2);
    if (fetches >= 0 && reads >= 0) {
        out->cache_hits = fetches - reads;
        out->cache_misses = reads;
    }
    out->pages_written = dg_firebird_col_int(s, 3);
    return 0;
}

/* Classic and SuperClassic: this attachment's page fetches and reads (its own cache), read
 * by the terminal's thread at interval boundaries; -1 where the cache is shared. */
void dg_firebird_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses)
{
    fb_conn *c = (fb_conn *)conn;
    static const char items[] = {isc_info_fetches, isc_info_reads, isc_info_end};
    char buf[64];
    int64_t fetches = -1, reads = -1;
    *hits = *misses = -1;
    if (c->db_class == isc_info_db_class_server_access ||
        dg_fb.isc_database_info(c->sv, &c->db, sizeof items, items, sizeof buf, buf))
        return;
    for (const char *p = buf; p < buf + sizeof buf - 3 && *p != isc_info_end;) {
        short len = (short)dg_fb.isc_vax_integer(p + 1, 2);
        if (len < 0 || p + 3 + len > buf + sizeof buf)
            break;
        int64_t v = dg_fb.isc_vax_integer(p + 3, len);
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

/* The attachment's id on the server (isc_info_attachment_id), -1 when it does not say. */
static int64_t attachment_id(fb_conn *c, isc_db_handle *db)
{
    static const char items[] = {isc_info_attachment_id, isc_info_end};
    char buf[32];
    if (dg_fb.isc_database_info(c->sv, db, sizeof items, items, sizeof buf, buf) || buf[0] != isc_info_attachment_id)
        return -1;
    short len = (short)dg_fb.isc_vax_integer(buf + 1, 2);
    if (len <= 0 || len > 8)
        return -1;
    return (int64_t)dg_fb.isc_vax_integer(buf + 3, len);
}

/* A database class of "classic access" (a page cache per attachment) is served either by
 * SuperClassic (one process, a thread per attachment) or Classic (a process per
 * attachment). The process serving an attachment is MON$SERVER_PID: a second, short
 * attachment is served by another process only in Classic. Counting the server
 * processes of all attachments would not tell: any local embedded user of the database
 * adds one in either mode. Through the embedded engine both attachments live in this
 * process, which is SuperClassic's shape. */
static const char *classic_or_superclassic(fb_conn *c)
{
    isc_db_handle probe = 0;
    dg_err e = DG_ERR_INIT;
    if (dg_firebird_open_session(c, &probe, &e))
        return "SuperClassic or Classic";
    const char *mode = "SuperClassic or Classic";
    int64_t id = attachment_id(c, &probe);
    fb_stmt *q = NULL;
    if (id >= 0) {
        dg_value p = dg_vint(id);
        if (dg_firebird_query_row(c, &q,
                      "SELECT COUNT(DISTINCT MON$SERVER_PID) FROM MON$ATTACHMENTS "
                      "WHERE MON$ATTACHMENT_ID = CURRENT_CONNECTION OR MON$ATTACHMENT_ID = ?",
                      &p, &e) == 0) {
            int64_t n = dg_firebird_col_int(q, 0);
            mode = n == 2 ? "Classic" : n == 1 ? "SuperClassic" : mode;
        }
    }
    dg_firebird_stmt_destroy(q);
    ISC_STATUS_ARRAY l;
    dg_fb.isc_detach_database(l, &probe);
    return mode;
}

static int read_server_info(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    dg_server_info *out = arg;
    memset(out, 0, sizeof *out);
    const char *build = c->build;
    int rc = dg_firebird_query_row(c, &c->q_info,
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
    dg_firebird_col_text(s, 0, v, sizeof v);
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
        dg_column(&s->base, cols[i].col, &val);
        if (cols[i].col == 10 && val.type == DG_V_NULL)
            snprintf(buf, sizeof buf, "embedded");
        else if (cols[i].col == 3 || cols[i].col == 7)
            snprintf(buf, sizeof buf, "%s", dg_firebird_col_int(s, cols[i].col) == 1 ? "on" : "off");
        else
            dg_firebird_col_text(s, cols[i].col, buf, sizeof buf);
        dg_server_info_add(out, cols[i].name, buf);
    }
    /* The wire of this attachment (NULL when embedded): what encryption and compression the
     * client and the server agreed on, whatever either asked for. A query of its own:
     * servers before 3.0.4 do not know these variables, and lose only these two facts. */
    dg_err werr = DG_ERR_INIT;
    if (dg_firebird_query_row(c, &c->q_wire,
                  "SELECT rdb$get_context('SYSTEM', 'WIRE_ENCRYPTED'), "
                  "rdb$get_context('SYSTEM', 'WIRE_COMPRESSED') FROM RDB$DATABASE",
                  NULL, &werr) == 0) {
        static const char *const wire[] = {"wire_encrypted", "wire_compressed"};
        for (int i = 0; i < 2; i++) {
            dg_value val;
            dg_column(&c->q_wire->base, i, &val);
            if (val.type == DG_V_NULL)
                continue;
            dg_firebird_col_text(c->q_wire, i, v, sizeof v);
            dg_server_info_add(out, wire[i], !strcmp(v, "TRUE") ? "on" : "off");
        }
    }
    /* Super shares one page cache (db class "server access"); Classic and SuperClassic give
     * each attachment its own, and Classic runs one process per attachment. */
    const char *mode = "unknown";
    if (c->db_class == isc_info_db_class_server_access)
        mode = "Super";
    else if (c->db_class == isc_info_db_class_classic_access)
        mode = classic_or_superclassic(c);
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
    if (c->o.load_async)
        dg_server_info_add(out, "load_forced_writes", c->fw_restore ? "off during the load" : "off (were off)");
    const char *why = dg_firebird_bulk_why(c); /* a run's connection: what the load chose */
    if (c->o.bulk == BULK_EXTERNAL) {
        dg_server_info_add(out, "bulk", "external file");
        dg_server_info_add(out, "bulk_external_dir", c->o.external_dir);
    } else {
        dg_server_info_add(out, "bulk", c->o.bulk == BULK_BLOCK    ? "execute block"
                                         : c->o.bulk == BULK_INSERT ? "prepared insert"
                                                                    : "auto (decided by a load)");
    }
    if (why[0])
        dg_server_info_add(out, "bulk_why", why);
    return 0;
}

/* ---- table and index statistics: gstat through the Services API -------------------------- */

/* The service manager of the database's server ("host/port:service_mgr", or the embedded
 * engine's) and the database's path as that server knows it. */
static void service_names(const fb_conn *c, char *svc, size_t svclen, const char **db)
{
    const char *colon = c->remote ? strchr(c->target[0] == '[' ? strchr(c->target, ']') : c->target, ':')
                                  : NULL;
    if (colon) {
        snprintf(svc, svclen, "%.*s:service_mgr", (int)(colon - c->target), c->target);
        *db = colon + 1;
    } else {
        snprintf(svc, svclen, "service_mgr");
        *db = c->target;
    }
}

/* "...name: 123..." in line: the number after name, -1 when absent. */
static int64_t stat_field(const char *line, const char *name)
{
    const char *p = strstr(line, name);
    if (!p)
        return -1;
    p += strlen(name);
    while (*p == ' ' || *p == '\t' || *p == ':')
        p++;
    return *p >= '0' && *p <= '9' ? strtoll(p, NULL, 10) : -1;
}

static bool wanted_table(const char *const *tables, const char *name, const char **as)
{
    for (const char *const *t = tables; *t; t++)
        if (!strcasecmp(*t, name)) {
            *as = *t;
            return true;
        }
    return false;
}

/* gstat -d -i -r's report, read line by line: a table's heading at the line's start
 * ("CUSTACC (1979)"), its counts below it, then an indented "Index NAME (n)" heading per
 * index with "depth: D, leaf buckets: L, nodes: N". A table's bytes are its pointer, data
 * and blob pages; an index's, its leaf pages (the levels above add about 1/fan-out). */
int dg_firebird_object_stats(dg_conn *conn, const char *const *tables, dg_objstat **out, int *n,
                             dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    char svcname[1100];
    const char *db;
    service_names(c, svcname, sizeof svcname, &db);
    pblock spb = {.n = 0};
    spb.buf[spb.n++] = isc_spb_version;
    spb.buf[spb.n++] = isc_spb_current_version;
    if (c->user && *c->user)
        dg_firebird_pb_str(&spb, isc_spb_user_name, c->user);
    if (c->password && *c->password)
        dg_firebird_pb_str(&spb, isc_spb_password, c->password);
    dg_firebird_pb_wire_config(&spb, isc_spb_config, &c->o);
    size_t dblen = strlen(db);
    char req[1100];
    size_t rn = 0;
    if (spb.overflow || dblen > sizeof req - 16)
        return dg_err_fail(err, DG_E_INVAL, "Firebird service parameters are too long");
    req[rn++] = isc_action_svc_db_stats;
    req[rn++] = isc_spb_dbname;
    req[rn++] = (char)(dblen & 0xff);
    req[rn++] = (char)(dblen >> 8);
    memcpy(req + rn, db, dblen);
    rn += dblen;
    uint32_t opts = isc_spb_sts_data_pages | isc_spb_sts_idx_pages | isc_spb_sts_record_versions;
    req[rn++] = isc_spb_options;
    for (int i = 0; i < 4; i++)
        req[rn++] = (char)((opts >> (8 * i)) & 0xff);

    isc_svc_handle svc = 0;
    if (dg_fb.isc_service_attach(c->sv, 0, svcname, &svc, (unsigned short)spb.n, spb.buf) ||
        dg_fb.isc_service_start(c->sv, &svc, NULL, (unsigned short)rn, req)) {
        int rc = dg_firebird_fill_error(c, NULL, NULL, err);
        if (svc) {
            ISC_STATUS_ARRAY l;
            dg_fb.isc_service_detach(l, &svc);
        }
        dg_err_prefix(err, "cannot read the database's statistics (gstat)");
        return rc;
    }
    /* the whole report (a few hundred bytes per table), then its lines */
    static const char items[] = {isc_info_svc_to_eof};
    char buf[16384];
    dg_strbuf text = DG_STRBUF_INIT;
    int rc = 0;
    for (;;) {
        if (dg_fb.isc_service_query(c->sv, &svc, NULL, 0, NULL, sizeof items, items, sizeof buf, buf)) {
            rc = dg_firebird_fill_error(c, NULL, NULL, err);
            break;
        }
        if (buf[0] != isc_info_svc_to_eof)
            break;
        int len = (int)dg_fb.isc_vax_integer(buf + 1, 2);
        if (len <= 0 || len > (int)sizeof buf - 4)
            break; /* nothing more: the end */
        dg_sb_addn(&text, buf + 3, (size_t)len);
    }
    ISC_STATUS_ARRAY l;
    dg_fb.isc_service_detach(l, &svc);
    if (rc) {
        dg_sb_free(&text);
        dg_err_prefix(err, "cannot read the database's statistics (gstat)");
        return rc;
    }
    int64_t page_size = -1;
    dg_objstat *table = NULL; /* the wanted table being read; NULL while skipping */
    int table_i = -1, index_i = -1;
    const char *all = text.buf ? text.buf : "";
    for (const char *p = all; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol ? eol + 1 : p + strlen(p);
        if (len == 0)
            continue;
        char name[96];
        int id;
        if (page_size < 0 && strstr(line, "Page size"))
            page_size = stat_field(line, "Page size");
        if (line[0] != ' ' && line[0] != '\t' && sscanf(line, "%95s (%d)", name, &id) == 2 &&
            line[strlen(line) - 1] == ')') {
            const char *as;
            table = NULL;
            index_i = -1;
            if (wanted_table(tables, name, &as)) {
                *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
                table_i = (*n)++;
                table = &(*out)[table_i];
                memset(table, 0, sizeof *table);
                snprintf(table->table, sizeof table->table, "%s", as);
                snprintf(table->name, sizeof table->name, "%s", name);
                table->rows = -1;
                table->depth = -1;
            }
            continue;
        }
        if (!table)
            continue;
        table = &(*out)[table_i]; /* the array may have moved */
        const char *t = line + strspn(line, " \t");
        if (sscanf(t, "Index %95s (%d)", name, &id) == 2) {
            *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
            index_i = (*n)++;
            dg_objstat *ix = &(*out)[index_i];
            memset(ix, 0, sizeof *ix);
            snprintf(ix->table, sizeof ix->table, "%s", (*out)[table_i].table);
            snprintf(ix->name, sizeof ix->name, "%s", name);
            ix->index = true;
            ix->rows = ix->bytes = -1;
            ix->depth = -1;
            continue;
        }
        table = &(*out)[table_i];
        if (index_i >= 0) {
            dg_objstat *ix = &(*out)[index_i];
            int64_t v;
            if ((v = stat_field(t, "depth")) >= 0)
                ix->depth = (int)v;
            if ((v = stat_field(t, "leaf buckets")) >= 0)
                ix->bytes = v; /* pages until the page size is applied */
            if ((v = stat_field(t, "nodes")) >= 0)
                ix->rows = v;
            continue;
        }
        int64_t v;
        if ((v = stat_field(t, "total records")) >= 0)
            table->rows = v;
        if ((v = stat_field(t, "Pointer pages")) >= 0)
            table->bytes += v;
        if ((v = stat_field(t, "Data pages")) >= 0)
            table->bytes += v;
        if ((v = stat_field(t, "blob pages")) >= 0)
            table->bytes += v;
    }
    dg_sb_free(&text);
    for (int i = 0; i < *n; i++) /* pages to bytes */
        (*out)[i].bytes = page_size > 0 && (*out)[i].bytes >= 0 ? (*out)[i].bytes * page_size : -1;
    return 0;
}

typedef struct exists_arg {
    const char *table;
    bool *out;
} exists_arg;

static int read_table_exists(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    const char *table = ((exists_arg *)arg)->table;
    bool *out = ((exists_arg *)arg)->out;
    int rc;
    if (!c->q_exists &&
        (rc = dg_firebird_stmt_prepare(c,
                           "SELECT COUNT(*) FROM RDB$RELATIONS WHERE RDB$VIEW_BLR IS NULL AND "
                           "(RDB$RELATION_NAME = ? OR RDB$RELATION_NAME = UPPER(?))",
                           &c->q_exists, err)) != 0)
        return rc;
    dg_value p[2] = {dg_vstr(table), dg_vstr(table)};
    if ((rc = dg_execute(&c->q_exists->base, p, 2, err)) != 0)
        return rc;
    int r = dg_fetch(&c->q_exists->base, err);
    if (r < 0)
        return r;
    int64_t n = r == 1 ? dg_firebird_col_int(c->q_exists, 0) : 0;
    dg_stmt_reset(&c->q_exists->base);
    *out = n > 0;
    return 0;
}

/* ---- the monitor connection: attaching again ------------------------------------------- */

/* Forgets everything that belonged to the attachment (cursors, transactions, the cached
 * monitor queries) and detaches quietly: after a server restart every call on it fails. */
static void drop_session(fb_conn *c)
{
    c->auto_owner = NULL;
    for (fb_stmt *s = c->stmts; s; s = s->next)
        dg_firebird_cursor_close(s);
    dg_firebird_stmt_destroy(c->q_stats);
    dg_firebird_stmt_destroy(c->q_info);
    dg_firebird_stmt_destroy(c->q_exists);
    dg_firebird_stmt_destroy(c->q_wire);
    c->q_stats = c->q_info = c->q_exists = c->q_wire = NULL;
    dg_firebird_tx_abandon(&c->auto_tx);
    dg_firebird_tx_abandon(&c->tx);
    dg_firebird_tx_abandon(&c->ro_tx);
    if (c->db) {
        ISC_STATUS_ARRAY l;
        dg_fb.isc_detach_database(l, &c->db);
        c->db = 0; /* a dead attachment's handle may stay behind in the client: dropped */
    }
}

/* Replaces the monitor's attachment with a new one (dg_backend_with_reconnect calls it,
 * never inside a transaction). Statements prepared by the caller on the old attachment
 * stay invalid; the monitor's own queries are prepared again when next used. */
static int reopen(dg_conn *conn, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    isc_db_handle fresh = 0;
    int rc = dg_firebird_open_session(c, &fresh, err);
    if (rc)
        return rc;
    drop_session(c);
    c->db = fresh;
    dg_firebird_read_db_info(c);
    return 0;
}

/* Runs fn on the monitor connection, which attaches again after a server restart (a dead
 * attachment shows only when used: fn finds out). */
static int with_reconnect(fb_conn *c, int (*fn)(dg_conn *, void *, dg_err *), void *arg,
                          dg_err *err)
{
    return dg_backend_with_reconnect(&c->base, c->db != 0, reopen, fn, arg, err);
}

int dg_firebird_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    return with_reconnect((fb_conn *)conn, read_stats, out, err);
}

int dg_firebird_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    return with_reconnect((fb_conn *)conn, read_server_info, out, err);
}

int dg_firebird_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    exists_arg a = {table, out};
    return with_reconnect((fb_conn *)conn, read_table_exists, &a, err);
}
