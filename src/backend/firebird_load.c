/*
 * firebird_load.c - the Firebird backend's bulk load (dg_bulk_begin, _row, _end); the
 * connection, its statements and errors are firebird.c's (firebird_int.h).
 *
 * Bulk load: Firebird 3 has no COPY, no multi-row VALUES and no batch API (IBatch is
 * Firebird 4), so rows travel in EXECUTE BLOCK statements: one prepared block takes
 * per_block rows as parameters typed like the target columns (TYPE OF COLUMN) and inserts
 * them with one round trip; per_block keeps the message and the statement text under
 * Firebird's 64 KB limits; its last parameter is the row count, so the last, partial
 * block of a unit goes through it too. A connection keeps its blocks between units
 * (blk_cache): preparing one costs as much as sending thousands of rows. Measured on
 * tpcb and tpcc loads: 3 to 7 times the rows per second of a prepared one-row INSERT
 * (?bulk=insert, kept for comparison). The load runs in its own SNAPSHOT transaction,
 * committed every BULK_COMMIT_ROWS rows so that no transaction grows without bound.
 * With ?external_dir=DIR (a directory the server, on this machine, may read external
 * files from) the rows go instead to a file of fixed-length records (backend/fbext.h)
 * that the server copies with one INSERT ... SELECT from an external table made over
 * it: no message to parse, no PSQL per row (see "bulk load: external files").
 *
 * What a connection keeps between loads (kept statements, external tables) is dropped
 * through the hooks a bulk load sets on the connection, so that firebird.c needs to know
 * nothing of it: fb_conn.load_ddl (blk_cache_clear), which exec runs before a statement,
 * and fb_conn.load_cleanup, which close runs.
 *
 * Layout: the types of a load and of the kept statements; a load's common parts; external
 * files; the kept statements and the entry points (begin, row, end).
 */
#include "backend/firebird_int.h"
#include "backend/dialect.h"
#include "backend/fbext.h"

#include "core/log.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BULK_COMMIT_ROWS 50000
#define BULK_MAX_BLOCK_ROWS 256  /* rows per EXECUTE BLOCK */
#define BULK_MAX_MSG_BYTES 60000 /* Firebird 3 caps a message at 64 KB */
#define BULK_MAX_SQL_BYTES 60000 /* and a statement's text at 64 KB */
/* External path: the server reads one file per slice (one CREATE TABLE ... EXTERNAL FILE,
 * INSERT ... SELECT, commit, DROP TABLE); a slice is a unit of the loader, or this many
 * rows of a larger one, whichever ends first. */
#define EXT_SLICE_ROWS 500000

/* Preparing an EXECUTE BLOCK of 256 INSERTs takes the server tens of milliseconds, as long
 * as sending thousands of rows through it; a loader runs dozens of units per table on the
 * same connections, so a connection keeps the one-row INSERT and the block of each table
 * and column list it loaded. They are freed before any statement run through dg_exec (a
 * loader's DDL: dropping, altering the tables, which prepared statements would hold "in
 * use") and at close. */
typedef struct blk_cache {
    char *key; /* "table(col,col,...)" */
    fb_stmt *ins, *blk;
    int per;
    bool busy;
} blk_cache;

typedef struct fb_bulk {
    dg_bulk base; /* must be first */
    isc_tr_handle tx;
    fb_stmt *ins;  /* one-row INSERT */
    fb_stmt *blk;  /* EXECUTE BLOCK of up to per_block rows; NULL in insert mode */
    int cached;    /* ins and blk belong to the connection's blk_cache[cached]; -1: to this load */
    int ncols, per_block, nbuf;
    dg_value *vals;   /* [per_block * ncols + 1] buffered rows, then the row count; text in `text` */
    size_t *text_off; /* [per_block * ncols] */
    char *text;
    size_t text_len, text_cap;
    uint64_t in_tx_rows;
    /* external path (ext != NULL): rows go to the file at path; see ext_flush */
    dg_fbx_col *ext;  /* [ncols] */
    int *ext_order;   /* [ncols] declaration order */
    unsigned char *rec;
    size_t rec_bytes;
    FILE *f;
    int tab;             /* index of the connection's ext_tab in use */
    char *table, **cols; /* copies, for the INSERT ... SELECT */
} fb_bulk;

