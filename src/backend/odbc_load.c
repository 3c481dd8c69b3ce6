/*
 * odbc_load.c - the ODBC backend's bulk paths, all in one transaction (the load is atomic,
 * as DG_CAP_BULK_ATOMIC says):
 *   - parameter arrays (?bulk=array, and auto's choice where the driver takes them): a
 *     one-row INSERT prepared once, executed with ARRAY_ROWS rows at a time, bound by
 *     column (SQL_ATTR_PARAMSET_SIZE): each column's values of a batch are one typed array
 *     (64-bit integers, doubles, or text as long as the batch's longest), so a driver that
 *     sends arrays in one message (MariaDB Connector/ODBC's bulk execution) makes one round
 *     trip of them;
 *   - multi-row INSERT statements ("INSERT INTO t (a, b) VALUES (?, ?), (?, ?), ...",
 *     ?bulk=values, and where the driver refuses arrays): prepared once per batch size,
 *     one round trip per batch of ROWS_PER_BATCH rows (fewer when the dialect's parameter
 *     limit says so); the last, partial batch gets a statement of its own.
 * Rows are gathered the same way for both: values, their text copied into the batch's
 * arena (the caller's buffers are reused). A batch is also sent once its text passes
 * ARENA_FLUSH bytes (large documents).
 */
#include "backend/dialect.h"
#include "backend/odbc_int.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_PER_BATCH 200
#define ARRAY_ROWS 1000
#define ARENA_FLUSH (8u << 20)

/* One column of a parameter-array batch. */
typedef struct pa_col {
    SQLSMALLINT ctype, sqltype, digits;
    SQLULEN size;       /* the column size declared */
    size_t width;       /* bytes per element */
    char *buf;          /* [rows * width] */
    size_t cap;
    SQLLEN *ind;        /* [rows] */
} pa_col;

typedef struct odbc_bulk {
    dg_bulk base;
    char *table;
    char **cols;
    int ncols;
    int batch;          /* rows per full batch */
    int n;              /* rows gathered */
    dg_value *vals;     /* [batch * ncols] */
    char *arena;        /* the gathered rows' text */
    size_t arena_len, arena_cap;
    dg_stmt *full;      /* the statement of a full batch (prepared on first use) */
    SQLHSTMT arr;       /* parameter arrays: the one-row INSERT, or NULL (multi-row VALUES) */
    pa_col *pc;         /* [ncols] */
    SQLUSMALLINT *status; /* [batch] */
    SQLULEN processed;
} odbc_bulk;

/* "INSERT INTO t (cols) VALUES (?, ...), ... " for rows rows. */
static char *insert_sql(const odbc_bulk *b, int rows)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sql_insert(b->table, (const char *const *)b->cols, b->ncols, &sb);
    for (int r = 1; r < rows; r++) {
        dg_sb_add(&sb, ", (");
        for (int k = 0; k < b->ncols; k++)
            dg_sb_add(&sb, k ? ", ?" : "?");
        dg_sb_add(&sb, ")");
    }
    return dg_sb_take(&sb);
}

/* ---- parameter arrays ---------------------------------------------------------------------- */

/* Whether the driver takes parameter arrays: a statement handle asked for ARRAY_ROWS rows
 * a set that reads ARRAY_ROWS back. Tried once per connection (c->arrays). */
static bool arrays_taken(odbc_conn *c)
{
    if (c->arrays >= 0)
        return c->arrays == 1;
    c->arrays = 0;
    SQLHSTMT h;
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &h))) {
        snprintf(c->arrays_why, sizeof c->arrays_why, "no statement handle to try them on");
        return false;
    }
    SQLRETURN r = dg_odbc.SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(uintptr_t)ARRAY_ROWS, 0);
    SQLULEN got = 0;
    if (dg_odbc_ok(r))
        dg_odbc.SQLGetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, &got, 0, NULL);
    if (r == SQL_SUCCESS && got == ARRAY_ROWS)
        c->arrays = 1;
    else
        snprintf(c->arrays_why, sizeof c->arrays_why,
                 "the driver does not take parameter arrays (SQL_ATTR_PARAMSET_SIZE %d: %s)",
                 ARRAY_ROWS, dg_odbc_ok(r) ? "it keeps another size" : "refused");
    dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, h);
    return c->arrays == 1;
}

