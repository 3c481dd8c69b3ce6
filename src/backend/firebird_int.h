/*
 * firebird_int.h - what the files of the Firebird backend share: firebird.c (connections,
 * transactions, statements, the descriptor), firebird_load.c (the bulk path) and
 * firebird_info.c (statistics, server facts, table lookup). The connection and statement
 * structs, and the internal functions each file offers the others. Nothing outside
 * src/backend/firebird*.c includes it.
 */
#ifndef DG_BACKEND_FIREBIRD_INT_H
#define DG_BACKEND_FIREBIRD_INT_H

#include "backend/backend.h"

#include <ibase.h>
#include <stdbool.h>
#include <stdint.h>

#define SQL_DIALECT 3

/* Isolation levels as Firebird names them (index into the prebuilt TPBs). */
enum { FBI_READ_COMMITTED, FBI_SNAPSHOT, FBI_CONSISTENCY, FBI_N };

/* Which transaction a statement's cursor or last execution ran in. */
enum { TXK_NONE, TXK_EXPLICIT, TXK_SHARED, TXK_AUTO, TXK_LOCAL };

enum { BULK_BLOCK, BULK_INSERT };

/* Output column kinds, after coercion. */
enum { COL_INT, COL_NUMERIC, COL_DOUBLE, COL_TEXT, COL_TIMESTAMP, COL_DATE, COL_TIME, COL_BLOB,
       COL_BOOL, COL_NULL, COL_OTHER };

typedef struct fb_stmt fb_stmt;

typedef struct fb_col {
    char name[64];
    int kind;
    int scale;       /* COL_NUMERIC: digits after the point */
    short ind;       /* -1 = NULL (written by the client library) */
    char *data;      /* into fb_stmt.outbuf */
    char *text;      /* formatted date/time or blob contents: grow-only */
    size_t text_len, text_cap;
} fb_col;

/* A parameter as described by the server, kept because binding overwrites the XSQLVAR. */
typedef struct fb_param {
    short type; /* without the NULL bit */
    short subtype;
} fb_param;

struct fb_stmt {
    dg_stmt base; /* must be first */
    isc_stmt_handle h;
    int type;            /* isc_info_sql_stmt_* */
    XSQLDA *in, *out;    /* NULL when there are no parameters / columns */
    int nin, nout;
    fb_param *params;    /* [nin] */
    short *in_ind;       /* [nin] */
    ISC_QUAD *in_blob;   /* [nin] ids of blobs made for TEXT values bound to blob parameters */
    fb_col *cols;        /* [nout] */
    char *outbuf;
    bool has_blobs;      /* some output column is a blob: read at fetch */
    bool rw;             /* a SELECT that locks or writes: never in the shared read-only tx */
    bool cursor_open;
    bool pending;        /* execute2 filled a singleton row that fetch() has not returned */
    int txk;             /* TXK_*: the transaction of the open cursor / last execution */
    isc_tr_handle *txp;  /* that transaction's handle (blob reads) */
    int64_t affected;    /* -2 = not asked yet */
    fb_stmt *prev, *next; /* the connection's statements */
};

typedef struct fb_opts {
    int buffers;          /* isc_dpb_num_buffers; 0 = the server's choice */
    int set_buffers;      /* isc_dpb_set_page_buffers (written to the header); -1 = no */
    char charset[32];
    char role[64];
    int lock_timeout_s;   /* > 0 wait this long, 0 = NO WAIT, -1 = wait forever */
    int isolation;        /* FBI_*: DG_ISO_DEFAULT and implicit writes */
    int connect_timeout_s;
    bool read_shared;     /* autocommit SELECTs share one read-only transaction */
    int bulk;             /* BULK_* */
    int no_gc;            /* isc_dpb_no_garbage_collect: -1 = only for bulk sessions */
    char user[64];
    char password[128];
} fb_opts;

typedef struct fb_conn {
    dg_conn base; /* must be first */
    isc_db_handle db;
    isc_tr_handle tx;      /* explicit transaction (dg_begin) */
    isc_tr_handle ro_tx;   /* the shared read-only read-committed transaction */
    isc_tr_handle auto_tx; /* the implicit transaction of one statement */
    fb_stmt *auto_owner;   /* the statement whose open cursor keeps auto_tx open */
    fb_stmt *stmts;
    ISC_STATUS_ARRAY sv;
    fb_opts o;
    char target[1024];     /* connect string, for messages (no password in it) */
    char tpb[2][FBI_N][16]; /* [read_only][isolation] */
    short tpb_len[2][FBI_N];
    char ro_tpb[8];
    short ro_tpb_len;
    fb_stmt *q_stats, *q_info, *q_exists;
    int db_class;          /* isc_info_db_class: 14 = shared cache (SuperServer) */
    char build[128];       /* isc_info_firebird_version, e.g. "LI-V3.0.11.33637 Firebird 3.0" */
} fb_conn;

static inline fb_conn *fb_conn_of(fb_stmt *s) { return (fb_conn *)s->base.conn; }

static inline size_t fb_align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* ---- firebird.c ---- */

/* Copies a status vector into *err (NULL allowed): the messages, the primary gds code,
 * the SQLSTATE and the class. Returns DG_E_DB. */
int fb_error(const ISC_STATUS *sv, dg_err *err, const char *what);
/* Starts a transaction with a TPB into *t; 0 or DG_E_DB. */
int fb_tx_start(fb_conn *c, isc_tr_handle *t, const char *tpb, short len, dg_err *err);
/* Rolls back (or just drops) a transaction quietly and zeroes *t. */
void fb_tx_abandon(isc_tr_handle *t);
/* Closes a statement's open cursor (quietly) and forgets its transaction. */
void fb_cursor_close(fb_stmt *s);
/* Prepares sql: describes parameters and columns, coerces the columns. *out on success. */
int fb_stmt_prepare(fb_conn *c, const char *sql, fb_stmt **out, dg_err *err);
/* Frees a statement (NULL allowed), ending an implicit transaction its cursor held. */
void fb_stmt_destroy(fb_stmt *s);
/* Binds params and executes in *txp without any transaction management: opens the cursor
 * of a query or fills the singleton row of EXECUTE PROCEDURE / ... RETURNING. */
int fb_stmt_run(fb_stmt *s, const dg_value *params, isc_tr_handle *txp, int txk, dg_err *err);
/* The dg_backend operations of statements (used by firebird_info.c too). */
int fb_execute(dg_stmt *stmt, const dg_value *params, int n, dg_err *err);
int fb_fetch(dg_stmt *stmt, dg_err *err);
void fb_column(dg_stmt *stmt, int i, dg_value *out);
void fb_reset(dg_stmt *stmt);

/* ---- firebird_load.c ---- */

int fb_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                  dg_bulk **out, dg_err *err);
int fb_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err);
int fb_bulk_end(dg_bulk *bulk, bool commit, dg_err *err);

/* ---- firebird_info.c ---- */

/* Reads the database class (shared page cache or not) and the engine's version string
 * into c->db_class and c->build (-1 and "" when the server does not say). */
void fb_db_info(fb_conn *c);
int fb_stats(dg_conn *conn, dg_dbstats *out, dg_err *err);
int fb_server_info(dg_conn *conn, dg_server_info *out, dg_err *err);
void fb_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses);
int fb_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err);

#endif
