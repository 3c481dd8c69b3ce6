/*
 * docs_tx.c - each of the docs workload's 17 transactions, run against known documents,
 * returns or changes exactly what it should (table-driven; the integration scripts run it
 * against every engine).
 *
 *   dg_docs_tx URL SEED   URL loaded with: dbgauge load -w docs --scale 0.0004
 *                                          --wl-opt securities=300 --seed SEED --drop
 *                         (any scale and securities: the tool reads them from docs_meta)
 *
 * One terminal of the workload (term_open on its own connection) runs each transaction
 * type several times, each run from its own generator seed. After a run,
 * dg_docs_term_last() says what it worked on, and the tool checks the outcome, what it
 * returned and what it left in the database (read on a second connection: what it wrote
 * is committed) against a model of the database, never against docs.c's own logic:
 *   the model   the documents are a pure function of (load seed, id) (docs.h), so it holds
 *               only what the transactions changed: per document whether it exists and,
 *               once an update rewrote it, its text; and the row count of each table
 *   queries     the document byte for byte, the projection (docs_customer_profile,
 *               docs_account_summary) of the expected document, counts and maxima over
 *               the expected securities and orders
 *   inserts     the generator's document and side rows for the new id; deletes: the rows
 *               gone; both: the row counts
 *   updates     the stored document read back (docs_read_*) differs from the one before
 *               by exactly the change the run reports, every other account unchanged; the
 *               positions and prices also read here with libxml2 directly; the stored text
 *               is the edit function (docs_add_account ...) applied to the one before
 *   rollbacks   accepted only for the reasons docs.c documents (document gone, nothing
 *               to change), as the model says; the document then unchanged
 * "The same document" is byte for byte where the client writes documents and builds the
 * results (storage shredded-keys); where the engine stores XML or builds results itself
 * (xml-type, text-extractvalue) it may serialize them its own way, so there it is the same
 * canonical XML (C14N 1.0).
 * Phases: queries on the loaded data; inserts; updates (each type until one committed;
 * U4 then repeats its run nearest to selling a position out until one does: same seed,
 * same draws); deletes (first what the inserts made, then loaded documents), and the
 * first of a loaded document once more (same seed: that document, gone now); then
 * queries and updates with the seeds of the deletes of loaded documents (they draw their
 * id first, like the deletes: the not-found and rollback paths). After every run
 * the row counts; at the end the workload's check. One line per type says what was
 * verified; a type none of whose runs committed, or that never took its rarer path
 * (a deleted document, a sale that empties a position), fails.
 *
 * Exit status: 0 all verified; 1 usage, or a transaction that did not do what it should
 * (each named with its run, id and what differed); 2 the test could not run.
 */
#include "backend/backend.h"
#include "core/prng.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "workload/docs/docs.h"
#include "workload/docs/xml_api.h"
#include "workload/workload.h"

#include <libxml/c14n.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 5         /* runs per transaction type and phase */
#define MAX_RUNS 20    /* an update type runs up to this often until one commits */
#define MAX_REASONS 4

/* ---- the model --------------------------------------------------------------------------- */

/* One document of the model. */
typedef struct ent {
    bool present; /* its row exists */
    char *doc;    /* its text once an update rewrote it (owned); NULL: the generator's */
    size_t len;
} ent;

/* The documents of one kind: e[i] is id first + i. */
typedef struct kindset {
    ent *e;
    int64_t first, n;
} kindset;

enum { T_CUSTACC = 0, T_ACCOUNT, T_ORDERS, T_SECURITY, T_N };
static const char *const table_names[T_N] = {"custacc", "custacc_account", "orders", "security"};

/* Statements of the verifying connection. */
enum { R_CUST, R_ACCTS, R_ACCT_OWNER, R_ORDER, R_SEC, R_N };
static const char *const read_sql[R_N] = {
    [R_CUST] = "SELECT country, postal_code, state, doc FROM custacc WHERE cust_id = ?",
    [R_ACCTS] = "SELECT acct_id FROM custacc_account WHERE cust_id = ? ORDER BY acct_id",
    [R_ACCT_OWNER] = "SELECT cust_id FROM custacc_account WHERE acct_id = ?",
    [R_ORDER] = "SELECT acct_id, symbol, side, cash, doc FROM orders WHERE order_id = ?",
    [R_SEC] = ("SELECT symbol, name, sec_type, sector, industry, pe, yield_pct, doc "
               "FROM security WHERE sec_id = ?"),
};

/* What one transaction type did over all its runs. */
typedef struct txstat {
    int runs, committed, rolled_back;
    int special; /* runs that took the type's rarer path (txcase.special) */
    const char *reason[MAX_REASONS]; /* distinct rollback reasons, with their counts */
    int nreason[MAX_REASONS];
} txstat;

typedef struct ctx {
    uint64_t seed; /* the load seed */
    int storage;   /* DOCS_ST_* of the load */
    int64_t ncust; /* customers loaded */
    int nsec;
    kindset cust, order, sec;
    int64_t rows[T_N]; /* expected row counts */
    dg_workload *wl;
    dg_conn *term_conn; /* the terminal's */
    dg_conn *db;        /* the verifier's */
    void *state;        /* the terminal's */
    dg_prng rng;        /* the terminal's generator, seeded before each run */
    dg_stmt *s[R_N];
    /* the run being verified, for messages */
    int type, run;
    uint64_t run_seed;
    int64_t last_id; /* what it worked on (docs_last.id) */
    int failures;
    txstat st[DOCS_NTX];
    /* U4: the run's seed that sells the first position out in the fewest repeats */
    uint64_t sellout_seed;
    int64_t sellout_runs; /* repeats it needs; 0: none seen */
    dg_strbuf a, b, x; /* scratch: the document before, after, and what an edit makes */
} ctx;

static const char *const tx_code[DOCS_NTX] = {
    "Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "I1", "I2", "D1", "D2",
    "U1", "U2", "U3", "U4", "U5", "U6",
};

static __attribute__((noreturn)) void die(const char *what, const dg_err *e)
{
    fprintf(stderr, "dg_docs_tx: error: %s%s%s\n", what, e ? ": " : "", e ? e->msg : "");
    exit(2);
}

/* Reports that the current run did not do what it should. */
static __attribute__((format(printf, 2, 3))) void fail(ctx *c, const char *fmt, ...)
{
    fprintf(stderr, "dg_docs_tx: %s %s, run %d (rng seed %" PRIu64 "): ", tx_code[c->type],
            c->wl->tx[c->type].name, c->run, c->run_seed);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    c->failures++;
}

static ent *ent_of(const kindset *k, int64_t id)
{
    return id >= k->first && id < k->first + k->n ? &k->e[id - k->first] : NULL;
}

static bool present(const kindset *k, int64_t id)
{
    const ent *e = ent_of(k, id);
    return e && e->present;
}

/* Makes room for id (ids only grow: the inserts). */
static ent *ent_add(kindset *k, int64_t id)
{
    if (id >= k->first + k->n) {
        int64_t n = id - k->first + 1;
        k->e = xrealloc(k->e, (size_t)n * sizeof *k->e);
        memset(k->e + k->n, 0, (size_t)(n - k->n) * sizeof *k->e);
        k->n = n;
    }
    return ent_of(k, id);
}

/* The document is now text (NULL: gone). */
static void ent_set(kindset *k, int64_t id, const char *text, size_t len)
{
    ent *e = ent_of(k, id);
    if (!e)
        return;
    free(e->doc);
    e->doc = NULL;
    e->len = 0;
    e->present = text != NULL;
    if (text) {
        e->doc = xmalloc(len + 1);
        memcpy(e->doc, text, len);
        e->doc[len] = '\0';
        e->len = len;
    }
}

/* Document id exists and is the generator's (an insert). */
static void ent_generated(kindset *k, int64_t id)
{
    ent *e = ent_add(k, id);
    free(e->doc);
    e->doc = NULL;
    e->len = 0;
    e->present = true;
}

static void kindset_free(kindset *k)
{
    for (int64_t i = 0; i < k->n; i++)
        free(k->e[i].doc);
    free(k->e);
}

/* The document customer id should have now into out and its keys into *k; false when
 * it should not exist. */
static bool exp_cust(ctx *c, int64_t id, dg_strbuf *out, docs_cust_keys *k)
{
    const ent *e = ent_of(&c->cust, id);
    if (!e || !e->present)
        return false;
    dg_err err = DG_ERR_INIT;
    int rc;
    if (e->doc) {
        dg_sb_reset(out);
        dg_sb_addn(out, e->doc, e->len);
        rc = docs_read_custacc(e->doc, e->len, k, &err);
    } else {
        rc = docs_gen_custacc(c->seed, id, c->nsec, out, k, &err);
    }
    if (rc)
        die("the expected customer document", &err);
    return true;
}

static bool exp_order(ctx *c, int64_t id, dg_strbuf *out, docs_order_keys *k)
{
    const ent *e = ent_of(&c->order, id);
    if (!e || !e->present)
        return false;
    dg_err err = DG_ERR_INIT;
    int rc;
    if (e->doc) {
        dg_sb_reset(out);
        dg_sb_addn(out, e->doc, e->len);
        rc = docs_read_order(e->doc, e->len, k, &err);
    } else {
        rc = docs_gen_order(c->seed, id, c->ncust, c->nsec, out, k, &err);
    }
    if (rc)
        die("the expected order document", &err);
    return true;
}

