/*
 * firebird.c - the Firebird backend (libfbclient, the legacy ISC C API of ibase.h).
 *
 * Why the ISC API: it is plain C and stable since InterBase; Firebird 3's OO API is C++
 * only (firebird/Interface.h), and its one feature we would miss, the batch interface,
 * arrives in Firebird 4 anyway.
 *
 * URLs: firebird://user:pass@host:port//abs/path.fdb (connect string "host/port:/abs/
 * path.fdb"), firebird://host/alias, and firebird:PATH, where PATH goes to Firebird as
 * written: a bare file path opens the database in-process (embedded engine), while
 * "localhost:/path" still goes through a server. User and password come from the URL,
 * then ?user= / ?password=, then ISC_USER / ISC_PASSWORD. Parameters (URL or --conn): the
 * table backend_options at the end (`dbgauge list` prints it; anything else is refused).
 *
 * Transactions: every Firebird statement runs in a transaction, so without dg_begin
 *   - a SELECT runs in one long-lived READ COMMITTED READ ONLY transaction per
 *     connection ("shared read transaction"): Firebird starts such transactions
 *     pre-committed, so keeping it open holds back neither garbage collection nor the
 *     oldest-snapshot marker, and each statement sees what is committed when it reads
 *     (?read_tx=statement gives every SELECT its own transaction instead);
 *   - anything else runs in an implicit read-write transaction (default isolation)
 *     committed right after it, or, for a cursor that needs one (SELECT ... WITH LOCK),
 *     when the cursor is exhausted, reset or re-executed.
 * An explicit transaction uses the isolation asked for (DEFAULT = ?isolation, itself
 * READ COMMITTED RECORD_VERSION by default), always WAIT (without a time limit unless
 * ?lock_timeout=N; see DEFAULT_LOCK_TIMEOUT_S).
 *
 * Errors: the whole status vector is walked (classify); a connection lost while a COMMIT
 * was in flight, explicit or the one that ends an implicit transaction, is reported with
 * SQLSTATE 08007 and outcome_unknown: the server may have committed it. Messages never
 * carry the password (scrubbed). The monitor connection (stats, server_info,
 * table_exists) attaches again after a server restart (dg_backend_with_reconnect).
 *
 * Values: parameters are bound in place (XSQLVAR.sqldata points into the caller's
 * dg_value): INT as SQL_INT64, DOUBLE as SQL_DOUBLE, NUMERIC as SQL_INT64 with a negative
 * scale, TEXT as SQL_TEXT (the server converts to the column type) or as a new blob when
 * the parameter is a blob. Output columns are coerced at prepare time: integers and
 * scaled integers to SQL_INT64, floats to SQL_DOUBLE, CHAR/VARCHAR to SQL_VARYING;
 * date/time values are formatted as text on demand, blobs read at fetch time into a
 * grow-only buffer per column. Column names without lower-case letters (unquoted
 * identifiers, stored upper-case) are returned in lower case.
 *
 * Bulk load: Firebird 3 has no COPY, no multi-row VALUES and no batch API (IBatch is
 * Firebird 4), so rows travel in EXECUTE BLOCK statements: one prepared block takes
 * per_block rows as parameters typed like the target columns (TYPE OF COLUMN) and inserts
 * them with one round trip; per_block keeps the message and the statement text under
 * Firebird's 64 KB limits; its last parameter is the row count, so the last, partial
 * block of a unit goes through it too. A connection keeps its blocks between units
 * (blk_cache): preparing one costs as much as sending thousands of rows. Measured on
 * tpcb and tpcc loads: 3 to 7 times the rows per second of a prepared one-row INSERT
 * (?bulk=insert, kept for comparison). The load runs in its own SNAPSHOT transaction,
 * committed every BULK_COMMIT_ROWS rows so that no transaction grows without bound.
 * With ?external_dir=DIR (a directory the server, on this machine, may read external
 * files from) the rows go instead to a file of fixed-length records (backend/fbext.h)
 * that the server copies with one INSERT ... SELECT from an external table made over
 * it: no message to parse, no PSQL per row (see "bulk load: external files").
 *
 * Statistics: dg_fb.isc_database_info (the database class: a page cache shared by all
 * attachments in SuperServer, one per attachment in Classic and SuperClassic; the
 * engine's version; an attachment's own page fetches and reads), and the MON$ tables,
 * read in a short read-only snapshot transaction of their own because Firebird takes a
 * MON$ snapshot once per transaction: MON$DATABASE (size = MON$PAGES * MON$PAGE_SIZE,
 * page buffers, forced writes, ODS, sweep interval, owner, transaction markers),
 * MON$IO_STATS of the database (MON$STAT_GROUP 0 via MON$STAT_ID: fetches, reads,
 * writes) and MON$ATTACHMENTS. Firebird keeps no counter of commits (MON$NEXT_TRANSACTION
 * counts started transactions, dbgauge's own read and statistics transactions
 * included), so commits and rollbacks are -1. The MON$ rows cover the whole database
 * only for the owner, SYSDBA and RDB$ADMIN; a plain user sees its own attachment.
 *
 * Layout (the order of every backend): errors; connection (settings, parameter blocks,
 * the connection's transaction handles, attach, reconnect for the monitor); statements
 * (prepare, bind, execute, fetch, columns, exec); transactions; bulk load; statistics
 * and server facts; the descriptor.
 */
#include "backend/backend.h"
#include "backend/dialect.h"
#include "backend/fbext.h"
#include "backend/firebird_api.h"

#include "core/hot.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SQL_DIALECT 3
/* Wait for row locks without a time limit (Firebird's own default). Firebird 3's lock
 * manager leaves waits that have a timeout out of its deadlock search: with ?lock_timeout=N
 * both transactions of a deadlock wait N seconds and both fail, while without one the
 * lock manager picks a single victim (after DeadlockTimeout, 10 s by default). */
#define DEFAULT_LOCK_TIMEOUT_S (-1)
#define DEFAULT_CONNECT_TIMEOUT_S 10
#define MAX_TEXT_PARAM 32767      /* XSQLVAR.sqllen is a short */

#define BULK_COMMIT_ROWS 50000
#define BULK_MAX_BLOCK_ROWS 256  /* rows per EXECUTE BLOCK */
#define BULK_MAX_MSG_BYTES 60000 /* Firebird 3 caps a message at 64 KB */
#define BULK_MAX_SQL_BYTES 60000 /* and a statement's text at 64 KB */
/* External path: the server reads one file per slice (one CREATE TABLE ... EXTERNAL FILE,
 * INSERT ... SELECT, commit, DROP TABLE); a slice is a unit of the loader, or this many
 * rows of a larger one, whichever ends first. */
#define EXT_SLICE_ROWS 500000
#define EXT_MAX_PATH 255 /* RDB$EXTERNAL_FILE is a VARCHAR(255) */

/* Isolation levels as Firebird names them (index into the prebuilt TPBs). */
enum { FBI_READ_COMMITTED, FBI_SNAPSHOT, FBI_CONSISTENCY, FBI_N };

/* Which transaction a statement's cursor or last execution ran in. */
enum { TXK_NONE, TXK_EXPLICIT, TXK_SHARED, TXK_AUTO, TXK_LOCAL };

enum { BULK_BLOCK, BULK_INSERT, BULK_EXTERNAL };

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
    int bulk;             /* BULK_*; -1 = not given (external when external_dir is) */
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
    int ext_bpc;           /* its bytes per character */
} fb_conn;

/* Preparing an EXECUTE BLOCK of 256 INSERTs takes the server tens of milliseconds, as long
 * as sending thousands of rows through it; a loader runs dozens of units per table on the
 * same connections, so a connection keeps the one-row INSERT and the block of each table
 * and column list it loaded. They are freed before any statement run through dg_exec (a
 * loader's DDL: dropping, altering the tables, which prepared statements would hold "in
 * use") and at close. */
typedef struct blk_cache {
    char *key; /* "table(col,col,...)" */
    fb_stmt *ins, *blk;
    int per;
    bool busy;
} blk_cache;

static inline fb_conn *conn_of(fb_stmt *s) { return (fb_conn *)s->base.conn; }

static inline size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

typedef struct fb_bulk {
    dg_bulk base; /* must be first */
    isc_tr_handle tx;
    fb_stmt *ins;  /* one-row INSERT */
    fb_stmt *blk;  /* EXECUTE BLOCK of up to per_block rows; NULL in insert mode */
    int cached;    /* ins and blk belong to the connection's blk_cache[cached]; -1: to this load */
    int ncols, per_block, nbuf;
    dg_value *vals;   /* [per_block * ncols + 1] buffered rows, then the row count; text in `text` */
    size_t *text_off; /* [per_block * ncols] */
    char *text;
    size_t text_len, text_cap;
    uint64_t in_tx_rows;
    /* external path (ext != NULL): rows go to the file at path; see ext_flush */
    dg_fbx_col *ext;  /* [ncols] */
    int *ext_order;   /* [ncols] declaration order */
    unsigned char *rec;
    size_t rec_bytes;
    FILE *f;
    int tab;             /* index of the connection's ext_tab in use */
    char *table, **cols; /* copies, for the INSERT ... SELECT */
} fb_bulk;

extern const dg_backend dg_backend_firebird;

static void stmt_destroy(fb_stmt *s);

/* ---- errors ------------------------------------------------------------------------------ */

static bool sv_has(const ISC_STATUS *sv, ISC_STATUS code)
{
    for (const ISC_STATUS *p = sv; *p != isc_arg_end;) {
        if (*p == isc_arg_warning)
            break;
        if (*p == isc_arg_gds) {
            if (p[1] == code)
                return true;
            p += 2;
        } else if (*p == isc_arg_cstring) {
            p += 3;
        } else {
            p += 2;
        }
    }
    return false;
}

/* The server could not be reached or went away (as opposed to refusing us). */
static bool sv_unreachable(const ISC_STATUS *sv)
{
    static const ISC_STATUS codes[] = {isc_network_error, isc_net_read_err, isc_net_write_err,
                                       isc_net_connect_err, isc_net_server_shutdown,
                                       isc_lost_db_connection, isc_conn_lost, isc_shutdown,
                                       isc_att_shutdown, isc_unavailable};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (sv_has(sv, codes[i]))
            return true;
    return false;
}

/* A failed attach: worth reconnecting to while the server is down, starting or stopping
 * (a server shutting down may also fail the login itself: "Error occurred during login",
 * SQLSTATE 08006), not when the password is wrong or the file missing or unusable (which
 * is SQLSTATE 08001 too). */
static dg_errclass classify_connect(const ISC_STATUS *sv, const char *state)
{
    static const ISC_STATUS config[] = {isc_login, isc_io_error, isc_bad_db_format, isc_wrong_ods,
                                        isc_no_priv, isc_read_only_database};
    for (size_t i = 0; i < sizeof config / sizeof config[0]; i++)
        if (sv_has(sv, config[i]))
            return DG_EC_USER;
    if (sv_unreachable(sv) || !strncmp(state, "08", 2))
        return DG_EC_CONN_LOST;
    return DG_EC_USER;
}

static dg_errclass classify(const ISC_STATUS *sv, const char *state)
{
    bool lost = false, retry = false, constraint = false, user = false;
    for (const ISC_STATUS *p = sv; *p != isc_arg_end;) {
        if (*p == isc_arg_warning)
            break;
        if (*p == isc_arg_cstring) {
            p += 3;
            continue;
        }
        if (*p != isc_arg_gds) {
            p += 2;
            continue;
        }
        ISC_STATUS code = p[1];
        p += 2;
        /* Firebird 3 raises "cannot update erased record" (isc_random, message 188 of
         * vio.cpp's prepare_update) when a READ COMMITTED transaction updates or deletes a
         * row that a concurrent transaction deleted and committed: a lost race, like an
         * update conflict (Firebird 4 restarts the statement instead). */
        if (code == isc_random && p[0] == isc_arg_string && p[1] &&
            !strcmp((const char *)p[1], "cannot update erased record"))
            retry = true;
        switch (code) {
        case isc_network_error:
        case isc_net_read_err:
        case isc_net_write_err:
        case isc_net_connect_err:
        case isc_net_connect_listen_err:
        case isc_net_server_shutdown:
        case isc_lost_db_connection:
        case isc_conn_lost:
        case isc_shutdown:
        case isc_att_shutdown:
        case isc_unavailable:
        case isc_bad_db_handle:
            lost = true;
            break;
        case isc_deadlock:
        case isc_update_conflict:
        case isc_lock_conflict:
        case isc_lock_timeout:
        case isc_record_lock:
        case isc_concurrent_transaction:
        /* a locking read (WITH LOCK) whose record a concurrent transaction changed or
         * deleted between the read and the lock: a conflict like the ones above (seen in
         * tpcc on SuperClassic and Classic, where attachments interleave more) */
        case isc_no_cur_rec:
            retry = true;
            break;
        case isc_unique_key_violation:
        case isc_foreign_key:
        case isc_not_valid:
        case isc_no_dup:
        case isc_check_constraint:
        case isc_primary_key_notnull:
        case isc_foreign_key_target_doesnt_exist:
        case isc_foreign_key_references_present:
            constraint = true;
            break;
        case isc_login:
        case isc_login_error:
        case isc_no_priv:
        case isc_sqlerr:
        case isc_dsql_error:
        case isc_read_only_trans:
        case isc_string_truncation:
        case isc_convert_error:
        case isc_arith_except:
        case isc_sing_select_err:
            user = true;
            break;
        default:
            /* the DSQL facilities (336003xxx, 336397xxx): statement errors */
            if ((code >= 336003072L && code < 336003328L) || (code >= 336396800L && code < 336397312L))
                user = true;
            break;
        }
    }
    if (lost || !strncmp(state, "08", 2))
        return DG_EC_CONN_LOST;
    if (retry || !strcmp(state, "40001"))
        return DG_EC_RETRY;
    if (constraint || !strncmp(state, "23", 2))
        return DG_EC_CONSTRAINT;
    if (user || !strncmp(state, "42", 2) || !strncmp(state, "22", 2) || !strncmp(state, "07", 2) ||
        !strncmp(state, "21", 2) || !strncmp(state, "28", 2) || !strncmp(state, "0A", 2))
        return DG_EC_USER;
    return DG_EC_FATAL;
}

/* Fills err (NULL allowed) from c's status vector: all messages joined with "; " (without
 * the ever-changing "concurrent transaction number is N", so that error kinds stay
 * countable), the primary gds code, the SQLSTATE and the class; `what` (NULL: none)
 * prefixes the message. `inflight`: non-NULL ("COMMIT", "statement") when a commit was
 * in flight: a connection lost then leaves the outcome unknown (SQLSTATE 08007). The
 * password is scrubbed. Returns DG_E_DB. */
