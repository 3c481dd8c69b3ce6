/*
 * docs.c - the built-in `docs` workload (TPoX-style XML documents): descriptor, options,
 * attach, terminals, the 17 transactions, and the metrics (see docs.h for the data).
 *
 * The transactions (TPoX's 7 queries, 2 inserts, 2 deletes, 6 updates), each its own
 * transaction; the queries in autocommit, the others in one write transaction:
 *   Q1 get_order            the order document by @ID
 *   Q2 get_security         the security document by Symbol
 *   Q3 customer_profile     <Customer_Profile> built from the customer's document
 *   Q4 search_securities    securities of a sector with PE in [pemin, pemax) and
 *                           Yield > y: Symbol, Name, SecurityType, Sector, PE, Yield
 *   Q5 account_summary      per account: balance and the names of its positions
 *   Q6 get_security_price   "The open price of the security X is P"
 *   Q7 customer_max_order   the largest OrdQty/@Cash of the customer's orders (a join)
 *   I1, I2                  insert the next generated customer / order document
 *   D1, D2                  delete a customer (with its account keys) / an order: the
 *                           oldest one a run inserted, or a loaded one while there is none
 *   U1 add_account          a new Account in a customer document
 *   U2 close_account        one Account removed (never the last)
 *   U3 buy_position         a Position bought at the security's last price
 *   U4 sell_position        a position reduced or sold out, the proceeds credited
 *   U5 update_order_status  an order's OrdQty/@Qty and @Cash replaced
 *   U6 update_security_price the security's LastTrade and PriceToday changed
 * Where the storage has XML in SQL the server does part of the work: xml-type
 * (PostgreSQL) builds Q3's and Q5's elements with SQL/XML and reads Q4's and Q6's values
 * out of the documents with XMLTABLE and xpath() (Db2: XMLQUERY and XMLTABLE with XQuery,
 * not verified on a server); text-extractvalue (MariaDB) reads Q4's
 * and Q6's values with ExtractValue and makes U5's and U6's changes with UpdateXML.
 * Ids come from the loaded ranges (uniform), symbols from the loaded securities, sectors
 * from the 11, PE bounds uniform 20-23 / 25-27 and the yield 4-6 (TPoX's). An update
 * reads its document with a locking read, changes it on the client (libxml2) and writes
 * the whole document back with its side keys, in one transaction. An update or delete
 * that finds its document gone (a delete took it), or nothing to change, rolls back and
 * counts as a rollback.
 *
 * Default weights: each query 10 %, each of the other ten 3 % (70 % queries, the article's
 * split; the original weights were never published). docs:insert-only runs I1 and I2.
 */
#include "workload/docs/docs.h"
#include "workload/docs/schema.h"
#include "workload/docs/xml_api.h"

#include "backend/dialect.h"
#include "core/xalloc.h"
#include "stats/txstats.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Size model for --size: database bytes per customer (its document, its account keys,
 * five orders, their indexes), measured on SQLite and PostgreSQL (docs/workload-docs.md). */
#define BYTES_PER_CUSTOMER UINT64_C(14000)

enum { V_MIXED = 0, V_INSERT_ONLY };

static const char *const tx_names[DOCS_NTX] = {
    "get_order", "get_security", "customer_profile", "search_securities", "account_summary",
    "get_security_price", "customer_max_order", "insert_custacc", "insert_order",
    "delete_custacc", "delete_order", "add_account", "close_account", "buy_position",
    "sell_position", "update_order_status", "update_security_price",
};

/* ---- attach ------------------------------------------------------------------------------ */

static int max_id(dg_conn *conn, const char *sql, int64_t *out, dg_err *err)
{
    bool found = false;
    int64_t v = 0;
    int rc = dg_query_int(conn, sql, NULL, 0, &v, &found, err);
    if (rc == 0)
        *out = found ? v : 0;
    return rc;
}

static int docs_attach(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    dg_docs *p = wl->priv;
    uint64_t seed = 0;
    int64_t ncust = 0;
    int nsec = 0, storage = -1;
    bool found = false;
    int rc = dg_docs_read_meta(conn, &seed, &ncust, &nsec, &storage, &found, err);
    if (rc)
        return rc;
    if (!found || ncust < 1 || nsec < 1 || storage < 0)
        return dg_err_fail(err, DG_E_INVAL, "docs_meta is empty: the database is not loaded "
                                            "(run 'dbgauge load --workload docs --drop')");
    if (p->nsec_given && nsec != p->nsec)
        return dg_err_fail(err, DG_E_INVAL,
                           "the database holds %d securities, not the %d of --wl-opt securities "
                           "(reload with --drop, or leave the option out)",
                           nsec, p->nsec);
    if (p->storage_opt >= 0 && storage != p->storage_opt)
        return dg_err_fail(err, DG_E_INVAL,
                           "the database holds documents stored as %s, not the %s of --wl-opt "
                           "storage (reload with --drop, or leave the option out)",
                           dg_docs_storage_name(storage), dg_docs_storage_name(p->storage_opt));
    p->seed = seed;
    p->ncust = ncust;
    p->nsec = nsec;
    p->storage = storage;
    /* inserts continue after the highest id in the database */
    int64_t mc = 0, mo = 0;
    if ((rc = max_id(conn, "SELECT max(cust_id) FROM custacc", &mc, err)) != 0 ||
        (rc = max_id(conn, "SELECT max(order_id) FROM orders", &mo, err)) != 0)
        return rc;
    int64_t nc = DOCS_FIRST_CUST + ncust, no = DOCS_FIRST_ORDER + ncust * DOCS_ORDERS_PER_CUST;
    atomic_store(&p->next_cust, mc + 1 > nc ? mc + 1 : nc);
    atomic_store(&p->next_order, mo + 1 > no ? mo + 1 : no);
    /* deletes take the documents runs inserted, oldest first */
    int64_t dc = 0, dord = 0;
    dg_value v = dg_vint(nc);
    bool f = false;
    if ((rc = dg_query_int(conn, "SELECT min(cust_id) FROM custacc WHERE cust_id >= ?", &v, 1, &dc,
                           &f, err)) != 0)
        return rc;
    atomic_store(&p->del_cust, f ? dc : atomic_load(&p->next_cust));
    v = dg_vint(no);
    if ((rc = dg_query_int(conn, "SELECT min(order_id) FROM orders WHERE order_id >= ?", &v, 1,
                           &dord, &f, err)) != 0)
        return rc;
    atomic_store(&p->del_order, f ? dord : atomic_load(&p->next_order));
    wl->scale = ncust;
    wl->storage = dg_docs_storage_name(storage);
    p->attached = true;
    return 0;
}

/* ---- terminals ------------------------------------------------------------------------- */

enum {
    S_ORDER_DOC, S_ORDER_LOCK, S_SEC_DOC, S_SEC_LOCK, S_CUST_DOC, S_CUST_LOCK, S_Q4, S_Q7,
    S_INS_CUST, S_INS_ACCT, S_INS_ORDER, S_DEL_CUST, S_DEL_CUST_ACCTS, S_DEL_ACCT,
    S_DEL_ORDER, S_UPD_CUST, S_UPD_ORDER, S_UPD_SEC,
    /* built on the server (xml-type, text-extractvalue) */
    S_Q3_SRV, S_Q5_SRV, S_Q6_SRV, S_ORDER_RNDMOD, S_UPD_ORDER_SRV, S_SEC_LAST, S_UPD_SEC_SRV,
    S_N
};