/* The one-row INSERT on a handle of its own, with the arrays' attributes. */
static int arrays_begin(odbc_bulk *b, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)b->base.conn;
    if (!dg_odbc_ok(dg_odbc.SQLAllocHandle(SQL_HANDLE_STMT, c->dbc, &b->arr))) {
        b->arr = NULL;
        return dg_odbc_error(c, SQL_HANDLE_DBC, c->dbc, "bulk load: cannot make a statement", err);
    }
    dg_strbuf sql = DG_STRBUF_INIT;
    dg_sql_insert(b->table, (const char *const *)b->cols, b->ncols, &sql);
    SQLRETURN r = dg_odbc.SQLPrepare(b->arr, (SQLCHAR *)dg_sb_str(&sql), SQL_NTS);
    dg_sb_free(&sql);
    b->batch = ARRAY_ROWS;
    b->pc = xcalloc((size_t)b->ncols, sizeof *b->pc);
    b->status = xcalloc((size_t)b->batch, sizeof *b->status);
    if (!dg_odbc_ok(r) ||
        !dg_odbc_ok(dg_odbc.SQLSetStmtAttr(b->arr, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0)) ||
        !dg_odbc_ok(dg_odbc.SQLSetStmtAttr(b->arr, SQL_ATTR_PARAM_STATUS_PTR, b->status, 0)) ||
        !dg_odbc_ok(dg_odbc.SQLSetStmtAttr(b->arr, SQL_ATTR_PARAMS_PROCESSED_PTR, &b->processed, 0))) {
        int rc = dg_odbc_error(c, SQL_HANDLE_STMT, b->arr, "bulk load: the INSERT", err);
        dg_err_prefix(err, "bulk load into %s", b->table);
        return rc;
    }
    return 0;
}

/* The text of a value of a column that mixes kinds in one batch; its length. */
static size_t as_text(const dg_value *v, char *out, size_t cap)
{
    char num[DG_NUMERIC_BUF];
    switch (v->type) {
    case DG_V_INT:
        return (size_t)snprintf(out, cap, "%" PRId64, v->u.i);
    case DG_V_DOUBLE:
        return (size_t)snprintf(out, cap, "%.17g", v->u.d);
    case DG_V_NUMERIC: {
        size_t n = dg_format_numeric(v->u.n.unscaled, v->u.n.scale, num);
        snprintf(out, cap, "%s", num);
        return n < cap ? n : cap - 1;
    }
    case DG_V_TEXT:
        if (cap) {
            size_t n = v->u.s.len < cap ? v->u.s.len : cap - 1;
            memcpy(out, v->u.s.ptr, n);
            out[n] = '\0';
        }
        return v->u.s.len;
    default:
        if (cap)
            out[0] = '\0';
        return 0;
    }
}