/* Security sec_id id (index id - 1). */
static bool exp_sec(ctx *c, int64_t id, dg_strbuf *out, docs_sec_keys *k)
{
    const ent *e = ent_of(&c->sec, id);
    if (!e || !e->present)
        return false;
    dg_err err = DG_ERR_INIT;
    int rc;
    if (e->doc) {
        dg_sb_reset(out);
        dg_sb_addn(out, e->doc, e->len);
        rc = docs_read_security(e->doc, e->len, k, &err);
    } else {
        rc = docs_gen_security(c->seed, (int)(id - 1), out, k, &err);
    }
    if (rc)
        die("the expected security document", &err);
    return true;
}

/* ---- reading the database ---------------------------------------------------------------- */

#define MAX_COLS 8

/* One row, copied out of the statement. */
typedef struct row {
    bool found;
    int ncols;
    bool null[MAX_COLS], is_text[MAX_COLS], has_d[MAX_COLS], has_i[MAX_COLS];
    dg_strbuf text[MAX_COLS]; /* TEXT values */
    double d[MAX_COLS];
    int64_t i[MAX_COLS];
} row;

static void row_free(row *r)
{
    for (int i = 0; i < MAX_COLS; i++)
        dg_sb_free(&r->text[i]);
}

/* Runs read statement s for key; copies the first row into *r (r->found = false: none). */
static void read_row(ctx *c, int s, int64_t key, row *r)
{
    dg_err e = DG_ERR_INIT;
    dg_value k = dg_vint(key);
    if (dg_execute(c->s[s], &k, 1, &e))
        die(read_sql[s], &e);
    int f = dg_fetch(c->s[s], &e);
    if (f < 0)
        die(read_sql[s], &e);
    r->found = f == 1;
    r->ncols = 0;
    if (r->found) {
        r->ncols = dg_ncols(c->s[s]);
        if (r->ncols > MAX_COLS)
            r->ncols = MAX_COLS;
        for (int i = 0; i < r->ncols; i++) {
            dg_value v;
            dg_column(c->s[s], i, &v);
            r->null[i] = v.type == DG_V_NULL;
            r->is_text[i] = v.type == DG_V_TEXT;
            dg_sb_reset(&r->text[i]);
            if (r->is_text[i])
                dg_sb_addn(&r->text[i], v.u.s.ptr, v.u.s.len);
            r->has_d[i] = dg_value_as_double(&v, &r->d[i]);
            r->has_i[i] = dg_value_as_int(&v, &r->i[i]);
        }
    }
    dg_stmt_reset(c->s[s]);
}

/* Column i is the text s (trailing blanks allowed: CHAR(n) comes back padded). */
static bool col_is(const row *r, int i, const char *s)
{
    size_t n = strlen(s);
    if (r->null[i])
        return n == 0;
    const dg_strbuf *t = &r->text[i];
    if (!r->is_text[i] || t->len < n || memcmp(t->buf, s, n) != 0)
        return false;
    for (size_t j = n; j < t->len; j++)
        if (t->buf[j] != ' ')
            return false;
    return true;
}

static int64_t to_cents(double d) { return (int64_t)llround(d * 100); }

static bool col_cents_is(const row *r, int i, int64_t cents)
{
    return !r->null[i] && r->has_d[i] && to_cents(r->d[i]) == cents;
}

/* Column i as text for messages. */
static const char *col_show(const row *r, int i, char *buf, size_t size)
{
    if (r->null[i])
        snprintf(buf, size, "NULL");
    else if (r->is_text[i])
        snprintf(buf, size, "'%.*s'", (int)(r->text[i].len > 80 ? 80 : r->text[i].len),
                 r->text[i].buf ? r->text[i].buf : "");
    else if (r->has_d[i])
        snprintf(buf, size, "%.15g", r->d[i]);
    else
        snprintf(buf, size, "?");
    return buf;
}

/* The custacc_account rows of a customer, ascending, into out (at most max); how many
 * there are. */
static int db_accounts(ctx *c, int64_t cust, int64_t *out, int max)
{
    dg_err e = DG_ERR_INIT;
    dg_value k = dg_vint(cust);
    dg_stmt *s = c->s[R_ACCTS];
    if (dg_execute(s, &k, 1, &e))
        die(read_sql[R_ACCTS], &e);
    int n = 0, f;
    while ((f = dg_fetch(s, &e)) == 1) {
        dg_value v;
        int64_t a = -1;
        dg_column(s, 0, &v);
        dg_value_as_int(&v, &a);
        if (n < max)
            out[n] = a;
        n++;
    }
    if (f < 0)
        die(read_sql[R_ACCTS], &e);
    dg_stmt_reset(s);
    return n;
}

static int64_t db_count(ctx *c, const char *table)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    int64_t n = 0;
    bool found = false;
    dg_err e = DG_ERR_INIT;
    if (dg_query_int(c->db, sql, NULL, 0, &n, &found, &e))
        die(sql, &e);
    return n;
}

/* ---- comparing -------------------------------------------------------------------------- */

static const char *money(int64_t cents, char buf[32])
{
    uint64_t m = cents < 0 ? 0 - (uint64_t)cents : (uint64_t)cents;
    snprintf(buf, 32, "%s%" PRIu64 ".%02u", cents < 0 ? "-" : "", m / 100, (unsigned)(m % 100));
    return buf;
}

/* A short excerpt of text around offset at, for messages (one line). */
static void excerpt(const char *s, size_t len, size_t at, char *buf, size_t size)
{
    size_t from = at > 30 ? at - 30 : 0, n = 0;
    for (size_t i = from; i < len && i < at + 50 && n + 1 < size; i++)
        buf[n++] = s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    buf[n] = '\0';
}

/* got must be byte for byte want; else reports where it differs. */
static bool same_text(ctx *c, const char *who, const char *what, const char *got, size_t glen,
                      const char *want, size_t wlen)
{
    if (glen == wlen && (glen == 0 || memcmp(got, want, glen) == 0))
        return true;
    size_t at = 0;
    while (at < glen && at < wlen && got[at] == want[at])
        at++;
    char g[96], w[96];
    excerpt(got, glen, at, g, sizeof g);
    excerpt(want, wlen, at, w, sizeof w);
    fail(c, "%s: %s differs at byte %zu (%zu bytes, expected %zu):\n  got:      ...%s...\n"
            "  expected: ...%s...",
         who, what, at, glen, wlen, g, w);
    return false;
}

/* Canonical XML (C14N 1.0) of a document into out (reset first); false when it does not
 * parse. */
