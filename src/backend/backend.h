/*
 * backend.h - the one interface between dbgauge and a database.
 *
 * A backend is one const dg_backend descriptor: name, URL schemes, capability bits,
 * dialect facts and a table of operations. Callers use the static inline wrappers at the
 * end of this file; they never test which database they talk to (capability bits and the
 * dialect answer that).
 *
 * Objects and ownership:
 *   dg_conn   one connection; made by dg_connect(), freed by dg_conn_close() (NULL ok).
 *             Each backend's connection struct embeds dg_conn as its FIRST member.
 *   dg_stmt   a prepared statement of one connection; dg_prepare() / dg_stmt_free().
 *             Freed before its connection. Likewise embeds dg_stmt first.
 *   dg_bulk   an open bulk load into one table; dg_bulk_begin() / dg_bulk_end().
 *
 * Threading: a connection and its statements belong to one thread at a time. Different
 * connections may be used concurrently from different threads.
 *
 * Errors: every operation returns 0 or a negative DG_E* code and fills the caller's
 * dg_err (NULL allowed) with a copied message, the vendor code, an SQLSTATE-like code and
 * a class (RETRY, CONN_LOST, CONSTRAINT, USER, FATAL). Messages never contain passwords.
 *
 * SQL text: statements use '?' placeholders for parameters; backends that need another
 * form (PostgreSQL's $n) rewrite it. Strings inside quotes are left alone.
 */
#ifndef DG_BACKEND_BACKEND_H
#define DG_BACKEND_BACKEND_H

#include "core/err.h"
#include "core/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- values ------------------------------------------------------------------------- */

typedef enum dg_vtype {
    DG_V_NULL = 0,
    DG_V_INT,     /* u.i */
    DG_V_DOUBLE,  /* u.d */
    DG_V_TEXT,    /* u.s: pointer + length; need not be NUL-terminated, but the byte at
                     ptr[len] must be readable (a C string, or a slice of a larger buffer):
                     backends that need a terminator copy only when it is not NUL */
    DG_V_NUMERIC, /* u.n: exact decimal = unscaled / 10^scale (money, TPC-C numerics) */
} dg_vtype;

typedef struct dg_value {
    dg_vtype type;
    union {
        int64_t i;
        double d;
        struct {
            const char *ptr;
            size_t len;
        } s;
        struct {
            int64_t unscaled;
            int scale; /* 0..18 */
        } n;
    } u;
} dg_value;

static inline dg_value dg_vnull(void) { dg_value v = {.type = DG_V_NULL}; return v; }
/* Members set one by one: an initialiser would also zero the union's other 8 bytes, on
 * the measured path of every integer parameter. */
static inline dg_value dg_vint(int64_t i)
{
    dg_value v;
    v.type = DG_V_INT;
    v.u.i = i;
    return v;
}
static inline dg_value dg_vdouble(double d) { dg_value v = {.type = DG_V_DOUBLE, .u.d = d}; return v; }
static inline dg_value dg_vtext(const char *p, size_t len)
{
    dg_value v = {.type = DG_V_TEXT, .u.s = {p, len}};
    return v;
}
static inline dg_value dg_vnumeric(int64_t unscaled, int scale)
{
    dg_value v = {.type = DG_V_NUMERIC, .u.n = {unscaled, scale}};
    return v;
}
/* A C string as a TEXT value (strlen). */
dg_value dg_vstr(const char *s);

/* Converts a value to int64 (text parsed, double truncated, numeric scaled down);
 * returns false for NULL or unparsable text. */
bool dg_value_as_int(const dg_value *v, int64_t *out);
/* Converts a value to double; false for NULL or unparsable text. */
bool dg_value_as_double(const dg_value *v, double *out);
/* Approximate size of a value as row data (text length + 1, 8 for numbers, 1 for NULL),
 * for the bulk loaders' byte counts. */
uint64_t dg_value_bytes(const dg_value *v);
/* 10^k for k = 0..18, the powers an exact decimal's scale takes. */
extern const int64_t dg_pow10[19];

/* Writes unscaled / 10^scale as decimal text ("-12.34", "0.05", "7"; scale clamped to
 * 0..18) and a NUL; returns its length. No printf: bind paths call it per parameter. */
#define DG_NUMERIC_BUF 24
size_t dg_format_numeric(int64_t unscaled, int scale, char out[DG_NUMERIC_BUF]);
/* Formats a value as SQL-ish text into buf ("NULL", "12", "1.5", "12.34", the text). */
void dg_value_format(const dg_value *v, char *buf, size_t len);

/* ---- connection options ------------------------------------------------------------- */

/* One per-connection setting: SQLite PRAGMA, PostgreSQL/MySQL SET, Firebird DPB item. */
typedef struct dg_setting {
    const char *name;
    const char *value;
} dg_setting;

typedef struct dg_connopts {
    const dg_setting *settings; /* applied right after connecting, in order */
    int nsettings;
    const char *application_name; /* shown by servers that support it; NULL = "dbgauge" */
    bool bulk_session;             /* loader connection: backend may relax durability */
    bool local_facts;              /* find where a server on this machine keeps its data
                                      (data_path; one query, so only the session's own
                                      connection asks: the server counts it) */
    bool pipeline;                 /* transactions are pipelined (DG_CAP_PIPELINE): from
                                      dg_begin to dg_commit every command is sent without
                                      waiting for the one before, and dg_commit reads all
                                      the results (one round trip); meanwhile dg_execute
                                      gives no rows and no affected count, and errors are
                                      reported by dg_commit. Only for workloads whose
                                      statements do not need each other's results. */
} dg_connopts;

/* ---- transactions ------------------------------------------------------------------- */

