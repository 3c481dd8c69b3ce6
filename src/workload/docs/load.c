/*
 * load.c - schema and loader of the docs workload.
 *
 * Storage ("shredded-keys", the same on every engine): each document type has a table
 * holding the document text in `doc` (the dialect's large text type: PostgreSQL text,
 * MariaDB MEDIUMTEXT, Firebird BLOB SUB_TYPE TEXT, SQLite TEXT) beside the values its
 * queries look up by, extracted from the document when it is written. These side
 * columns and the custacc_account table play the part of DB2's XML value indexes:
 *   security        (sec_id PK, symbol UNIQUE, name, sec_type, sector, industry, pe,
 *                    yield_pct, doc), index (sector, pe)
 *   custacc         (cust_id PK, country, postal_code, state, doc)
 *   custacc_account (acct_id PK, cust_id), index (cust_id)      = //Account/@id
 *   orders          (order_id PK, acct_id, symbol, side, cash, doc), indexes acct_id, symbol
 *   docs_meta       one row: seed, customers, securities (its row marks the load complete)
 *
 * Order: create the tables (with the primary key where it is the storage order: InnoDB);
 * fill them one table after the other, each a timed step, its chunks on ld->jobs
 * connections (a table with one chunk goes through the whole-table bulk path, e.g.
 * COPY FREEZE); the documents depend only on (seed, id), never on the job that makes
 * them; then the keys and indexes, one timed step each; statistics; docs_meta.
 */
#include "workload/docs/docs.h"

#include "backend/dialect.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUST_CHUNK 2000      /* customers per load unit */
#define ACCT_CHUNK 50000     /* customers whose accounts one unit loads */
#define ORDER_CHUNK 10000    /* orders per load unit */
#define PROGRESS_ROWS 256

/* In T_* order, then docs_meta (the order of the load steps). */
const char *const dg_docs_tables[] = {"security", "custacc", "custacc_account", "orders",
                                      "docs_meta", NULL};

static const struct {
    const char *ddl, *pk;
} tables[] = {
    {"CREATE TABLE security (sec_id {bigint} NOT NULL, symbol {varchar 16} NOT NULL, "
     "name {varchar 96}, sec_type {varchar 24}, sector {varchar 48}, industry {varchar 64}, "
     "pe {numeric 9,2}, yield_pct {numeric 9,2}, doc DOC_TYPE)",
     "sec_id"},
    {"CREATE TABLE custacc (cust_id {bigint} NOT NULL, country {varchar 48}, "
     "postal_code {varchar 16}, state {varchar 48}, doc DOC_TYPE)",
     "cust_id"},
    {"CREATE TABLE custacc_account (acct_id {bigint} NOT NULL, cust_id {bigint} NOT NULL)",
     "acct_id"},
    {"CREATE TABLE orders (order_id {bigint} NOT NULL, acct_id {bigint}, symbol {varchar 16}, "
     "side {char 1}, cash {numeric 15,2}, doc DOC_TYPE)",
     "order_id"},
};

static const char meta_ddl[] = "CREATE TABLE docs_meta (dm_seed {bigint} NOT NULL, "
                               "dm_customers {bigint} NOT NULL, dm_securities {int} NOT NULL, "
                               "dm_storage {varchar 32} NOT NULL, dm_loaded_at {timestamp})";

static const struct {
    const char *name, *table, *sql; /* sql: after "CREATE [UNIQUE] INDEX name ON table " */
    bool unique;
} indexes[] = {
    {"security_symbol", "security", "(symbol)", true},
    {"security_sector", "security", "(sector, pe)", false},
    {"custacc_account_cust", "custacc_account", "(cust_id)", false},
    {"orders_acct", "orders", "(acct_id)", false},
    {"orders_symbol", "orders", "(symbol)", false},
};

static const char *const sec_cols[] = {"sec_id", "symbol", "name", "sec_type", "sector",
                                       "industry", "pe", "yield_pct", "doc"};
static const char *const cust_cols[] = {"cust_id", "country", "postal_code", "state", "doc"};
static const char *const acct_cols[] = {"acct_id", "cust_id"};
static const char *const order_cols[] = {"order_id", "acct_id", "symbol", "side", "cash", "doc"};

static size_t slen(const char *s) { return strlen(s); }

void dg_docs_sec_values(const docs_sec_keys *k, const char *xml, size_t len, dg_value v[9])
{
    v[0] = dg_vint(k->id);
    v[1] = dg_vtext(k->symbol, slen(k->symbol));
    v[2] = dg_vtext(k->name, slen(k->name));
    v[3] = dg_vtext(k->type, slen(k->type));
    v[4] = dg_vtext(k->sector, slen(k->sector));
    v[5] = dg_vtext(k->industry, slen(k->industry));
    v[6] = dg_vnumeric(k->pe_cents, 2);
    v[7] = dg_vnumeric(k->yield_cents, 2);
    v[8] = dg_vtext(xml, len);
}

