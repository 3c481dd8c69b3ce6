/*
 * tpcc.h - internal interface of the built-in TPC-C workload (not used outside
 * src/workload/tpcc/ and its unit tests).
 *
 * The workload is split by concern:
 *   tpcc.c    descriptor, open/attach/drop, terminals (input generation from the
 *             terminal's generator, dispatch), keying/think times, metrics
 *   schema.c  the DDL templates (one text for every dialect), keys and indexes
 *   load.c    the deterministic parallel loader (population of Clause 4.3.3.1)
 *   txn.c     the five transaction profiles (Clause 2.4-2.8) over explicit inputs
 *   check.c   the consistency conditions (Clause 3.3.2)
 *
 * Transactions take their inputs in a struct (dg_tpcc_*_in) filled either by the
 * dg_tpcc_gen_*() functions from the terminal's generator, or by a test with fixed values;
 * results come back in a dg_tpcc_*_out. Money is carried as int64 cents and bound as
 * exact numerics (DG_V_NUMERIC); rates (tax, discount) as int64 ten-thousandths.
 */
#ifndef DG_WORKLOAD_TPCC_TPCC_H
#define DG_WORKLOAD_TPCC_TPCC_H

#include "backend/backend.h"
#include "core/prng.h"
#include "gen/tpcc_text.h"
#include "workload/loader.h"
#include "workload/workload.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- sizes of the population (Clause 4.3.3.1) -------------------------------------------- */

#define TPCC_ITEMS 100000
#define TPCC_DISTRICTS 10          /* per warehouse */
#define TPCC_CUSTOMERS 3000        /* per district */
#define TPCC_ORDERS 3000           /* per district at load */
#define TPCC_FIRST_NEW_ORDER 2101  /* orders 2101..3000 are undelivered at load */
#define TPCC_STOCK TPCC_ITEMS      /* per warehouse */
#define TPCC_MIN_OL 5
#define TPCC_MAX_OL 15
#define TPCC_UNUSED_ITEM (TPCC_ITEMS + 1) /* New-Order's "item not found" (1% rollbacks) */

/* NURand A values */
#define TPCC_A_C_LAST 255
#define TPCC_A_C_ID 1023
#define TPCC_A_OL_I_ID 8191

/* Transaction types, in the order of dg_workload.tx. */
enum {
    TPCC_NEW_ORDER = 0,
    TPCC_PAYMENT,
    TPCC_ORDER_STATUS,
    TPCC_DELIVERY,
    TPCC_STOCK_LEVEL,
    TPCC_NTX
};

/* The NURand C constants of a run. c_last_run obeys dg_tpcc_c_run_valid() against the
 * c_last_load stored at load time; c_id and c_ol_i_id are the stored load-time values. */
typedef struct dg_tpcc_consts {
    int64_t c_last_load;
    int64_t c_last_run;
    int64_t c_id;
    int64_t c_ol_i_id;
} dg_tpcc_consts;

/* ---- the workload instance ---------------------------------------------------------------- */

typedef struct dg_tpcc {
    uint64_t run_seed;
    bool keying_think;   /* --keying-think: spec keying and think times */
    bool gen_only;       /* --wl-opt gen_only=1: loader generates into a null sink (bench) */
    bool full_check;     /* --wl-opt check=full: C10/C12 at any scale */
    bool procedures;     /* --wl-opt procedures=1: transactions as stored procedures */
    dg_tpcc_consts c;    /* valid after attach() */
    bool attached;
    /* whole-run counters (warmup included), added by terminals when they close */
    atomic_ullong deliveries;       /* committed Delivery transactions */
    atomic_ullong delivery_skips;   /* districts skipped for want of a new order */
    atomic_ullong delivery_races;   /* new orders taken by a concurrent Delivery (re-read) */
} dg_tpcc;

/* ---- transaction inputs and outputs -------------------------------------------------------- */

typedef struct dg_tpcc_line_in {
    int64_t i_id;        /* TPCC_UNUSED_ITEM makes the transaction roll back */
    int64_t supply_w_id;
    int quantity;        /* 1..10 */
} dg_tpcc_line_in;