#define NS_C "ARRAY[ARRAY['c', '" DOCS_NS_CUSTACC "']]"
#define NS_S "ARRAY[ARRAY['s', '" DOCS_NS_SECURITY "']]"

/* Statements of the xml-type storage (SQL/XML on the server: PostgreSQL), where they differ. */
static const char *const xmltype_sql[S_N] = {
    [S_Q3_SRV] =
        "SELECT xmlelement(name \"Customer_Profile\", xmlattributes(c.cust_id AS \"CUSTOMERID\"), "
        "(SELECT xmlagg(u.e ORDER BY u.n) FROM unnest(xpath('/c:Customer/c:Name | "
        "/c:Customer/c:DateOfBirth | /c:Customer/c:Gender | /c:Customer/c:CountryOfResidence | "
        "/c:Customer/c:Languages | /c:Customer/c:Addresses | /c:Customer/c:EmailAddresses', "
        "c.doc, " NS_C ")) WITH ORDINALITY AS u(e, n)))::text FROM custacc c WHERE c.cust_id = ?",
    [S_Q5_SRV] =
        "SELECT xmlelement(name \"Customer\", xmlattributes(c.cust_id AS \"id\"), "
        "xmlelement(name \"Name\", n.first || ' ' || n.last), (SELECT xmlagg(xmlelement(name \"Account\", xmlattributes(a.bal AS "
        "\"BALANCE\", a.id AS \"ACCOUNT_ID\"), xmlelement(name \"Securities\", "
        /* the names in no namespace, like the client's summary */
        "(SELECT xmlagg(xmlelement(name \"Name\", p.nm) ORDER BY p.o) FROM "
        "XMLTABLE(XMLNAMESPACES('" DOCS_NS_CUSTACC "' AS c), '/c:Account/c:Holdings/c:Position' "
        "PASSING a.acct COLUMNS o FOR ORDINALITY, nm text PATH 'c:Name') AS p))) ORDER BY "
        "a.ord) FROM XMLTABLE(XMLNAMESPACES('" DOCS_NS_CUSTACC "' AS c), "
        "'/c:Customer/c:Accounts/c:Account' PASSING c.doc COLUMNS ord FOR ORDINALITY, id text "
        "PATH '@id', bal text PATH 'c:Balance/c:OnlineActualBal', acct xml PATH '.') AS a))::text "
        "FROM custacc c, "
        /* names through XMLTABLE: xpath()'s text() comes back with its entities escaped */
        "XMLTABLE(XMLNAMESPACES('" DOCS_NS_CUSTACC "' AS c), '/c:Customer/c:Name' PASSING c.doc "
        "COLUMNS first text PATH 'c:FirstName', last text PATH 'c:LastName') AS n "
        "WHERE c.cust_id = ?",
    [S_Q6_SRV] = "SELECT 'The open price of the security ' || symbol || ' is ' || "
                 "(xpath('/s:Security/s:Price/s:PriceToday/s:Open/text()', doc, " NS_S
                 "))[1]::text FROM security WHERE symbol = ?",
    [S_Q4] = "SELECT x.symbol, x.name, x.sec_type, x.sector, x.pe, x.yield FROM security s, "
             "XMLTABLE(XMLNAMESPACES('" DOCS_NS_SECURITY "' AS s), '/s:Security' PASSING s.doc "
             "COLUMNS symbol text PATH 's:Symbol', name text PATH 's:Name', sec_type text PATH "
             "'s:SecurityType', sector text PATH 's:SecurityInformation/*/s:Sector', pe numeric "
             "PATH 's:PE', yield numeric PATH 's:Yield') AS x "
             "WHERE s.sector = ? AND s.pe >= ? AND s.pe < ? AND s.yield_pct > ?",
};

#define XQ_C "declare namespace c=\"" DOCS_NS_CUSTACC "\"; "
#define XQ_S "declare namespace s=\"" DOCS_NS_SECURITY "\"; "

/* The same on Db2's pureXML, in XQuery (written from Db2's manual, not verified on a
 * server): Q5's summary is one XQuery constructor, the elements it makes in no namespace
 * like the client's; results serialised to text. */
static const char *const xquery_sql[S_N] = {
    [S_Q3_SRV] =
        "SELECT XMLSERIALIZE(XMLELEMENT(NAME \"Customer_Profile\", XMLATTRIBUTES(c.cust_id AS "
        "\"CUSTOMERID\"), XMLQUERY('" XQ_C "$d/c:Customer/(c:Name | c:DateOfBirth | c:Gender | "
        "c:CountryOfResidence | c:Languages | c:Addresses | c:EmailAddresses)' PASSING c.doc AS "
        "\"d\")) AS CLOB(1M)) FROM custacc c WHERE c.cust_id = ?",
    [S_Q5_SRV] =
        "SELECT XMLSERIALIZE(XMLQUERY('" XQ_C "let $c := $d/c:Customer return "
        "<Customer id=\"{$id}\"><Name>{concat($c/c:Name/c:FirstName, \" \", "
        "$c/c:Name/c:LastName)}</Name>{for $a in $c/c:Accounts/c:Account return "
        "<Account BALANCE=\"{$a/c:Balance/c:OnlineActualBal}\" ACCOUNT_ID=\"{$a/@id}\">"
        "<Securities>{for $p in $a/c:Holdings/c:Position return <Name>{data($p/c:Name)}</Name>}"
        "</Securities></Account>}</Customer>' PASSING c.doc AS \"d\", c.cust_id AS \"id\") "
        "AS CLOB(1M)) FROM custacc c WHERE c.cust_id = ?",
    [S_Q6_SRV] = "SELECT 'The open price of the security ' || symbol || ' is ' || "
                 "XMLCAST(XMLQUERY('" XQ_S "$d/s:Security/s:Price/s:PriceToday/s:Open' "
                 "PASSING doc AS \"d\") AS VARCHAR(32)) FROM security WHERE symbol = ?",
    [S_Q4] = "SELECT x.symbol, x.name, x.sec_type, x.sector, x.pe, x.yield FROM security s, "
             "XMLTABLE(XMLNAMESPACES('" DOCS_NS_SECURITY "' AS \"s\"), '$d/s:Security' "
             "PASSING s.doc AS \"d\" COLUMNS symbol VARCHAR(16) PATH 's:Symbol', name "
             "VARCHAR(96) PATH 's:Name', sec_type VARCHAR(24) PATH 's:SecurityType', sector "
             "VARCHAR(48) PATH 's:SecurityInformation/*/s:Sector', pe DECIMAL(9,2) PATH 's:PE', "
             "yield DECIMAL(9,2) PATH 's:Yield') AS x "
             "WHERE s.sector = ? AND s.pe >= ? AND s.pe < ? AND s.yield_pct > ?",
};

/* Statements of the text-extractvalue storage (MariaDB, MySQL), where they differ. Their
 * XPath has no namespaces: the documents' default namespace leaves names unprefixed. */