void dg_docs_cust_values(const docs_cust_keys *k, const char *xml, size_t len, dg_value v[5])
{
    v[0] = dg_vint(k->id);
    v[1] = dg_vtext(k->country, slen(k->country));
    v[2] = dg_vtext(k->postal_code, slen(k->postal_code));
    v[3] = dg_vtext(k->state, slen(k->state));
    v[4] = dg_vtext(xml, len);
}

void dg_docs_order_values(const docs_order_keys *k, const char *xml, size_t len, dg_value v[6])
{
    v[0] = dg_vint(k->id);
    v[1] = dg_vint(k->acct);
    v[2] = dg_vtext(k->symbol, slen(k->symbol));
    v[3] = dg_vtext(&k->side, 1);
    v[4] = dg_vnumeric(k->cash_cents, 2);
    v[5] = dg_vtext(xml, len);
}

/* ---- units --------------------------------------------------------------------------- */

enum { T_SEC = 0, T_CUST, T_ACCT, T_ORDER };

typedef struct load_ctx {
    dg_docs *p;
    int table;      /* T_* of this step */
    int64_t n;      /* items of the step: securities, customers, orders */
    int64_t chunk;  /* items per unit */
    int nunits;
    atomic_ullong rows, bytes;
} load_ctx;

static int load_unit(dg_loader *ld, dg_conn *conn, int unit, void *arg, dg_err *err)
{
    load_ctx *lc = arg;
    dg_docs *p = lc->p;
    int64_t first = (int64_t)unit * lc->chunk, last = first + lc->chunk;
    if (last > lc->n)
        last = lc->n;
    static const char *const *const cols[] = {sec_cols, cust_cols, acct_cols, order_cols};
    static const int ncols[] = {9, 5, 2, 6};
    dg_bulk *b = NULL;
    int t = lc->table;
    int rc = lc->nunits == 1 ? dg_bulk_begin_whole(conn, dg_docs_tables[t], cols[t], ncols[t], &b, err)
                             : dg_bulk_begin(conn, dg_docs_tables[t], cols[t], ncols[t], &b, err);
    if (rc)
        return rc;
    dg_strbuf xml = DG_STRBUF_INIT;
    dg_value v[9];
    uint64_t shown_rows = 0, shown_bytes = 0;
    for (int64_t i = first; i < last && rc == 0; i++) {
        if (t == T_SEC) {
            docs_sec_keys k;
            rc = docs_gen_security(p->seed, (int)i, &xml, &k, err);
            if (rc == 0) {
                dg_docs_sec_values(&k, xml.buf, xml.len, v);
                rc = dg_bulk_row(b, v, err);
            }
        } else if (t == T_CUST) {
            docs_cust_keys k;
            rc = docs_gen_custacc(p->seed, DOCS_FIRST_CUST + i, p->nsec, &xml, &k, err);
            if (rc == 0) {
                dg_docs_cust_values(&k, xml.buf, xml.len, v);
                rc = dg_bulk_row(b, v, err);
            }
        } else if (t == T_ACCT) {
            int64_t cust = DOCS_FIRST_CUST + i;
            int n = docs_nacct(p->seed, cust);
            for (int a = 1; a <= n && rc == 0; a++) {
                dg_value r[2] = {dg_vint(docs_acct_id(cust, a)), dg_vint(cust)};
                rc = dg_bulk_row(b, r, err);
            }
        } else {
            docs_order_keys k;
            rc = docs_gen_order(p->seed, DOCS_FIRST_ORDER + i, p->ncust, p->nsec, &xml, &k, err);
            if (rc == 0) {
                dg_docs_order_values(&k, xml.buf, xml.len, v);
                rc = dg_bulk_row(b, v, err);
            }
        }
        if (rc == 0 && b->rows - shown_rows >= PROGRESS_ROWS) {
            rc = dg_loader_check_stop(err);
            dg_loader_progress(ld, b->rows - shown_rows, b->bytes - shown_bytes);
            shown_rows = b->rows;
            shown_bytes = b->bytes;
        }
    }
    dg_sb_free(&xml);
    uint64_t rows = b->rows, bytes = b->bytes;
    int rc2 = dg_bulk_end(b, rc == 0, rc ? NULL : err);
    if (rc == 0)
        rc = rc2;
    if (rc == 0) {
        dg_loader_progress(ld, rows - shown_rows, bytes - shown_bytes);
        atomic_fetch_add(&lc->rows, rows);
        atomic_fetch_add(&lc->bytes, bytes);
    } else {
        dg_err_prefix(err, "table %s", dg_docs_tables[t]);
    }
    return rc;
}

