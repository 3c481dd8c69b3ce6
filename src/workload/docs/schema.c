/*
 * schema.c - XML Schema validation of the docs workload's documents (schema.h): the
 * built-in schemas and the validation through libxml2.
 */
#include "workload/docs/schema.h"

#include "core/clock.h"
#include "core/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the built-in schemas ------------------------------------------------------------------ */

/* Types the three share (each schema has its own copy: one file each, no includes). */
#define XSD_COMMON_TYPES                                                                           \
    "<xs:simpleType name='YesNo'><xs:restriction base='xs:string'>"                                \
    "<xs:enumeration value='Yes'/><xs:enumeration value='No'/></xs:restriction></xs:simpleType>"   \
    "<xs:simpleType name='Money'><xs:restriction base='xs:decimal'>"                               \
    "<xs:fractionDigits value='2'/></xs:restriction></xs:simpleType>"                              \
    "<xs:simpleType name='Text'><xs:restriction base='xs:string'>"                                 \
    "<xs:minLength value='1'/><xs:maxLength value='200'/></xs:restriction></xs:simpleType>"

#define XSD_HEAD(ns)                                                                               \
    "<?xml version='1.0' encoding='UTF-8'?>"                                                       \
    "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema' xmlns='" ns "' targetNamespace='" ns  \
    "' elementFormDefault='qualified'>" XSD_COMMON_TYPES

#define EL(name, type) "<xs:element name='" name "' type='" type "'/>"
#define EL_OPT(name, type) "<xs:element name='" name "' type='" type "' minOccurs='0'/>"
#define ATTR(name, type) "<xs:attribute name='" name "' type='" type "' use='required'/>"

/* TPoX customer accounts: a Customer with its names, addresses, e-mail addresses,
 * banking information and accounts; an account's Holdings may be empty (U1 makes one,
 * U4 may sell its last position), Accounts may be missing (U1 then adds it). */
static const char xsd_custacc[] =
    XSD_HEAD(DOCS_NS_CUSTACC)
    "<xs:simpleType name='Gender'><xs:restriction base='xs:string'>"
    "<xs:enumeration value='Male'/><xs:enumeration value='Female'/></xs:restriction></xs:simpleType>"
    "<xs:complexType name='Phone'><xs:sequence>"
    EL("CountryCode", "xs:positiveInteger") EL("AreaCode", "Text") EL("Number", "Text")
    EL_OPT("Extension", "xs:nonNegativeInteger")
    "</xs:sequence>" ATTR("primary", "YesNo") ATTR("type", "Text") "</xs:complexType>"
    "<xs:complexType name='Address'><xs:sequence>"
    "<xs:element name='Street' type='Text' maxOccurs='2'/>"
    EL_OPT("POBox", "Text") EL("City", "Text") EL("PostalCode", "Text") EL_OPT("State", "Text")
    EL("Country", "Text")
    "<xs:element name='Phones'><xs:complexType><xs:sequence>"
    "<xs:element name='Phone' type='Phone' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "</xs:sequence>" ATTR("primary", "YesNo") ATTR("type", "Text") "</xs:complexType>"
    "<xs:complexType name='Position'><xs:sequence>"
    EL("Symbol", "Text") EL("Name", "Text") EL("Type", "Text") EL("Quantity", "xs:positiveInteger")
    "</xs:sequence></xs:complexType>"
    "<xs:complexType name='Account'><xs:sequence>"
    EL("Category", "Text") EL("AccountTitle", "Text") EL("ShortTitle", "Text")
    EL("Mnemonic", "Text") EL("Currency", "Text") EL("CurrencyMarket", "xs:positiveInteger")
    EL("OpeningDate", "xs:date") EL("AccountOfficer", "Text") EL("LastUpdate", "xs:date")
    "<xs:element name='Balance'><xs:complexType><xs:sequence>"
    EL("OnlineActualBal", "Money") EL("OnlineClearedBal", "Money") EL("WorkingBalance", "Money")
    "</xs:sequence></xs:complexType></xs:element>"
    EL("Passbook", "YesNo") EL("ChargeCcy", "Text") EL("InterestCcy", "Text")
    EL("AllowNetting", "YesNo")
    "<xs:element name='Holdings' minOccurs='0'><xs:complexType><xs:sequence>"
    "<xs:element name='Position' type='Position' minOccurs='0' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "</xs:sequence>" ATTR("id", "xs:long") "</xs:complexType>"
    "<xs:element name='Customer'><xs:complexType><xs:sequence>"
    EL("Mnemonic", "Text")
    "<xs:element name='ShortNames'><xs:complexType><xs:sequence>"
    "<xs:element name='ShortName' type='Text' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='Name'><xs:complexType><xs:sequence>"
    EL("Title", "Text") EL("FirstName", "Text") EL_OPT("MiddleName", "Text") EL("LastName", "Text")
    "</xs:sequence></xs:complexType></xs:element>"
    EL("DateOfBirth", "xs:date") EL("Gender", "Gender") EL("Nationality", "Text")
    EL("CountryOfResidence", "Text")
    "<xs:element name='Languages'><xs:complexType><xs:sequence>"
    "<xs:element name='Language' type='Text' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='Addresses'><xs:complexType><xs:sequence>"
    "<xs:element name='Address' type='Address' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='EmailAddresses'><xs:complexType><xs:sequence>"
    "<xs:element name='Email' maxOccurs='unbounded'><xs:complexType><xs:simpleContent>"
    "<xs:extension base='Text'>" ATTR("primary", "YesNo") "</xs:extension>"
    "</xs:simpleContent></xs:complexType></xs:element>"
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='BankingInfo'><xs:complexType><xs:sequence>"
    EL("CustomerSince", "xs:date") EL("PremiumCustomer", "YesNo")
    "<xs:element name='CustomerStatus'><xs:simpleType><xs:restriction base='xs:string'>"
    "<xs:enumeration value='Active'/><xs:enumeration value='Inactive'/>"
    "<xs:enumeration value='Dormant'/></xs:restriction></xs:simpleType></xs:element>"
    EL("LastContactDate", "xs:date") EL("ReviewFrequency", "Text")
    "<xs:element name='Online'><xs:complexType><xs:sequence>"
    EL("Login", "Text") EL("Pin", "Text")
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='Tax'><xs:complexType><xs:sequence>"
    EL("SSN", "Text") EL("TaxRate", "Money")
    "</xs:sequence></xs:complexType></xs:element>"
    EL("Currency", "Text")
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='Accounts' minOccurs='0'><xs:complexType><xs:sequence>"
    "<xs:element name='Account' type='Account' maxOccurs='unbounded'/>"
    "</xs:sequence></xs:complexType></xs:element>"
    "</xs:sequence>" ATTR("id", "xs:long") "</xs:complexType></xs:element>"
    "</xs:schema>";