static int fill_error(fb_conn *c, const char *what, const char *inflight, dg_err *err)
{
    if (!err)
        return DG_E_DB;
    const ISC_STATUS *sv = c->sv;
    char msg[DG_ERR_MSG_MAX];
    size_t n = 0;
    msg[0] = '\0';
    const ISC_STATUS *pv = sv;
    char part[512];
    for (;;) {
        bool skip = pv[0] == isc_arg_gds && pv[1] == isc_concurrent_transaction;
        if (dg_fb.fb_interpret(part, sizeof part, &pv) <= 0)
            break;
        size_t pl = strlen(part);
        while (pl > 0 && (part[pl - 1] == '.' || part[pl - 1] == ' '))
            part[--pl] = '\0'; /* messages end without a period here */
        if (skip || !part[0])
            continue;
        int w = snprintf(msg + n, sizeof msg - n, "%s%s", n ? "; " : "", part);
        if (w < 0 || (size_t)w >= sizeof msg - n)
            break;
        n += (size_t)w;
    }
    if (!msg[0])
        snprintf(msg, sizeof msg, "unknown Firebird error");
    char state[6] = "";
    dg_fb.fb_sqlstate(state, sv);
    int code = (int)sv[1];
    dg_errclass cls = classify(sv, state);
    if (cls == DG_EC_CONN_LOST && inflight) {
        /* the server's own SQLSTATE stays in the message */
        dg_err_set(err, DG_E_DB, cls, code, "08007",
                   "connection lost during %s, its outcome is unknown: %s%s%s%s", inflight, msg,
                   state[0] ? " (" : "", state, state[0] ? ")" : "");
        err->outcome_unknown = true;
    } else if (what) {
        dg_err_set(err, DG_E_DB, cls, code, state, "%s: %s", what, msg);
    } else {
        dg_err_set(err, DG_E_DB, cls, code, state, "%s", msg);
    }
    dg_backend_scrub(err, c->secret);
    return DG_E_DB;
}

/* ---- connection ------------------------------------------------------------------------- */

/* Isolation per spelling of ?isolation= (the enum values of backend_options, in order). */
static const int isolation_of[] = {FBI_READ_COMMITTED, FBI_READ_COMMITTED, FBI_SNAPSHOT,
                                   FBI_SNAPSHOT,       FBI_SNAPSHOT,       FBI_CONSISTENCY,
                                   FBI_CONSISTENCY};

static void copy_text(char *dst, size_t cap, const char *value)
{
    snprintf(dst, cap, "%s", value); /* checked against the table's length limit */
}

/* One URL parameter or --conn setting, checked against backend_options first. */
static int apply_option(fb_opts *o, const char *name, const char *value, dg_err *err)
{
    int rc = dg_backend_option_check(&dg_backend_firebird, name, value, err);
    if (rc)
        return rc;
    const dg_backend_option *opt = dg_backend_option_find(&dg_backend_firebird, name);
    int v = !strcmp(opt->type, "int") ? (int)strtol(value, NULL, 10) : 0;
    if (!strcmp(name, "buffers"))
        o->buffers = v;
    else if (!strcmp(name, "set_buffers"))
        o->set_buffers = v;
    else if (!strcmp(name, "lock_timeout"))
        o->lock_timeout_s = v;
    else if (!strcmp(name, "connect_timeout"))
        o->connect_timeout_s = v;
    else if (!strcmp(name, "no_gc"))
        o->no_gc = dg_backend_option_bool(value);
    else if (!strcmp(name, "charset") || !strcmp(name, "lc_ctype"))
        copy_text(o->charset, sizeof o->charset, value);
    else if (!strcmp(name, "role"))
        copy_text(o->role, sizeof o->role, value);
    else if (!strcmp(name, "user"))
        copy_text(o->user, sizeof o->user, value);
    else if (!strcmp(name, "password"))
        copy_text(o->password, sizeof o->password, value);
    else if (!strcmp(name, "isolation"))
        o->isolation = isolation_of[dg_backend_option_enum(opt, value)];
    else if (!strcmp(name, "read_tx"))
        o->read_shared = dg_backend_option_enum(opt, value) == 0;
    else if (!strcmp(name, "bulk"))
        o->bulk = dg_backend_option_enum(opt, value); /* block|insert|external: BULK_* order */
    else if (!strcmp(name, "external_dir"))
        copy_text(o->external_dir, sizeof o->external_dir, value);
    else if (!strcmp(name, "load_forced_writes"))
        o->load_async = dg_backend_option_enum(opt, value) == 1;
    else if (!strcmp(name, "wire_crypt"))
        o->wire_crypt = dg_backend_option_enum(opt, value); /* WIRE_* order */
    else if (!strcmp(name, "wire_compression"))
        o->wire_compression = dg_backend_option_bool(value);
    else
        return dg_err_fail(err, DG_E_INVAL, "Firebird setting '%s' is in the table but not handled",
                           name);
    return 0;
}

/* A parameter block (DPB): items with a one-byte length, checked against the buffer. */
typedef struct pblock {
    char buf[1024];
    size_t n;
    bool overflow;
} pblock;

static void pb_bytes(pblock *b, char item, const void *p, size_t len)
{
    if (len > 255 || b->n + 2 + len > sizeof b->buf) {
        b->overflow = true;
        return;
    }
    b->buf[b->n++] = item;
    b->buf[b->n++] = (char)len;
    memcpy(b->buf + b->n, p, len);
    b->n += len;
}

static void pb_str(pblock *b, char item, const char *s)
{
    pb_bytes(b, item, s, strlen(s));
}

/* Parameter-block integers are little-endian. */
static void pb_int(pblock *b, char item, int32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24)};
    pb_bytes(b, item, le, 4);
}

static short build_tpb(char *out, bool write, int iso, int lock_timeout_s)
{
    short n = 0;
    out[n++] = isc_tpb_version3;
    out[n++] = write ? isc_tpb_write : isc_tpb_read;
    switch (iso) {
    case FBI_READ_COMMITTED:
        out[n++] = isc_tpb_read_committed;
        out[n++] = isc_tpb_rec_version;
        break;
    case FBI_SNAPSHOT:
        out[n++] = isc_tpb_concurrency;
        break;
    default:
        out[n++] = isc_tpb_consistency;
        break;
    }
    if (lock_timeout_s == 0) {
        out[n++] = isc_tpb_nowait;
    } else {
        out[n++] = isc_tpb_wait;
        if (lock_timeout_s > 0) {
            out[n++] = isc_tpb_lock_timeout;
            out[n++] = 4;
            for (int i = 0; i < 4; i++)
                out[n++] = (char)((unsigned)lock_timeout_s >> (8 * i));
        }
    }
    return n;
}

/* ---- connection: its transaction handles ------------------------------------------------ */

/* Ends a transaction that could not commit (or whose connection is gone) without raising
 * anything: roll back, or at least drop the client's handle. */
static void tx_abandon(isc_tr_handle *t)
{
    if (!*t)
        return;
    ISC_STATUS_ARRAY l;
    if (dg_fb.isc_rollback_transaction(l, t))
        dg_fb.fb_disconnect_transaction(l, t);
    *t = 0;
}

static void cursor_close(fb_stmt *s)
{
    if (s->cursor_open) {
        ISC_STATUS_ARRAY l;
        dg_fb.isc_dsql_free_statement(l, &s->h, DSQL_close);
        s->cursor_open = false;
    }
    s->txp = NULL;
    s->txk = TXK_NONE;
}

/* Closes the cursors of statements that ran in transaction kind txk (before it ends:
 * Firebird closes them at commit, the client handle would not know). */
static void cursors_close(fb_conn *c, int txk)
{
    for (fb_stmt *s = c->stmts; s; s = s->next)
        if (s->txk == txk)
            cursor_close(s);
}

static int tx_start(fb_conn *c, isc_tr_handle *t, const char *tpb, short len, dg_err *err)
{
    if (dg_fb.isc_start_transaction(c->sv, t, 1, &c->db, (unsigned short)len, tpb))
        return fill_error(c, "cannot start a transaction", NULL, err);
    return 0;
}

/* Commits (or rolls back) the implicit transaction. */
static int auto_end(fb_conn *c, bool commit, dg_err *err)
{
    if (c->auto_owner) {
        cursor_close(c->auto_owner);
        c->auto_owner = NULL;
    }
    if (!c->auto_tx)
        return 0;
    if (commit) {
        if (dg_fb.isc_commit_transaction(c->sv, &c->auto_tx)) {
            int rc = fill_error(c, "commit", "statement", err);
            tx_abandon(&c->auto_tx);
            return rc;
        }
        return 0;
    }
    tx_abandon(&c->auto_tx);
    return 0;
}

static int auto_begin(fb_conn *c, bool write, dg_err *err)
{
    if (c->auto_tx) {
        int rc = auto_end(c, true, err);
        if (rc)
            return rc;
    }
    int iso = c->o.isolation;
    return tx_start(c, &c->auto_tx, c->tpb[!write][iso], c->tpb_len[!write][iso], err);
}

static int ro_ensure(fb_conn *c, dg_err *err)
{
    return c->ro_tx ? 0 : tx_start(c, &c->ro_tx, c->ro_tpb, c->ro_tpb_len, err);
}

/* Reads the database class (shared page cache or not) and the engine's version string
 * into c->db_class and c->build (-1 and "" when the server does not say). */
static void read_db_info(fb_conn *c)
{
    static const char items[] = {isc_info_db_class, isc_info_firebird_version, isc_info_end};
    char buf[512];
    c->db_class = -1;
    c->build[0] = '\0';
    if (dg_fb.isc_database_info(c->sv, &c->db, sizeof items, items, sizeof buf, buf))
        return;
    for (const char *p = buf; p < buf + sizeof buf - 3 && *p != isc_info_end;) {
        char item = *p;
        short len = (short)dg_fb.isc_vax_integer(p + 1, 2);
        const char *d = p + 3;
        if (len < 0 || d + len > buf + sizeof buf)
            break;
        if (item == isc_info_db_class) {
            c->db_class = (int)dg_fb.isc_vax_integer(d, len);
        } else if (item == isc_info_firebird_version && len > 2) {
            /* a count, then (length, text) pairs: the first is the engine's */
            int sl = (unsigned char)d[1];
            if (sl > len - 2)
                sl = len - 2;
            snprintf(c->build, sizeof c->build, "%.*s", sl, d + 2);
        }
        p = d + len;
    }
}

/* ?wire_crypt= values, in the option table's order, and firebird.conf's spelling of them. */
enum { WIRE_REQUIRED, WIRE_ENABLED, WIRE_DISABLED };
static const char *const wire_crypt_conf[] = {"Required", "Enabled", "Disabled"};

/* The client library reads firebird.conf settings for one attachment from item
 * (isc_dpb_config, isc_spb_config): the wire's encryption and compression are negotiated
 * from them. Every attachment a connection makes passes them, its short ones too. */
static void pb_wire_config(pblock *b, char item, const fb_opts *o)
{
    if (o->wire_crypt < 0 && o->wire_compression < 0)
        return;
    char conf[96];
    int n = 0;
    if (o->wire_crypt >= 0)
        n += snprintf(conf + n, sizeof conf - (size_t)n, "WireCrypt = %s\n",
                      wire_crypt_conf[o->wire_crypt]);
    if (o->wire_compression >= 0)
        snprintf(conf + n, sizeof conf - (size_t)n, "WireCompression = %s\n",
                 o->wire_compression ? "true" : "false");
    pb_str(b, item, conf);
}

/* Attaches to c->target with the saved settings into *db. On failure the class says
 * whether trying again later may help (server down: CONN_LOST) or not (USER). */
static int open_session(fb_conn *c, isc_db_handle *db, dg_err *err)
{
    const fb_opts *o = &c->o;
    pblock dpb = {.n = 0};
    dpb.buf[dpb.n++] = isc_dpb_version1;
    if (c->user && *c->user)
        pb_str(&dpb, isc_dpb_user_name, c->user);
    if (c->password && *c->password)
        pb_str(&dpb, isc_dpb_password, c->password);
    pb_str(&dpb, isc_dpb_lc_ctype, o->charset);
    if (o->role[0])
        pb_str(&dpb, isc_dpb_sql_role_name, o->role);
    if (o->buffers > 0)
        pb_int(&dpb, isc_dpb_num_buffers, o->buffers);
    if (o->set_buffers >= 0)
        pb_int(&dpb, isc_dpb_set_page_buffers, o->set_buffers);
    pb_int(&dpb, isc_dpb_sql_dialect, SQL_DIALECT);
    pb_str(&dpb, isc_dpb_process_name, c->app_name);
    if (c->remote && o->connect_timeout_s > 0)
        pb_int(&dpb, isc_dpb_connect_timeout, o->connect_timeout_s);
    /* A loader's attachment leaves garbage collection to others (it only inserts). */
    if (o->no_gc == 1 || (o->no_gc == -1 && c->bulk_session))
        pb_int(&dpb, isc_dpb_no_garbage_collect, 1);
    pb_wire_config(&dpb, isc_dpb_config, o);
    if (dpb.overflow)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "Firebird connection parameters are too long");
    if (dg_fb.isc_attach_database(c->sv, 0, c->target, db, (short)dpb.n, dpb.buf)) {
        int rc = fill_error(c, NULL, NULL, err);
        if (err) {
            err->cls = classify_connect(c->sv, err->sqlstate);
            char msg[DG_ERR_MSG_MAX];
            bool u = c->user && *c->user;
            snprintf(msg, sizeof msg, "%s (Firebird connect string '%s'%s%s%s)", err->msg,
                     c->target, u ? ", user '" : "", u ? c->user : "", u ? "'" : "");
            snprintf(err->msg, sizeof err->msg, "%s", msg);
            dg_backend_scrub(err, c->secret);
        }
        return rc;
    }
    return 0;
}

/* Forgets everything that belonged to the attachment (cursors, transactions, the cached
 * monitor queries) and detaches quietly: after a server restart every call on it fails. */
static void drop_session(fb_conn *c)
{
    c->auto_owner = NULL;
    for (fb_stmt *s = c->stmts; s; s = s->next)
        cursor_close(s);
    stmt_destroy(c->q_stats);
    stmt_destroy(c->q_info);
    stmt_destroy(c->q_exists);
    stmt_destroy(c->q_wire);
    c->q_stats = c->q_info = c->q_exists = c->q_wire = NULL;
    tx_abandon(&c->auto_tx);
    tx_abandon(&c->tx);
    tx_abandon(&c->ro_tx);
    if (c->db) {
        ISC_STATUS_ARRAY l;
        dg_fb.isc_detach_database(l, &c->db);
        c->db = 0; /* a dead attachment's handle may stay behind in the client: dropped */
    }
}

/* Replaces the monitor's attachment with a new one (dg_backend_with_reconnect calls it,
 * never inside a transaction). Statements prepared by the caller on the old attachment
 * stay invalid; the monitor's own queries are prepared again when next used. */
static int reopen(dg_conn *conn, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    isc_db_handle fresh = 0;
    int rc = open_session(c, &fresh, err);
    if (rc)
        return rc;
    drop_session(c);
    c->db = fresh;
    read_db_info(c);
    return 0;
}

static void ext_drop_all(fb_conn *c);
static void blk_cache_clear(fb_conn *c);
static int set_forced_writes(fb_conn *c, bool on, dg_err *err);

