/*
 * postgres_load.c - the PostgreSQL backend's bulk load (dg_bulk_begin, _begin_whole, _row,
 * _end): COPY ... FROM STDIN, in binary format where backend/pgcopy.h writes every column's
 * type (the pure encoder; this file feeds it and the connection), else in text format
 * (?copy=text forces it). A whole-table load runs its COPY in a transaction that first
 * empties the table, which allows FREEZE (see bulk_begin). The connection and its errors
 * are postgres.c's (postgres_int.h).
 *
 * Layout: the load's type; its buffer; the column kinds; begin; rows (binary, text); end.
 */
#include "backend/postgres_int.h"
#include "backend/pgcopy.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COPY_FLUSH_BYTES (256 * 1024)

typedef struct pg_bulk {
    dg_bulk base; /* must be first */
    int ncols;
    bool in_tx;   /* a whole-table load: COPY in BEGIN .. COMMIT (bulk_begin) */
    bool binary;  /* FORMAT binary: kinds[] says how each column is written */
    dg_pgcopy_kind *kinds;
    char **names; /* the columns, for messages */
    char *buf;
    size_t len, cap;
} pg_bulk;

/* ---- bulk load (COPY FROM STDIN, binary or text format) ------------------------------------- */

static void bulk_reserve(pg_bulk *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : COPY_FLUSH_BYTES + 4096;
    while (cap < b->len + extra)
        cap *= 2;
    b->buf = xrealloc(b->buf, cap);
    b->cap = cap;
}

static int bulk_flush(pg_bulk *b, dg_err *err)
{
    pg_conn *c = (pg_conn *)b->base.conn;
    if (b->len == 0)
        return 0;
    if (PQputCopyData(c->pg, b->buf, (int)b->len) != 1)
        return dg_postgres_fill_error(c, NULL, NULL, err);
    b->base.bytes += b->len;
    b->len = 0;
    return 0;
}

static void bulk_free(pg_bulk *b)
{
    if (b->names)
        for (int i = 0; i < b->ncols; i++)
            free(b->names[i]);
    free(b->names);
    free(b->kinds);
    free(b->buf);
    free(b);
}

/* The binary COPY writer of each column, from the columns' types as a query returns them;
 * b->binary stays false (text format) when a type is not one pgcopy writes, or when the
 * server keeps timestamps as floating point (a build option gone since PostgreSQL 10). */
static int copy_kinds(pg_conn *c, const char *table, const char *const *cols, int ncols, pg_bulk *b,
                      dg_err *err)
{
    dg_strbuf sql = DG_STRBUF_INIT;
    dg_sb_add(&sql, "SELECT ");
    for (int i = 0; i < ncols; i++)
        dg_sb_printf(&sql, "%s%s", i ? ", " : "", cols[i]);
    dg_sb_printf(&sql, " FROM %s LIMIT 0", table);
    PGresult *res = PQexec(c->pg, dg_sb_str(&sql));
    dg_sb_free(&sql);
    if (!res || PQresultStatus(res) != PGRES_TUPLES_OK || PQnfields(res) != ncols) {
        int rc = dg_postgres_fill_error(c, res, NULL, err);
        PQclear(res);
        return rc ? rc : dg_err_fail(err, DG_E_DB, "COPY %s: cannot read its column types", table);
    }
    const char *idt = PQparameterStatus(c->pg, "integer_datetimes");
    bool int_stamps = idt && !strcmp(idt, "on");
    b->ncols = ncols;
    b->kinds = xcalloc((size_t)ncols, sizeof *b->kinds);
    b->names = xcalloc((size_t)ncols, sizeof *b->names);
    b->binary = true;
    for (int i = 0; i < ncols; i++) {
        b->kinds[i] = dg_pgcopy_kind_of((unsigned)PQftype(res, i));
        b->names[i] = xstrdup(cols[i]);
        if (b->kinds[i] == DG_PGC_UNSUPPORTED || (b->kinds[i] == DG_PGC_TIMESTAMP && !int_stamps))
            b->binary = false;
    }
    PQclear(res);
    return 0;
}

