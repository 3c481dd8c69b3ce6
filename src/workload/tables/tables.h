/*
 * tables.h - internal interface of the built-in `tables` workload (the 40-table insert /
 * CPU-bound select / I/O-bound select test of the CUBRID-vs-MySQL study; see
 * docs/workload-tables.md). Not used outside src/workload/tables/ and its tests.
 *
 * Split by concern:
 *   gen.c     the data: key layout, the shape of each table (ids and rows per id), and
 *             the row generator every part shares (loader, inserts, queries, check)
 *   load.c    schema, the deterministic parallel loader, keys and indexes
 *   tables.c  descriptor, options, attach, terminals, the two transactions, metrics
 *   check.c   row counts and index lookups checked against the generator
 *
 * The data of table t (0-based; its name is tbl_(200 + t)) are a pure function of the
 * load seed: id index i = 0, 1, ... has the key 'U' + 12 digits of i * 1000 + jitter(i)
 * (jitter < 1000), so keys are random-looking but ordered like i, and the first P% of
 * the ids are the first P% of the table in key order (the hot range). Id i has
 * nseq(i) = 1..16 rows, seq = 1..nseq(i), except that the last id of a table is cut so
 * that the table holds exactly its share of --rows. Every column of row (t, i, seq) comes
 * from a generator seeded by (seed, t, i, seq) alone, so any part of the program can
 * recompute any row. Rows inserted by runs take fresh ids after the loaded ones (seq 1).
 */
#ifndef DG_WORKLOAD_TABLES_TABLES_H
#define DG_WORKLOAD_TABLES_TABLES_H

#include "backend/backend.h"
#include "stats/hist.h"
#include "workload/loader.h"
#include "workload/workload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define TABLES_DEFAULT_COUNT 40
#define TABLES_MAX_COUNT 1000
#define TABLES_FIRST_NUMBER 200   /* tbl_200 ... */
#define TABLES_MAX_SEQ 16         /* rows per id: 1..16 */
#define TABLES_IND1_LIMIT 10      /* ORDER BY col9 DESC, 10 rows */
#define TABLES_KEY_STRIDE 1000    /* key number = i * 1000 + jitter */
#define TABLES_MAX_IDS INT64_C(999999999) /* ids per table: 12 digits of key number */
#define TABLES_HOT_PCT 1.0        /* --key-range hot: the first 1% of each table's ids */
#define TABLES_COLS 15

/* Transaction types, in the order of dg_workload.tx. */
enum { TABLES_INSERT = 0, TABLES_SELECT, TABLES_NTX };

/* The three queries of a select, for the per-query latencies. */
enum { Q_PK = 0, Q_IUK, Q_IND1, TABLES_NQ };

/* One table's loaded shape. */
typedef struct dg_tables_shape {
    int64_t rows;    /* rows loaded */
    int64_t ids;     /* id indexes 0 .. ids-1 */
    int last_nseq;   /* rows of the last id (the others have dg_tables_nseq()) */
} dg_tables_shape;

/* One generated row. Text columns point into the row's own buffers or the shared pool;
 * len -1 = NULL. */
typedef struct dg_tables_row {
    char id[14];
    int64_t seq;
    char col3[17], col4[6], col5[51], col9[20], col13[2];
    int n3, n4, n5;
    const char *col6, *col7, *col8, *col14;
    int n6, n7, n8, n14;
    int64_t col10, col11, col12_cents;
} dg_tables_row;

/* The workload's shared data. */
typedef struct dg_tables {
    int ntables;
    bool ntables_given;
    double key_pct;        /* share of each table's ids that selects draw from, (0, 100] */
    char key_range[16];    /* as given: "hot", "all", "5%" */
    int variant;           /* 0 mixed, 1 insert, 2 select */
    uint64_t seed;         /* load seed (from tables_meta after attach) */
    uint64_t run_seed;
    bool attached;
    dg_tables_shape *shape; /* [ntables] */
    char **names;           /* [ntables] "tbl_200" ... */
    const char *exist_tables[3]; /* what must exist: tbl_200, tables_meta */
    atomic_llong *next_id; /* [ntables] the first id index of the next block inserts take */
    int64_t id_stride;     /* from one block to the next: ID_BLOCK, times nparts for a part
                              of a run split over processes (--part) */
    /* per-query latencies of the measured phase, merged from the terminals at close */
    pthread_mutex_t lock;
    dg_hist q[TABLES_NQ];
    bool q_ok;
    uint64_t inserted;      /* rows inserted (whole run incl. warmup) */
} dg_tables;

/* ---- gen.c ------------------------------------------------------------------------------ */

/* Rows of id i of table t (1..TABLES_MAX_SEQ), before any cut of the last id. */
int dg_tables_nseq(uint64_t seed, int table, int64_t i);
/* The shape of table t holding `rows` rows. */
void dg_tables_shape_of(uint64_t seed, int table, int64_t rows, dg_tables_shape *out);
/* Rows of id i given the table's shape (0 for an id past the loaded ones). */
int dg_tables_rows_of_id(uint64_t seed, int table, const dg_tables_shape *s, int64_t i);
/* Writes the 13-character key of id index i ("U" + 12 digits) and a NUL to out[14]. */
void dg_tables_key(uint64_t seed, int table, int64_t i, char out[14]);
/* The id index of a key (the inverse of dg_tables_key); -1 when it is not one. */
int64_t dg_tables_key_index(const char *key, size_t len);
/* Generates row (t, i, seq); with full = false only the key columns col3, col4, col5. */
void dg_tables_row_gen(uint64_t seed, int table, int64_t i, int64_t seq, bool full,
                       dg_tables_row *r);
/* The row as the loader and inserts bind it (14 values: id, seq, col3 .. col14). */
void dg_tables_row_values(const dg_tables_row *r, dg_value v[14]);
/* Column names in that order, and the 15th (col15, left to its default). */
extern const char *const dg_tables_cols[14];
/* Rows of table t's share of `total` rows over n tables. */
int64_t dg_tables_rows_share(int64_t total, int n, int table);

/* ---- load.c ------------------------------------------------------------------------------ */

int dg_tables_load(dg_workload *wl, dg_loader *ld, dg_err *err);
int dg_tables_drop(dg_workload *wl, dg_conn *conn, dg_err *err);

/* ---- check.c ----------------------------------------------------------------------------- */

int dg_tables_check(dg_workload *wl, dg_conn *conn,
                    void (*report)(void *arg, const dg_check_result *r), void *arg, dg_err *err);

/* ---- tables.c ---------------------------------------------------------------------------- */

/* Reads tables_meta: table count, rows, seed. found = false when the table is empty. */
int dg_tables_read_meta(dg_conn *conn, int *ntables, int64_t *rows, uint64_t *seed, bool *found,
                        dg_err *err);
/* The three select statements of table `name`, rendered for dialect d (caller frees). */
char *dg_tables_query_sql(const dg_dialect *d, int q, const char *name);

#endif
