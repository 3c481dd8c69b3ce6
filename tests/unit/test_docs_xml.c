/*
 * test_docs_xml.c - unit tests of workload/docs/xml.c, the XML data model of the docs
 * workload: the three generators against their readers (keys out = keys in, root and
 * namespace, references between documents), determinism across orders and threads,
 * symbols, escaping, the Q3/Q5 projections, the U1..U6 edits (exactly the change, nothing
 * else), the readers' refusals, failing libxml2 allocations, and document sizes.
 *
 * The test looks at the documents with libxml2 itself, independently of xml.c's reader,
 * by local name only. Fixed seeds throughout.
 */
#include "workload/docs/docs.h"
#include "workload/docs/xml_api.h"

#include "dgtest.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define NCUST 1000 /* customers "loaded" for the orders' references */
#define NSEC 500   /* securities "loaded" */

static const uint64_t seeds[] = {1, 42, UINT64_C(0xdeadbeefcafe)};
#define NSEEDS ((int)(sizeof seeds / sizeof seeds[0]))

enum { CUSTACC, ORDER, SECURITY };
static const char *const type_names[] = {"custacc", "order", "security"};

/* Document i (0-based) of a type. */
static int gen(int type, uint64_t seed, int64_t i, dg_strbuf *sb)
{
    dg_err e = DG_ERR_INIT;
    switch (type) {
    case CUSTACC:
        return docs_gen_custacc(seed, DOCS_FIRST_CUST + i, NSEC, sb, NULL, &e);
    case ORDER:
        return docs_gen_order(seed, DOCS_FIRST_ORDER + i, NCUST, NSEC, sb, NULL, &e);
    default:
        return docs_gen_security(seed, (int)i, sb, NULL, &e);
    }
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* ---- looking at documents with libxml2 directly ---- */

static xmlDoc *parse(const char *s, size_t n)
{
    return xmlReadMemory(s, (int)n, NULL, NULL,
                         XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_NOERROR |
                             XML_PARSE_NOWARNING);
}

static bool root_is(xmlDoc *d, const char *name, const char *ns)
{
    xmlNode *r = d ? xmlDocGetRootElement(d) : NULL;
    return r && strcmp((const char *)r->name, name) == 0 &&
           (ns ? r->ns && strcmp((const char *)r->ns->href, ns) == 0 : r->ns == NULL);
}

static xmlNode *kid(xmlNode *n, const char *name)
{
    for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

static xmlNode *next_named(xmlNode *n)
{
    const xmlChar *name = n->name;
    for (n = n->next; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, name))
            return n;
    return NULL;
}

static int count(xmlNode *n, const char *name)
{
    int c = 0;
    for (xmlNode *k = kid(n, name); k; k = next_named(k))
        c++;
    return c;
}

/* The text of an element (static buffer, "" if none). */
static const char *text(xmlNode *n)
{
    static char buf[256];
    buf[0] = '\0';
    xmlChar *t = n ? xmlNodeGetContent(n) : NULL;
    if (t)
        snprintf(buf, sizeof buf, "%s", (const char *)t);
    xmlFree(t);
    return buf;
}

static const char *attr(xmlNode *n, const char *name)
{
    static char buf[256];
    buf[0] = '\0';
    xmlChar *t = n ? xmlGetProp(n, BAD_CAST name) : NULL;
    if (t)
        snprintf(buf, sizeof buf, "%s", (const char *)t);
    xmlFree(t);
    return buf;
}

/* Account number j (0-based) of a custacc document. */
static xmlNode *account(xmlDoc *d, int j)
{
    xmlNode *a = kid(kid(xmlDocGetRootElement(d), "Accounts"), "Account");
    while (a && j-- > 0)
        a = next_named(a);
    return a;
}

static void fmt_cents(char *buf, int64_t c)
{
    snprintf(buf, 32, "%s%lld.%02lld", c < 0 ? "-" : "", llabs(c) / 100, llabs(c) % 100);
}

/* s with the first `from` replaced by `to` (malloc'ed; NULL when there is no `from`). */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    if (!p)
        return NULL;
    size_t a = (size_t)(p - s), lf = strlen(from), lt = strlen(to), n = strlen(s);
    char *r = malloc(n - lf + lt + 1);
    memcpy(r, s, a);
    memcpy(r + a, to, lt);
    memcpy(r + a + lt, p + lf, n - a - lf + 1);
    return r;
}

/* s with the value after the first `marker` (up to the next `end` character) replaced. */
static char *replace_value(const char *s, const char *marker, char end, const char *to)
{
    const char *p = strstr(s, marker);
    if (!p)
        return NULL;
    p += strlen(marker);
    const char *q = strchr(p, end);
    size_t a = (size_t)(p - s), lt = strlen(to);
    char *r = malloc(strlen(s) + lt + 1);
    memcpy(r, s, a);
    memcpy(r + a, to, lt);
    strcpy(r + a + lt, q);
    return r;
}

/* The document after the root's start tag: the writer puts xmlns after the attributes,
 * libxml2's serializer before them, and the rest is byte for byte the same. */
static const char *body(const char *s)
{
    const char *p = strchr(strstr(s, "?>") + 2, '>');
    return p ? p : "";
}

static bool cust_eq(const docs_cust_keys *a, const docs_cust_keys *b)
{
    if (a->id != b->id || strcmp(a->country, b->country) ||
        strcmp(a->postal_code, b->postal_code) || strcmp(a->state, b->state) ||
        a->nacct != b->nacct)
        return false;
    for (int j = 0; j < a->nacct; j++)
        if (a->acct[j] != b->acct[j] || a->balance_cents[j] != b->balance_cents[j] ||
            a->npos[j] != b->npos[j])
            return false;
    return true;
}

/* Account j of a against account jb of b. */
static bool acct_eq(const docs_cust_keys *a, int j, const docs_cust_keys *b, int jb)
{
    return a->acct[j] == b->acct[jb] && a->balance_cents[j] == b->balance_cents[jb] &&
           a->npos[j] == b->npos[jb];
}