/* FIXML 4.4 orders as gen.c writes them: the attributes TPoX's queries read are typed
 * (ids, account, side, prices, quantities, dates), the rest declared by name. */
static const char xsd_order[] =
    XSD_HEAD(DOCS_NS_ORDER)
    "<xs:element name='FIXML'><xs:complexType><xs:sequence>"
    "<xs:element name='Order'><xs:complexType><xs:sequence>"
    "<xs:element name='Hdr'><xs:complexType><xs:sequence>"
    "<xs:element name='Hop' maxOccurs='unbounded'><xs:complexType>"
    ATTR("ID", "Text") ATTR("Ref", "xs:int") ATTR("Snt", "xs:dateTime")
    "</xs:complexType></xs:element>"
    "</xs:sequence>"
    ATTR("SID", "Text") ATTR("TID", "Text") ATTR("SSub", "Text") ATTR("PosDup", "Text")
    ATTR("PosRsnd", "Text") ATTR("SeqNum", "xs:int") ATTR("MsgEncd", "Text")
    ATTR("Snt", "xs:dateTime")
    "</xs:complexType></xs:element>"
    "<xs:element name='Pty' maxOccurs='unbounded'><xs:complexType>"
    ATTR("ID", "Text") ATTR("Src", "Text") ATTR("R", "xs:int")
    "</xs:complexType></xs:element>"
    "<xs:element name='Instrmt'><xs:complexType>"
    ATTR("Sym", "Text") ATTR("ID", "xs:int") ATTR("SecTyp", "Text") ATTR("Src", "xs:int")
    ATTR("Exch", "Text") ATTR("Desc", "Text")
    "</xs:complexType></xs:element>"
    "<xs:element name='OrdQty'><xs:complexType>"
    ATTR("Qty", "xs:positiveInteger") ATTR("Cash", "Money") ATTR("RndMod", "xs:int")
    "</xs:complexType></xs:element>"
    "<xs:element name='Comm'><xs:complexType>"
    ATTR("Comm", "Money") ATTR("CommTyp", "xs:int") ATTR("Ccy", "Text")
    "</xs:complexType></xs:element>"
    "</xs:sequence>"
    ATTR("ID", "xs:long") ATTR("OrignDt", "xs:date") ATTR("TrdDt", "xs:date")
    ATTR("TxnTm", "xs:dateTime") ATTR("Acct", "xs:long")
    "<xs:attribute name='Side' use='required'><xs:simpleType><xs:restriction base='xs:string'>"
    "<xs:enumeration value='1'/><xs:enumeration value='2'/></xs:restriction></xs:simpleType>"
    "</xs:attribute>"
    ATTR("Px", "Money") ATTR("StopPx", "Money") ATTR("PrevClsPx", "Money") ATTR("Ccy", "Text")
    ATTR("SettlCcy", "Text") ATTR("SettlDt", "xs:date") ATTR("ExpireDt", "xs:date")
    ATTR("AcctIDSrc", "xs:int") ATTR("AcctTyp", "xs:int") ATTR("DayBkngInst", "xs:int")
    ATTR("BkngUnit", "xs:int") ATTR("PreallocMeth", "xs:int") ATTR("SettlTyp", "xs:int")
    ATTR("CshMgn", "xs:int") ATTR("ClrFeeInd", "Text") ATTR("HandlInst", "xs:int")
    ATTR("ExecInst", "Text") ATTR("MinQty", "xs:int") ATTR("MaxFloor", "xs:int")
    ATTR("ExDest", "Text") ATTR("ProcCode", "Text") ATTR("LocReqd", "Text")
    ATTR("QtyTyp", "xs:int") ATTR("Typ", "xs:int") ATTR("PxTyp", "xs:int")
    ATTR("ComplianceID", "Text") ATTR("IOIID", "Text") ATTR("QuoteID", "Text")
    ATTR("TmInForce", "xs:int") ATTR("GTBkngInst", "Text") ATTR("Cpcty", "Text")
    ATTR("Rstctions", "Text") ATTR("CustOrdCpcty", "xs:int") ATTR("ForexReq", "Text")
    ATTR("Txt", "Text")
    "</xs:complexType></xs:element>"
    "</xs:sequence>"
    ATTR("v", "Text") ATTR("r", "Text") ATTR("s", "Text")
    "</xs:complexType></xs:element>"
    "</xs:schema>";