static bool canonical(const char *xml, size_t len, dg_strbuf *out)
{
    xmlDoc *doc = xmlReadMemory(xml, (int)len, NULL, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlChar *mem = NULL;
    int n = doc ? xmlC14NDocDumpMemory(doc, NULL, XML_C14N_1_0, NULL, 0, &mem) : -1;
    dg_sb_reset(out);
    if (n >= 0 && mem)
        dg_sb_addn(out, (const char *)mem, (size_t)n);
    xmlFree(mem);
    xmlFreeDoc(doc);
    return n >= 0;
}

/* got must be the document (or projection) want: byte for byte where the client writes
 * and builds them (shredded-keys); where the engine stores XML itself or builds results on
 * the server, it may serialize them its own way (no XML declaration, attribute order, empty
 * elements), so there the same canonical XML (C14N 1.0). */
static bool same_doc(ctx *c, const char *who, const char *what, const char *got, size_t glen,
                     const char *want, size_t wlen)
{
    if (c->storage == DOCS_ST_SHREDDED)
        return same_text(c, who, what, got, glen, want, wlen);
    dg_strbuf g = DG_STRBUF_INIT, w = DG_STRBUF_INIT;
    bool ok = false;
    if (!canonical(got, glen, &g)) {
        fail(c, "%s: %s is not well-formed XML", who, what);
    } else if (!canonical(want, wlen, &w)) {
        fail(c, "%s: the expected %s is not well-formed XML", who, what);
    } else {
        char cwhat[160];
        snprintf(cwhat, sizeof cwhat, "%s (canonical XML)", what);
        ok = same_text(c, who, cwhat, g.buf, g.len, w.buf, w.len);
    }
    dg_sb_free(&g);
    dg_sb_free(&w);
    return ok;
}

static int acct_index(const docs_cust_keys *k, int64_t acct)
{
    for (int a = 0; a < k->nacct; a++)
        if (k->acct[a] == acct)
            return a;
    return -1;
}

/* The customer keys got must be want; reports the first difference. */
static bool same_cust_keys(ctx *c, const char *who, const docs_cust_keys *want,
                           const docs_cust_keys *got)
{
    char x[32], y[32];
    if (got->id != want->id) {
        fail(c, "%s: the document's Customer/@id is %" PRId64, who, got->id);
        return false;
    }
    const char *field = strcmp(got->country, want->country) ? "CountryOfResidence"
                        : strcmp(got->postal_code, want->postal_code) ? "PostalCode"
                        : strcmp(got->state, want->state) ? "State"
                                                          : NULL;
    if (field) {
        fail(c, "%s: %s changed", who, field);
        return false;
    }
    if (got->nacct != want->nacct) {
        fail(c, "%s: the document has %d accounts, expected %d", who, got->nacct, want->nacct);
        return false;
    }
    for (int a = 0; a < want->nacct; a++) {
        if (got->acct[a] != want->acct[a]) {
            fail(c, "%s: account %d of the document is %" PRId64 ", expected %" PRId64, who,
                 a + 1, got->acct[a], want->acct[a]);
            return false;
        }
        if (got->balance_cents[a] != want->balance_cents[a]) {
            fail(c, "%s: account %" PRId64 " has balance %s, expected %s", who, want->acct[a],
                 money(got->balance_cents[a], x), money(want->balance_cents[a], y));
            return false;
        }
        if (got->npos[a] != want->npos[a]) {
            fail(c, "%s: account %" PRId64 " has %d positions, expected %d", who, want->acct[a],
                 got->npos[a], want->npos[a]);
            return false;
        }
    }
    return true;
}

static bool same_order_keys(ctx *c, const char *who, const docs_order_keys *want,
                            const docs_order_keys *got)
{
    char x[32], y[32];
    if (got->id != want->id || got->acct != want->acct || strcmp(got->symbol, want->symbol) ||
        got->side != want->side) {
        fail(c, "%s: the document's @ID/@Acct/@Sym/@Side are %" PRId64 "/%" PRId64 "/%s/%c, "
                "expected %" PRId64 "/%" PRId64 "/%s/%c",
             who, got->id, got->acct, got->symbol, got->side, want->id, want->acct, want->symbol,
             want->side);
        return false;
    }
    if (got->qty != want->qty || got->cash_cents != want->cash_cents) {
        fail(c, "%s: OrdQty/@Qty %" PRId64 " @Cash %s, expected %" PRId64 " and %s", who, got->qty,
             money(got->cash_cents, x), want->qty, money(want->cash_cents, y));
        return false;
    }
    return true;
}

static bool same_sec_keys(ctx *c, const char *who, const docs_sec_keys *want,
                          const docs_sec_keys *got)
{
    char x[32], y[32];
    const char *field = got->id != want->id                   ? "@id"
                        : strcmp(got->symbol, want->symbol)     ? "Symbol"
                        : strcmp(got->name, want->name)         ? "Name"
                        : strcmp(got->type, want->type)         ? "SecurityType"
                        : strcmp(got->sector, want->sector)     ? "Sector"
                        : strcmp(got->industry, want->industry) ? "Industry"
                        : got->pe_cents != want->pe_cents       ? "PE"
                        : got->yield_cents != want->yield_cents ? "Yield"
                                                                : NULL;
    if (field) {
        fail(c, "%s: %s differs", who, field);
        return false;
    }
    if (got->open_cents != want->open_cents) {
        fail(c, "%s: PriceToday/Open is %s, expected %s", who, money(got->open_cents, x),
             money(want->open_cents, y));
        return false;
    }
    if (got->last_cents != want->last_cents) {
        fail(c, "%s: LastTrade is %s, expected %s", who, money(got->last_cents, x),
             money(want->last_cents, y));
        return false;
    }
    return true;
}

/* ---- reading documents directly (libxml2, local names) --------------------------------- */

static xmlDoc *parse_xml(const char *xml, size_t len)
{
    return xmlReadMemory(xml, (int)len, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                                         XML_PARSE_NOWARNING);
}

static bool named(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNode *kid(xmlNode *n, const char *name)
{
    for (xmlNode *k = n ? n->children : NULL; k; k = k->next)
        if (named(k, name))
            return k;
    return NULL;
}

/* Follows "A/B/C" through first children of those names. */
static xmlNode *path_of(xmlNode *n, const char *path)
{
    char part[64];
    while (n && *path) {
        size_t l = strcspn(path, "/");
        snprintf(part, sizeof part, "%.*s", (int)l, path);
        n = kid(n, part);
        path += l + (path[l] == '/');
    }
    return n;
}

static bool text_of(xmlNode *n, char *buf, size_t size)
{
    xmlChar *t = n ? xmlNodeGetContent(n) : NULL;
    if (!t)
        return false;
    snprintf(buf, size, "%s", (const char *)t);
    xmlFree(t);
    return true;
}

static bool cents_of(xmlNode *n, int64_t *out)
{
    char buf[48], *end = NULL;
    if (!text_of(n, buf, sizeof buf))
        return false;
    double d = strtod(buf, &end);
    if (end == buf || *end)
        return false;
    *out = to_cents(d);
    return true;
}

/* The Account element with @id = id anywhere below n. */
static xmlNode *account_el(xmlNode *n, int64_t id)
{
    for (xmlNode *k = n ? n->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (named(k, "Account")) {
            xmlChar *v = xmlGetProp(k, BAD_CAST "id");
            bool match = v && strtoll((const char *)v, NULL, 10) == id;
            xmlFree(v);
            if (match)
                return k;
        } else {
            xmlNode *a = account_el(k, id);
            if (a)
                return a;
        }
    }
    return NULL;
}

typedef struct pos {
    char symbol[DOCS_SYMBOL_MAX];
    char name[96];
    char type[24];
    int64_t qty;
} pos;

/* The positions of account acct in document order into *out (caller frees); how many,
 * -1 when the document does not parse, has no such account or a bad position. */
static int positions(const char *xml, size_t len, int64_t acct, pos **out)
{
    *out = NULL;
    xmlDoc *doc = parse_xml(xml, len);
    xmlNode *a = doc ? account_el(xmlDocGetRootElement(doc), acct) : NULL;
    int n = a ? 0 : -1;
    for (xmlNode *p = kid(kid(a, "Holdings"), "Position"); p && n >= 0; p = p->next) {
        if (!named(p, "Position"))
            continue;
        *out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
        pos *q = &(*out)[n];
        char qty[32], *end = NULL;
        if (!text_of(kid(p, "Symbol"), q->symbol, sizeof q->symbol) ||
            !text_of(kid(p, "Name"), q->name, sizeof q->name) ||
            !text_of(kid(p, "Type"), q->type, sizeof q->type) ||
            !text_of(kid(p, "Quantity"), qty, sizeof qty) ||
            (q->qty = strtoll(qty, &end, 10), end == qty || *end)) {
            n = -1;
            break;
        }
        n++;
    }
    if (n < 0) {
        free(*out);
        *out = NULL;
    }
    xmlFreeDoc(doc);
    return n;
}

static bool same_positions(ctx *c, const char *who, int64_t acct, const pos *want, int nwant,
                           const pos *got, int ngot)
{
    if (ngot < 0) {
        fail(c, "%s: the stored document has no readable account %" PRId64, who, acct);
        return false;
    }
    if (ngot != nwant) {
        fail(c, "%s: account %" PRId64 " has %d positions, expected %d", who, acct, ngot, nwant);
        return false;
    }
    for (int i = 0; i < nwant; i++)
        if (strcmp(got[i].symbol, want[i].symbol) || strcmp(got[i].name, want[i].name) ||
            strcmp(got[i].type, want[i].type) || got[i].qty != want[i].qty) {
            fail(c, "%s: account %" PRId64 " position %d is %s '%s' %s x %" PRId64
                    ", expected %s '%s' %s x %" PRId64,
                 who, acct, i + 1, got[i].symbol, got[i].name, got[i].type, got[i].qty,
                 want[i].symbol, want[i].name, want[i].type, want[i].qty);
            return false;
        }
    return true;
}

/* ---- stored documents after a transaction ------------------------------------------------ */

/* Reads row id with read statement s into *r and its document (column doc_col) into c->b,
 * which becomes the model's document of kind k. false (reported) when the row is gone
 * (the model then says so too) or the document is NULL. */
static bool stored_doc(ctx *c, const char *who, int s, int doc_col, kindset *k, int64_t id,
                       row *r)
{
    read_row(c, s, id, r);
    if (!r->found) {
        fail(c, "%s: the row is gone", who);
        ent_set(k, id, NULL, 0);
        return false;
    }
    if (!r->is_text[doc_col]) {
        fail(c, "%s: the document is NULL or not text", who);
        return false;
    }
    dg_sb_reset(&c->b);
    dg_sb_addn(&c->b, r->text[doc_col].buf, r->text[doc_col].len);
    ent_set(k, id, c->b.buf, c->b.len);
    return true;
}

/* Reports side column i of r, which is not what the document says. */
static void bad_column(ctx *c, const char *who, const row *r, int i, const char *const *names)
{
    char buf[96];
    fail(c, "%s: column %s is %s, not what the document says", who, names[i],
         col_show(r, i, buf, sizeof buf));
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Customer id's stored document into c->b and its keys into *k; checks its side columns
 * and that its custacc_account rows are the document's accounts. false when the row is
 * gone or the document does not read. */
static bool stored_cust(ctx *c, const char *who, int64_t id, docs_cust_keys *k)
{
    static const char *const names[] = {"country", "postal_code", "state"};
    row r = {0};
    dg_err e = DG_ERR_INIT;
    bool ok = stored_doc(c, who, R_CUST, 3, &c->cust, id, &r);
    if (ok && docs_read_custacc(c->b.buf, c->b.len, k, &e)) {
        fail(c, "%s: the stored document does not read: %s", who, e.msg);
        ok = false;
    }
    if (ok) {
        int col = !col_is(&r, 0, k->country)       ? 0
                  : !col_is(&r, 1, k->postal_code) ? 1
                  : !col_is(&r, 2, k->state)       ? 2
                                                   : -1;
        if (col >= 0)
            bad_column(c, who, &r, col, names);
        int64_t rows[DOCS_MAX_ACCOUNTS + 8], sorted[DOCS_MAX_ACCOUNTS];
        int n = db_accounts(c, id, rows, DOCS_MAX_ACCOUNTS + 8);
        memcpy(sorted, k->acct, (size_t)k->nacct * sizeof sorted[0]);
        qsort(sorted, (size_t)k->nacct, sizeof sorted[0], cmp_i64);
        bool same = n == k->nacct;
        for (int i = 0; same && i < n; i++)
            same = rows[i] == sorted[i];
        if (!same)
            fail(c, "%s: %d custacc_account rows, not the document's %d accounts", who, n,
                 k->nacct);
    }
    row_free(&r);
    return ok;
}

static bool stored_order(ctx *c, const char *who, int64_t id, docs_order_keys *k)
{
    static const char *const names[] = {"acct_id", "symbol", "side", "cash"};
    row r = {0};
    dg_err e = DG_ERR_INIT;
    bool ok = stored_doc(c, who, R_ORDER, 4, &c->order, id, &r);
    if (ok && docs_read_order(c->b.buf, c->b.len, k, &e)) {
        fail(c, "%s: the stored document does not read: %s", who, e.msg);
        ok = false;
    }
    if (ok) {
        char side[2] = {k->side, '\0'};
        int col = !r.has_i[0] || r.i[0] != k->acct      ? 0
                  : !col_is(&r, 1, k->symbol)           ? 1
                  : !col_is(&r, 2, side)                ? 2
                  : !col_cents_is(&r, 3, k->cash_cents) ? 3
                                                        : -1;
        if (col >= 0)
            bad_column(c, who, &r, col, names);
    }
    row_free(&r);
    return ok;
}

static bool stored_sec(ctx *c, const char *who, int64_t id, docs_sec_keys *k)
{
    static const char *const names[] = {"symbol",   "name", "sec_type", "sector",
                                        "industry", "pe",   "yield_pct"};
    row r = {0};
    dg_err e = DG_ERR_INIT;
    bool ok = stored_doc(c, who, R_SEC, 7, &c->sec, id, &r);
    if (ok && docs_read_security(c->b.buf, c->b.len, k, &e)) {
        fail(c, "%s: the stored document does not read: %s", who, e.msg);
        ok = false;
    }
    if (ok) {
        int col = !col_is(&r, 0, k->symbol)              ? 0
                  : !col_is(&r, 1, k->name)              ? 1
                  : !col_is(&r, 2, k->type)              ? 2
                  : !col_is(&r, 3, k->sector)            ? 3
                  : !col_is(&r, 4, k->industry)          ? 4
                  : !col_cents_is(&r, 5, k->pe_cents)    ? 5
                  : !col_cents_is(&r, 6, k->yield_cents) ? 6
                                                         : -1;
        if (col >= 0)
            bad_column(c, who, &r, col, names);
    }
    row_free(&r);
    return ok;
}

/* After a rollback: row id of read statement s is as the model has it: gone, or with the
 * document c->a (its column doc_col). */
static void unchanged(ctx *c, const char *who, int s, int doc_col, int64_t id, bool should_exist)
{
    row r = {0};
    read_row(c, s, id, &r);
    if (!should_exist && r.found)
        fail(c, "%s: rolled back, but the row exists", who);
    else if (should_exist && !r.found)
        fail(c, "%s: rolled back, but the row is gone", who);
    else if (should_exist && !r.is_text[doc_col])
        fail(c, "%s: rolled back, but the document is NULL or not text", who);
    else if (should_exist)
        same_doc(c, who, "rolled back, but the document", r.text[doc_col].buf,
                  r.text[doc_col].len, c->a.buf, c->a.len);
    row_free(&r);
}

/* The outcome must be a commit (why NULL) or a rollback for reason why. */
static bool outcome_is(ctx *c, const char *who, int outcome, const char *why)
{
    if (outcome == DG_TX_COMMITTED && why) {
        fail(c, "%s: committed, but should have rolled back (%s)", who, why);
        return false;
    }
    if (outcome == DG_TX_ROLLED_BACK && !why) {
        fail(c, "%s: rolled back, but nothing says it should have", who);
        return false;
    }
    if (outcome != DG_TX_COMMITTED && outcome != DG_TX_ROLLED_BACK) {
        fail(c, "%s: outcome %d", who, outcome);
        return false;
    }
    return true;
}

static bool in_range(ctx *c, const char *what, int64_t v, int64_t lo, int64_t hi)
{
    if (v >= lo && v <= hi)
        return true;
    fail(c, "%s %" PRId64 " is not in [%" PRId64 ", %" PRId64 "]", what, v, lo, hi);
    return false;
}

static int64_t max_present(const kindset *k)
{
    for (int64_t i = k->n - 1; i >= 0; i--)
        if (k->e[i].present)
            return k->first + i;
    return k->first - 1;
}

/* ---- the queries ------------------------------------------------------------------------- */

/* Each verifier checks one run against the model (still as it was before the run), brings
 * the model up to date, and returns the reason the run had to roll back (NULL: it had
 * to commit). */

static const char *v_get_order(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "order %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    if (!in_range(c, "order", l->id, DOCS_FIRST_ORDER,
                  DOCS_FIRST_ORDER + c->ncust * DOCS_ORDERS_PER_CUST - 1))
        return NULL;
    docs_order_keys k;
    if (!exp_order(c, l->id, &c->a, &k)) {
        c->st[c->type].special++;
        if (l->rows != 0 || l->doc)
            fail(c, "%s: returned a document, but the order was deleted", who);
    } else if (l->rows != 1 || !l->doc) {
        fail(c, "%s: found no document", who);
    } else {
        same_doc(c, who, "the document", l->doc, l->doc_len, c->a.buf, c->a.len);
    }
    return NULL;
}

static const char *v_get_security(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "security '%s'", l->symbol);
    outcome_is(c, who, outcome, NULL);
    int s = docs_symbol_index(l->symbol);
    if (s < 0 || s >= c->nsec) {
        fail(c, "%s: not the symbol of a loaded security", who);
        return NULL;
    }
    docs_sec_keys k;
    if (!exp_sec(c, s + 1, &c->a, &k))
        fail(c, "%s: the model lost it", who);
    else if (l->rows != 1 || !l->doc)
        fail(c, "%s: found no document", who);
    else
        same_doc(c, who, "the document", l->doc, l->doc_len, c->a.buf, c->a.len);
    return NULL;
}

