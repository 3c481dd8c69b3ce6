/*
 * gen.c - the docs workload's generators: the three TPoX document types (custacc, FIXML
 * order, security) written with libxml2's xmlTextWriter (xmlw.h), never pasted together.
 *
 * Layout:
 *   1. names: docs_nacct, symbols, sectors, industries, the word lists, and doc_rng(), the
 *      per-document generator seeded from (seed, type, id) alone
 *   2. the generators; sec_base_draw() draws the part of a security (type, name) that the
 *      positions of customers repeat, first from the security's own generator
 *
 * Amounts are integer cents, written with exactly two decimals, never in exponent form
 * ("-12.30"). Documents carry no indentation. Thread-safe: no state besides libxml2's.
 */
#include "workload/docs/docs.h"
#include "workload/docs/xml_api.h"
#include "workload/docs/xmlw.h"

#include "core/prng.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PICK(g, a) ((a)[dg_prng_range((g), 0, NELEM(a) - 1)])
#define ONE_OF(g, ...) PICK((g), ((const char *[]){__VA_ARGS__}))
#define CHANCE(g, pct) (dg_prng_range((g), 0, 99) < (pct))

/* ---- 1. names, word lists, seeding -------------------------------------------------------- */

enum { T_CUSTACC = 1, T_ORDER, T_SECURITY, T_NACCT, T_NEWACCT };

/* The generator of one document (or one per-document draw such as its account count):
 * a function of (seed, type, id) only, so any job in any order makes the same bytes. */
static void doc_rng(dg_prng *g, uint64_t seed, int type, int64_t id)
{
    uint64_t x = seed ^ (UINT64_C(0x646f637300000000) | (uint64_t)type); /* "docs" */
    uint64_t h = dg_splitmix64(&x);
    x = h ^ ((uint64_t)id * UINT64_C(0xD6E8FEB86659FD93));
    dg_prng_seed(g, dg_splitmix64(&x));
}

int docs_nacct(uint64_t seed, int64_t cust_id)
{
    docs_xml_init();
    dg_prng g;
    doc_rng(&g, seed, T_NACCT, cust_id);
    return (int)dg_prng_range(&g, 1, DOCS_MAX_GEN_ACCOUNTS);
}

/* Symbols: s + SYM_OFFSET in base 26 with digits A..Z, no leading A. The offset (26^2)
 * gives every index at least three letters; 26^5 - SYM_OFFSET indexes fit in five. */
#define SYM_OFFSET 676
#define SYM_LIMIT (11881376 - SYM_OFFSET)

void docs_symbol(int s, char out[DOCS_SYMBOL_MAX])
{
    docs_xml_init();
    out[0] = '\0';
    if (s < 0 || s >= SYM_LIMIT)
        return;
    char rev[8];
    int n = 0;
    for (uint32_t v = (uint32_t)s + SYM_OFFSET; v; v /= 26)
        rev[n++] = (char)('A' + v % 26);
    for (int i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    out[n] = '\0';
}

int docs_symbol_index(const char *sym)
{
    docs_xml_init();
    if (!sym)
        return -1;
    size_t n = strnlen(sym, 6);
    if (n < 3 || n > 5 || sym[0] == 'A') /* a leading A is a leading zero: never made */
        return -1;
    int32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (sym[i] < 'A' || sym[i] > 'Z')
            return -1;
        v = v * 26 + (sym[i] - 'A');
    }
    return v - SYM_OFFSET; /* >= 26^2 - SYM_OFFSET = 0 with three letters, no leading A */
}

static const char *const sectors[DOCS_NSECTORS] = {
    "Basic Materials", "Consumer Goods", "Energy", "Financial", "Healthcare",
    "Industrial Goods", "Services", "Technology", "Utilities", "Telecommunications",
    "Real Estate"};

const char *docs_sector(int i)
{
    docs_xml_init();
    return i >= 0 && i < DOCS_NSECTORS ? sectors[i] : NULL;
}

/* Industry i (0 .. NINDUSTRIES-1) belongs to sector i % DOCS_NSECTORS and is called
 * "<sector> <kind i / DOCS_NSECTORS>": 101 distinct names. */
#define NINDUSTRIES 101
static const char *const industry_kinds[] = {
    "Products", "Services", "Equipment", "Distribution", "Holdings", "Software",
    "Manufacturing", "Retail", "Research", "Networks"};

static void draw_industry(dg_prng *g, int sector, char *buf, size_t size)
{
    int i = sector + DOCS_NSECTORS *
                         (int)dg_prng_range(g, 0, (NINDUSTRIES - 1 - sector) / DOCS_NSECTORS);
    snprintf(buf, size, "%s %s", sectors[i % DOCS_NSECTORS], industry_kinds[i / DOCS_NSECTORS]);
}

