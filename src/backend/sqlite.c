/*
 * sqlite.c - the embedded SQLite backend (the default: no server needed).
 *
 * URL: sqlite:PATH, sqlite::memory:, with ?NAME=VALUE parameters that become PRAGMAs
 * (cache_size, synchronous, mmap_size, locking_mode, ...) except busy_timeout (ms); the
 * ones treated specially are in backend_options, which checks their values first.
 * Defaults: WAL journal (set on file databases), busy timeout 30 s, multi-thread mode
 * (one connection per thread, no per-call mutex).
 *
 * Layout: errors (classification, fill_error, exec_sql), connection (open + settings),
 * statements, transactions (BEGIN/COMMIT/ROLLBACK kept prepared per connection), bulk
 * load (one prepared INSERT in large transactions), statistics and server facts, the
 * descriptor.
 */
#include "backend/backend.h"
#include "backend/dialect.h"

#include "core/hot.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const dg_backend dg_backend_sqlite;

#define DEFAULT_BUSY_TIMEOUT_MS 30000
#define BULK_COMMIT_ROWS 50000

typedef struct sl_conn {
    dg_conn base; /* must be first */
    sqlite3 *db;
    char *path;
    sqlite3_stmt *tx_begin, *tx_begin_immediate, *tx_commit, *tx_rollback;
    int busy_timeout_ms;
} sl_conn;

typedef struct sl_stmt {
    dg_stmt base; /* must be first */
    sqlite3_stmt *st;
    int pending; /* 1: execute() stepped onto a row that fetch() has not returned yet;
                    0: no more rows; -1: fetch must step */
    bool stepped; /* stepped since the last sqlite3_reset: reset before binding again */
} sl_stmt;

typedef struct sl_bulk {
    dg_bulk base; /* must be first */
    sqlite3_stmt *ins;
    int ncols;
    uint64_t in_tx_rows;
} sl_bulk;

/* ---- errors ----------------------------------------------------------------------------- */

static const char *rc_name(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_ERROR: return "SQLITE_ERROR";
    case SQLITE_BUSY: return "SQLITE_BUSY";
    case SQLITE_LOCKED: return "SQLITE_LOCKED";
    case SQLITE_NOMEM: return "SQLITE_NOMEM";
    case SQLITE_READONLY: return "SQLITE_READONLY";
    case SQLITE_IOERR: return "SQLITE_IOERR";
    case SQLITE_CORRUPT: return "SQLITE_CORRUPT";
    case SQLITE_FULL: return "SQLITE_FULL";
    case SQLITE_CANTOPEN: return "SQLITE_CANTOPEN";
    case SQLITE_CONSTRAINT: return "SQLITE_CONSTRAINT";
    case SQLITE_MISMATCH: return "SQLITE_MISMATCH";
    case SQLITE_RANGE: return "SQLITE_RANGE";
    case SQLITE_NOTADB: return "SQLITE_NOTADB";
    case SQLITE_SCHEMA: return "SQLITE_SCHEMA";
    case SQLITE_INTERRUPT: return "SQLITE_INTERRUPT";
    }
    return "SQLITE";
}

static dg_errclass classify(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_SCHEMA:
        return DG_EC_RETRY;
    case SQLITE_CONSTRAINT:
        return DG_EC_CONSTRAINT;
    case SQLITE_ERROR:
    case SQLITE_MISMATCH:
    case SQLITE_RANGE:
    case SQLITE_TOOBIG:
        return DG_EC_USER;
    default:
        return DG_EC_FATAL;
    }
}

/* Fills err (NULL allowed) from the connection's current error after result code rc: the
 * message, the extended result code and the class. No connection is ever lost here, so
 * no outcome is unknown. Returns DG_E_DB. */
static int fill_error(sl_conn *c, int rc, dg_err *err)
{
    int ext = c->db ? sqlite3_extended_errcode(c->db) : rc;
    if ((ext & 0xff) != (rc & 0xff))
        ext = rc;
    const char *msg = c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc);
    /* SQLite leaves no SQLSTATE; name the result code instead (shown in brackets). */
    dg_err_set(err, DG_E_DB, classify(ext), ext, NULL, "%s (%s)", msg, rc_name(ext));
    return DG_E_DB;
}