typedef enum dg_isolation {
    DG_ISO_DEFAULT = 0, /* the server's default */
    DG_ISO_READ_COMMITTED,
    DG_ISO_REPEATABLE_READ, /* Firebird: SNAPSHOT */
    DG_ISO_SERIALIZABLE,
} dg_isolation;

typedef struct dg_txopts {
    dg_isolation isolation;
    bool read_only;
    bool write; /* the transaction will write: SQLite takes the write lock up front */
} dg_txopts;

/* ---- statistics and server facts ---------------------------------------------------- */

/* A node of a cluster as it sees itself (dg_dbstats.cluster); each -1 when the server is
 * not one, or does not tell. Counters are cumulative; the gauges are as of the reading. */
typedef struct dg_clusterstats {
    int64_t seqno;          /* Galera wsrep_last_committed: the last write set committed in
                               the whole cluster (the same on every synced node) */
    int64_t cert_failures;  /* wsrep_local_cert_failures: this node's transactions the
                               cluster refused at commit (a conflict with another node's) */
    int64_t bf_aborts;      /* wsrep_local_bf_aborts: its local transactions aborted by a
                               replicated one ("brute force") */
    int64_t replays;        /* wsrep_local_replays: transactions replayed after such aborts */
    int64_t flow_paused_ns; /* wsrep_flow_control_paused_ns: time replication held writes */
    int64_t size;           /* gauge: nodes in the cluster, as this one sees it */
    int64_t synced;         /* gauge: 1 when the node is Synced, 0 in another state */
    int64_t recv_queue;     /* gauge: write sets received and not applied yet */
    /* streaming replication (PostgreSQL) */
    int64_t standby;        /* gauge: 1 on a standby (in recovery), 0 on a primary */
    int64_t replicas;       /* gauge: a primary's streaming standbys */
    int64_t lag_bytes;      /* gauge: on a primary, the WAL its furthest standby has not
                               replayed yet (needs pg_read_all_stats) */
    int64_t replay_delay_ms;/* gauge: on a standby, the time since the last transaction it
                               replayed was committed on the primary */
} dg_clusterstats;

/* A part of the database's cache figures, where the engine tells them apart: a kind of
 * object in one cache (PostgreSQL's tables, indexes and TOAST in shared buffers) or a
 * buffer pool of its own. Cumulative, like dg_dbstats's. */
#define DG_MAX_CACHE_PARTS 6
typedef struct dg_cachepart {
    char name[24];
    int64_t hits, misses; /* -1: not told */
} dg_cachepart;

/* Cumulative counters; -1 = not available from this backend. Callers use deltas. */
typedef struct dg_dbstats {
    int64_t cache_hits;      /* logical reads served from the database's own cache */
    int64_t cache_misses;    /* page reads that went to the OS / disk */
    int64_t pages_written;   /* physical page writes (or writes by the DB) */
    int64_t commits;         /* server-side commit counter */
    int64_t rollbacks;
    int64_t db_size_bytes;   /* current size of the database */
    dg_clusterstats cluster; /* a cluster node's own figures */
    int ncache_parts;        /* <= 0: the engine tells no parts (names are then unset) */
    dg_cachepart cache_parts[DG_MAX_CACHE_PARTS];
} dg_dbstats;

/* One table or index as the engine's statistics show it after a load (dg_object_stats). */
typedef struct dg_objstat {
    char table[64]; /* the table, as the engine spells it */
    char name[96];  /* the object: the table itself or one of its indexes */
    bool index;
    int64_t rows;   /* rows, or an index's entries; -1 when not told */
    int64_t bytes;  /* on disk; -1 when not told */
    int depth;      /* an index's tree levels (1 = the root is a leaf); -1 when not told */
} dg_objstat;

#define DG_MAX_SETTINGS 32
typedef struct dg_server_info {
    char version[128];
    int nsettings;
    struct {
        char name[64];
        char value[512]; /* long enough for a reason with two paths (bulk_why) */
    } settings[DG_MAX_SETTINGS];
} dg_server_info;

/* Adds name=value to *si (ignored when full). */
void dg_server_info_add(dg_server_info *si, const char *name, const char *value);

/* ---- dialect ------------------------------------------------------------------------ */

/* What a database's SQL can do with XML documents (dg_dialect.xml_style). */
typedef enum dg_xml_style {
    DG_XML_NONE = 0,     /* nothing: documents are text, the client reads them */
    DG_XML_SQLXML,       /* SQL/XML: an xml type, xpath() with namespaces, XMLTABLE,
                            xmlelement/xmlattributes/xmlagg (PostgreSQL) */
    DG_XML_EXTRACTVALUE, /* ExtractValue(text, xpath) and UpdateXML(text, xpath, new)
                            on text columns, without namespaces (MariaDB, MySQL) */
    DG_XML_XQUERY,       /* SQL/XML with XQuery: an XML type, XMLQUERY with namespaces
                            declared in the query, XMLTABLE, XMLCAST, XMLSERIALIZE (Db2
                            pureXML; written from its manual, not verified) */
} dg_xml_style;

/* The stored-procedure language a dialect has, for workloads that can run their
 * transactions as procedures (tpcc --wl-opt procedures=1). */
typedef enum dg_proc_style {
    DG_PROC_NONE = 0, /* none dbgauge writes procedures in (SQLite has none) */
    DG_PROC_PLPGSQL,  /* PL/pgSQL procedures with COMMIT/ROLLBACK inside, CALLed with
                         INOUT parameters that come back as a row (PostgreSQL 11+) */
    DG_PROC_SQLPSM,   /* SQL/PSM procedures with START TRANSACTION inside, results as a
                         SELECT's result set (MariaDB, MySQL) */
    DG_PROC_PSQL,     /* PSQL selectable procedures, which cannot end a transaction: the
                         client begins and commits it (Firebird 3) */
    DG_PROC_SQLPL,    /* SQL PL procedures that commit, results as a result set opened at
                         their end (Db2; written from its manual, not verified) */
} dg_proc_style;