/* ---- bulk load -------------------------------------------------------------------------- */

/* Message bytes one row of the INSERT's parameters takes (as described by the server). */
static size_t row_msg_bytes(const fb_stmt *ins)
{
    size_t n = 0;
    for (int i = 0; i < ins->nin; i++) {
        const XSQLVAR *v = &ins->in->sqlvar[i];
        n = align8(n + (size_t)v->sqllen + 2) + 8; /* value (+ VARCHAR length), NULL flag */
    }
    return n;
}

/* Loads run in snapshot transactions of their own (nothing else writes those tables). */
static const char bulk_tpb[] = {isc_tpb_version3, isc_tpb_write, isc_tpb_concurrency, isc_tpb_wait};

static void ext_detach(fb_bulk *b);

static void bulk_free(fb_bulk *b)
{
    ext_detach(b);
    fb_conn *c = (fb_conn *)b->base.conn;
    if (b->cached >= 0 && b->cached < c->n_blks) {
        c->blks[b->cached].busy = false;
    } else {
        dg_firebird_stmt_destroy(b->ins);
        dg_firebird_stmt_destroy(b->blk);
    }
    free(b->vals);
    free(b->text_off);
    free(b->text);
    free(b->ext);
    free(b->ext_order);
    free(b->rec);
    if (b->cols)
        for (int i = 0; i < b->ncols; i++)
            free(b->cols[i]);
    free(b->cols);
    free(b->table);
    free(b);
}

/* ---- bulk load: external files ------------------------------------------------------------- */

/* With ?external_dir= every slice of a bulk load is a file of fixed-length binary records
 * (backend/fbext.h) in that directory, which the server reads through an external table:
 * INSERT INTO <table> (...) SELECT ... FROM DG_EXT_<pid>_<n>, in the load's SNAPSHOT
 * transaction, committed. The server parses no message and runs no PSQL per row: it
 * copies records.
 *
 * DDL is what costs here (a CREATE or DROP TABLE and its commit take 5 to 15 ms, as much
 * as inserting 3,000 rows), so a connection keeps its external tables, one per target
 * table and column list (ext_tab), and rewrites the same file in place for every slice:
 * the server reads an external file from its start at each scan (it seeks, and reopens
 * it per transaction in later versions), so a table made once serves every unit of a
 * load. The file is emptied after each INSERT; the tables are dropped and the files
 * deleted when the connection closes (a crash leaves DG_EXT_* tables and dg_ext_*.dat
 * files behind, harmless). The server must run on this machine, be allowed the directory
 * (firebird.conf: ExternalFileAccess = Restrict <dir>) and be able to read the files
 * (made readable by all, 0644). */
typedef struct ext_tab {
    char *key;       /* "table(col,col,...)" */
    char name[40];   /* DG_EXT_<pid>_<n> */
    char path[EXT_MAX_PATH + 1];
    bool created;    /* CREATE TABLE committed */
    bool busy;       /* an open bulk load writes its file */
} ext_tab;

static atomic_uint ext_seq; /* numbers the files and tables of this process */

/* The attachment's character set and its bytes per character, read once: external VARCHARs
 * are declared in it, so the server converts their text to each column's character set as
 * it converts a text parameter's. */
static int ext_charset(fb_conn *c, dg_err *err)
{
    if (c->ext_charset[0])
        return 0;
    fb_stmt *q = NULL;
    int rc = dg_firebird_query_row(c, &q,
                       "SELECT TRIM(cs.RDB$CHARACTER_SET_NAME), cs.RDB$BYTES_PER_CHARACTER "
                       "FROM MON$ATTACHMENTS a JOIN RDB$CHARACTER_SETS cs "
                       "ON cs.RDB$CHARACTER_SET_ID = a.MON$CHARACTER_SET_ID "
                       "WHERE a.MON$ATTACHMENT_ID = CURRENT_CONNECTION",
                       NULL, err);
    if (rc == 0) {
        dg_firebird_col_text(q, 0, c->ext_charset, sizeof c->ext_charset);
        int64_t bpc = dg_firebird_col_int(q, 1);
        c->ext_bpc = bpc > 0 ? (int)bpc : 1;
        if (!c->ext_charset[0])
            snprintf(c->ext_charset, sizeof c->ext_charset, "NONE");
    }
    dg_firebird_stmt_destroy(q);
    return rc;
}

