/*
 * mysql_load.c - the MariaDB/MySQL backend's bulk load (dg_bulk_begin, _row, _end); the
 * connection and its errors are mysql.c's (mysql_int.h), and so is the local-infile handler
 * that streams the rows this file buffers (it reads my_conn.infile).
 *
 * Bulk load: LOAD DATA LOCAL INFILE when the server has local_infile=ON and the URL does
 * not say ?local_infile=0 (rows are formatted tab-separated into a buffer and streamed to
 * the server through a local-infile handler, one LOAD DATA per 8 MB), else multi-row
 * INSERTs sized under max_allowed_packet; either way inside one transaction per bulk
 * load. server_info reports which path the connection gets ("bulk_path").
 *
 * Layout: the server's limits; flushing a chunk; begin; rows (infile, INSERT); end.
 */
#include "backend/mysql_int.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INFILE_CHUNK_BYTES (8u << 20)
#define INSERT_MAX_BYTES (4u << 20)

/* ---- bulk load ----------------------------------------------------------------------------- */

/* The server's local_infile and max_allowed_packet, asked once per connection. */
static int server_limits(my_conn *c, dg_err *err)
{
    if (c->local_infile >= 0)
        return 0;
    MYSQL_RES *res = NULL;
    int rc = dg_mysql_query_result(c, "SELECT @@local_infile, @@max_allowed_packet", &res, err);
    if (rc)
        return rc;
    MYSQL_ROW row = dg_my.mysql_fetch_row(res);
    c->local_infile = row && row[0] && atoi(row[0]) == 1;
    c->max_packet = row && row[1] ? strtoul(row[1], NULL, 10) : 1u << 20;
    dg_my.mysql_free_result(res);
    return 0;
}

static int bulk_flush(my_bulk *b, dg_err *err)
{
    my_conn *c = (my_conn *)b->base.conn;
    if (b->infile) {
        if (b->buf.len == 0)
            return 0;
        dg_strbuf sql = DG_STRBUF_INIT;
        /* A chunk of ASCII text goes as it is (CHARACTER SET binary): ASCII bytes are the
         * same characters in every charset a column here can have, and the server then
         * copies them instead of converting each value from utf8mb4 (to latin1, the
         * default). Any other byte: utf8mb4, converted as the column needs. */
        bool ascii = !b->wide_cols && !(b->high & 0x80);
        dg_sb_printf(&sql,
                     "LOAD DATA LOCAL INFILE 'dbgauge-bulk' INTO TABLE %s CHARACTER SET %s "
                     "FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' %s",
                     b->table, ascii ? "binary" : "utf8mb4", b->cols);
        b->high = 0;
        b->sent = 0;
        c->infile = b;
        int rc = dg_mysql_exec_sql(c, dg_sb_str(&sql), false, err);
        c->infile = NULL;
        dg_sb_free(&sql);
        if (rc == 0 && dg_my.mysql_warning_count(c->my) > 0) {
            /* LOAD DATA turns bad values into warnings; a load must be exact */
            MYSQL_RES *w = NULL;
            if (dg_mysql_query_result(c, "SHOW WARNINGS LIMIT 1", &w, NULL) == 0) {
                MYSQL_ROW row = dg_my.mysql_fetch_row(w);
                rc = dg_err_set(err, DG_E_DB, DG_EC_USER, row && row[1] ? atoi(row[1]) : 0,
                                NULL, "LOAD DATA into %s: %s", b->table,
                                row && row[2] ? row[2] : "warnings");
                dg_my.mysql_free_result(w);
            }
        }
        b->base.bytes += b->buf.len;
        dg_sb_reset(&b->buf);
        return rc;
    }
    if (b->rows_in_insert == 0)
        return 0;
    int rc = dg_mysql_exec_sql(c, dg_sb_str(&b->buf), false, err);
    b->base.bytes += b->buf.len;
    dg_sb_reset(&b->buf);
    b->rows_in_insert = 0;
    return rc;
}

