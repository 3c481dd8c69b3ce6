/*
 * docs.h - internal interface of the built-in `docs` workload: TPoX-style XML documents
 * (customer accounts, FIXML orders, securities), the 17 TPoX transactions, and the
 * insert-only test (see docs/workload-docs.md). Not used outside src/workload/docs/ and
 * its tests.
 *
 * Split by concern:
 *   xml.c    everything XML, all of it through libxml2 (documents are built with the
 *            xmlTextWriter and read with the tree parser, never pasted together): the
 *            deterministic generators of the three document types, reading a document's
 *            keys back ("shredding"), the projections the queries return, and the edits
 *            the updates make
 *   load.c   schema (document tables and their side key tables), the parallel loader,
 *            indexes after the data, docs_meta
 *   docs.c   descriptor, options, attach, terminals, the 17 transactions, metrics
 *   check.c  side keys against their documents, document counts
 *   schema.c the documents' XML Schemas and their validation (I2, U2, U4; schema.h)
 *
 * The data are a pure function of the load seed:
 *   customer i = 0 .. ncust-1 has id DOCS_FIRST_CUST + i and docs_nacct() accounts with
 *     ids docs_acct_id(cust, 1 .. nacct); U1 adds accounts with the next free number
 *     (up to DOCS_MAX_ACCOUNTS);
 *   order j = 0 .. 5*ncust-1 has id DOCS_FIRST_ORDER + j; its @Acct is an account of a
 *     loaded customer and its Instrmt/@Sym a loaded security, both drawn from (seed, id);
 *   security s = 0 .. nsec-1 has id s + 1 and the symbol docs_symbol(s).
 * Every field of a document comes from a generator seeded by (seed, type, id) alone, so
 * the same document comes out whichever job makes it, in whatever order. Documents that
 * runs insert take ids after the loaded ones.
 */
#ifndef DG_WORKLOAD_DOCS_DOCS_H
#define DG_WORKLOAD_DOCS_DOCS_H

#include "backend/backend.h"
#include "core/err.h"
#include "core/strbuf.h"
#include "workload/loader.h"
#include "workload/workload.h"

#include <pthread.h>
#include <stdatomic.h>

#include <stdbool.h>
#include <stdint.h>

#define DOCS_FIRST_CUST INT64_C(1002)     /* TPoX XXS customer ids 1002 .. 101001 */
#define DOCS_FIRST_ORDER INT64_C(103282)  /* TPoX XXS order ids 103282 .. 603281 */
#define DOCS_ORDERS_PER_CUST 5
#define DOCS_SECURITIES 20833             /* fixed at every TPoX scale */
#define DOCS_DEFAULT_CUSTOMERS INT64_C(100000) /* TPoX scale factor 1 (XXS, about 1 GB) */
#define DOCS_MAX_ACCOUNTS 99              /* account numbers 1 .. 99 per customer */
#define DOCS_MAX_GEN_ACCOUNTS 5           /* generated customers have 1 .. 5 */
#define DOCS_NSECTORS 11
#define DOCS_SYMBOL_MAX 16                /* symbol buffer, NUL included */

#define DOCS_NS_CUSTACC "http://tpox-benchmark.com/custacc"
#define DOCS_NS_ORDER "http://www.fixprotocol.org/FIXML-4-4"
#define DOCS_NS_SECURITY "http://tpox-benchmark.com/security"

/* ---- the data model (xml.c) -------------------------------------------------------------- */

/* Accounts a generated customer has (1 .. DOCS_MAX_GEN_ACCOUNTS). */
int docs_nacct(uint64_t seed, int64_t cust_id);
/* Account number k (1 .. DOCS_MAX_ACCOUNTS) of a customer: cust_id * 100 + k. */
static inline int64_t docs_acct_id(int64_t cust_id, int k) { return cust_id * 100 + k; }
static inline int64_t docs_acct_cust(int64_t acct_id) { return acct_id / 100; }
/* The unique symbol of security index s (0-based): 3 to 5 capital letters, NUL-ended. */
void docs_symbol(int s, char out[DOCS_SYMBOL_MAX]);
/* The security index of a symbol made by docs_symbol(); -1 when it is not one. */
int docs_symbol_index(const char *sym);
/* Sector name i (0 .. DOCS_NSECTORS-1): what Q4 draws its sector parameter from. */
const char *docs_sector(int i);