/* TPoX securities: a stock or a fund, its description, prices and ratios. */
static const char xsd_security[] =
    XSD_HEAD(DOCS_NS_SECURITY)
    "<xs:complexType name='LowHigh'><xs:sequence>"
    EL("Low", "Money") EL("High", "Money")
    "</xs:sequence></xs:complexType>"
    "<xs:element name='Security'><xs:complexType><xs:sequence>"
    EL("Symbol", "Text") EL("Name", "Text") EL("ShortName", "xs:string")
    EL("SecurityType", "Text")
    "<xs:element name='SecurityInformation'><xs:complexType><xs:sequence><xs:choice>"
    "<xs:element name='StockInformation'><xs:complexType><xs:sequence>"
    EL("Sector", "Text") EL("Industry", "Text") EL("Category", "Text")
    EL("OutstandingShares", "xs:positiveInteger")
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='FundInformation'><xs:complexType><xs:sequence>"
    EL("FundFamily", "Text") EL("AssetGroup", "Text") EL("Sector", "Text")
    EL_OPT("Industry", "Text")
    "<xs:element name='Category'><xs:complexType><xs:simpleContent><xs:extension base='Text'>"
    ATTR("Capitalization", "Text") ATTR("Class", "Text")
    "</xs:extension></xs:simpleContent></xs:complexType></xs:element>"
    EL("ExpenseRatio", "Money") EL("TotalAssets", "Money") EL("MinInitialInvestment", "Money")
    EL("MinSubsequentInvestment", "Money")
    "</xs:sequence></xs:complexType></xs:element>"
    "</xs:choice>"
    "<xs:element name='Description'><xs:complexType><xs:sequence>"
    EL("Summary", "xs:string") EL("Exchange", "Text") EL("Founded", "xs:int")
    EL("Headquarters", "Text") EL("Employees", "xs:int")
    "</xs:sequence></xs:complexType></xs:element>"
    "</xs:sequence></xs:complexType></xs:element>"
    "<xs:element name='Price'><xs:complexType><xs:sequence>"
    EL("LastTrade", "Money") EL("Ask", "Money") EL("Bid", "Money") EL("Price50DayAvg", "Money")
    EL("Price200DayAvg", "Money")
    "<xs:element name='PriceToday'><xs:complexType><xs:sequence>"
    EL("PreviousClose", "Money") EL("Open", "Money") EL("Low", "Money") EL("High", "Money")
    "</xs:sequence></xs:complexType></xs:element>"
    EL("Price52week", "LowHigh")
    "</xs:sequence></xs:complexType></xs:element>"
    EL("PE", "Money") EL("Yield", "Money") EL("DivPerShare", "Money")
    "</xs:sequence>" ATTR("id", "xs:long") "</xs:complexType></xs:element>"
    "</xs:schema>";