/* Runs SQL text (no parameters), discarding any rows. */
static int exec_sql(sl_conn *c, const char *sql, dg_err *err)
{
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : fill_error(c, rc, err);
}

/* ---- connection ------------------------------------------------------------------------- */

/* A PRAGMA from a URL parameter or --conn setting; busy_timeout is the C API call. */
static int apply_setting(sl_conn *c, const char *name, const char *value, dg_err *err)
{
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return dg_err_fail(err, DG_E_INVAL, "invalid SQLite setting name '%s'", name);
    for (const char *p = value; *p; p++)
        if (*p == ';' || *p == '\'' || *p == '"')
            return dg_err_fail(err, DG_E_INVAL, "invalid value for SQLite setting '%s'", name);
    if (!strcmp(name, "busy_timeout")) {
        c->busy_timeout_ms = atoi(value);
        sqlite3_busy_timeout(c->db, c->busy_timeout_ms);
        return 0;
    }
    /* SQLite ignores a PRAGMA it does not know: a typo would pass unnoticed */
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_pragma_list WHERE name = '%s'", name);
    sqlite3_stmt *q = NULL;
    bool known = sqlite3_prepare_v2(c->db, sql, -1, &q, NULL) == SQLITE_OK &&
                 sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) > 0;
    sqlite3_finalize(q);
    if (!known)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "unknown SQLite setting '%s' (neither a dbgauge setting nor a PRAGMA "
                          "this SQLite knows; 'dbgauge list' shows the settings)",
                          name);
    snprintf(sql, sizeof sql, "PRAGMA %s=%s", name, value);
    int rc = exec_sql(c, sql, err);
    if (rc)
        dg_err_prefix(err, "setting '%s=%s'", name, value);
    return rc;
}

static int prep(sl_conn *c, const char *sql, sqlite3_stmt **out, dg_err *err)
{
    int rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL);
    if (rc != SQLITE_OK)
        return fill_error(c, rc, err);
    return 0;
}

static void sl_close(dg_conn *conn)
{
    sl_conn *c = (sl_conn *)conn;
    sqlite3_finalize(c->tx_begin);
    sqlite3_finalize(c->tx_begin_immediate);
    sqlite3_finalize(c->tx_commit);
    sqlite3_finalize(c->tx_rollback);
    sqlite3_close_v2(c->db);
    free(c->path);
    dg_conn_base_free(&c->base);
    free(c);
}

static bool has_setting(const dg_url *url, const dg_connopts *opts, const char *name)
{
    for (int i = 0; i < url->nparams; i++)
        if (!strcmp(url->params[i].name, name))
            return true;
    for (int i = 0; i < opts->nsettings; i++)
        if (!strcmp(opts->settings[i].name, name))
            return true;
    return false;
}

static int sl_connect(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    if (!url->path || !*url->path)
        return dg_err_fail(err, DG_E_INVAL, "sqlite URL needs a file path: sqlite:PATH");
    int rc = dg_backend_check_settings(&dg_backend_sqlite, url, opts, err);
    if (rc)
        return rc;
    sl_conn *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(url->path);
    bool memory = !strcmp(url->path, ":memory:");
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    rc = sqlite3_open_v2(url->path, &c->db, flags, NULL);
    if (rc != SQLITE_OK) {
        dg_err_set(err, DG_E_DB, DG_EC_FATAL, rc, NULL, "cannot open SQLite database '%s': %s",
                   url->path, c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
        goto fail;
    }
    sqlite3_extended_result_codes(c->db, 1);
    c->busy_timeout_ms = DEFAULT_BUSY_TIMEOUT_MS;
    sqlite3_busy_timeout(c->db, c->busy_timeout_ms);
    /* Reading the schema surfaces "file is not a database" now rather than mid-run. */
    if (exec_sql(c, "SELECT count(*) FROM sqlite_master", err)) {
        dg_err_prefix(err, "cannot open SQLite database '%s'", url->path);
        goto fail;
    }
    if (!memory && !has_setting(url, opts, "journal_mode")) {
        if (exec_sql(c, "PRAGMA journal_mode=WAL", err))
            goto fail;
    }
    if (opts->bulk_session && !has_setting(url, opts, "synchronous")) {
        if (exec_sql(c, "PRAGMA synchronous=OFF", err))
            goto fail;
    }
    for (int i = 0; i < url->nparams; i++)
        if (apply_setting(c, url->params[i].name, url->params[i].value, err))
            goto fail;
    for (int i = 0; i < opts->nsettings; i++)
        if (apply_setting(c, opts->settings[i].name, opts->settings[i].value, err))
            goto fail;
    if (prep(c, "BEGIN", &c->tx_begin, err) || prep(c, "BEGIN IMMEDIATE", &c->tx_begin_immediate, err) ||
        prep(c, "COMMIT", &c->tx_commit, err) || prep(c, "ROLLBACK", &c->tx_rollback, err))
        goto fail;
    if (!memory)
        c->base.data_path = xstrdup(url->path);
    *out = &c->base;
    return 0;
fail:
    sl_close(&c->base);
    return DG_E_DB;
}

/* ---- statements ------------------------------------------------------------------------- */

static int sl_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, &tail);
    if (rc != SQLITE_OK)
        return fill_error(c, rc, err);
    if (!st)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "empty SQL statement");
    while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t' || *tail == '\r' || *tail == ';'))
        tail++;
    if (tail && *tail) {
        sqlite3_finalize(st);
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "more than one SQL statement in one command: %.60s", tail);
    }
    sl_stmt *s = xcalloc(1, sizeof *s);
    s->base.conn = conn;
    s->base.sql = xstrdup(sql);
    s->base.nparams = sqlite3_bind_parameter_count(st);
    s->st = st;
    *out = &s->base;
    return 0;
}