static const char *v_customer(ctx *c, int outcome, const docs_last *l, bool summary)
{
    char who[64];
    snprintf(who, sizeof who, "customer %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    if (!in_range(c, "customer", l->id, DOCS_FIRST_CUST, DOCS_FIRST_CUST + c->ncust - 1))
        return NULL;
    docs_cust_keys *k = xmalloc(sizeof *k);
    if (!exp_cust(c, l->id, &c->a, k)) {
        c->st[c->type].special++;
        if (l->rows != 0 || l->out)
            fail(c, "%s: returned a result, but the customer was deleted", who);
    } else if (!l->out) {
        fail(c, "%s: returned nothing", who);
    } else {
        int items = 0;
        dg_err e = DG_ERR_INIT;
        int rc = summary ? docs_account_summary(c->a.buf, c->a.len, &c->x, &items, &e)
                         : docs_customer_profile(c->a.buf, c->a.len, &c->x, &items, &e);
        if (rc)
            die("the expected projection", &e);
        same_doc(c, who, summary ? "the account summary" : "the profile", l->out, l->out_len,
                  c->x.buf, c->x.len);
        int64_t want = summary ? k->nacct : 1;
        if (l->rows != want || items != want)
            fail(c, "%s: rows %" PRId64 " (projection items %d), expected %" PRId64, who, l->rows,
                 items, want);
    }
    free(k);
    return NULL;
}

static const char *v_profile(ctx *c, int outcome, const docs_last *l)
{
    return v_customer(c, outcome, l, false);
}

static const char *v_summary(ctx *c, int outcome, const docs_last *l)
{
    return v_customer(c, outcome, l, true);
}

static const char *v_search(ctx *c, int outcome, const docs_last *l)
{
    char who[128];
    snprintf(who, sizeof who, "sector '%s', PE [%" PRId64 ", %" PRId64 "), yield > %" PRId64,
             l->sector ? l->sector : "(null)", l->pemin, l->pemax, l->yield);
    outcome_is(c, who, outcome, NULL);
    bool known = false;
    for (int i = 0; i < DOCS_NSECTORS && l->sector; i++)
        known |= strcmp(l->sector, docs_sector(i)) == 0;
    if (!known) {
        fail(c, "%s: not one of the %d sectors", who, DOCS_NSECTORS);
        return NULL;
    }
    if (!in_range(c, "PE minimum", l->pemin, 20, 23) ||
        !in_range(c, "PE maximum", l->pemax, 25, 27) || !in_range(c, "yield", l->yield, 4, 6))
        return NULL;
    int64_t want = 0;
    for (int64_t id = 1; id <= c->nsec; id++) {
        docs_sec_keys k;
        if (exp_sec(c, id, &c->x, &k) && strcmp(k.sector, l->sector) == 0 &&
            k.pe_cents >= l->pemin * 100 && k.pe_cents < l->pemax * 100 &&
            k.yield_cents > l->yield * 100)
            want++;
    }
    if (l->rows != want)
        fail(c, "%s: %" PRId64 " rows, the generated securities have %" PRId64, who, l->rows,
             want);
    return NULL;
}

static const char *v_price(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "security '%s'", l->symbol);
    outcome_is(c, who, outcome, NULL);
    int s = docs_symbol_index(l->symbol);
    if (s < 0 || s >= c->nsec) {
        fail(c, "%s: not the symbol of a loaded security", who);
        return NULL;
    }
    docs_sec_keys k;
    if (!exp_sec(c, s + 1, &c->x, &k)) {
        fail(c, "%s: the model lost it", who);
        return NULL;
    }
    char m[32], want[128];
    snprintf(want, sizeof want, "The open price of the security %s is %s", k.symbol,
             money(k.open_cents, m));
    if (!l->out || l->rows != 1)
        fail(c, "%s: returned nothing", who);
    else
        same_text(c, who, "the answer", l->out, l->out_len, want, strlen(want));
    return NULL;
}

