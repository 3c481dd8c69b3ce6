/*
 * check.c - `dbgauge check -w tables`: the database holds what the loader and the runs
 * wrote, and every index answers like its table.
 *
 *   row counts      each table holds exactly its loaded rows below the first key a run
 *                   may insert, and count(*) = loaded + inserted (two access paths agree)
 *   inserted rows   rows past the loaded keys are whole ids with seq 1, as inserts write
 *   primary key     for sampled ids (the first, the last and SAMPLE_IDS drawn from the
 *                   seed), every row read by (id, seq) is the generated row, column by column
 *   iuk_tbl         the same rows found by (id, col3, col4, col5)
 *   ind1            by id ORDER BY col9 DESC: min(rows of the id, 10) rows, and their col9
 *                   values are the generated ones' 10 latest
 */
#include "workload/tables/tables.h"

#include "core/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_IDS 20

enum { C_COUNTS, C_INSERTED, C_PK, C_IUK, C_IND1, C_N };

typedef struct tally {
    int64_t bad[C_N];
    char detail[C_N][256];
    int64_t loaded, inserted, lookups;
} tally;

/* Counts a failure of check c; the first one is described as "TABLE id ID: WHAT". */
static void note_bad(tally *ty, int c, const char *table, const char *id, const char *what)
{
    if (ty->bad[c]++ == 0)
        snprintf(ty->detail[c], sizeof ty->detail[c], "%s%s%s: %s", table, id ? " id " : "",
                 id ? id : "", what);
}

static bool text_eq(const dg_value *v, const char *p, int n)
{
    if (n < 0)
        return v->type == DG_V_NULL;
    return v->type == DG_V_TEXT && v->u.s.len == (size_t)n && memcmp(v->u.s.ptr, p, (size_t)n) == 0;
}

static bool int_eq(const dg_value *v, int64_t want)
{
    int64_t x;
    return dg_value_as_int(v, &x) && x == want;
}

/* The row at the cursor against the generated one (timestamps to the second). */
static bool row_matches(dg_stmt *s, const dg_tables_row *r)
{
    dg_value v[14];
    for (int i = 0; i < 14; i++)
        dg_column(s, i, &v[i]);
    double c12 = 0;
    bool ok = text_eq(&v[0], r->id, 13) && int_eq(&v[1], r->seq) && text_eq(&v[2], r->col3, r->n3) &&
              text_eq(&v[3], r->col4, r->n4) && text_eq(&v[4], r->col5, r->n5) &&
              text_eq(&v[5], r->col6, r->n6) && text_eq(&v[6], r->col7, r->n7) &&
              text_eq(&v[7], r->col8, r->n8) && int_eq(&v[9], r->col10) && int_eq(&v[10], r->col11) &&
              dg_value_as_double(&v[11], &c12) &&
              (int64_t)(c12 * 100 + (c12 >= 0 ? 0.5 : -0.5)) == r->col12_cents &&
              v[12].type == DG_V_TEXT && v[12].u.s.len >= 1 && v[12].u.s.ptr[0] == r->col13[0] &&
              text_eq(&v[13], r->col14, r->n14);
    if (ok && v[8].type == DG_V_TEXT)
        ok = v[8].u.s.len >= 19 && memcmp(v[8].u.s.ptr, r->col9, 19) == 0;
    return ok;
}

static int cmp_desc(const void *a, const void *b)
{
    return -strcmp((const char *)a, (const char *)b);
}

/* Checks the three lookups of id i of table t. */
static int check_id(dg_conn *conn, dg_tables *p, int t, int64_t i, dg_stmt *const q[TABLES_NQ],
                    tally *ty, dg_err *err)
{
    const char *name = p->names[t];
    int k = dg_tables_rows_of_id(p->seed, t, &p->shape[t], i);
    char stamps[TABLES_MAX_SEQ][20];
    dg_tables_row r;
    int rc = 0;
    (void)conn;
    for (int seq = 1; seq <= k && rc == 0; seq++) {
        dg_tables_row_gen(p->seed, t, i, seq, true, &r);
        memcpy(stamps[seq - 1], r.col9, 20);
        ty->lookups++;
        /* by primary key */
        dg_value pk[2] = {dg_vtext(r.id, 13), dg_vint(seq)};
        if ((rc = dg_execute(q[Q_PK], pk, 2, err)) != 0)
            return rc;
        int got = 0, f;
        bool match = false;
        while ((f = dg_fetch(q[Q_PK], err)) == 1)
            match = got++ == 0 && row_matches(q[Q_PK], &r);
        if (f < 0)
            return f;
        if (got != 1 || !match)
            note_bad(ty, C_PK, name, r.id, "the row read by primary key is not the generated one");
        /* by iuk_tbl */
        dg_value iuk[4] = {dg_vtext(r.id, 13), dg_vtext(r.col3, (size_t)r.n3),
                           dg_vtext(r.col4, (size_t)r.n4), dg_vtext(r.col5, (size_t)r.n5)};
        if ((rc = dg_execute(q[Q_IUK], iuk, 4, err)) != 0)
            return rc;
        got = 0;
        match = false;
        while ((f = dg_fetch(q[Q_IUK], err)) == 1)
            match = got++ == 0 && row_matches(q[Q_IUK], &r);
        if (f < 0)
            return f;
        if (got != 1 || !match)
            note_bad(ty, C_IUK, name, r.id, "the row read through iuk_tbl is not the generated one");
    }
    /* by ind1: the latest 10 col9 values of the id */
    qsort(stamps, (size_t)k, sizeof stamps[0], cmp_desc);
    int want = k < TABLES_IND1_LIMIT ? k : TABLES_IND1_LIMIT;
    dg_tables_key(p->seed, t, i, r.id);
    dg_value id = dg_vtext(r.id, 13);
    if ((rc = dg_execute(q[Q_IND1], &id, 1, err)) != 0)
        return rc;
    int got = 0, f;
    bool match = true;
    while ((f = dg_fetch(q[Q_IND1], err)) == 1) {
        dg_value v;
        dg_column(q[Q_IND1], 8, &v);
        if (got < want && v.type == DG_V_TEXT)
            match &= v.u.s.len >= 19 && memcmp(v.u.s.ptr, stamps[got], 19) == 0;
        got++;
    }
    if (f < 0)
        return f;
    if (got != want || !match)
        note_bad(ty, C_IND1, name, r.id, "ind1 did not return the latest rows by col9");
    return 0;
}

