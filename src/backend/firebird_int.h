/*
 * firebird_int.h - private to the Firebird backend (firebird.c, firebird_load.c,
 * firebird_stats.c): the connection, statement and option types, and the functions one of
 * those files calls in another, all named dg_firebird_*. firebird.c holds errors,
 * connection, statements and transactions and calls into the other two only through the
 * descriptor (dg_backend_firebird); they call into firebird.c, never into each other.
 * firebird_bulkpath.c (bulk=auto's choice) is called by firebird.c's connect and
 * firebird_load.c's bulk_begin, and calls into firebird.c.
 *
 * Layout: constants; the types; small inline helpers; the functions of firebird.c, then the
 * entry points of firebird_load.c and firebird_stats.c that the descriptor names.
 */
#ifndef DG_BACKEND_FIREBIRD_INT_H
#define DG_BACKEND_FIREBIRD_INT_H

#include "backend/backend.h"
#include "backend/firebird_api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SQL_DIALECT 3
#define EXT_MAX_PATH 255 /* RDB$EXTERNAL_FILE is a VARCHAR(255) */

/* Isolation levels as Firebird names them (index into the prebuilt TPBs). */
enum { FBI_READ_COMMITTED, FBI_SNAPSHOT, FBI_CONSISTENCY, FBI_N };

/* Which transaction a statement's cursor or last execution ran in. */
enum { TXK_NONE, TXK_EXPLICIT, TXK_SHARED, TXK_AUTO, TXK_LOCAL };

enum { BULK_BLOCK, BULK_INSERT, BULK_EXTERNAL, BULK_AUTO }; /* the order of ?bulk='s values */

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
    int bulk;             /* BULK_*; -1 = not given (external when external_dir is, else auto) */
    char external_dir[EXT_MAX_PATH - 40]; /* ?external_dir=: where external files go */
    bool load_async;      /* ?load_forced_writes=off: forced writes off for a load */
    int no_gc;            /* isc_dpb_no_garbage_collect: -1 = only for bulk sessions */
    int wire_crypt;       /* WIRE_*: the client's WireCrypt; -1 = its configuration's */
    int wire_compression; /* WireCompression 1/0; -1 = the client's configuration's */
    char user[64];        /* ?user= / ?password= (the URL's own user info wins) */
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
    /* what the attach used, kept to attach again (reopen) */
    char *user, *password; /* owned; NULL when none */
    char *secret;          /* the password to scrub from messages (dg_backend_secret) */
    char *app_name;        /* owned */
    bool bulk_session;
    char tpb[2][FBI_N][16]; /* [read_only][isolation] */
    short tpb_len[2][FBI_N];
    char ro_tpb[8];
    short ro_tpb_len;
    fb_stmt *q_stats, *q_info, *q_exists, *q_wire;
    int db_class;          /* isc_info_db_class: 14 = shared cache (SuperServer) */
    char build[128];       /* isc_info_firebird_version, e.g. "LI-V3.0.11.33637 Firebird 3.0" */
    bool remote;           /* through a server (a host in the URL): connect_timeout applies */
    struct blk_cache *blks;   /* prepared bulk statements kept between loads (blk_cache) */
    int n_blks;
    struct ext_tab *ext_tabs; /* external tables of the bulk path (see ext_tab) */
    int n_ext;
    char ext_charset[32];  /* the attachment's character set, for external VARCHARs ("" = not read) */
    bool fw_restore;       /* this load turned forced writes off: on again at close */
    char bulk_why[512];    /* why the bulk path is o.bulk's ("" while bulk=auto is undecided) */
    int ext_bpc;           /* its bytes per character */
    /* Hooks the bulk code sets once it keeps state on the connection (blks, ext_tabs), so
     * that exec and close need to know nothing of it; NULL: none. exec runs load_ddl before
     * its statement (the loaders' DDL: a kept prepared statement would hold its table "in
     * use", and DROP TABLE fails); close runs load_cleanup first. */
    void (*load_ddl)(struct fb_conn *c);
    void (*load_cleanup)(struct fb_conn *c);
} fb_conn;

/* A parameter block (DPB): items with a one-byte length, checked against the buffer. */
typedef struct pblock {
    char buf[1024];
    size_t n;
    bool overflow;
} pblock;

static inline fb_conn *conn_of(fb_stmt *s) { return (fb_conn *)s->base.conn; }

static inline size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

extern const dg_backend dg_backend_firebird;


/* ---- firebird_errors.c ---------------------------------------------------------------- */