/* The side keys of a customer document (the custacc and custacc_account rows). */
typedef struct docs_cust_keys {
    int64_t id;                        /* Customer/@id */
    char country[48];                  /* CountryOfResidence */
    char postal_code[16];              /* primary Address/PostalCode */
    char state[48];                    /* primary Address/State */
    int nacct;
    int64_t acct[DOCS_MAX_ACCOUNTS];   /* Accounts/Account/@id, document order */
    int64_t balance_cents[DOCS_MAX_ACCOUNTS]; /* their Balance/OnlineActualBal */
    int npos[DOCS_MAX_ACCOUNTS];       /* Holdings/Position count per account */
} docs_cust_keys;

/* The side keys of an order document (the orders row). */
typedef struct docs_order_keys {
    int64_t id;                        /* Order/@ID */
    int64_t acct;                      /* Order/@Acct */
    char symbol[DOCS_SYMBOL_MAX];      /* Order/Instrmt/@Sym */
    char side;                         /* Order/@Side: '1' buy, '2' sell */
    int64_t qty;                       /* Order/OrdQty/@Qty */
    int64_t cash_cents;                /* Order/OrdQty/@Cash, 2 decimals */
} docs_order_keys;

/* The side keys of a security document (the security row) and the fields Q4 and Q6
 * return. */
typedef struct docs_sec_keys {
    int64_t id;                        /* Security/@id */
    char symbol[DOCS_SYMBOL_MAX];      /* Symbol */
    char name[96];                     /* Name */
    char type[24];                     /* SecurityType */
    char sector[48];                   /* SecurityInformation/(StockInformation|
                                          FundInformation)/Sector */
    char industry[64];                 /* .../Industry (funds: their Category) */
    int64_t pe_cents;                  /* PE, 2 decimals */
    int64_t yield_cents;               /* Yield, 2 decimals */
    int64_t open_cents;                /* Price/PriceToday/Open, 2 decimals */
    int64_t last_cents;                /* Price/LastTrade, 2 decimals */
} docs_sec_keys;

/* Generators: each writes one complete, well-formed document (an XML declaration, then
 * the root element in its namespace) to out (reset first) and its keys to *k (may be
 * NULL). The content is a pure function of the arguments. ncust: customers loaded (an
 * order's account is one of theirs); nsec: securities loaded (an order's symbol and a
 * customer's positions are theirs). 0 or DG_E_NOMEM (with err). */
int docs_gen_custacc(uint64_t seed, int64_t cust_id, int nsec, dg_strbuf *out,
                     docs_cust_keys *k, dg_err *err);
int docs_gen_order(uint64_t seed, int64_t order_id, int64_t ncust, int nsec, dg_strbuf *out,
                   docs_order_keys *k, dg_err *err);
int docs_gen_security(uint64_t seed, int s, dg_strbuf *out, docs_sec_keys *k, dg_err *err);

/* Readers: parse a document (len bytes, need not be NUL-terminated) and fill the keys
 * from it. DG_E_PARSE (with err naming what is missing or malformed) when the text is not
 * such a document. */
int docs_read_custacc(const char *xml, size_t len, docs_cust_keys *k, dg_err *err);
int docs_read_order(const char *xml, size_t len, docs_order_keys *k, dg_err *err);
int docs_read_security(const char *xml, size_t len, docs_sec_keys *k, dg_err *err);

/* Projections (queries). Each parses the document and writes a new well-formed XML
 * fragment to out (reset first); *items (may be NULL) gets what the query counts:
 *   Q3 docs_customer_profile: <Customer_Profile CUSTOMERID="id"> with Name, DateOfBirth,
 *      Gender, CountryOfResidence, Languages, Addresses, EmailAddresses copied; items = 1
 *   Q5 docs_account_summary: <Customer id="id"><Name>..</Name><Account BALANCE=".."
 *      ACCOUNT_ID=".."><Securities><Name>position name</Name>...</Securities></Account>...
 *      </Customer>; items = accounts
 * DG_E_PARSE when the document is not a customer document. */
int docs_customer_profile(const char *xml, size_t len, dg_strbuf *out, int *items, dg_err *err);
int docs_account_summary(const char *xml, size_t len, dg_strbuf *out, int *items, dg_err *err);