typedef enum dg_limit_style {
    DG_LIMIT_LIMIT, /* ... LIMIT n */
    DG_LIMIT_ROWS,  /* ... ROWS n (Firebird) */
    DG_LIMIT_FETCH_FIRST, /* ... FETCH FIRST n ROWS ONLY (SQL:2008: Db2, the ODBC default) */
} dg_limit_style;

/* Facts about a database's SQL that workloads need to generate statements. Rendered by
 * dg_sql_render() (backend/dialect.h) from templates, never by `if (backend == X)`. */
typedef struct dg_dialect {
    const char *name;
    /* column types */
    const char *t_int, *t_bigint, *t_double, *t_text, *t_timestamp, *t_blob_text;
    const char *t_xml;       /* a column type that checks and stores XML documents ("xml");
                                NULL: none ({xml} renders t_blob_text) */
    dg_xml_style xml_style;  /* the XML functions its SQL has */
    dg_proc_style proc_style; /* the stored procedures dbgauge can write for it */
    const char *t_numeric;   /* "numeric", "decimal"; with (p,s) appended when sized_types */
    const char *t_char;      /* "char" */
    const char *t_varchar;   /* "varchar" */
    bool sized_types;        /* numeric/char/varchar take (p,s)/(n); SQLite: no */
    const char *now_expr;    /* current timestamp as an SQL expression */
    const char *for_update;  /* suffix of a locking read: " FOR UPDATE", " WITH LOCK", "" */
    dg_limit_style limit_style;
    bool update_returning;   /* UPDATE ... RETURNING */
    bool delete_returning;   /* DELETE ... RETURNING */
    bool desc_index_columns; /* per-column DESC in CREATE INDEX */
    bool drop_if_exists;     /* DROP TABLE IF EXISTS */
    bool alter_add_pk;       /* ALTER TABLE .. ADD CONSTRAINT .. PRIMARY KEY; else a UNIQUE
                                INDEX stands in for a key added after the load (SQLite) */
    const char *analyze_prefix; /* statement before a table name: "ANALYZE "; NULL: none */
    const char *analyze_frozen_prefix; /* the same for a table loaded through bulk_begin_whole
                                          (rows written frozen: no VACUUM needed); NULL: as
                                          analyze_prefix */
    const char *analyze_suffix; /* after the table name (Db2's RUNSTATS, a command inside a
                                   quoted string: its options and the closing quote); NULL:
                                   none */
    const char *analyze_name;   /* the load step's name ("runstats"); NULL: the prefix's words
                                   in lower case ("vacuum analyze") */
    bool analyze_columns;    /* the statement takes a column list after the table name */
    bool parallel_ddl;       /* DDL on different tables may run on several connections at once
                                (index builds of a load on --jobs connections) */
    const char *parallel_ddl_setup; /* run on a connection before such DDL (PostgreSQL: no
                                       parallel workers per index build, the jobs already
                                       keep the cores busy); NULL: nothing */
    bool pk_at_create;       /* the primary key is the table's storage order (InnoDB): adding it
                                after a load rewrites the table, so loaders that write in key
                                order declare it in CREATE TABLE instead */
    const char *load_table_options; /* appended to the CREATE TABLE of a table a loader fills
                                       (dg_sql_create_table), for the time of the load;
                                       NULL: none */
    const char *after_load_alter; /* undoes load_table_options: "ALTER TABLE <table>" and
                                     this, run by the statistics step before its ANALYZE */
    const char *post_load_sql; /* run once after a load (e.g. a WAL checkpoint); NULL if none */
    const char *table_bytes_sql; /* a query of two integers, the bytes on disk of a table's
                                    data (with its out-of-line values) and of its indexes;
                                    every ? is the table's name. NULL: the engine tells
                                    none in SQL (dg_table_bytes) */
    const char *server_setting_sql; /* a query of one text column, the effective value of
                                       the server setting named by its one ?; NULL: see
                                       server_setting_info */
    const char *const *server_setting_info; /* without such a query: pairs of a setting's
                                               name and the server_info entry that shows its
                                               effective value, NULL-ended (Firebird:
                                               ServerMode, server_mode) */
    const char *object_stats_sql; /* rows of (name, 'table' or 'index', rows, bytes, depth)
                                     for a table and each of its indexes, every ? the
                                     table's name; NULL: the backend's object_stats op */
    const char *cache_setting;   /* the server_info entry that is the engine's page cache
                                    ("shared_buffers"), for what a result says about the
                                    cache; NULL: none recorded */
    bool cache_per_connection;   /* each connection has a cache of that size (SQLite); a
                                    server whose settings say "page_cache" "per attachment"
                                    (Firebird's Classic and SuperClassic) has one too */
    const char *user_tables_sql; /* one text column: the user tables of the connection's
                                    database (schema), as dg_object_stats names them, for
                                    what a restore brought (dg_user_tables) */
    const char *table_bytes_refresh; /* run before it with the table's name appended, where
                                        the figures are statistics that may be stale
                                        (MariaDB: "ANALYZE TABLE "); NULL: none */
    const char *octet_length_open, *octet_length_close; /* around a text or XML column:
                                    its length in bytes ({octet_length COL}) */
    const char *xml_octet_length_open, *xml_octet_length_close; /* the same for a column
                                    of the XML type ({xml_octet_length COL}: Db2 serialises
                                    it first); NULL: octet_length_open/close */
    int max_params;          /* bind parameters per statement */
    /* Beginning a transaction at an isolation level (index DG_ISO_DEFAULT ..
     * DG_ISO_SERIALIZABLE), [0] read-write or [1] read-only: the statements, in order ([1]
     * NULL when one does it). Shared by the engine's native backend and the ODBC backend,
     * which begin its transactions in its own SQL. [..][..][0] NULL: the backend begins in
     * a way of its own (SQLite: BEGIN IMMEDIATE for a writer; Firebird: a TPB). */
    const char *begin[4][2][2];
} dg_dialect;