static const char *const extractvalue_sql[S_N] = {
    [S_Q6_SRV] = "SELECT CONCAT('The open price of the security ', symbol, ' is ', "
                 "ExtractValue(doc, '/Security/Price/PriceToday/Open')) FROM security "
                 "WHERE symbol = ?",
    [S_Q4] = "SELECT symbol, ExtractValue(doc, '/Security/Name'), "
             "ExtractValue(doc, '/Security/SecurityType'), sector, pe, yield_pct FROM security "
             "WHERE sector = ? AND pe >= ? AND pe < ? AND yield_pct > ?",
    [S_ORDER_RNDMOD] = "SELECT ExtractValue(doc, '/FIXML/Order/OrdQty/@RndMod') FROM orders "
                       "WHERE order_id = ?{for_update}",
    [S_UPD_ORDER_SRV] = "UPDATE orders SET cash = ?, doc = UpdateXML(doc, '/FIXML/Order/OrdQty', ?) "
                        "WHERE order_id = ?",
    [S_SEC_LAST] = "SELECT ExtractValue(doc, '/Security/Price/LastTrade') FROM security "
                   "WHERE sec_id = ?{for_update}",
    [S_UPD_SEC_SRV] = "UPDATE security SET doc = UpdateXML(UpdateXML(doc, '/Security/Price/LastTrade', "
                      "?), '/Security/Price/PriceToday', ?) WHERE sec_id = ?",
};


static const char *const stmt_sql[S_N] = {
    [S_ORDER_DOC] = "SELECT doc FROM orders WHERE order_id = ?",
    [S_ORDER_LOCK] = "SELECT doc FROM orders WHERE order_id = ?{for_update}",
    [S_SEC_DOC] = "SELECT doc FROM security WHERE symbol = ?",
    [S_SEC_LOCK] = "SELECT doc FROM security WHERE sec_id = ?{for_update}",
    [S_CUST_DOC] = "SELECT doc FROM custacc WHERE cust_id = ?",
    [S_CUST_LOCK] = "SELECT doc FROM custacc WHERE cust_id = ?{for_update}",
    [S_Q4] = "SELECT symbol, name, sec_type, sector, pe, yield_pct FROM security "
             "WHERE sector = ? AND pe >= ? AND pe < ? AND yield_pct > ?",
    [S_Q7] = "SELECT max(o.cash) FROM custacc_account a JOIN orders o ON o.acct_id = a.acct_id "
             "WHERE a.cust_id = ?",
    [S_INS_CUST] = "INSERT INTO custacc (cust_id, country, postal_code, state, doc) "
                   "VALUES (?, ?, ?, ?, ?)",
    [S_INS_ACCT] = "INSERT INTO custacc_account (acct_id, cust_id) VALUES (?, ?)",
    [S_INS_ORDER] = "INSERT INTO orders (order_id, acct_id, symbol, side, cash, doc) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
    [S_DEL_CUST] = "DELETE FROM custacc WHERE cust_id = ?",
    [S_DEL_CUST_ACCTS] = "DELETE FROM custacc_account WHERE cust_id = ?",
    [S_DEL_ACCT] = "DELETE FROM custacc_account WHERE acct_id = ?",
    [S_DEL_ORDER] = "DELETE FROM orders WHERE order_id = ?",
    [S_UPD_CUST] = "UPDATE custacc SET doc = ? WHERE cust_id = ?",
    [S_UPD_ORDER] = "UPDATE orders SET cash = ?, doc = ? WHERE order_id = ?",
    [S_UPD_SEC] = "UPDATE security SET doc = ? WHERE sec_id = ?",
};

/* The statement s of a storage in dialect d; NULL when that storage does not use it.
 * *raw: XQuery, whose braces are its own, not template markers (sent as written). */
static const char *stmt_of(const dg_dialect *d, int storage, int s, bool *raw)
{
    *raw = storage == DOCS_ST_XMLTYPE && d->xml_style == DG_XML_XQUERY && xquery_sql[s];
    const char *const *over = storage == DOCS_ST_XMLTYPE && d->xml_style == DG_XML_XQUERY
                                  ? xquery_sql
                              : storage == DOCS_ST_XMLTYPE      ? xmltype_sql
                              : storage == DOCS_ST_EXTRACTVALUE ? extractvalue_sql
                                                                : NULL;
    if (over && over[s])
        return over[s];
    return s < S_Q3_SRV ? stmt_sql[s] : NULL;
}

typedef struct term {
    dg_docs *p;
    dg_conn *conn;
    dg_prng *rng;
    const atomic_int *phase;
    dg_stmt *s[S_N];
    dg_strbuf doc;  /* the document read */
    dg_strbuf out;  /* what a query built, or the edited document */
    dg_strbuf aux;  /* a second fragment (U6 on text-extractvalue) */
    uint64_t inserted[DOCS_NKINDS], deleted[DOCS_NKINDS];
    uint64_t xml_bytes_measured, docs_measured;
    docs_validator *val; /* NULL: validation off */
    uint64_t validated_measured;
    int64_t validate_ns_measured;
    docs_last last; /* what the last transaction worked on (tests) */
} term;

void dg_docs_term_last(void *state, docs_last *out)
{
    const term *t = state;
    *out = t->last;
}

static void docs_term_close(void *state)
{
    term *t = state;
    if (!t)
        return;
    dg_docs *p = t->p;
    pthread_mutex_lock(&p->lock);
    for (int k = 0; k < DOCS_NKINDS; k++) {
        p->inserted[k] += t->inserted[k];
        p->deleted[k] += t->deleted[k];
    }
    p->xml_bytes_measured += t->xml_bytes_measured;
    p->docs_measured += t->docs_measured;
    p->validated_measured += t->validated_measured;
    p->validate_ns_measured += t->validate_ns_measured;
    pthread_mutex_unlock(&p->lock);
    docs_validator_free(t->val);
    for (int i = 0; i < S_N; i++)
        dg_stmt_free(t->s[i]);
    dg_sb_free(&t->doc);
    dg_sb_free(&t->out);
    dg_sb_free(&t->aux);
    free(t);
}

static int docs_term_open(dg_workload *wl, const dg_term *tm, void **state, dg_err *err)
{
    dg_docs *p = wl->priv;
    if (!p->attached)
        return dg_err_fail(err, DG_E_INVAL, "docs: terminal opened before attach()");
    term *t = xcalloc(1, sizeof *t);
    t->p = p;
    t->conn = tm->conn;
    t->rng = tm->rng;
    t->phase = tm->phase;
    if (p->schemas)
        t->val = docs_validator_new(p->schemas);
    int rc = 0;
    for (int i = 0; i < S_N && rc == 0; i++) {
        bool raw = false;
        const char *tmpl = stmt_of(t->conn->dialect, p->storage, i, &raw);
        if (!tmpl)
            continue;
        char *sql = raw ? xstrdup(tmpl) : dg_sql_renderx(t->conn->dialect, tmpl);
        rc = dg_prepare(t->conn, sql, &t->s[i], err);
        free(sql);
    }
    if (rc) {
        docs_term_close(t);
        return rc;
    }
    *state = t;
    return 0;
}

static bool measuring(const term *t)
{
    return !t->phase || atomic_load_explicit(t->phase, memory_order_relaxed) == 1;
}