/* Edits (updates). Each parses the document, changes it, and writes the whole new
 * document to out (reset first). DG_E_NOTFOUND (err set) when what is to change is not
 * there (no such account, no position); DG_E_PARSE for a document that is not one.
 *   U1 docs_add_account: appends Account @id=acct_id with the usual children, an empty
 *      Holdings and Balance/OnlineActualBal = balance_cents
 *   U2 docs_close_account: removes Account @id=acct_id with its holdings
 *   U3 docs_buy_position: appends Position{Symbol, Name, Type, Quantity} to the account's
 *      Holdings (made if missing) and subtracts cost_cents from OnlineActualBal
 *   U4 docs_sell_position: the account's first position: Quantity -= qty, the Position
 *      removed when that leaves <= 0; adds proceeds_cents to OnlineActualBal;
 *      *removed (may be NULL) says whether it went
 *   U5 docs_update_order: sets OrdQty/@Qty and OrdQty/@Cash
 * U2's and U4's v (NULL: none) validates the edited document against its schema before
 * it is written (schema.h), as TPoX's U2 and U4 do
 *   U6 docs_update_price: sets Price/LastTrade and PriceToday/{Open, Low, High} (the
 *      previous LastTrade becomes PriceToday/PreviousClose) */
int docs_add_account(const char *xml, size_t len, int64_t acct_id, int64_t balance_cents,
                     dg_strbuf *out, dg_err *err);
struct docs_validator;
int docs_close_account(const char *xml, size_t len, int64_t acct_id,
                       struct docs_validator *v, dg_strbuf *out, dg_err *err);
int docs_buy_position(const char *xml, size_t len, int64_t acct_id, const docs_sec_keys *sec,
                      int64_t qty, int64_t cost_cents, dg_strbuf *out, dg_err *err);
int docs_sell_position(const char *xml, size_t len, int64_t acct_id, int64_t qty,
                       int64_t proceeds_cents, bool *removed, struct docs_validator *v,
                       dg_strbuf *out, dg_err *err);
int docs_update_order(const char *xml, size_t len, int64_t qty, int64_t cash_cents,
                      dg_strbuf *out, dg_err *err);
int docs_update_price(const char *xml, size_t len, int64_t last_cents, int64_t open_cents,
                      int64_t low_cents, int64_t high_cents, dg_strbuf *out, dg_err *err);

/* Fragments for the text-extractvalue updates, whose UpdateXML replaces one element by
 * such a text: U5 <OrdQty Qty Cash RndMod/> (rndmod: the attribute kept from the
 * document), U6 <LastTrade> and <PriceToday>{PreviousClose, Open, Low, High}. Unprefixed
 * names: in the document they take its default namespace, as the generator's do. Each
 * writes to out (reset first); 0 or DG_E_NOMEM. */
int docs_fragment_ordqty(int64_t qty, int64_t cash_cents, const char *rndmod, dg_strbuf *out,
                         dg_err *err);
int docs_fragment_price(int64_t last_cents, int64_t prev_close_cents, int64_t open_cents,
                        int64_t low_cents, int64_t high_cents, dg_strbuf *last_out,
                        dg_strbuf *today_out, dg_err *err);

/* An amount as the documents write it: an optional minus, digits, at most two decimals
 * after a point, nothing else ("-12.3" = -1230 cents). False for anything else. */
bool docs_parse_cents(const char *s, int64_t *out);

/* Calls xmlInitParser() once (thread-safe); every function above calls it. */
void docs_xml_init(void);

/* ---- the workload (load.c, docs.c, check.c) ------------------------------------------- */

/* Transaction types, in the order of dg_workload.tx (TPoX's Q1-Q7, I1-I2, D1-D2, U1-U6). */
enum {
    DOCS_Q1 = 0, DOCS_Q2, DOCS_Q3, DOCS_Q4, DOCS_Q5, DOCS_Q6, DOCS_Q7,
    DOCS_I1, DOCS_I2, DOCS_D1, DOCS_D2,
    DOCS_U1, DOCS_U2, DOCS_U3, DOCS_U4, DOCS_U5, DOCS_U6,
    DOCS_NTX
};

/* How documents are stored and queried (docs_meta.dm_storage, run.storage):
 *   DOCS_ST_SHREDDED      text, side keys; the client reads and edits documents (libxml2)
 *   DOCS_ST_XMLTYPE       the engine's xml type (PostgreSQL); side keys find documents,
 *                         SQL/XML (xpath, XMLTABLE, xmlelement) builds what the queries
 *                         return on the server
 *   DOCS_ST_EXTRACTVALUE  text (MariaDB, MySQL); side keys find documents, ExtractValue
 *                         reads values and UpdateXML changes them on the server */