static void sl_stmt_free(dg_stmt *stmt)
{
    sl_stmt *s = (sl_stmt *)stmt;
    sqlite3_finalize(s->st);
    free(s->base.sql);
    free(s);
}

static int bind_value(sqlite3_stmt *st, int i, const dg_value *v)
{
    switch (v->type) {
    case DG_V_NULL:
        return sqlite3_bind_null(st, i);
    case DG_V_INT:
        return sqlite3_bind_int64(st, i, v->u.i);
    case DG_V_DOUBLE:
        return sqlite3_bind_double(st, i, v->u.d);
    case DG_V_NUMERIC: {
        double d;
        dg_value_as_double(v, &d);
        return sqlite3_bind_double(st, i, d);
    }
    case DG_V_TEXT:
        return sqlite3_bind_text(st, i, v->u.s.ptr, (int)v->u.s.len, SQLITE_STATIC);
    }
    return SQLITE_MISUSE;
}

static DG_HOT int sl_execute(dg_stmt *stmt, const dg_value *params, int n, dg_err *err)
{
    sl_stmt *s = (sl_stmt *)stmt;
    sl_conn *c = (sl_conn *)stmt->conn;
    if (s->stepped)
        sqlite3_reset(s->st);
    s->stepped = true;
    if (n != s->base.nparams)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "statement takes %d parameters, %d given", s->base.nparams, n);
    for (int i = 0; i < n; i++) {
        /* integers (keys, counts) are most parameters: no switch for them */
        int rc = params[i].type == DG_V_INT ? sqlite3_bind_int64(s->st, i + 1, params[i].u.i)
                                            : bind_value(s->st, i + 1, &params[i]);
        if (rc != SQLITE_OK) {
            fill_error(c, rc, err);
            dg_err_prefix(err, "binding parameter");
            return DG_E_DB;
        }
    }
    int rc = sqlite3_step(s->st);
    if (rc == SQLITE_ROW) {
        s->pending = 1;
        return 0;
    }
    s->pending = 0;
    if (rc == SQLITE_DONE)
        return 0;
    int r = fill_error(c, rc, err);
    sqlite3_reset(s->st);
    return r;
}

static DG_HOT int sl_fetch(dg_stmt *stmt, dg_err *err)
{
    sl_stmt *s = (sl_stmt *)stmt;
    if (s->pending == 1) {
        s->pending = -1;
        return 1;
    }
    if (s->pending == 0)
        return 0;
    int rc = sqlite3_step(s->st);
    if (rc == SQLITE_ROW)
        return 1;
    s->pending = 0;
    if (rc == SQLITE_DONE)
        return 0;
    int r = fill_error((sl_conn *)stmt->conn, rc, err);
    sqlite3_reset(s->st);
    return r;
}