static void fb_close(dg_conn *conn)
{
    fb_conn *c = (fb_conn *)conn;
    ext_drop_all(c);
    blk_cache_clear(c);
    stmt_destroy(c->q_stats);
    stmt_destroy(c->q_info);
    stmt_destroy(c->q_exists);
    stmt_destroy(c->q_wire);
    auto_end(c, false, NULL);
    tx_abandon(&c->tx);
    if (c->ro_tx) {
        ISC_STATUS_ARRAY l;
        if (dg_fb.isc_commit_transaction(l, &c->ro_tx))
            tx_abandon(&c->ro_tx);
    }
    if (c->db) {
        ISC_STATUS_ARRAY l;
        dg_fb.isc_detach_database(l, &c->db);
    }
    if (c->fw_restore) {
        dg_err e;
        if (set_forced_writes(c, true, &e) != 0)
            dg_log_warn("firebird: %s: turn them on with gfix -write sync", e.msg);
    }
    free(c->user);
    free(c->password);
    free(c->secret);
    free(c->app_name);
    dg_conn_base_free(&c->base);
    free(c);
}

/* The bulk path: external_dir alone picks the external one; bulk=external needs a directory
 * that exists and that this process may write to (the server's side is checked when it
 * first reads a file: see ext_fail). */
static int check_external_dir(fb_opts *o, dg_err *err)
{
    if (o->bulk == -1)
        o->bulk = o->external_dir[0] ? BULK_EXTERNAL : BULK_BLOCK;
    if (o->bulk != BULK_EXTERNAL)
        return 0;
    const char *d = o->external_dir;
    if (!d[0])
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "bulk=external needs external_dir=DIR: a directory on the server's "
                          "machine that its firebird.conf allows (ExternalFileAccess = Restrict DIR)");
    if (d[0] != '/')
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "external_dir=%s: not an absolute path (the server resolves a relative "
                          "one in its own ExternalFileAccess directories)", d);
    if (access(d, W_OK | X_OK) != 0)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "external_dir=%s: cannot write there: %s (the directory dbgauge writes "
                          "load files to, for the Firebird server on this machine to read)",
                          d, strerror(errno));
    return 0;
}

static int query_row(fb_conn *c, fb_stmt **cache, const char *sql, const dg_value *params,
                     dg_err *err);
static int64_t col_int(fb_stmt *s, int i);
static void col_text(fb_stmt *s, int i, char *buf, size_t len);

/* Switches the database's forced writes (the header flag gfix -write sets) with a short
 * attachment of its own, the only way Firebird changes it (isc_dpb_force_write). */
static int set_forced_writes(fb_conn *c, bool on, dg_err *err)
{
    pblock dpb = {.n = 0};
    dpb.buf[dpb.n++] = isc_dpb_version1;
    if (c->user && *c->user)
        pb_str(&dpb, isc_dpb_user_name, c->user);
    if (c->password && *c->password)
        pb_str(&dpb, isc_dpb_password, c->password);
    pb_int(&dpb, isc_dpb_force_write, on ? 1 : 0);
    pb_wire_config(&dpb, isc_dpb_config, &c->o);
    if (dpb.overflow)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "Firebird connection parameters are too long");
    isc_db_handle h = 0;
    ISC_STATUS_ARRAY l;
    if (dg_fb.isc_attach_database(c->sv, 0, c->target, &h, (short)dpb.n, dpb.buf)) {
        int rc = fill_error(c, NULL, NULL, err);
        dg_err_prefix(err, "load_forced_writes=off: cannot turn forced writes %s", on ? "on" : "off");
        return rc;
    }
    dg_fb.isc_detach_database(l, &h);
    return 0;
}

/* load_forced_writes=off, on the load's own session connection (not its jobs'): forced
 * writes off when they are on, and a note to turn them on again at close. */
static int load_async_begin(fb_conn *c, dg_err *err)
{
    fb_stmt *q = NULL;
    int rc = query_row(c, &q, "SELECT MON$FORCED_WRITES FROM MON$DATABASE", NULL, err);
    bool on = rc == 0 && col_int(q, 0) == 1;
    stmt_destroy(q);
    if (rc || !on)
        return rc;
    if ((rc = set_forced_writes(c, false, err)) != 0)
        return rc;
    c->fw_restore = true;
    dg_log_info("firebird: forced writes off for the load (load_forced_writes=off); on again at its end");
    return 0;
}

static int fb_connect(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    if (!url->path || !*url->path)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "Firebird URL needs a database: firebird://user:pass@host:port//abs/path.fdb "
                          "or firebird:PATH");
    int lrc = dg_fb_api_load(err);
    if (lrc)
        return lrc;
    fb_conn *c = xcalloc(1, sizeof *c);
    int rc = 0;
    fb_opts *o = &c->o;
    snprintf(o->charset, sizeof o->charset, "UTF8");
    o->lock_timeout_s = DEFAULT_LOCK_TIMEOUT_S;
    o->connect_timeout_s = DEFAULT_CONNECT_TIMEOUT_S;
    o->isolation = FBI_READ_COMMITTED;
    o->read_shared = true;
    o->bulk = -1;
    o->no_gc = -1;
    o->wire_crypt = -1;
    o->wire_compression = -1;
    o->set_buffers = -1;
    for (int i = 0; i < url->nparams; i++)
        if ((rc = apply_option(o, url->params[i].name, url->params[i].value, err)) != 0)
            goto fail;
    for (int i = 0; i < opts->nsettings; i++)
        if ((rc = apply_option(o, opts->settings[i].name, opts->settings[i].value, err)) != 0)
            goto fail;
    if ((rc = check_external_dir(o, err)) != 0)
        goto fail;
    /* A path with no "host:" in front is opened by the engine in this process. */
    const bool embedded = !url->host && !strchr(url->path, ':');
    if ((o->wire_crypt >= 0 || o->wire_compression >= 0) && embedded) {
        rc = dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                        "wire_crypt and wire_compression apply to connections through a server; "
                        "%s is opened by the engine in this process (give a host: "
                        "firebird://user:pass@host//path)", url->path);
        goto fail;
    }

    if (url->host) {
        bool v6 = strchr(url->host, ':') != NULL;
        if (url->port)
            snprintf(c->target, sizeof c->target, "%s%s%s/%d:%s", v6 ? "[" : "", url->host,
                     v6 ? "]" : "", url->port, url->path);
        else
            snprintf(c->target, sizeof c->target, "%s%s%s:%s", v6 ? "[" : "", url->host,
                     v6 ? "]" : "", url->path);
    } else {
        snprintf(c->target, sizeof c->target, "%s", url->path);
    }
    c->remote = url->host != NULL;
    const char *user = url->user ? url->user : o->user[0] ? o->user : getenv("ISC_USER");
    const char *password = url->password ? url->password
                           : o->password[0] ? o->password
                                            : getenv("ISC_PASSWORD");
    c->user = user ? xstrdup(user) : NULL;
    c->password = password ? xstrdup(password) : NULL;
    c->secret = dg_backend_secret(password, user, url->path);
    c->app_name = xstrdup(opts->application_name ? opts->application_name : "dbgauge");
    c->bulk_session = opts->bulk_session;
    if ((rc = open_session(c, &c->db, err)) != 0) {
        if (err && err->code == isc_wirecrypt_incompatible && o->wire_crypt == WIRE_DISABLED)
            dg_err_prefix(err, "wire_crypt=disabled: this server requires encryption (it accepts "
                               "an unencrypted wire with WireCrypt = Enabled in its firebird.conf)");
        goto fail;
    }
    for (int ro = 0; ro < 2; ro++)
        for (int iso = 0; iso < FBI_N; iso++)
            c->tpb_len[ro][iso] = build_tpb(c->tpb[ro][iso], !ro, iso, o->lock_timeout_s);
    c->ro_tpb_len = build_tpb(c->ro_tpb, false, FBI_READ_COMMITTED, -1);
    read_db_info(c);
    if (o->load_async && opts->bulk_session && opts->local_facts &&
        (rc = load_async_begin(c, err)) != 0)
        goto fail;
    if (embedded) {
        c->base.caps |= DG_CAP_EMBEDDED;
        if (access(url->path, F_OK) == 0) /* a file, not an alias of databases.conf */
            c->base.data_path = xstrdup(url->path);
    } else if (dg_host_is_local(url->host)) { /* a server here: its database file's disk */
        dg_conn_set_local_data(&c->base, url->path);
    }
    /* Classic and SuperClassic give every attachment a page cache of its own */
    if (c->db_class != isc_info_db_class_server_access)
        c->base.caps |= DG_CAP_CONN_CACHE_STATS;
    if (o->buffers > 0 && c->db_class == isc_info_db_class_server_access) {
        /* Firebird 3 SuperServer reads isc_dpb_num_buffers and ignores it */
        static atomic_flag warned = ATOMIC_FLAG_INIT;
        if (!atomic_flag_test_and_set(&warned))
            dg_log_warn("firebird: buffers=%d has no effect on a SuperServer (its shared page cache "
                        "comes from the database header or DefaultDbCachePages; set_buffers=N writes "
                        "the header)",
                        o->buffers);
    }
    *out = &c->base;
    return 0;
fail:
    fb_close(&c->base);
    return rc ? rc : DG_E_DB;
}

/* ---- statements: prepare --------------------------------------------------------------- */

static XSQLDA *sqlda_new(int n)
{
    XSQLDA *d = xcalloc(1, XSQLDA_LENGTH(n < 1 ? 1 : n));
    d->version = SQLDA_VERSION1;
    d->sqln = (ISC_SHORT)(n < 1 ? 1 : n);
    return d;
}

static void set_colname(char *dst, size_t cap, const char *src, int len)
{
    if (len < 0)
        len = 0;
    if ((size_t)len >= cap)
        len = (int)cap - 1;
    bool lower = false;
    for (int i = 0; i < len; i++)
        lower |= src[i] >= 'a' && src[i] <= 'z';
    for (int i = 0; i < len; i++)
        dst[i] = !lower && src[i] >= 'A' && src[i] <= 'Z' ? (char)(src[i] - 'A' + 'a') : src[i];
    dst[len] = '\0';
}

/* A query that locks or writes cannot run in the shared read-only transaction. Firebird
 * reports "SELECT ... WITH LOCK" as a plain SELECT, and such a failure would surface only
 * at fetch time, so look at the text (a false positive merely costs a transaction). */
static bool contains_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (; *s; s++)
        if (!strncasecmp(s, w, n))
            return true;
    return false;
}

static bool needs_write_tx(const char *sql)
{
    static const char *const words[] = {"WITH LOCK", "FOR UPDATE", "EXECUTE BLOCK",
                                        "NEXT VALUE FOR", "GEN_ID"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_word(sql, words[i]))
            return true;
    return false;
}

/* Coerces each output column to a convenient type and lays out the row buffer. */
static void setup_columns(fb_stmt *s)
{
    s->cols = xcalloc((size_t)s->nout, sizeof *s->cols);
    size_t total = 0;
    size_t *offs = xcalloc((size_t)s->nout, sizeof *offs);
    for (int i = 0; i < s->nout; i++) {
        XSQLVAR *v = &s->out->sqlvar[i];
        fb_col *col = &s->cols[i];
        set_colname(col->name, sizeof col->name, v->aliasname_length ? v->aliasname : v->sqlname,
                    v->aliasname_length ? v->aliasname_length : v->sqlname_length);
        size_t len;
        switch (v->sqltype & ~1) {
        case SQL_SHORT:
        case SQL_LONG:
        case SQL_INT64:
            col->kind = v->sqlscale < 0 ? COL_NUMERIC : COL_INT;
            col->scale = -v->sqlscale;
            v->sqltype = SQL_INT64;
            if (v->sqlscale > 0)
                v->sqlscale = 0;
            len = v->sqllen = 8;
            break;
        case SQL_FLOAT:
        case SQL_DOUBLE:
        case SQL_D_FLOAT:
            col->kind = COL_DOUBLE;
            v->sqltype = SQL_DOUBLE;
            v->sqlscale = 0;
            len = v->sqllen = 8;
            break;
        case SQL_TEXT:
        case SQL_VARYING:
            col->kind = COL_TEXT;
            v->sqltype = SQL_VARYING;
            len = (size_t)v->sqllen + 3; /* length prefix, data, room for a NUL */
            break;
        case SQL_TIMESTAMP:
            col->kind = COL_TIMESTAMP;
            len = sizeof(ISC_TIMESTAMP);
            break;
        case SQL_TYPE_DATE:
            col->kind = COL_DATE;
            len = sizeof(ISC_DATE);
            break;
        case SQL_TYPE_TIME:
            col->kind = COL_TIME;
            len = sizeof(ISC_TIME);
            break;
        case SQL_BLOB:
            col->kind = COL_BLOB;
            s->has_blobs = true;
            len = sizeof(ISC_QUAD);
            break;
        case SQL_BOOLEAN:
            col->kind = COL_BOOL;
            len = 1;
            break;
        case SQL_NULL:
            col->kind = COL_NULL;
            len = 8;
            break;
        default:
            col->kind = COL_OTHER;
            len = (size_t)(v->sqllen > 0 ? v->sqllen : 8);
            break;
        }
        v->sqltype |= 1; /* nullable: the library fills sqlind */
        offs[i] = total;
        total = align8(total + len);
    }
    s->outbuf = xcalloc(1, total ? total : 1);
    for (int i = 0; i < s->nout; i++) {
        s->cols[i].data = s->outbuf + offs[i];
        s->out->sqlvar[i].sqldata = s->cols[i].data;
        s->out->sqlvar[i].sqlind = &s->cols[i].ind;
        if (s->cols[i].kind >= COL_TIMESTAMP && s->cols[i].kind <= COL_TIME) {
            s->cols[i].text_cap = 32;
            s->cols[i].text = xmalloc(32);
        }
    }
    free(offs);
}

static void stmt_destroy(fb_stmt *s)
{
    if (!s)
        return;
    fb_conn *c = conn_of(s);
    if (c->auto_owner == s)
        auto_end(c, true, NULL);
    cursor_close(s);
    if (s->h) {
        ISC_STATUS_ARRAY l;
        dg_fb.isc_dsql_free_statement(l, &s->h, DSQL_drop);
    }
    if (s->prev)
        s->prev->next = s->next;
    else if (c->stmts == s)
        c->stmts = s->next;
    if (s->next)
        s->next->prev = s->prev;
    for (int i = 0; i < s->nout; i++)
        free(s->cols[i].text);
    free(s->cols);
    free(s->outbuf);
    free(s->in);
    free(s->out);
    free(s->params);
    free(s->in_ind);
    free(s->in_blob);
    free(s->base.sql);
    free(s);
}

static int stmt_info_type(fb_conn *c, fb_stmt *s, dg_err *err)
{
    static const char item[] = {isc_info_sql_stmt_type};
    char buf[16];
    if (dg_fb.isc_dsql_sql_info(c->sv, &s->h, sizeof item, item, sizeof buf, buf))
        return fill_error(c, NULL, NULL, err);
    if (buf[0] != isc_info_sql_stmt_type)
        return dg_err_fail(err, DG_E_DB, "Firebird did not report the statement type");
    short len = (short)dg_fb.isc_vax_integer(buf + 1, 2);
    s->type = (int)dg_fb.isc_vax_integer(buf + 3, len);
    return 0;
}

/* Prepares sql on connection c (in the explicit transaction if one is active, else in
 * the shared read transaction: preparing changes nothing). */
