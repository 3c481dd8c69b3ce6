/*
 * load.c - schema and loader of the tables workload.
 *
 * Schema (one template for every dialect): tbl_200 ... with the study's columns id
 * varchar(20), seq int, col3 ... col15 (col15 timestamp defaulting to 2010-07-30
 * 16:25:44, left to its default by the loader and the inserts); the primary key
 * (id, seq), the unique index iuk_tbl (id, col3, col4, col5) and the index
 * ind1 (id, col9 DESC, col14). Where direction is per index (Firebird) ind1 is a
 * DESCENDING index on (id, col9, col14), the nearest equivalent: the load says so in its
 * step name. Index names carry the table's (iuk_tbl_200, ind1_tbl_200) because most
 * databases name indexes per schema.
 *
 * Order: create tables (with their primary key where it is the storage order: InnoDB);
 * fill them (a unit is one whole table, in key order, on ld->jobs
 * connections through the backends' whole-table bulk paths, e.g. PostgreSQL's COPY
 * FREEZE; the data depend only on the seed, never on which job runs a unit); primary keys, then iuk_tbl, then ind1, each a
 * timed step over all tables; ANALYZE where the dialect has it; and last tables_meta,
 * whose row marks the load complete (a run refuses a database without it).
 */
#include "workload/tables/tables.h"

#include "backend/dialect.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROGRESS_ROWS 4096

#define TABLE_DDL                                                                          \
    "CREATE TABLE %s (id {varchar 20} NOT NULL, seq {int} NOT NULL, col3 {varchar 16} NOT NULL, " \
    "col4 {varchar 5} NOT NULL, col5 {varchar 50} NOT NULL, col6 {varchar 1000}, "       \
    "col7 {varchar 300}, col8 {varchar 300}, col9 {timestamp} NOT NULL, col10 {int}, "  \
    "col11 {bigint}, col12 {numeric 12,2}, col13 {char 1}, col14 {varchar 20}, "         \
    "col15 {timestamp} DEFAULT '2010-07-30 16:25:44'"

static const char meta_ddl[] = "CREATE TABLE tables_meta (mt_tables {int} NOT NULL, "
                               "mt_rows {bigint} NOT NULL, mt_seed {bigint} NOT NULL, "
                               "mt_loaded_at {timestamp})";

typedef struct load_ctx {
    dg_tables *p;
    uint64_t seed;
    atomic_ullong rows, bytes;
} load_ctx;

/* Runs a DDL template; with a table name, TABLE_DDL for that table (with its primary key
 * where the database stores rows in key order: the loader writes them in that order). */
static int exec_ddl(dg_conn *conn, const char *table, const char *tmpl_or_null, dg_err *err)
{
    char tmpl[1024];
    if (table)
        snprintf(tmpl, sizeof tmpl, TABLE_DDL ")", table);
    else
        snprintf(tmpl, sizeof tmpl, "%s", tmpl_or_null);
    /* tables_meta (one row) is no loaded table: rendered as it is */
    char *sql = table ? dg_sql_create_table(conn->dialect, tmpl, "id, seq") : dg_sql_renderx(conn->dialect, tmpl);
    int rc = dg_exec(conn, sql, err);
    free(sql);
    return rc;
}

static int data_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    dg_tables *p = lc->p;
    int t = unit;
    const dg_tables_shape *sh = &p->shape[t];
    dg_bulk *b = NULL;
    int rc = dg_bulk_begin_whole(conn, p->names[t], dg_tables_cols, 14, &b, err);
    if (rc)
        return rc;
    uint64_t shown_rows = 0, shown_bytes = 0;
    dg_tables_row r;
    dg_value v[14];
    for (int64_t i = 0; i < sh->ids && rc == 0; i++) {
        int n = dg_tables_rows_of_id(lc->seed, t, sh, i);
        for (int s = 1; s <= n && rc == 0; s++) {
            dg_tables_row_gen(lc->seed, t, i, s, true, &r);
            dg_tables_row_values(&r, v);
            rc = dg_bulk_row(b, v, err);
        }
        if (rc == 0 && b->rows - shown_rows >= PROGRESS_ROWS) {
            rc = dg_loader_check_stop(err); /* a table is one unit: it may be large */
            dg_loader_progress(ld, b->rows - shown_rows, b->bytes - shown_bytes);
            shown_rows = b->rows;
            shown_bytes = b->bytes;
        }
    }
    uint64_t rows = b->rows, bytes = b->bytes;
    int rc2 = dg_bulk_end(b, rc == 0, rc ? NULL : err);
    if (rc == 0)
        rc = rc2;
    if (rc == 0) {
        dg_loader_progress(ld, rows - shown_rows, bytes - shown_bytes);
        atomic_fetch_add(&lc->rows, rows);
        atomic_fetch_add(&lc->bytes, bytes);
    } else {
        dg_err_prefix(err, "table %s", p->names[t]);
    }
    return rc;
}