static int64_t rand_cust(term *t)
{
    return DOCS_FIRST_CUST + dg_prng_range(t->rng, 0, t->p->ncust - 1);
}

static int64_t rand_order(term *t)
{
    return DOCS_FIRST_ORDER + dg_prng_range(t->rng, 0, t->p->ncust * DOCS_ORDERS_PER_CUST - 1);
}

/* Runs statement s with params; copies the first row's first column (a document) into
 * t->doc. *found = false when there is no row (or the value is NULL). */
static int read_doc(term *t, int s, const dg_value *v, int n, bool *found, dg_err *err)
{
    int rc = dg_execute(t->s[s], v, n, err);
    if (rc)
        return rc;
    int r = dg_fetch(t->s[s], err);
    if (r < 0)
        return r;
    *found = false;
    if (r == 1) {
        dg_value x;
        dg_column(t->s[s], 0, &x);
        if (x.type == DG_V_TEXT) {
            dg_sb_reset(&t->doc);
            dg_sb_addn(&t->doc, x.u.s.ptr, x.u.s.len);
            *found = true;
        }
        dg_stmt_reset(t->s[s]);
    }
    return 0;
}

/* Runs statement s and copies the first row's first column (text) into *into; *found =
 * false when there is no row or it is NULL. */
static int read_text(term *t, int s, const dg_value *v, int n, dg_strbuf *into, bool *found,
                     dg_err *err)
{
    int rc = dg_execute(t->s[s], v, n, err);
    if (rc)
        return rc;
    int r = dg_fetch(t->s[s], err);
    if (r < 0)
        return r;
    *found = false;
    if (r == 1) {
        dg_value x;
        dg_column(t->s[s], 0, &x);
        if (x.type == DG_V_TEXT) {
            dg_sb_reset(into);
            dg_sb_addn(into, x.u.s.ptr, x.u.s.len);
            *found = true;
        }
        dg_stmt_reset(t->s[s]);
    }
    return 0;
}

/* Executes a statement that returns no rows; *rows (may be NULL) gets the affected count. */
static int run(term *t, int s, const dg_value *v, int n, int64_t *rows, dg_err *err)
{
    int rc = dg_execute(t->s[s], v, n, err);
    if (rc)
        return rc;
    if (rows)
        *rows = dg_affected(t->s[s]);
    dg_stmt_reset(t->s[s]);
    return 0;
}

static const dg_txopts write_tx = {.write = true};

/* Nothing to do after all: end the transaction, count a rollback. */
static int give_up(term *t, int *outcome, dg_err *err)
{
    *outcome = DG_TX_ROLLED_BACK;
    return dg_rollback(t->conn, err);
}

/* ---- queries ------------------------------------------------------------------------------ */

static int q_doc(term *t, int s, dg_value key, dg_err *err)
{
    bool found = false;
    int rc = read_doc(t, s, &key, 1, &found, err);
    if (rc == 0 && found) {
        t->last.doc = t->doc.buf;
        t->last.doc_len = t->doc.len;
        t->last.rows = 1;
    }
    return rc;
}

static int q_customer(term *t, bool summary, dg_err *err)
{
    dg_value key = dg_vint(rand_cust(t));
    t->last.id = key.u.i;
    bool found = false;
    int rc;
    if (t->p->storage == DOCS_ST_XMLTYPE) { /* built by the server */
        rc = read_text(t, summary ? S_Q5_SRV : S_Q3_SRV, &key, 1, &t->out, &found, err);
        if (rc || !found)
            return rc;
        int items = 0;
        if (summary) /* the accounts it lists */
            for (const char *a = t->out.buf; (a = strstr(a, "<Account ")) != NULL; a++)
                items++;
        t->last.rows = summary ? items : 1;
        t->last.out = t->out.buf;
        t->last.out_len = t->out.len;
        return 0;
    }
    rc = read_doc(t, S_CUST_DOC, &key, 1, &found, err);
    if (rc || !found)
        return rc;
    int items = 0;
    rc = summary ? docs_account_summary(t->doc.buf, t->doc.len, &t->out, &items, err)
                 : docs_customer_profile(t->doc.buf, t->doc.len, &t->out, &items, err);
    if (rc) {
        dg_err_prefix(err, "customer %" PRId64, key.u.i);
        return rc;
    }
    t->last.rows = items;
    t->last.out = t->out.buf;
    t->last.out_len = t->out.len;
    return 0;
}

static int q_search(term *t, dg_err *err)
{
    const char *sector = docs_sector((int)dg_prng_range(t->rng, 0, DOCS_NSECTORS - 1));
    int64_t pemin = dg_prng_range(t->rng, 20, 23), pemax = dg_prng_range(t->rng, 25, 27);
    int64_t y = dg_prng_range(t->rng, 4, 6);
    dg_value v[4] = {dg_vstr(sector), dg_vnumeric(pemin * 100, 2), dg_vnumeric(pemax * 100, 2),
                     dg_vnumeric(y * 100, 2)};
    t->last.sector = sector;
    t->last.pemin = pemin;
    t->last.pemax = pemax;
    t->last.yield = y;
    dg_stmt *s = t->s[S_Q4];
    int rc = dg_execute(s, v, 4, err);
    if (rc)
        return rc;
    int r;
    while ((r = dg_fetch(s, err)) == 1) {
        dg_value c[6];
        for (int i = 0; i < 6; i++)
            dg_column(s, i, &c[i]);
        t->last.rows++;
    }
    return r < 0 ? r : 0;
}

static int q_price(term *t, dg_err *err)
{
    char sym[DOCS_SYMBOL_MAX];
    docs_symbol((int)dg_prng_range(t->rng, 0, t->p->nsec - 1), sym);
    memcpy(t->last.symbol, sym, sizeof sym);
    dg_value key = dg_vstr(sym);
    bool found = false;
    int rc;
    if (t->p->storage != DOCS_ST_SHREDDED) { /* the server reads the price out */
        rc = read_text(t, S_Q6_SRV, &key, 1, &t->out, &found, err);
        if (rc == 0 && found) {
            t->last.out = t->out.buf;
            t->last.out_len = t->out.len;
            t->last.rows = 1;
        }
        return rc;
    }
    rc = read_doc(t, S_SEC_DOC, &key, 1, &found, err);
    if (rc || !found)
        return rc;
    docs_sec_keys k;
    if ((rc = docs_read_security(t->doc.buf, t->doc.len, &k, err)) != 0)
        return rc;
    dg_sb_reset(&t->out);
    int64_t m = k.open_cents < 0 ? -k.open_cents : k.open_cents;
    dg_sb_printf(&t->out, "The open price of the security %s is %s%" PRId64 ".%02" PRId64, k.symbol,
                 k.open_cents < 0 ? "-" : "", m / 100, m % 100);
    t->last.out = t->out.buf;
    t->last.out_len = t->out.len;
    t->last.rows = 1;
    return 0;
}