static int stmt_prepare(fb_conn *c, const char *sql, fb_stmt **out, dg_err *err)
{
    /* Firebird rejects a trailing ';' that other databases ignore */
    size_t n = strlen(sql);
    while (n > 0 && (sql[n - 1] == ';' || sql[n - 1] == ' ' || sql[n - 1] == '\n' ||
                     sql[n - 1] == '\t' || sql[n - 1] == '\r'))
        n--;
    if (n == 0)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "empty SQL statement");
    int rc = 0;
    fb_stmt *s = xcalloc(1, sizeof *s);
    s->base.conn = &c->base;
    s->base.sql = xstrndup(sql, n);
    s->affected = -2;
    s->next = c->stmts;
    if (c->stmts)
        c->stmts->prev = s;
    c->stmts = s;
    isc_tr_handle *txp = &c->tx;
    if (!c->tx) {
        if ((rc = ro_ensure(c, err)) != 0)
            goto fail;
        txp = &c->ro_tx;
    }
    if (dg_fb.isc_dsql_allocate_statement(c->sv, &c->db, &s->h)) {
        rc = fill_error(c, NULL, NULL, err);
        goto fail;
    }
    s->out = sqlda_new(16);
    if (dg_fb.isc_dsql_prepare(c->sv, txp, &s->h, 0, s->base.sql, SQL_DIALECT, s->out)) {
        rc = fill_error(c, NULL, NULL, err);
        goto fail;
    }
    if (s->out->sqld > s->out->sqln) {
        int k = s->out->sqld;
        free(s->out);
        s->out = sqlda_new(k);
        if (dg_fb.isc_dsql_describe(c->sv, &s->h, SQL_DIALECT, s->out)) {
            rc = fill_error(c, NULL, NULL, err);
            goto fail;
        }
    }
    s->nout = s->out->sqld;
    if ((rc = stmt_info_type(c, s, err)) != 0)
        goto fail;
    s->rw = needs_write_tx(s->base.sql);
    s->in = sqlda_new(16);
    if (dg_fb.isc_dsql_describe_bind(c->sv, &s->h, SQL_DIALECT, s->in)) {
        rc = fill_error(c, NULL, NULL, err);
        goto fail;
    }
    if (s->in->sqld > s->in->sqln) {
        int k = s->in->sqld;
        free(s->in);
        s->in = sqlda_new(k);
        if (dg_fb.isc_dsql_describe_bind(c->sv, &s->h, SQL_DIALECT, s->in)) {
            rc = fill_error(c, NULL, NULL, err);
            goto fail;
        }
    }
    s->nin = s->in->sqld;
    s->base.nparams = s->nin;
    if (s->nin > 0) {
        s->params = xcalloc((size_t)s->nin, sizeof *s->params);
        s->in_ind = xcalloc((size_t)s->nin, sizeof *s->in_ind);
        s->in_blob = xcalloc((size_t)s->nin, sizeof *s->in_blob);
        for (int i = 0; i < s->nin; i++) {
            s->params[i].type = (short)(s->in->sqlvar[i].sqltype & ~1);
            s->params[i].subtype = s->in->sqlvar[i].sqlsubtype;
        }
    } else {
        free(s->in);
        s->in = NULL;
    }
    if (s->nout > 0) {
        setup_columns(s);
    } else {
        free(s->out);
        s->out = NULL;
    }
    *out = s;
    return 0;
fail:
    stmt_destroy(s);
    return rc;
}

static int fb_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    fb_stmt *s = NULL;
    int rc = stmt_prepare((fb_conn *)conn, sql, &s, err);
    if (rc == 0)
        *out = &s->base;
    return rc;
}

static void fb_stmt_free(dg_stmt *stmt)
{
    stmt_destroy((fb_stmt *)stmt);
}

/* ---- statements: bind, execute, fetch, columns ------------------------------------------ */

static int put_blob(fb_conn *c, isc_tr_handle *txp, ISC_QUAD *id, const char *p, size_t len,
                    dg_err *err)
{
    isc_blob_handle bh = 0;
    if (dg_fb.isc_create_blob2(c->sv, &c->db, txp, &bh, id, 0, NULL))
        return fill_error(c, "writing a blob", NULL, err);
    while (len > 0) {
        unsigned short k = (unsigned short)(len > 32768 ? 32768 : len);
        if (dg_fb.isc_put_segment(c->sv, &bh, k, p)) {
            int rc = fill_error(c, "writing a blob", NULL, err);
            ISC_STATUS_ARRAY l;
            dg_fb.isc_cancel_blob(l, &bh);
            return rc;
        }
        p += k;
        len -= k;
    }
    if (dg_fb.isc_close_blob(c->sv, &bh))
        return fill_error(c, "writing a blob", NULL, err);
    return 0;
}

/* Points the input XSQLDA at the caller's values (no copies): the server converts each
 * to the parameter's type. txp is the transaction blobs are created in. */
static int bind_params(fb_stmt *s, const dg_value *params, isc_tr_handle *txp, dg_err *err)
{
    static char empty_varying[4]; /* a VARCHAR of length 0 */
    for (int i = 0; i < s->nin; i++) {
        XSQLVAR *v = &s->in->sqlvar[i];
        const dg_value *p = &params[i];
        const fb_param *d = &s->params[i];
        v->sqlind = &s->in_ind[i];
        s->in_ind[i] = 0;
        v->sqlscale = 0;
        switch (p->type) {
        case DG_V_NULL:
            v->sqltype = SQL_VARYING | 1;
            v->sqllen = 1;
            v->sqlsubtype = 0;
            v->sqldata = empty_varying;
            s->in_ind[i] = -1;
            break;
        case DG_V_INT:
            v->sqltype = SQL_INT64 | 1;
            v->sqllen = 8;
            v->sqldata = (ISC_SCHAR *)&p->u.i;
            break;
        case DG_V_DOUBLE:
            v->sqltype = SQL_DOUBLE | 1;
            v->sqllen = 8;
            v->sqldata = (ISC_SCHAR *)&p->u.d;
            break;
        case DG_V_NUMERIC:
            v->sqltype = SQL_INT64 | 1;
            v->sqllen = 8;
            v->sqlscale = (ISC_SHORT)-p->u.n.scale;
            v->sqldata = (ISC_SCHAR *)&p->u.n.unscaled;
            break;
        case DG_V_TEXT:
            if (d->type == SQL_BLOB) {
                int rc = put_blob(conn_of(s), txp, &s->in_blob[i], p->u.s.ptr, p->u.s.len, err);
                if (rc)
                    return rc;
                v->sqltype = SQL_BLOB | 1;
                v->sqlsubtype = d->subtype;
                v->sqllen = sizeof(ISC_QUAD);
                v->sqldata = (ISC_SCHAR *)&s->in_blob[i];
            } else if (p->u.s.len == 0) {
                v->sqltype = SQL_VARYING | 1;
                v->sqllen = 1;
                v->sqlsubtype = d->type == SQL_TEXT || d->type == SQL_VARYING ? d->subtype : 0;
                v->sqldata = empty_varying;
            } else if (p->u.s.len > MAX_TEXT_PARAM) {
                return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                                  "parameter %d: text of %zu bytes is too long for a non-blob "
                                  "Firebird parameter (at most %d)",
                                  i + 1, p->u.s.len, MAX_TEXT_PARAM);
            } else {
                v->sqltype = SQL_TEXT | 1;
                v->sqllen = (ISC_SHORT)p->u.s.len;
                /* text parameters carry their character set in sqlsubtype */
                v->sqlsubtype = d->type == SQL_TEXT || d->type == SQL_VARYING ? d->subtype : 0;
                v->sqldata = (ISC_SCHAR *)p->u.s.ptr;
            }
            break;
        }
    }
    return 0;
}

/* Binds and executes in transaction *txp; opens the cursor of a query, or fills the
 * singleton row of EXECUTE PROCEDURE / ... RETURNING. No transaction management here. */
static int stmt_run(fb_stmt *s, const dg_value *params, isc_tr_handle *txp, int txk, dg_err *err)
{
    fb_conn *c = conn_of(s);
    int rc = bind_params(s, params, txp, err);
    if (rc)
        return rc;
    s->affected = -2;
    if (s->type == isc_info_sql_stmt_select || s->type == isc_info_sql_stmt_select_for_upd) {
        if (dg_fb.isc_dsql_execute(c->sv, txp, &s->h, SQL_DIALECT, s->in))
            return fill_error(c, NULL, NULL, err);
        s->cursor_open = true;
        s->txk = txk;
        s->txp = txp;
        return 0;
    }
    if (s->nout > 0) {
        if (dg_fb.isc_dsql_execute2(c->sv, txp, &s->h, SQL_DIALECT, s->in, s->out))
            return fill_error(c, NULL, NULL, err);
        s->pending = true;
        s->txk = txk;
        s->txp = txp;
        return 0;
    }
    if (dg_fb.isc_dsql_execute(c->sv, txp, &s->h, SQL_DIALECT, s->in))
        return fill_error(c, NULL, NULL, err);
    return 0;
}

static int read_blob(fb_stmt *s, fb_col *col, dg_err *err)
{
    fb_conn *c = conn_of(s);
    isc_blob_handle bh = 0;
    ISC_QUAD id;
    memcpy(&id, col->data, sizeof id);
    col->text_len = 0;
    if (dg_fb.isc_open_blob2(c->sv, &c->db, s->txp, &bh, &id, 0, NULL)) {
        int rc = fill_error(c, "reading a blob", NULL, err);
        /* The row was read a moment ago in this transaction, so its blob existed: in READ
         * COMMITTED a concurrent transaction that replaced the document and committed lets
         * the server collect the old version's blob before we open it ("BLOB not found",
         * seen in the docs workload's customer_profile at 2 terminals). A conflict with a
         * concurrent change, like isc_no_cur_rec: the transaction is run again. */
        if (err && err->cls != DG_EC_CONN_LOST)
            err->cls = DG_EC_RETRY;
        return rc;
    }
    for (;;) {
        if (col->text_cap - col->text_len < 32768 + 1) {
            col->text_cap = col->text_cap ? col->text_cap * 2 : 65536;
            col->text = xrealloc(col->text, col->text_cap);
        }
        size_t room = col->text_cap - col->text_len - 1;
        unsigned short got = 0;
        ISC_STATUS r = dg_fb.isc_get_segment(c->sv, &bh, &got, (unsigned short)(room > 65535 ? 65535 : room),
                                       col->text + col->text_len);
        if (r == 0 || r == isc_segment) {
            col->text_len += got;
            continue;
        }
        if (r == isc_segstr_eof)
            break;
        int rc = fill_error(c, "reading a blob", NULL, err);
        ISC_STATUS_ARRAY l;
        dg_fb.isc_close_blob(l, &bh);
        return rc;
    }
    col->text[col->text_len] = '\0';
    if (dg_fb.isc_close_blob(c->sv, &bh))
        return fill_error(c, "reading a blob", NULL, err);
    return 0;
}

/* Reads the current row's blobs (while its transaction is still open). */
static int load_blobs(fb_stmt *s, dg_err *err)
{
    for (int i = 0; i < s->nout; i++) {
        fb_col *col = &s->cols[i];
        if (col->kind == COL_BLOB && col->ind >= 0) {
            int rc = read_blob(s, col, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The rows changed by the last execution (insert + update + delete), -1 if unknown. */
static int64_t query_affected(fb_stmt *s)
{
    fb_conn *c = conn_of(s);
    static const char item[] = {isc_info_sql_records};
    char buf[64];
    if (dg_fb.isc_dsql_sql_info(c->sv, &s->h, sizeof item, item, sizeof buf, buf) || buf[0] != isc_info_sql_records)
        return -1;
    int total = (int)dg_fb.isc_vax_integer(buf + 1, 2);
    int64_t n = 0;
    for (const char *p = buf + 3; p < buf + 3 + total && p + 3 <= buf + sizeof buf && *p != isc_info_end;) {
        char it = p[0];
        short len = (short)dg_fb.isc_vax_integer(p + 1, 2);
        if (p + 3 + len > buf + sizeof buf)
            break;
        int64_t v = dg_fb.isc_vax_integer(p + 3, len);
        if (it == isc_info_req_insert_count || it == isc_info_req_update_count ||
            it == isc_info_req_delete_count)
            n += v;
        p += 3 + len;
    }
    return n;
}

/* A singleton row whose columns are all NULL may mean "no row" (UPDATE ... RETURNING that
 * matched nothing): the records count decides. */
static bool singleton_empty(fb_stmt *s)
{
    for (int i = 0; i < s->nout; i++)
        if (s->cols[i].ind >= 0)
            return false;
    if (s->type == isc_info_sql_stmt_exec_procedure && !strncasecmp(s->base.sql, "EXECUTE", 7))
        return false;
    s->affected = query_affected(s);
    return s->affected == 0;
}

static DG_HOT int fb_execute(dg_stmt *stmt, const dg_value *params, int n, dg_err *err)
{
    fb_stmt *s = (fb_stmt *)stmt;
    fb_conn *c = conn_of(s);
    if (n != s->nin)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "statement takes %d parameters, %d given", s->nin, n);
    if (c->auto_owner == s)
        auto_end(c, true, NULL);
    cursor_close(s);
    s->pending = false;
    bool query = s->type == isc_info_sql_stmt_select;
    int rc, txk;
    isc_tr_handle *txp;
again:
    if (c->tx) {
        txk = TXK_EXPLICIT;
        txp = &c->tx;
    } else if (query && !s->rw && c->o.read_shared) {
        if ((rc = ro_ensure(c, err)) != 0)
            return rc;
        txk = TXK_SHARED;
        txp = &c->ro_tx;
    } else {
        if ((rc = auto_begin(c, !query || s->rw, err)) != 0)
            return rc;
        txk = TXK_AUTO;
        txp = &c->auto_tx;
    }
    rc = stmt_run(s, params, txp, txk, err);
    if (rc == 0 && s->pending) {
        if (singleton_empty(s))
            s->pending = false;
        else if (s->has_blobs)
            rc = load_blobs(s, err);
    }
    if (rc) {
        if (txk == TXK_AUTO) {
            auto_end(c, false, NULL);
        } else if (txk == TXK_SHARED && !s->rw && sv_has(c->sv, isc_read_only_trans)) {
            s->rw = true; /* e.g. a selectable procedure that writes */
            goto again;
        }
        return rc;
    }
    if (txk == TXK_AUTO) {
        if (s->cursor_open) {
            c->auto_owner = s;
        } else {
            rc = auto_end(c, true, err); /* the records count stays readable afterwards */
            s->txk = TXK_NONE;
            s->txp = NULL;
        }
    }
    return rc;
}

static DG_HOT int fb_fetch(dg_stmt *stmt, dg_err *err)
{
    fb_stmt *s = (fb_stmt *)stmt;
    fb_conn *c = conn_of(s);
    if (s->pending) {
        s->pending = false;
        return 1;
    }
    if (!s->cursor_open)
        return 0;
    ISC_STATUS r = dg_fb.isc_dsql_fetch(c->sv, &s->h, SQL_DIALECT, s->out);
    int rc = 0;
    if (r == 0) {
        if (!s->has_blobs || (rc = load_blobs(s, err)) == 0)
            return 1;
    } else if (r != 100) {
        rc = fill_error(c, NULL, NULL, err);
    }
    /* end of rows or an error: the cursor is done, and so is its implicit transaction */
    if (c->auto_owner == s) {
        int rc2 = auto_end(c, rc == 0, rc ? NULL : err);
        if (rc == 0)
            rc = rc2;
    }
    cursor_close(s);
    return rc;
}

static int fb_ncols(dg_stmt *stmt)
{
    return ((fb_stmt *)stmt)->nout;
}

static const char *fb_colname(dg_stmt *stmt, int i)
{
    fb_stmt *s = (fb_stmt *)stmt;
    return i >= 0 && i < s->nout ? s->cols[i].name : NULL;
}

static DG_HOT void fb_column(dg_stmt *stmt, int i, dg_value *out)
{
    fb_stmt *s = (fb_stmt *)stmt;
    if (i < 0 || i >= s->nout || s->cols[i].ind < 0) {
        *out = dg_vnull();
        return;
    }
    fb_col *col = &s->cols[i];
    switch (col->kind) {
    case COL_INT:
    case COL_NUMERIC: {
        int64_t v;
        memcpy(&v, col->data, sizeof v);
        *out = col->kind == COL_INT ? dg_vint(v) : dg_vnumeric(v, col->scale);
        return;
    }
    case COL_DOUBLE: {
        double d;
        memcpy(&d, col->data, sizeof d);
        *out = dg_vdouble(d);
        return;
    }
    case COL_TEXT: {
        short len;
        memcpy(&len, col->data, sizeof len);
        col->data[2 + len] = '\0';
        *out = dg_vtext(col->data + 2, (size_t)len);
        return;
    }
    case COL_TIMESTAMP:
    case COL_DATE:
    case COL_TIME: {
        struct tm tm;
        memset(&tm, 0, sizeof tm);
        unsigned frac = 0;
        if (col->kind == COL_TIMESTAMP) {
            ISC_TIMESTAMP ts;
            memcpy(&ts, col->data, sizeof ts);
            dg_fb.isc_decode_timestamp(&ts, &tm);
            frac = ts.timestamp_time % 10000;
            snprintf(col->text, col->text_cap, "%04d-%02d-%02d %02d:%02d:%02d.%04u", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
        } else if (col->kind == COL_DATE) {
            ISC_DATE d;
            memcpy(&d, col->data, sizeof d);
            dg_fb.isc_decode_sql_date(&d, &tm);
            snprintf(col->text, col->text_cap, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday);
        } else {
            ISC_TIME t;
            memcpy(&t, col->data, sizeof t);
            dg_fb.isc_decode_sql_time(&t, &tm);
            frac = t % 10000;
            snprintf(col->text, col->text_cap, "%02d:%02d:%02d.%04u", tm.tm_hour, tm.tm_min,
                     tm.tm_sec, frac);
        }
        *out = dg_vstr(col->text);
        return;
    }
    case COL_BLOB:
        *out = dg_vtext(col->text ? col->text : "", col->text_len);
        return;
    case COL_BOOL:
        *out = dg_vint(col->data[0] != 0);
        return;
    case COL_NULL:
        *out = dg_vnull();
        return;
    default:
        *out = dg_vstr("(unsupported Firebird type)");
        return;
    }
}

static int64_t fb_affected(dg_stmt *stmt)
{
    fb_stmt *s = (fb_stmt *)stmt;
    if (s->affected == -2)
        s->affected = query_affected(s);
    return s->affected;
}

static DG_HOT void fb_reset(dg_stmt *stmt)
{
    fb_stmt *s = (fb_stmt *)stmt;
    fb_conn *c = conn_of(s);
    s->pending = false;
    if (c->auto_owner == s)
        auto_end(c, true, NULL);
    cursor_close(s);
}

/* ---- statements: exec ------------------------------------------------------------------- */

static void blk_cache_clear(fb_conn *c);

static int fb_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (c->n_blks) /* the loader's DDL: the kept bulk statements would hold its tables */
        blk_cache_clear(c);
    if (c->tx) {
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &c->tx, 0, sql, SQL_DIALECT, NULL))
            return fill_error(c, NULL, NULL, err);
        return 0;
    }
    int rc = auto_begin(c, true, err);
    if (rc)
        return rc;
    if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &c->auto_tx, 0, sql, SQL_DIALECT, NULL)) {
        rc = fill_error(c, NULL, NULL, err);
        auto_end(c, false, NULL);
        return rc;
    }
    return auto_end(c, true, err);
}