static bool order_eq(const docs_order_keys *a, const docs_order_keys *b)
{
    return a->id == b->id && a->acct == b->acct && strcmp(a->symbol, b->symbol) == 0 &&
           a->side == b->side && a->qty == b->qty && a->cash_cents == b->cash_cents;
}

static bool sec_eq(const docs_sec_keys *a, const docs_sec_keys *b)
{
    return a->id == b->id && !strcmp(a->symbol, b->symbol) && !strcmp(a->name, b->name) &&
           !strcmp(a->type, b->type) && !strcmp(a->sector, b->sector) &&
           !strcmp(a->industry, b->industry) && a->pe_cents == b->pe_cents &&
           a->yield_cents == b->yield_cents && a->open_cents == b->open_cents &&
           a->last_cents == b->last_cents;
}

/* A generated customer whose account j has (positions > 0) or has not (positions == 0)
 * holdings, with at least min_acct accounts; its document in sb. */
static docs_cust_keys find_customer(dg_strbuf *sb, int min_acct, int positions, int *j_out)
{
    docs_cust_keys k;
    dg_err e = DG_ERR_INIT;
    for (int64_t id = DOCS_FIRST_CUST;; id++) {
        docs_gen_custacc(7, id, NSEC, sb, &k, &e);
        if (k.nacct < min_acct)
            continue;
        for (int j = 0; j < k.nacct; j++)
            if ((positions > 0) == (k.npos[j] > 0)) {
                *j_out = j;
                return k;
            }
    }
}

/* ---- names ---- */