static int q_max_order(term *t, dg_err *err)
{
    dg_value key = dg_vint(rand_cust(t));
    t->last.id = key.u.i;
    dg_stmt *s = t->s[S_Q7];
    int rc = dg_execute(s, &key, 1, err);
    if (rc)
        return rc;
    int r = dg_fetch(s, err);
    if (r == 1) {
        dg_value x;
        dg_column(s, 0, &x);
        double d = 0;
        if (dg_value_as_double(&x, &d)) {
            t->last.rows = 1;
            t->last.max_cash_cents = (int64_t)(d * 100 + (d >= 0 ? 0.5 : -0.5));
        }
        dg_stmt_reset(s);
    }
    return r < 0 ? r : 0;
}

/* ---- inserts and deletes --------------------------------------------------------------- */

static void count_insert(term *t, int kind, size_t bytes)
{
    t->inserted[kind]++;
    if (measuring(t)) {
        t->xml_bytes_measured += bytes;
        t->docs_measured++;
    }
}

static int insert_custacc(term *t, dg_err *err)
{
    dg_docs *p = t->p;
    int64_t id = atomic_fetch_add(&p->next_cust, 1);
    t->last.id = id;
    docs_cust_keys k;
    int rc = docs_gen_custacc(p->seed, id, p->nsec, &t->out, &k, err);
    if (rc)
        return rc;
    dg_value v[5];
    dg_docs_cust_values(&k, t->out.buf, t->out.len, v);
    if ((rc = dg_begin(t->conn, &write_tx, err)) != 0 || (rc = run(t, S_INS_CUST, v, 5, NULL, err)))
        return rc;
    for (int a = 0; a < k.nacct && rc == 0; a++) {
        dg_value r[2] = {dg_vint(k.acct[a]), dg_vint(id)};
        rc = run(t, S_INS_ACCT, r, 2, NULL, err);
    }
    if (rc || (rc = dg_commit(t->conn, err)) != 0)
        return rc;
    count_insert(t, DOCS_CUSTACC, t->out.len);
    return 0;
}

static int insert_order(term *t, dg_err *err)
{
    dg_docs *p = t->p;
    int64_t id = atomic_fetch_add(&p->next_order, 1);
    t->last.id = id;
    docs_order_keys k;
    int rc = docs_gen_order(p->seed, id, p->ncust, p->nsec, &t->out, &k, err);
    if (rc == 0 && t->val) /* TPoX's I2 validates the new order */
        rc = docs_validate_text(t->val, DOCS_ORDER, t->out.buf, t->out.len, err);
    if (rc)
        return rc;
    dg_value v[6];
    dg_docs_order_values(&k, t->out.buf, t->out.len, v);
    if ((rc = dg_begin(t->conn, &write_tx, err)) != 0 ||
        (rc = run(t, S_INS_ORDER, v, 6, NULL, err)) != 0 || (rc = dg_commit(t->conn, err)) != 0)
        return rc;
    count_insert(t, DOCS_ORDER, t->out.len);
    return 0;
}

/* The document a delete takes: the oldest one a run inserted, while there is one; else a
 * loaded one (random: TPoX's ids from the loaded range), drawn anyway so that the
 * terminal's random numbers do not depend on the other terminals. */
static int64_t delete_id(atomic_llong *oldest, atomic_llong *next, int64_t loaded)
{
    long long d = atomic_load(oldest);
    while (d < atomic_load(next))
        if (atomic_compare_exchange_weak(oldest, &d, d + 1))
            return (int64_t)d;
    return loaded;
}

static int delete_custacc(term *t, int *outcome, dg_err *err)
{
    int64_t loaded = rand_cust(t);
    dg_value key = dg_vint(delete_id(&t->p->del_cust, &t->p->next_cust, loaded));
    t->last.id = key.u.i;
    int64_t rows = 0;
    int rc;
    /* the document first: it waits for an insert of it in flight, and the account rows
     * are then those that insert committed (deleting them first could miss them under
     * READ COMMITTED, where each statement sees the commits made before it began) */
    if ((rc = dg_begin(t->conn, &write_tx, err)) != 0 ||
        (rc = run(t, S_DEL_CUST, &key, 1, &rows, err)) != 0)
        return rc;
    if (rows == 0)
        return give_up(t, outcome, err);
    if ((rc = run(t, S_DEL_CUST_ACCTS, &key, 1, NULL, err)) != 0 ||
        (rc = dg_commit(t->conn, err)) != 0)
        return rc;
    t->deleted[DOCS_CUSTACC]++;
    return 0;
}

static int delete_order(term *t, int *outcome, dg_err *err)
{
    int64_t loaded = rand_order(t);
    dg_value key = dg_vint(delete_id(&t->p->del_order, &t->p->next_order, loaded));
    t->last.id = key.u.i;
    int64_t rows = 0;
    int rc;
    if ((rc = dg_begin(t->conn, &write_tx, err)) != 0 ||
        (rc = run(t, S_DEL_ORDER, &key, 1, &rows, err)) != 0)
        return rc;
    if (rows == 0)
        return give_up(t, outcome, err);
    if ((rc = dg_commit(t->conn, err)) != 0)
        return rc;
    t->deleted[DOCS_ORDER]++;
    return 0;
}

/* ---- updates --------------------------------------------------------------------------- */

/* Begins a write transaction and reads the customer's document with a locking read into
 * t->doc and its keys into *k. *found = false when the customer is gone. */
static int lock_customer(term *t, int64_t cust, docs_cust_keys *k, bool *found, dg_err *err)
{
    dg_value key = dg_vint(cust);
    t->last.id = cust;
    int rc = dg_begin(t->conn, &write_tx, err);
    if (rc == 0)
        rc = read_doc(t, S_CUST_LOCK, &key, 1, found, err);
    if (rc == 0 && *found && (rc = docs_read_custacc(t->doc.buf, t->doc.len, k, err)) != 0)
        dg_err_prefix(err, "customer %" PRId64, cust);
    return rc;
}

/* Writes t->out back as customer cust's document and commits. */
static int write_customer(term *t, int64_t cust, dg_err *err)
{
    dg_value v[2] = {dg_vtext(t->out.buf, t->out.len), dg_vint(cust)};
    int rc = run(t, S_UPD_CUST, v, 2, NULL, err);
    return rc ? rc : dg_commit(t->conn, err);
}

static int add_account(term *t, int *outcome, dg_err *err)
{
    int64_t cust = rand_cust(t);
    int64_t balance = dg_prng_range(t->rng, 0, 10000000); /* cents */
    docs_cust_keys k;
    bool found = false;
    int rc = lock_customer(t, cust, &k, &found, err);
    if (rc)
        return rc;
    if (!found)
        return give_up(t, outcome, err);
    int next = 0;
    for (int a = 0; a < k.nacct; a++) {
        int num = (int)(k.acct[a] - cust * 100);
        if (num > next)
            next = num;
    }
    if (next >= DOCS_MAX_ACCOUNTS || k.nacct >= DOCS_MAX_ACCOUNTS)
        return give_up(t, outcome, err);
    int64_t acct = docs_acct_id(cust, next + 1);
    t->last.acct = acct;
    t->last.amount_cents = balance;
    if ((rc = docs_add_account(t->doc.buf, t->doc.len, acct, balance, &t->out, err)) != 0)
        return rc;
    dg_value r[2] = {dg_vint(acct), dg_vint(cust)};
    if ((rc = run(t, S_INS_ACCT, r, 2, NULL, err)) != 0)
        return rc;
    return write_customer(t, cust, err);
}