static const char *const countries[] = {
    "United States", "Canada", "Mexico", "Brazil", "Argentina", "Chile", "United Kingdom",
    "Ireland", "France", "Germany", "Netherlands", "Belgium", "Luxembourg", "Switzerland",
    "Austria", "Italy", "Spain", "Portugal", "Denmark", "Norway", "Sweden", "Finland",
    "Iceland", "Poland", "Czech Republic", "Hungary", "Greece", "Turkey", "Israel", "Egypt",
    "South Africa", "India", "China", "Japan", "South Korea", "Singapore", "Australia",
    "New Zealand", "Thailand", "Indonesia"};
static const char *const states[] = {
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
    "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa",
    "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan",
    "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada", "New Hampshire",
    "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio",
    "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota",
    "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington", "West Virginia",
    "Wisconsin", "Wyoming"};
static const char *const cities[] = {
    "Springfield", "Riverside", "Fairview", "Madison", "Georgetown", "Franklin", "Clinton",
    "Salem", "Greenville", "Bristol", "Oakland", "Ashland", "Burlington", "Manchester",
    "Milton", "Newport", "Oxford", "Dayton", "Lexington", "Arlington", "Auburn", "Dover",
    "Hudson", "Kingston", "Marion", "Jackson", "Chester", "Winchester", "Portland", "Clayton"};
static const char *const streets[] = {
    "Main", "Oak", "Pine", "Maple", "Cedar", "Elm", "Washington", "Lake", "Hill", "Park",
    "Sunset", "Church", "River", "Mill", "Spring", "Highland", "Walnut", "Willow"};
static const char *const street_kinds[] = {"Street", "Avenue", "Road",  "Boulevard",
                                           "Lane",   "Drive",  "Court", "Way"};
static const char *const languages[] = {
    "English", "Spanish", "French", "German", "Italian", "Portuguese", "Dutch", "Swedish",
    "Japanese", "Chinese", "Hindi", "Arabic", "Russian", "Polish", "Greek", "Korean"};
static const char *const currencies[] = {"USD", "EUR", "GBP", "JPY", "CHF",
                                         "CAD", "AUD", "SEK", "NOK", "DKK"};
static const char *const first_male[] = {
    "James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas",
    "Charles", "Daniel", "Matthew", "Anthony", "Mark", "Paul", "Steven", "Andrew", "Kenneth",
    "Pedro", "Hans"};
static const char *const first_female[] = {
    "Mary", "Patricia", "Jennifer", "Linda", "Susan", "Barbara", "Elizabeth", "Jessica",
    "Sarah", "Karen", "Nancy", "Lisa", "Margaret", "Sandra", "Ashley", "Emily", "Donna",
    "Michelle", "Ingrid", "Maria"};
static const char *const syllables[] = {
    "and", "ber", "cal", "dor", "en", "fitz", "gar", "hol", "ing", "kov", "lan", "mer", "nor",
    "ols", "pet", "quin", "ros", "sten", "tor", "val", "wick", "yor", "zel", "ham", "ley",
    "son", "ton", "man"};
static const char *const email_domains[] = {"example.com", "mail.example.net",
                                            "post.example.org", "inbox.example.com",
                                            "web.example.de"};
static const char *const acct_categories[] = {"Checking", "Savings", "Brokerage",
                                              "Retirement", "Money Market", "Trust",
                                              "Custody", "Margin"};

/* Security types: index 0 is a stock (about 70 % of them), the others funds. */
static const char *const sec_types[] = {"Stock",         "Stock Fund",        "Bond Fund",
                                        "Balanced Fund", "Money Market Fund", "Index Fund"};
static const char *const name_adjectives[] = {
    "Global", "United", "American", "Pacific", "Atlantic", "First", "National", "General",
    "Advanced", "Integrated", "Northern", "Southern"};
static const char *const name_nouns[] = {
    "Energy", "Systems", "Foods", "Motors", "Pharmaceuticals", "Networks", "Materials",
    "Industries", "Technologies", "Financial", "Media", "Airlines", "Chemicals",
    "Semiconductor", "Logistics", "Properties"};
static const char *const name_suffixes[] = {"Inc.", "Corp.", "Ltd.", "Group", "Holdings",
                                            "Co.",  "PLC",   "AG",   "S.A."};
static const char *const fund_families[] = {
    "Bluewater", "Granite Peak", "Marsh & Steiner", "Harbor", "Summit", "Pioneer Trail",
    "Lighthouse", "Northstar", "Redwood", "Sterling & Hale", "Keystone", "Meridian"};
static const char *const fund_categories[] = {
    "Large Growth", "Large Value", "Large Blend", "Mid-Cap Growth", "Mid-Cap Value",
    "Small Blend", "Small Growth", "Foreign Large Blend", "World Stock", "Emerging Markets",
    "Intermediate-Term Bond", "Short-Term Bond", "High Yield Bond", "Municipal Bond",
    "Moderate Allocation", "Conservative Allocation"};