enum { DOCS_ST_SHREDDED = 0, DOCS_ST_XMLTYPE, DOCS_ST_EXTRACTVALUE, DOCS_NST };
/* "shredded-keys", "xml-type", "text-extractvalue"; NULL for another value. */
const char *dg_docs_storage_name(int st);
/* The storage named s, -1 when none is. */
int dg_docs_storage_of(const char *s);

/* Document kinds, for the per-kind counters. */
enum { DOCS_CUSTACC = 0, DOCS_ORDER, DOCS_SECURITY, DOCS_NKINDS };

/* The workload's shared data. */
typedef struct dg_docs {
    int variant;            /* 0 mixed, 1 insert-only */
    int nsec;               /* securities to load (--wl-opt securities) or loaded */
    int storage;            /* DOCS_ST_*: loaded (docs_meta), or to load */
    int storage_opt;        /* --wl-opt storage: -1 native (the engine's best), or DOCS_ST_* */
    bool nsec_given;
    uint64_t seed;          /* load seed (docs_meta after attach) */
    int64_t ncust;          /* customers loaded (the orders are DOCS_ORDERS_PER_CUST times) */
    bool attached;
    /* ids that inserts take next (after the highest in the database at attach) */
    atomic_llong next_cust, next_order;
    /* the oldest document a run inserted that deletes have not taken yet */
    atomic_llong del_cust, del_order;
    /* whole run, incl. warmup, summed at term_close */
    pthread_mutex_t lock;
    uint64_t inserted[DOCS_NKINDS], deleted[DOCS_NKINDS];
    uint64_t xml_bytes_measured; /* raw XML bytes the measured phase inserted */
    uint64_t docs_measured;      /* documents the measured phase inserted */
    struct docs_schemas *schemas; /* XML Schema validation in I2, U2, U4; NULL: off */
    uint64_t validated_measured;  /* documents the measured phase validated */
    int64_t validate_ns_measured; /* the client time that took */
} dg_docs;

/* The tables, in load order (security, custacc, custacc_account, orders, docs_meta). */
extern const char *const dg_docs_tables[];

int dg_docs_load(dg_workload *wl, dg_loader *ld, dg_err *err);
/* Refuses a --wl-opt storage the engine cannot do (ops->usable). */
int dg_docs_usable(dg_workload *wl, dg_conn *conn, dg_err *err);
int dg_docs_drop(dg_workload *wl, dg_conn *conn, dg_err *err);
/* Reads docs_meta: seed, customers, securities, storage (DOCS_ST_*); found = false when
 * empty. */
int dg_docs_read_meta(dg_conn *conn, uint64_t *seed, int64_t *ncust, int *nsec, int *storage,
                      bool *found, dg_err *err);
/* The storage an engine's dialect offers natively. */
int dg_docs_native_storage(const dg_dialect *d);
int dg_docs_check(dg_workload *wl, dg_conn *conn,
                  void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err);

/* The rows of a document's side tables, as the loader, the transactions and the check
 * bind and compare them. */
void dg_docs_sec_values(const docs_sec_keys *k, const char *xml, size_t len, dg_value v[9]);
void dg_docs_order_values(const docs_order_keys *k, const char *xml, size_t len, dg_value v[6]);
void dg_docs_cust_values(const docs_cust_keys *k, const char *xml, size_t len, dg_value v[5]);

/* What a terminal's last transaction worked on, for the tests that check each
 * transaction against the generator (tests/tools/docs_tx.c). */
typedef struct docs_last {
    int64_t id;            /* the customer, order or security (sec_id) it chose */
    int64_t acct;          /* the account (U1-U4); 0 when none */
    char symbol[DOCS_SYMBOL_MAX]; /* Q2, Q6, U3: the symbol */
    const char *sector;    /* Q4 parameters */
    int64_t pemin, pemax, yield;
    int64_t qty, amount_cents; /* U3, U4, U5: quantity and money moved; U6: the new LastTrade */
    int64_t rows;          /* Q4 rows, Q5 accounts, Q3 1 when found, Q7 1 when a maximum */
    int64_t max_cash_cents; /* Q7 */
    const char *out;       /* Q3, Q5, Q6: what it built (borrowed until the next transaction) */
    size_t out_len;
    const char *doc;       /* Q1, Q2: the document read (borrowed likewise) */
    size_t doc_len;
} docs_last;
/* Fills *out from terminal state (the void * that term_open made). */
void dg_docs_term_last(void *state, docs_last *out);

#endif