static const char *v_max_order(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "customer %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    if (!in_range(c, "customer", l->id, DOCS_FIRST_CUST, DOCS_FIRST_CUST + c->ncust - 1))
        return NULL;
    /* the customer's orders: their @Acct is one of the customer's accounts (the query
     * joins through custacc_account, so a closed account's orders no longer count) */
    docs_cust_keys *ck = xmalloc(sizeof *ck);
    bool has = exp_cust(c, l->id, &c->x, ck);
    bool any = false;
    c->st[c->type].special += !has;
    int64_t max = 0, norders = 0;
    for (int64_t id = c->order.first; has && id < c->order.first + c->order.n; id++) {
        docs_order_keys k;
        if (!exp_order(c, id, &c->x, &k) || docs_acct_cust(k.acct) != l->id ||
            acct_index(ck, k.acct) < 0)
            continue;
        norders++;
        if (!any || k.cash_cents > max)
            max = k.cash_cents;
        any = true;
    }
    free(ck);
    char x[32], y[32];
    if (l->rows != any)
        fail(c, "%s: rows %" PRId64 ", but the customer has %" PRId64 " orders", who, l->rows,
             norders);
    else if (any && l->max_cash_cents != max)
        fail(c, "%s: maximum OrdQty/@Cash %s, expected %s over %" PRId64 " orders", who,
             money(l->max_cash_cents, x), money(max, y), norders);
    return NULL;
}

/* ---- inserts and deletes ---------------------------------------------------------------- */

static const char *v_insert_custacc(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "customer %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    int64_t top = max_present(&c->cust);
    if (l->id <= top || present(&c->cust, l->id)) {
        fail(c, "%s: not a new id (the highest is %" PRId64 ")", who, top);
        return NULL;
    }
    docs_cust_keys *want = xmalloc(sizeof *want), *got = xmalloc(sizeof *got);
    dg_err e = DG_ERR_INIT;
    if (docs_gen_custacc(c->seed, l->id, c->nsec, &c->a, want, &e))
        die("generating the new customer", &e);
    ent_add(&c->cust, l->id);
    if (outcome == DG_TX_COMMITTED && stored_cust(c, who, l->id, got)) {
        c->rows[T_CUSTACC]++;
        c->rows[T_ACCOUNT] += got->nacct;
        if (same_doc(c, who, "the stored document", c->b.buf, c->b.len, c->a.buf, c->a.len))
            same_cust_keys(c, who, want, got);
        ent_generated(&c->cust, l->id);
    }
    free(want);
    free(got);
    return NULL;
}

static const char *v_insert_order(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "order %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    int64_t top = max_present(&c->order);
    if (l->id <= top || present(&c->order, l->id)) {
        fail(c, "%s: not a new id (the highest is %" PRId64 ")", who, top);
        return NULL;
    }
    docs_order_keys want, got;
    dg_err e = DG_ERR_INIT;
    if (docs_gen_order(c->seed, l->id, c->ncust, c->nsec, &c->a, &want, &e))
        die("generating the new order", &e);
    /* its references: an account of a loaded customer, a loaded security */
    int64_t cust = docs_acct_cust(want.acct);
    int num = (int)(want.acct - cust * 100), s = docs_symbol_index(want.symbol);
    if (cust < DOCS_FIRST_CUST || cust >= DOCS_FIRST_CUST + c->ncust || num < 1 ||
        num > docs_nacct(c->seed, cust) || s < 0 || s >= c->nsec)
        fail(c, "%s: the generated order refers to account %" PRId64 " and '%s', not loaded ones",
             who, want.acct, want.symbol);
    ent_add(&c->order, l->id);
    if (outcome == DG_TX_COMMITTED && stored_order(c, who, l->id, &got)) {
        c->rows[T_ORDERS]++;
        if (same_doc(c, who, "the stored document", c->b.buf, c->b.len, c->a.buf, c->a.len))
            same_order_keys(c, who, &want, &got);
        ent_generated(&c->order, l->id);
    }
    return NULL;
}

/* The oldest document of kind k an insert made that is still there (ids after the nloaded
 * loaded ones); 0: none. */
static int64_t oldest_inserted(const kindset *k, int64_t nloaded)
{
    for (int64_t i = nloaded; i < k->n; i++)
        if (k->e[i].present)
            return k->first + i;
    return 0;
}

/* A delete takes the oldest document the inserts made, or while there is none a loaded
 * one. false (reported) when l->id is not that. */
static bool delete_pick(ctx *c, const char *what, const kindset *k, int64_t nloaded,
                        const docs_last *l)
{
    int64_t oldest = oldest_inserted(k, nloaded);
    if (!oldest)
        return in_range(c, what, l->id, k->first, k->first + nloaded - 1);
    c->st[c->type].special++;
    if (l->id == oldest)
        return true;
    fail(c, "%s %" PRId64 " deleted, not %" PRId64 ", the oldest an insert made", what, l->id,
         oldest);
    return false;
}

static const char *v_delete_custacc(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "customer %" PRId64, l->id);
    if (!delete_pick(c, "customer", &c->cust, c->ncust, l))
        return NULL;
    docs_cust_keys *k = xmalloc(sizeof *k);
    bool had = exp_cust(c, l->id, &c->a, k);
    const char *why = had ? NULL : "customer already gone";
    outcome_is(c, who, outcome, why);
    if (outcome == DG_TX_COMMITTED) {
        row r = {0};
        int64_t accts[4];
        read_row(c, R_CUST, l->id, &r);
        int n = db_accounts(c, l->id, accts, 4);
        if (r.found)
            fail(c, "%s: committed, but the row is still there", who);
        if (n)
            fail(c, "%s: committed, but %d custacc_account rows are still there", who, n);
        row_free(&r);
        if (had) {
            c->rows[T_CUSTACC]--;
            c->rows[T_ACCOUNT] -= k->nacct;
        }
        ent_set(&c->cust, l->id, NULL, 0);
    } else {
        unchanged(c, who, R_CUST, 3, l->id, had);
    }
    free(k);
    return why;
}

static const char *v_delete_order(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "order %" PRId64, l->id);
    if (!delete_pick(c, "order", &c->order, c->ncust * DOCS_ORDERS_PER_CUST, l))
        return NULL;
    docs_order_keys k;
    bool had = exp_order(c, l->id, &c->a, &k);
    const char *why = had ? NULL : "order already gone";
    outcome_is(c, who, outcome, why);
    if (outcome == DG_TX_COMMITTED) {
        row r = {0};
        read_row(c, R_ORDER, l->id, &r);
        if (r.found)
            fail(c, "%s: committed, but the row is still there", who);
        row_free(&r);
        if (had)
            c->rows[T_ORDERS]--;
        ent_set(&c->order, l->id, NULL, 0);
    } else {
        unchanged(c, who, R_ORDER, 4, l->id, had);
    }
    return why;
}

/* ---- updates --------------------------------------------------------------------------- */

/* The edit function applied to the document before must give the stored one (c->b). */
static void same_edit(ctx *c, const char *who, int rc, const dg_err *e)
{
    if (rc)
        fail(c, "%s: the edit of the document before fails here: %s", who, e->msg);
    else
        same_doc(c, who, "the stored document (against the edit of the one before)", c->b.buf,
                  c->b.len, c->x.buf, c->x.len);
}

/* The customer updates U1-U4 share this: the document before (c->a, *kb), the outcome
 * against the reason the model gives for a rollback (why_of), the document after (c->b,
 * *ka) when committed. Returns true when the caller is to check a committed change. */
static bool cust_update(ctx *c, int outcome, const docs_last *l, char *who, size_t who_size,
                        docs_cust_keys *kb, docs_cust_keys *ka,
                        const char *(*why_of)(const docs_cust_keys *kb), const char **why)
{
    snprintf(who, who_size, "customer %" PRId64, l->id);
    *why = NULL;
    if (!in_range(c, "customer", l->id, DOCS_FIRST_CUST, DOCS_FIRST_CUST + c->ncust - 1))
        return false;
    bool had = exp_cust(c, l->id, &c->a, kb);
    *why = !had ? "customer gone" : why_of(kb);
    if (!outcome_is(c, who, outcome, *why) || outcome != DG_TX_COMMITTED) {
        if (outcome == DG_TX_ROLLED_BACK)
            unchanged(c, who, R_CUST, 3, l->id, had);
        else if (had) /* committed against the model: take what is there */
            stored_cust(c, who, l->id, ka);
        return false;
    }
    if (l->acct)
        snprintf(who, who_size, "customer %" PRId64 ", account %" PRId64, l->id, l->acct);
    return stored_cust(c, who, l->id, ka);
}