/* The external table's columns from the one-row INSERT's parameters (the target columns'
 * types as the server describes them). DG_E_UNSUPPORTED when a column has no external form
 * (a blob, say): the table then takes the EXECUTE BLOCK path. */
static int ext_plan(fb_bulk *b, const char *const *cols, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    int rc = ext_charset(c, err);
    if (rc)
        return rc;
    b->ext = xcalloc((size_t)b->ncols, sizeof *b->ext);
    b->ext_order = xcalloc((size_t)b->ncols, sizeof *b->ext_order);
    for (int i = 0; i < b->ncols; i++) {
        const XSQLVAR *v = &b->ins->in->sqlvar[i];
        dg_fbx_col *x = &b->ext[i];
        snprintf(x->name, sizeof x->name, "%s", cols[i]);
        switch (v->sqltype & ~1) {
        case SQL_SHORT:
        case SQL_LONG:
        case SQL_INT64:
            x->kind = DG_FBX_INT64;
            x->scale = -v->sqlscale;
            break;
        case SQL_FLOAT:
        case SQL_DOUBLE:
        case SQL_D_FLOAT:
            x->kind = DG_FBX_DOUBLE;
            break;
        case SQL_TIMESTAMP:
            x->kind = DG_FBX_TIMESTAMP;
            break;
        case SQL_TYPE_DATE:
            x->kind = DG_FBX_DATE;
            break;
        case SQL_TYPE_TIME:
            x->kind = DG_FBX_TIME;
            break;
        case SQL_TEXT:
        case SQL_VARYING:
            x->kind = DG_FBX_VARCHAR;
            x->bytes = v->sqllen;
            x->octets = (v->sqlsubtype & 0xff) == 1; /* CHARACTER SET OCTETS */
            x->chars = x->octets ? v->sqllen : v->sqllen / c->ext_bpc;
            x->utf8 = !x->octets && !strcasecmp(c->ext_charset, "UTF8");
            break;
        case SQL_BOOLEAN:
            x->kind = DG_FBX_BOOL;
            break;
        default:
            return dg_err_fail(err, DG_E_UNSUPPORTED, "column %s: no external-file form", cols[i]);
        }
        if (x->scale < 0 || x->scale > 18)
            return dg_err_fail(err, DG_E_UNSUPPORTED, "column %s: scale %d", cols[i], x->scale);
    }
    if (dg_fbx_plan(b->ext, b->ncols, b->ext_order, &b->rec_bytes, err) != 0)
        return DG_E_UNSUPPORTED;
    if (b->rec_bytes > 65535)
        return dg_err_fail(err, DG_E_UNSUPPORTED, "records of %zu bytes", b->rec_bytes);
    b->rec = xmalloc(b->rec_bytes);
    return 0;
}

/* The connection's external table for this load (b->tab): an idle one of the same table
 * and columns, else a new one (its file created here, its table at the first flush). */