/* ---- transactions ----------------------------------------------------------------------- */

static int iso_index(const fb_conn *c, dg_isolation iso)
{
    switch (iso) {
    case DG_ISO_READ_COMMITTED: return FBI_READ_COMMITTED;
    case DG_ISO_REPEATABLE_READ: return FBI_SNAPSHOT;
    case DG_ISO_SERIALIZABLE: return FBI_CONSISTENCY;
    default: return c->o.isolation;
    }
}

static int fb_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (c->tx)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "a transaction is already active on this connection");
    int iso = iso_index(c, tx ? tx->isolation : DG_ISO_DEFAULT);
    int ro = tx && tx->read_only;
    return tx_start(c, &c->tx, c->tpb[ro][iso], c->tpb_len[ro][iso], err);
}

static int fb_commit(dg_conn *conn, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (!c->tx)
        return 0;
    cursors_close(c, TXK_EXPLICIT);
    if (dg_fb.isc_commit_transaction(c->sv, &c->tx)) {
        int rc = fill_error(c, "commit", "COMMIT", err);
        tx_abandon(&c->tx);
        return rc;
    }
    return 0;
}

static int fb_rollback(dg_conn *conn, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (!c->tx)
        return 0;
    cursors_close(c, TXK_EXPLICIT);
    if (dg_fb.isc_rollback_transaction(c->sv, &c->tx)) {
        int rc = fill_error(c, "rollback", NULL, err);
        tx_abandon(&c->tx);
        return rc;
    }
    return 0;
}

/* ---- bulk load -------------------------------------------------------------------------- */

/* Message bytes one row of the INSERT's parameters takes (as described by the server). */
static size_t row_msg_bytes(const fb_stmt *ins)
{
    size_t n = 0;
    for (int i = 0; i < ins->nin; i++) {
        const XSQLVAR *v = &ins->in->sqlvar[i];
        n = align8(n + (size_t)v->sqllen + 2) + 8; /* value (+ VARCHAR length), NULL flag */
    }
    return n;
}

/* Loads run in snapshot transactions of their own (nothing else writes those tables). */
static const char bulk_tpb[] = {isc_tpb_version3, isc_tpb_write, isc_tpb_concurrency, isc_tpb_wait};

static void ext_detach(fb_bulk *b);

static void bulk_free(fb_bulk *b)
{
    ext_detach(b);
    fb_conn *c = (fb_conn *)b->base.conn;
    if (b->cached >= 0 && b->cached < c->n_blks) {
        c->blks[b->cached].busy = false;
    } else {
        stmt_destroy(b->ins);
        stmt_destroy(b->blk);
    }
    free(b->vals);
    free(b->text_off);
    free(b->text);
    free(b->ext);
    free(b->ext_order);
    free(b->rec);
    if (b->cols)
        for (int i = 0; i < b->ncols; i++)
            free(b->cols[i]);
    free(b->cols);
    free(b->table);
    free(b);
}

/* ---- bulk load: external files ------------------------------------------------------------- */

/* With ?external_dir= every slice of a bulk load is a file of fixed-length binary records
 * (backend/fbext.h) in that directory, which the server reads through an external table:
 * INSERT INTO <table> (...) SELECT ... FROM DG_EXT_<pid>_<n>, in the load's SNAPSHOT
 * transaction, committed. The server parses no message and runs no PSQL per row: it
 * copies records.
 *
 * DDL is what costs here (a CREATE or DROP TABLE and its commit take 5 to 15 ms, as much
 * as inserting 3,000 rows), so a connection keeps its external tables, one per target
 * table and column list (ext_tab), and rewrites the same file in place for every slice:
 * the server reads an external file from its start at each scan (it seeks, and reopens
 * it per transaction in later versions), so a table made once serves every unit of a
 * load. The file is emptied after each INSERT; the tables are dropped and the files
 * deleted when the connection closes (a crash leaves DG_EXT_* tables and dg_ext_*.dat
 * files behind, harmless). The server must run on this machine, be allowed the directory
 * (firebird.conf: ExternalFileAccess = Restrict <dir>) and be able to read the files
 * (made readable by all, 0644). */
typedef struct ext_tab {
    char *key;       /* "table(col,col,...)" */
    char name[40];   /* DG_EXT_<pid>_<n> */
    char path[EXT_MAX_PATH + 1];
    bool created;    /* CREATE TABLE committed */
    bool busy;       /* an open bulk load writes its file */
} ext_tab;

static atomic_uint ext_seq; /* numbers the files and tables of this process */

/* The attachment's character set and its bytes per character, read once: external VARCHARs
 * are declared in it, so the server converts their text to each column's character set as
 * it converts a text parameter's. */
static int ext_charset(fb_conn *c, dg_err *err)
{
    if (c->ext_charset[0])
        return 0;
    fb_stmt *q = NULL;
    int rc = query_row(c, &q,
                       "SELECT TRIM(cs.RDB$CHARACTER_SET_NAME), cs.RDB$BYTES_PER_CHARACTER "
                       "FROM MON$ATTACHMENTS a JOIN RDB$CHARACTER_SETS cs "
                       "ON cs.RDB$CHARACTER_SET_ID = a.MON$CHARACTER_SET_ID "
                       "WHERE a.MON$ATTACHMENT_ID = CURRENT_CONNECTION",
                       NULL, err);
    if (rc == 0) {
        col_text(q, 0, c->ext_charset, sizeof c->ext_charset);
        int64_t bpc = col_int(q, 1);
        c->ext_bpc = bpc > 0 ? (int)bpc : 1;
        if (!c->ext_charset[0])
            snprintf(c->ext_charset, sizeof c->ext_charset, "NONE");
    }
    stmt_destroy(q);
    return rc;
}

/* The external table's columns from the one-row INSERT's parameters (the target columns'
 * types as the server describes them). DG_E_UNSUPPORTED when a column has no external form
 * (a blob, say): the table then takes the EXECUTE BLOCK path. */
static int ext_plan(fb_bulk *b, const char *const *cols, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    int rc = ext_charset(c, err);
    if (rc)
        return rc;
    b->ext = xcalloc((size_t)b->ncols, sizeof *b->ext);
    b->ext_order = xcalloc((size_t)b->ncols, sizeof *b->ext_order);
    for (int i = 0; i < b->ncols; i++) {
        const XSQLVAR *v = &b->ins->in->sqlvar[i];
        dg_fbx_col *x = &b->ext[i];
        snprintf(x->name, sizeof x->name, "%s", cols[i]);
        switch (v->sqltype & ~1) {
        case SQL_SHORT:
        case SQL_LONG:
        case SQL_INT64:
            x->kind = DG_FBX_INT64;
            x->scale = -v->sqlscale;
            break;
        case SQL_FLOAT:
        case SQL_DOUBLE:
        case SQL_D_FLOAT:
            x->kind = DG_FBX_DOUBLE;
            break;
        case SQL_TIMESTAMP:
            x->kind = DG_FBX_TIMESTAMP;
            break;
        case SQL_TYPE_DATE:
            x->kind = DG_FBX_DATE;
            break;
        case SQL_TYPE_TIME:
            x->kind = DG_FBX_TIME;
            break;
        case SQL_TEXT:
        case SQL_VARYING:
            x->kind = DG_FBX_VARCHAR;
            x->bytes = v->sqllen;
            x->octets = (v->sqlsubtype & 0xff) == 1; /* CHARACTER SET OCTETS */
            x->chars = x->octets ? v->sqllen : v->sqllen / c->ext_bpc;
            x->utf8 = !x->octets && !strcasecmp(c->ext_charset, "UTF8");
            break;
        case SQL_BOOLEAN:
            x->kind = DG_FBX_BOOL;
            break;
        default:
            return dg_err_fail(err, DG_E_UNSUPPORTED, "column %s: no external-file form", cols[i]);
        }
        if (x->scale < 0 || x->scale > 18)
            return dg_err_fail(err, DG_E_UNSUPPORTED, "column %s: scale %d", cols[i], x->scale);
    }
    if (dg_fbx_plan(b->ext, b->ncols, b->ext_order, &b->rec_bytes, err) != 0)
        return DG_E_UNSUPPORTED;
    if (b->rec_bytes > 65535)
        return dg_err_fail(err, DG_E_UNSUPPORTED, "records of %zu bytes", b->rec_bytes);
    b->rec = xmalloc(b->rec_bytes);
    return 0;
}

/* The connection's external table for this load (b->tab): an idle one of the same table
 * and columns, else a new one (its file created here, its table at the first flush). */
static int ext_attach(fb_bulk *b, const char *table, const char *const *cols, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    dg_strbuf key = DG_STRBUF_INIT;
    dg_sb_printf(&key, "%s(", table);
    for (int j = 0; j < b->ncols; j++)
        dg_sb_printf(&key, "%s%s", j ? "," : "", cols[j]);
    dg_sb_add(&key, ")");
    b->tab = -1;
    for (int i = 0; i < c->n_ext && b->tab < 0; i++)
        if (!c->ext_tabs[i].busy && !strcmp(c->ext_tabs[i].key, dg_sb_str(&key)))
            b->tab = i;
    if (b->tab < 0) {
        ext_tab t;
        memset(&t, 0, sizeof t);
        unsigned n = atomic_fetch_add(&ext_seq, 1);
        snprintf(t.name, sizeof t.name, "DG_EXT_%ld_%u", (long)getpid(), n);
        int len = snprintf(t.path, sizeof t.path, "%s/dg_ext_%ld_%u.dat", c->o.external_dir,
                           (long)getpid(), n);
        if (len < 0 || (size_t)len >= sizeof t.path) {
            dg_sb_free(&key);
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                              "external_dir=%s: too long for Firebird (%d bytes at most)",
                              c->o.external_dir, EXT_MAX_PATH - 40);
        }
        int fd = open(t.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || fchmod(fd, 0644) != 0) { /* readable by the server whatever our umask */
            int rc = dg_err_set(err, DG_E_IO, DG_EC_USER, 0, NULL,
                                "external_dir=%s: cannot create %s: %s", c->o.external_dir, t.path,
                                strerror(errno));
            if (fd >= 0) {
                close(fd);
                unlink(t.path);
            }
            dg_sb_free(&key);
            return rc;
        }
        close(fd);
        t.key = xstrdup(dg_sb_str(&key));
        c->ext_tabs = xrealloc(c->ext_tabs, (size_t)(c->n_ext + 1) * sizeof *c->ext_tabs);
        c->ext_tabs[c->n_ext] = t;
        b->tab = c->n_ext++;
    }
    dg_sb_free(&key);
    c->ext_tabs[b->tab].busy = true;
    return 0;
}