int dg_mysql_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                        dg_bulk **out, dg_err *err)
{
    my_conn *c = (my_conn *)conn;
    int rc = server_limits(c, err);
    if (rc)
        return rc;
    bool infile = c->local_infile == 1 && c->client_infile, wide = false;
    if (infile) {
        /* columns whose charset stores ASCII otherwise than as its bytes (asked before the
         * load's transaction: a dictionary read inside it can deadlock with other jobs) */
        char sql[512];
        snprintf(sql, sizeof sql,
                 "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() "
                 "AND table_name = '%s' AND character_set_name IN ('ucs2', 'utf16', 'utf16le', 'utf32')",
                 table);
        MYSQL_RES *res = NULL;
        if ((rc = dg_mysql_query_result(c, sql, &res, err)) != 0)
            return rc;
        MYSQL_ROW row = dg_my.mysql_fetch_row(res);
        wide = !row || !row[0] || strcmp(row[0], "0") != 0;
        dg_my.mysql_free_result(res);
    }
    if ((rc = dg_mysql_exec_sql(c, "START TRANSACTION", false, err)) != 0)
        return rc;
    my_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->table = table;
    b->ncols = ncols;
    b->infile = infile;
    b->wide_cols = wide;
    dg_strbuf cl = DG_STRBUF_INIT;
    dg_sb_addc(&cl, '(');
    for (int i = 0; i < ncols; i++)
        dg_sb_printf(&cl, "%s%s", i ? ", " : "", cols[i]);
    dg_sb_addc(&cl, ')');
    b->cols = dg_sb_take(&cl);
    size_t packet = c->max_packet > 4096 ? c->max_packet - 1024 : 4096;
    b->flush_at = b->infile ? INFILE_CHUNK_BYTES : (packet < INSERT_MAX_BYTES ? packet / 2 : INSERT_MAX_BYTES);
    *out = &b->base;
    return 0;
}

/* LOAD DATA field: \N for NULL; backslash, tab, newline, CR and NUL escaped. */
static void infile_value(dg_strbuf *sb, const dg_value *v, unsigned char *high)
{
    char num[32];
    switch (v->type) {
    case DG_V_NULL:
        dg_sb_addn(sb, "\\N", 2);
        return;
    case DG_V_TEXT: {
        const char *p = v->u.s.ptr, *e = p + v->u.s.len, *run = p;
        unsigned char h = 0;
        for (; p < e; p++) {
            h |= (unsigned char)*p;
            const char *esc = NULL;
            switch (*p) {
            case '\\': esc = "\\\\"; break;
            case '\t': esc = "\\t"; break;
            case '\n': esc = "\\n"; break;
            case '\r': esc = "\\r"; break;
            case '\0': esc = "\\0"; break;
            }
            if (esc) {
                dg_sb_addn(sb, run, (size_t)(p - run));
                dg_sb_addn(sb, esc, 2);
                run = p + 1;
            }
        }
        dg_sb_addn(sb, run, (size_t)(e - run));
        *high |= h;
        return;
    }
    default:
        dg_value_format(v, num, sizeof num);
        dg_sb_add(sb, num);
        return;
    }
}

/* INSERT literal: NULL, a number, or a quoted string escaped by the client library (which
 * knows the connection's character set and NO_BACKSLASH_ESCAPES). */
static void insert_value(my_conn *c, my_bulk *b, const dg_value *v)
{
    char num[40];
    switch (v->type) {
    case DG_V_NULL:
        dg_sb_add(&b->buf, "NULL");
        return;
    case DG_V_TEXT:
        if (b->esccap < v->u.s.len * 2 + 1) {
            b->esccap = v->u.s.len * 2 + 1;
            b->esc = xrealloc(b->esc, b->esccap);
        }
        dg_sb_addc(&b->buf, '\'');
        unsigned long n =
            dg_my.mysql_real_escape_string(c->my, b->esc, v->u.s.ptr, (unsigned long)v->u.s.len);
        dg_sb_addn(&b->buf, b->esc, n);
        dg_sb_addc(&b->buf, '\'');
        return;
    default:
        dg_value_format(v, num, sizeof num);
        dg_sb_add(&b->buf, num);
        return;
    }
}

int dg_mysql_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    my_bulk *b = (my_bulk *)bulk;
    my_conn *c = (my_conn *)bulk->conn;
    if (b->infile) {
        for (int i = 0; i < b->ncols; i++) {
            if (i)
                dg_sb_addc(&b->buf, '\t');
            infile_value(&b->buf, &vals[i], &b->high);
        }
        dg_sb_addc(&b->buf, '\n');
    } else {
        if (b->rows_in_insert == 0)
            dg_sb_printf(&b->buf, "INSERT INTO %s %s VALUES ", b->table, b->cols);
        else
            dg_sb_addc(&b->buf, ',');
        dg_sb_addc(&b->buf, '(');
        for (int i = 0; i < b->ncols; i++) {
            if (i)
                dg_sb_addc(&b->buf, ',');
            insert_value(c, b, &vals[i]);
        }
        dg_sb_addc(&b->buf, ')');
        b->rows_in_insert++;
    }
    b->base.rows++;
    return b->buf.len >= b->flush_at ? bulk_flush(b, err) : 0;
}

int dg_mysql_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    my_bulk *b = (my_bulk *)bulk;
    my_conn *c = (my_conn *)bulk->conn;
    int rc = 0;
    if (commit) {
        rc = bulk_flush(b, err);
        if (rc == 0)
            rc = dg_mysql_exec_sql(c, "COMMIT", true, err);
    }
    if (!commit || rc)
        dg_mysql_exec_sql(c, "ROLLBACK", false, NULL);
    dg_sb_free(&b->buf);
    free(b->esc);
    free(b->cols);
    free(b);
    return rc;
}