/* Column k of the gathered rows as one typed array, bound. */
static SQLRETURN bind_column(odbc_bulk *b, int k)
{
    pa_col *p = &b->pc[k];
    int n = b->n, kind = DG_V_NULL, scale = -1;
    bool mixed = false;
    size_t longest = 0;
    char tmp[64];
    for (int r = 0; r < n; r++) {
        const dg_value *v = &b->vals[(size_t)r * (size_t)b->ncols + (size_t)k];
        if (v->type == DG_V_NULL)
            continue;
        if (kind == DG_V_NULL)
            kind = (int)v->type;
        else if (kind != (int)v->type)
            mixed = true;
        if (v->type == DG_V_NUMERIC) {
            if (scale >= 0 && scale != v->u.n.scale)
                mixed = true;
            scale = v->u.n.scale;
        }
        size_t len = v->type == DG_V_TEXT ? v->u.s.len : as_text(v, tmp, sizeof tmp);
        if (len > longest)
            longest = len;
    }
    if (mixed)
        kind = DG_V_TEXT;
    p->digits = 0;
    switch (kind) {
    case DG_V_INT:
        p->ctype = SQL_C_SBIGINT, p->sqltype = SQL_BIGINT, p->size = 0, p->width = sizeof(int64_t);
        break;
    case DG_V_DOUBLE:
        p->ctype = SQL_C_DOUBLE, p->sqltype = SQL_DOUBLE, p->size = 0, p->width = sizeof(double);
        break;
    case DG_V_NUMERIC:
        p->ctype = SQL_C_CHAR, p->sqltype = SQL_DECIMAL, p->size = 30, p->width = DG_NUMERIC_BUF;
        p->digits = (SQLSMALLINT)scale;
        break;
    default: /* text, a mix, or only NULLs */
        p->ctype = SQL_C_CHAR;
        p->sqltype = longest > 4000 ? SQL_LONGVARCHAR : SQL_VARCHAR;
        p->size = longest ? longest : 1;
        p->width = longest + 1;
        break;
    }
    size_t need = p->width * (size_t)n;
    if (need > p->cap) {
        p->buf = xrealloc(p->buf, need);
        p->cap = need;
    }
    if (!p->ind)
        p->ind = xcalloc((size_t)b->batch, sizeof *p->ind);
    for (int r = 0; r < n; r++) {
        const dg_value *v = &b->vals[(size_t)r * (size_t)b->ncols + (size_t)k];
        char *dst = p->buf + (size_t)r * p->width;
        if (v->type == DG_V_NULL) {
            p->ind[r] = SQL_NULL_DATA;
        } else if (kind == DG_V_INT) {
            memcpy(dst, &v->u.i, sizeof v->u.i);
            p->ind[r] = 0;
        } else if (kind == DG_V_DOUBLE) {
            memcpy(dst, &v->u.d, sizeof v->u.d);
            p->ind[r] = 0;
        } else {
            p->ind[r] = (SQLLEN)as_text(v, dst, p->width);
        }
    }
    return dg_odbc.SQLBindParameter(b->arr, (SQLUSMALLINT)(k + 1), SQL_PARAM_INPUT, p->ctype,
                                    p->sqltype, p->size, p->digits, p->buf, (SQLLEN)p->width,
                                    p->ind);
}

/* Sends the gathered rows as one execution with arrays. */
static int flush_arrays(odbc_bulk *b, dg_err *err)
{
    odbc_conn *c = (odbc_conn *)b->base.conn;
    int rc = 0;
    for (int k = 0; k < b->ncols && rc == 0; k++)
        if (!dg_odbc_ok(bind_column(b, k)))
            rc = dg_odbc_error(c, SQL_HANDLE_STMT, b->arr, "cannot bind a parameter array", err);
    if (rc == 0 &&
        !dg_odbc_ok(dg_odbc.SQLSetStmtAttr(b->arr, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)(uintptr_t)b->n, 0)))
        rc = dg_odbc_error(c, SQL_HANDLE_STMT, b->arr, "cannot set the array size", err);
    if (rc == 0) {
        b->processed = 0;
        atomic_store(&c->active, b->arr);
        SQLRETURN r = dg_odbc.SQLExecute(b->arr);
        atomic_store(&c->active, (SQLHSTMT)NULL);
        int bad = -1;
        for (SQLULEN i = 0; i < b->processed && i < (SQLULEN)b->n && bad < 0; i++)
            if (b->status[i] == SQL_PARAM_ERROR)
                bad = (int)i;
        if ((r != SQL_NO_DATA && !dg_odbc_ok(r)) || bad >= 0) {
            rc = dg_odbc_error(c, SQL_HANDLE_STMT, b->arr, NULL, err);
            if (bad >= 0)
                dg_err_prefix(err, "row %d of a batch of %d", bad + 1, b->n);
        }
        dg_odbc.SQLFreeStmt(b->arr, SQL_CLOSE);
    }
    b->n = 0;
    b->arena_len = 0;
    return rc;
}