typedef struct dg_tpcc_no_in {
    int64_t w_id, d_id, c_id;
    int ol_cnt;          /* 5..15 */
    dg_tpcc_line_in line[TPCC_MAX_OL]; /* in OL_NUMBER order (line[0] is OL_NUMBER 1) */
} dg_tpcc_no_in;

typedef struct dg_tpcc_no_out {
    bool rolled_back;    /* an item was not found: the expected 1% rollback */
    int64_t o_id;
    int64_t w_tax, d_tax, c_discount; /* ten-thousandths */
    char c_last[DG_TPCC_LAST_MAX + 2];
    char c_credit[3];
    int64_t total_cents; /* sum(ol_amount) * (1 - c_discount) * (1 + w_tax + d_tax) */
    int64_t amount_cents[TPCC_MAX_OL];  /* per OL_NUMBER */
    int64_t s_quantity[TPCC_MAX_OL];    /* stock quantity after the order, per OL_NUMBER */
    char brand_generic[TPCC_MAX_OL];    /* 'B' or 'G' per OL_NUMBER */
} dg_tpcc_no_out;

typedef struct dg_tpcc_pay_in {
    int64_t w_id, d_id;
    int64_t c_w_id, c_d_id;
    bool by_name;
    int64_t c_id;        /* when !by_name */
    char c_last[DG_TPCC_LAST_MAX + 1]; /* when by_name */
    int64_t amount_cents; /* 100..500000 */
} dg_tpcc_pay_in;

typedef struct dg_tpcc_pay_out {
    int64_t c_id;        /* the customer paid for */
    int64_t c_balance_cents; /* after the payment */
    char c_credit[3];
    int name_matches;    /* customers with that last name (by_name) */
} dg_tpcc_pay_out;

typedef struct dg_tpcc_os_in {
    int64_t w_id, d_id;
    bool by_name;
    int64_t c_id;
    char c_last[DG_TPCC_LAST_MAX + 1];
} dg_tpcc_os_in;

typedef struct dg_tpcc_os_out {
    int64_t c_id;
    int64_t c_balance_cents;
    int64_t o_id;        /* the customer's newest order; 0 if none */
    int64_t o_carrier_id;/* 0 when NULL */
    int ol_count;        /* its order lines */
    int64_t ol_amount_cents; /* their sum */
} dg_tpcc_os_out;

typedef struct dg_tpcc_dl_in {
    int64_t w_id;
    int64_t carrier_id;  /* 1..10 */
} dg_tpcc_dl_in;

typedef struct dg_tpcc_dl_out {
    int64_t o_id[TPCC_DISTRICTS];  /* order delivered per district (index d-1), 0 = skipped */
    int64_t amount_cents[TPCC_DISTRICTS];
    int skipped;                   /* districts without a new order */
    int races;                     /* times a concurrent Delivery took the oldest order first */
} dg_tpcc_dl_out;

typedef struct dg_tpcc_sl_in {
    int64_t w_id, d_id;
    int threshold;       /* 10..20 */
} dg_tpcc_sl_in;

typedef struct dg_tpcc_sl_out {
    int64_t low_stock;
} dg_tpcc_sl_out;

/* ---- a terminal ------------------------------------------------------------------------------- */