/* with characters that need escaping in text */
static const char *const blurbs[] = {
    "Trades at a P/E < 20 & pays a \"steady\" dividend.",
    "A leader in its market with 'above average' growth.",
    "Revenue > $1 billion; rated \"buy\" by analysts & brokers.",
    "Focused on long-term value for shareholders.",
    "Expanding into new markets in Asia and Europe.",
    "Low debt, strong cash flow and a conservative balance sheet.",
    "Exposure to interest rates < 2 years & credit quality AA.",
    "Managed by a team with over 20 years of experience."};
static const char *const exchanges[] = {"NYSE", "NASDAQ", "AMEX", "LSE", "TSX", "Xetra"};

/* Letters drawn uniformly from `set` (at most size-1 of them). */
static void draw_letters(dg_prng *g, const char *set, int minlen, int maxlen, char *buf,
                         size_t size)
{
    int n = (int)dg_prng_range(g, minlen, maxlen), nset = (int)strlen(set);
    if ((size_t)n >= size)
        n = (int)size - 1;
    for (int i = 0; i < n; i++)
        buf[i] = set[dg_prng_range(g, 0, nset - 1)];
    buf[n] = '\0';
}

static const char upper[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
static const char lower[] = "abcdefghijklmnopqrstuvwxyz";
static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* A surname of two or three syllables, now and then with an O' in front. */
static void draw_surname(dg_prng *g, char *buf, size_t size)
{
    size_t len = 0;
    if (dg_prng_range(g, 0, 29) == 0)
        len = (size_t)snprintf(buf, size, "O'");
    size_t start = len;
    for (int n = (int)dg_prng_range(g, 2, 3); n > 0 && len < size; n--)
        len += (size_t)snprintf(buf + len, size - len, "%s", PICK(g, syllables));
    buf[start] = (char)toupper((unsigned char)buf[start]);
}

static void draw_date(dg_prng *g, int y0, int y1, char *buf, size_t size)
{
    snprintf(buf, size, "%04d-%02d-%02d", (int)dg_prng_range(g, y0, y1),
             (int)dg_prng_range(g, 1, 12), (int)dg_prng_range(g, 1, 28));
}

static void lower_copy(char *dst, const char *src, size_t size)
{
    size_t i = 0;
    for (; src[i] && i + 1 < size; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

/* What a customer's position repeats of a security: its type and name, drawn first from
 * the security's own generator, so that a position costs a few draws, not a document. */
typedef struct sec_base {
    int type;     /* index into sec_types, 0 = Stock */
    int family;   /* funds: index into fund_families */
    int category; /* funds: index into fund_categories */
    char name[96];
} sec_base;

static void sec_base_draw(dg_prng *g, sec_base *b)
{
    int r = (int)dg_prng_range(g, 0, 99);
    b->type = r < 70 ? 0 : 1 + (r - 70) / 6;
    b->family = (int)dg_prng_range(g, 0, NELEM(fund_families) - 1);
    b->category = (int)dg_prng_range(g, 0, NELEM(fund_categories) - 1);
    char a[40], c[40];
    draw_surname(g, a, sizeof a);
    draw_surname(g, c, sizeof c);
    int pattern = (int)dg_prng_range(g, 0, 3);
    const char *adj = PICK(g, name_adjectives), *noun = PICK(g, name_nouns);
    const char *suffix = PICK(g, name_suffixes);
    if (b->type != 0)
        snprintf(b->name, sizeof b->name, "%s %s Fund", fund_families[b->family],
                 fund_categories[b->category]);
    else if (pattern == 0) /* "Procter & Gamble": the names that need escaping */
        snprintf(b->name, sizeof b->name, "%s & %s %s", a, c, suffix);
    else if (pattern == 1)
        snprintf(b->name, sizeof b->name, "%s %s %s", adj, noun, suffix);
    else if (pattern == 2)
        snprintf(b->name, sizeof b->name, "%s %s %s", a, noun, suffix);
    else
        snprintf(b->name, sizeof b->name, "%s %s %s", adj, a, suffix);
}

static void sec_base_of(uint64_t seed, int s, sec_base *b)
{
    dg_prng g;
    doc_rng(&g, seed, T_SECURITY, s);
    sec_base_draw(&g, b);
}

/* ---- 2. the generators -------------------------------------------------------------------- */

/* Each generator draws from its document's own generator (doc_rng) in document order and
 * fills the keys as it writes them. What other documents refer to is computable without
 * generating the document: a customer's account count (docs_nacct) and a security's name
 * and type (sec_base_of). */

/* One Account with its children in schema order. Holdings is written when there are
 * positions or when asked (U1's empty one); positions come from securities < nsec. */
static void write_account(wr *o, dg_prng *g, uint64_t seed, int64_t id, int64_t balance,
                          int npos, int nsec, bool empty_holdings)
{
    char buf[64];
    const char *category = PICK(g, acct_categories);
    w_start(o, "Account");
    w_attrf(o, "id", "%" PRId64, id);
    w_elem(o, "Category", category);
    draw_letters(g, upper, 3, 3, buf, sizeof buf);
    w_elemf(o, "AccountTitle", "%s Account %s", category, buf);
    draw_letters(g, upper, 4, 8, buf, sizeof buf);
    w_elem(o, "ShortTitle", buf);
    draw_letters(g, upper, 8, 8, buf, sizeof buf);
    w_elem(o, "Mnemonic", buf);
    w_elem(o, "Currency", PICK(g, currencies));
    w_elemf(o, "CurrencyMarket", "%d", (int)dg_prng_range(g, 1, 10));
    draw_date(g, 1990, 2005, buf, sizeof buf);
    w_elem(o, "OpeningDate", buf);
    draw_surname(g, buf, sizeof buf);
    w_elemf(o, "AccountOfficer", "%s %s", PICK(g, first_female), buf);
    draw_date(g, 2005, 2006, buf, sizeof buf);
    w_elem(o, "LastUpdate", buf);
    w_start(o, "Balance");
    w_money(o, "OnlineActualBal", balance);
    w_money(o, "OnlineClearedBal", balance - dg_prng_range(g, 0, 50000));
    w_money(o, "WorkingBalance", balance + dg_prng_range(g, -20000, 20000));
    w_end(o);
    w_elem(o, "Passbook", CHANCE(g, 50) ? "Yes" : "No");
    w_elem(o, "ChargeCcy", PICK(g, currencies));
    w_elem(o, "InterestCcy", PICK(g, currencies));
    w_elem(o, "AllowNetting", CHANCE(g, 50) ? "Yes" : "No");
    if (npos > 0 || empty_holdings) {
        w_start(o, "Holdings");
        for (int i = 0; i < npos; i++) {
            int s = (int)dg_prng_range(g, 0, nsec - 1);
            sec_base b;
            sec_base_of(seed, s, &b);
            docs_symbol(s, buf);
            w_start(o, "Position");
            w_elem(o, "Symbol", buf);
            w_elem(o, "Name", b.name);
            w_elem(o, "Type", sec_types[b.type]);
            w_elemf(o, "Quantity", "%d", (int)dg_prng_range(g, 1, 10000));
            w_end(o);
        }
        w_end(o);
    }
    w_end(o);
}

static void write_phone(wr *o, dg_prng *g, bool primary)
{
    w_start(o, "Phone");
    w_attr(o, "primary", primary ? "Yes" : "No");
    w_attr(o, "type", primary ? "Home" : CHANCE(g, 50) ? "Work" : "Cell");
    w_elemf(o, "CountryCode", "%d", (int)dg_prng_range(g, 1, 99));
    w_elemf(o, "AreaCode", "%03d", (int)dg_prng_range(g, 200, 999));
    w_elemf(o, "Number", "%03d-%04d", (int)dg_prng_range(g, 200, 999),
            (int)dg_prng_range(g, 0, 9999));
    w_elemf(o, "Extension", "%d", (int)dg_prng_range(g, 0, 9999));
    w_end(o);
}

/* TPoX custacc. EmailAddresses is a child of Customer beside Addresses, the two that Q3
 * copies. Accounts without positions have no Holdings (U3 makes one). */
int docs_gen_custacc(uint64_t seed, int64_t cust_id, int nsec, dg_strbuf *out,
                     docs_cust_keys *k, dg_err *err)
{
    static const char what[] = "custacc document";
    docs_xml_init();
    wr o;
    int rc = wr_open(&o, true, what, err);
    if (rc)
        return rc;
    docs_cust_keys t;
    memset(&t, 0, sizeof t);
    t.id = cust_id;
    dg_prng g;
    doc_rng(&g, seed, T_CUSTACC, cust_id);
    char buf[128], last[40], first_lc[40], last_lc[40];
    bool male = CHANCE(&g, 50);
    const char *first = male ? PICK(&g, first_male) : PICK(&g, first_female);
    draw_surname(&g, last, sizeof last);
    lower_copy(first_lc, first, sizeof first_lc);
    lower_copy(last_lc, last, sizeof last_lc);

    w_start_ns(&o, "Customer", DOCS_NS_CUSTACC);
    w_attrf(&o, "id", "%" PRId64, cust_id);
    draw_letters(&g, upper, 6, 10, buf, sizeof buf);
    w_elem(&o, "Mnemonic", buf);
    w_start(&o, "ShortNames");
    w_elemf(&o, "ShortName", "%c. %s", first[0], last);
    if (CHANCE(&g, 50))
        w_elemf(&o, "ShortName", "%s, %s", last, first);
    w_end(&o);
    w_start(&o, "Name");
    w_elem(&o, "Title", male ? ONE_OF(&g, "Mr.", "Dr.", "Prof.")
                             : ONE_OF(&g, "Mrs.", "Ms.", "Dr.", "Prof."));
    w_elem(&o, "FirstName", first);
    w_elemf(&o, "MiddleName", "%c.", upper[dg_prng_range(&g, 0, 25)]);
    w_elem(&o, "LastName", last);
    w_end(&o);
    draw_date(&g, 1930, 1988, buf, sizeof buf);
    w_elem(&o, "DateOfBirth", buf);
    w_elem(&o, "Gender", male ? "Male" : "Female");
    const char *nationality = PICK(&g, countries);
    const char *residence = CHANCE(&g, 80) ? nationality : PICK(&g, countries);
    snprintf(t.country, sizeof t.country, "%s", residence);
    w_elem(&o, "Nationality", nationality);
    w_elem(&o, "CountryOfResidence", residence);
    w_start(&o, "Languages");
    int lang0 = (int)dg_prng_range(&g, 0, NELEM(languages) - 1);
    for (int i = 0, n = (int)dg_prng_range(&g, 1, 3); i < n; i++) /* distinct: step 5 */
        w_elem(&o, "Language", languages[(lang0 + 5 * i) % NELEM(languages)]);
    w_end(&o);

    w_start(&o, "Addresses");
    for (int a = 0, n = (int)dg_prng_range(&g, 1, 2); a < n; a++) {
        w_start(&o, "Address");
        w_attr(&o, "primary", a == 0 ? "Yes" : "No");
        w_attr(&o, "type", a == 0 ? "Home" : "Work");
        w_elemf(&o, "Street", "%d %s %s", (int)dg_prng_range(&g, 1, 9999),
                PICK(&g, streets), PICK(&g, street_kinds));
        if (CHANCE(&g, 40))
            w_elemf(&o, "Street", "%s %d", CHANCE(&g, 50) ? "Apt" : "Suite",
                    (int)dg_prng_range(&g, 1, 999));
        w_elemf(&o, "POBox", "%d", (int)dg_prng_range(&g, 100, 99999));
        w_elem(&o, "City", PICK(&g, cities));
        char postal[16];
        snprintf(postal, sizeof postal, "%05d", (int)dg_prng_range(&g, 1000, 99999));
        const char *state = PICK(&g, states);
        w_elem(&o, "PostalCode", postal);
        w_elem(&o, "State", state);
        w_elem(&o, "Country", a == 0 ? residence : PICK(&g, countries));
        if (a == 0) {
            snprintf(t.postal_code, sizeof t.postal_code, "%s", postal);
            snprintf(t.state, sizeof t.state, "%s", state);
        }
        w_start(&o, "Phones");
        for (int p = 0, np = (int)dg_prng_range(&g, 1, 2); p < np; p++)
            write_phone(&o, &g, p == 0);
        w_end(&o);
        w_end(&o);
    }
    w_end(&o);
    w_start(&o, "EmailAddresses");
    for (int e = 0, n = (int)dg_prng_range(&g, 1, 2); e < n; e++) {
        w_start(&o, "Email");
        w_attr(&o, "primary", e == 0 ? "Yes" : "No");
        if (e == 0)
            snprintf(buf, sizeof buf, "%s.%s@%s", first_lc, last_lc, PICK(&g, email_domains));
        else
            snprintf(buf, sizeof buf, "%s%d@%s", last_lc, (int)dg_prng_range(&g, 1, 999),
                     PICK(&g, email_domains));
        w_text(&o, buf);
        w_end(&o);
    }
    w_end(&o);

    w_start(&o, "BankingInfo");
    draw_date(&g, 1980, 2005, buf, sizeof buf);
    w_elem(&o, "CustomerSince", buf);
    w_elem(&o, "PremiumCustomer", CHANCE(&g, 20) ? "Yes" : "No");
    w_elem(&o, "CustomerStatus", ONE_OF(&g, "Active", "Active", "Inactive", "Dormant"));
    draw_date(&g, 2004, 2006, buf, sizeof buf);
    w_elem(&o, "LastContactDate", buf);
    w_elem(&o, "ReviewFrequency",
           ONE_OF(&g, "Monthly", "Quarterly", "Semiannual", "Annual"));
    w_start(&o, "Online");
    draw_letters(&g, lower, 6, 10, buf, sizeof buf);
    w_elem(&o, "Login", buf);
    w_elemf(&o, "Pin", "%04d", (int)dg_prng_range(&g, 0, 9999));
    w_end(&o);
    w_start(&o, "Tax");
    w_elemf(&o, "SSN", "%03d-%02d-%04d", (int)dg_prng_range(&g, 100, 899),
            (int)dg_prng_range(&g, 10, 99), (int)dg_prng_range(&g, 1000, 9999));
    w_money(&o, "TaxRate", dg_prng_range(&g, 1000, 4500));
    w_end(&o);
    w_elem(&o, "Currency", PICK(&g, currencies));
    w_end(&o);

    w_start(&o, "Accounts");
    t.nacct = docs_nacct(seed, cust_id);
    for (int j = 0; j < t.nacct; j++) {
        int64_t bal = CHANCE(&g, 5) ? -dg_prng_range(&g, 1, 99999)
                                    : dg_prng_range(&g, 0, 50000000);
        t.acct[j] = docs_acct_id(cust_id, j + 1);
        t.balance_cents[j] = bal;
        t.npos[j] = nsec > 0 ? (int)dg_prng_range(&g, 0, 6) : 0;
        write_account(&o, &g, seed, t.acct[j], bal, t.npos[j], nsec, false);
    }
    w_end(&o);
    w_end(&o);
    rc = wr_done(&o, what, out, err);
    if (!rc && k)
        *k = t;
    return rc;
}

/* FIXML attributes nobody reads, filled as ToXgene fills them: a number in lo .. hi, or
 * (letters) lo .. hi random letters. */
typedef struct fill {
    const char *name;
    bool letters;
    int lo, hi;
} fill;

static const fill order_fill[] = {
    {"AcctIDSrc", 0, 1, 99},    {"AcctTyp", 0, 1, 8},      {"DayBkngInst", 0, 0, 2},
    {"BkngUnit", 0, 0, 2},      {"PreallocMeth", 0, 0, 1}, {"SettlTyp", 0, 0, 9},
    {"CshMgn", 0, 1, 3},        {"ClrFeeInd", 1, 1, 1},    {"HandlInst", 0, 1, 3},
    {"ExecInst", 1, 1, 6},      {"MinQty", 0, 1, 100},     {"MaxFloor", 0, 100, 10000},
    {"ExDest", 1, 3, 8},        {"ProcCode", 1, 1, 4},     {"LocReqd", 1, 1, 1},
    {"QtyTyp", 0, 0, 1},        {"Typ", 0, 1, 9},          {"PxTyp", 0, 1, 10},
    {"ComplianceID", 1, 6, 12}, {"IOIID", 1, 6, 12},       {"QuoteID", 1, 6, 12},
    {"TmInForce", 0, 0, 7},     {"GTBkngInst", 1, 1, 1},   {"Cpcty", 1, 1, 1},
    {"Rstctions", 1, 1, 3},     {"CustOrdCpcty", 0, 1, 4}, {"ForexReq", 1, 1, 1},
    {"Txt", 1, 10, 30}};
static const fill hdr_fill[] = {{"SID", 1, 4, 10},   {"TID", 1, 4, 10},
                                 {"SSub", 1, 4, 10}, {"PosDup", 1, 1, 1},
                                 {"PosRsnd", 1, 1, 1}, {"SeqNum", 0, 1, 999999},
                                 {"MsgEncd", 1, 4, 10}};
static const fill hop_fill[] = {{"ID", 1, 4, 10}, {"Ref", 0, 1, 9999}};
static const fill pty_fill[] = {{"ID", 1, 4, 12}, {"Src", 1, 1, 1}, {"R", 0, 1, 60}};
static const fill instrmt_fill[] = {{"Src", 0, 1, 9}, {"Exch", 1, 3, 5}, {"Desc", 1, 10, 25}};

static void w_fill(wr *o, dg_prng *g, const fill *f, int n)
{
    for (int i = 0; i < n; i++) {
        if (f[i].letters) {
            char buf[32];
            draw_letters(g, letters, f[i].lo, f[i].hi, buf, sizeof buf);
            w_attr(o, f[i].name, buf);
        } else {
            w_attrf(o, f[i].name, "%d", (int)dg_prng_range(g, f[i].lo, f[i].hi));
        }
    }
}

static void w_timestamp_attr(wr *o, dg_prng *g, const char *name, const char *date)
{
    w_attrf(o, name, "%sT%02d:%02d:%02d", date, (int)dg_prng_range(g, 0, 23),
            (int)dg_prng_range(g, 0, 59), (int)dg_prng_range(g, 0, 59));
}

/* FIXML 4.4 Order. Cash = Qty * Px; ncust and nsec below 1 count as 1. */
int docs_gen_order(uint64_t seed, int64_t order_id, int64_t ncust, int nsec, dg_strbuf *out,
                   docs_order_keys *k, dg_err *err)
{
    static const char what[] = "order document";
    docs_xml_init();
    wr o;
    int rc = wr_open(&o, true, what, err);
    if (rc)
        return rc;
    docs_order_keys t;
    memset(&t, 0, sizeof t);
    dg_prng g;
    doc_rng(&g, seed, T_ORDER, order_id);
    int64_t cust = DOCS_FIRST_CUST + dg_prng_range(&g, 0, (ncust > 1 ? ncust : 1) - 1);
    int sec = (int)dg_prng_range(&g, 0, (nsec > 1 ? nsec : 1) - 1);
    int64_t px = dg_prng_range(&g, 100, 50000);
    t.id = order_id;
    t.acct = docs_acct_id(cust, (int)dg_prng_range(&g, 1, docs_nacct(seed, cust)));
    docs_symbol(sec, t.symbol);
    t.side = CHANCE(&g, 50) ? '1' : '2';
    t.qty = dg_prng_range(&g, 1, 5000);
    t.cash_cents = t.qty * px;
    char date[16];

    w_start_ns(&o, "FIXML", DOCS_NS_ORDER);
    w_attr(&o, "v", "4.4");
    w_attr(&o, "r", "20030618");
    w_attr(&o, "s", "20040109");
    w_start(&o, "Order");
    w_attrf(&o, "ID", "%" PRId64, order_id);
    draw_date(&g, 2003, 2004, date, sizeof date);
    w_attr(&o, "OrignDt", date);
    draw_date(&g, 2004, 2005, date, sizeof date);
    w_attr(&o, "TrdDt", date);
    w_timestamp_attr(&o, &g, "TxnTm", date);
    w_attrf(&o, "Acct", "%" PRId64, t.acct);
    w_attrf(&o, "Side", "%c", t.side);
    w_money_attr(&o, "Px", px);
    w_money_attr(&o, "StopPx", px - dg_prng_range(&g, 0, px / 10));
    w_money_attr(&o, "PrevClsPx", px + dg_prng_range(&g, -200, 200));
    w_attr(&o, "Ccy", PICK(&g, currencies));
    w_attr(&o, "SettlCcy", PICK(&g, currencies));
    draw_date(&g, 2004, 2005, date, sizeof date);
    w_attr(&o, "SettlDt", date);
    draw_date(&g, 2005, 2006, date, sizeof date);
    w_attr(&o, "ExpireDt", date);
    w_fill(&o, &g, order_fill, NELEM(order_fill));
    w_start(&o, "Hdr");
    w_fill(&o, &g, hdr_fill, NELEM(hdr_fill));
    draw_date(&g, 2003, 2004, date, sizeof date);
    w_timestamp_attr(&o, &g, "Snt", date);
    for (int i = 0, n = (int)dg_prng_range(&g, 1, 3); i < n; i++) {
        w_start(&o, "Hop");
        w_fill(&o, &g, hop_fill, NELEM(hop_fill));
        w_timestamp_attr(&o, &g, "Snt", date);
        w_end(&o);
    }
    w_end(&o);
    for (int i = 0, n = (int)dg_prng_range(&g, 1, 2); i < n; i++) {
        w_start(&o, "Pty");
        w_fill(&o, &g, pty_fill, NELEM(pty_fill));
        w_end(&o);
    }
    w_start(&o, "Instrmt");
    w_attr(&o, "Sym", t.symbol);
    w_attrf(&o, "ID", "%d", sec + 1);
    w_attr(&o, "SecTyp", ONE_OF(&g, "CS", "MF", "PS", "ETF"));
    w_fill(&o, &g, instrmt_fill, NELEM(instrmt_fill));
    w_end(&o);
    w_start(&o, "OrdQty");
    w_attrf(&o, "Qty", "%" PRId64, t.qty);
    w_money_attr(&o, "Cash", t.cash_cents);
    w_attrf(&o, "RndMod", "%d", (int)dg_prng_range(&g, 1, 100));
    w_end(&o);
    w_start(&o, "Comm");
    w_money_attr(&o, "Comm", dg_prng_range(&g, 100, 5000));
    w_attrf(&o, "CommTyp", "%d", (int)dg_prng_range(&g, 1, 6));
    w_attr(&o, "Ccy", PICK(&g, currencies));
    w_end(&o);
    w_end(&o);
    w_end(&o);
    rc = wr_done(&o, what, out, err);
    if (!rc && k)
        *k = t;
    return rc;
}

/* TPoX security: a stock (StockInformation) or a fund (FundInformation), both with a
 * Sector; the industry key is a stock's Industry, a fund's Category. */
int docs_gen_security(uint64_t seed, int s, dg_strbuf *out, docs_sec_keys *k, dg_err *err)
{
    static const char what[] = "security document";
    docs_xml_init();
    wr o;
    int rc = wr_open(&o, true, what, err);
    if (rc)
        return rc;
    docs_sec_keys t;
    memset(&t, 0, sizeof t);
    dg_prng g;
    doc_rng(&g, seed, T_SECURITY, s);
    sec_base b;
    sec_base_draw(&g, &b); /* first, as sec_base_of() draws it */
    t.id = (int64_t)s + 1;
    docs_symbol(s, t.symbol);
    snprintf(t.name, sizeof t.name, "%s", b.name);
    snprintf(t.type, sizeof t.type, "%s", sec_types[b.type]);
    int sector = (int)dg_prng_range(&g, 0, DOCS_NSECTORS - 1);
    snprintf(t.sector, sizeof t.sector, "%s", sectors[sector]);
    char industry[64], buf[64];
    draw_industry(&g, sector, industry, sizeof industry);
    snprintf(t.industry, sizeof t.industry, "%s",
             b.type == 0 ? industry : fund_categories[b.category]);
    t.pe_cents = dg_prng_range(&g, 500, 3500);
    t.yield_cents = dg_prng_range(&g, 0, 800);
    t.last_cents = dg_prng_range(&g, 100, 50000);
    t.open_cents = t.last_cents + dg_prng_range(&g, -t.last_cents / 20, t.last_cents / 20);

    w_start_ns(&o, "Security", DOCS_NS_SECURITY);
    w_attrf(&o, "id", "%" PRId64, t.id);
    w_elem(&o, "Symbol", t.symbol);
    w_elem(&o, "Name", t.name);
    size_t n = 0; /* ShortName: the first word, capitals only */
    for (const char *p = b.name; *p && *p != ' ' && n < 10; p++)
        if (isalpha((unsigned char)*p))
            buf[n++] = (char)toupper((unsigned char)*p);
    buf[n] = '\0';
    w_elem(&o, "ShortName", buf);
    w_elem(&o, "SecurityType", t.type);
    w_start(&o, "SecurityInformation");
    if (b.type == 0) {
        w_start(&o, "StockInformation");
        w_elem(&o, "Sector", t.sector);
        w_elem(&o, "Industry", industry);
        w_elem(&o, "Category", ONE_OF(&g, "Large Cap", "Mid Cap", "Small Cap", "Micro Cap"));
        w_elemf(&o, "OutstandingShares", "%" PRId64, dg_prng_range(&g, 1000000, 5000000000));
        w_end(&o);
    } else {
        w_start(&o, "FundInformation");
        w_elem(&o, "FundFamily", fund_families[b.family]);
        w_elem(&o, "AssetGroup", ONE_OF(&g, "Equity", "Fixed Income", "Balanced", "Cash"));
        w_elem(&o, "Sector", t.sector);
        if (CHANCE(&g, 50))
            w_elem(&o, "Industry", industry);
        w_start(&o, "Category");
        w_attr(&o, "Capitalization", ONE_OF(&g, "Large", "Mid", "Small"));
        w_attr(&o, "Class", ONE_OF(&g, "Growth", "Value", "Blend"));
        w_text(&o, t.industry);
        w_end(&o);
        w_money(&o, "ExpenseRatio", dg_prng_range(&g, 10, 250));
        w_money(&o, "TotalAssets", dg_prng_range(&g, 100000000, INT64_C(5000000000000)));
        w_money(&o, "MinInitialInvestment", 100000 * dg_prng_range(&g, 1, 50));
        w_money(&o, "MinSubsequentInvestment", 5000 * dg_prng_range(&g, 1, 20));
        w_end(&o);
    }
    w_start(&o, "Description");
    w_elemf(&o, "Summary", "%s %s", PICK(&g, blurbs), PICK(&g, blurbs));
    w_elem(&o, "Exchange", PICK(&g, exchanges));
    w_elemf(&o, "Founded", "%d", (int)dg_prng_range(&g, 1850, 2000));
    w_elemf(&o, "Headquarters", "%s, %s", PICK(&g, cities), PICK(&g, countries));
    w_elemf(&o, "Employees", "%d", (int)dg_prng_range(&g, 50, 250000));
    w_end(&o);
    w_end(&o);

    int64_t last = t.last_cents, swing = last / 10 + 1;
    w_start(&o, "Price");
    w_money(&o, "LastTrade", last);
    w_money(&o, "Ask", last + dg_prng_range(&g, 1, 50));
    w_money(&o, "Bid", last > 50 ? last - dg_prng_range(&g, 1, 50) : last);
    w_money(&o, "Price50DayAvg", last + dg_prng_range(&g, -swing, swing));
    w_money(&o, "Price200DayAvg", last + dg_prng_range(&g, -2 * swing, 2 * swing));
    w_start(&o, "PriceToday");
    w_money(&o, "PreviousClose", t.open_cents + dg_prng_range(&g, -swing / 4, swing / 4));
    w_money(&o, "Open", t.open_cents);
    int64_t lo = last < t.open_cents ? last : t.open_cents;
    int64_t hi = last < t.open_cents ? t.open_cents : last;
    w_money(&o, "Low", lo - dg_prng_range(&g, 0, lo / 50));
    w_money(&o, "High", hi + dg_prng_range(&g, 0, hi / 50));
    w_end(&o);
    w_start(&o, "Price52week");
    w_money(&o, "Low", lo - dg_prng_range(&g, 0, lo / 2));
    w_money(&o, "High", hi + dg_prng_range(&g, 0, hi));
    w_end(&o);
    w_end(&o);
    w_money(&o, "PE", t.pe_cents);
    w_money(&o, "Yield", t.yield_cents);
    w_money(&o, "DivPerShare", last * t.yield_cents / 10000);
    w_end(&o);
    rc = wr_done(&o, what, out, err);
    if (!rc && k)
        *k = t;
    return rc;
}


void docs_write_new_account(wr *o, int64_t acct_id, int64_t balance_cents)
{
    dg_prng g;
    doc_rng(&g, 0, T_NEWACCT, acct_id);
    write_account(o, &g, 0, acct_id, balance_cents, 0, 0, true);
}