static int close_account(term *t, int *outcome, dg_err *err)
{
    int64_t cust = rand_cust(t);
    uint64_t pick = dg_prng_u64(t->rng);
    docs_cust_keys k;
    bool found = false;
    int rc = lock_customer(t, cust, &k, &found, err);
    if (rc)
        return rc;
    if (!found || k.nacct < 2) /* a customer keeps at least one account */
        return give_up(t, outcome, err);
    /* never the highest-numbered one: U1 numbers a new account after it, so a closed
     * account's number (and its orders) never comes back */
    int top = 0;
    for (int a = 1; a < k.nacct; a++)
        if (k.acct[a] > k.acct[top])
            top = a;
    int a = (int)(pick % (uint64_t)(k.nacct - 1));
    int64_t acct = k.acct[a >= top ? a + 1 : a];
    t->last.acct = acct;
    if ((rc = docs_close_account(t->doc.buf, t->doc.len, acct, t->val, &t->out, err)) != 0)
        return rc;
    dg_value key = dg_vint(acct);
    if ((rc = run(t, S_DEL_ACCT, &key, 1, NULL, err)) != 0)
        return rc;
    return write_customer(t, cust, err);
}

static int buy_position(term *t, int *outcome, dg_err *err)
{
    int64_t cust = rand_cust(t);
    uint64_t pick = dg_prng_u64(t->rng);
    char sym[DOCS_SYMBOL_MAX];
    docs_symbol((int)dg_prng_range(t->rng, 0, t->p->nsec - 1), sym);
    int64_t qty = dg_prng_range(t->rng, 1, 1000);
    docs_cust_keys k;
    bool found = false;
    int rc = lock_customer(t, cust, &k, &found, err);
    if (rc)
        return rc;
    if (!found || k.nacct < 1)
        return give_up(t, outcome, err);
    /* the security's last price: what the position costs */
    dg_strbuf cust_doc = t->doc;
    t->doc = (dg_strbuf)DG_STRBUF_INIT;
    dg_value skey = dg_vstr(sym);
    bool sfound = false;
    docs_sec_keys sec;
    rc = read_doc(t, S_SEC_DOC, &skey, 1, &sfound, err);
    if (rc == 0 && sfound)
        rc = docs_read_security(t->doc.buf, t->doc.len, &sec, err);
    dg_sb_free(&t->doc);
    t->doc = cust_doc;
    if (rc)
        return rc;
    if (!sfound)
        return give_up(t, outcome, err);
    int64_t acct = k.acct[pick % (uint64_t)k.nacct];
    t->last.acct = acct;
    memcpy(t->last.symbol, sym, sizeof sym);
    t->last.qty = qty;
    t->last.amount_cents = qty * sec.last_cents;
    if ((rc = docs_buy_position(t->doc.buf, t->doc.len, acct, &sec, qty, qty * sec.last_cents,
                                &t->out, err)) != 0)
        return rc;
    return write_customer(t, cust, err);
}

static int sell_position(term *t, int *outcome, dg_err *err)
{
    int64_t cust = rand_cust(t);
    uint64_t pick = dg_prng_u64(t->rng);
    int64_t qty = dg_prng_range(t->rng, 1, 1000);
    int64_t price = dg_prng_range(t->rng, 100, 50000); /* cents */
    docs_cust_keys k;
    bool found = false;
    int rc = lock_customer(t, cust, &k, &found, err);
    if (rc)
        return rc;
    int held = 0;
    for (int a = 0; found && a < k.nacct; a++)
        held += k.npos[a] > 0;
    if (!found || held == 0)
        return give_up(t, outcome, err);
    /* the pick-th account that holds something */
    int want = (int)(pick % (uint64_t)held), a = 0;
    for (;; a++)
        if (k.npos[a] > 0 && want-- == 0)
            break;
    bool removed = false;
    t->last.acct = k.acct[a];
    t->last.qty = qty;
    t->last.amount_cents = qty * price;
    if ((rc = docs_sell_position(t->doc.buf, t->doc.len, k.acct[a], qty, qty * price, &removed,
                                 t->val, &t->out, err)) != 0)
        return rc;
    return write_customer(t, cust, err);
}

static int update_order(term *t, int *outcome, dg_err *err)
{
    dg_value key = dg_vint(rand_order(t));
    t->last.id = key.u.i;
    int64_t qty = dg_prng_range(t->rng, 1, 10000);
    int64_t price = dg_prng_range(t->rng, 100, 50000); /* cents */
    bool found = false;
    t->last.qty = qty;
    t->last.amount_cents = qty * price;
    int rc = dg_begin(t->conn, &write_tx, err);
    if (rc == 0 && t->p->storage == DOCS_ST_EXTRACTVALUE) {
        /* UpdateXML replaces OrdQty whole: keep its other attribute */
        if ((rc = read_text(t, S_ORDER_RNDMOD, &key, 1, &t->doc, &found, err)) != 0)
            return rc;
        if (!found)
            return give_up(t, outcome, err);
        if ((rc = docs_fragment_ordqty(qty, qty * price, t->doc.buf, &t->out, err)) != 0)
            return rc;
        dg_value v[3] = {dg_vnumeric(qty * price, 2), dg_vtext(t->out.buf, t->out.len), key};
        if ((rc = run(t, S_UPD_ORDER_SRV, v, 3, NULL, err)) != 0)
            return rc;
        return dg_commit(t->conn, err);
    }
    if (rc == 0)
        rc = read_doc(t, S_ORDER_LOCK, &key, 1, &found, err);
    if (rc)
        return rc;
    if (!found)
        return give_up(t, outcome, err);
    if ((rc = docs_update_order(t->doc.buf, t->doc.len, qty, qty * price, &t->out, err)) != 0) {
        dg_err_prefix(err, "order %" PRId64, key.u.i);
        return rc;
    }
    dg_value v[3] = {dg_vnumeric(qty * price, 2), dg_vtext(t->out.buf, t->out.len), key};
    if ((rc = run(t, S_UPD_ORDER, v, 3, NULL, err)) != 0)
        return rc;
    return dg_commit(t->conn, err);
}