static int cmp8(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void test_symbols(void)
{
    static char all[100000][8];
    int bad = 0;
    for (int s = 0; s < 100000; s++) {
        char sym[DOCS_SYMBOL_MAX];
        docs_symbol(s, sym);
        size_t n = strlen(sym);
        bool upper = n >= 3 && n <= 5;
        for (size_t i = 0; i < n; i++)
            upper = upper && sym[i] >= 'A' && sym[i] <= 'Z';
        if (!upper || docs_symbol_index(sym) != s) {
            if (bad++ < 5)
                fprintf(stderr, "  symbol %d: '%s' -> %d\n", s, sym, docs_symbol_index(sym));
        }
        memcpy(all[s], sym, n + 1);
    }
    DG_CHECK_INT(bad, 0);
    qsort(all, 100000, sizeof all[0], cmp8);
    int dups = 0;
    for (int s = 1; s < 100000; s++)
        dups += strcmp(all[s - 1], all[s]) == 0;
    DG_CHECK_INT(dups, 0);

    char sym[DOCS_SYMBOL_MAX];
    docs_symbol(0, sym);
    DG_CHECK_STR(sym, "BAA");
    docs_symbol(DOCS_SECURITIES - 1, sym);
    DG_CHECK_INT(strlen(sym), 4);
    docs_symbol(-1, sym);
    DG_CHECK_STR(sym, "");
    DG_CHECK_INT(docs_symbol_index("ZZZZZ"), 26 * 26 * 26 * 26 * 26 - 1 - 676);
    docs_symbol(26 * 26 * 26 * 26 * 26 - 676, sym); /* past five letters */
    DG_CHECK_STR(sym, "");
    DG_CHECK_INT(docs_symbol_index("BAAA"), 26 * 26 * 26 - 676);

    static const char *const refused[] = {"",      "B",      "BA",    "AAA",   "AZZ",
                                          "ABCD",  "AZZZZ",  "baa",   "BAa",   "BA1",
                                          "BAAAAA", "BA A",  " BAA",  "BAA ",  "B-AA"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        if (docs_symbol_index(refused[i]) != -1)
            fprintf(stderr, "  '%s' accepted\n", refused[i]);
        DG_CHECK_INT(docs_symbol_index(refused[i]), -1);
    }
    DG_CHECK_INT(docs_symbol_index(NULL), -1);
}

static void test_sectors_nacct(void)
{
    for (int i = 0; i < DOCS_NSECTORS; i++) {
        DG_CHECK(docs_sector(i) && docs_sector(i)[0]);
        for (int j = 0; j < i; j++)
            DG_CHECK(strcmp(docs_sector(i), docs_sector(j)) != 0);
    }
    DG_CHECK(docs_sector(-1) == NULL);
    DG_CHECK(docs_sector(DOCS_NSECTORS) == NULL);

    int seen[DOCS_MAX_GEN_ACCOUNTS + 1] = {0}, out_of_range = 0, differ = 0;
    for (int64_t c = DOCS_FIRST_CUST; c < DOCS_FIRST_CUST + 5000; c++) {
        int n = docs_nacct(1, c);
        if (n < 1 || n > DOCS_MAX_GEN_ACCOUNTS)
            out_of_range++;
        else
            seen[n]++;
        differ += n != docs_nacct(2, c);
        DG_CHECK_INT(docs_nacct(1, c), n);
    }
    DG_CHECK_INT(out_of_range, 0);
    for (int n = 1; n <= DOCS_MAX_GEN_ACCOUNTS; n++)
        DG_CHECK(seen[n] > 800 && seen[n] < 1200); /* about 1000 each */
    DG_CHECK(differ > 3000);
}

/* ---- generators against readers ---- */

static void test_custacc_roundtrip(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, sec = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    int mismatch = 0, bad_root = 0, bad_ref = 0, bad_money = 0, positions = 0, negative = 0;
    for (int si = 0; si < NSEEDS; si++) {
        for (int64_t id = DOCS_FIRST_CUST; id < DOCS_FIRST_CUST + 300; id++) {
            docs_cust_keys g, r;
            DG_CHECK_INT(docs_gen_custacc(seeds[si], id, NSEC, &sb, &g, &e), 0);
            DG_CHECK_INT(docs_read_custacc(sb.buf, sb.len, &r, &e), 0);
            if (!cust_eq(&g, &r) && mismatch++ < 3)
                fprintf(stderr, "  customer %lld: keys differ\n", (long long)id);
            DG_CHECK_INT(g.id, id);
            DG_CHECK_INT(g.nacct, docs_nacct(seeds[si], id));
            DG_CHECK(strncmp(sb.buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 38) == 0);
            xmlDoc *d = parse(sb.buf, sb.len);
            bad_root += !root_is(d, "Customer", DOCS_NS_CUSTACC);
            bad_root += atoll(attr(xmlDocGetRootElement(d), "id")) != id;
            for (int j = 0; j < g.nacct; j++) {
                xmlNode *a = account(d, j);
                bad_ref += g.acct[j] != docs_acct_id(id, j + 1);
                bad_ref += atoll(attr(a, "id")) != g.acct[j];
                bad_ref += count(kid(a, "Holdings"), "Position") != g.npos[j];
                const char *bal = text(kid(kid(a, "Balance"), "OnlineActualBal"));
                const char *dot = strchr(bal, '.');
                bad_money += !dot || strlen(dot) != 3 || strpbrk(bal, "eE") != NULL;
                negative += g.balance_cents[j] < 0;
                /* every 10th customer: positions name loaded securities, with their name
                   and type */
                if (id % 10)
                    continue;
                for (xmlNode *p = kid(kid(a, "Holdings"), "Position"); p; p = next_named(p)) {
                    char sym[DOCS_SYMBOL_MAX], name[128], type[32];
                    snprintf(sym, sizeof sym, "%s", text(kid(p, "Symbol")));
                    snprintf(name, sizeof name, "%s", text(kid(p, "Name")));
                    snprintf(type, sizeof type, "%s", text(kid(p, "Type")));
                    int s = docs_symbol_index(sym);
                    docs_sec_keys sk;
                    bad_ref += s < 0 || s >= NSEC;
                    if (s >= 0 && docs_gen_security(seeds[si], s, &sec, &sk, &e) == 0)
                        bad_ref += strcmp(sk.name, name) != 0 || strcmp(sk.type, type) != 0;
                    bad_ref += atoi(text(kid(p, "Quantity"))) < 1;
                    positions++;
                }
            }
            xmlFreeDoc(d);
        }
    }
    DG_CHECK_INT(mismatch, 0);
    DG_CHECK_INT(bad_root, 0);
    DG_CHECK_INT(bad_ref, 0);
    DG_CHECK_INT(bad_money, 0);
    DG_CHECK(positions > 100);
    DG_CHECK(negative > 0); /* some balances are negative, and read back so */
    dg_sb_free(&sb);
    dg_sb_free(&sec);
}

static void test_order_roundtrip(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    int mismatch = 0, bad_root = 0, bad_ref = 0, bad_cash = 0, sides[2] = {0, 0};
    for (int si = 0; si < NSEEDS; si++) {
        for (int64_t id = DOCS_FIRST_ORDER; id < DOCS_FIRST_ORDER + 300; id++) {
            docs_order_keys g, r;
            DG_CHECK_INT(docs_gen_order(seeds[si], id, NCUST, NSEC, &sb, &g, &e), 0);
            DG_CHECK_INT(docs_read_order(sb.buf, sb.len, &r, &e), 0);
            mismatch += !order_eq(&g, &r);
            DG_CHECK_INT(g.id, id);
            int64_t c = docs_acct_cust(g.acct);
            int k = (int)(g.acct - docs_acct_id(c, 0));
            bad_ref += c < DOCS_FIRST_CUST || c >= DOCS_FIRST_CUST + NCUST;
            bad_ref += k < 1 || k > docs_nacct(seeds[si], c);
            int s = docs_symbol_index(g.symbol);
            bad_ref += s < 0 || s >= NSEC;
            bad_ref += g.qty < 1;
            sides[g.side == '2'] += g.side == '1' || g.side == '2';
            xmlDoc *d = parse(sb.buf, sb.len);
            xmlNode *root = xmlDocGetRootElement(d), *o = kid(root, "Order");
            bad_root += !root_is(d, "FIXML", DOCS_NS_ORDER) || strcmp(attr(root, "v"), "4.4");
            /* Cash = Qty * Px */
            double px = atof(attr(o, "Px"));
            bad_cash += g.cash_cents != g.qty * (int64_t)(px * 100 + 0.5);
            bad_root += strcmp(attr(kid(o, "Instrmt"), "Sym"), g.symbol) != 0;
            xmlFreeDoc(d);
        }
    }
    DG_CHECK_INT(mismatch, 0);
    DG_CHECK_INT(bad_root, 0);
    DG_CHECK_INT(bad_ref, 0);
    DG_CHECK_INT(bad_cash, 0);
    DG_CHECK(sides[0] > 300 && sides[1] > 300);
    dg_sb_free(&sb);
}

static void test_security_roundtrip(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    int mismatch = 0, bad_root = 0, bad_range = 0, stocks = 0, q4 = 0, n = 0;
    for (int si = 0; si < NSEEDS; si++) {
        for (int s = 0; s < 300; s++, n++) {
            docs_sec_keys g, r;
            DG_CHECK_INT(docs_gen_security(seeds[si], s, &sb, &g, &e), 0);
            DG_CHECK_INT(docs_read_security(sb.buf, sb.len, &r, &e), 0);
            mismatch += !sec_eq(&g, &r);
            char sym[DOCS_SYMBOL_MAX];
            docs_symbol(s, sym);
            DG_CHECK_INT(g.id, s + 1);
            DG_CHECK_STR(g.symbol, sym);
            int sector = -1;
            for (int i = 0; i < DOCS_NSECTORS; i++)
                if (strcmp(g.sector, docs_sector(i)) == 0)
                    sector = i;
            bad_range += sector < 0 || g.pe_cents < 500 || g.pe_cents > 3500 ||
                         g.yield_cents < 0 || g.yield_cents > 800 || g.last_cents <= 0;
            stocks += strcmp(g.type, "Stock") == 0;
            q4 += sector == 3 && g.pe_cents >= 2000 && g.pe_cents < 2500 && g.yield_cents > 400;
            xmlDoc *d = parse(sb.buf, sb.len);
            bad_root += !root_is(d, "Security", DOCS_NS_SECURITY);
            /* a fund's industry key is its Category */
            xmlNode *info = kid(xmlDocGetRootElement(d), "SecurityInformation");
            xmlNode *fund = kid(info, "FundInformation");
            if (fund)
                bad_range += strcmp(text(kid(fund, "Category")), g.industry) != 0 ||
                             strcmp(text(kid(fund, "Sector")), g.sector) != 0;
            else
                bad_range += strcmp(g.type, "Stock") != 0 ||
                             strstr(g.industry, g.sector) != g.industry;
            xmlFreeDoc(d);
        }
    }
    DG_CHECK_INT(mismatch, 0);
    DG_CHECK_INT(bad_root, 0);
    DG_CHECK_INT(bad_range, 0);
    DG_CHECK(stocks > n * 60 / 100 && stocks < n * 80 / 100);
    DG_CHECK(q4 > 0); /* Q4's search finds something over 900 securities of one sector */
    dg_sb_free(&sb);
}

/* ---- determinism ---- */

#define NDET 200

typedef struct det_job {
    int type;
    uint64_t seed;
    int from, step;
    uint64_t *hash;
} det_job;

static void *det_run(void *arg)
{
    det_job *j = arg;
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int i = j->from; i < NDET; i += j->step)
        j->hash[i] = gen(j->type, j->seed, i, &sb) == 0 ? fnv1a(sb.buf, sb.len) : 0;
    dg_sb_free(&sb);
    return NULL;
}