typedef struct dg_tpcc_term {
    dg_conn *conn;
    dg_prng *rng;
    int64_t warehouses;
    int64_t w_id;        /* home warehouse */
    int64_t sl_d_id;     /* Stock-Level's fixed district */
    dg_tpcc_consts c;
    bool keying_think;
    bool update_returning, delete_returning; /* from the connection's dialect */

    /* New-Order */
    dg_stmt *no_wh, *no_dist_upd_ret, *no_dist_sel, *no_dist_upd, *no_cust, *no_ins_o, *no_ins_no,
        *no_item, *no_stock[TPCC_DISTRICTS], *no_stock_upd, *no_ins_ol;
    /* Payment */
    dg_stmt *pay_wh_upd, *pay_wh_sel, *pay_d_upd, *pay_d_sel, *cust_by_name, *pay_cust_sel,
        *pay_cust_data, *pay_cust_upd, *pay_cust_upd_bc, *pay_ins_h;
    /* Order-Status */
    dg_stmt *os_cust, *os_order, *os_lines;
    /* Delivery */
    dg_stmt *dl_no_del_ret, *dl_no_min, *dl_no_first, *dl_no_del, *dl_o_upd_ret, *dl_o_sel,
        *dl_o_upd, *dl_ol_upd, *dl_ol_sum, *dl_c_upd;
    /* Stock-Level */
    dg_stmt *sl_dist, *sl_count;
    /* procedures mode (procs.c): one CALL per transaction type, in TPCC_* order */
    bool procs;
    bool pg_arrays;      /* New-Order's line lists as array literals ({1,2}), else 1,2 */
    bool client_tx;      /* the client begins and ends each procedure's transaction */
    dg_stmt *pr[TPCC_NTX];

    /* grow-only scratch */
    int64_t *ids;        /* customer ids of a last-name lookup */
    int ids_cap;
    char c_data[512];

    /* counters added to the workload's totals at close */
    uint64_t deliveries, delivery_skips, delivery_races;
    dg_tpcc *owner;      /* NULL in unit tests */
} dg_tpcc_term;

/* Prepares every statement on conn (in the shapes conn's dialect supports) into *t,
 * which the caller zero-initialised; the caller also sets rng, warehouses, w_id, sl_d_id,
 * c and keying_think (not used here). 0 or an error; on error nothing stays prepared.
 * The statements belong to t until dg_tpcc_term_fini(). */
int dg_tpcc_term_init(dg_tpcc_term *t, dg_conn *conn, dg_err *err);
/* Frees the statements and scratch (the struct itself is the caller's). */
void dg_tpcc_term_fini(dg_tpcc_term *t);

/* Input generation (Clause 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1) from t->rng. */
void dg_tpcc_gen_new_order(dg_tpcc_term *t, dg_tpcc_no_in *in);
void dg_tpcc_gen_payment(dg_tpcc_term *t, dg_tpcc_pay_in *in);
void dg_tpcc_gen_order_status(dg_tpcc_term *t, dg_tpcc_os_in *in);
void dg_tpcc_gen_delivery(dg_tpcc_term *t, dg_tpcc_dl_in *in);
void dg_tpcc_gen_stock_level(dg_tpcc_term *t, dg_tpcc_sl_in *in);

/* How each profile begins its transaction (by TPCC_* type): writes as writes, Order-Status
 * read-only, Stock-Level read-only at READ COMMITTED. */
extern const dg_txopts *const dg_tpcc_tx_opts[TPCC_NTX];

/* New-Order's lines in the order their stock rows are locked: by (supply warehouse,
 * item), so that concurrent New-Orders do not deadlock; idx[k] is the k-th line's index
 * in in->line (its OL_NUMBER - 1). */
void dg_tpcc_line_order(const dg_tpcc_no_in *in, int idx[TPCC_MAX_OL]);

/* The five transactions, each a whole database transaction (begin ... commit). They
 * return 0 when it committed (or, for New-Order, when it rolled back on purpose:
 * out->rolled_back) or an error with the transaction possibly still open (the caller
 * rolls back, as the runner does). Statements are left reset. */
int dg_tpcc_new_order(dg_tpcc_term *t, const dg_tpcc_no_in *in, dg_tpcc_no_out *out, dg_err *err);
int dg_tpcc_payment(dg_tpcc_term *t, const dg_tpcc_pay_in *in, dg_tpcc_pay_out *out, dg_err *err);
int dg_tpcc_order_status(dg_tpcc_term *t, const dg_tpcc_os_in *in, dg_tpcc_os_out *out,
                         dg_err *err);
int dg_tpcc_delivery(dg_tpcc_term *t, const dg_tpcc_dl_in *in, dg_tpcc_dl_out *out, dg_err *err);
int dg_tpcc_stock_level(dg_tpcc_term *t, const dg_tpcc_sl_in *in, dg_tpcc_sl_out *out,
                        dg_err *err);