/* ---- capabilities ------------------------------------------------------------------- */

/* Facts about one connection (dg_conn.caps): the descriptor's bits, plus those its
 * connect function adds for this URL and server (embedded Firebird, a Firebird Classic
 * server's per-attachment cache). */
enum {
    DG_CAP_CONN_CACHE_STATS = 1u << 0, /* cache counters are per connection (SQLite's
                                          sqlite3_db_status, Firebird Classic/SuperClassic):
                                          the runner sums dg_conn_cache_stats() over the
                                          terminals' connections */
    DG_CAP_EMBEDDED = 1u << 1,         /* the engine runs in dbgauge's process: its CPU is
                                          not the driver's, and there is no round trip */
    DG_CAP_CONCURRENT_WRITERS = 1u << 2, /* writers do not queue on one database-wide lock
                                            (and so can deadlock or fail to serialize) */
    DG_CAP_BULK_ATOMIC = 1u << 3,        /* a bulk load (dg_bulk_begin .. dg_bulk_end) is one
                                            transaction: a failed one leaves no row behind,
                                            so a loader may run its unit again */
    DG_CAP_PIPELINE = 1u << 5,           /* dg_connopts.pipeline: a transaction's commands
                                            travel together, one round trip to the commit */
    DG_CAP_NONBLOCKING = 1u << 4,        /* a connection opened on a fiber never blocks its
                                            thread: every wait goes through dg_wait_fd
                                            (core/wait.h), so the events engine can run many
                                            terminals on one thread */
    DG_CAP_NO_LOGIN = 1u << 6,           /* the engine has no users or passwords (SQLite):
                                            the default password (--password-file,
                                            DBGAUGE_PASSWORD) is not given to its URLs */
};

/* ---- backend options ---------------------------------------------------------------- */

/* One ?NAME=VALUE (URL) or --conn NAME=VALUE setting that a backend handles itself. Each
 * descriptor lists its own in a table ended by an entry whose name is NULL; the one table
 * drives validation (dg_backend_option_check), the error for an unknown name, and
 * `dbgauge list`. */
typedef struct dg_backend_option {
    const char *name;
    const char *type;   /* "int", "bool", "text", "enum" */
    long long min, max; /* int: the accepted range; text: max = longest value in bytes
                           (0: no limit); unused otherwise */
    const char *values; /* enum: the accepted spellings, "a|b|c" (compared without case) */
    const char *help;   /* one line: what it does and its default */
} dg_backend_option;

/* One way to sample the server's sessions' waits (dg_backend.wait_queries). */
typedef struct dg_wait_query {
    const char *sql;
    const char *source; /* what it reads, for the result ("pg_stat_activity") */
    const char *note;   /* what the profile lacks when this query is the one used; NULL:
                           nothing */
    const char *note_sql; /* NULL, or a query whose one text value, when not NULL, says
                             what the profile lacks on this server (a setting turned off) */
    int min_interval_ms;  /* samples no closer than this (0: any); why, for the result: */
    const char *min_interval_why;
    bool own_tx;          /* each sample in a read-only transaction of its own, begun and
                             committed around it: the engine's view is a snapshot of the
                             transaction (Firebird's MON$ tables) */
} dg_wait_query;

/* ---- the descriptor ------------------------------------------------------------------ */

typedef struct dg_backend dg_backend;
typedef struct dg_conn dg_conn;
typedef struct dg_stmt dg_stmt;
typedef struct dg_bulk dg_bulk;

/* Where the terminals of a URL with several hosts (a cluster) connect, ?place=. */
typedef enum dg_place {
    DG_PLACE_TERMINAL = 0, /* terminal t on host t mod n (the default) */
    DG_PLACE_FIRST,        /* every terminal on the first host that answers */
    DG_PLACE_RANDOM,       /* each terminal on a host drawn from the run's seed */
} dg_place;

/* The most hosts one URL may list. */
#define DG_MAX_NODES 16

/* A parsed connection URL. Every string is owned by the dg_url; dg_url_free() frees them. */
typedef struct dg_url {
    char *scheme;   /* "sqlite", "postgres", "mysql", "firebird" (aliases normalised) */
    char *user;     /* NULL if absent */
    char *password; /* NULL if absent; never printed */
    char *host;     /* NULL if absent; a URL with several hosts: the first */
    int port;       /* 0 if absent; with several hosts: the first's */
    int nnodes;     /* hosts in h1:p1,h2:p2,... (1 for one host; 0 for none) */
    dg_place place; /* ?place= (taken out of params) */
    char *path;     /* sqlite file / database name / firebird file path */
    int nparams;
    dg_setting *params; /* ?k=v&... (names and values owned) */
    char *redacted; /* the URL with the password replaced by "***" */
} dg_url;