/* The statement that builds index `which` (0 primary key, 1 iuk_tbl, 2 ind1) on table name. */
static void index_sql(const dg_dialect *d, int which, const char *name, dg_strbuf *sb)
{
    if (which == 0) {
        char pk[64];
        snprintf(pk, sizeof pk, "%s_pkey", name);
        dg_sql_add_pk(d, name, pk, "id, seq", sb);
    } else if (which == 1) {
        dg_sb_printf(sb, "CREATE UNIQUE INDEX iuk_%s ON %s (id, col3, col4, col5)", name, name);
    } else if (d->desc_index_columns) {
        dg_sb_printf(sb, "CREATE INDEX ind1_%s ON %s (id, col9 DESC, col14)", name, name);
    } else {
        dg_sb_printf(sb, "CREATE DESCENDING INDEX ind1_%s ON %s (id, col9, col14)", name, name);
    }
}

typedef struct index_job {
    dg_tables *p;
    int which;
    bool parallel; /* on ld->jobs connections at once */
    bool reverse;  /* last table first */
} index_job;

static const char *const index_what[] = {"primary key", "index iuk_tbl", "index ind1"};

static int index_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    index_job *j = arg;
    (void)ld;
    int rc = 0;
    if (j->parallel && conn->dialect->parallel_ddl_setup)
        rc = dg_exec(conn, conn->dialect->parallel_ddl_setup, err);
    int t = j->reverse ? j->p->ntables - 1 - unit : unit;
    dg_strbuf sb = DG_STRBUF_INIT;
    index_sql(conn->dialect, j->which, j->p->names[t], &sb);
    if (rc == 0)
        rc = dg_exec(conn, dg_sb_str(&sb), err);
    dg_sb_free(&sb);
    if (rc)
        dg_err_prefix(err, "%s on %s", index_what[j->which], j->p->names[t]);
    return rc;
}

/* One index (or the primary key) on every table, as one timed step; on --jobs
 * connections where the database builds indexes of different tables at once. reverse:
 * from the last table to the first. The steps alternate directions, starting where the
 * step before ended: the tables it touched last are the ones still in the database's
 * cache (InnoDB's 128 MB buffer pool holds a sixth of a 750 MB load: the index builds of
 * the other tables read them from disk). */
static int index_step(dg_loader *ld, dg_tables *p, int which, bool reverse, dg_err *err)
{
    const dg_dialect *d = ld->conn->dialect;
    /* where directions are per index, ind1 is DESCENDING on all three columns: the step
     * name (kept in the result file) says so */
    const char *label = which == 2 && !d->desc_index_columns ? "index ind1 (DESCENDING)" : index_what[which];
    dg_loader_step_begin(ld, "index", "%s on %d tables", label, p->ntables);
    index_job j = {p, which, ld->jobs > 1 && d->parallel_ddl, reverse};
    int rc = 0;
    if (j.parallel)
        rc = dg_loader_parallel(ld, p->ntables, index_unit, &j, label, err);
    else
        for (int t = 0; t < p->ntables && rc == 0; t++)
            if ((rc = dg_loader_check_stop(err)) == 0)
                rc = index_unit(ld, ld->conn, t, &j, err);
    if (rc == 0)
        dg_loader_step_end(ld, 0, 0);
    return rc;
}

static int meta_row(dg_loader *ld, dg_tables *p, uint64_t seed, int64_t rows, dg_err *err)
{
    static const char *const cols[] = {"mt_tables", "mt_rows", "mt_seed", "mt_loaded_at"};
    dg_value v[3] = {dg_vint(p->ntables), dg_vint(rows), dg_vint((int64_t)seed)};
    return dg_loader_meta_row(ld, "tables_meta", cols, 4, v, true, err);
}