static void free_bulk(odbc_bulk *b)
{
    if (b->arr)
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, b->arr);
    for (int i = 0; b->pc && i < b->ncols; i++) {
        free(b->pc[i].buf);
        free(b->pc[i].ind);
    }
    free(b->pc);
    free(b->status);
    dg_stmt_free(b->full);
    for (int i = 0; i < b->ncols; i++)
        free(b->cols[i]);
    free(b->cols);
    free(b->table);
    free(b->vals);
    free(b->arena);
    free(b);
}

/* Whether c's loads use parameter arrays, and why (into why, when not NULL). bulk=auto
 * takes them where they are one message for many rows: MariaDB Connector/ODBC sends an
 * array in one bulk request (tpcb scale 2 here: 1.3x the rows per second of multi-row
 * VALUES), and the standard API is what other engines' drivers batch (Db2's CLI, SQL
 * Server's); psqlODBC and the SQLite driver run an array's rows one statement each
 * (5x and 3.4x slower than multi-row VALUES), so on those engines auto takes VALUES, and
 * psqlODBC never takes arrays (it leaves their server-side plan behind). */
static bool use_arrays(odbc_conn *c, char *why, size_t wlen)
{
    char none[1];
    if (!why)
        why = none, wlen = sizeof none;
    if (c->bulk == DG_ODBC_BULK_VALUES) {
        snprintf(why, wlen, "bulk=values was given");
        return false;
    }
    if (c->engine == DG_ODBC_POSTGRES) {
        snprintf(why, wlen, "psqlODBC runs each row of a parameter array as a statement of its "
                 "own, and leaves the array statement's server-side plan behind (a later "
                 "statement then fails: prepared statement \"_PLAN...\" already exists)%s",
                 c->bulk == DG_ODBC_BULK_ARRAY ? ": bulk=array is not taken" : "");
        return false;
    }
    if (c->bulk == DG_ODBC_BULK_AUTO && c->engine == DG_ODBC_SQLITE) {
        snprintf(why, wlen, "the SQLite driver runs each row of a parameter array as a statement "
                 "of its own (bulk=array takes them anyway)");
        return false;
    }
    if (!arrays_taken(c)) {
        snprintf(why, wlen, "%s", c->arrays_why);
        return false;
    }
    snprintf(why, wlen, "%s", c->bulk == DG_ODBC_BULK_ARRAY
                                  ? "bulk=array was given"
                                  : "the driver takes parameter arrays (SQL_ATTR_PARAMSET_SIZE) and "
                                    "sends each as one request");
    return true;
}

void dg_odbc_bulk_path(dg_conn *conn, char *path, size_t plen, char *why, size_t wlen)
{
    if (use_arrays((odbc_conn *)conn, why, wlen))
        snprintf(path, plen, "parameter arrays of %d rows", ARRAY_ROWS);
    else
        snprintf(path, plen, "multi-row INSERT of up to %d rows", ROWS_PER_BATCH);
}

int dg_odbc_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                       dg_bulk **out, dg_err *err)
{
    static const dg_txopts tx = {.write = true};
    int rc = dg_begin(conn, &tx, err);
    if (rc)
        return rc;
    odbc_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->table = xstrdup(table);
    b->ncols = ncols;
    b->cols = xcalloc((size_t)ncols, sizeof *b->cols);
    for (int i = 0; i < ncols; i++)
        b->cols[i] = xstrdup(cols[i]);
    odbc_conn *c = (odbc_conn *)conn;
    if (ncols > 0 && use_arrays(c, NULL, 0) &&
        (rc = arrays_begin(b, err)) != 0) {
        free_bulk(b);
        dg_rollback(conn, NULL);
        return rc;
    }
    if (!b->arr) {
        int max = conn->dialect->max_params > 0 ? conn->dialect->max_params : 32767;
        b->batch = ncols > 0 && max / ncols < ROWS_PER_BATCH ? max / ncols : ROWS_PER_BATCH;
        if (b->batch < 1)
            b->batch = 1;
    }
    b->vals = xcalloc((size_t)b->batch * (size_t)ncols, sizeof *b->vals);
    *out = &b->base;
    return 0;
}