static int max_acct_number(const docs_cust_keys *k)
{
    int next = 0;
    for (int a = 0; a < k->nacct; a++)
        if (k->acct[a] - k->id * 100 > next)
            next = (int)(k->acct[a] - k->id * 100);
    return next;
}

static const char *why_add(const docs_cust_keys *kb)
{
    return max_acct_number(kb) >= DOCS_MAX_ACCOUNTS || kb->nacct >= DOCS_MAX_ACCOUNTS
               ? "no free account number"
               : NULL;
}

static const char *v_add_account(ctx *c, int outcome, const docs_last *l)
{
    char who[96];
    const char *why;
    docs_cust_keys *kb = xmalloc(sizeof *kb), *ka = xmalloc(sizeof *ka);
    if (cust_update(c, outcome, l, who, sizeof who, kb, ka, why_add, &why)) {
        int64_t acct = docs_acct_id(l->id, max_acct_number(kb) + 1);
        c->rows[T_ACCOUNT]++;
        if (l->acct != acct) {
            fail(c, "%s: the new account should be %" PRId64, who, acct);
        } else if (in_range(c, "opening balance", l->amount_cents, 0, 10000000)) {
            docs_cust_keys *want = xmalloc(sizeof *want);
            *want = *kb;
            want->acct[want->nacct] = acct;
            want->balance_cents[want->nacct] = l->amount_cents;
            want->npos[want->nacct] = 0;
            want->nacct++;
            same_cust_keys(c, who, want, ka);
            free(want);
            dg_err e = DG_ERR_INIT;
            same_edit(c, who,
                      docs_add_account(c->a.buf, c->a.len, acct, l->amount_cents, &c->x, &e), &e);
        }
    }
    free(kb);
    free(ka);
    return why;
}

static const char *why_close(const docs_cust_keys *kb)
{
    return kb->nacct < 2 ? "the customer's last account" : NULL;
}

static const char *v_close_account(ctx *c, int outcome, const docs_last *l)
{
    char who[96];
    const char *why;
    docs_cust_keys *kb = xmalloc(sizeof *kb), *ka = xmalloc(sizeof *ka);
    if (cust_update(c, outcome, l, who, sizeof who, kb, ka, why_close, &why)) {
        int j = acct_index(kb, l->acct);
        c->rows[T_ACCOUNT]--;
        if (j < 0) {
            fail(c, "%s: not an account the customer had", who);
        } else {
            docs_cust_keys *want = xmalloc(sizeof *want);
            *want = *kb;
            for (int a = j; a + 1 < want->nacct; a++) {
                want->acct[a] = want->acct[a + 1];
                want->balance_cents[a] = want->balance_cents[a + 1];
                want->npos[a] = want->npos[a + 1];
            }
            want->nacct--;
            same_cust_keys(c, who, want, ka);
            free(want);
            bool found = false;
            int64_t owner = 0;
            dg_err e = DG_ERR_INIT;
            dg_value key = dg_vint(l->acct);
            if (dg_query_int(c->db, read_sql[R_ACCT_OWNER], &key, 1, &owner, &found, &e))
                die(read_sql[R_ACCT_OWNER], &e);
            if (found)
                fail(c, "%s: the custacc_account row is still there", who);
            same_edit(c, who, docs_close_account(c->a.buf, c->a.len, l->acct, NULL, &c->x, &e), &e);
        }
    }
    free(kb);
    free(ka);
    return why;
}

static const char *why_buy(const docs_cust_keys *kb)
{
    return kb->nacct < 1 ? "the customer has no account" : NULL;
}

static const char *v_buy_position(ctx *c, int outcome, const docs_last *l)
{
    char who[96];
    const char *why;
    docs_cust_keys *kb = xmalloc(sizeof *kb), *ka = xmalloc(sizeof *ka);
    pos *pb = NULL, *pa = NULL;
    if (cust_update(c, outcome, l, who, sizeof who, kb, ka, why_buy, &why)) {
        int j = acct_index(kb, l->acct), s = docs_symbol_index(l->symbol);
        docs_sec_keys sk;
        if (j < 0) {
            fail(c, "%s: not an account the customer had", who);
        } else if (s < 0 || s >= c->nsec || !exp_sec(c, s + 1, &c->x, &sk)) {
            fail(c, "%s: '%s' is not a loaded security", who, l->symbol);
        } else if (in_range(c, "quantity", l->qty, 1, 1000)) {
            char x[32], y[32], z[32];
            if (l->amount_cents != l->qty * sk.last_cents)
                fail(c, "%s: paid %s for %" PRId64 " x '%s', expected %s at LastTrade %s", who,
                     money(l->amount_cents, x), l->qty, l->symbol,
                     money(l->qty * sk.last_cents, y), money(sk.last_cents, z));
            docs_cust_keys *want = xmalloc(sizeof *want);
            *want = *kb;
            want->balance_cents[j] -= l->qty * sk.last_cents;
            want->npos[j]++;
            same_cust_keys(c, who, want, ka);
            free(want);
            /* the positions: the ones before and the new one at the end */
            int nb = positions(c->a.buf, c->a.len, l->acct, &pb);
            int na = positions(c->b.buf, c->b.len, l->acct, &pa);
            if (nb < 0) {
                fail(c, "%s: the document before has no readable account", who);
            } else {
                pb = xrealloc(pb, (size_t)(nb + 1) * sizeof *pb);
                pos *p = &pb[nb];
                snprintf(p->symbol, sizeof p->symbol, "%s", sk.symbol);
                snprintf(p->name, sizeof p->name, "%s", sk.name);
                snprintf(p->type, sizeof p->type, "%s", sk.type);
                p->qty = l->qty;
                same_positions(c, who, l->acct, pb, nb + 1, pa, na);
            }
            dg_err e = DG_ERR_INIT;
            same_edit(c, who,
                      docs_buy_position(c->a.buf, c->a.len, l->acct, &sk, l->qty,
                                        l->qty * sk.last_cents, &c->x, &e),
                      &e);
        }
    }
    free(pb);
    free(pa);
    free(kb);
    free(ka);
    return why;
}

static const char *why_sell(const docs_cust_keys *kb)
{
    for (int a = 0; a < kb->nacct; a++)
        if (kb->npos[a] > 0)
            return NULL;
    return "no account holds a position";
}

static const char *v_sell_position(ctx *c, int outcome, const docs_last *l)
{
    char who[96];
    const char *why;
    docs_cust_keys *kb = xmalloc(sizeof *kb), *ka = xmalloc(sizeof *ka);
    pos *pb = NULL, *pa = NULL;
    if (cust_update(c, outcome, l, who, sizeof who, kb, ka, why_sell, &why)) {
        int j = acct_index(kb, l->acct);
        int nb = j < 0 ? -1 : positions(c->a.buf, c->a.len, l->acct, &pb);
        if (j < 0 || kb->npos[j] < 1 || nb < 1) {
            fail(c, "%s: not an account of the customer that holds a position", who);
        } else if (!in_range(c, "quantity", l->qty, 1, 1000)) {
            /* reported */
        } else if (l->amount_cents % l->qty != 0) {
            fail(c, "%s: proceeds %" PRId64 " cents are not a price times %" PRId64, who,
                 l->amount_cents, l->qty);
        } else if (in_range(c, "price (cents)", l->amount_cents / l->qty, 100, 50000)) {
            /* the first position: quantity reduced, or gone when that leaves none */
            bool sold_out = pb[0].qty - l->qty <= 0;
            int64_t more = (pb[0].qty - l->qty + l->qty - 1) / l->qty; /* to sell it out */
            if (sold_out) {
                c->st[c->type].special++;
                memmove(pb, pb + 1, (size_t)(nb - 1) * sizeof *pb);
            } else {
                pb[0].qty -= l->qty;
                if (c->sellout_runs == 0 || more < c->sellout_runs) {
                    c->sellout_runs = more;
                    c->sellout_seed = c->run_seed;
                }
            }
            int na = positions(c->b.buf, c->b.len, l->acct, &pa);
            same_positions(c, who, l->acct, pb, sold_out ? nb - 1 : nb, pa, na);
            docs_cust_keys *want = xmalloc(sizeof *want);
            *want = *kb;
            want->balance_cents[j] += l->amount_cents;
            want->npos[j] -= sold_out;
            same_cust_keys(c, who, want, ka);
            free(want);
            dg_err e = DG_ERR_INIT;
            bool removed = false;
            int rc = docs_sell_position(c->a.buf, c->a.len, l->acct, l->qty, l->amount_cents,
                                        &removed, NULL, &c->x, &e);
            same_edit(c, who, rc, &e);
            if (rc == 0 && removed != sold_out)
                fail(c, "%s: docs_sell_position says removed=%d, the quantities say %d", who,
                     removed, sold_out);
        }
    }
    free(pb);
    free(pa);
    free(kb);
    free(ka);
    return why;
}

