/*
 * xml.c - reading the docs workload's documents with libxml2's tree API: their keys
 * (the side columns), the projections the queries return (Q3, Q5), the edits the updates
 * make (U1 .. U6), and the fragments the text-extractvalue updates send.
 *
 * Layout:
 *   1. the reader: parsing, finding elements by local name in the document's namespace,
 *      amounts in integer cents
 *   2. the readers (keys), 3. the projections (Q3, Q5), 4. the edits (U1 .. U6),
 *   5. fragments
 *
 * A reader refuses amounts with more than two decimals. Outputs: Q3's Customer_Profile
 * and Q5's elements are in no namespace (Q3's copies keep theirs); edited documents keep
 * their own. Thread-safe: no state besides libxml2's, which docs_xml_init() initialises
 * once.
 */
#include "workload/docs/docs.h"
#include "workload/docs/schema.h"
#include "workload/docs/xml_api.h"
#include "workload/docs/xmlw.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void docs_xml_init(void)
{
    /* docs_open loaded it, with an error for the user when it could not; here it only
     * must have been */
    if (docs_xml_load(NULL) != 0) {
        fputs("dbgauge: error: libxml2 used before the docs workload loaded it\n", stderr);
        abort();
    }
}

/* ---- 1. the reader ------------------------------------------------------------------------ */

/* What is being read: for messages ("custacc document: no Customer/@id") and for
 * finding elements in the document's namespace. */
typedef struct rd {
    const char *what;
    const char *ns;
    dg_err *err;
} rd;

static int oom(const rd *r)
{
    return dg_err_fail(r->err, DG_E_NOMEM, "%s: out of memory in libxml2", r->what);
}

/* An element named `name` in namespace ns (documents use a default namespace, so the
 * local name alone would also match foreign elements). */
static bool is_el(const xmlNode *n, const char *ns, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
           strcmp((const char *)n->name, name) == 0 &&
           strcmp((const char *)n->ns->href, ns) == 0;
}

static xmlNode *next_el(xmlNode *n, const char *ns, const char *name)
{
    while (n && !is_el(n, ns, name))
        n = n->next;
    return n;
}

static xmlNode *first_el(xmlNode *parent, const char *ns, const char *name)
{
    return parent ? next_el(parent->children, ns, name) : NULL;
}

/* The first element at "A/B/C" under n, or NULL. */
static xmlNode *find(xmlNode *n, const char *ns, const char *path)
{
    char name[64];
    while (n && *path) {
        size_t len = strcspn(path, "/");
        if (len >= sizeof name)
            return NULL;
        memcpy(name, path, len);
        name[len] = '\0';
        n = first_el(n, ns, name);
        path += len + (path[len] == '/');
    }
    return n;
}

bool docs_parse_cents(const char *s, int64_t *out)
{
    bool neg = *s == '-';
    s += neg;
    int64_t v = 0;
    int digits = 0;
    for (; isdigit((unsigned char)*s); s++)
        if (++digits <= 15)
            v = v * 10 + (*s - '0');
    if (digits == 0 || digits > 15)
        return false;
    v *= 100;
    if (*s == '.') {
        s++;
        if (!isdigit((unsigned char)s[0]))
            return false;
        v += 10 * (s[0] - '0');
        s++;
        if (isdigit((unsigned char)s[0]))
            v += *s++ - '0';
    }
    if (*s)
        return false;
    *out = neg ? -v : v;
    return true;
}

static bool parse_i64(const char *s, int64_t *out)
{
    bool neg = *s == '-';
    s += neg;
    int64_t v = 0;
    int digits = 0;
    for (; isdigit((unsigned char)*s); s++)
        if (++digits <= 18)
            v = v * 10 + (*s - '0');
    if (digits == 0 || digits > 18 || *s)
        return false;
    *out = neg ? -v : v;
    return true;
}

/* Parses a document and checks its root element: name in r->ns. On success *doc is
 * the caller's (xmlFreeDoc). DG_E_PARSE or DG_E_NOMEM otherwise. */