struct dg_backend {
    const char *name;         /* "sqlite" */
    const char *const *schemes; /* NULL-terminated: {"sqlite", NULL} */
    const char *url_help;     /* one line: the URL forms */
    unsigned caps;            /* DG_CAP_* */
    const dg_dialect *dialect;
    const dg_backend_option *options; /* the settings it handles itself; NULL-name-ended */
    /* What happens to a setting not in `options`, one line (e.g. "runs as PRAGMA
     * NAME=VALUE"); NULL: such a setting is refused */
    const char *other_options;
    /* The names of the server's processes on its host ("postgres"; space-separated),
     * for the server host sampler; NULL for an engine that runs in dbgauge's process */
    const char *server_comms;
    /* The engine's lock manager can be read from a database file on this machine, by its
     * own tool (monitor/locktab.h: Firebird's fb_lock_print) */
    bool lock_table;
    /* A query whose one integer is the pid of the server process serving the session, on
     * the server's host (the sampler then counts that process and its children, not every
     * process of that name there); NULL: the backend sets server_pid itself, or cannot */
    const char *server_pid_sql;
    /* The environment variables the engine's own command-line tools read for a URL's
     * parts: `dbgauge restore` runs them with these set, so a command needs no password of
     * its own. NULL members: not read by its tools */
    struct {
        const char *host, *port, *user, *password, *database;
    } tool_env;
    /* Queries of the server's sessions and what each waits on at this instant, for the
     * wait profile (session/waits.h), the most telling first (the first the user may run
     * is used; ended by a NULL sql; NULL: the engine tells none): rows of (session id as
     * dg_conn.session_id has it, class, event), the class "CPU" (running), "Client"
     * (waiting for the client's next statement) or the engine's own ("Lock", "IO",
     * "LWLock", ...). */
    const struct dg_wait_query *wait_queries;

    int (*connect)(const dg_url *url, const dg_connopts *opts, dg_conn **out, dg_err *err);
    void (*close)(dg_conn *c);

    int (*prepare)(dg_conn *c, const char *sql, dg_stmt **out, dg_err *err);
    void (*stmt_free)(dg_stmt *s);
    /* Binds params and executes. For a query the first fetch() returns the first row. */
    int (*execute)(dg_stmt *s, const dg_value *params, int nparams, dg_err *err);
    /* 1 = a row is available, 0 = no more rows, < 0 = error. */
    int (*fetch)(dg_stmt *s, dg_err *err);
    /* Optional: goes past every row left, read by no one, leaving the statement as the
     * fetch() that returns 0 does (the same database work, the same errors); 0 or < 0.
     * For backends that hold a whole result once execute returns, where that is one
     * step instead of a call per row. NULL: dg_discard() calls fetch() until it is 0. */
    int (*discard)(dg_stmt *s, dg_err *err);
    int (*ncols)(dg_stmt *s);
    const char *(*colname)(dg_stmt *s, int i);
    /* Column i of the current row; text is borrowed until the next fetch/execute/reset. */
    void (*column)(dg_stmt *s, int i, dg_value *out);
    /* Rows changed by the last execute (DML), -1 if unknown. May cost a round trip
     * (Firebird): call it only when the count matters. */
    int64_t (*affected)(dg_stmt *s);
    /* Discards unread rows so the connection can run other statements. */
    void (*reset)(dg_stmt *s);

    /* Runs SQL text without parameters, discarding results (DDL, SET, PRAGMA). */
    int (*exec)(dg_conn *c, const char *sql, dg_err *err);

    int (*begin)(dg_conn *c, const dg_txopts *tx, dg_err *err);
    int (*commit)(dg_conn *c, dg_err *err);
    int (*rollback)(dg_conn *c, dg_err *err);

    /* Bulk load (the backend's fast path: COPY, LOAD DATA, big prepared batches). */
    int (*bulk_begin)(dg_conn *c, const char *table, const char *const *cols, int ncols,
                      dg_bulk **out, dg_err *err);
    /* Optional: the same for a load of a whole table the caller has just created and that
     * nobody else writes until bulk_end (the backend may empty it first and use a faster
     * path, e.g. PostgreSQL's COPY FREEZE); NULL = bulk_begin. */
    int (*bulk_begin_whole)(dg_conn *c, const char *table, const char *const *cols, int ncols,
                            dg_bulk **out, dg_err *err);
    int (*bulk_row)(dg_bulk *b, const dg_value *vals, dg_err *err);
    /* Finishes (commit = true) or abandons the load; frees b in both cases. */
    int (*bulk_end)(dg_bulk *b, bool commit, dg_err *err);
    /* Optional, for a backend with more than one bulk path: the path c's loads take, one
     * short line into path ("external tables in /srv/load"; "" when not decided), and why,
     * one sentence into why ("" when nothing to say). NULL: one path, nothing said. */
    void (*bulk_path)(dg_conn *c, char *path, size_t plen, char *why, size_t wlen);

    int (*stats)(dg_conn *c, dg_dbstats *out, dg_err *err);
    int (*server_info)(dg_conn *c, dg_server_info *out, dg_err *err);
    /* Per-connection cache counters; called only on connections with
     * DG_CAP_CONN_CACHE_STATS (NULL in backends that never set it). */
    void (*conn_cache_stats)(dg_conn *c, int64_t *hits, int64_t *misses);
    /* True if table exists (in the connection's database / schema). */
    int (*table_exists)(dg_conn *c, const char *table, bool *out, dg_err *err);
    /* Optional, for engines whose statistics are not in SQL (dialect object_stats_sql
     * NULL): the tables' and their indexes' figures, appended to *out (xrealloc'd, *n
     * entries). NULL: dg_object_stats says DG_E_UNSUPPORTED. */
    int (*object_stats)(dg_conn *c, const char *const *tables, dg_objstat **out, int *n,
                        dg_err *err);
    /* Called from ANOTHER thread while c may be blocked in a call: makes that call return
     * with an error soon (the connection's socket shut down, or the engine told to stop),
     * even when the server does not answer. c is unusable afterwards but must still be
     * closed by its owner. Must not block. */
    void (*interrupt)(dg_conn *c);
    /* Optional: lines `dbgauge list` prints under the backend, each "NAME: value"
     * (ODBC: the drivers and data sources the driver manager knows), appended to out. */
    void (*describe_sources)(dg_strbuf *out);
};