/* Opens the table's file for the next slice, emptied (the same file: see above). */
static int ext_open(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    const ext_tab *t = &c->ext_tabs[b->tab];
    int fd = open(t->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0 || !(b->f = fdopen(fd, "wb"))) {
        int rc = dg_err_set(err, DG_E_IO, DG_EC_USER, 0, NULL, "external_dir=%s: cannot write %s: %s",
                            c->o.external_dir, t->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    setvbuf(b->f, NULL, _IOFBF, 1 << 20);
    b->in_tx_rows = 0;
    return 0;
}

/* Closes the current file, if open, and gives the table back to the connection. */
static void ext_detach(fb_bulk *b)
{
    if (b->f) {
        fclose(b->f);
        b->f = NULL;
    }
    fb_conn *c = (fb_conn *)b->base.conn;
    if (b->ext && b->tab >= 0 && b->tab < c->n_ext)
        c->ext_tabs[b->tab].busy = false;
    b->tab = -1;
}

/* One statement in a transaction of its own, committed (DDL must be committed to be used).
 * DDL of other connections (the other jobs of a load making their own external tables)
 * updates the same system-table rows, and Firebird fails one of two such transactions
 * with an update conflict: that one is tried again after a short pause. -1 when it
 * failed, with the server's status left in c->sv for the caller to report. */
static int ext_ddl(fb_conn *c, const char *sql)
{
    enum { TRIES = 20 };
    for (int tries = 1;; tries++) {
        isc_tr_handle t = 0;
        if (dg_fb.isc_start_transaction(c->sv, &t, 1, &c->db, (unsigned short)sizeof bulk_tpb,
                                        bulk_tpb))
            return -1;
        int rc = 0;
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &t, 0, sql, SQL_DIALECT, NULL) ||
            dg_fb.isc_commit_transaction(c->sv, &t))
            rc = -1;
        bool conflict = rc && classify(c->sv, "") == DG_EC_RETRY;
        ISC_STATUS_ARRAY keep;
        memcpy(keep, c->sv, sizeof keep);
        tx_abandon(&t);
        memcpy(c->sv, keep, sizeof keep);
        if (!conflict || tries == TRIES)
            return rc;
        struct timespec pause = {0, (long)(2 + rand() % 8) * tries * 1000000L};
        nanosleep(&pause, NULL);
    }
}

/* Drops the connection's external tables and deletes their files. */
static void ext_drop_all(fb_conn *c)
{
    if (c->n_ext == 0)
        return;
    for (int i = 0; i < c->n_ext && c->db; i++) {
        ext_tab *e = &c->ext_tabs[i];
        if (!e->created)
            continue;
        char sql[64];
        snprintf(sql, sizeof sql, "DROP TABLE %s", e->name);
        if (ext_ddl(c, sql) != 0) {
            dg_err err;
            fill_error(c, NULL, NULL, &err);
            dg_log_warn("firebird: cannot drop the external table %s: %s", e->name, err.msg);
        }
    }
    for (int i = 0; i < c->n_ext; i++) {
        unlink(c->ext_tabs[i].path);
        free(c->ext_tabs[i].key);
    }
    free(c->ext_tabs);
    c->ext_tabs = NULL;
    c->n_ext = 0;
}

/* The error of a statement that read the file: when the server could not, say why. */
static int ext_fail(fb_bulk *b, const char *what, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    bool access = sv_has(c->sv, isc_conf_access_denied) || sv_has(c->sv, isc_io_error) ||
                  sv_has(c->sv, isc_io_open_err);
    int rc = fill_error(c, NULL, NULL, err);
    if (access)
        dg_err_prefix(err, "bulk load into %s through external_dir=%s: the server cannot read %s "
                      "(it must run on this machine, allow the directory in firebird.conf with "
                      "ExternalFileAccess = Restrict %s, and its user must be able to read "
                      "the files there)",
                      b->table, c->o.external_dir, c->ext_tabs[b->tab].path, c->o.external_dir);
    else
        dg_err_prefix(err, "bulk load into %s through an external table (%s)", b->table, what);
    return rc;
}

/* Hands the current file to the server: the external table if it is new, the INSERT ...
 * SELECT and its commit; then the file is emptied. */
static int ext_flush(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    ext_tab *t = &c->ext_tabs[b->tab];
    int rc = 0;
    if (fflush(b->f) != 0 || ferror(b->f)) {
        rc = dg_err_fail(err, DG_E_IO, "bulk load into %s: cannot write %s: %s", b->table, t->path,
                         strerror(errno));
        fclose(b->f);
        b->f = NULL;
        return rc;
    }
    fclose(b->f);
    b->f = NULL;
    if (b->in_tx_rows == 0)
        return 0;
    dg_strbuf sql = DG_STRBUF_INIT;
    if (!t->created) {
        char type[96];
        dg_sb_printf(&sql, "CREATE TABLE %s EXTERNAL FILE '", t->name);
        for (const char *p = t->path; *p; p++) /* quotes doubled */
            dg_sb_printf(&sql, *p == '\'' ? "''" : "%c", *p);
        dg_sb_add(&sql, "' (");
        for (int j = 0; j < b->ncols; j++) {
            int i = b->ext_order[j];
            dg_fbx_sql_type(&b->ext[i], c->ext_charset, type, sizeof type);
            dg_sb_printf(&sql, "%sC%d %s", j ? ", " : "", i, type);
        }
        for (int j = 0; j < b->ncols; j++)
            dg_sb_printf(&sql, ", N%d BOOLEAN", b->ext_order[j]);
        dg_sb_add(&sql, ")");
        if (ext_ddl(c, dg_sb_str(&sql)) != 0) {
            rc = ext_fail(b, "CREATE TABLE", err);
            goto out;
        }
        t->created = true;
        dg_sb_reset(&sql);
    }
    dg_sb_printf(&sql, "INSERT INTO %s (", b->table);
    for (int i = 0; i < b->ncols; i++)
        dg_sb_printf(&sql, "%s%s", i ? ", " : "", b->cols[i]);
    dg_sb_add(&sql, ") SELECT ");
    for (int i = 0; i < b->ncols; i++) {
        if (b->ext[i].saw_null) /* only columns that had a NULL read their indicator */
            dg_sb_printf(&sql, "%sCASE WHEN N%d THEN NULL ELSE C%d END", i ? ", " : "", i, i);
        else
            dg_sb_printf(&sql, "%sC%d", i ? ", " : "", i);
    }
    dg_sb_printf(&sql, " FROM %s", t->name);
    if ((rc = tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) == 0) {
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &b->tx, 0, dg_sb_str(&sql), SQL_DIALECT,
                                             NULL))
            rc = ext_fail(b, "INSERT ... SELECT", err);
        else if (dg_fb.isc_commit_transaction(c->sv, &b->tx))
            rc = fill_error(c, "bulk load: commit", "COMMIT", err);
        tx_abandon(&b->tx);
    }
    for (int i = 0; i < b->ncols; i++)
        b->ext[i].saw_null = false;
out:
    dg_sb_free(&sql);
    if (truncate(t->path, 0) != 0 && rc == 0) /* the rows are in: give the space back */
        rc = dg_err_fail(err, DG_E_IO, "external_dir: cannot empty %s: %s", t->path, strerror(errno));
    return rc;
}

/* ---- bulk load: the prepared statements a connection keeps ---------------------------------- */

/* See blk_cache (with the connection's other types, at the top). */

static void blk_cache_clear(fb_conn *c)
{
    int keep = 0;
    for (int i = 0; i < c->n_blks; i++) {
        blk_cache *e = &c->blks[i];
        if (e->busy) { /* an open load's stay (no loader runs DDL in the middle of one) */
            c->blks[keep++] = *e;
            continue;
        }
        stmt_destroy(e->ins);
        stmt_destroy(e->blk);
        free(e->key);
    }
    c->n_blks = keep;
    if (keep == 0) {
        free(c->blks);
        c->blks = NULL;
    }
}

static char *bulk_key(const char *table, const char *const *cols, int ncols)
{
    dg_strbuf key = DG_STRBUF_INIT;
    dg_sb_printf(&key, "%s(", table);
    for (int j = 0; j < ncols; j++)
        dg_sb_printf(&key, "%s%s", j ? "," : "", cols[j]);
    dg_sb_add(&key, ")");
    char *k = xstrdup(dg_sb_str(&key));
    dg_sb_free(&key);
    return k;
}

static int fb_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                  dg_bulk **out, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    fb_bulk *b = xcalloc(1, sizeof *b);
    b->base.conn = conn;
    b->tab = -1;
    b->cached = -1;
    b->ncols = ncols;
    dg_strbuf sql = DG_STRBUF_INIT;
    int rc;
    char *key = NULL;
    if (c->o.bulk != BULK_EXTERNAL) {
        key = bulk_key(table, cols, ncols);
        for (int i = 0; i < c->n_blks; i++) {
            blk_cache *e = &c->blks[i];
            if (e->busy || strcmp(e->key, key) != 0)
                continue;
            e->busy = true;
            b->cached = i;
            b->ins = e->ins;
            b->blk = e->blk;
            free(key);
            if (b->blk) {
                b->per_block = e->per;
                b->vals = xcalloc((size_t)e->per * (size_t)ncols + 1, sizeof *b->vals);
                b->text_off = xcalloc((size_t)e->per * (size_t)ncols, sizeof *b->text_off);
            }
            if ((rc = tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) != 0)
                goto fail;
            *out = &b->base;
            return 0;
        }
    }
    dg_sql_insert(table, cols, ncols, &sql);
    rc = stmt_prepare(c, dg_sb_str(&sql), &b->ins, err);
    if (rc)
        goto fail;
    if (b->ins->nin != ncols) {
        rc = dg_err_fail(err, DG_E_INVAL, "bulk load into %s: %d columns, %d parameters", table, ncols,
                         b->ins->nin);
        goto fail;
    }
    if (c->o.bulk == BULK_EXTERNAL) {
        dg_err perr;
        dg_err_clear(&perr);
        rc = ext_plan(b, cols, &perr);
        if (rc == 0) {
            b->table = xstrdup(table);
            b->cols = xcalloc((size_t)ncols, sizeof *b->cols);
            for (int j = 0; j < ncols; j++)
                b->cols[j] = xstrdup(cols[j]);
            dg_sb_free(&sql);
            if ((rc = ext_attach(b, table, cols, err)) != 0 || (rc = ext_open(b, err)) != 0)
                goto fail;
            *out = &b->base;
            return 0;
        }
        if (rc != DG_E_UNSUPPORTED) {
            if (err)
                *err = perr;
            goto fail;
        }
        /* a column with no external form: this table takes the EXECUTE BLOCK path */
        static atomic_flag told = ATOMIC_FLAG_INIT;
        if (!atomic_flag_test_and_set(&told))
            dg_log_warn("firebird: table %s loads through EXECUTE BLOCK, not an external file: %s",
                        table, perr.msg);
        free(b->ext);
        free(b->ext_order);
        b->ext = NULL;
        b->ext_order = NULL;
        rc = 0;
    }
    /* EXECUTE BLOCK packs many rows into one round trip; its parameters take the column
     * types (TYPE OF COLUMN), and message and text stay under Firebird's 64 KB limits. */
    int per = (int)((BULK_MAX_MSG_BYTES - 16) / (row_msg_bytes(b->ins) + 1));
    size_t row_sql = 0;
    for (int j = 0; j < ncols; j++)
        row_sql += 2 * strlen(cols[j]) + strlen(table) + 40;
    row_sql += strlen(table) + 30;
    if ((size_t)per * row_sql > BULK_MAX_SQL_BYTES)
        per = (int)(BULK_MAX_SQL_BYTES / row_sql);
    if (per > BULK_MAX_BLOCK_ROWS)
        per = BULK_MAX_BLOCK_ROWS;
    if (c->o.bulk != BULK_INSERT && per >= 4) {
        /* the last parameter is the number of rows sent: the unit's last, partial block
         * goes through the same statement (its unused parameters NULL) */
        dg_sb_reset(&sql);
        dg_sb_add(&sql, "EXECUTE BLOCK (");
        for (int r = 0; r < per; r++)
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%sp%d TYPE OF COLUMN %s.%s = ?", r || j ? ", " : "", r * ncols + j,
                             table, cols[j]);
        dg_sb_add(&sql, ", n INTEGER = ?) AS BEGIN\n");
        for (int r = 0; r < per; r++) {
            if (r > 0)
                dg_sb_printf(&sql, "IF (n > %d) THEN ", r);
            dg_sb_printf(&sql, "INSERT INTO %s (", table);
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s%s", j ? ", " : "", cols[j]);
            dg_sb_add(&sql, ") VALUES (");
            for (int j = 0; j < ncols; j++)
                dg_sb_printf(&sql, "%s:p%d", j ? ", " : "", r * ncols + j);
            dg_sb_add(&sql, ");\n");
        }
        dg_sb_add(&sql, "END");
        rc = stmt_prepare(c, dg_sb_str(&sql), &b->blk, err);
        if (rc) {
            dg_err_prefix(err, "bulk load into %s (EXECUTE BLOCK)", table);
            goto fail;
        }
        b->per_block = per;
        b->vals = xcalloc((size_t)per * (size_t)ncols + 1, sizeof *b->vals);
        b->text_off = xcalloc((size_t)per * (size_t)ncols, sizeof *b->text_off);
    }
    dg_sb_free(&sql);
    if (key) { /* kept for the next load of this table on this connection */
        c->blks = xrealloc(c->blks, (size_t)(c->n_blks + 1) * sizeof *c->blks);
        c->blks[c->n_blks] = (blk_cache){key, b->ins, b->blk, b->per_block, true};
        b->cached = c->n_blks++;
        key = NULL;
    }
    if ((rc = tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err)) != 0)
        goto fail;
    *out = &b->base;
    return 0;
fail:
    free(key);
    dg_sb_free(&sql);
    bulk_free(b);
    return rc;
}

/* Commits the load so far and starts the next slice, so no transaction grows without bound. */
static int bulk_slice(fb_bulk *b, dg_err *err)
{
    fb_conn *c = (fb_conn *)b->base.conn;
    if (dg_fb.isc_commit_transaction(c->sv, &b->tx)) {
        int rc = fill_error(c, "bulk load: commit", "COMMIT", err);
        tx_abandon(&b->tx);
        return rc;
    }
    b->in_tx_rows = 0;
    return tx_start(c, &b->tx, bulk_tpb, sizeof bulk_tpb, err);
}

/* Sends the buffered rows through the block: a partial one (the unit's last) with its
 * unused parameters NULL, which the block's row count keeps out of the table. */
static int bulk_flush(fb_bulk *b, dg_err *err)
{
    int used = b->nbuf * b->ncols, all = b->per_block * b->ncols;
    for (int i = 0; i < used; i++)
        if (b->vals[i].type == DG_V_TEXT)
            b->vals[i].u.s.ptr = b->text + b->text_off[i];
    for (int i = used; i < all; i++)
        b->vals[i] = dg_vnull();
    b->vals[all] = dg_vint(b->nbuf);
    int rc = stmt_run(b->blk, b->vals, &b->tx, TXK_LOCAL, err);
    b->blk->txk = TXK_NONE;
    b->blk->txp = NULL;
    if (rc)
        return rc;
    b->in_tx_rows += (uint64_t)b->nbuf;
    b->nbuf = 0;
    b->text_len = 0;
    return b->in_tx_rows >= BULK_COMMIT_ROWS ? bulk_slice(b, err) : 0;
}