static int rd_parse(const rd *r, const char *xml, size_t len, const char *root_name,
                    xmlDoc **doc, xmlNode **root)
{
    if (len > INT_MAX)
        return dg_err_fail(r->err, DG_E_PARSE, "%s: too large (%zu bytes)", r->what, len);
    xmlParserCtxt *ctxt = dg_xml.xmlNewParserCtxt();
    if (!ctxt)
        return oom(r);
    xmlDoc *d = xml ? dg_xml.xmlCtxtReadMemory(ctxt, xml, (int)len, NULL, NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOBLANKS |
                                            XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                    : NULL;
    const xmlError *e = dg_xml.xmlCtxtGetLastError(ctxt);
    int rc = 0;
    if (ctxt->errNo == XML_ERR_NO_MEMORY || (e && e->code == XML_ERR_NO_MEMORY) ||
        (xml && !d && (!e || !e->message))) {
        rc = oom(r); /* libxml2 may return a truncated tree or none without a message */
    } else if (!d || !ctxt->wellFormed || !ctxt->nsWellFormed) {
        char msg[200] = "empty document";
        if (e && e->message) {
            snprintf(msg, sizeof msg, "%s", e->message);
            msg[strcspn(msg, "\n")] = '\0';
            if (isupper((unsigned char)msg[0]) && islower((unsigned char)msg[1]))
                msg[0] = (char)tolower((unsigned char)msg[0]);
        }
        rc = dg_err_fail(r->err, DG_E_PARSE, "%s: not well-formed xml: %s (line %d)", r->what,
                         msg, e ? e->line : 0);
    }
    if (rc)
        dg_xml.xmlFreeDoc(d);
    dg_xml.xmlFreeParserCtxt(ctxt);
    if (rc)
        return rc;
    xmlNode *rt = dg_xml.xmlDocGetRootElement(d);
    if (!is_el(rt, r->ns, root_name)) {
        rc = dg_err_fail(r->err, DG_E_PARSE, "%s: the root element is '%s' in namespace '%s', "
                         "not '%s' in '%s'", r->what, rt ? (const char *)rt->name : "",
                         rt && rt->ns ? (const char *)rt->ns->href : "", root_name, r->ns);
        dg_xml.xmlFreeDoc(d);
        return rc;
    }
    *doc = d;
    *root = rt;
    return 0;
}

enum { V_TEXT, V_INT, V_CENTS };

/* The value at path under n: "A/B" is an element's text, "A/@b" an attribute, "@b" one
 * of n's. The text goes to buf (size bytes with the NUL; may be NULL for numbers);
 * V_INT and V_CENTS parse it into *num. where names n in messages. DG_E_PARSE when the
 * value is missing, too long or not a number of its kind. */
static int rd_get(const rd *r, xmlNode *n, const char *where, const char *path, int kind,
                  char *buf, size_t size, int64_t *num)
{
    char elpath[96], tmp[40];
    const char *at = strchr(path, '@');
    snprintf(elpath, sizeof elpath, "%.*s", at ? (int)(at - path) : (int)strlen(path), path);
    xmlNode *e = find(n, r->ns, elpath);
    xmlChar *v;
    if (e && at && dg_xml.xmlHasNsProp(e, BAD_CAST at + 1, NULL))
        v = dg_xml.xmlGetNoNsProp(e, BAD_CAST at + 1);
    else if (e && !at)
        v = dg_xml.xmlNodeGetContent(e);
    else
        return dg_err_fail(r->err, DG_E_PARSE, "%s: no %s/%s", r->what, where, path);
    if (!v)
        return oom(r);
    if (!buf) {
        buf = tmp;
        size = sizeof tmp;
    }
    size_t len = strlen((const char *)v);
    int rc = 0;
    if (len >= size) {
        rc = dg_err_fail(r->err, DG_E_PARSE, "%s: %s/%s is longer than %zu bytes", r->what,
                         where, path, size - 1);
    } else {
        memcpy(buf, v, len + 1);
        if (kind == V_INT && !parse_i64(buf, num))
            rc = dg_err_fail(r->err, DG_E_PARSE, "%s: %s/%s '%s' is not an integer", r->what,
                             where, path, buf);
        else if (kind == V_CENTS && !docs_parse_cents(buf, num))
            rc = dg_err_fail(r->err, DG_E_PARSE, "%s: %s/%s '%s' is not an amount with at "
                             "most 2 decimals", r->what, where, path, buf);
    }
    (*dg_xml.xmlFree)(v);
    return rc;
}

/* Keys read by table: a path (as rd_get takes it), its kind, and where the value goes in
 * the keys struct. */
typedef struct field {
    const char *path;
    int kind;
    size_t off, size; /* size: V_TEXT's buffer */
} field;
#define TEXT(path, T, m) {path, V_TEXT, offsetof(T, m), sizeof(((T *)0)->m)}
#define NUM(path, kind, T, m) {path, kind, offsetof(T, m), 0}

static int rd_fields(const rd *r, xmlNode *n, const char *where, const field *f, int nf,
                     void *keys)
{
    int rc = 0;
    for (int i = 0; i < nf && !rc; i++) {
        char *p = (char *)keys + f[i].off;
        rc = f[i].kind == V_TEXT ? rd_get(r, n, where, f[i].path, V_TEXT, p, f[i].size, NULL)
                                 : rd_get(r, n, where, f[i].path, f[i].kind, NULL, 0,
                                          (int64_t *)(void *)p);
    }
    return rc;
}

/* Writes the whole document to out (reset first). */
static int dump_doc(const rd *r, xmlDoc *doc, dg_strbuf *out)
{
    xmlChar *mem = NULL;
    int n = 0;
    dg_xml.xmlDocDumpMemory(doc, &mem, &n);
    if (!mem)
        return oom(r);
    dg_sb_reset(out);
    dg_sb_addn(out, (const char *)mem, (size_t)n);
    (*dg_xml.xmlFree)(mem);
    return 0;
}

/* ---- 2. the readers ----------------------------------------------------------------------- */

/* Keys by table, each value found by its path in the document's namespace; a missing or
 * malformed one is a DG_E_PARSE naming that path. */

static const rd rd_custacc = {"custacc document", DOCS_NS_CUSTACC, NULL};
static const rd rd_order = {"order document", DOCS_NS_ORDER, NULL};
static const rd rd_security = {"security document", DOCS_NS_SECURITY, NULL};

static const field cust_fields[] = {NUM("@id", V_INT, docs_cust_keys, id),
                                    TEXT("CountryOfResidence", docs_cust_keys, country)};
static const field addr_fields[] = {TEXT("PostalCode", docs_cust_keys, postal_code),
                                    TEXT("State", docs_cust_keys, state)};

static int cust_keys(const rd *r, xmlNode *root, void *keys)
{
    docs_cust_keys *t = keys;
    memset(t, 0, sizeof *t);
    int rc = rd_fields(r, root, "Customer", cust_fields, NELEM(cust_fields), t);
    if (rc)
        return rc;
    /* the primary address, or the first one */
    xmlNode *addr = find(root, r->ns, "Addresses/Address"), *a = addr;
    for (; a; a = next_el(a->next, r->ns, "Address")) {
        xmlChar *p = dg_xml.xmlGetNoNsProp(a, BAD_CAST "primary");
        bool yes = p && strcmp((const char *)p, "Yes") == 0;
        (*dg_xml.xmlFree)(p);
        if (yes)
            break;
    }
    if (!addr)
        return dg_err_fail(r->err, DG_E_PARSE, "%s: no Customer/Addresses/Address", r->what);
    rc = rd_fields(r, a ? a : addr, "Customer/Addresses/Address", addr_fields,
                   NELEM(addr_fields), t);
    if (rc)
        return rc;
    xmlNode *accounts = first_el(root, r->ns, "Accounts");
    if (!accounts)
        return dg_err_fail(r->err, DG_E_PARSE, "%s: no Customer/Accounts", r->what);
    for (a = first_el(accounts, r->ns, "Account"); a; a = next_el(a->next, r->ns, "Account")) {
        if (t->nacct == DOCS_MAX_ACCOUNTS)
            return dg_err_fail(r->err, DG_E_PARSE, "%s: more than %d accounts", r->what,
                               DOCS_MAX_ACCOUNTS);
        int i = t->nacct++;
        char where[48];
        rc = rd_get(r, a, "Customer/Accounts/Account", "@id", V_INT, NULL, 0, &t->acct[i]);
        snprintf(where, sizeof where, "Account[@id=%" PRId64 "]", t->acct[i]);
        if (!rc)
            rc = rd_get(r, a, where, "Balance/OnlineActualBal", V_CENTS, NULL, 0,
                        &t->balance_cents[i]);
        if (rc)
            return rc;
        for (xmlNode *p = find(a, r->ns, "Holdings/Position"); p;
             p = next_el(p->next, r->ns, "Position"))
            t->npos[i]++;
    }
    return 0;
}

static const field order_fields[] = {
    NUM("Order/@ID", V_INT, docs_order_keys, id),
    NUM("Order/@Acct", V_INT, docs_order_keys, acct),
    TEXT("Order/Instrmt/@Sym", docs_order_keys, symbol),
    NUM("Order/OrdQty/@Qty", V_INT, docs_order_keys, qty),
    NUM("Order/OrdQty/@Cash", V_CENTS, docs_order_keys, cash_cents)};

static int order_keys(const rd *r, xmlNode *root, void *keys)
{
    docs_order_keys *t = keys;
    memset(t, 0, sizeof *t);
    char side[4] = "";
    int rc = rd_fields(r, root, "FIXML", order_fields, NELEM(order_fields), t);
    if (!rc)
        rc = rd_get(r, root, "FIXML", "Order/@Side", V_TEXT, side, sizeof side, NULL);
    if (!rc && strcmp(side, "1") != 0 && strcmp(side, "2") != 0)
        rc = dg_err_fail(r->err, DG_E_PARSE, "%s: FIXML/Order/@Side '%s' is not 1 or 2",
                         r->what, side);
    t->side = side[0];
    return rc;
}

static const field sec_fields[] = {
    NUM("@id", V_INT, docs_sec_keys, id),
    TEXT("Symbol", docs_sec_keys, symbol),
    TEXT("Name", docs_sec_keys, name),
    TEXT("SecurityType", docs_sec_keys, type),
    NUM("PE", V_CENTS, docs_sec_keys, pe_cents),
    NUM("Yield", V_CENTS, docs_sec_keys, yield_cents),
    NUM("Price/PriceToday/Open", V_CENTS, docs_sec_keys, open_cents),
    NUM("Price/LastTrade", V_CENTS, docs_sec_keys, last_cents)};
static const field stock_fields[] = {
    TEXT("StockInformation/Sector", docs_sec_keys, sector),
    TEXT("StockInformation/Industry", docs_sec_keys, industry)};
static const field fund_fields[] = {
    TEXT("FundInformation/Sector", docs_sec_keys, sector),
    TEXT("FundInformation/Category", docs_sec_keys, industry)};

static int sec_keys(const rd *r, xmlNode *root, void *keys)
{
    docs_sec_keys *t = keys;
    memset(t, 0, sizeof *t);
    int rc = rd_fields(r, root, "Security", sec_fields, NELEM(sec_fields), t);
    if (rc)
        return rc;
    xmlNode *info = first_el(root, r->ns, "SecurityInformation");
    if (first_el(info, r->ns, "StockInformation"))
        return rd_fields(r, info, "Security/SecurityInformation", stock_fields,
                         NELEM(stock_fields), t);
    if (first_el(info, r->ns, "FundInformation"))
        return rd_fields(r, info, "Security/SecurityInformation", fund_fields,
                         NELEM(fund_fields), t);
    return dg_err_fail(r->err, DG_E_PARSE, "%s: no Security/SecurityInformation/"
                       "StockInformation or FundInformation", r->what);
}

/* Parses a document of desc's kind and reads its keys into *keys with fn. */
static int read_keys(rd desc, const char *root_name,
                     int (*fn)(const rd *r, xmlNode *root, void *keys), const char *xml,
                     size_t len, void *keys, dg_err *err)
{
    docs_xml_init();
    desc.err = err;
    xmlDoc *doc;
    xmlNode *root;
    int rc = rd_parse(&desc, xml, len, root_name, &doc, &root);
    if (rc)
        return rc;
    rc = fn(&desc, root, keys);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

int docs_read_custacc(const char *xml, size_t len, docs_cust_keys *k, dg_err *err)
{
    docs_cust_keys t;
    int rc = read_keys(rd_custacc, "Customer", cust_keys, xml, len, &t, err);
    if (!rc)
        *k = t;
    return rc;
}

int docs_read_order(const char *xml, size_t len, docs_order_keys *k, dg_err *err)
{
    docs_order_keys t;
    int rc = read_keys(rd_order, "FIXML", order_keys, xml, len, &t, err);
    if (!rc)
        *k = t;
    return rc;
}

int docs_read_security(const char *xml, size_t len, docs_sec_keys *k, dg_err *err)
{
    docs_sec_keys t;
    int rc = read_keys(rd_security, "Security", sec_keys, xml, len, &t, err);
    if (!rc)
        *k = t;
    return rc;
}

/* ---- 3. the projections ------------------------------------------------------------------- */

/* Q3. Customer_Profile is in no namespace; the copied elements keep theirs, declared on
 * each copy (xmlns="...custacc"), as an XQuery constructor copying them would. */
int docs_customer_profile(const char *xml, size_t len, dg_strbuf *out, int *items, dg_err *err)
{
    static const char *const parts[] = {"Name",      "DateOfBirth", "Gender",
                                        "CountryOfResidence", "Languages", "Addresses",
                                        "EmailAddresses"};
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    xmlDoc *doc, *pd = NULL;
    xmlNode *root, *pr = NULL;
    xmlOutputBuffer *ob = NULL;
    int64_t id;
    char idbuf[24];
    int rc = rd_parse(&r, xml, len, "Customer", &doc, &root);
    if (rc)
        return rc;
    if ((rc = rd_get(&r, root, "Customer", "@id", V_INT, NULL, 0, &id)))
        goto done;
    snprintf(idbuf, sizeof idbuf, "%" PRId64, id);
    pd = dg_xml.xmlNewDoc(BAD_CAST "1.0");
    if (pd)
        pr = dg_xml.xmlNewDocNode(pd, NULL, BAD_CAST "Customer_Profile", NULL);
    if (pr)
        dg_xml.xmlDocSetRootElement(pd, pr);
    if (!pr || !dg_xml.xmlNewProp(pr, BAD_CAST "CUSTOMERID", BAD_CAST idbuf)) {
        rc = oom(&r);
        goto done;
    }
    for (int i = 0; i < NELEM(parts); i++) {
        for (xmlNode *n = first_el(root, r.ns, parts[i]); n; n = next_el(n->next, r.ns, parts[i])) {
            xmlNode *c = dg_xml.xmlDocCopyNode(n, pd, 1);
            if (!c || !dg_xml.xmlAddChild(pr, c)) {
                dg_xml.xmlFreeNode(c);
                rc = oom(&r);
                goto done;
            }
        }
    }
    /* the element alone, no XML declaration (xmlNodeDump double-frees on out of memory) */
    ob = dg_xml.xmlAllocOutputBuffer(NULL);
    if (ob)
        dg_xml.xmlNodeDumpOutput(ob, pd, pr, 0, 0, NULL);
    if (!ob || ob->error || dg_xml.xmlOutputBufferFlush(ob) < 0 || !dg_xml.xmlOutputBufferGetContent(ob)) {
        rc = oom(&r);
        goto done;
    }
    dg_sb_reset(out);
    dg_sb_addn(out, (const char *)dg_xml.xmlOutputBufferGetContent(ob), dg_xml.xmlOutputBufferGetSize(ob));
    if (items)
        *items = 1;
done:
    if (ob)
        dg_xml.xmlOutputBufferClose(ob);
    dg_xml.xmlFreeDoc(pd);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* Q5, all in no namespace, written with the xmlTextWriter from the parsed document. */
int docs_account_summary(const char *xml, size_t len, dg_strbuf *out, int *items, dg_err *err)
{
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    xmlDoc *doc;
    xmlNode *root;
    int rc = rd_parse(&r, xml, len, "Customer", &doc, &root);
    if (rc)
        return rc;
    int64_t id, num;
    char first[64], last[64], bal[40], acct[24], where[48];
    int naccounts = 0;
    wr o;
    if ((rc = rd_get(&r, root, "Customer", "@id", V_INT, NULL, 0, &id)) ||
        (rc = rd_get(&r, root, "Customer", "Name/FirstName", V_TEXT, first, sizeof first, NULL)) ||
        (rc = rd_get(&r, root, "Customer", "Name/LastName", V_TEXT, last, sizeof last, NULL)) ||
        (rc = wr_open(&o, false, r.what, err)))
        goto done;
    w_start(&o, "Customer");
    w_attrf(&o, "id", "%" PRId64, id);
    w_elemf(&o, "Name", "%s %s", first, last);
    for (xmlNode *a = find(root, r.ns, "Accounts/Account"); a && !rc;
         a = next_el(a->next, r.ns, "Account")) {
        rc = rd_get(&r, a, "Customer/Accounts/Account", "@id", V_INT, acct, sizeof acct, &num);
        snprintf(where, sizeof where, "Account[@id=%s]", acct);
        if (rc || (rc = rd_get(&r, a, where, "Balance/OnlineActualBal", V_CENTS, bal,
                               sizeof bal, &num)))
            break;
        naccounts++;
        w_start(&o, "Account");
        w_attr(&o, "BALANCE", bal);
        w_attr(&o, "ACCOUNT_ID", acct);
        w_start(&o, "Securities");
        for (xmlNode *p = find(a, r.ns, "Holdings/Position"); p && !o.bad;
             p = next_el(p->next, r.ns, "Position")) {
            xmlNode *nm = first_el(p, r.ns, "Name");
            xmlChar *name = nm ? dg_xml.xmlNodeGetContent(nm) : NULL;
            if (nm && !name)
                o.bad = true;
            else if (name)
                w_elem(&o, "Name", (const char *)name);
            (*dg_xml.xmlFree)(name);
        }
        w_end(&o);
        w_end(&o);
    }
    w_end(&o);
    if (rc)
        wr_abort(&o);
    else if (!(rc = wr_done(&o, r.what, out, err)) && items)
        *items = naccounts;
done:
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* ---- 4. the edits ------------------------------------------------------------------------- */

/* Replaces the children of element n with the text s (raw: libxml2 escapes on output). */
static int set_text(xmlNode *n, const char *s)
{
    xmlNode *t = dg_xml.xmlNewDocText(n->doc, BAD_CAST s);
    if (!t)
        return -1;
    while (n->children) {
        xmlNode *c = n->children;
        dg_xml.xmlUnlinkNode(c);
        dg_xml.xmlFreeNode(c);
    }
    dg_xml.xmlAddChild(n, t);
    return 0;
}

static int set_cents(const rd *r, xmlNode *n, int64_t cents)
{
    char buf[32];
    fmt_cents(buf, cents);
    return set_text(n, buf) ? oom(r) : 0;
}

/* The Account @id=acct_id (*acct NULL when there is none). 0 or DG_E_NOMEM. */
static int find_account(const rd *r, xmlNode *root, int64_t acct_id, xmlNode **acct)
{
    *acct = NULL;
    for (xmlNode *a = find(root, r->ns, "Accounts/Account"); a && !*acct;
         a = next_el(a->next, r->ns, "Account")) {
        xmlChar *v = dg_xml.xmlGetNoNsProp(a, BAD_CAST "id");
        int64_t id;
        if (!v && dg_xml.xmlHasNsProp(a, BAD_CAST "id", NULL))
            return oom(r);
        if (v && parse_i64((const char *)v, &id) && id == acct_id)
            *acct = a;
        (*dg_xml.xmlFree)(v);
    }
    return 0;
}

/* Parses a custacc document and finds account acct_id in it: DG_E_NOTFOUND when it is
 * not there (*doc is then freed). */
static int open_account(const rd *r, const char *xml, size_t len, int64_t acct_id,
                        xmlDoc **doc, xmlNode **acct)
{
    xmlNode *root;
    int rc = rd_parse(r, xml, len, "Customer", doc, &root);
    if (rc)
        return rc;
    rc = find_account(r, root, acct_id, acct);
    if (!rc && !*acct)
        rc = dg_err_fail(r->err, DG_E_NOTFOUND, "%s: no account %" PRId64, r->what, acct_id);
    if (rc)
        dg_xml.xmlFreeDoc(*doc);
    return rc;
}

/* OnlineActualBal += delta_cents. */
static int add_balance(const rd *r, xmlNode *acct, int64_t acct_id, int64_t delta_cents)
{
    char where[48];
    snprintf(where, sizeof where, "Account[@id=%" PRId64 "]", acct_id);
    int64_t cents;
    int rc = rd_get(r, acct, where, "Balance/OnlineActualBal", V_CENTS, NULL, 0, &cents);
    if (rc)
        return rc;
    if (__builtin_add_overflow(cents, delta_cents, &cents))
        return dg_err_fail(r->err, DG_E_INVAL, "%s: %s: the balance overflows", r->what, where);
    return set_cents(r, find(acct, r->ns, "Balance/OnlineActualBal"), cents);
}

/* U1. The new account is built by write_account() in tree mode, like a generated one
 * (from a generator seeded by its id). DG_E_EXISTS when the document has it already. */
int docs_add_account(const char *xml, size_t len, int64_t acct_id, int64_t balance_cents,
                     dg_strbuf *out, dg_err *err)
{
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    xmlDoc *doc;
    xmlNode *root;
    int rc = rd_parse(&r, xml, len, "Customer", &doc, &root);
    if (rc)
        return rc;
    xmlNode *accounts = first_el(root, r.ns, "Accounts"), *old;
    if ((rc = find_account(&r, root, acct_id, &old))) {
        /* out of memory */
    } else if (old) {
        rc = dg_err_fail(err, DG_E_EXISTS, "%s: account %" PRId64 " exists", r.what, acct_id);
    } else {
        if (!accounts) /* its place is the end of Customer */
            accounts = dg_xml.xmlNewChild(root, root->ns, BAD_CAST "Accounts", NULL);
        wr o = {.node = accounts, .bad = !accounts};
        docs_write_new_account(&o, acct_id, balance_cents);
        rc = o.bad ? oom(&r) : dump_doc(&r, doc, out);
    }
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* U2. */
int docs_close_account(const char *xml, size_t len, int64_t acct_id, docs_validator *v,
                       dg_strbuf *out, dg_err *err)
{
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    xmlDoc *doc;
    xmlNode *acct;
    int rc = open_account(&r, xml, len, acct_id, &doc, &acct);
    if (rc)
        return rc;
    dg_xml.xmlUnlinkNode(acct);
    dg_xml.xmlFreeNode(acct);
    rc = v ? docs_validate_doc(v, DOCS_CUSTACC, doc, err) : 0;
    if (!rc)
        rc = dump_doc(&r, doc, out);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* U3. A missing Holdings is made at its place, the end of the Account. */
int docs_buy_position(const char *xml, size_t len, int64_t acct_id, const docs_sec_keys *sec,
                      int64_t qty, int64_t cost_cents, dg_strbuf *out, dg_err *err)
{
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    if (!sec)
        return dg_err_fail(err, DG_E_INVAL, "buy position: no security");
    xmlDoc *doc;
    xmlNode *acct;
    int rc = open_account(&r, xml, len, acct_id, &doc, &acct);
    if (rc)
        return rc;
    char qbuf[24];
    snprintf(qbuf, sizeof qbuf, "%" PRId64, qty);
    xmlNode *h = first_el(acct, r.ns, "Holdings");
    if (!h)
        h = dg_xml.xmlNewChild(acct, acct->ns, BAD_CAST "Holdings", NULL);
    xmlNode *p = h ? dg_xml.xmlNewChild(h, h->ns, BAD_CAST "Position", NULL) : NULL;
    if (!p || !dg_xml.xmlNewTextChild(p, p->ns, BAD_CAST "Symbol", BAD_CAST sec->symbol) ||
        !dg_xml.xmlNewTextChild(p, p->ns, BAD_CAST "Name", BAD_CAST sec->name) ||
        !dg_xml.xmlNewTextChild(p, p->ns, BAD_CAST "Type", BAD_CAST sec->type) ||
        !dg_xml.xmlNewTextChild(p, p->ns, BAD_CAST "Quantity", BAD_CAST qbuf))
        rc = oom(&r);
    if (!rc)
        rc = add_balance(&r, acct, acct_id, -cost_cents);
    if (!rc)
        rc = dump_doc(&r, doc, out);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* U4. */
int docs_sell_position(const char *xml, size_t len, int64_t acct_id, int64_t qty,
                       int64_t proceeds_cents, bool *removed, docs_validator *v,
                       dg_strbuf *out, dg_err *err)
{
    docs_xml_init();
    rd r = rd_custacc;
    r.err = err;
    xmlDoc *doc;
    xmlNode *acct;
    int rc = open_account(&r, xml, len, acct_id, &doc, &acct);
    if (rc)
        return rc;
    char where[64], qbuf[40];
    snprintf(where, sizeof where, "Account[@id=%" PRId64 "]/Holdings/Position", acct_id);
    xmlNode *p = find(acct, r.ns, "Holdings/Position");
    int64_t have;
    bool gone = false;
    if (!p)
        rc = dg_err_fail(err, DG_E_NOTFOUND, "%s: account %" PRId64 " has no position", r.what,
                         acct_id);
    else
        rc = rd_get(&r, p, where, "Quantity", V_INT, NULL, 0, &have);
    if (rc)
        goto done;
    if (have - qty <= 0) {
        dg_xml.xmlUnlinkNode(p);
        dg_xml.xmlFreeNode(p);
        gone = true;
    } else {
        snprintf(qbuf, sizeof qbuf, "%" PRId64, have - qty);
        if (set_text(first_el(p, r.ns, "Quantity"), qbuf)) {
            rc = oom(&r);
            goto done;
        }
    }
    if (!(rc = add_balance(&r, acct, acct_id, proceeds_cents)) &&
        !(rc = v ? docs_validate_doc(v, DOCS_CUSTACC, doc, err) : 0) &&
        !(rc = dump_doc(&r, doc, out)) && removed)
        *removed = gone;
done:
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* U5. */
int docs_update_order(const char *xml, size_t len, int64_t qty, int64_t cash_cents,
                      dg_strbuf *out, dg_err *err)
{
    docs_xml_init();
    rd r = rd_order;
    r.err = err;
    xmlDoc *doc;
    xmlNode *root;
    int rc = rd_parse(&r, xml, len, "FIXML", &doc, &root);
    if (rc)
        return rc;
    xmlNode *oq = find(root, r.ns, "Order/OrdQty");
    char qbuf[24], cbuf[32];
    snprintf(qbuf, sizeof qbuf, "%" PRId64, qty);
    fmt_cents(cbuf, cash_cents);
    if (!oq)
        rc = dg_err_fail(err, DG_E_NOTFOUND, "%s: no FIXML/Order/OrdQty", r.what);
    else if (!dg_xml.xmlSetProp(oq, BAD_CAST "Qty", BAD_CAST qbuf) ||
             !dg_xml.xmlSetProp(oq, BAD_CAST "Cash", BAD_CAST cbuf))
        rc = oom(&r);
    else
        rc = dump_doc(&r, doc, out);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* U6. */
int docs_update_price(const char *xml, size_t len, int64_t last_cents, int64_t open_cents,
                      int64_t low_cents, int64_t high_cents, dg_strbuf *out, dg_err *err)
{
    static const char *const paths[] = {"Price/LastTrade", "Price/PriceToday/PreviousClose",
                                        "Price/PriceToday/Open", "Price/PriceToday/Low",
                                        "Price/PriceToday/High"};
    docs_xml_init();
    rd r = rd_security;
    r.err = err;
    xmlDoc *doc;
    xmlNode *root, *n[5];
    int rc = rd_parse(&r, xml, len, "Security", &doc, &root);
    if (rc)
        return rc;
    for (int i = 0; i < 5 && !rc; i++)
        if (!(n[i] = find(root, r.ns, paths[i])))
            rc = dg_err_fail(err, DG_E_NOTFOUND, "%s: no Security/%s", r.what, paths[i]);
    int64_t prev = 0;
    if (!rc)
        rc = rd_get(&r, root, "Security", paths[0], V_CENTS, NULL, 0, &prev);
    int64_t v[5] = {last_cents, prev, open_cents, low_cents, high_cents};
    for (int i = 0; i < 5 && !rc; i++)
        rc = set_cents(&r, n[i], v[i]);
    if (!rc)
        rc = dump_doc(&r, doc, out);
    dg_xml.xmlFreeDoc(doc);
    return rc;
}

/* ---- 5. fragments ------------------------------------------------------------------------ */

int docs_fragment_ordqty(int64_t qty, int64_t cash_cents, const char *rndmod, dg_strbuf *out,
                         dg_err *err)
{
    docs_xml_init();
    wr o;
    int rc = wr_open(&o, false, "OrdQty fragment", err);
    if (rc)
        return rc;
    w_start(&o, "OrdQty");
    w_attrf(&o, "Qty", "%" PRId64, qty);
    w_money_attr(&o, "Cash", cash_cents);
    if (rndmod && *rndmod)
        w_attr(&o, "RndMod", rndmod);
    w_end(&o);
    return wr_done(&o, "OrdQty fragment", out, err);
}

int docs_fragment_price(int64_t last_cents, int64_t prev_close_cents, int64_t open_cents,
                        int64_t low_cents, int64_t high_cents, dg_strbuf *last_out,
                        dg_strbuf *today_out, dg_err *err)
{
    docs_xml_init();
    wr o;
    int rc = wr_open(&o, false, "LastTrade fragment", err);
    if (rc)
        return rc;
    w_money(&o, "LastTrade", last_cents);
    if ((rc = wr_done(&o, "LastTrade fragment", last_out, err)) != 0)
        return rc;
    if ((rc = wr_open(&o, false, "PriceToday fragment", err)) != 0)
        return rc;
    w_start(&o, "PriceToday");
    w_money(&o, "PreviousClose", prev_close_cents);
    w_money(&o, "Open", open_cents);
    w_money(&o, "Low", low_cents);
    w_money(&o, "High", high_cents);
    w_end(&o);
    return wr_done(&o, "PriceToday fragment", today_out, err);
}