static int ext_attach(fb_bulk *b, const char *table, const char *const *cols, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    dg_strbuf key = DG_STRBUF_INIT;
    dg_sb_printf(&key, "%s(", table);
    for (int j = 0; j < b->ncols; j++)
        dg_sb_printf(&key, "%s%s", j ? "," : "", cols[j]);
    dg_sb_add(&key, ")");
    b->tab = -1;
    for (int i = 0; i < c->n_ext && b->tab < 0; i++)
        if (!c->ext_tabs[i].busy && !strcmp(c->ext_tabs[i].key, dg_sb_str(&key)))
            b->tab = i;
    if (b->tab < 0) {
        ext_tab t;
        memset(&t, 0, sizeof t);
        unsigned n = atomic_fetch_add(&ext_seq, 1);
        snprintf(t.name, sizeof t.name, "DG_EXT_%ld_%u", (long)getpid(), n);
        int len = snprintf(t.path, sizeof t.path, "%s/dg_ext_%ld_%u.dat", c->o.external_dir,
                           (long)getpid(), n);
        if (len < 0 || (size_t)len >= sizeof t.path) {
            dg_sb_free(&key);
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                              "external_dir=%s: too long for Firebird (%d bytes at most)",
                              c->o.external_dir, EXT_MAX_PATH - 40);
        }
        int fd = open(t.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || fchmod(fd, 0644) != 0) { /* readable by the server whatever our umask */
            int rc = dg_err_set(err, DG_E_IO, DG_EC_USER, 0, NULL,
                                "external_dir=%s: cannot create %s: %s", c->o.external_dir, t.path,
                                strerror(errno));
            if (fd >= 0) {
                close(fd);
                unlink(t.path);
            }
            dg_sb_free(&key);
            return rc;
        }
        close(fd);
        t.key = xstrdup(dg_sb_str(&key));
        c->ext_tabs = xrealloc(c->ext_tabs, (size_t)(c->n_ext + 1) * sizeof *c->ext_tabs);
        c->ext_tabs[c->n_ext] = t;
        b->tab = c->n_ext++;
    }
    dg_sb_free(&key);
    c->ext_tabs[b->tab].busy = true;
    return 0;
}

/* Opens the table's file for the next slice, emptied (the same file: see above). */
static int ext_open(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    const ext_tab *t = &c->ext_tabs[b->tab];
    int fd = open(t->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0 || !(b->f = fdopen(fd, "wb"))) {
        int rc = dg_err_set(err, DG_E_IO, DG_EC_USER, 0, NULL, "external_dir=%s: cannot write %s: %s",
                            c->o.external_dir, t->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    setvbuf(b->f, NULL, _IOFBF, 1 << 20);
    b->in_tx_rows = 0;
    return 0;
}

/* Closes the current file, if open, and gives the table back to the connection. */
static void ext_detach(fb_bulk *b)
{
    if (b->f) {
        fclose(b->f);
        b->f = NULL;
    }
    fb_conn *c = (fb_conn *)b->base.conn;
    if (b->ext && b->tab >= 0 && b->tab < c->n_ext)
        c->ext_tabs[b->tab].busy = false;
    b->tab = -1;
}

/* One statement in a transaction of its own, committed (DDL must be committed to be used).
 * DDL of other connections (the other jobs of a load making their own external tables)
 * updates the same system-table rows, and Firebird fails one of two such transactions
 * with an update conflict: that one is tried again after a short pause. -1 when it
 * failed, with the server's status left in c->sv for the caller to report. */
static int ext_ddl(fb_conn *c, const char *sql)
{
    enum { TRIES = 20 };
    for (int tries = 1;; tries++) {
        isc_tr_handle t = 0;
        if (dg_fb.isc_start_transaction(c->sv, &t, 1, &c->db, (unsigned short)sizeof bulk_tpb,
                                        bulk_tpb))
            return -1;
        int rc = 0;
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &t, 0, sql, SQL_DIALECT, NULL) ||
            dg_fb.isc_commit_transaction(c->sv, &t))
            rc = -1;
        bool conflict = rc && dg_firebird_classify(c->sv, "") == DG_EC_RETRY;
        ISC_STATUS_ARRAY keep;
        memcpy(keep, c->sv, sizeof keep);
        dg_firebird_tx_abandon(&t);
        memcpy(c->sv, keep, sizeof keep);
        if (!conflict || tries == TRIES)
            return rc;
        struct timespec pause = {0, (long)(2 + rand() % 8) * tries * 1000000L};
        nanosleep(&pause, NULL);
    }
}

/* Drops the connection's external tables and deletes their files. */
static void ext_drop_all(fb_conn *c)
{
    if (c->n_ext == 0)
        return;
    for (int i = 0; i < c->n_ext && c->db; i++) {
        ext_tab *e = &c->ext_tabs[i];
        if (!e->created)
            continue;
        char sql[64];
        snprintf(sql, sizeof sql, "DROP TABLE %s", e->name);
        if (ext_ddl(c, sql) != 0) {
            dg_err err;
            dg_firebird_fill_error(c, NULL, NULL, &err);
            dg_log_warn("firebird: cannot drop the external table %s: %s", e->name, err.msg);
        }
    }
    for (int i = 0; i < c->n_ext; i++) {
        unlink(c->ext_tabs[i].path);
        free(c->ext_tabs[i].key);
    }
    free(c->ext_tabs);
    c->ext_tabs = NULL;
    c->n_ext = 0;
}