/* Base of every backend connection. A backend's connect allocates it zeroed and may set
 * caps bits and data_path; dg_connect() fills the rest. The backend's close frees them
 * with dg_conn_base_free(). */
struct dg_conn {
    const dg_backend *be;
    const dg_dialect *dialect;
    char *url_redacted; /* owned; safe to print */
    unsigned caps;      /* DG_CAP_* of this connection (the descriptor's | the connect's) */
    char *data_path;    /* owned; where the data lives when it is on this machine: the
                           database file the engine opens in-process (SQLite, embedded
                           Firebird), or a local server's data directory or database file
                           (dg_conn_set_local_data); else NULL. The host facts' disk */
    char *server_dir;   /* owned; a server's data directory or database file as the server
                           reports it, wherever the server runs (the server host sampler's
                           data device); NULL if unknown or embedded */
    int server_pid;     /* the server process serving this connection on its host (0:
                           unknown) */
    char *server_pid_file; /* owned; a file on the server's host holding its main process's
                           pid, as the server reports it (MariaDB's @@pid_file); NULL */
    int64_t session_id; /* the server's id of this session, as wait_sample_sql reports it
                           (PostgreSQL's backend pid, MariaDB's connection id); 0: unknown */
    bool server_local;  /* a server reached on this machine (dg_host_is_local) */
    bool in_tx;         /* maintained by the wrappers below */
};

/* Frees what dg_conn owns (not the struct itself). */
void dg_conn_base_free(dg_conn *c);

/* Base of every backend statement. */
struct dg_stmt {
    dg_conn *conn;
    char *sql; /* owned copy of the text as given (with '?') */
    int nparams;
};

struct dg_bulk {
    dg_conn *conn;
    uint64_t rows;
    uint64_t bytes; /* bytes of row data sent (text form), for progress */
};

/* ---- registry and URLs ---------------------------------------------------------------- */

/* One known backend: its name, the Debian package whose client library it is built
 * with, and its descriptor (NULL when this binary was built without it). */
typedef struct dg_backend_entry {
    const char *name;
    const char *package;
    const dg_backend *be;
} dg_backend_entry;

/* Every backend dbgauge knows, built or not, in a fixed order; *n gets the count. The
 * array is static: never freed. */
const dg_backend_entry *dg_backend_catalog(size_t *n);
/* The names of the built backends whose descriptor has every bit of caps, as English
 * ("postgres and mysql", "postgres, mysql and x"; "" when there is none) in buf; returns
 * how many. */
int dg_backend_names_with(unsigned caps, char *buf, size_t len);
/* The same for the built backends for which keep(be, arg) is true. */
int dg_backend_names_where(bool (*keep)(const dg_backend *be, const void *arg), const void *arg,
                           char *buf, size_t len);
/* The entry for a URL scheme (aliases: sqlite3, postgresql, pg, mariadb, fb); NULL if the
 * scheme is unknown. */
const dg_backend_entry *dg_backend_lookup(const char *scheme);
/* The built backend for a URL scheme; NULL if unknown or not built. */
const dg_backend *dg_backend_for_scheme(const char *scheme);

/* Parses a URL. Forms: sqlite:PATH, sqlite::memory:, postgres://user:pass@host:port/db?k=v,
 * mysql://..., firebird://user:pass@host:port//abs/path.fdb, firebird:PATH (embedded),
 * firebird:HOST/PORT:PATH; any of them may end in ?k=v&... User, password, host, path and
 * parameter names and values are %-decoded (in the path forms too: a '%' is written %25).
 * Refused (DG_E_INVAL, class FATAL): no scheme, an empty path, a bad port, an unclosed '['
 * or text after ']', a '%' not followed by two hex digits or "%00" in a decoded part, an
 * '@' after a HOST:PORT that has no user info (a password with an unencoded '/' or '?':
 * guessing would show it), a '#' in a "//" form, a parameter without '=' or without a
 * name, and a path form whose path is itself a URL ("pg:postgres://u:pw@h/db": a label
 * glued to a URL) or holds user info ("firebird:u:pw@h/3050:/x.fdb"). The message quotes
 * the redacted URL and never the password. When the URL has no password (neither user info
 * nor a "password" parameter), out->password is the one given to
 * dg_url_set_default_password(), except for sqlite. *out written only on success; free it
 * with dg_url_free(). Thread-safe (once the default password is set). */
int dg_url_parse(const char *url, dg_url *out, dg_err *err);
/* Frees what u owns and zeroes it (NULL allowed; a second call is harmless). */
void dg_url_free(dg_url *u);
/* A copy of url (caller frees) with every password replaced by "***": the user-info
 * password and the value of each parameter whose decoded name is "password" (any case),
 * every other byte as given. A text that dg_url_parse() refuses, or a SCHEME:... form of an
 * unknown scheme, is masked conservatively: a "user:pass@" user info up to the last '@',
 * and any parameter whose name contains "pass" or "pwd". Same as dg_url.redacted.
 * Thread-safe. */
char *dg_url_redact(const char *url);
/* A copy of text (caller frees) in which every URL-shaped part (SCHEME://..., or a known
 * scheme followed by ':', up to white space, a quote or a ',' that starts another URL or a
 * LABEL:URL) is redacted as by dg_url_redact(); outside URLs, the value of any NAME=VALUE
 * whose name ends in "password", "passwd" or "pwd" and the password of any "user:pass@"
 * inside a word are replaced by "***". For command lines, shell commands and messages that
 * may quote URLs. Thread-safe. */
