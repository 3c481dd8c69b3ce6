/*
 * firebird_load.c - the Firebird bulk path (dg_bulk_*).
 *
 * Firebird 3 has no COPY, no multi-row VALUES and no batch API (IBatch is Firebird 4), so
 * rows travel in EXECUTE BLOCK statements: one prepared block takes per_block rows as
 * parameters typed like the target columns (TYPE OF COLUMN) and inserts them with one
 * round trip; per_block keeps the message and the statement text under Firebird's 64 KB
 * limits. Measured on tpcb and tpcc loads: 3 to 7 times the rows per second of a prepared
 * one-row INSERT (?bulk=insert, kept for comparison, which also takes the last partial
 * block). The load runs in its own SNAPSHOT transaction, committed every BULK_COMMIT_ROWS
 * rows so that no transaction grows without bound.
 *
 * Layout: the block statement and the transaction (begin), buffering rows (text copied
 * into one grow-only buffer), flushing a block, the end.
 */
#include "backend/firebird_int.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BULK_COMMIT_ROWS 50000
#define BULK_MAX_BLOCK_ROWS 256  /* rows per EXECUTE BLOCK */
#define BULK_MAX_MSG_BYTES 60000 /* Firebird 3 caps a message at 64 KB */
#define BULK_MAX_SQL_BYTES 60000 /* and a statement's text at 64 KB */

typedef struct fb_bulk {
    dg_bulk base; /* must be first */
    isc_tr_handle tx;
    fb_stmt *ins;  /* one-row INSERT */
    fb_stmt *blk;  /* EXECUTE BLOCK of per_block rows; NULL in insert mode */
    int ncols, per_block, nbuf;
    dg_value *vals;   /* [per_block * ncols] buffered rows; text in `text` */
    size_t *text_off; /* [per_block * ncols] */
    char *text;
    size_t text_len, text_cap;
    uint64_t in_tx_rows;
} fb_bulk;

/* Message bytes one row of the INSERT's parameters takes (as described by the server). */
static size_t row_msg_bytes(const fb_stmt *ins)
{
    size_t n = 0;
    for (int i = 0; i < ins->nin; i++) {
        const XSQLVAR *v = &ins->in->sqlvar[i];
        n = fb_align8(n + (size_t)v->sqllen + 2) + 8; /* value (+ VARCHAR length), NULL flag */
    }
    return n;
}

/* Loads run in snapshot transactions of their own (nothing else writes those tables). */
static const char bulk_tpb[] = {isc_tpb_version3, isc_tpb_write, isc_tpb_concurrency, isc_tpb_wait};

static void bulk_free(fb_bulk *b)
{
    fb_stmt_destroy(b->ins);
    fb_stmt_destroy(b->blk);
    free(b->vals);
    free(b->text_off);
    free(b->text);
    free(b);
}