/* The error of a statement that read the file: when the server could not, say why. */
static int ext_fail(fb_bulk *b, const char *what, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    bool access = dg_firebird_sv_has(c->sv, isc_conf_access_denied) || dg_firebird_sv_has(c->sv, isc_io_error) ||
                  dg_firebird_sv_has(c->sv, isc_io_open_err);
    int rc = dg_firebird_fill_error(c, NULL, NULL, err);
    if (access)
        dg_err_prefix(err, "bulk load into %s through external_dir=%s: the server cannot read %s "
                      "(it must run on this machine, allow the directory in firebird.conf with "
                      "ExternalFileAccess = Restrict %s, and its user must be able to read "
                      "the files there)",
                      b->table, c->o.external_dir, c->ext_tabs[b->tab].path, c->o.external_dir);
    else
        dg_err_prefix(err, "bulk load into %s through an external table (%s)", b->table, what);
    return rc;
}

/* Hands the current file to the server: the external table if it is new, the INSERT ...
 * SELECT and its commit; then the file is emptied. */
static int ext_flush(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    ext_tab *t = &c->ext_tabs[b->tab];
    int rc = 0;
    if (fflush(b->f) != 0 || ferror(b->f)) {
        rc = dg_err_fail(err, DG_E_IO, "bulk load into %s: cannot write %s: %s", b->table, t->path,
                         strerror(errno));
        fclose(b->f);
        b->f = NULL;
        return rc;
    }
    fclose(b->f);
    b->f = NULL;
    if (b->in_tx_rows == 0)
        return 0;
    dg_strbuf sql = DG_STRBUF_INIT;
    if (!t->created) {
        char type[96];
        dg_sb_printf(&sql, "CREATE TABLE %s EXTERNAL FILE '", t->name);
        for (const char *p = t->path; *p; p++) /* quotes doubled */
            dg_sb_printf(&sql, *p == '\'' ? "''" : "%c", *p);
        dg_sb_add(&sql, "' (");
        for (int j = 0; j < b->ncols; j++) {
            int i = b->ext_order[j];
            dg_fbx_sql_type(&b->ext[i], c->ext_charset, type, sizeof type);
            dg_sb_printf(&sql, "%sC%d %s", j ? ", " : "", i, type);
        }
        for (int j = 0; j < b->ncols; j++)
            dg_sb_printf(&sql, ", N%d BOOLEAN", b->ext_order[j]);
        dg_sb_add(&sql, ")");
        if (ext_ddl(c, dg_sb_str(&sql)) != 0) {
            rc = ext_fail(b, "CREATE TABLE", err);
            goto out;
        }
        t->created = true;
        dg_sb_reset(&sql);
    }
    dg_sb_printf(&sql, "INSERT INTO %s (", b->table);
    for (int i = 0; i < b->ncols; i++)
        dg_sb_printf(&sql, "%s%s", i ? ", " : "", b->cols[i]);
    dg_sb_add(&sql, ") SELECT ");
    for (int i = 0; i < b->ncols; i++) {
        if (b->ext[i].saw_null) /* only columns that had a NULL read their indicator */
            dg_sb_printf(&sql, "%sCASE WHEN N%d THEN NULL ELSE C%d END", i ? ", " : "", i, i);
        else
            dg_sb_printf(&sql, "%sC%d", i ? ", " : "", i);
    }
    dg_sb_printf(&sql, " FROM %s", t->name);
    if ((rc = dg_firebird_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) == 0) {
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &b->tx, 0, dg_sb_str(&sql), SQL_DIALECT,
                                             NULL))
            rc = ext_fail(b, "INSERT ... SELECT", err);
        else if (dg_fb.isc_commit_transaction(c->sv, &b->tx))
            rc = dg_firebird_fill_error(c, "bulk load: commit", "COMMIT", err);
        dg_firebird_tx_abandon(&b->tx);
    }
    for (int i = 0; i < b->ncols; i++)
        b->ext[i].saw_null = false;