static int count_where(dg_conn *conn, const char *table, const char *where, const char *key,
                       int64_t *out, dg_err *err)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s%s", table, where);
    dg_value v = dg_vtext(key, 13);
    bool found = false;
    int rc = dg_query_int(conn, sql, key ? &v : NULL, key ? 1 : 0, out, &found, err);
    if (rc == 0 && !found)
        *out = 0;
    return rc;
}

static int check_table(dg_conn *conn, dg_tables *p, int t, tally *ty, dg_err *err)
{
    const char *name = p->names[t];
    const dg_tables_shape *sh = &p->shape[t];
    /* the first key inserts may take is above every loaded key */
    char bound[14];
    bound[0] = 'U';
    uint64_t b = (uint64_t)sh->ids * TABLES_KEY_STRIDE;
    for (int k = 12; k >= 1; k--, b /= 10)
        bound[k] = (char)('0' + b % 10);
    bound[13] = '\0';
    int64_t loaded = 0, above = 0, bad_seq = 0, all = 0;
    int rc;
    if ((rc = count_where(conn, name, " WHERE id < ?", bound, &loaded, err)) ||
        (rc = count_where(conn, name, " WHERE id >= ?", bound, &above, err)) ||
        (rc = count_where(conn, name, " WHERE id >= ? AND seq <> 1", bound, &bad_seq, err)) ||
        (rc = count_where(conn, name, "", NULL, &all, err)))
        return rc;
    ty->loaded += loaded;
    ty->inserted += above;
    if (loaded != sh->rows) {
        char what[64];
        snprintf(what, sizeof what, "holds %" PRId64 " loaded rows, not %" PRId64, loaded, sh->rows);
        note_bad(ty, C_COUNTS, name, NULL, what);
    }
    if (bad_seq != 0 || all != loaded + above)
        note_bad(ty, C_INSERTED, name, NULL, "rows past the loaded keys are not whole inserted ids");

    dg_stmt *q[TABLES_NQ] = {NULL, NULL, NULL};
    for (int k = 0; k < TABLES_NQ && rc == 0; k++) {
        char *sql = dg_tables_query_sql(conn->dialect, k, name);
        rc = dg_prepare(conn, sql, &q[k], err);
        free(sql);
    }
    dg_prng g;
    dg_prng_seed(&g, p->seed ^ (uint64_t)(t + 1) * UINT64_C(0x9e3779b97f4a7c15));
    for (int n = 0; n < SAMPLE_IDS + 2 && rc == 0 && sh->ids > 0; n++) {
        int64_t i = n == 0 ? 0 : n == 1 ? sh->ids - 1 : dg_prng_range(&g, 0, sh->ids - 1);
        rc = check_id(conn, p, t, i, q, ty, err);
    }
    for (int k = 0; k < TABLES_NQ; k++)
        dg_stmt_free(q[k]);
    return rc;
}

int dg_tables_check(dg_workload *wl, dg_conn *conn,
                    void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err)
{
    dg_tables *p = wl->priv;
    if (!p->attached)
        return dg_err_fail(err, DG_E_INVAL, "tables: check before attach()");
    tally ty;
    memset(&ty, 0, sizeof ty);
    for (int t = 0; t < p->ntables; t++) {
        int rc = check_table(conn, p, t, &ty, err);
        if (rc) {
            dg_err_prefix(err, "checking %s", p->names[t]);
            return rc;
        }
    }
    static const char *const names[C_N] = {
        "row counts: each table holds its loaded rows",
        "inserted rows: past the loaded keys, whole ids with seq 1",
        "primary key (id, seq) lookups return the generated rows",
        "iuk_tbl (id, col3, col4, col5) lookups return the same rows",
        "ind1 (id, col9 DESC, col14): the 10 latest rows of an id",
    };
    bool all_ok = true;
    for (int c = 0; c < C_N; c++) {
        dg_check_result r;
        memset(&r, 0, sizeof r);
        r.name = names[c];
        r.passed = ty.bad[c] == 0;
        r.offending = ty.bad[c];
        if (!r.passed)
            snprintf(r.detail, sizeof r.detail, "%s", ty.detail[c]);
        else if (c == C_COUNTS)
            snprintf(r.detail, sizeof r.detail, "%" PRId64 " loaded rows in %d tables", ty.loaded,
                     p->ntables);
        else if (c == C_INSERTED)
            snprintf(r.detail, sizeof r.detail, "%" PRId64 " rows inserted by runs", ty.inserted);
        else
            snprintf(r.detail, sizeof r.detail, "%" PRId64 " rows of %d sampled ids per table",
                     ty.lookups, SAMPLE_IDS + 2);
        report(arg, &r);
        all_ok &= r.passed;
    }
    return all_ok ? 0 : DG_E_CHECK;
}