int dg_tables_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    dg_tables *p = wl->priv;
    int64_t total = wl->scale;
    if (total < p->ntables)
        return dg_err_fail(err, DG_E_INVAL, "tables: %lld rows cannot fill %d tables (at least one row each)",
                           (long long)total, p->ntables);
    /* the seed as tables_meta keeps it (a BIGINT), so that runs recompute the same rows */
    uint64_t seed = ld->seed & (uint64_t)INT64_MAX;
    p->seed = seed;
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.p = p;
    lc.seed = seed;
    atomic_init(&lc.rows, 0);
    atomic_init(&lc.bytes, 0);
    for (int t = 0; t < p->ntables; t++) {
        dg_tables_shape_of(seed, t, dg_tables_rows_share(total, p->ntables, t), &p->shape[t]);
        if (p->shape[t].ids > TABLES_MAX_IDS)
            return dg_err_fail(err, DG_E_INVAL, "tables: too many rows per table (at most about %lld)",
                               (long long)(TABLES_MAX_IDS * 8));
    }
    ld->rows_total = (uint64_t)total;

    int rc = 0;
    dg_loader_step_begin(ld, "schema", "create %d tables", p->ntables + 1);
    for (int t = 0; t < p->ntables && rc == 0; t++)
        rc = exec_ddl(ld->conn, p->names[t], NULL, err);
    if (rc == 0)
        rc = exec_ddl(ld->conn, NULL, meta_ddl, err);
    if (rc)
        return rc;
    dg_loader_step_end(ld, 0, 0);

    dg_loader_step_begin(ld, "table", "tables %s .. %s", p->names[0], p->names[p->ntables - 1]);
    rc = dg_loader_parallel(ld, p->ntables, data_unit, &lc, "tables", err);
    if (rc)
        return rc;
    dg_loader_step_end(ld, atomic_load(&lc.rows), atomic_load(&lc.bytes));

    /* the primary key first, unless CREATE TABLE declared it (pk_at_create) */
    bool reverse = true; /* the data step ended with the last tables */
    for (int which = dg_sql_pk_after_load(ld->conn->dialect) ? 0 : 1; which < 3 && rc == 0; which++) {
        rc = index_step(ld, p, which, reverse, err);
        reverse = !reverse;
    }
    if (rc == 0) {
        const char **list = xcalloc((size_t)p->ntables + 2, sizeof *list);
        for (int t = 0; t < p->ntables; t++)
            list[t] = p->names[t];
        /* statistics of the key columns: every query is an equality on id (and seq), which
         * decides its plan; the other columns' statistics would cost more than half of
         * the time (45 against 20 ms per 10,000-row table) and change no plan */
        rc = dg_loader_analyze_cols(ld, list, "id, seq", true, err);
        free(list);
    }
    if (rc == 0)
        rc = meta_row(ld, p, seed, total, err);
    return rc;
}

static int drop_one(dg_conn *conn, const char *name, bool *existed, dg_err *err)
{
    bool e = false;
    int rc = dg_table_exists(conn, name, &e, err);
    if (rc == 0 && e) {
        char sql[96];
        snprintf(sql, sizeof sql, "DROP TABLE %s", name);
        rc = dg_exec(conn, sql, err);
        if (rc)
            dg_err_prefix(err, "dropping table %s", name);
    }
    if (existed)
        *existed = e;
    return rc;
}

int dg_tables_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_tables *p = wl->priv;
    /* a load creates tbl_200 .. tbl_(200+N-1) together: drop them in order until one is
     * missing past the count asked now, which finds the tables of a load with more (the
     * count is not read from tables_meta: on Firebird a table read in this attachment
     * cannot be dropped in it) */
    int rc = drop_one(conn, "tables_meta", NULL, err);
    for (int t = 0; t < TABLES_MAX_COUNT && rc == 0; t++) {
        char name[32];
        snprintf(name, sizeof name, "tbl_%d", TABLES_FIRST_NUMBER + t);
        bool e = false;
        rc = drop_one(conn, name, &e, err);
        if (rc == 0 && !e && t >= p->ntables)
            break;
    }
    return rc;
}