/* One table as one timed step, its chunks on ld->jobs connections. */
static int table_step(dg_loader *ld, dg_docs *p, int t, int64_t n, int64_t chunk, dg_err *err)
{
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.p = p;
    lc.table = t;
    lc.n = n;
    lc.chunk = chunk;
    lc.nunits = (int)((n + chunk - 1) / chunk);
    atomic_init(&lc.rows, 0);
    atomic_init(&lc.bytes, 0);
    dg_loader_step_begin(ld, "table", "table %s", dg_docs_tables[t]);
    int rc = dg_loader_parallel(ld, lc.nunits, load_unit, &lc, dg_docs_tables[t], err);
    if (rc == 0)
        dg_loader_step_end(ld, atomic_load(&lc.rows), atomic_load(&lc.bytes));
    return rc;
}

static int meta_row(dg_loader *ld, dg_docs *p, dg_err *err)
{
    static const char *const cols[] = {"dm_seed", "dm_customers", "dm_securities", "dm_storage",
                                       "dm_loaded_at"};
    dg_value v[4] = {dg_vint((int64_t)p->seed), dg_vint(p->ncust), dg_vint(p->nsec),
                     dg_vstr(dg_docs_storage_name(p->storage))};
    return dg_loader_meta_row(ld, "docs_meta", cols, 5, v, true, err);
}

int dg_docs_load(dg_workload *wl, dg_loader *ld, dg_err *err)
{
    dg_docs *p = wl->priv;
    const dg_dialect *d = ld->conn->dialect;
    if (wl->scale < 1)
        return dg_err_fail(err, DG_E_INVAL, "docs: the scale is the number of customers (at least 1)");
    p->storage = p->storage_opt >= 0 ? p->storage_opt : dg_docs_native_storage(d);
    /* the seed as docs_meta keeps it (a BIGINT), so that runs recompute the same documents */
    p->seed = ld->seed & (uint64_t)INT64_MAX;
    p->ncust = wl->scale;
    int64_t norders = p->ncust * DOCS_ORDERS_PER_CUST;
    ld->rows_total = (uint64_t)p->nsec + (uint64_t)p->ncust * 4 + (uint64_t)norders;

    int rc = 0;
    dg_loader_step_begin(ld, "schema", "create 5 tables");
    /* the document column: the engine's XML type where the storage uses it */
    const char *doc_type = p->storage == DOCS_ST_XMLTYPE ? "{xml}" : "{clob}";
    for (size_t i = 0; i < sizeof tables / sizeof tables[0] && rc == 0; i++) {
        dg_strbuf tmpl = DG_STRBUF_INIT;
        const char *at = strstr(tables[i].ddl, "DOC_TYPE");
        if (at) {
            dg_sb_addn(&tmpl, tables[i].ddl, (size_t)(at - tables[i].ddl));
            dg_sb_add(&tmpl, doc_type);
            dg_sb_add(&tmpl, at + strlen("DOC_TYPE"));
        } else {
            dg_sb_add(&tmpl, tables[i].ddl);
        }
        char *sql = dg_sql_create_table(d, dg_sb_str(&tmpl), tables[i].pk);
        dg_sb_free(&tmpl);
        rc = dg_exec(ld->conn, sql, err);
        free(sql);
    }
    if (rc == 0) {
        /* one row: not a loaded table */
        char *sql = dg_sql_renderx(d, meta_ddl);
        rc = dg_exec(ld->conn, sql, err);
        free(sql);
    }
    if (rc)
        return rc;
    dg_loader_step_end(ld, 0, 0);

    if ((rc = table_step(ld, p, T_SEC, p->nsec, p->nsec, err)) != 0 ||
        (rc = table_step(ld, p, T_CUST, p->ncust, CUST_CHUNK, err)) != 0 ||
        (rc = table_step(ld, p, T_ACCT, p->ncust, ACCT_CHUNK, err)) != 0 ||
        (rc = table_step(ld, p, T_ORDER, norders, ORDER_CHUNK, err)) != 0)
        return rc;

    dg_strbuf sb = DG_STRBUF_INIT;
    if (dg_sql_pk_after_load(d))
        for (size_t i = 0; i < sizeof tables / sizeof tables[0] && rc == 0; i++) {
                    char pk[64];
            snprintf(pk, sizeof pk, "%s_pkey", dg_docs_tables[i]);
            dg_sb_reset(&sb);
            dg_sql_add_pk(d, dg_docs_tables[i], pk, tables[i].pk, &sb);
            dg_loader_step_begin(ld, "index", "primary key %s", pk);
            if ((rc = dg_loader_check_stop(err)) == 0)
                rc = dg_exec(ld->conn, dg_sb_str(&sb), err);
            if (rc == 0)
                dg_loader_step_end(ld, 0, 0);
        }
    for (size_t i = 0; i < sizeof indexes / sizeof indexes[0] && rc == 0; i++) {
        dg_sb_reset(&sb);
        dg_sb_printf(&sb, "CREATE %sINDEX %s ON %s %s", indexes[i].unique ? "UNIQUE " : "",
                     indexes[i].name, indexes[i].table, indexes[i].sql);
        dg_loader_step_begin(ld, "index", "index %s", indexes[i].name);
        if ((rc = dg_loader_check_stop(err)) == 0)
            rc = dg_exec(ld->conn, dg_sb_str(&sb), err);
        if (rc == 0)
            dg_loader_step_end(ld, 0, 0);
    }
    dg_sb_free(&sb);
    if (rc == 0) {
        static const char *const list[] = {"security", "custacc", "custacc_account", "orders", NULL};
        rc = dg_loader_analyze_cols(ld, list, NULL, false, err);
    }
    if (rc == 0)
        rc = meta_row(ld, p, err);
    return rc;
}