/* Whether the status vector holds gds code `code` (before any warning). */
bool dg_firebird_sv_has(const ISC_STATUS *sv, ISC_STATUS code);
/* The class of the error in sv, whose SQLSTATE is state ("" when unknown). */
dg_errclass dg_firebird_classify(const ISC_STATUS *sv, const char *state);
/* The class of a failed attach: DG_EC_CONN_LOST while the server is unreachable, starting
 * or stopping, DG_EC_USER for a wrong password or an unusable file. */
dg_errclass dg_firebird_classify_connect(const ISC_STATUS *sv, const char *state);
/* Fills err (NULL allowed) from c's status vector; see its definition. Returns DG_E_DB. */
int dg_firebird_fill_error(fb_conn *c, const char *what, const char *inflight, dg_err *err);
/* The same from a status vector alone (no password scrubbed: the caller does): for a
 * thread that must not touch the connection (the stoppable attach). */
int dg_firebird_status_error(const ISC_STATUS *sv, const char *what, const char *inflight,
                             dg_err *err);

/* ---- firebird.c: connection ----------------------------------------------------------- */

void dg_firebird_pb_str(pblock *b, char item, const char *s);
/* The wire settings (?wire_crypt, ?wire_compression) as item of a parameter block. */
void dg_firebird_pb_wire_config(pblock *b, char item, const fb_opts *o);
/* Ends a transaction that could not commit without raising anything. */
void dg_firebird_tx_abandon(isc_tr_handle *t);
/* Closes s's cursor (if open) and forgets its transaction. */
void dg_firebird_cursor_close(fb_stmt *s);
/* Starts transaction *t with parameter block tpb[len] on c. 0 or DG_E_DB. */
int dg_firebird_tx_start(fb_conn *c, isc_tr_handle *t, const char *tpb, short len, dg_err *err);
/* Reads the database class and the engine's version into c->db_class and c->build. */
void dg_firebird_read_db_info(fb_conn *c);
/* Attaches to c->target with the saved settings into *db; see its definition. */
int dg_firebird_open_session(fb_conn *c, isc_db_handle *db, dg_err *err);

/* ---- firebird.c: statements ----------------------------------------------------------- */

/* Prepares sql on c; *out (freed with dg_firebird_stmt_destroy) written on success. */
int dg_firebird_stmt_prepare(fb_conn *c, const char *sql, fb_stmt **out, dg_err *err);
/* Frees s (NULL allowed). */
void dg_firebird_stmt_destroy(fb_stmt *s);
/* Binds params and executes s in transaction *txp (kind txk); no transaction management. */
int dg_firebird_stmt_run(fb_stmt *s, const dg_value *params, isc_tr_handle *txp, int txk,
                         dg_err *err);
/* Runs a one-row query (prepared once into *cache) in a short read-only snapshot
 * transaction of its own; the row stays in (*cache)'s columns until the next call. */
int dg_firebird_query_row(fb_conn *c, fb_stmt **cache, const char *sql, const dg_value *params,
                          dg_err *err);
/* Column i of s's current row as an integer (-1 when it is not one), as text in buf. */
int64_t dg_firebird_col_int(fb_stmt *s, int i);
void dg_firebird_col_text(fb_stmt *s, int i, char *buf, size_t len);

/* ---- firebird_bulkpath.c -------------------------------------------------------------- */

/* bulk=auto: sets c->o.bulk (external or block), external_dir and bulk_why, deciding once
 * per process and database (the first caller probes; see firebird_bulkpath.c). */
void dg_firebird_bulk_auto(fb_conn *c);
/* Why c's loads take their path; "" when bulk=auto is undecided in this process. */
const char *dg_firebird_bulk_why(fb_conn *c);
/* The descriptor's bulk_path. */
void dg_firebird_bulk_path(dg_conn *conn, char *path, size_t plen, char *why, size_t wlen);

/* ---- firebird_load.c ------------------------------------------------------------------ */

int dg_firebird_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                           dg_bulk **out, dg_err *err);
int dg_firebird_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err);
int dg_firebird_bulk_end(dg_bulk *bulk, bool commit, dg_err *err);

/* ---- firebird_stats.c ----------------------------------------------------------------- */

int dg_firebird_stats(dg_conn *conn, dg_dbstats *out, dg_err *err);
int dg_firebird_server_info(dg_conn *conn, dg_server_info *out, dg_err *err);
void dg_firebird_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses);
int dg_firebird_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err);
int dg_firebird_object_stats(dg_conn *conn, const char *const *tables, dg_objstat **out, int *n,
                             dg_err *err);

#endif