static int update_price(term *t, int *outcome, dg_err *err)
{
    dg_value key = dg_vint(dg_prng_range(t->rng, 1, t->p->nsec));
    t->last.id = key.u.i;
    int64_t move = dg_prng_range(t->rng, -500, 500); /* basis points */
    int64_t lo = dg_prng_range(t->rng, 0, 200), hi = dg_prng_range(t->rng, 0, 200);
    bool found = false;
    bool server = t->p->storage == DOCS_ST_EXTRACTVALUE;
    int rc = dg_begin(t->conn, &write_tx, err);
    if (rc == 0)
        rc = read_text(t, server ? S_SEC_LAST : S_SEC_LOCK, &key, 1, &t->doc, &found, err);
    if (rc)
        return rc;
    if (!found)
        return give_up(t, outcome, err);
    docs_sec_keys k;
    if (!server) {
        if ((rc = docs_read_security(t->doc.buf, t->doc.len, &k, err)) != 0)
            return rc;
    } else if (!docs_parse_cents(t->doc.buf, &k.last_cents)) {
        return dg_err_fail(err, DG_E_PARSE, "security %" PRId64 ": LastTrade '%.40s' is no price",
                           key.u.i, t->doc.buf);
    }
    int64_t last = k.last_cents + k.last_cents * move / 10000;
    if (last < 1)
        last = 1;
    int64_t open = k.last_cents; /* today opened at the previous trade */
    int64_t low = (last < open ? last : open) * (10000 - lo) / 10000;
    int64_t high = (last > open ? last : open) * (10000 + hi) / 10000;
    t->last.amount_cents = last;
    if (server) {
        if ((rc = docs_fragment_price(last, k.last_cents, open, low, high, &t->out, &t->aux,
                                      err)) != 0)
            return rc;
        dg_value v[3] = {dg_vtext(t->out.buf, t->out.len), dg_vtext(t->aux.buf, t->aux.len), key};
        if ((rc = run(t, S_UPD_SEC_SRV, v, 3, NULL, err)) != 0)
            return rc;
        return dg_commit(t->conn, err);
    }
    if ((rc = docs_update_price(t->doc.buf, t->doc.len, last, open, low, high, &t->out, err)) != 0)
        return rc;
    dg_value v[2] = {dg_vtext(t->out.buf, t->out.len), key};
    if ((rc = run(t, S_UPD_SEC, v, 2, NULL, err)) != 0)
        return rc;
    return dg_commit(t->conn, err);
}

static int tx_run(term *t, int type, int *outcome, dg_err *err);

static int docs_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    term *t = state;
    int rc = tx_run(t, type, outcome, err);
    if (t->val) { /* the validations it made, for the measured phase or not */
        uint64_t n;
        int64_t ns;
        docs_validator_take(t->val, &n, &ns);
        if (n && measuring(t)) {
            t->validated_measured += n;
            t->validate_ns_measured += ns;
        }
    }
    return rc;
}

static int tx_run(term *t, int type, int *outcome, dg_err *err)
{
    *outcome = DG_TX_COMMITTED;
    memset(&t->last, 0, sizeof t->last);
    switch (type) {
    case DOCS_Q1:
        t->last.id = rand_order(t);
        return q_doc(t, S_ORDER_DOC, dg_vint(t->last.id), err);
    case DOCS_Q2:
        docs_symbol((int)dg_prng_range(t->rng, 0, t->p->nsec - 1), t->last.symbol);
        return q_doc(t, S_SEC_DOC, dg_vstr(t->last.symbol), err);
    case DOCS_Q3: return q_customer(t, false, err);
    case DOCS_Q4: return q_search(t, err);
    case DOCS_Q5: return q_customer(t, true, err);
    case DOCS_Q6: return q_price(t, err);
    case DOCS_Q7: return q_max_order(t, err);
    case DOCS_I1: return insert_custacc(t, err);
    case DOCS_I2: return insert_order(t, err);
    case DOCS_D1: return delete_custacc(t, outcome, err);
    case DOCS_D2: return delete_order(t, outcome, err);
    case DOCS_U1: return add_account(t, outcome, err);
    case DOCS_U2: return close_account(t, outcome, err);
    case DOCS_U3: return buy_position(t, outcome, err);
    case DOCS_U4: return sell_position(t, outcome, err);
    case DOCS_U5: return update_order(t, outcome, err);
    case DOCS_U6: return update_price(t, outcome, err);
    }
    return dg_err_fail(err, DG_E_INVAL, "docs: no transaction type %d", type);
}

/* ---- metrics ---------------------------------------------------------------------------- */

static int docs_metrics(dg_workload *wl, const struct dg_txstats *per_type, double measured_s,
                        dg_metric *out, int max)
{
    dg_docs *p = wl->priv;
    bool timed = measured_s > 0;
    double bytes = (double)p->xml_bytes_measured;
    dg_metric m[] = {
        {"docs_inserted_per_s", timed ? (double)p->docs_measured / measured_s : NAN,
         "documents/s (measured phase)"},
        {"xml_bytes_inserted", bytes, "bytes of raw XML (measured phase)"},
        {"GB_per_h", timed ? bytes / measured_s * 3600 / 1e9 : NAN, "GB of raw XML per hour"},
        /* each document type's own rate: the XML study's custacc against order bars */
        {"custacc_inserted_per_s", timed ? (double)per_type[DOCS_I1].count / measured_s : NAN,
         "documents/s (I1 insert_custacc, measured phase)"},
        {"orders_inserted_per_s", timed ? (double)per_type[DOCS_I2].count / measured_s : NAN,
         "documents/s (I2 insert_order, measured phase)"},
        {"custacc_inserted", (double)p->inserted[DOCS_CUSTACC], "documents (whole run incl. warmup)"},
        {"orders_inserted", (double)p->inserted[DOCS_ORDER], "documents (whole run incl. warmup)"},
        {"custacc_deleted", (double)p->deleted[DOCS_CUSTACC], "documents (whole run incl. warmup)"},
        {"orders_deleted", (double)p->deleted[DOCS_ORDER], "documents (whole run incl. warmup)"},
        {"customers_loaded", (double)p->ncust, "documents"},
        {"securities", (double)p->nsec, "documents"},
        {"client_schema_validations", p->schemas ? (double)p->validated_measured : NAN,
         "documents I2, U2 and U4 validated against their XML Schema on the client (libxml2), "
         "measured phase; null: --wl-opt validate=0"},
        {"client_schema_validation_us_per_doc",
         p->validated_measured ? (double)p->validate_ns_measured / 1e3 / (double)p->validated_measured
                               : NAN,
         "client time per validated document (an order's parse included)"},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof m / sizeof m[0] && n < max; i++)
        out[n++] = m[i];
    return n;
}

/* The storage figures after the run, per document table: the raw XML it holds, its bytes
 * on disk (data with out-of-line values, and indexes) where the engine tells them, and
 * their ratio (above 1: the engine compresses the documents). */
static int docs_db_metrics(dg_workload *wl, dg_conn *conn, dg_metric *out, int max, dg_err *err)
{
    const dg_docs *p = wl->priv;
    static const char *const tables[] = {"custacc", "orders", "security"};
    static const char *const names[][4] = {
        {"custacc_xml_bytes", "custacc_disk_bytes", "custacc_index_bytes", "custacc_xml_per_disk"},
        {"orders_xml_bytes", "orders_disk_bytes", "orders_index_bytes", "orders_xml_per_disk"},
        {"security_xml_bytes", "security_disk_bytes", "security_index_bytes",
         "security_xml_per_disk"},
    };
    int n = 0;
    for (int i = 0; i < 3 && n + 4 <= max; i++) {
        char tmpl[96];
        snprintf(tmpl, sizeof tmpl, "SELECT sum({%s doc}) FROM %s",
                 p->storage == DOCS_ST_XMLTYPE ? "xml_octet_length" : "octet_length", tables[i]);
        char *sql = dg_sql_renderx(conn->dialect, tmpl);
        int64_t xml = 0;
        bool found = false;
        int rc = dg_query_int(conn, sql, NULL, 0, &xml, &found, err);
        free(sql);
        if (rc)
            return rc;
        int64_t data = -1, index = -1;
        dg_err e = DG_ERR_INIT;
        rc = dg_table_bytes(conn, tables[i], &data, &index, &e);
        if (rc && rc != DG_E_UNSUPPORTED)
            return dg_err_set(err, rc, e.cls, e.code, e.sqlstate, "%s", e.msg);
        double x = found ? (double)xml : 0;
        out[n++] = (dg_metric){names[i][0], x, "bytes of raw XML in the table after the run"};
        out[n++] = (dg_metric){names[i][1], data >= 0 ? (double)data : NAN,
                               "bytes on disk: the table's data with its out-of-line values"};
        out[n++] = (dg_metric){names[i][2], index >= 0 ? (double)index : NAN,
                               "bytes on disk: the table's indexes"};
        out[n++] = (dg_metric){names[i][3], data > 0 ? x / (double)data : NAN,
                               "raw XML bytes per byte of data on disk (> 1: compressed)"};
    }
    return n;
}