static int sl_ncols(dg_stmt *stmt)
{
    return sqlite3_column_count(((sl_stmt *)stmt)->st);
}

static const char *sl_colname(dg_stmt *stmt, int i)
{
    return sqlite3_column_name(((sl_stmt *)stmt)->st, i);
}

static DG_HOT void sl_column(dg_stmt *stmt, int i, dg_value *out)
{
    sqlite3_stmt *st = ((sl_stmt *)stmt)->st;
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        *out = dg_vint(sqlite3_column_int64(st, i));
        break;
    case SQLITE_FLOAT:
        *out = dg_vdouble(sqlite3_column_double(st, i));
        break;
    case SQLITE_NULL:
        *out = dg_vnull();
        break;
    default: {
        const char *p = (const char *)sqlite3_column_text(st, i);
        *out = dg_vtext(p ? p : "", (size_t)sqlite3_column_bytes(st, i));
        break;
    }
    }
}

static int64_t sl_affected(dg_stmt *stmt)
{
    return sqlite3_changes(((sl_conn *)stmt->conn)->db);
}

static DG_HOT void sl_reset(dg_stmt *stmt)
{
    sl_stmt *s = (sl_stmt *)stmt;
    sqlite3_reset(s->st);
    s->pending = 0;
    s->stepped = false;
}

static int sl_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    return exec_sql((sl_conn *)conn, sql, err);
}

/* ---- transactions ---------------------------------------------------------------------- */

static int step_tx(sl_conn *c, sqlite3_stmt *st, dg_err *err)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return fill_error(c, rc, err);
    return 0;
}

static int sl_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    /* SQLite is serializable with one writer; a writer takes the lock up front so that it
     * waits in the busy handler instead of failing to upgrade a read snapshot. */
    return step_tx(c, tx && tx->write ? c->tx_begin_immediate : c->tx_begin, err);
}

static int sl_commit(dg_conn *conn, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    return step_tx(c, c->tx_commit, err);
}

static int sl_rollback(dg_conn *conn, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    if (sqlite3_get_autocommit(c->db))
        return 0; /* SQLite already rolled back (e.g. after SQLITE_FULL) */
    return step_tx(c, c->tx_rollback, err);
}

/* ---- bulk load -------------------------------------------------------------------------- */

static int sl_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                         dg_bulk **out, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    dg_strbuf sql = DG_STRBUF_INIT;
    dg_sql_insert(table, cols, ncols, &sql);
    sqlite3_stmt *ins = NULL;
    int rc = prep(c, dg_sb_str(&sql), &ins, err);
    dg_sb_free(&sql);
    if (rc)
        return rc;
    if (step_tx(c, c->tx_begin_immediate, err)) {
        sqlite3_finalize(ins);
        return DG_E_DB;
    }
    sl_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->ins = ins;
    b->ncols = ncols;
    *out = &b->base;
    return 0;
}

static int sl_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    sl_bulk *b = (sl_bulk *)bulk;
    sl_conn *c = (sl_conn *)bulk->conn;
    for (int i = 0; i < b->ncols; i++) {
        int rc = bind_value(b->ins, i + 1, &vals[i]);
        if (rc != SQLITE_OK) {
            fill_error(c, rc, err);
            dg_err_prefix(err, "bulk load");
            return DG_E_DB;
        }
        b->base.bytes += dg_value_bytes(&vals[i]);
    }
    int rc = sqlite3_step(b->ins);
    sqlite3_reset(b->ins);
    if (rc != SQLITE_DONE) {
        fill_error(c, rc, err);
        dg_err_prefix(err, "bulk load");
        return DG_E_DB;
    }
    b->base.rows++;
    /* Commit in slices so the WAL stays bounded and checkpoints can run. */
    if (++b->in_tx_rows >= BULK_COMMIT_ROWS) {
        b->in_tx_rows = 0;
        if (step_tx(c, c->tx_commit, err) || step_tx(c, c->tx_begin_immediate, err))
            return DG_E_DB;
    }
    return 0;
}

static int sl_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    sl_bulk *b = (sl_bulk *)bulk;
    sl_conn *c = (sl_conn *)bulk->conn;
    int rc = 0;
    sqlite3_finalize(b->ins);
    if (commit)
        rc = step_tx(c, c->tx_commit, err);
    else if (!sqlite3_get_autocommit(c->db))
        step_tx(c, c->tx_rollback, NULL);
    free(b);
    return rc;
}