static const char *v_update_order(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "order %" PRId64, l->id);
    if (!in_range(c, "order", l->id, DOCS_FIRST_ORDER,
                  DOCS_FIRST_ORDER + c->ncust * DOCS_ORDERS_PER_CUST - 1))
        return NULL;
    docs_order_keys kb, ka;
    bool had = exp_order(c, l->id, &c->a, &kb);
    const char *why = had ? NULL : "order gone";
    if (!outcome_is(c, who, outcome, why) || outcome != DG_TX_COMMITTED) {
        if (outcome == DG_TX_ROLLED_BACK)
            unchanged(c, who, R_ORDER, 4, l->id, had);
        else if (had)
            stored_order(c, who, l->id, &ka);
        return why;
    }
    if (!stored_order(c, who, l->id, &ka) || !in_range(c, "quantity", l->qty, 1, 10000))
        return why;
    if (l->amount_cents % l->qty != 0) {
        fail(c, "%s: cash %" PRId64 " cents is not a price times %" PRId64, who, l->amount_cents,
             l->qty);
        return why;
    }
    if (!in_range(c, "price (cents)", l->amount_cents / l->qty, 100, 50000))
        return why;
    docs_order_keys want = kb;
    want.qty = l->qty;
    want.cash_cents = l->amount_cents;
    same_order_keys(c, who, &want, &ka);
    dg_err e = DG_ERR_INIT;
    same_edit(c, who, docs_update_order(c->a.buf, c->a.len, l->qty, l->amount_cents, &c->x, &e),
              &e);
    return why;
}

static const char *v_update_price(ctx *c, int outcome, const docs_last *l)
{
    char who[64];
    snprintf(who, sizeof who, "security %" PRId64, l->id);
    outcome_is(c, who, outcome, NULL);
    if (!in_range(c, "sec_id", l->id, 1, c->nsec))
        return NULL;
    docs_sec_keys kb, ka;
    if (!exp_sec(c, l->id, &c->a, &kb)) {
        fail(c, "%s: the model lost it", who);
        return NULL;
    }
    if (outcome != DG_TX_COMMITTED || !stored_sec(c, who, l->id, &ka))
        return NULL;
    char x[32], y[32];
    int64_t step = kb.last_cents * 500 / 10000; /* at most 5 % either way */
    if (l->amount_cents != 1 && (l->amount_cents < kb.last_cents - step - 1 ||
                                 l->amount_cents > kb.last_cents + step + 1))
        fail(c, "%s: the new LastTrade %s is more than 5 %% away from %s", who,
             money(l->amount_cents, x), money(kb.last_cents, y));
    docs_sec_keys want = kb;
    want.last_cents = l->amount_cents;
    want.open_cents = kb.last_cents; /* today opened at the previous trade */
    if (!same_sec_keys(c, who, &want, &ka))
        return NULL;
    /* PreviousClose, Low and High, read here */
    xmlDoc *doc = parse_xml(c->b.buf, c->b.len);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    int64_t prev = 0, low = 0, high = 0;
    if (!cents_of(path_of(root, "Price/PriceToday/PreviousClose"), &prev) ||
        !cents_of(path_of(root, "Price/PriceToday/Low"), &low) ||
        !cents_of(path_of(root, "Price/PriceToday/High"), &high)) {
        fail(c, "%s: no Price/PriceToday/{PreviousClose, Low, High} amounts", who);
    } else {
        int64_t lo = l->amount_cents < kb.last_cents ? l->amount_cents : kb.last_cents;
        int64_t hi = l->amount_cents > kb.last_cents ? l->amount_cents : kb.last_cents;
        if (prev != kb.last_cents)
            fail(c, "%s: PreviousClose %s, expected the LastTrade before, %s", who,
                 money(prev, x), money(kb.last_cents, y));
        else if (low > lo || high < hi)
            fail(c, "%s: Low %s / High %s do not bracket Open and LastTrade", who, money(low, x),
                 money(high, y));
        dg_err e = DG_ERR_INIT;
        same_edit(c, who,
                  docs_update_price(c->a.buf, c->a.len, l->amount_cents, kb.last_cents, low, high,
                                    &c->x, &e),
                  &e);
    }
    xmlFreeDoc(doc);
    return NULL;
}

/* ---- the table ------------------------------------------------------------------------- */

static const struct txcase {
    const char *(*verify)(ctx *c, int outcome, const docs_last *l);
    const char *what;    /* what a committed run was checked for */
    const char *special; /* the rarer path counted in txstat.special; NULL: none */
} cases[DOCS_NTX] = {
    [DOCS_Q1] = {v_get_order, "document = the generator's", "on deleted orders"},
    [DOCS_Q2] = {v_get_security, "document = the generator's", NULL},
    [DOCS_Q3] = {v_profile, "profile of the expected document", "on deleted customers"},
    [DOCS_Q4] = {v_search, "rows = the matching generated securities", NULL},
    [DOCS_Q5] = {v_summary, "summary of the expected document, rows = accounts",
                 "on deleted customers"},
    [DOCS_Q6] = {v_price, "text with the generated Open price", NULL},
    [DOCS_Q7] = {v_max_order, "max @Cash of the customer's orders", "on deleted customers"},
    [DOCS_I1] = {v_insert_custacc, "document, side columns, accounts = the generator's; counts",
                 NULL},
    [DOCS_I2] = {v_insert_order, "document, side columns = the generator's; count", NULL},
    [DOCS_D1] = {v_delete_custacc, "the oldest inserted, else a loaded one: row and account rows "
                                   "gone; counts",
                 "of inserted customers"},
    [DOCS_D2] = {v_delete_order, "the oldest inserted, else a loaded one: row gone; count",
                 "of inserted orders"},
    [DOCS_U1] = {v_add_account, "next account appended with balance and row; rest unchanged",
                 NULL},
    [DOCS_U2] = {v_close_account, "account and its row gone; rest unchanged", NULL},
    [DOCS_U3] = {v_buy_position, "position appended, balance - qty x LastTrade; rest unchanged",
                 NULL},
    [DOCS_U4] = {v_sell_position, "first position reduced or removed, balance + proceeds; "
                                  "rest unchanged",
                 "sold out"},
    [DOCS_U5] = {v_update_order, "@Qty, @Cash and orders.cash set; rest unchanged", NULL},
    [DOCS_U6] = {v_update_price, "LastTrade, Open, PreviousClose, Low, High; rest unchanged",
                 NULL},
};

static void tally_reason(txstat *st, const char *why)
{
    why = why ? why : "unexpected";
    for (int i = 0; i < MAX_REASONS; i++) {
        if (!st->reason[i])
            st->reason[i] = why;
        if (st->reason[i] == why || strcmp(st->reason[i], why) == 0) {
            st->nreason[i]++;
            return;
        }
    }
}

static void check_counts(ctx *c)
{
    for (int t = 0; t < T_N; t++) {
        int64_t n = db_count(c, table_names[t]);
        if (n != c->rows[t]) {
            fail(c, "table %s has %" PRId64 " rows, expected %" PRId64, table_names[t], n,
                 c->rows[t]);
            c->rows[t] = n;
        }
    }
}

/* One run of transaction type `type` from generator seed `seed`, verified; returns its
 * outcome (-1: it failed). */
static int run_one(ctx *c, int type, uint64_t seed)
{
    txstat *st = &c->st[type];
    c->type = type;
    c->run = ++st->runs;
    c->run_seed = seed;
    dg_prng_seed(&c->rng, seed);
    int outcome = -1;
    dg_err e = DG_ERR_INIT;
    int rc = c->wl->ops->tx_run(c->state, type, &outcome, &e);
    if (rc) {
        fail(c, "failed: %s", e.msg);
        if (c->term_conn->in_tx)
            dg_rollback(c->term_conn, NULL);
        check_counts(c);
        return -1;
    }
    if (c->term_conn->in_tx) {
        fail(c, "left its transaction open");
        dg_rollback(c->term_conn, NULL);
    }
    docs_last l;
    dg_docs_term_last(c->state, &l);
    c->last_id = l.id;
    const char *why = cases[type].verify(c, outcome, &l);
    if (outcome == DG_TX_COMMITTED)
        st->committed++;
    else if (outcome == DG_TX_ROLLED_BACK) {
        st->rolled_back++;
        tally_reason(st, why);
    }
    check_counts(c);
    return outcome;
}

static uint64_t seed_of(uint64_t seed, int type, int rep)
{
    return (seed << 16) ^ ((uint64_t)type << 8) ^ (uint64_t)rep;
}

static void report_check(void *arg, const dg_check_result *r)
{
    int *failed = arg;
    if (!r->passed) {
        fprintf(stderr, "dg_docs_tx: check failed: %s: %s\n", r->name, r->detail);
        ++*failed;
    }
}

/* ---- setup ------------------------------------------------------------------------------- */

static void kindset_init(kindset *k, int64_t first, int64_t n)
{
    k->first = first;
    k->n = n;
    k->e = xcalloc((size_t)(n > 0 ? n : 1), sizeof *k->e);
    for (int64_t i = 0; i < n; i++)
        k->e[i].present = true;
}