/* ---- open / free ----------------------------------------------------------------------- */

static void docs_free(dg_workload *wl)
{
    dg_docs *p = wl->priv;
    if (!p)
        return;
    pthread_mutex_destroy(&p->lock);
    docs_schemas_free(p->schemas);
    free(p);
}

static int docs_load(dg_workload *wl, dg_loader *ld, dg_err *err) { return dg_docs_load(wl, ld, err); }
static int docs_drop(dg_workload *wl, dg_conn *conn, dg_err *err) { return dg_docs_drop(wl, conn, err); }

static const dg_workload_ops docs_ops = {
    .usable = dg_docs_usable,
    .load = docs_load,
    .drop = docs_drop,
    .attach = docs_attach,
    .term_open = docs_term_open,
    .tx_run = docs_tx_run,
    .term_close = docs_term_close,
    .check = dg_docs_check,
    .metrics = docs_metrics,
    .db_metrics = docs_db_metrics,
    .free = docs_free,
};

static int docs_open(const dg_workload_def *def, const dg_wl_config *cfg, dg_workload **out,
                     dg_err *err)
{
    int rc = docs_xml_load(err); /* the documents are libxml2's */
    if (rc)
        return rc;
    const char *colon = cfg->name ? strchr(cfg->name, ':') : NULL;
    int variant = colon ? V_INSERT_ONLY : V_MIXED; /* dg_workload_open checked the name */
    int nsec = DOCS_SECURITIES;
    const char *o = dg_wl_option(cfg, "securities");
    if (o) {
        char *end = NULL;
        long v = strtol(o, &end, 10);
        if (!end || end == o || *end || v < 1 || v > 1000000)
            return dg_err_fail(err, DG_E_INVAL,
                               "invalid --wl-opt securities=%s: a count from 1 to 1000000 "
                               "(TPoX has %d at every scale)",
                               o, DOCS_SECURITIES);
        nsec = (int)v;
    }
    int storage = -1;
    const char *so = dg_wl_option(cfg, "storage");
    if (so && strcmp(so, "native") != 0 && (storage = dg_docs_storage_of(so)) < 0)
        return dg_err_fail(err, DG_E_INVAL,
                           "invalid --wl-opt storage=%s: native (the engine's own XML support, the "
                           "default), shredded-keys, xml-type or text-extractvalue",
                           so);
    /* --scale is TPoX's factor: 1 = 100,000 customers (XXS); fractions for smaller sets */
    int64_t customers = 0;
    if (cfg->scale_factor > 0) {
        double c = cfg->scale_factor * (double)DOCS_DEFAULT_CUSTOMERS;
        if (c < 0.5 || c > 1e12)
            return dg_err_fail(err, DG_E_INVAL,
                               "--scale %g is %.3g customers: docs needs from 1 customer "
                               "(--scale 0.00001) up",
                               cfg->scale_factor, c);
        customers = (int64_t)(c + 0.5);
    }
    const char *vo = dg_wl_option(cfg, "validate");
    bool validate = true;
    if (vo && (!strcmp(vo, "0") || !strcmp(vo, "off") || !strcmp(vo, "no")))
        validate = false;
    else if (vo && strcmp(vo, "1") && strcmp(vo, "on") && strcmp(vo, "yes"))
        return dg_err_fail(err, DG_E_INVAL,
                           "invalid --wl-opt validate=%s: 1 (validate I2's, U2's and U4's "
                           "documents against their XML Schema on the client, TPoX's way; the "
                           "default) or 0",
                           vo);
    const char *sdir = dg_wl_option(cfg, "schemas");
    if (sdir && !validate)
        return dg_err_fail(err, DG_E_INVAL, "--wl-opt schemas=%s with validate=0: nothing would "
                           "use the schemas", sdir);
    if (cfg->nparts > 1) /* the ids its inserts take and its deletes remove are one
                            process's counters */
        return dg_err_fail(err, DG_E_INVAL,
                           "docs does not run in parts (--part): its inserts and deletes "
                           "number documents from one process's counters");
    docs_schemas *schemas = NULL;
    if (validate && (rc = docs_schemas_open(sdir, &schemas, err)) != 0)
        return rc;
    dg_docs *p = xcalloc(1, sizeof *p);
    p->schemas = schemas;
    pthread_mutex_init(&p->lock, NULL);
    p->storage_opt = storage;
    p->variant = variant;
    p->nsec = nsec;
    p->nsec_given = o != NULL;
    atomic_init(&p->next_cust, 0);
    atomic_init(&p->next_order, 0);
    atomic_init(&p->del_cust, 0);
    atomic_init(&p->del_order, 0);

    dg_workload *wl = xcalloc(1, sizeof *wl);
    wl->def = def;
    wl->ops = &docs_ops;
    wl->name = xstrdup(variant == V_INSERT_ONLY ? "docs:insert-only" : "docs");
    wl->scale = customers > 0 ? customers : def->default_scale;
    wl->scale_given = customers > 0;
    wl->ntx = DOCS_NTX;
    wl->tx = xcalloc(DOCS_NTX, sizeof *wl->tx);
    for (int i = 0; i < DOCS_NTX; i++) {
        wl->tx[i].name = tx_names[i];
        wl->tx[i].reads_only = i <= DOCS_Q7;
        if (variant == V_INSERT_ONLY)
            wl->tx[i].weight = i == DOCS_I1 || i == DOCS_I2;
        else
            wl->tx[i].weight = i <= DOCS_Q7 ? 10 : 3;
    }
    wl->tables = dg_docs_tables;
    wl->bytes_per_scale = BYTES_PER_CUSTOMER;
    wl->scale_unit = "customer";
    wl->priv = p;
    char desc[64];
    snprintf(desc, sizeof desc, "docs/1 variant=%d", variant);
    dg_workload_set_hash(wl, desc, strlen(desc));
    *out = wl;
    return 0;
}

static const char *const variants[] = {"insert-only", NULL};
static const char *const docs_options[] = {"securities", "storage", "validate", "schemas", NULL};

const dg_workload_def dg_workload_docs = {
    .name = "docs",
    .summary = "TPoX-style XML documents (customers, FIXML orders, securities): 17 "
               "transactions, 70% queries; docs:insert-only (documents/s, GB/h); "
               "--scale 1 = 100,000 customers (fractions allowed)",
    .variants = variants,
    .options = docs_options,
    .default_scale = DOCS_DEFAULT_CUSTOMERS,
    .fractional_scale = true,
    .open = docs_open,
};