/* ---- statistics ------------------------------------------------------------------------- */

static int64_t pragma_int(sl_conn *c, const char *sql)
{
    sqlite3_stmt *st;
    int64_t v = -1;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void pragma_text(sl_conn *c, const char *sql, char *buf, size_t len)
{
    sqlite3_stmt *st;
    buf[0] = '\0';
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(buf, len, "%s", t ? (const char *)t : "");
    }
    sqlite3_finalize(st);
}

static void sl_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses)
{
    sl_conn *c = (sl_conn *)conn;
    int cur = 0, hi = 0;
    sqlite3_db_status(c->db, SQLITE_DBSTATUS_CACHE_HIT, &cur, &hi, 0);
    *hits = cur;
    sqlite3_db_status(c->db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0);
    *misses = cur;
}

static int sl_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    out->cache_hits = out->cache_misses = -1; /* per connection: see conn_cache_stats */
    out->pages_written = -1;
    out->commits = out->rollbacks = -1;
    /* Used space: pages in use (free-list pages are reusable space, e.g. after a DROP).
     * The WAL is left out: its pages are copies of database pages waiting for a
     * checkpoint, not growth. */
    int64_t pages = pragma_int(c, "PRAGMA page_count");
    int64_t freel = pragma_int(c, "PRAGMA freelist_count");
    int64_t psize = pragma_int(c, "PRAGMA page_size");
    out->db_size_bytes = pages >= 0 && psize > 0 ? (pages - (freel > 0 ? freel : 0)) * psize : -1;
    return 0;
}

static int sl_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    memset(out, 0, sizeof *out);
    snprintf(out->version, sizeof out->version, "SQLite %s", sqlite3_libversion());
    static const char *const pragmas[] = {"journal_mode", "synchronous", "page_size",
                                          "cache_size",   "locking_mode", "mmap_size",
                                          "temp_store",   "wal_autocheckpoint"};
    for (size_t i = 0; i < sizeof pragmas / sizeof pragmas[0]; i++) {
        char sql[64], val[128];
        snprintf(sql, sizeof sql, "PRAGMA %s", pragmas[i]);
        pragma_text(c, sql, val, sizeof val);
        dg_server_info_add(out, pragmas[i], val);
    }
    char bt[32];
    snprintf(bt, sizeof bt, "%d", c->busy_timeout_ms);
    dg_server_info_add(out, "busy_timeout", bt);
    dg_server_info_add(out, "threadsafe", sqlite3_threadsafe() ? "yes" : "no");
    return 0;
}

static void sl_interrupt(dg_conn *conn)
{
    sqlite3_interrupt(((sl_conn *)conn)->db); /* thread-safe by SQLite's contract */
}

static int sl_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    sl_conn *c = (sl_conn *)conn;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(c->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fill_error(c, rc, err);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fill_error(c, rc, err);
    *out = rc == SQLITE_ROW;
    return 0;
}

/* ---- descriptor ------------------------------------------------------------------------- */

const dg_dialect dg_dialect_sqlite = {
    .name = "sqlite",
    .t_int = "INTEGER",
    .t_bigint = "INTEGER",
    .t_double = "REAL",
    .t_text = "TEXT",
    .t_timestamp = "TEXT",
    .t_blob_text = "TEXT",
    .t_numeric = "NUMERIC",
    .t_char = "TEXT",
    .t_varchar = "TEXT",
    .sized_types = false,
    .now_expr = "strftime('%Y-%m-%d %H:%M:%f', 'now')",
    .for_update = "",
    .limit_style = DG_LIMIT_LIMIT,
    .update_returning = true,
    .delete_returning = true,
    .desc_index_columns = true,
    .drop_if_exists = true,
    .alter_add_pk = false,
    .analyze_prefix = "ANALYZE ",
    .post_load_sql = "PRAGMA wal_checkpoint(TRUNCATE)",
    /* the dbstat virtual table (in Debian's SQLite): pages of the table and its overflow
     * chains, and of the indexes on it */
    /* dbstat reads every page of the table and its indexes: rows are a table's leaf cells,
     * an index's cells; the depth is the longest path of b-tree pages */
    .object_stats_sql =
        "SELECT s.name, CASE WHEN m.type = 'table' THEN 'table' ELSE 'index' END, "
        "sum(CASE WHEN s.pagetype = 'leaf' OR (m.type = 'index' AND s.pagetype = 'internal') "
        "THEN s.ncell ELSE 0 END), sum(s.pgsize), "
        "max(CASE WHEN s.pagetype <> 'overflow' THEN length(s.path) - length(replace(s.path, '/', '')) END) "
        "FROM dbstat s JOIN sqlite_schema m ON m.name = s.name WHERE m.tbl_name = ? "
        "GROUP BY s.name ORDER BY m.type DESC, s.name",
    .cache_setting = "cache_size",
    .cache_per_connection = true,
    .user_tables_sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                       "'sqlite\\_%' ESCAPE '\\' ORDER BY 1",
    .table_bytes_sql = "SELECT (SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ?), "
                       "(SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN "
                       "(SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?))",
    .octet_length_open = "length(CAST(",
    .octet_length_close = " AS BLOB))",
    .max_params = 32766,
};