static int fb_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    int rc;
    for (int i = 0; i < b->ncols; i++)
        b->base.bytes += dg_value_bytes(&vals[i]);
    if (b->ext) {
        if ((rc = dg_fbx_encode(b->ext, b->ncols, vals, b->rec, b->rec_bytes, err)) != 0) {
            dg_err_prefix(err, "bulk load into %s, row %llu", b->table,
                          (unsigned long long)b->base.rows + 1);
            return rc;
        }
        if (fwrite(b->rec, b->rec_bytes, 1, b->f) != 1)
            return dg_err_fail(err, DG_E_IO, "bulk load into %s: cannot write its external file: %s",
                               b->table, strerror(errno));
        b->base.rows++;
        if (++b->in_tx_rows >= EXT_SLICE_ROWS && ((rc = ext_flush(b, err)) != 0 ||
                                                  (rc = ext_open(b, err)) != 0))
            return rc;
        return 0;
    }
    if (!b->blk) {
        rc = stmt_run(b->ins, vals, &b->tx, TXK_LOCAL, err);
        b->ins->txk = TXK_NONE;
        b->ins->txp = NULL;
        if (rc == 0 && ++b->in_tx_rows >= BULK_COMMIT_ROWS)
            rc = bulk_slice(b, err);
        if (rc == 0)
            b->base.rows++;
        return rc;
    }
    /* copy the row: the caller's text is only valid during this call */
    dg_value *dst = &b->vals[b->nbuf * b->ncols];
    size_t *off = &b->text_off[b->nbuf * b->ncols];
    for (int i = 0; i < b->ncols; i++) {
        dst[i] = vals[i];
        if (vals[i].type == DG_V_TEXT) {
            size_t need = b->text_len + vals[i].u.s.len + 1;
            if (need > b->text_cap) {
                b->text_cap = need * 2 > 65536 ? need * 2 : 65536;
                b->text = xrealloc(b->text, b->text_cap);
            }
            memcpy(b->text + b->text_len, vals[i].u.s.ptr, vals[i].u.s.len);
            b->text[b->text_len + vals[i].u.s.len] = '\0';
            off[i] = b->text_len;
            b->text_len = need;
        }
    }
    b->nbuf++;
    b->base.rows++;
    return b->nbuf == b->per_block ? bulk_flush(b, err) : 0;
}

static int fb_bulk_end(dg_bulk *bulk, bool commit, dg_err *err)
{
    fb_bulk *b = (fb_bulk *)bulk;
    fb_conn *c = (fb_conn *)bulk->conn;
    int rc = 0;
    if (b->ext) {
        if (commit && b->f)
            rc = ext_flush(b, err);
        bulk_free(b);
        return rc;
    }
    if (commit && b->nbuf > 0)
        rc = bulk_flush(b, err); /* the last, partial block */
    if (commit && rc == 0) {
        if (dg_fb.isc_commit_transaction(c->sv, &b->tx))
            rc = fill_error(c, "bulk load: commit", "COMMIT", err);
    }
    tx_abandon(&b->tx);
    bulk_free(b);
    return rc;
}

/* ---- statistics and server facts -------------------------------------------------------- */

static const char *const fbi_names[] = {"read_committed", "snapshot", "serializable"};

/* Runs a one-row query (prepared once into *cache) in its own short read-only snapshot
 * transaction: the MON$ tables are a snapshot taken once per transaction. On success the
 * row is in (*cache)'s columns until the next call. */
static int query_row(fb_conn *c, fb_stmt **cache, const char *sql, const dg_value *params,
                     dg_err *err)
{
    static const char tpb[] = {isc_tpb_version3, isc_tpb_read, isc_tpb_concurrency, isc_tpb_wait};
    int rc;
    if (!*cache && (rc = stmt_prepare(c, sql, cache, err)) != 0)
        return rc;
    fb_stmt *s = *cache;
    isc_tr_handle t = 0;
    if ((rc = tx_start(c, &t, tpb, sizeof tpb, err)) != 0)
        return rc;
    rc = stmt_run(s, params, &t, TXK_LOCAL, err);
    if (rc == 0) {
        ISC_STATUS r = dg_fb.isc_dsql_fetch(c->sv, &s->h, SQL_DIALECT, s->out);
        if (r == 100)
            rc = dg_err_fail(err, DG_E_NOTFOUND, "no row from: %s", sql);
        else if (r)
            rc = fill_error(c, NULL, NULL, err);
    }
    cursor_close(s);
    if (rc == 0 && dg_fb.isc_commit_transaction(c->sv, &t))
        rc = fill_error(c, NULL, NULL, err);
    tx_abandon(&t);
    return rc;
}

static int64_t col_int(fb_stmt *s, int i)
{
    dg_value v;
    int64_t x;
    fb_column(&s->base, i, &v);
    return dg_value_as_int(&v, &x) ? x : -1;
}

static void col_text(fb_stmt *s, int i, char *buf, size_t len)
{
    dg_value v;
    fb_column(&s->base, i, &v);
    dg_value_format(&v, buf, len);
    /* CHAR columns of the MON$ tables come blank-padded */
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ')
        buf[--n] = '\0';
}

static int read_stats(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    dg_dbstats *out = arg;
    out->cache_hits = out->cache_misses = out->pages_written = -1;
    /* Firebird counts started transactions (MON$NEXT_TRANSACTION), not commits */
    out->commits = out->rollbacks = -1;
    out->db_size_bytes = -1;
    int rc = query_row(c, &c->q_stats,
                       "SELECT d.MON$PAGES * d.MON$PAGE_SIZE, i.MON$PAGE_FETCHES, i.MON$PAGE_READS, "
                       "i.MON$PAGE_WRITES FROM MON$DATABASE d JOIN MON$IO_STATS i ON i.MON$STAT_ID = "
                       "d.MON$STAT_ID",
                       NULL, err);
    if (rc)
        return rc;
    fb_stmt *s = c->q_stats;
    out->db_size_bytes = col_int(s, 0);
    /* The database row counts for the whole database only where the page cache is shared
     * (SuperServer); with a cache per attachment (Classic, SuperClassic) it is this
     * attachment's own, and the runner adds up the terminals' (fb_conn_cache_stats). */
    if (c->db_class != isc_info_db_class_server_access)
        return 0;
    int64_t fetches = col_int(s, 1), reads = col_int(s, 2);
    if (fetches >= 0 && reads >= 0) {
        out->cache_hits = fetches - reads;
        out->cache_misses = reads;
    }
    out->pages_written = col_int(s, 3);
    return 0;
}

/* Classic and SuperClassic: this attachment's page fetches and reads (its own cache), read
 * by the terminal's thread at interval boundaries; -1 where the cache is shared. */
static void fb_conn_cache_stats(dg_conn *conn, int64_t *hits, int64_t *misses)
{
    fb_conn *c = (fb_conn *)conn;
    static const char items[] = {isc_info_fetches, isc_info_reads, isc_info_end};
    char buf[64];
    int64_t fetches = -1, reads = -1;
    *hits = *misses = -1;
    if (c->db_class == isc_info_db_class_server_access ||
        dg_fb.isc_database_info(c->sv, &c->db, sizeof items, items, sizeof buf, buf))
        return;
    for (const char *p = buf; p < buf + sizeof buf - 3 && *p != isc_info_end;) {
        short len = (short)dg_fb.isc_vax_integer(p + 1, 2);
        if (len < 0 || p + 3 + len > buf + sizeof buf)
            break;
        int64_t v = dg_fb.isc_vax_integer(p + 3, len);
        if (*p == isc_info_fetches)
            fetches = v;
        else if (*p == isc_info_reads)
            reads = v;
        p += 3 + len;
    }
    if (fetches >= 0 && reads >= 0) {
        *hits = fetches - reads;
        *misses = reads;
    }
}

/* The attachment's id on the server (isc_info_attachment_id), -1 when it does not say. */
static int64_t attachment_id(fb_conn *c, isc_db_handle *db)
{
    static const char items[] = {isc_info_attachment_id, isc_info_end};
    char buf[32];
    if (dg_fb.isc_database_info(c->sv, db, sizeof items, items, sizeof buf, buf) || buf[0] != isc_info_attachment_id)
        return -1;
    short len = (short)dg_fb.isc_vax_integer(buf + 1, 2);
    if (len <= 0 || len > 8)
        return -1;
    return (int64_t)dg_fb.isc_vax_integer(buf + 3, len);
}

/* A database class of "classic access" (a page cache per attachment) is served either by
 * SuperClassic (one process, a thread per attachment) or Classic (a process per
 * attachment). The process serving an attachment is MON$SERVER_PID: a second, short
 * attachment is served by another process only in Classic. Counting the server
 * processes of all attachments would not tell: any local embedded user of the database
 * adds one in either mode. Through the embedded engine both attachments live in this
 * process, which is SuperClassic's shape. */
static const char *classic_or_superclassic(fb_conn *c)
{
    isc_db_handle probe = 0;
    dg_err e = DG_ERR_INIT;
    if (open_session(c, &probe, &e))
        return "SuperClassic or Classic";
    const char *mode = "SuperClassic or Classic";
    int64_t id = attachment_id(c, &probe);
    fb_stmt *q = NULL;
    if (id >= 0) {
        dg_value p = dg_vint(id);
        if (query_row(c, &q,
                      "SELECT COUNT(DISTINCT MON$SERVER_PID) FROM MON$ATTACHMENTS "
                      "WHERE MON$ATTACHMENT_ID = CURRENT_CONNECTION OR MON$ATTACHMENT_ID = ?",
                      &p, &e) == 0) {
            int64_t n = col_int(q, 0);
            mode = n == 2 ? "Classic" : n == 1 ? "SuperClassic" : mode;
        }
    }
    stmt_destroy(q);
    ISC_STATUS_ARRAY l;
    dg_fb.isc_detach_database(l, &probe);
    return mode;
}

static int read_server_info(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    dg_server_info *out = arg;
    memset(out, 0, sizeof *out);
    const char *build = c->build;
    int rc = query_row(c, &c->q_info,
                       "SELECT rdb$get_context('SYSTEM', 'ENGINE_VERSION'), d.MON$PAGE_BUFFERS, "
                       "d.MON$PAGE_SIZE, d.MON$FORCED_WRITES, d.MON$ODS_MAJOR || '.' || d.MON$ODS_MINOR, "
                       "d.MON$SWEEP_INTERVAL, d.MON$SQL_DIALECT, d.MON$READ_ONLY, d.MON$OWNER, "
                       "d.MON$DATABASE_NAME, a.MON$REMOTE_PROTOCOL, cs.RDB$CHARACTER_SET_NAME, "
                       "d.MON$OLDEST_TRANSACTION, d.MON$NEXT_TRANSACTION, a.MON$SERVER_PID, "
                       "(SELECT COUNT(DISTINCT MON$SERVER_PID) FROM MON$ATTACHMENTS "
                       "WHERE MON$SYSTEM_FLAG = 0) "
                       "FROM MON$DATABASE d CROSS JOIN MON$ATTACHMENTS a "
                       "LEFT JOIN RDB$CHARACTER_SETS cs ON cs.RDB$CHARACTER_SET_ID = a.MON$CHARACTER_SET_ID "
                       "WHERE a.MON$ATTACHMENT_ID = CURRENT_CONNECTION",
                       NULL, err);
    if (rc)
        return rc;
    fb_stmt *s = c->q_info;
    char v[128], buf[128];
    col_text(s, 0, v, sizeof v);
    snprintf(out->version, sizeof out->version, "Firebird %s%s%s%s", v, build[0] ? " (" : "", build,
             build[0] ? ")" : "");
    static const struct {
        const char *name;
        int col;
    } cols[] = {{"page_buffers", 1}, {"page_size", 2},     {"forced_writes", 3},
                {"ods_version", 4},  {"sweep_interval", 5}, {"sql_dialect", 6},
                {"read_only", 7},    {"owner", 8},          {"database", 9},
                {"protocol", 10},    {"charset", 11},       {"oldest_transaction", 12},
                {"next_transaction", 13}};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        dg_value val;
        fb_column(&s->base, cols[i].col, &val);
        if (cols[i].col == 10 && val.type == DG_V_NULL)
            snprintf(buf, sizeof buf, "embedded");
        else if (cols[i].col == 3 || cols[i].col == 7)
            snprintf(buf, sizeof buf, "%s", col_int(s, cols[i].col) == 1 ? "on" : "off");
        else
            col_text(s, cols[i].col, buf, sizeof buf);
        dg_server_info_add(out, cols[i].name, buf);
    }
    /* The wire of this attachment (NULL when embedded): what encryption and compression the
     * client and the server agreed on, whatever either asked for. A query of its own:
     * servers before 3.0.4 do not know these variables, and lose only these two facts. */
    dg_err werr = DG_ERR_INIT;
    if (query_row(c, &c->q_wire,
                  "SELECT rdb$get_context('SYSTEM', 'WIRE_ENCRYPTED'), "
                  "rdb$get_context('SYSTEM', 'WIRE_COMPRESSED') FROM RDB$DATABASE",
                  NULL, &werr) == 0) {
        static const char *const wire[] = {"wire_encrypted", "wire_compressed"};
        for (int i = 0; i < 2; i++) {
            dg_value val;
            fb_column(&c->q_wire->base, i, &val);
            if (val.type == DG_V_NULL)
                continue;
            col_text(c->q_wire, i, v, sizeof v);
            dg_server_info_add(out, wire[i], !strcmp(v, "TRUE") ? "on" : "off");
        }
    }
    /* Super shares one page cache (db class "server access"); Classic and SuperClassic give
     * each attachment its own, and Classic runs one process per attachment. */
    const char *mode = "unknown";
    if (c->db_class == isc_info_db_class_server_access)
        mode = "Super";
    else if (c->db_class == isc_info_db_class_classic_access)
        mode = classic_or_superclassic(c);
    dg_server_info_add(out, "server_mode", mode);
    dg_server_info_add(out, "page_cache", c->db_class == isc_info_db_class_server_access
                                              ? "shared"
                                              : "per attachment");
    if (c->o.buffers > 0) {
        snprintf(buf, sizeof buf, "%d", c->o.buffers);
        dg_server_info_add(out, "buffers_requested", buf);
    }
    snprintf(buf, sizeof buf, "%s record_version wait",
             fbi_names[c->o.isolation]);
    if (c->o.isolation != FBI_READ_COMMITTED)
        snprintf(buf, sizeof buf, "%s wait", fbi_names[c->o.isolation]);
    dg_server_info_add(out, "default_isolation", buf);
    snprintf(buf, sizeof buf, "%d", c->o.lock_timeout_s);
    dg_server_info_add(out, "lock_timeout_s", buf);
    dg_server_info_add(out, "read_tx", c->o.read_shared ? "shared" : "statement");
    if (c->o.load_async)
        dg_server_info_add(out, "load_forced_writes", c->fw_restore ? "off during the load" : "off (were off)");
    if (c->o.bulk == BULK_EXTERNAL) {
        snprintf(buf, sizeof buf, "external file");
        dg_server_info_add(out, "bulk", buf);
        dg_server_info_add(out, "bulk_external_dir", c->o.external_dir);
    } else {
        dg_server_info_add(out, "bulk", c->o.bulk == BULK_BLOCK ? "execute block" : "prepared insert");
    }
    return 0;
}