out:
    dg_sb_free(&sql);
    if (truncate(t->path, 0) != 0 && rc == 0) /* the rows are in: give the space back */
        rc = dg_err_fail(err, DG_E_IO, "external_dir: cannot empty %s: %s", t->path, strerror(errno));
    return rc;
}

/* ---- bulk load: the prepared statements a connection keeps ---------------------------------- */

/* See blk_cache (with the other types of a load, at the top). */

static void blk_cache_clear(fb_conn *c)
{
    int keep = 0;
    for (int i = 0; i < c->n_blks; i++) {
        blk_cache *e = &c->blks[i];
        if (e->busy) { /* an open load's stay (no loader runs DDL in the middle of one) */
            c->blks[keep++] = *e;
            continue;
        }
        dg_firebird_stmt_destroy(e->ins);
        dg_firebird_stmt_destroy(e->blk);
        free(e->key);
    }
    c->n_blks = keep;
    if (keep == 0) {
        free(c->blks);
        c->blks = NULL;
    }
}

/* What the connection keeps for loads, dropped: close runs it (fb_conn.load_cleanup; exec
 * runs blk_cache_clear, fb_conn.load_ddl). */
static void load_cleanup(fb_conn *c)
{
    ext_drop_all(c);
    blk_cache_clear(c);
}

static char *bulk_key(const char *table, const char *const *cols, int ncols)
{
    dg_strbuf key = DG_STRBUF_INIT;
    dg_sb_printf(&key, "%s(", table);
    for (int j = 0; j < ncols; j++)
        dg_sb_printf(&key, "%s%s", j ? "," : "", cols[j]);
    dg_sb_add(&key, ")");
    char *k = xstrdup(dg_sb_str(&key));
    dg_sb_free(&key);
    return k;
}