const char *const docs_xsd[DOCS_NKINDS] = {xsd_custacc, xsd_order, xsd_security};

static const char *const kind_file[DOCS_NKINDS] = {"custacc.xsd", "order.xsd", "security.xsd"};
static const char *const kind_what[DOCS_NKINDS] = {"custacc document", "order document",
                                                   "security document"};

/* ---- libxml2's errors ------------------------------------------------------------------------ */

/* The first error libxml2 reported through a structured handler: its message (one line)
 * and line. */
typedef struct first_error {
    bool seen;
    int line;
    char file[256];
    char msg[240];
} first_error;

#if LIBXML_VERSION >= 21200
static void on_error(void *ctx, const xmlError *e)
#else
static void on_error(void *ctx, xmlErrorPtr e)
#endif
{
    first_error *f = ctx;
    if (f->seen || !e)
        return;
    f->seen = true;
    f->line = e->line;
    snprintf(f->file, sizeof f->file, "%s", e->file ? e->file : "");
    snprintf(f->msg, sizeof f->msg, "%s", e->message ? e->message : "invalid");
    f->msg[strcspn(f->msg, "\n")] = '\0';
}

/* ---- the schema set ------------------------------------------------------------------------ */

struct docs_schemas {
    xmlSchemaPtr s[DOCS_NKINDS];
    char *source[DOCS_NKINDS]; /* NULL: built-in */
};

struct docs_validator {
    const docs_schemas *set;
    xmlSchemaValidCtxtPtr v[DOCS_NKINDS]; /* made on first use */
    first_error fault;
    uint64_t n;  /* documents validated since the last docs_validator_take */
    int64_t ns;  /* the time it took (a text's parse included) */
};

static int parse_one(docs_schemas *set, int k, const char *dir, dg_err *err)
{
    char path[PATH_MAX];
    xmlSchemaParserCtxtPtr pc = NULL;
    struct stat st;
    if (dir && snprintf(path, sizeof path, "%s/%s", dir, kind_file[k]) < (int)sizeof path &&
        stat(path, &st) == 0) {
        set->source[k] = xstrdup(path);
        pc = dg_xml.xmlSchemaNewParserCtxt(path);
    } else {
        pc = dg_xml.xmlSchemaNewMemParserCtxt(docs_xsd[k], (int)strlen(docs_xsd[k]));
    }
    if (!pc)
        return dg_err_fail(err, DG_E_NOMEM, "%s schema: out of memory in libxml2", kind_what[k]);
    first_error f = {0};
    dg_xml.xmlSchemaSetParserStructuredErrors(pc, on_error, &f);
    set->s[k] = dg_xml.xmlSchemaParse(pc);
    dg_xml.xmlSchemaFreeParserCtxt(pc);
    if (set->s[k])
        return 0;
    const char *src = set->source[k] ? set->source[k] : "the built-in schema";
    if (f.seen && f.file[0] && f.line > 0)
        return dg_err_fail(err, DG_E_PARSE, "%s:%d: %s schema: %s", f.file, f.line, kind_what[k],
                           f.msg);
    return dg_err_fail(err, DG_E_PARSE, "%s: %s schema does not parse%s%s", src, kind_what[k],
                       f.seen ? ": " : "", f.seen ? f.msg : "");
}