static const char *const storage_names[DOCS_NST] = {"shredded-keys", "xml-type",
                                                  "text-extractvalue"};

const char *dg_docs_storage_name(int st)
{
    return st >= 0 && st < DOCS_NST ? storage_names[st] : NULL;
}

int dg_docs_storage_of(const char *s)
{
    for (int i = 0; i < DOCS_NST; i++)
        if (!strcmp(s, storage_names[i]))
            return i;
    return -1;
}

int dg_docs_native_storage(const dg_dialect *d)
{
    if ((d->xml_style == DG_XML_SQLXML || d->xml_style == DG_XML_XQUERY) && d->t_xml)
        return DOCS_ST_XMLTYPE;
    if (d->xml_style == DG_XML_EXTRACTVALUE)
        return DOCS_ST_EXTRACTVALUE;
    return DOCS_ST_SHREDDED;
}

int dg_docs_usable(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    const dg_docs *p = wl->priv;
    int native = dg_docs_native_storage(conn->dialect);
    if (p->storage_opt >= 0 && p->storage_opt != DOCS_ST_SHREDDED && p->storage_opt != native)
        return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                          "docs: storage %s needs SQL that %s does not have (it offers %s, and "
                          "shredded-keys everywhere)",
                          dg_docs_storage_name(p->storage_opt), conn->be->name,
                          dg_docs_storage_name(native));
    return 0;
}

int dg_docs_read_meta(dg_conn *conn, uint64_t *seed, int64_t *ncust, int *nsec, int *storage,
                      bool *found, dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(conn, "SELECT dm_seed, dm_customers, dm_securities, dm_storage FROM docs_meta",
                        &s, err);
    if (rc)
        return rc;
    *found = false;
    rc = dg_execute(s, NULL, 0, err);
    int r = rc ? rc : dg_fetch(s, err);
    if (r == 1) {
        dg_value v[4];
        int64_t x[3];
        for (int i = 0; i < 4; i++)
            dg_column(s, i, &v[i]);
        char name[40] = "";
        if (v[3].type == DG_V_TEXT && v[3].u.s.len < sizeof name) {
            memcpy(name, v[3].u.s.ptr, v[3].u.s.len);
            name[v[3].u.s.len] = '\0';
            for (size_t n = strlen(name); n > 0 && name[n - 1] == ' '; n--)
                name[n - 1] = '\0'; /* CHAR padding */
        }
        if (dg_value_as_int(&v[0], &x[0]) && dg_value_as_int(&v[1], &x[1]) &&
            dg_value_as_int(&v[2], &x[2])) {
            *seed = (uint64_t)x[0];
            *ncust = x[1];
            *nsec = (int)x[2];
            *storage = dg_docs_storage_of(name);
            *found = true;
        }
        dg_stmt_reset(s);
        r = 0;
    }
    dg_stmt_free(s);
    return r < 0 ? r : 0;
}

int dg_docs_drop(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    (void)wl;
    int rc = 0;
    /* docs_meta first: a half-dropped database is never taken for a loaded one */
    static const char *const order[] = {"docs_meta", "orders", "custacc_account", "custacc",
                                        "security"};
    for (size_t i = 0; i < sizeof order / sizeof order[0] && rc == 0; i++) {
        bool e = false;
        rc = dg_table_exists(conn, order[i], &e, err);
        if (rc == 0 && e) {
            char sql[64];
            snprintf(sql, sizeof sql, "DROP TABLE %s", order[i]);
            rc = dg_exec(conn, sql, err);
            if (rc)
                dg_err_prefix(err, "dropping table %s", order[i]);
        }
    }
    return rc;
}