/* COPY ... FROM STDIN into table. whole: the caller loads the whole of a table it has just
 * created and that nobody else writes; then the COPY runs in a transaction that first
 * empties the table (TRUNCATE, instant on a new table), which allows FREEZE: rows are
 * written frozen and their pages all-visible, so the VACUUM after the load has nothing
 * left to do and the first readers set no hint bits. */
static int bulk_begin(pg_conn *c, const char *table, const char *const *cols, int ncols, bool whole,
                      dg_bulk **out, dg_err *err)
{
    dg_strbuf sql = DG_STRBUF_INIT;
    int rc = 0;
    if (whole) {
        dg_sb_printf(&sql, "BEGIN; TRUNCATE %s", table);
        rc = dg_postgres_exec_sql(c, dg_sb_str(&sql), false, NULL, err);
        dg_sb_reset(&sql);
        if (rc) {
            dg_sb_free(&sql);
            PQclear(PQexec(c->pg, "ROLLBACK"));
            return rc;
        }
    }
    pg_bulk *b = xcalloc(1, sizeof *b);
    if (!c->copy_text && (rc = copy_kinds(c, table, cols, ncols, b, err)) != 0) {
        bulk_free(b);
        dg_sb_free(&sql);
        if (whole)
            PQclear(PQexec(c->pg, "ROLLBACK"));
        return rc;
    }
    dg_sb_printf(&sql, "COPY %s (", table);
    for (int i = 0; i < ncols; i++)
        dg_sb_printf(&sql, "%s%s", i ? ", " : "", cols[i]);
    dg_sb_add(&sql, ") FROM STDIN");
    if (b->binary || whole)
        dg_sb_printf(&sql, " (%s%s%s)", b->binary ? "FORMAT binary" : "", b->binary && whole ? ", " : "",
                     whole ? "FREEZE" : "");
    PGresult *res = PQexec(c->pg, dg_sb_str(&sql));
    dg_sb_free(&sql);
    if (!res || PQresultStatus(res) != PGRES_COPY_IN) {
        rc = dg_postgres_fill_error(c, res, NULL, err);
        PQclear(res);
        bulk_free(b);
        if (whole)
            PQclear(PQexec(c->pg, "ROLLBACK"));
        return rc;
    }
    PQclear(res);
    b->base.conn = &c->base;
    b->ncols = ncols;
    b->in_tx = whole;
    if (b->binary) {
        bulk_reserve(b, DG_PGCOPY_HEADER_LEN);
        memcpy(b->buf, dg_pgcopy_header, DG_PGCOPY_HEADER_LEN);
        b->len = DG_PGCOPY_HEADER_LEN;
    }
    *out = &b->base;
    return 0;
}

int dg_postgres_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                           dg_bulk **out, dg_err *err)
{
    return bulk_begin((pg_conn *)conn, table, cols, ncols, false, out, err);
}

int dg_postgres_bulk_begin_whole(dg_conn *conn, const char *table, const char *const *cols,
                                 int ncols, dg_bulk **out, dg_err *err)
{
    return bulk_begin((pg_conn *)conn, table, cols, ncols, true, out, err);
}

/* Appends the fields of a row in the binary format. */
static int binary_row(pg_bulk *b, const dg_value *vals, dg_err *err)
{
    bulk_reserve(b, 2);
    b->buf[b->len++] = (char)(b->ncols >> 8);
    b->buf[b->len++] = (char)b->ncols;
    for (int i = 0; i < b->ncols; i++) {
        bulk_reserve(b, dg_pgcopy_field_max(&vals[i]));
        char why[160];
        size_t n = dg_pgcopy_field(b->kinds[i], &vals[i], b->buf + b->len, why, sizeof why);
        if (n == 0)
            return dg_err_fail(err, DG_E_INVAL, "COPY column %s: %s (row %lld of this load)", b->names[i],
                               why, (long long)b->base.rows + 1);
        b->len += n;
    }
    return 0;
}