int docs_schemas_open(const char *dir, docs_schemas **out, dg_err *err)
{
    *out = NULL;
    struct stat st;
    if (dir) {
        int bad = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        if (bad)
            return dg_err_fail(err, DG_E_INVAL,
                               "--wl-opt schemas=%s: %s (a directory of custacc.xsd, order.xsd "
                               "and security.xsd, each optional)",
                               dir, strerror(bad));
    }
    docs_xml_init();
    docs_schemas *set = xcalloc(1, sizeof *set);
    for (int k = 0; k < DOCS_NKINDS; k++) {
        int rc = parse_one(set, k, dir, err);
        if (rc) {
            docs_schemas_free(set);
            return rc;
        }
    }
    *out = set;
    return 0;
}

void docs_schemas_free(docs_schemas *set)
{
    if (!set)
        return;
    for (int k = 0; k < DOCS_NKINDS; k++) {
        if (set->s[k])
            dg_xml.xmlSchemaFree(set->s[k]);
        free(set->source[k]);
    }
    free(set);
}

const char *docs_schemas_source(const docs_schemas *set, int kind)
{
    return set->source[kind] ? set->source[kind] : "built-in";
}

/* ---- validation ---------------------------------------------------------------------------- */

docs_validator *docs_validator_new(const docs_schemas *set)
{
    docs_validator *v = xcalloc(1, sizeof *v);
    v->set = set;
    return v;
}

void docs_validator_free(docs_validator *v)
{
    if (!v)
        return;
    for (int k = 0; k < DOCS_NKINDS; k++)
        if (v->v[k])
            dg_xml.xmlSchemaFreeValidCtxt(v->v[k]);
    free(v);
}

void docs_validator_take(docs_validator *v, uint64_t *n, int64_t *ns)
{
    *n = v->n;
    *ns = v->ns;
    v->n = 0;
    v->ns = 0;
}

static int validate(docs_validator *v, int kind, xmlDoc *doc, dg_err *err)
{
    if (!v->v[kind]) {
        v->v[kind] = dg_xml.xmlSchemaNewValidCtxt(v->set->s[kind]);
        if (!v->v[kind])
            return dg_err_fail(err, DG_E_NOMEM, "%s: out of memory in libxml2", kind_what[kind]);
        dg_xml.xmlSchemaSetValidStructuredErrors(v->v[kind], on_error, &v->fault);
    }
    memset(&v->fault, 0, sizeof v->fault);
    int r = dg_xml.xmlSchemaValidateDoc(v->v[kind], doc);
    v->n++;
    if (r == 0)
        return 0;
    if (r < 0)
        return dg_err_fail(err, DG_E_NOMEM, "%s: libxml2 could not validate it (internal error)",
                           kind_what[kind]);
    return dg_err_set(err, DG_E_PARSE, DG_EC_CONSTRAINT, 0, NULL,
                      "%s breaks its schema (%s): %s (line %d)", kind_what[kind],
                      docs_schemas_source(v->set, kind),
                      v->fault.seen ? v->fault.msg : "not valid", v->fault.line);
}

int docs_validate_doc(docs_validator *v, int kind, xmlDoc *doc, dg_err *err)
{
    int64_t t0 = dg_now_ns();
    int rc = validate(v, kind, doc, err);
    v->ns += dg_now_ns() - t0;
    return rc;
}

int docs_validate_text(docs_validator *v, int kind, const char *xml, size_t len, dg_err *err)
{
    int64_t t0 = dg_now_ns();
    if (len > INT_MAX)
        return dg_err_fail(err, DG_E_PARSE, "%s: too large (%zu bytes)", kind_what[kind], len);
    xmlParserCtxt *pc = dg_xml.xmlNewParserCtxt();
    if (!pc)
        return dg_err_fail(err, DG_E_NOMEM, "%s: out of memory in libxml2", kind_what[kind]);
    xmlDoc *doc = dg_xml.xmlCtxtReadMemory(pc, xml, (int)len, NULL, NULL,
                                           XML_PARSE_NONET | XML_PARSE_NOERROR |
                                               XML_PARSE_NOWARNING);
    bool ok = doc && pc->wellFormed && pc->nsWellFormed;
    dg_xml.xmlFreeParserCtxt(pc);
    int rc;
    if (!ok) {
        v->n++;
        rc = dg_err_set(err, DG_E_PARSE, DG_EC_CONSTRAINT, 0, NULL,
                        "%s breaks its schema: not well-formed xml", kind_what[kind]);
    } else {
        rc = validate(v, kind, doc, err);
    }
    if (doc)
        dg_xml.xmlFreeDoc(doc);
    v->ns += dg_now_ns() - t0;
    return rc;
}