static void test_determinism(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int type = CUSTACC; type <= SECURITY; type++) {
        uint64_t fwd[NDET], back[NDET], thr[NDET], other[NDET];
        det_job f = {type, 42, 0, 1, fwd}, o = {type, 43, 0, 1, other};
        det_run(&f);
        det_run(&o);
        for (int i = NDET - 1; i >= 0; i--) /* the other way round */
            back[i] = gen(type, 42, i, &sb) == 0 ? fnv1a(sb.buf, sb.len) : 1;
        det_job t[2] = {{type, 42, 0, 2, thr}, {type, 42, 1, 2, thr}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&th[i], NULL, det_run, &t[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        int same_back = 0, same_thr = 0, same_other = 0, zero = 0;
        for (int i = 0; i < NDET; i++) {
            same_back += fwd[i] == back[i];
            same_thr += fwd[i] == thr[i];
            same_other += fwd[i] == other[i];
            zero += fwd[i] == 0;
        }
        if (same_back != NDET || same_thr != NDET || same_other != 0)
            fprintf(stderr, "  %s\n", type_names[type]);
        DG_CHECK_INT(zero, 0);
        DG_CHECK_INT(same_back, NDET);
        DG_CHECK_INT(same_thr, NDET);
        DG_CHECK_INT(same_other, 0);
    }
    /* the same call twice: the same bytes */
    dg_strbuf a = DG_STRBUF_INIT;
    gen(CUSTACC, 5, 17, &a);
    gen(CUSTACC, 5, 17, &sb);
    DG_CHECK(a.len == sb.len && memcmp(a.buf, sb.buf, a.len) == 0);
    dg_sb_free(&a);
    dg_sb_free(&sb);
}

/* ---- escaping ---- */

static void test_escaping(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    docs_sec_keys g, r;
    int s = 0;
    for (; s < 1000; s++) {
        docs_gen_security(1, s, &sb, &g, &e);
        if (strchr(g.name, '&'))
            break;
    }
    DG_CHECK(s < 1000);
    DG_CHECK(strstr(sb.buf, "&amp;") != NULL);
    DG_CHECK_INT(docs_read_security(sb.buf, sb.len, &r, &e), 0);
    DG_CHECK_STR(r.name, g.name);
    /* descriptions carry < and " */
    int lt = 0;
    for (s = 0; s < 50 && !lt; s++) {
        docs_gen_security(1, s, &sb, &g, &e);
        xmlDoc *d = parse(sb.buf, sb.len);
        const char *sum = text(kid(kid(kid(xmlDocGetRootElement(d), "SecurityInformation"),
                                       "Description"), "Summary"));
        lt = strchr(sum, '<') && strchr(sum, '"') && strstr(sb.buf, "&lt;");
        xmlFreeDoc(d);
    }
    DG_CHECK(lt);

    /* a name with every special character, through an edit and a projection */
    int j;
    docs_cust_keys k = find_customer(&sb, 1, 1, &j);
    docs_sec_keys odd = g;
    snprintf(odd.name, sizeof odd.name, "Q \"x\" <y> & 'z' ]]>");
    DG_CHECK_INT(docs_buy_position(sb.buf, sb.len, k.acct[j], &odd, 5, 100, &out, &e), 0);
    xmlDoc *d = parse(out.buf, out.len);
    xmlNode *h = kid(account(d, j), "Holdings"), *p = kid(h, "Position");
    while (p && next_named(p))
        p = next_named(p);
    DG_CHECK_STR(text(kid(p, "Name")), odd.name);
    xmlFreeDoc(d);
    int items = 0;
    DG_CHECK_INT(docs_account_summary(out.buf, out.len, &sb, &items, &e), 0);
    d = parse(sb.buf, sb.len);
    xmlNode *a = kid(xmlDocGetRootElement(d), "Account");
    for (int i = 0; i < j; i++)
        a = next_named(a);
    xmlNode *n = kid(kid(a, "Securities"), "Name");
    while (n && next_named(n))
        n = next_named(n);
    DG_CHECK_STR(text(n), odd.name);
    xmlFreeDoc(d);
    dg_sb_free(&sb);
    dg_sb_free(&out);
}

/* ---- projections ---- */

static void test_customer_profile(void)
{
    static const char *const parts[] = {"Name",      "DateOfBirth", "Gender",
                                        "CountryOfResidence", "Languages", "Addresses",
                                        "EmailAddresses"};
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    docs_cust_keys k;
    DG_CHECK_INT(docs_gen_custacc(3, 2000, NSEC, &sb, &k, &e), 0);
    int items = 0;
    DG_CHECK_INT(docs_customer_profile(sb.buf, sb.len, &out, &items, &e), 0);
    DG_CHECK_INT(items, 1);
    xmlDoc *src = parse(sb.buf, sb.len), *d = parse(out.buf, out.len);
    DG_CHECK(root_is(d, "Customer_Profile", NULL));
    xmlNode *root = xmlDocGetRootElement(d), *c = root ? root->children : NULL;
    DG_CHECK_STR(attr(root, "CUSTOMERID"), "2000");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++, c = c ? c->next : NULL) {
        DG_CHECK(c != NULL);
        if (!c)
            break;
        DG_CHECK_STR((const char *)c->name, parts[i]);
        DG_CHECK(c->ns && strcmp((const char *)c->ns->href, DOCS_NS_CUSTACC) == 0);
        /* deep copies: the same serialised subtree as in the source */
        xmlBuffer *b1 = xmlBufferCreate(), *b2 = xmlBufferCreate();
        xmlNodeDump(b1, src, kid(xmlDocGetRootElement(src), parts[i]), 0, 0);
        xmlNodeDump(b2, d, c, 0, 0);
        /* the copy declares the namespace on itself */
        char *want = replace((const char *)xmlBufferContent(b1), ">",
                             " xmlns=\"" DOCS_NS_CUSTACC "\">");
        DG_CHECK_STR((const char *)xmlBufferContent(b2), want);
        free(want);
        xmlBufferFree(b1);
        xmlBufferFree(b2);
    }
    DG_CHECK(c == NULL); /* nothing more: no Accounts, no BankingInfo */
    DG_CHECK(strstr(out.buf, "Accounts") == NULL && strstr(out.buf, "BankingInfo") == NULL);
    xmlFreeDoc(d);
    xmlFreeDoc(src);
    dg_sb_free(&sb);
    dg_sb_free(&out);
}