/* Points the first n gathered values' text at the arena (it may have moved while
 * growing). */
static void rebase(odbc_bulk *b, const char *old, int n)
{
    for (int i = 0; i < n; i++)
        if (b->vals[i].type == DG_V_TEXT)
            b->vals[i].u.s.ptr = b->arena + (b->vals[i].u.s.ptr - old);
}

/* Sends the gathered rows: the full-batch statement, or one made for a partial batch. */
static int flush(odbc_bulk *b, dg_err *err)
{
    if (b->n == 0)
        return 0;
    if (b->arr)
        return flush_arrays(b, err);
    dg_conn *conn = b->base.conn;
    dg_stmt *st = b->n == b->batch ? b->full : NULL;
    int rc = 0;
    if (!st) {
        char *sql = insert_sql(b, b->n);
        rc = dg_prepare(conn, sql, &st, err);
        free(sql);
        if (rc)
            return rc;
        if (b->n == b->batch)
            b->full = st;
    }
    rc = dg_execute(st, b->vals, b->n * b->ncols, err);
    if (rc == 0)
        dg_stmt_reset(st);
    if (st != b->full)
        dg_stmt_free(st);
    b->n = 0;
    b->arena_len = 0;
    return rc;
}

int dg_odbc_bulk_row(dg_bulk *bb, const dg_value *vals, dg_err *err)
{
    odbc_bulk *b = (odbc_bulk *)bb;
    dg_value *row = &b->vals[(size_t)b->n * (size_t)b->ncols];
    for (int k = 0; k < b->ncols; k++) {
        row[k] = vals[k];
        if (vals[k].type == DG_V_TEXT) {
            size_t len = vals[k].u.s.len;
            if (b->arena_len + len + 1 > b->arena_cap) {
                const char *old = b->arena;
                size_t cap = b->arena_cap ? b->arena_cap : 65536;
                while (cap < b->arena_len + len + 1)
                    cap *= 2;
                b->arena = xrealloc(b->arena, cap);
                b->arena_cap = cap;
                if (old && old != b->arena) /* the rows before and this row's values so far */
                    rebase(b, old, b->n * b->ncols + k);
            }
            memcpy(b->arena + b->arena_len, vals[k].u.s.ptr, len);
            b->arena[b->arena_len + len] = '\0';
            row[k].u.s.ptr = b->arena + b->arena_len;
            b->arena_len += len + 1;
            b->base.bytes += len;
        } else {
            b->base.bytes += 8;
        }
    }
    b->n++;
    b->base.rows++;
    return b->n == b->batch || b->arena_len >= ARENA_FLUSH ? flush(b, err) : 0;
}

int dg_odbc_bulk_end(dg_bulk *bb, bool commit, dg_err *err)
{
    odbc_bulk *b = (odbc_bulk *)bb;
    dg_conn *conn = b->base.conn;
    int rc = commit ? flush(b, err) : 0;
    /* the array statement ends inside the transaction: psqlODBC names its server-side plan
       after the handle's address and drops it as the handle goes, so a handle freed after
       the commit left the plan to collide with the next handle made at that address */
    if (b->arr)
        dg_odbc.SQLFreeHandle(SQL_HANDLE_STMT, b->arr);
    b->arr = NULL;
    if (rc == 0 && commit)
        rc = dg_commit(conn, err);
    else
        dg_rollback(conn, NULL);
    free_bulk(b);
    return rc;
}