int fb_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                  dg_bulk **out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    fb_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->ncols = ncols;
    dg_strbuf sql = DG_STRBUF_INIT;
    dg_sb_printf(&sql, "INSERT INTO %s (", table);
    for (int i = 0; i < ncols; i++)
        dg_sb_printf(&sql, "%s%s", i ? ", " : "", cols[i]);
    dg_sb_add(&sql, ") VALUES (");
    for (int i = 0; i < ncols; i++)
        dg_sb_add(&sql, i ? ", ?" : "?");
    dg_sb_add(&sql, ")");
    int rc = fb_stmt_prepare(c, dg_sb_str(&sql), &b->ins, err);
    if (rc)
        goto fail;
    if (b->ins->nin != ncols) {
        rc = dg_err_fail(err, DG_E_INVAL, "bulk load into %s: %d columns, %d parameters", table, ncols,
                         b->ins->nin);
        goto fail;
    }
    /* EXECUTE BLOCK packs many rows into one round trip; its parameters take the column
     * types (TYPE OF COLUMN), and message and text stay under Firebird's 64 KB limits. */
    int per = (int)(BULK_MAX_MSG_BYTES / (row_msg_bytes(b->ins) + 1));
    size_t row_sql = 0;
    for (int j = 0; j < ncols; j++)
        row_sql += 2 * strlen(cols[j]) + strlen(table) + 40;
    row_sql += strlen(table) + 30;
    if ((size_t)per * row_sql > BULK_MAX_SQL_BYTES)
        per = (int)(BULK_MAX_SQL_BYTES / row_sql);
    if (per > BULK_MAX_BLOCK_ROWS)
        per = BULK_MAX_BLOCK_ROWS;
    if (c->o.bulk == BULK_BLOCK && per >= 4) {
        dg_sb_reset(&sql);
        dg_sb_add(&sql, "EXECUTE BLOCK (");
        for (int r = 0; r < per; r++)
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%sp%d TYPE OF COLUMN %s.%s = ?", r || j ? ", " : "", r * ncols + j,
                             table, cols[j]);
        dg_sb_add(&sql, ") AS BEGIN\n");
        for (int r = 0; r < per; r++) {
            dg_sb_printf(&sql, "INSERT INTO %s (", table);
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s%s", j ? ", " : "", cols[j]);
            dg_sb_add(&sql, ") VALUES (");
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s:p%d", j ? ", " : "", r * ncols + j);
            dg_sb_add(&sql, ");\n");
        }
        dg_sb_add(&sql, "END");
        rc = fb_stmt_prepare(c, dg_sb_str(&sql), &b->blk, err);
        if (rc) {
            dg_err_prefix(err, "bulk load into %s (EXECUTE BLOCK)", table);
            goto fail;
        }
        b->per_block = per;
        b->vals = xcalloc((size_t)per * (size_t)ncols, sizeof *b->vals);
        b->text_off = xcalloc((size_t)per * (size_t)ncols, sizeof *b->text_off);
    }
    dg_sb_free(&sql);
    if ((rc = fb_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) != 0)
        goto fail;
    *out = &b->base;
    return 0;
fail:
    dg_sb_free(&sql);
    bulk_free(b);
    return rc;
}

/* Commits the load so far and starts the next slice, so no transaction grows without bound. */
static int bulk_slice(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    if (isc_commit_transaction(c->sv, &b->tx)) {
        int rc = fb_error(c->sv, err, "bulk load: commit");
        fb_tx_abandon(&b->tx);
        return rc;
    }
    b->in_tx_rows = 0;
    return fb_tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err);
}

static int bulk_flush_block(fb_bulk *b, dg_err *err)
{
    for (int i = 0; i < b->nbuf * b->ncols; i++)
        if (b->vals[i].type == DG_V_TEXT)
            b->vals[i].u.s.ptr = b->text + b->text_off[i];
    int rc = fb_stmt_run(b->blk, b->vals, &b->tx, TXK_LOCAL, err);
    b->blk->txk = TXK_NONE;
    b->blk->txp = NULL;
    if (rc)
        return rc;
    b->in_tx_rows += (uint64_t)b->nbuf;
    b->nbuf = 0;
    b->text_len = 0;
    return b->in_tx_rows >= BULK_COMMIT_ROWS ? bulk_slice(b, err) : 0;
}

int fb_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    int rc;
    for (int i = 0; i < b->ncols; i++)
        b->base.bytes += dg_value_bytes(&vals[i]);
    if (!b->blk) {
        rc = fb_stmt_run(b->ins, vals, &b->tx, TXK_LOCAL, err);
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
    return b->nbuf == b->per_block ? bulk_flush_block(b, err) : 0;
}

int fb_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    fb_conn *c = (fb_conn *)bulk->conn;
    int rc = 0;
    if (commit && b->nbuf > 0) {
        /* the last partial block, row by row */
        for (int r = 0; r < b->nbuf && rc == 0; r++) {
            dg_value *row = &b->vals[r * b->ncols];
            for (int i = 0; i < b->ncols; i++)
                if (row[i].type == DG_V_TEXT)
                    row[i].u.s.ptr = b->text + b->text_off[r * b->ncols + i];
            rc = fb_stmt_run(b->ins, row, &b->tx, TXK_LOCAL, err);
        }
        b->ins->txk = TXK_NONE;
        b->ins->txp = NULL;
    }
    if (commit && rc == 0) {
        if (isc_commit_transaction(c->sv, &b->tx))
            rc = fb_error(c->sv, err, "bulk load: commit");
    }
    fb_tx_abandon(&b->tx);
    bulk_free(b);
    return rc;
}