static void test_account_summary(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    for (int64_t id = 3000; id < 3020; id++) {
        docs_cust_keys k;
        DG_CHECK_INT(docs_gen_custacc(3, id, NSEC, &sb, &k, &e), 0);
        int items = -1;
        DG_CHECK_INT(docs_account_summary(sb.buf, sb.len, &out, &items, &e), 0);
        DG_CHECK_INT(items, k.nacct);
        xmlDoc *src = parse(sb.buf, sb.len), *d = parse(out.buf, out.len);
        xmlNode *root = xmlDocGetRootElement(d), *sname = kid(xmlDocGetRootElement(src), "Name");
        DG_CHECK(root_is(d, "Customer", NULL));
        DG_CHECK_INT(atoll(attr(root, "id")), id);
        char name[128];
        char first[64];
        snprintf(first, sizeof first, "%s", text(kid(sname, "FirstName")));
        snprintf(name, sizeof name, "%s %s", first, text(kid(sname, "LastName")));
        DG_CHECK_STR(text(kid(root, "Name")), name);
        DG_CHECK_INT(count(root, "Account"), k.nacct);
        int j = 0;
        for (xmlNode *a = kid(root, "Account"); a; a = next_named(a), j++) {
            char bal[32];
            fmt_cents(bal, k.balance_cents[j]);
            DG_CHECK_STR(attr(a, "BALANCE"), bal);
            DG_CHECK_INT(atoll(attr(a, "ACCOUNT_ID")), k.acct[j]);
            DG_CHECK_INT(count(kid(a, "Securities"), "Name"), k.npos[j]);
            /* the names are the positions' names, in order */
            xmlNode *p = kid(kid(account(src, j), "Holdings"), "Position");
            for (xmlNode *n = kid(kid(a, "Securities"), "Name"); n && p;
                 n = next_named(n), p = next_named(p)) {
                char want[128];
                snprintf(want, sizeof want, "%s", text(kid(p, "Name")));
                DG_CHECK_STR(text(n), want);
            }
        }
        xmlFreeDoc(d);
        xmlFreeDoc(src);
    }
    dg_sb_free(&sb);
    dg_sb_free(&out);
}

/* ---- edits ---- */

/* The element names of an account's children, joined by spaces. */
static void child_names(xmlNode *a, char *buf, size_t size)
{
    buf[0] = '\0';
    for (xmlNode *c = a ? a->children : NULL; c; c = c->next)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s ", (const char *)c->name);
}

static void test_add_close_account(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT, back = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    int j;
    docs_cust_keys k = find_customer(&sb, 2, 1, &j), r;
    int64_t new_id = docs_acct_id(k.id, k.nacct + 1);

    DG_CHECK_INT(docs_add_account(sb.buf, sb.len, new_id, -1230, &out, &e), 0);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK_INT(r.nacct, k.nacct + 1);
    DG_CHECK_INT(r.acct[k.nacct], new_id);
    DG_CHECK_INT(r.balance_cents[k.nacct], -1230);
    DG_CHECK_INT(r.npos[k.nacct], 0);
    for (int i = 0; i < k.nacct; i++)
        DG_CHECK(acct_eq(&r, i, &k, i));
    DG_CHECK(r.id == k.id && !strcmp(r.country, k.country) && !strcmp(r.state, k.state));
    DG_CHECK(strstr(out.buf, "<OnlineActualBal>-12.30</OnlineActualBal>") != NULL);
    /* the same children as a generated account, in the same namespace (declared once) */
    xmlDoc *d = parse(out.buf, out.len);
    char want[512], got[512];
    child_names(account(d, j), want, sizeof want);
    child_names(account(d, k.nacct), got, sizeof got);
    DG_CHECK_STR(got, want);
    DG_CHECK(strstr(got, "Holdings") != NULL);
    DG_CHECK(kid(kid(account(d, k.nacct), "Holdings"), "Position") == NULL);
    DG_CHECK(strstr(strstr(out.buf, "xmlns") + 1, "xmlns") == NULL);
    xmlFreeDoc(d);
    /* the same again: refused */
    DG_CHECK_INT(docs_add_account(out.buf, out.len, new_id, 0, &back, &e), DG_E_EXISTS);

    /* closing it gives the document back */
    DG_CHECK_INT(docs_close_account(out.buf, out.len, new_id, NULL, &back, &e), 0);
    DG_CHECK_STR(body(back.buf), body(sb.buf));

    /* closing the first account leaves the others as they were */
    DG_CHECK_INT(docs_close_account(sb.buf, sb.len, k.acct[0], NULL, &out, &e), 0);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK_INT(r.nacct, k.nacct - 1);
    for (int i = 1; i < k.nacct; i++)
        DG_CHECK(acct_eq(&r, i - 1, &k, i));
    DG_CHECK_INT(docs_close_account(sb.buf, sb.len, k.acct[0] + 50, NULL, &out, &e), DG_E_NOTFOUND);
    DG_CHECK(strstr(e.msg, "custacc document: no account") == e.msg);
    /* every account closed: still a customer document, and U1 works on it */
    dg_sb_reset(&back);
    dg_sb_addn(&back, sb.buf, sb.len);
    for (int i = 0; i < k.nacct; i++) {
        DG_CHECK_INT(docs_close_account(back.buf, back.len, k.acct[i], NULL, &out, &e), 0);
        dg_sb_reset(&back);
        dg_sb_addn(&back, out.buf, out.len);
    }
    DG_CHECK_INT(docs_read_custacc(back.buf, back.len, &r, &e), 0);
    DG_CHECK_INT(r.nacct, 0);
    DG_CHECK_INT(docs_add_account(back.buf, back.len, new_id, 500, &out, &e), 0);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK(r.nacct == 1 && r.acct[0] == new_id && r.balance_cents[0] == 500);
    dg_sb_free(&sb);
    dg_sb_free(&out);
    dg_sb_free(&back);
}