int dg_firebird_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                           dg_bulk **out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (c->o.bulk == BULK_AUTO) /* a connection that was not a loader's */
        dg_firebird_bulk_auto(c);
    fb_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->tab = -1;
    b->cached = -1;
    b->ncols = ncols;
    dg_strbuf sql = DG_STRBUF_INIT;
    int rc;
    char *key = NULL;
    c->load_ddl = blk_cache_clear;
    c->load_cleanup = load_cleanup;
    if (c->o.bulk != BULK_EXTERNAL) {
        key = bulk_key(table, cols, ncols);
        for (int i = 0; i < c->n_blks; i++) {
            blk_cache *e = &c->blks[i];
            if (e->busy || strcmp(e->key, key) != 0)
                continue;
            e->busy = true;
            b->cached = i;
            b->ins = e->ins;
            b->blk = e->blk;
            free(key);
            if (b->blk) {
                b->per_block = e->per;
                b->vals = xcalloc((size_t)e->per * (size_t)ncols + 1, sizeof *b->vals);
                b->text_off = xcalloc((size_t)e->per * (size_t)ncols, sizeof *b->text_off);
            }
            if ((rc = dg_firebird_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) != 0)
                goto fail;
            *out = &b->base;
            return 0;
        }
    }
    dg_sql_insert(table, cols, ncols, &sql);
    rc = dg_firebird_stmt_prepare(c, dg_sb_str(&sql), &b->ins, err);
    if (rc)
        goto fail;
    if (b->ins->nin != ncols) {
        rc = dg_err_fail(err, DG_E_INVAL, "bulk load into %s: %d columns, %d parameters", table, ncols,
                         b->ins->nin);
        goto fail;
    }
    if (c->o.bulk == BULK_EXTERNAL) {
        dg_err perr;
        dg_err_clear(&perr);
        rc = ext_plan(b, cols, &perr);
        if (rc == 0) {
            b->table = xstrdup(table);
            b->cols = xcalloc((size_t)ncols, sizeof *b->cols);
            for (int j = 0; j < ncols; j++)
                b->cols[j] = xstrdup(cols[j]);
            dg_sb_free(&sql);
            if ((rc = ext_attach(b, table, cols, err)) != 0 || (rc = ext_open(b, err)) != 0)
                goto fail;
            *out = &b->base;
            return 0;
        }
        if (rc != DG_E_UNSUPPORTED) {
            if (err)
                *err = perr;
            goto fail;
        }
        /* a column with no external form: this table takes the EXECUTE BLOCK path */
        static atomic_flag told = ATOMIC_FLAG_INIT;
        if (!atomic_flag_test_and_set(&told))
            dg_log_warn("firebird: table %s loads through EXECUTE BLOCK, not an external file: %s",
                        table, perr.msg);
        free(b->ext);
        free(b->ext_order);
        b->ext = NULL;
        b->ext_order = NULL;
        rc = 0;
    }
    /* EXECUTE BLOCK packs many rows into one round trip; its parameters take the column
     * types (TYPE OF COLUMN), and message and text stay under Firebird's 64 KB limits. */
    int per = (int)((BULK_MAX_MSG_BYTES - 16) / (row_msg_bytes(b->ins) + 1));
    size_t row_sql = 0;
    for (int j = 0; j < ncols; j++)
        row_sql += 2 * strlen(cols[j]) + strlen(table) + 40;
    row_sql += strlen(table) + 30;
    if ((size_t)per * row_sql > BULK_MAX_SQL_BYTES)
        per = (int)(BULK_MAX_SQL_BYTES / row_sql);
    if (per > BULK_MAX_BLOCK_ROWS)
        per = BULK_MAX_BLOCK_ROWS;
    if (c->o.bulk != BULK_INSERT && per >= 4) {
        /* the last parameter is the number of rows sent: the unit's last, partial block
         * goes through the same statement (its unused parameters NULL) */
        dg_sb_reset(&sql);
        dg_sb_add(&sql, "EXECUTE BLOCK (");
        for (int r = 0; r < per; r++)
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%sp%d TYPE OF COLUMN %s.%s = ?", r || j ? ", " : "", r * ncols + j,
                             table, cols[j]);
        dg_sb_add(&sql, ", n INTEGER = ?) AS BEGIN\n");
        for (int r = 0; r < per; r++) {
            if (r > 0)
                dg_sb_printf(&sql, "IF (n > %d) THEN ", r);
            dg_sb_printf(&sql, "INSERT INTO %s (", table);
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s%s", j ? ", " : "", cols[j]);
            dg_sb_add(&sql, ") VALUES (");
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s:p%d", j ? ", " : "", r * ncols + j);
            dg_sb_add(&sql, ");\n");
        }
        dg_sb_add(&sql, "END");
        rc = dg_firebird_stmt_prepare(c, dg_sb_str(&sql), &b->blk, err);
        if (rc) {
            dg_err_prefix(err, "bulk load into %s (EXECUTE BLOCK)", table);
            goto fail;
        }
        b->per_block = per;
        b->vals = xcalloc((size_t)per * (size_t)ncols + 1, sizeof *b->vals);
        b->text_off = xcalloc((size_t)per * (size_t)ncols, sizeof *b->text_off);
    }
    dg_sb_free(&sql);
    if (key) { /* kept for the next load of this table on this connection */
        c->blks = xrealloc(c->blks, (size_t)(c->n_blks + 1) * sizeof *c->blks);
        c->blks[c->n_blks] = (blk_cache){key, b->ins, b->blk, b->per_block, true};
        b->cached = c->n_blks++;
        key = NULL;
    }
    if ((rc = dg_firebird_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) != 0)
        goto fail;
    *out = &b->base;
    return 0;
fail:
    free(key);
    dg_sb_free(&sql);
    bulk_free(b);
    return rc;
}

/* Commits the load so far and starts the next slice, so no transaction grows without bound. */
static int bulk_slice(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    if (dg_fb.isc_commit_transaction(c->sv, &b->tx)) {
        int rc = dg_firebird_fill_error(c, "bulk load: commit", "COMMIT", err);
        dg_firebird_tx_abandon(&b->tx);
        return rc;
    }
    b->in_tx_rows = 0;
    return dg_firebird_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err);
}