static void setup(ctx *c, const char *url, uint64_t seed)
{
    dg_err e = DG_ERR_INIT;
    dg_connopts opts = {.application_name = "dg_docs_tx"};
    if (dg_connect(url, &opts, &c->term_conn, &e) || dg_connect(url, &opts, &c->db, &e))
        die("cannot connect", &e);
    int64_t meta[3] = {0, 0, 0};
    bool found = false;
    if (dg_query_ints(c->db, "SELECT dm_seed, dm_customers, dm_securities FROM docs_meta", NULL,
                      0, meta, 3, &found, &e))
        die("reading docs_meta", &e);
    if (!found)
        die("docs_meta is empty: the database is not loaded", NULL);
    if ((uint64_t)meta[0] != (seed & (uint64_t)INT64_MAX) || meta[1] < 1 || meta[2] < 1 ||
        meta[2] > 1000000) {
        char m[160];
        snprintf(m, sizeof m, "the database was loaded with seed %" PRId64 ", not %" PRIu64
                 " (or holds %" PRId64 " customers and %" PRId64 " securities)",
                 meta[0], seed, meta[1], meta[2]);
        die(m, NULL);
    }
    c->seed = (uint64_t)meta[0];
    c->ncust = meta[1];
    c->nsec = (int)meta[2];

    char nsec[24]; /* the option as the load was given it: attach checks it */
    snprintf(nsec, sizeof nsec, "%d", c->nsec);
    dg_setting opt = {"securities", nsec};
    dg_wl_config cfg = {.name = "docs", .seed = seed, .options = &opt, .noptions = 1};
    if (dg_workload_open(&cfg, &c->wl, &e))
        die("opening the docs workload", &e);
    if (c->wl->ops->attach(c->wl, c->term_conn, &e))
        die("attach", &e);
    c->storage = ((const dg_docs *)c->wl->priv)->storage;
    dg_term tm = {.id = 0, .nterminals = 1, .conn = c->term_conn, .rng = &c->rng,
                  .scale = c->wl->scale, .phase = NULL};
    if (c->wl->ops->term_open(c->wl, &tm, &c->state, &e))
        die("term_open", &e);
    for (int i = 0; i < R_N; i++)
        if (dg_prepare(c->db, read_sql[i], &c->s[i], &e))
            die(read_sql[i], &e);

    kindset_init(&c->cust, DOCS_FIRST_CUST, c->ncust);
    kindset_init(&c->order, DOCS_FIRST_ORDER, c->ncust * DOCS_ORDERS_PER_CUST);
    kindset_init(&c->sec, 1, c->nsec);
    c->rows[T_CUSTACC] = c->ncust;
    c->rows[T_ORDERS] = c->ncust * DOCS_ORDERS_PER_CUST;
    c->rows[T_SECURITY] = c->nsec;
    for (int64_t i = 0; i < c->ncust; i++)
        c->rows[T_ACCOUNT] += docs_nacct(c->seed, DOCS_FIRST_CUST + i);
    /* a fresh load: no inserted ids and the row counts (the model starts from the load) */
    int64_t top[2] = {0, 0};
    if (dg_query_ints(c->db, "SELECT (SELECT max(cust_id) FROM custacc), "
                             "(SELECT max(order_id) FROM orders) FROM docs_meta",
                      NULL, 0, top, 2, &found, &e))
        die("reading the highest ids", &e);
    char m[200] = "";
    if (top[0] != max_present(&c->cust) || top[1] != max_present(&c->order))
        snprintf(m, sizeof m, "the highest customer and order ids are %" PRId64 " and %" PRId64,
                 top[0], top[1]);
    for (int t = 0; t < T_N && !*m; t++) {
        int64_t n = db_count(c, table_names[t]);
        if (n != c->rows[t])
            snprintf(m, sizeof m, "table %s has %" PRId64 " rows, a fresh load %" PRId64,
                     table_names[t], n, c->rows[t]);
    }
    if (*m) {
        char msg[300];
        snprintf(msg, sizeof msg, "the database is not freshly loaded: %s (reload with --drop)", m);
        die(msg, NULL);
    }
}

static void teardown(ctx *c)
{
    if (c->wl && c->state)
        c->wl->ops->term_close(c->state);
    for (int i = 0; i < R_N; i++)
        dg_stmt_free(c->s[i]);
    dg_conn_close(c->db);
    dg_conn_close(c->term_conn);
    dg_workload_free(c->wl);
    kindset_free(&c->cust);
    kindset_free(&c->order);
    kindset_free(&c->sec);
    dg_sb_free(&c->a);
    dg_sb_free(&c->b);
    dg_sb_free(&c->x);
}

/* The phases (see the file's header). */
static void run_all(ctx *c, uint64_t seed)
{
    /* queries on the loaded data, inserts */
    for (int type = DOCS_Q1; type <= DOCS_I2; type++)
        for (int rep = 0; rep < RUNS; rep++)
            run_one(c, type, seed_of(seed, type, rep));
    /* updates, each until one committed */
    for (int type = DOCS_U1; type <= DOCS_U6; type++) {
        for (int rep = 0; rep < RUNS || (c->st[type].committed == 0 && rep < MAX_RUNS); rep++)
            run_one(c, type, seed_of(seed, type, rep));
        /* a sale that leaves nothing is rare: repeat the run nearest to one (same draws,
         * so the same position, reduced by the same quantity each time) */
        for (int i = 0; type == DOCS_U4 && c->sellout_runs && !c->st[type].special && i < 100; i++)
            run_one(c, type, c->sellout_seed);
    }
    /* deletes: the documents the inserts made (the oldest first), then loaded ones; a
     * loaded one once more (the same seed, the same draw): gone */
    uint64_t gone_seed[2][2 * RUNS];
    int ngone[2] = {0, 0};
    for (int type = DOCS_D1; type <= DOCS_D2; type++) {
        int d = type - DOCS_D1;
        int64_t nloaded = d == 0 ? c->ncust : c->ncust * DOCS_ORDERS_PER_CUST;
        const kindset *k = d == 0 ? &c->cust : &c->order;
        for (int rep = 0; rep < 2 * RUNS; rep++) {
            uint64_t s = seed_of(seed, type, rep);
            if (run_one(c, type, s) == DG_TX_COMMITTED && c->last_id >= k->first &&
                c->last_id < k->first + nloaded)
                gone_seed[d][ngone[d]++] = s;
        }
        if (ngone[d])
            run_one(c, type, gone_seed[d][0]);
    }
    /* what reads and changes the deleted documents, from the deletes' seeds */
    static const int after_d1[] = {DOCS_Q3, DOCS_Q5, DOCS_Q7, DOCS_U1, DOCS_U2, DOCS_U3, DOCS_U4};
    static const int after_d2[] = {DOCS_Q1, DOCS_U5};
    for (int i = 0; i < ngone[0]; i++)
        for (size_t t = 0; t < sizeof after_d1 / sizeof after_d1[0]; t++)
            run_one(c, after_d1[t], gone_seed[0][i]);
    for (int i = 0; i < ngone[1]; i++)
        for (size_t t = 0; t < sizeof after_d2 / sizeof after_d2[0]; t++)
            run_one(c, after_d2[t], gone_seed[1][i]);
}

/* One line per transaction type: its runs, outcomes and what was checked; a type that
 * never committed or never took its rarer path counts as a failure. */
static void summary(ctx *c)
{
    for (int type = 0; type < DOCS_NTX; type++) {
        const txstat *st = &c->st[type];
        const char *name = c->wl->tx[type].name;
        if (st->committed == 0 || (cases[type].special && st->special == 0)) {
            fprintf(stderr, "dg_docs_tx: %s %s: no run %s in %d: that path was not verified\n",
                    tx_code[type], name, st->committed ? cases[type].special : "committed",
                    st->runs);
            c->failures++;
        }
        dg_strbuf line = DG_STRBUF_INIT;
        dg_sb_printf(&line, "%s %-21s %2d runs, %2d committed", tx_code[type], name, st->runs,
                     st->committed);
        if (cases[type].special)
            dg_sb_printf(&line, " (%d %s)", st->special, cases[type].special);
        if (st->rolled_back)
            dg_sb_printf(&line, ", %d rolled back", st->rolled_back);
        for (int i = 0; i < MAX_REASONS && st->reason[i]; i++)
            dg_sb_printf(&line, "%s%d %s", i ? ", " : " (", st->nreason[i], st->reason[i]);
        printf("%s%s; checked: %s\n", dg_sb_str(&line), st->reason[0] ? ")" : "",
               cases[type].what);
        dg_sb_free(&line);
    }
}

int main(int argc, char **argv)
{
    char *end = NULL;
    if (argc != 3 || !*argv[2] || (strtoull(argv[2], &end, 10), *end)) {
        fprintf(stderr, "usage: dg_docs_tx URL SEED   (URL loaded with dbgauge load -w docs "
                        "--scale 0.0004 --wl-opt securities=300 --seed SEED --drop)\n");
        return 1;
    }
    uint64_t seed = strtoull(argv[2], NULL, 10);
    static ctx c; /* large: the statistics and model live here */
    if (docs_xml_load(NULL) != 0) {
        fprintf(stderr, "dg_docs_tx: cannot load libxml2\n");
        return 1;
    }
    setup(&c, argv[1], seed);
    printf("docs: storage %s, %" PRId64 " customers, %d securities, load seed %" PRIu64 "\n",
           c.wl->storage ? c.wl->storage : "?", c.ncust, c.nsec, c.seed);
    run_all(&c, seed);
    summary(&c);
    /* the workload's own check */
    int failed = 0;
    dg_err e = DG_ERR_INIT;
    int rc = c.wl->ops->check(c.wl, c.db, report_check, &failed, &e);
    if (rc && rc != DG_E_CHECK)
        die("check", &e);
    printf("check: %s\n", rc == 0 ? "passed" : "FAILED");
    int failures = c.failures + (rc != 0);
    teardown(&c);
    xmlCleanupParser();
    if (failures) {
        fprintf(stderr, "dg_docs_tx: %d failure%s\n", failures, failures == 1 ? "" : "s");
        return 1;
    }
    printf("docs transactions: ok\n");
    return 0;
}