static void test_buy_sell(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT, out2 = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    docs_sec_keys sec;
    DG_CHECK_INT(docs_gen_security(7, 12, &out, &sec, &e), 0);
    int j;
    docs_cust_keys k = find_customer(&sb, 1, 1, &j), r;

    /* buy into an account with holdings */
    DG_CHECK_INT(docs_buy_position(sb.buf, sb.len, k.acct[j], &sec, 10, 12345, &out, &e), 0);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK_INT(r.nacct, k.nacct);
    DG_CHECK_INT(r.npos[j], k.npos[j] + 1);
    DG_CHECK_INT(r.balance_cents[j], k.balance_cents[j] - 12345);
    for (int i = 0; i < k.nacct; i++)
        if (i != j)
            DG_CHECK(acct_eq(&r, i, &k, i));
    xmlDoc *d = parse(out.buf, out.len);
    xmlNode *p = kid(kid(account(d, j), "Holdings"), "Position");
    while (next_named(p))
        p = next_named(p);
    DG_CHECK_STR(text(kid(p, "Symbol")), sec.symbol);
    DG_CHECK_STR(text(kid(p, "Name")), sec.name);
    DG_CHECK_STR(text(kid(p, "Type")), sec.type);
    DG_CHECK_STR(text(kid(p, "Quantity")), "10");
    xmlFreeDoc(d);
    DG_CHECK_INT(docs_buy_position(sb.buf, sb.len, k.acct[j] + 50, &sec, 1, 1, &out, &e),
                 DG_E_NOTFOUND);

    /* sell part of the first position, then the rest */
    d = parse(sb.buf, sb.len);
    int64_t q = atoll(text(kid(kid(kid(account(d, j), "Holdings"), "Position"), "Quantity")));
    xmlFreeDoc(d);
    DG_CHECK(q >= 1);
    DG_CHECK(q > 1);
    bool removed = true;
    DG_CHECK_INT(docs_sell_position(sb.buf, sb.len, k.acct[j], q - 1, 999, &removed, NULL, &out, &e), 0);
    DG_CHECK(!removed);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK_INT(r.balance_cents[j], k.balance_cents[j] + 999);
    DG_CHECK_INT(r.npos[j], k.npos[j]);
    d = parse(out.buf, out.len);
    DG_CHECK_STR(text(kid(kid(kid(account(d, j), "Holdings"), "Position"), "Quantity")), "1");
    xmlFreeDoc(d);
    DG_CHECK_INT(docs_sell_position(out.buf, out.len, k.acct[j], 5, 1, &removed, NULL, &out2, &e), 0);
    DG_CHECK(removed);
    DG_CHECK_INT(docs_read_custacc(out2.buf, out2.len, &r, &e), 0);
    DG_CHECK_INT(r.balance_cents[j], k.balance_cents[j] + 1000);
    DG_CHECK_INT(r.npos[j], k.npos[j] - 1);
    for (int i = 0; i < k.nacct; i++)
        if (i != j)
            DG_CHECK(acct_eq(&r, i, &k, i));
    DG_CHECK_INT(docs_sell_position(sb.buf, sb.len, k.acct[j] + 50, 1, 1, NULL, NULL, &out, &e),
                 DG_E_NOTFOUND);

    /* an account without Holdings: selling finds nothing, buying makes Holdings, last */
    k = find_customer(&sb, 1, 0, &j);
    DG_CHECK_INT(docs_sell_position(sb.buf, sb.len, k.acct[j], 1, 1, NULL, NULL, &out, &e),
                 DG_E_NOTFOUND);
    DG_CHECK(strstr(e.msg, "has no position") != NULL);
    DG_CHECK_INT(docs_buy_position(sb.buf, sb.len, k.acct[j], &sec, 3, -50, &out, &e), 0);
    DG_CHECK_INT(docs_read_custacc(out.buf, out.len, &r, &e), 0);
    DG_CHECK_INT(r.npos[j], 1);
    DG_CHECK_INT(r.balance_cents[j], k.balance_cents[j] + 50);
    d = parse(out.buf, out.len);
    xmlNode *last = account(d, j)->last;
    DG_CHECK(last && strcmp((const char *)last->name, "Holdings") == 0);
    xmlFreeDoc(d);
    /* selling all of it leaves an empty Holdings and the balance arithmetic in cents */
    DG_CHECK_INT(docs_sell_position(out.buf, out.len, k.acct[j], 3, -1, &removed, NULL, &out2, &e), 0);
    DG_CHECK(removed);
    DG_CHECK_INT(docs_read_custacc(out2.buf, out2.len, &r, &e), 0);
    DG_CHECK_INT(r.npos[j], 0);
    DG_CHECK_INT(r.balance_cents[j], k.balance_cents[j] + 49);
    dg_sb_free(&sb);
    dg_sb_free(&out);
    dg_sb_free(&out2);
}