static const char *const sqlite_schemes[] = {"sqlite", NULL};

/* The settings sl_connect treats specially; any other runs as a PRAGMA (other_options). */
static const dg_backend_option backend_options[] = {
    {"busy_timeout", "int", 0, 2147483647, NULL,
     "ms to wait for a lock another connection holds (default 30000; not a PRAGMA)"},
    {"journal_mode", "enum", 0, 0, "delete|truncate|persist|memory|wal|off",
     "PRAGMA journal_mode (default wal for a database file)"},
    {"synchronous", "enum", 0, 0, "off|normal|full|extra|0|1|2|3",
     "PRAGMA synchronous (SQLite's default; loader connections: off)"},
    /* PRAGMAs that take a number: SQLite reads a word there as 0 or ignores it, so a typo
       (cache_size=2O00) would pass unnoticed */
    {"cache_size", "int", -2147483648LL, 2147483647, NULL,
     "PRAGMA cache_size: pages, or KiB when negative (SQLite's default -2000)"},
    {"page_size", "int", 512, 65536, NULL, "PRAGMA page_size in bytes, a power of two (a new database only)"},
    {"mmap_size", "int", 0, 9223372036854775807LL, NULL, "PRAGMA mmap_size in bytes (default 0)"},
    {"wal_autocheckpoint", "int", -1, 2147483647, NULL,
     "PRAGMA wal_autocheckpoint in pages (default 1000; 0 or less: off)"},
    {"journal_size_limit", "int", -1, 9223372036854775807LL, NULL,
     "PRAGMA journal_size_limit in bytes (default -1: no limit)"},
    {"temp_store", "enum", 0, 0, "default|file|memory|0|1|2", "PRAGMA temp_store"},
    {"locking_mode", "enum", 0, 0, "normal|exclusive", "PRAGMA locking_mode (default normal)"},
    {NULL, NULL, 0, 0, NULL, NULL},
};

const dg_backend dg_backend_sqlite = {
    .name = "sqlite",
    .schemes = sqlite_schemes,
    .url_help = "sqlite:PATH | sqlite::memory:",
    .caps = DG_CAP_CONN_CACHE_STATS | DG_CAP_EMBEDDED | DG_CAP_NO_LOGIN,
    .dialect = &dg_dialect_sqlite,
    .options = backend_options,
    .other_options = "any other name runs as PRAGMA NAME=VALUE",
    .connect = sl_connect,
    .close = sl_close,
    .prepare = sl_prepare,
    .stmt_free = sl_stmt_free,
    .execute = sl_execute,
    .fetch = sl_fetch,
    .ncols = sl_ncols,
    .colname = sl_colname,
    .column = sl_column,
    .affected = sl_affected,
    .reset = sl_reset,
    .exec = sl_exec,
    .begin = sl_begin,
    .commit = sl_commit,
    .rollback = sl_rollback,
    .bulk_begin = sl_bulk_begin,
    .bulk_row = sl_bulk_row,
    .bulk_end = sl_bulk_end,
    .stats = sl_stats,
    .server_info = sl_server_info,
    .conn_cache_stats = sl_conn_cache_stats,
    .table_exists = sl_table_exists,
    .interrupt = sl_interrupt,
};
