/*
 * odbc_load.c - the ODBC backend's bulk path: rows gathered into multi-row INSERT
 * statements ("INSERT INTO t (a, b) VALUES (?, ?), (?, ?), ..."), prepared once per
 * batch size and executed one round trip per batch, all in one transaction (the load is
 * atomic, as DG_CAP_BULK_ATOMIC says). A batch is ROWS_PER_BATCH rows, fewer when the
 * dialect's parameter limit says so; the last, partial batch gets a statement of its
 * own. Text values are copied into the batch's arena: the caller's buffers are reused.
 */
#include "backend/dialect.h"
#include "backend/odbc_int.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define ROWS_PER_BATCH 200

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
    int max = conn->dialect->max_params > 0 ? conn->dialect->max_params : 32767;
    b->batch = ncols > 0 && max / ncols < ROWS_PER_BATCH ? max / ncols : ROWS_PER_BATCH;
    if (b->batch < 1)
        b->batch = 1;
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
    return b->n == b->batch ? flush(b, err) : 0;
}

int dg_odbc_bulk_end(dg_bulk *bb, bool commit, dg_err *err)
{
    odbc_bulk *b = (odbc_bulk *)bb;
    dg_conn *conn = b->base.conn;
    int rc = commit ? flush(b, err) : 0;
    if (rc == 0 && commit)
        rc = dg_commit(conn, err);
    else
        dg_rollback(conn, NULL);
    dg_stmt_free(b->full);
    for (int i = 0; i < b->ncols; i++)
        free(b->cols[i]);
    free(b->cols);
    free(b->table);
    free(b->vals);
    free(b->arena);
    free(b);
    return rc;
}