static void test_update_order_price(void)
{
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    docs_order_keys ok, orr;
    DG_CHECK_INT(docs_gen_order(9, DOCS_FIRST_ORDER + 5, NCUST, NSEC, &sb, &ok, &e), 0);
    DG_CHECK_INT(docs_update_order(sb.buf, sb.len, 77, 123456, &out, &e), 0);
    DG_CHECK_INT(docs_read_order(out.buf, out.len, &orr, &e), 0);
    DG_CHECK_INT(orr.qty, 77);
    DG_CHECK_INT(orr.cash_cents, 123456);
    orr.qty = ok.qty;
    orr.cash_cents = ok.cash_cents;
    DG_CHECK(order_eq(&orr, &ok));
    DG_CHECK(strstr(out.buf, "Cash=\"1234.56\"") != NULL);

    docs_sec_keys sk, sr;
    DG_CHECK_INT(docs_gen_security(9, 33, &sb, &sk, &e), 0);
    DG_CHECK_INT(docs_update_price(sb.buf, sb.len, 1234, 1111, 1000, 1300, &out, &e), 0);
    DG_CHECK_INT(docs_read_security(out.buf, out.len, &sr, &e), 0);
    DG_CHECK_INT(sr.last_cents, 1234);
    DG_CHECK_INT(sr.open_cents, 1111);
    sr.last_cents = sk.last_cents;
    sr.open_cents = sk.open_cents;
    DG_CHECK(sec_eq(&sr, &sk));
    xmlDoc *d = parse(out.buf, out.len);
    xmlNode *today = kid(kid(xmlDocGetRootElement(d), "Price"), "PriceToday");
    char prev[32];
    fmt_cents(prev, sk.last_cents);
    DG_CHECK_STR(text(kid(today, "PreviousClose")), prev);
    DG_CHECK_STR(text(kid(today, "Low")), "10.00");
    DG_CHECK_STR(text(kid(today, "High")), "13.00");
    xmlFreeDoc(d);
    /* the other document kinds are refused */
    DG_CHECK_INT(docs_update_order(sb.buf, sb.len, 1, 1, &out, &e), DG_E_PARSE);
    DG_CHECK_INT(docs_update_price(sb.buf, sb.len - 20, 1, 1, 1, 1, &out, &e), DG_E_PARSE);
    dg_sb_free(&sb);
    dg_sb_free(&out);
}

/* The keys' address is the one marked primary, wherever it is. */
static void test_primary_address(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    docs_cust_keys k;
    xmlDoc *d = NULL;
    for (int64_t id = DOCS_FIRST_CUST; !d; id++) {
        docs_gen_custacc(5, id, NSEC, &sb, &k, &e);
        d = parse(sb.buf, sb.len);
        if (count(kid(xmlDocGetRootElement(d), "Addresses"), "Address") < 2) {
            xmlFreeDoc(d);
            d = NULL;
        }
    }
    xmlNode *second = next_named(kid(kid(xmlDocGetRootElement(d), "Addresses"), "Address"));
    char postal[16], state[48];
    snprintf(postal, sizeof postal, "%s", text(kid(second, "PostalCode")));
    snprintf(state, sizeof state, "%s", text(kid(second, "State")));
    xmlFreeDoc(d);
    char *a = replace(sb.buf, "primary=\"Yes\" type=\"Home\"", "primary=\"No\" type=\"Home\"");
    char *b = a ? replace(a, "primary=\"No\" type=\"Work\"", "primary=\"Yes\" type=\"Work\"")
                : NULL;
    DG_CHECK(b != NULL);
    docs_cust_keys r;
    DG_CHECK_INT(b ? docs_read_custacc(b, strlen(b), &r, &e) : -1, 0);
    DG_CHECK_STR(r.postal_code, postal);
    DG_CHECK_STR(r.state, state);
    DG_CHECK(strcmp(r.postal_code, k.postal_code) != 0 || strcmp(r.state, k.state) != 0);
    free(a);
    free(b);
    dg_sb_free(&sb);
}

/* ---- refusals ---- */