/* Sends the buffered rows through the block: a partial one (the unit's last) with its
 * unused parameters NULL, which the block's row count keeps out of the table. */
static int bulk_flush(fb_bulk *b, dg_err *err)
{
    int used = b->nbuf * b->ncols, all = b->per_block * b->ncols;
    for (int i = 0; i < used; i++)
        if (b->vals[i].type == DG_V_TEXT)
            b->vals[i].u.s.ptr = b->text + b->text_off[i];
    for (int i = used; i < all; i++)
        b->vals[i] = dg_vnull();
    b->vals[all] = dg_vint(b->nbuf);
    int rc = dg_firebird_stmt_run(b->blk, b->vals, &b->tx, TXK_LOCAL, err);
    b->blk->txk = TXK_NONE;
    b->blk->txp = NULL;
    if (rc)
        return rc;
    b->in_tx_rows += (uint64_t)b->nbuf;
    b->nbuf = 0;
    b->text_len = 0;
    return b->in_tx_rows >= BULK_COMMIT_ROWS ? bulk_slice(b, err) : 0;
}

int dg_firebird_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    int rc;
    for (int i = 0; i < b->ncols; i++)
        b->base.bytes += dg_value_bytes(&vals[i]);
    if (b->ext) {
        if ((rc = dg_fbx_encode(b->ext, b->ncols, vals, b->rec, b->rec_bytes, err)) != 0) {
            dg_err_prefix(err, "bulk load into %s, row %llu", b->table,
                          (unsigned long long)b->base.rows + 1);
            return rc;
        }
        if (fwrite(b->rec, b->rec_bytes, 1, b->f) != 1)
            return dg_err_fail(err, DG_E_IO, "bulk load into %s: cannot write its external file: %s",
                               b->table, strerror(errno));
        b->base.rows++;
        if (++b->in_tx_rows >= EXT_SLICE_ROWS && ((rc = ext_flush(b, err)) != 0 ||
                                                  (rc = ext_open(b, err)) != 0))
            return rc;
        return 0;
    }
    if (!b->blk) {
        rc = dg_firebird_stmt_run(b->ins, vals, &b->tx, TXK_LOCAL, err);
        b->ins->txk = TXK_NONE;
        b->ins->txp = NULL;
        if (rc == 0 && ++b->in_tx_rows >= BULK_COMMIT_ROWS)
            rc = bulk_slice(b, err);
        if (rc == 0)
            b->base.rows++;
        return rc;
    }
    /* copy the row: the caller's text is only valid during this call */
    dg_value *dst = &b->vals[b->nbuf * b->ncols];
    size_t *off = &b->text_off[b->nbuf * b->ncols];
    for (int i = 0; i < b->ncols; i++) {
        dst[i] = vals[i];
        if (vals[i].type == DG_V_TEXT) {
            size_t need = b->text_len + vals[i].u.s.len + 1;
            if (need > b->text_cap) {
                b->text_cap = need * 2 > 65536 ? need * 2 : 65536;
                b->text = xrealloc(b->text, b->text_cap);
            }
            memcpy(b->text + b->text_len, vals[i].u.s.ptr, vals[i].u.s.len);
            b->text[b->text_len + vals[i].u.s.len] = '\0';
            off[i] = b->text_len;
            b->text_len = need;
        }
    }
    b->nbuf++;
    b->base.rows++;
    return b->nbuf == b->per_block ? bulk_flush(b, err) : 0;
}

int dg_firebird_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    fb_conn *c = (fb_conn *)bulk->conn;
    int rc = 0;
    if (b->ext) {
        if (commit && b->f)
            rc = ext_flush(b, err);
        bulk_free(b);
        return rc;
    }
    if (commit && b->nbuf > 0)
        rc = bulk_flush(b, err); /* the last, partial block */
    if (commit && rc == 0) {
        if (dg_fb.isc_commit_transaction(c->sv, &b->tx))
            rc = dg_firebird_fill_error(c, "bulk load: commit", "COMMIT", err);
    }
    dg_firebird_tx_abandon(&b->tx);
    bulk_free(b);
    return rc;
}