/* ---- the transactions as stored procedures (procs.c) ------------------------------------------ */

/* True when dbgauge has the procedures in d's language (dialect proc_style). */
bool dg_tpcc_procs_available(const dg_dialect *d);
/* Drops any and creates the five procedures on conn. 0 or an error (DG_E_INVAL where the
 * dialect has none: the message names the databases that have them). */
int dg_tpcc_procs_install(dg_conn *conn, dg_err *err);
/* Drops them (nothing where the dialect has none). */
int dg_tpcc_procs_drop(dg_conn *conn, dg_err *err);
/* Prepares the five CALLs into *t (zero-initialised, as for dg_tpcc_term_init); freed by
 * dg_tpcc_term_fini. */
int dg_tpcc_procs_term_init(dg_tpcc_term *t, dg_conn *conn, dg_err *err);
/* The five transactions through their procedures: the same inputs as above, one round
 * trip, the transaction begun and ended by the procedure. They fill only the outputs the
 * procedures hand back: New-Order's rolled_back and o_id, Payment's c_id and c_credit,
 * Order-Status's c_id, o_id and ol_count, Delivery's skipped and races, Stock-Level's
 * low_stock. */
int dg_tpcc_proc_new_order(dg_tpcc_term *t, const dg_tpcc_no_in *in, dg_tpcc_no_out *out,
                           dg_err *err);
int dg_tpcc_proc_payment(dg_tpcc_term *t, const dg_tpcc_pay_in *in, dg_tpcc_pay_out *out,
                         dg_err *err);
int dg_tpcc_proc_order_status(dg_tpcc_term *t, const dg_tpcc_os_in *in, dg_tpcc_os_out *out,
                              dg_err *err);
int dg_tpcc_proc_delivery(dg_tpcc_term *t, const dg_tpcc_dl_in *in, dg_tpcc_dl_out *out,
                          dg_err *err);
int dg_tpcc_proc_stock_level(dg_tpcc_term *t, const dg_tpcc_sl_in *in, dg_tpcc_sl_out *out,
                             dg_err *err);

/* 0-based index of the customer chosen among n namesakes sorted by C_FIRST: the one at
 * position ceil(n/2) counted from 1 (2.5.2.2). n >= 1. */
static inline int dg_tpcc_name_index(int n)
{
    return (n + 1) / 2 - 1;
}

/* A numeric column value (any dg_value type: INT, DOUBLE, NUMERIC, TEXT) as an integer
 * scaled by 10^scale, rounded to nearest. False for NULL or unparsable text. */
bool dg_tpcc_scaled(const dg_value *v, int scale, int64_t *out);

/* ---- schema ------------------------------------------------------------------------------------ */

/* Table names, NULL-terminated (for existence checks and drop). */
extern const char *const dg_tpcc_tables[];

/* Creates the tables (no keys) on conn, rendered for its dialect. */
int dg_tpcc_create_tables(dg_conn *conn, dg_err *err);
/* Adds the primary keys and the two secondary indexes; when ld is not NULL each is a timed
 * loader step named "index NAME", run on ld->conn (conn is then ignored). */
int dg_tpcc_create_indexes(dg_conn *conn, dg_loader *ld, dg_err *err);

/* ---- loader and check ---------------------------------------------------------------------------- */

/* ops->load: tables, data (parallel per warehouse), tpcc_meta, keys, indexes, ANALYZE. */
int dg_tpcc_load(dg_workload *wl, dg_loader *ld, dg_err *err);

/* Seeds g for one load unit from (seed, table, warehouse, district) alone, so the data do
 * not depend on how units are spread over jobs. */
void dg_tpcc_unit_rng(dg_prng *g, uint64_t seed, int table, int64_t w, int64_t d);

/* The load-time constants a load with this seed stores in tpcc_meta (c_last_run unset). */
void dg_tpcc_load_consts(uint64_t seed, dg_tpcc_consts *c);

/* ops->check: the consistency conditions. */
int dg_tpcc_check(dg_workload *wl, dg_conn *conn,
                  void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err);

#endif