static void test_reject(void)
{
    static const struct {
        int type;
        const char *from, *to; /* the first `from` becomes `to` (from NULL: cut in half) */
        char end;              /* with end: the value after `from` up to end becomes `to` */
        const char *msg;       /* the start of the message */
    } c[] = {
        {CUSTACC, NULL, NULL, 0, "custacc document: not well-formed xml"},
        {CUSTACC, DOCS_NS_CUSTACC, "http://example.com/other", 0,
         "custacc document: the root element is"},
        {CUSTACC, "<Customer id=", "<Customer xd=", 0, "custacc document: no Customer/@id"},
        {CUSTACC, "<Customer id=\"", "12x", '"',
         "custacc document: Customer/@id '12x' is not an integer"},
        {CUSTACC, "<OnlineActualBal>", "12.345", '<', "custacc document: Account[@id="},
        {CUSTACC, "<OnlineActualBal>", "1e5", '<', "custacc document: Account[@id="},
        {CUSTACC, "<OnlineActualBal>", "", '<', "custacc document: Account[@id="},
        {CUSTACC, "<OnlineActualBal>", "-123456789012345678901234567890123.00", '<',
         "custacc document: Account[@id="},
        {CUSTACC, "<OnlineActualBal>", "1.", '<', "custacc document: Account[@id="},
        {CUSTACC, "<OnlineActualBal>", "+1.00", '<', "custacc document: Account[@id="},
        {CUSTACC, "<Customer id=\"", "123456789012345678901234567890123", '"',
         "custacc document: Customer/@id '123456789012345678901234567890123' is not an integer"},
        {CUSTACC, "<Account id=\"", "x", '"',
         "custacc document: Customer/Accounts/Account/@id 'x'"},
        {CUSTACC, "<CountryOfResidence>", "<Foo/>", 0, "custacc document: not well-formed"},
        {CUSTACC, "<Accounts>", "<X xmlns=\"urn:x\">", 0, "custacc document: not well-formed"},
        {CUSTACC, "<Accounts><", "<Accounts xmlns=\"urn:other\"><", 0,
         "custacc document: no Customer/Accounts"},
        {ORDER, NULL, NULL, 0, "order document: not well-formed"},
        {ORDER, "Side=\"", "3", '"', "order document: FIXML/Order/@Side '3' is not 1 or 2"},
        {ORDER, "Cash=\"", "1.234", '"',
         "order document: FIXML/Order/OrdQty/@Cash '1.234' is not an amount"},
        {ORDER, " Acct=", " Acc=", 0, "order document: no FIXML/Order/@Acct"},
        {ORDER, " Qty=\"", "", '"', "order document: FIXML/Order/OrdQty/@Qty '' is not an integer"},
        {ORDER, DOCS_NS_ORDER, DOCS_NS_CUSTACC, 0, "order document: the root element is"},
        {SECURITY, "<PE>", "abc", '<', "security document: Security/PE 'abc' is not an amount"},
        {SECURITY, "<Symbol>", "ABCDEFGHIJKLMNOPQ", '<',
         "security document: Security/Symbol is longer"},
        {SECURITY, "<Security id", "<Securit id", 0, "security document: not well-formed"},
    };
    dg_strbuf sb = DG_STRBUF_INIT, out = DG_STRBUF_INIT;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gen(c[i].type, 1, 3, &sb);
        char *bad = !c[i].from ? strndup(sb.buf, sb.len / 2)
                    : c[i].end  ? replace_value(sb.buf, c[i].from, c[i].end, c[i].to)
                                : replace(sb.buf, c[i].from, c[i].to);
        DG_CHECK(bad != NULL);
        if (!bad)
            continue;
        dg_err e = DG_ERR_INIT;
        docs_cust_keys ck;
        docs_order_keys ok;
        docs_sec_keys sk;
        int rc = c[i].type == CUSTACC ? docs_read_custacc(bad, strlen(bad), &ck, &e)
                 : c[i].type == ORDER ? docs_read_order(bad, strlen(bad), &ok, &e)
                                      : docs_read_security(bad, strlen(bad), &sk, &e);
        if (rc != DG_E_PARSE || strncmp(e.msg, c[i].msg, strlen(c[i].msg)) != 0)
            fprintf(stderr, "  case %zu: rc %d, '%s'\n", i, rc, e.msg);
        DG_CHECK_INT(rc, DG_E_PARSE);
        DG_CHECK(strncmp(e.msg, c[i].msg, strlen(c[i].msg)) == 0);
        free(bad);
    }
    /* not documents at all, and the projections and edits refuse them too */
    static const char *const junk[] = {
        "", "not xml", "<Customer id=\"1\"/>",
        "<?xml version=\"1.0\"?><a:Customer xmlns:b=\"x\" id=\"1\"/>"};
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        dg_err e = DG_ERR_INIT;
        docs_cust_keys ck;
        size_t n = strlen(junk[i]);
        DG_CHECK_INT(docs_read_custacc(junk[i], n, &ck, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_customer_profile(junk[i], n, &out, NULL, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_account_summary(junk[i], n, &out, NULL, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_add_account(junk[i], n, 1, 1, &out, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_close_account(junk[i], n, 1, NULL, &out, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_sell_position(junk[i], n, 1, 1, 1, NULL, NULL, &out, &e), DG_E_PARSE);
        DG_CHECK_INT(docs_update_price(junk[i], n, 1, 1, 1, 1, &out, &e), DG_E_PARSE);
    }
    /* a security is not a customer */
    dg_err e = DG_ERR_INIT;
    docs_cust_keys ck;
    gen(SECURITY, 1, 0, &sb);
    DG_CHECK_INT(docs_read_custacc(sb.buf, sb.len, &ck, &e), DG_E_PARSE);
    DG_CHECK_INT(docs_account_summary(sb.buf, sb.len, &out, NULL, &e), DG_E_PARSE);
    /* the length is honoured: no NUL needed, nothing read past it */
    gen(CUSTACC, 1, 0, &sb);
    DG_CHECK_INT(docs_read_custacc(sb.buf, sb.len - 20, &ck, &e), DG_E_PARSE);
    dg_sb_addn(&sb, "garbage", 7);
    DG_CHECK_INT(docs_read_custacc(sb.buf, sb.len - 7, &ck, &e), 0);
    dg_sb_free(&sb);
    dg_sb_free(&out);
}

/* No out-of-memory injection into libxml2: version 2.9's parser reads memory it has
 * just given back to realloc when an allocation fails (valgrind: invalid read inside
 * xmlParseElement), so such a test would exercise the library's undefined behaviour,
 * not dbgauge's handling. */

/* ---- sizes ---- */

static void test_sizes(void)
{
    static const double lo[] = {2048, 1024, 1024}, hi[] = {6144, 2048, 3072};
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int type = CUSTACC; type <= SECURITY; type++) {
        double total = 0;
        for (int i = 0; i < 200; i++) {
            gen(type, 11, i, &sb);
            total += (double)sb.len;
        }
        fprintf(stderr, "  %s: %.0f bytes on average\n", type_names[type], total / 200);
        DG_CHECK(total / 200 >= lo[type] && total / 200 <= hi[type]);
    }
    dg_sb_free(&sb);
}

int main(void)
{
    DG_CHECK_INT(docs_xml_load(NULL), 0); /* what docs_open does first */
    DG_RUN(test_symbols);
    DG_RUN(test_sectors_nacct);
    DG_RUN(test_custacc_roundtrip);
    DG_RUN(test_order_roundtrip);
    DG_RUN(test_security_roundtrip);
    DG_RUN(test_determinism);
    DG_RUN(test_escaping);
    DG_RUN(test_customer_profile);
    DG_RUN(test_account_summary);
    DG_RUN(test_add_close_account);
    DG_RUN(test_buy_sell);
    DG_RUN(test_update_order_price);
    DG_RUN(test_primary_address);
    DG_RUN(test_reject);
    DG_RUN(test_sizes);
    DG_TEST_END();
}