char *dg_url_redact_text(const char *text);
/* The same secrets as dg_url_redact() (dg_url_scrub) and dg_url_redact_text()
 * (dg_url_scrub_text) find, overwritten in place, byte for byte, with '*': the length stays,
 * so an argument vector the kernel shows in /proc/PID/cmdline can be scrubbed. */
void dg_url_scrub(char *url);
void dg_url_scrub_text(char *text);
/* Sets the password dg_url_parse() gives URLs that have none (--password-file,
 * DBGAUGE_PASSWORD); copied; NULL clears it. Not thread-safe: call before connecting. */
void dg_url_set_default_password(const char *password);

/* Connects to url: parses it, finds the backend, connects and applies settings.
 * *out is written only on success. */
int dg_connect(const char *url, const dg_connopts *opts, dg_conn **out, dg_err *err);

/* ---- call wrappers ------------------------------------------------------------------ */

static inline void dg_conn_close(dg_conn *c)
{
    if (c)
        c->be->close(c);
}
static inline int dg_prepare(dg_conn *c, const char *sql, dg_stmt **out, dg_err *err)
{
    return c->be->prepare(c, sql, out, err);
}
static inline void dg_stmt_free(dg_stmt *s)
{
    if (s)
        s->conn->be->stmt_free(s);
}
static inline int dg_execute(dg_stmt *s, const dg_value *params, int n, dg_err *err)
{
    return s->conn->be->execute(s, params, n, err);
}
static inline int dg_fetch(dg_stmt *s, dg_err *err) { return s->conn->be->fetch(s, err); }
/* Reads and drops the rows left (see dg_backend.discard): 0 or the fetch error. */
static inline int dg_discard(dg_stmt *s, dg_err *err)
{
    if (s->conn->be->discard)
        return s->conn->be->discard(s, err);
    int r;
    while ((r = s->conn->be->fetch(s, err)) > 0)
        ;
    return r;
}
static inline int dg_ncols(dg_stmt *s) { return s->conn->be->ncols(s); }
static inline const char *dg_colname(dg_stmt *s, int i) { return s->conn->be->colname(s, i); }
static inline void dg_column(dg_stmt *s, int i, dg_value *out) { s->conn->be->column(s, i, out); }
static inline int64_t dg_affected(dg_stmt *s) { return s->conn->be->affected(s); }
static inline void dg_stmt_reset(dg_stmt *s) { s->conn->be->reset(s); }
static inline int dg_exec(dg_conn *c, const char *sql, dg_err *err)
{
    return c->be->exec(c, sql, err);
}
static inline int dg_begin(dg_conn *c, const dg_txopts *tx, dg_err *err)
{
    int rc = c->be->begin(c, tx, err);
    if (rc == 0)
        c->in_tx = true;
    return rc;
}
/* A failed commit leaves in_tx set: some databases keep the transaction open (SQLite after
 * SQLITE_BUSY, Firebird), and the caller's rollback then ends it; on the others a rollback
 * without a transaction is harmless. */
static inline int dg_commit(dg_conn *c, dg_err *err)
{
    int rc = c->be->commit(c, err);
    c->in_tx = rc != 0;
    return rc;
}
static inline int dg_rollback(dg_conn *c, dg_err *err)
{
    int rc = c->be->rollback(c, err);
    c->in_tx = false;
    return rc;
}
static inline int dg_bulk_begin(dg_conn *c, const char *table, const char *const *cols, int ncols,
                                dg_bulk **out, dg_err *err)
{
    return c->be->bulk_begin(c, table, cols, ncols, out, err);
}
/* A bulk load of all of a table just created, which nobody else writes meanwhile. */
static inline int dg_bulk_begin_whole(dg_conn *c, const char *table, const char *const *cols,
                                      int ncols, dg_bulk **out, dg_err *err)
{
    return c->be->bulk_begin_whole ? c->be->bulk_begin_whole(c, table, cols, ncols, out, err)
                                   : c->be->bulk_begin(c, table, cols, ncols, out, err);
}
static inline int dg_bulk_row(dg_bulk *b, const dg_value *vals, dg_err *err)
{
    return b->conn->be->bulk_row(b, vals, err);
}
static inline int dg_bulk_end(dg_bulk *b, bool commit, dg_err *err)
{
    return b->conn->be->bulk_end(b, commit, err);
}
static inline int dg_stats(dg_conn *c, dg_dbstats *out, dg_err *err)
{
    memset(out, 0xff, sizeof *out); /* what the backend does not set: -1, unknown */
    return c->be->stats(c, out, err);
}
static inline int dg_server_info_get(dg_conn *c, dg_server_info *out, dg_err *err)
{
    return c->be->server_info(c, out, err);
}
static inline int dg_table_exists(dg_conn *c, const char *table, bool *out, dg_err *err)
{
    return c->be->table_exists(c, table, out, err);
}
static inline bool dg_has_cap(const dg_conn *c, unsigned cap) { return (c->caps & cap) != 0; }
/* See dg_backend.interrupt: the one call that may come from another thread. */
static inline void dg_interrupt(dg_conn *c) { c->be->interrupt(c); }
/* This connection's own cache counters (*hits, *misses); false (both -1) when its
 * counters are not per connection. */
static inline bool dg_conn_cache_stats(dg_conn *c, int64_t *hits, int64_t *misses)
{
    *hits = *misses = -1;
    if (!dg_has_cap(c, DG_CAP_CONN_CACHE_STATS))
        return false;
    c->be->conn_cache_stats(c, hits, misses);
    return *hits >= 0;
}

/* ---- helpers for callers ------------------------------------------------------------- */