/* ---- table and index statistics: gstat through the Services API -------------------------- */

/* The service manager of the database's server ("host/port:service_mgr", or the embedded
 * engine's) and the database's path as that server knows it. */
static void service_names(const fb_conn *c, char *svc, size_t svclen, const char **db)
{
    const char *colon = c->remote ? strchr(c->target[0] == '[' ? strchr(c->target, ']') : c->target, ':')
                                  : NULL;
    if (colon) {
        snprintf(svc, svclen, "%.*s:service_mgr", (int)(colon - c->target), c->target);
        *db = colon + 1;
    } else {
        snprintf(svc, svclen, "service_mgr");
        *db = c->target;
    }
}

/* "...name: 123..." in line: the number after name, -1 when absent. */
static int64_t stat_field(const char *line, const char *name)
{
    const char *p = strstr(line, name);
    if (!p)
        return -1;
    p += strlen(name);
    while (*p == ' ' || *p == '\t' || *p == ':')
        p++;
    return *p >= '0' && *p <= '9' ? strtoll(p, NULL, 10) : -1;
}

static bool wanted_table(const char *const *tables, const char *name, const char **as)
{
    for (const char *const *t = tables; *t; t++)
        if (!strcasecmp(*t, name)) {
            *as = *t;
            return true;
        }
    return false;
}

/* gstat -d -i -r's report, read line by line: a table's heading at the line's start
 * ("CUSTACC (1979)"), its counts below it, then an indented "Index NAME (n)" heading per
 * index with "depth: D, leaf buckets: L, nodes: N". A table's bytes are its pointer, data
 * and blob pages; an index's, its leaf pages (the levels above add about 1/fan-out). */
static int fb_object_stats(dg_conn *conn, const char *const *tables, dg_objstat **out, int *n,
                           dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    char svcname[1100];
    const char *db;
    service_names(c, svcname, sizeof svcname, &db);
    pblock spb = {.n = 0};
    spb.buf[spb.n++] = isc_spb_version;
    spb.buf[spb.n++] = isc_spb_current_version;
    if (c->user && *c->user)
        pb_str(&spb, isc_spb_user_name, c->user);
    if (c->password && *c->password)
        pb_str(&spb, isc_spb_password, c->password);
    pb_wire_config(&spb, isc_spb_config, &c->o);
    size_t dblen = strlen(db);
    char req[1100];
    size_t rn = 0;
    if (spb.overflow || dblen > sizeof req - 16)
        return dg_err_fail(err, DG_E_INVAL, "Firebird service parameters are too long");
    req[rn++] = isc_action_svc_db_stats;
    req[rn++] = isc_spb_dbname;
    req[rn++] = (char)(dblen & 0xff);
    req[rn++] = (char)(dblen >> 8);
    memcpy(req + rn, db, dblen);
    rn += dblen;
    uint32_t opts = isc_spb_sts_data_pages | isc_spb_sts_idx_pages | isc_spb_sts_record_versions;
    req[rn++] = isc_spb_options;
    for (int i = 0; i < 4; i++)
        req[rn++] = (char)((opts >> (8 * i)) & 0xff);

    isc_svc_handle svc = 0;
    if (dg_fb.isc_service_attach(c->sv, 0, svcname, &svc, (unsigned short)spb.n, spb.buf) ||
        dg_fb.isc_service_start(c->sv, &svc, NULL, (unsigned short)rn, req)) {
        int rc = fill_error(c, NULL, NULL, err);
        if (svc) {
            ISC_STATUS_ARRAY l;
            dg_fb.isc_service_detach(l, &svc);
        }
        dg_err_prefix(err, "cannot read the database's statistics (gstat)");
        return rc;
    }
    /* the whole report (a few hundred bytes per table), then its lines */
    static const char items[] = {isc_info_svc_to_eof};
    char buf[16384];
    dg_strbuf text = DG_STRBUF_INIT;
    int rc = 0;
    for (;;) {
        if (dg_fb.isc_service_query(c->sv, &svc, NULL, 0, NULL, sizeof items, items, sizeof buf, buf)) {
            rc = fill_error(c, NULL, NULL, err);
            break;
        }
        if (buf[0] != isc_info_svc_to_eof)
            break;
        int len = (int)dg_fb.isc_vax_integer(buf + 1, 2);
        if (len <= 0 || len > (int)sizeof buf - 4)
            break; /* nothing more: the end */
        dg_sb_addn(&text, buf + 3, (size_t)len);
    }
    ISC_STATUS_ARRAY l;
    dg_fb.isc_service_detach(l, &svc);
    if (rc) {
        dg_sb_free(&text);
        dg_err_prefix(err, "cannot read the database's statistics (gstat)");
        return rc;
    }
    int64_t page_size = -1;
    dg_objstat *table = NULL; /* the wanted table being read; NULL while skipping */
    int table_i = -1, index_i = -1;
    const char *all = text.buf ? text.buf : "";
    for (const char *p = all; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        if (len >= sizeof line)
            len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol ? eol + 1 : p + strlen(p);
        if (len == 0)
            continue;
        char name[96];
        int id;
        if (page_size < 0 && strstr(line, "Page size"))
            page_size = stat_field(line, "Page size");
        if (line[0] != ' ' && line[0] != '\t' && sscanf(line, "%95s (%d)", name, &id) == 2 &&
            line[strlen(line) - 1] == ')') {
            const char *as;
            table = NULL;
            index_i = -1;
            if (wanted_table(tables, name, &as)) {
                *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
                table_i = (*n)++;
                table = &(*out)[table_i];
                memset(table, 0, sizeof *table);
                snprintf(table->table, sizeof table->table, "%s", as);
                snprintf(table->name, sizeof table->name, "%s", name);
                table->rows = -1;
                table->depth = -1;
            }
            continue;
        }
        if (!table)
            continue;
        table = &(*out)[table_i]; /* the array may have moved */
        const char *t = line + strspn(line, " \t");
        if (sscanf(t, "Index %95s (%d)", name, &id) == 2) {
            *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
            index_i = (*n)++;
            dg_objstat *ix = &(*out)[index_i];
            memset(ix, 0, sizeof *ix);
            snprintf(ix->table, sizeof ix->table, "%s", (*out)[table_i].table);
            snprintf(ix->name, sizeof ix->name, "%s", name);
            ix->index = true;
            ix->rows = ix->bytes = -1;
            ix->depth = -1;
            continue;
        }
        table = &(*out)[table_i];
        if (index_i >= 0) {
            dg_objstat *ix = &(*out)[index_i];
            int64_t v;
            if ((v = stat_field(t, "depth")) >= 0)
                ix->depth = (int)v;
            if ((v = stat_field(t, "leaf buckets")) >= 0)
                ix->bytes = v; /* pages until the page size is applied */
            if ((v = stat_field(t, "nodes")) >= 0)
                ix->rows = v;
            continue;
        }
        int64_t v;
        if ((v = stat_field(t, "total records")) >= 0)
            table->rows = v;
        if ((v = stat_field(t, "Pointer pages")) >= 0)
            table->bytes += v;
        if ((v = stat_field(t, "Data pages")) >= 0)
            table->bytes += v;
        if ((v = stat_field(t, "blob pages")) >= 0)
            table->bytes += v;
    }
    dg_sb_free(&text);
    for (int i = 0; i < *n; i++) /* pages to bytes */
        (*out)[i].bytes = page_size > 0 && (*out)[i].bytes >= 0 ? (*out)[i].bytes * page_size : -1;
    return 0;
}

typedef struct exists_arg {
    const char *table;
    bool *out;
} exists_arg;

static int read_table_exists(dg_conn *conn, void *arg, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    const char *table = ((exists_arg *)arg)->table;
    bool *out = ((exists_arg *)arg)->out;
    int rc;
    if (!c->q_exists &&
        (rc = stmt_prepare(c,
                           "SELECT COUNT(*) FROM RDB$RELATIONS WHERE RDB$VIEW_BLR IS NULL AND "
                           "(RDB$RELATION_NAME = ? OR RDB$RELATION_NAME = UPPER(?))",
                           &c->q_exists, err)) != 0)
        return rc;
    dg_value p[2] = {dg_vstr(table), dg_vstr(table)};
    if ((rc = fb_execute(&c->q_exists->base, p, 2, err)) != 0)
        return rc;
    int r = fb_fetch(&c->q_exists->base, err);
    if (r < 0)
        return r;
    int64_t n = r == 1 ? col_int(c->q_exists, 0) : 0;
    fb_reset(&c->q_exists->base);
    *out = n > 0;
    return 0;
}

/* Runs fn on the monitor connection, which attaches again after a server restart (a dead
 * attachment shows only when used: fn finds out). */
static int with_reconnect(fb_conn *c, int (*fn)(dg_conn *, void *, dg_err *), void *arg,
                          dg_err *err)
{
    return dg_backend_with_reconnect(&c->base, c->db != 0, reopen, fn, arg, err);
}

static int fb_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    return with_reconnect((fb_conn *)conn, read_stats, out, err);
}

static int fb_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    return with_reconnect((fb_conn *)conn, read_server_info, out, err);
}

/* Asks the engine to stop the attachment's running call (fb_cancel_raise): immediate for
 * an embedded engine; a server must still be running to act on it. */
static void fb_interrupt(dg_conn *conn)
{
    fb_conn *c = (fb_conn *)conn;
    ISC_STATUS_ARRAY st;
    dg_fb.fb_cancel_operation(st, &c->db, fb_cancel_raise);
}

static int fb_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    exists_arg a = {table, out};
    return with_reconnect((fb_conn *)conn, read_table_exists, &a, err);
}

/* ---- descriptor ------------------------------------------------------------------------- */

static const dg_dialect firebird_dialect = {
    .name = "firebird",
    .t_int = "INTEGER",
    .t_bigint = "BIGINT",
    .t_double = "DOUBLE PRECISION",
    /* free text: 4,000 characters (16,000 bytes in UTF8) keeps four such columns inside
     * Firebird's 64 KB record; {clob} has no limit but costs a blob per value */
    .t_text = "VARCHAR(4000)",
    .t_timestamp = "TIMESTAMP",
    .t_blob_text = "BLOB SUB_TYPE TEXT",
    .t_numeric = "NUMERIC",
    .t_char = "CHAR",
    .t_varchar = "VARCHAR",
    .sized_types = true,
    .proc_style = DG_PROC_PSQL,
    .now_expr = "LOCALTIMESTAMP",
    .for_update = " WITH LOCK",
    .limit_style = DG_LIMIT_ROWS,
    .update_returning = true, /* Firebird 3: for statements that change one row */
    .delete_returning = true,
    .desc_index_columns = false, /* direction is per index: CREATE DESCENDING INDEX */
    .drop_if_exists = false,
    .alter_add_pk = true,
    .analyze_prefix = NULL, /* index statistics are computed when an index is built */
    .post_load_sql = NULL,
    /* Firebird 3 has no SQL for firebird.conf (RDB$CONFIG came in 4): what the attachment
     * shows of it */
    .server_setting_info = (const char *const[]){"ServerMode", "server_mode", "DefaultDbCachePages",
                                                 "page_buffers", NULL, NULL},
    .table_bytes_sql = NULL, /* page counts per table are gstat's, not SQL's */
    .octet_length_open = "OCTET_LENGTH(",
    .octet_length_close = ")",
    .max_params = 2000, /* a message is at most 64 KB */
};

static const char *const firebird_schemes[] = {"firebird", NULL};

/* Every setting the backend accepts (anything else is refused); isolation's spellings map
 * through isolation_of, read_tx's and bulk's by position. */
static const dg_backend_option backend_options[] = {
    {"buffers", "int", 50, 2147483647, NULL,
     "page cache pages of this attachment (Classic, SuperClassic; a SuperServer ignores it)"},
    {"set_buffers", "int", 0, 2147483647, NULL,
     "writes the database header's page-cache size (permanent; 0: DefaultDbCachePages)"},
    {"charset", "text", 0, 31, NULL, "connection character set (default UTF8)"},
    {"lc_ctype", "text", 0, 31, NULL, "same as charset"},
    {"role", "text", 0, 63, NULL, "SQL role"},
    {"lock_timeout", "int", -1, 32767, NULL,
     "seconds to wait for a row lock: -1 without limit (default), 0 no wait"},
    {"isolation", "enum", 0, 0,
     "read_committed|rc|snapshot|concurrency|repeatable_read|serializable|consistency",
     "isolation of DEFAULT and of implicit write transactions (default read_committed)"},
    {"connect_timeout", "int", 0, 3600, NULL, "seconds to reach a server (default 10)"},
    {"read_tx", "enum", 0, 0, "shared|statement",
     "SELECTs outside a transaction: one shared read-only transaction (default) or one each"},
    {"bulk", "enum", 0, 0, "block|insert|external",
     "bulk path: EXECUTE BLOCK batches (default), a prepared one-row INSERT, or external files"},
    {"external_dir", "text", 0, 200, NULL,
     "bulk load through external tables: files go to this directory, which the server (on this "
     "machine) must be allowed to read (ExternalFileAccess = Restrict DIR); implies bulk=external"},
    {"load_forced_writes", "enum", 0, 0, "keep|off",
     "off: a load turns the database's forced writes off and back on at its end (owner or "
     "SYSDBA; database-wide; a crash leaves them off)"},
    {"wire_crypt", "enum", 0, 0, "required|enabled|disabled",
     "the client's WireCrypt for this connection (default: its firebird.conf's, Enabled); "
     "disabled needs a server that does not require encryption (WireCrypt = Enabled)"},
    {"wire_compression", "bool", 0, 0, NULL,
     "the client's WireCompression for this connection (compressed when the server allows it)"},
    {"no_gc", "bool", 0, 0, NULL,
     "no garbage collection by this attachment (default: on for loader connections)"},
    {"user", "text", 0, 63, NULL, "user name when the URL has none (else ISC_USER)"},
    {"password", "text", 0, 127, NULL, "password when the URL has none (else ISC_PASSWORD)"},
    {NULL, NULL, 0, 0, NULL, NULL},
};

const dg_backend dg_backend_firebird = {
    .name = "firebird",
    .schemes = firebird_schemes,
    .url_help = "firebird://user:pass@host:port//abs/path.fdb | firebird:PATH (embedded)",
    .caps = DG_CAP_CONCURRENT_WRITERS,
    .dialect = &firebird_dialect,
    .options = backend_options,
    .other_options = NULL,
    .connect = fb_connect,
    .close = fb_close,
    .prepare = fb_prepare,
    .stmt_free = fb_stmt_free,
    .execute = fb_execute,
    .fetch = fb_fetch,
    .ncols = fb_ncols,
    .colname = fb_colname,
    .column = fb_column,
    .affected = fb_affected,
    .reset = fb_reset,
    .exec = fb_exec,
    .begin = fb_begin,
    .commit = fb_commit,
    .rollback = fb_rollback,
    .bulk_begin = fb_bulk_begin,
    .bulk_row = fb_bulk_row,
    .bulk_end = fb_bulk_end,
    .stats = fb_stats,
    .server_info = fb_server_info,
    .conn_cache_stats = fb_conn_cache_stats,
    .table_exists = fb_table_exists,
    .object_stats = fb_object_stats,
    .interrupt = fb_interrupt,
};