/* Appends v in COPY text format: \N for NULL; backslash, tab, newline and carriage return
 * escaped in text. */
static void copy_value(pg_bulk *b, const dg_value *v)
{
    char num[32];
    switch (v->type) {
    case DG_V_NULL:
        bulk_reserve(b, 2);
        memcpy(b->buf + b->len, "\\N", 2);
        b->len += 2;
        return;
    case DG_V_INT:
        dg_postgres_format_int(v->u.i, num);
        break;
    case DG_V_DOUBLE:
        snprintf(num, sizeof num, "%.17g", v->u.d);
        break;
    case DG_V_NUMERIC:
        dg_format_numeric(v->u.n.unscaled, v->u.n.scale, num);
        break;
    case DG_V_TEXT: {
        bulk_reserve(b, v->u.s.len * 2);
        char *o = b->buf + b->len;
        const char *p = v->u.s.ptr, *e = p + v->u.s.len;
        for (; p < e; p++) {
            switch (*p) {
            case '\\': *o++ = '\\'; *o++ = '\\'; break;
            case '\t': *o++ = '\\'; *o++ = 't'; break;
            case '\n': *o++ = '\\'; *o++ = 'n'; break;
            case '\r': *o++ = '\\'; *o++ = 'r'; break;
            default: *o++ = *p;
            }
        }
        b->len = (size_t)(o - b->buf);
        return;
    }
    }
    size_t n = strlen(num);
    bulk_reserve(b, n);
    memcpy(b->buf + b->len, num, n);
    b->len += n;
}

int dg_postgres_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    pg_bulk *b = (pg_bulk *)bulk;
    if (b->binary) {
        int rc = binary_row(b, vals, err);
        if (rc)
            return rc;
        b->base.rows++;
        return b->len >= COPY_FLUSH_BYTES ? bulk_flush(b, err) : 0;
    }
    for (int i = 0; i < b->ncols; i++) {
        if (i) {
            bulk_reserve(b, 1);
            b->buf[b->len++] = '\t';
        }
        copy_value(b, &vals[i]);
    }
    bulk_reserve(b, 1);
    b->buf[b->len++] = '\n';
    b->base.rows++;
    return b->len >= COPY_FLUSH_BYTES ? bulk_flush(b, err) : 0;
}

int dg_postgres_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    pg_bulk *b = (pg_bulk *)bulk;
    pg_conn *c = (pg_conn *)bulk->conn;
    if (commit && b->binary) {
        bulk_reserve(b, DG_PGCOPY_TRAILER_LEN);
        memcpy(b->buf + b->len, dg_pgcopy_trailer, DG_PGCOPY_TRAILER_LEN);
        b->len += DG_PGCOPY_TRAILER_LEN;
    }
    int rc = commit ? bulk_flush(b, err) : 0;
    bool ok = commit && rc == 0;
    if (PQputCopyEnd(c->pg, ok ? NULL : "load abandoned by dbgauge") != 1 && rc == 0 && ok)
        rc = dg_postgres_fill_error(c, NULL, NULL, err);
    PGresult *res;
    while ((res = PQgetResult(c->pg)) != NULL) {
        if (PQresultStatus(res) != PGRES_COMMAND_OK && rc == 0 && ok)
            rc = dg_postgres_fill_error(c, res, NULL, err);
        PQclear(res);
    }
    if (b->in_tx) {
        if (ok && rc == 0)
            rc = dg_postgres_exec_sql(c, "COMMIT", false, NULL, err);
        else
            PQclear(PQexec(c->pg, "ROLLBACK"));
    }
    bulk_free(b);
    return rc;
}