/* Prepares, executes with params, and reads the first column of the first row as an
 * integer into *out (*found = false when no row or NULL). Resets the statement. */
int dg_query_int(dg_conn *c, const char *sql, const dg_value *params, int n, int64_t *out,
                 bool *found, dg_err *err);
/* The same for the first ncols columns of the first row, into out[0 .. ncols-1]; *found
 * is false when there is no row or a column is NULL or not a number. */
int dg_query_ints(dg_conn *c, const char *sql, const dg_value *params, int n, int64_t *out,
                  int ncols, bool *found, dg_err *err);

/* The bytes on disk of table's data and of its indexes (dialect table_bytes_sql; either
 * may come back -1 when the engine does not say). DG_E_UNSUPPORTED when the dialect has
 * no such query. */
int dg_table_bytes(dg_conn *c, const char *table, int64_t *data_bytes, int64_t *index_bytes,
                   dg_err *err);

/* Per table of tables (NULL-ended) and per index of it: rows, bytes on disk and index
 * depth as the engine's statistics tell them (read after the load's ANALYZE), into a
 * new array *out of *n entries (free()). A table the database does not hold is left
 * out. DG_E_UNSUPPORTED when the engine tells none. */
int dg_object_stats(dg_conn *c, const char *const *tables, dg_objstat **out, int *n, dg_err *err);

/* The user tables of the connection's database (its schema: PostgreSQL's search path,
 * MariaDB's database), through the dialect's user_tables_sql, into a new NULL-ended array
 * *out (free with dg_user_tables_free). DG_E_UNSUPPORTED when the dialect has no query. */
int dg_user_tables(dg_conn *c, char ***out, dg_err *err);
void dg_user_tables_free(char **tables);

/* The effective value of the server setting name (as the server's configuration spells
 * it, e.g. PostgreSQL's shared_buffers, MariaDB's innodb_buffer_pool_size, Firebird's
 * ServerMode) into out, read through the dialect's server_setting_sql or, failing that,
 * from si (the connection's server_info) by server_setting_info. DG_E_NOTFOUND when the
 * server does not know the name, DG_E_UNSUPPORTED when the engine cannot tell it. */
int dg_server_setting(dg_conn *c, const dg_server_info *si, const char *name, char *out,
                      size_t outlen, dg_err *err);

/* True when host names this machine: NULL (a default local socket), a socket directory
 * ("/run/postgresql"), "localhost", a 127.x.y.z address or ::1. A server there keeps its
 * data on this machine's disks (for dg_conn.data_path). */
bool dg_host_is_local(const char *host);

/* Sets c->data_path to dir when it exists here (a server on this machine: its data
 * directory or database file, whose disk the monitor then watches); nothing otherwise. */
void dg_conn_set_local_data(dg_conn *c, const char *dir);

/* Records where a server reached at host keeps its data (dir, as the server reports it;
 * NULL if unknown) and the process serving c (pid; 0 if unknown): c->server_dir,
 * server_pid, server_local, and c->data_path when the server is on this machine. */
void dg_conn_set_server_facts(dg_conn *c, const char *host, const char *dir, int pid);

/* Counts '?' placeholders outside quotes and comments. */
int dg_sql_count_params(const char *sql);

/* ---- helpers for backends ------------------------------------------------------------ */

/* The entry of be's option table named `name`; NULL when there is none. The pointer is
 * into the static table. */
const dg_backend_option *dg_backend_option_find(const dg_backend *be, const char *name);

/* Checks one setting against be's option table: a known name must have a value of its
 * type and range; an unknown name is accepted when the backend passes such settings on
 * (be->other_options), else refused with a message that lists the known names. Returns 0
 * or DG_E_INVAL (class USER; the value of a text option, which may be a password, is
 * never quoted). */
int dg_backend_option_check(const dg_backend *be, const char *name, const char *value,
                            dg_err *err);

/* Checks every URL parameter and every opts setting (NULL allowed) with
 * dg_backend_option_check; 0 or the first error. */
int dg_backend_check_settings(const dg_backend *be, const dg_url *url, const dg_connopts *opts,
                              dg_err *err);

/* A checked "bool" value: true for 1, on, true, yes (any case). */
bool dg_backend_option_bool(const char *value);

/* Index of a checked "enum" value among opt->values ("a|b|c": a = 0), -1 if absent. */
int dg_backend_option_enum(const dg_backend_option *opt, const char *value);

/* The password to keep out of messages: a copy of password (caller frees), or NULL when
 * there is none, or it is shorter than 3 characters or equal to the user or database
 * name (those are shown anyway: scrubbing would mangle every message that names them).
 * Any argument may be NULL. */
char *dg_backend_secret(const char *password, const char *user, const char *db);

/* Replaces every occurrence of secret in e->msg by "***" (e or secret NULL: nothing). */
void dg_backend_scrub(dg_err *e, const char *secret);

/* Runs fn(c, arg, err) on a connection that outlives server restarts (the monitor
 * connection: stats, server_info, table_exists). When `alive` is false, or fn fails with
 * class CONN_LOST, reopen(c, err) replaces the session (replacing the handle only on
 * success: a dead one keeps failing cleanly) and fn runs once more. Never inside a
 * transaction (c->in_tx): its work died with the session, so the error stands (CONN_LOST,
 * SQLSTATE 08003 when the session is known dead before fn ran). Returns 0 or the error
 * of fn or reopen. Same thread rules as the connection. */
int dg_backend_with_reconnect(dg_conn *c, bool alive, int (*reopen)(dg_conn *c, dg_err *err),
                              int (*fn)(dg_conn *c, void *arg, dg_err *err), void *arg,
                              dg_err *err);

#endif
