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
 * Errors: the whole status vector is walked (dg_firebird_classify); a connection lost while
 * a COMMIT was in flight, explicit or the one that ends an implicit transaction, is
 * reported with SQLSTATE 08007 and outcome_unknown: the server may have committed it.
 * Messages never carry the password (scrubbed). The monitor connection (stats, server_info,
 * table_exists) attaches again after a server restart (dg_backend_with_reconnect, in
 * firebird_stats.c).
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
 * Bulk load (firebird_load.c) and statistics, server facts and object statistics
 * (firebird_stats.c) live beside this file; the three share firebird_int.h (the connection
 * and statement types, and the dg_firebird_ functions that cross files). Neither calls into
 * the other, and this file calls into neither but through the descriptor: what the bulk
 * code keeps on a connection, it drops through hooks it sets there (fb_conn.load_ddl, run
 * by exec before a statement, and fb_conn.load_cleanup, run by close).
 *
 * Errors (status vectors: more code than other clients' SQLSTATEs) are in firebird_errors.c.
 * Layout (the order of every server backend's <db>.c; errors apart): connection (settings,
 * parameter blocks, the connection's transaction handles, attach, close, connect,
 * interrupt); statements (prepare, bind, execute, fetch, columns, one-row queries, exec);
 * transactions; the descriptor.
 */
#include "backend/firebird_int.h"

#include "core/hot.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* Wait for row locks without a time limit (Firebird's own default). Firebird 3's lock
 * manager leaves waits that have a timeout out of its deadlock search: with ?lock_timeout=N
 * both transactions of a deadlock wait N seconds and both fail, while without one the
 * lock manager picks a single victim (after DeadlockTimeout, 10 s by default). */
#define DEFAULT_LOCK_TIMEOUT_S (-1)
#define DEFAULT_CONNECT_TIMEOUT_S 10
#define MAX_TEXT_PARAM 32767      /* XSQLVAR.sqllen is a short */

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

void dg_firebird_pb_str(pblock *b, char item, const char *s)
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
void dg_firebird_tx_abandon(isc_tr_handle *t)
{
    if (!*t)
        return;
    ISC_STATUS_ARRAY l;
    if (dg_fb.isc_rollback_transaction(l, t))
        dg_fb.fb_disconnect_transaction(l, t);
    *t = 0;
}

void dg_firebird_cursor_close(fb_stmt *s)
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
            dg_firebird_cursor_close(s);
}

int dg_firebird_tx_start(fb_conn *c, isc_tr_handle *t, const char *tpb, short len, dg_err *err)
{
    if (dg_fb.isc_start_transaction(c->sv, t, 1, &c->db, (unsigned short)len, tpb))
        return dg_firebird_fill_error(c, "cannot start a transaction", NULL, err);
    return 0;
}

/* Commits (or rolls back) the implicit transaction. */
static int auto_end(fb_conn *c, bool commit, dg_err *err)
{
    if (c->auto_owner) {
        dg_firebird_cursor_close(c->auto_owner);
        c->auto_owner = NULL;
    }
    if (!c->auto_tx)
        return 0;
    if (commit) {
        if (dg_fb.isc_commit_transaction(c->sv, &c->auto_tx)) {
            int rc = dg_firebird_fill_error(c, "commit", "statement", err);
            dg_firebird_tx_abandon(&c->auto_tx);
            return rc;
        }
        return 0;
    }
    dg_firebird_tx_abandon(&c->auto_tx);
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
    return dg_firebird_tx_start(c, &c->auto_tx, c->tpb[!write][iso], c->tpb_len[!write][iso], err);
}

static int ro_ensure(fb_conn *c, dg_err *err)
{
    return c->ro_tx ? 0 : dg_firebird_tx_start(c, &c->ro_tx, c->ro_tpb, c->ro_tpb_len, err);
}

/* Reads the database class (shared page cache or not) and the engine's version string
 * into c->db_class and c->build (-1 and "" when the server does not say). */
void dg_firebird_read_db_info(fb_conn *c)
{
    static const char items[] = {isc_info_db_class, isc_info_firebird_version,
                                 isc_info_attachment_id, isc_info_end};
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
        } else if (item == isc_info_attachment_id && len > 0 && len <= 8) {
            c->base.session_id = (int64_t)dg_fb.isc_vax_integer(d, len); /* MON$ATTACHMENT_ID */
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
void dg_firebird_pb_wire_config(pblock *b, char item, const fb_opts *o)
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
    dg_firebird_pb_str(b, item, conf);
}

/* ---- an attach a stop can end ------------------------------------------------------------ */

/* Firebird's client has no non-blocking attach: a server that accepts the TCP connection
 * and then never answers (frozen, swapping, a debugger) held the calling thread until
 * connect_timeout, deaf to SIGINT and SIGTERM. The attach therefore runs on a thread of its
 * own; the caller waits for it, and when a stop's shared deadline passes first it leaves:
 * the thread, still in the client library, owns the job from then on and detaches what it
 * gets, if anything. Its error is read into text on that thread (the status vector's
 * strings are the library's, per thread). */
typedef struct attach_job {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, abandoned;
    char *target;
    pblock dpb; /* holds the password: wiped before it is freed */
    isc_db_handle h;
    ISC_STATUS_ARRAY sv;
    ISC_STATUS failed;
    dg_err err;
    dg_errclass cls;
} attach_job;

static void attach_job_free(attach_job *j)
{
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j->target);
    memset(&j->dpb, 0, sizeof j->dpb);
    free(j);
}

static void *attach_main(void *arg)
{
    attach_job *j = arg;
    ISC_STATUS failed = dg_fb.isc_attach_database(j->sv, 0, j->target, &j->h, (short)j->dpb.n,
                                                  j->dpb.buf);
    if (failed) {
        dg_firebird_status_error(j->sv, NULL, NULL, &j->err);
        j->cls = dg_firebird_classify_connect(j->sv, j->err.sqlstate);
    }
    pthread_mutex_lock(&j->mu);
    j->failed = failed;
    j->done = true;
    bool left = j->abandoned;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
    if (left) { /* nobody waits for it any more */
        if (!failed && j->h) {
            ISC_STATUS_ARRAY l;
            dg_fb.isc_detach_database(l, &j->h);
        }
        attach_job_free(j);
    }
    return NULL;
}

/* isc_attach_database(c->sv, target, db, dpb), ended early by a stop: then *stopped and
 * a non-zero return, with c->sv untouched; on a failure of the server's, err holds its
 * message and class (c->sv is not filled: the caller must use err). Returns 0 when
 * attached. */
static ISC_STATUS attach_stoppable(fb_conn *c, isc_db_handle *db, const pblock *dpb,
                                   bool *stopped, dg_err *err)
{
    *stopped = false;
    attach_job *j = xcalloc(1, sizeof *j);
    pthread_mutex_init(&j->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    j->target = xstrdup(c->target);
    j->dpb = *dpb;
    j->err = (dg_err)DG_ERR_INIT;
    pthread_t th;
    pthread_attr_t ta;
    pthread_attr_init(&ta);
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&th, &ta, attach_main, j);
    pthread_attr_destroy(&ta);
    if (started != 0) { /* no thread: attach here, as before */
        attach_job_free(j);
        ISC_STATUS r = dg_fb.isc_attach_database(c->sv, 0, c->target, db, (short)dpb->n, dpb->buf);
        if (r)
            dg_firebird_fill_error(c, NULL, NULL, err);
        if (r && err)
            err->cls = dg_firebird_classify_connect(c->sv, err->sqlstate);
        return r;
    }
    pthread_mutex_lock(&j->mu);
    while (!j->done) {
        int64_t now = dg_now_ns(), stop_at = dg_stop_cap_ns(INT64_MAX);
        if (now >= stop_at) {
            j->abandoned = true;
            *stopped = true;
            dg_stop_left_call();
            break;
        }
        int64_t until = now + 50 * DG_NS_PER_MS; /* a stop does not signal this wait */
        if (until > stop_at)
            until = stop_at;
        struct timespec ts = {.tv_sec = until / DG_NS_PER_S, .tv_nsec = until % DG_NS_PER_S};
        pthread_cond_timedwait(&j->cv, &j->mu, &ts);
    }
    pthread_mutex_unlock(&j->mu);
    if (*stopped)
        return 1; /* the thread owns the job now */
    ISC_STATUS failed = j->failed;
    if (failed) {
        if (err) {
            *err = j->err;
            err->cls = j->cls;
        }
    } else {
        *db = j->h;
    }
    attach_job_free(j);
    return failed;
}

/* Attaches to c->target with the saved settings into *db. On failure the class says
 * whether trying again later may help (server down: CONN_LOST) or not (USER). */
int dg_firebird_open_session(fb_conn *c, isc_db_handle *db, dg_err *err)
{
    const fb_opts *o = &c->o;
    pblock dpb = {.n = 0};
    dpb.buf[dpb.n++] = isc_dpb_version1;
    if (c->user && *c->user)
        dg_firebird_pb_str(&dpb, isc_dpb_user_name, c->user);
    if (c->password && *c->password)
        dg_firebird_pb_str(&dpb, isc_dpb_password, c->password);
    dg_firebird_pb_str(&dpb, isc_dpb_lc_ctype, o->charset);
    if (o->role[0])
        dg_firebird_pb_str(&dpb, isc_dpb_sql_role_name, o->role);
    if (o->buffers > 0)
        pb_int(&dpb, isc_dpb_num_buffers, o->buffers);
    if (o->set_buffers >= 0)
        pb_int(&dpb, isc_dpb_set_page_buffers, o->set_buffers);
    pb_int(&dpb, isc_dpb_sql_dialect, SQL_DIALECT);
    dg_firebird_pb_str(&dpb, isc_dpb_process_name, c->app_name);
    if (c->remote && o->connect_timeout_s > 0)
        pb_int(&dpb, isc_dpb_connect_timeout, o->connect_timeout_s);
    /* A loader's attachment leaves garbage collection to others (it only inserts). */
    if (o->no_gc == 1 || (o->no_gc == -1 && c->bulk_session))
        pb_int(&dpb, isc_dpb_no_garbage_collect, 1);
    dg_firebird_pb_wire_config(&dpb, isc_dpb_config, o);
    if (dpb.overflow)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "Firebird connection parameters are too long");
    bool stopped = false;
    dg_err aerr = DG_ERR_INIT;
    ISC_STATUS failed;
    if (c->remote) {
        failed = attach_stoppable(c, db, &dpb, &stopped, &aerr);
    } else { /* in this process: no server to wait for */
        failed = dg_fb.isc_attach_database(c->sv, 0, c->target, db, (short)dpb.n, dpb.buf);
        if (failed) {
            dg_firebird_fill_error(c, NULL, NULL, &aerr);
            aerr.cls = dg_firebird_classify_connect(c->sv, aerr.sqlstate);
        }
    }
    memset(&dpb, 0, sizeof dpb);
    if (stopped) /* cut short by a stop: not the server's doing */
        return dg_err_set(err, DG_E_DB, DG_EC_FATAL, 0, "08001",
                          "stopped before the server answered (dbgauge is stopping; Firebird "
                          "connect string '%s')", c->target);
    if (failed) {
        int rc = DG_E_DB;
        if (err) {
            *err = aerr;
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

static int set_forced_writes(fb_conn *c, bool on, dg_err *err);

static void fb_close(dg_conn *conn)
{
    fb_conn *c = (fb_conn *)conn;
    if (c->load_cleanup)
        c->load_cleanup(c);
    dg_firebird_stmt_destroy(c->q_stats);
    dg_firebird_stmt_destroy(c->q_info);
    dg_firebird_stmt_destroy(c->q_exists);
    dg_firebird_stmt_destroy(c->q_wire);
    auto_end(c, false, NULL);
    dg_firebird_tx_abandon(&c->tx);
    if (c->ro_tx) {
        ISC_STATUS_ARRAY l;
        if (dg_fb.isc_commit_transaction(l, &c->ro_tx))
            dg_firebird_tx_abandon(&c->ro_tx);
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
 * first reads a file: see ext_fail); neither given: bulk=auto (firebird_bulkpath.c). */
static int check_external_dir(fb_conn *c, dg_err *err)
{
    fb_opts *o = &c->o;
    if (o->bulk == -1 || (o->bulk == BULK_AUTO && o->external_dir[0]))
        o->bulk = o->external_dir[0] ? BULK_EXTERNAL : BULK_AUTO;
    if (o->bulk == BULK_BLOCK || o->bulk == BULK_INSERT)
        snprintf(c->bulk_why, sizeof c->bulk_why, "bulk=%s was given",
                 o->bulk == BULK_BLOCK ? "block" : "insert");
    if (o->bulk != BULK_EXTERNAL)
        return 0;
    snprintf(c->bulk_why, sizeof c->bulk_why, "external_dir=%s was given", o->external_dir);
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

/* Switches the database's forced writes (the header flag gfix -write sets) with a short
 * attachment of its own, the only way Firebird changes it (isc_dpb_force_write). */
static int set_forced_writes(fb_conn *c, bool on, dg_err *err)
{
    pblock dpb = {.n = 0};
    dpb.buf[dpb.n++] = isc_dpb_version1;
    if (c->user && *c->user)
        dg_firebird_pb_str(&dpb, isc_dpb_user_name, c->user);
    if (c->password && *c->password)
        dg_firebird_pb_str(&dpb, isc_dpb_password, c->password);
    pb_int(&dpb, isc_dpb_force_write, on ? 1 : 0);
    dg_firebird_pb_wire_config(&dpb, isc_dpb_config, &c->o);
    if (dpb.overflow)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "Firebird connection parameters are too long");
    isc_db_handle h = 0;
    ISC_STATUS_ARRAY l;
    if (dg_fb.isc_attach_database(c->sv, 0, c->target, &h, (short)dpb.n, dpb.buf)) {
        int rc = dg_firebird_fill_error(c, NULL, NULL, err);
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
    int rc = dg_firebird_query_row(c, &q, "SELECT MON$FORCED_WRITES FROM MON$DATABASE", NULL, err);
    bool on = rc == 0 && dg_firebird_col_int(q, 0) == 1;
    dg_firebird_stmt_destroy(q);
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
    if ((rc = check_external_dir(c, err)) != 0)
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
    if ((rc = dg_firebird_open_session(c, &c->db, err)) != 0) {
        if (err && err->code == isc_wirecrypt_incompatible && o->wire_crypt == WIRE_DISABLED)
            dg_err_prefix(err, "wire_crypt=disabled: this server requires encryption (it accepts "
                               "an unencrypted wire with WireCrypt = Enabled in its firebird.conf)");
        goto fail;
    }
    for (int ro = 0; ro < 2; ro++)
        for (int iso = 0; iso < FBI_N; iso++)
            c->tpb_len[ro][iso] = build_tpb(c->tpb[ro][iso], !ro, iso, o->lock_timeout_s);
    c->ro_tpb_len = build_tpb(c->ro_tpb, false, FBI_READ_COMMITTED, -1);
    dg_firebird_read_db_info(c);
    if (o->load_async && opts->bulk_session && opts->local_facts &&
        (rc = load_async_begin(c, err)) != 0)
        goto fail;
    if (embedded) {
        c->base.caps |= DG_CAP_EMBEDDED;
        if (access(url->path, F_OK) == 0) /* a file, not an alias of databases.conf */
            c->base.data_path = xstrdup(url->path);
    } else { /* a server: its database file's disk (an alias is no path: no disk) */
        dg_conn_set_server_facts(&c->base, url->host, url->path && url->path[0] == '/' ? url->path : NULL, 0);
    }
    if (o->bulk == BULK_AUTO && opts->bulk_session) /* a loader: the path its loads take */
        dg_firebird_bulk_auto(c);
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

/* Asks the engine to stop the attachment's running call (fb_cancel_raise): immediate for
 * an embedded engine; a server must still be running to act on it. */
static void fb_interrupt(dg_conn *conn)
{
    fb_conn *c = (fb_conn *)conn;
    ISC_STATUS_ARRAY st;
    dg_fb.fb_cancel_operation(st, &c->db, fb_cancel_raise);
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

void dg_firebird_stmt_destroy(fb_stmt *s)
{
    if (!s)
        return;
    fb_conn *c = conn_of(s);
    if (c->auto_owner == s)
        auto_end(c, true, NULL);
    dg_firebird_cursor_close(s);
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
        return dg_firebird_fill_error(c, NULL, NULL, err);
    if (buf[0] != isc_info_sql_stmt_type)
        return dg_err_fail(err, DG_E_DB, "Firebird did not report the statement type");
    short len = (short)dg_fb.isc_vax_integer(buf + 1, 2);
    s->type = (int)dg_fb.isc_vax_integer(buf + 3, len);
    return 0;
}

/* Prepares sql on connection c (in the explicit transaction if one is active, else in
 * the shared read transaction: preparing changes nothing). */
int dg_firebird_stmt_prepare(fb_conn *c, const char *sql, fb_stmt **out, dg_err *err)
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
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
        goto fail;
    }
    s->out = sqlda_new(16);
    if (dg_fb.isc_dsql_prepare(c->sv, txp, &s->h, 0, s->base.sql, SQL_DIALECT, s->out)) {
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
        goto fail;
    }
    if (s->out->sqld > s->out->sqln) {
        int k = s->out->sqld;
        free(s->out);
        s->out = sqlda_new(k);
        if (dg_fb.isc_dsql_describe(c->sv, &s->h, SQL_DIALECT, s->out)) {
            rc = dg_firebird_fill_error(c, NULL, NULL, err);
            goto fail;
        }
    }
    s->nout = s->out->sqld;
    if ((rc = stmt_info_type(c, s, err)) != 0)
        goto fail;
    s->rw = needs_write_tx(s->base.sql);
    s->in = sqlda_new(16);
    if (dg_fb.isc_dsql_describe_bind(c->sv, &s->h, SQL_DIALECT, s->in)) {
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
        goto fail;
    }
    if (s->in->sqld > s->in->sqln) {
        int k = s->in->sqld;
        free(s->in);
        s->in = sqlda_new(k);
        if (dg_fb.isc_dsql_describe_bind(c->sv, &s->h, SQL_DIALECT, s->in)) {
            rc = dg_firebird_fill_error(c, NULL, NULL, err);
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
    dg_firebird_stmt_destroy(s);
    return rc;
}

static int fb_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    fb_stmt *s = NULL;
    int rc = dg_firebird_stmt_prepare((fb_conn *)conn, sql, &s, err);
    if (rc == 0)
        *out = &s->base;
    return rc;
}

static void fb_stmt_free(dg_stmt *stmt)
{
    dg_firebird_stmt_destroy((fb_stmt *)stmt);
}

/* ---- statements: bind, execute, fetch, columns ------------------------------------------ */

static int put_blob(fb_conn *c, isc_tr_handle *txp, ISC_QUAD *id, const char *p, size_t len,
                    dg_err *err)
{
    isc_blob_handle bh = 0;
    if (dg_fb.isc_create_blob2(c->sv, &c->db, txp, &bh, id, 0, NULL))
        return dg_firebird_fill_error(c, "writing a blob", NULL, err);
    while (len > 0) {
        unsigned short k = (unsigned short)(len > 32768 ? 32768 : len);
        if (dg_fb.isc_put_segment(c->sv, &bh, k, p)) {
            int rc = dg_firebird_fill_error(c, "writing a blob", NULL, err);
            ISC_STATUS_ARRAY l;
            dg_fb.isc_cancel_blob(l, &bh);
            return rc;
        }
        p += k;
        len -= k;
    }
    if (dg_fb.isc_close_blob(c->sv, &bh))
        return dg_firebird_fill_error(c, "writing a blob", NULL, err);
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
int dg_firebird_stmt_run(fb_stmt *s, const dg_value *params, isc_tr_handle *txp, int txk,
                         dg_err *err)
{
    fb_conn *c = conn_of(s);
    int rc = bind_params(s, params, txp, err);
    if (rc)
        return rc;
    s->affected = -2;
    if (s->type == isc_info_sql_stmt_select || s->type == isc_info_sql_stmt_select_for_upd) {
        if (dg_fb.isc_dsql_execute(c->sv, txp, &s->h, SQL_DIALECT, s->in))
            return dg_firebird_fill_error(c, NULL, NULL, err);
        s->cursor_open = true;
        s->txk = txk;
        s->txp = txp;
        return 0;
    }
    if (s->nout > 0) {
        if (dg_fb.isc_dsql_execute2(c->sv, txp, &s->h, SQL_DIALECT, s->in, s->out))
            return dg_firebird_fill_error(c, NULL, NULL, err);
        s->pending = true;
        s->txk = txk;
        s->txp = txp;
        return 0;
    }
    if (dg_fb.isc_dsql_execute(c->sv, txp, &s->h, SQL_DIALECT, s->in))
        return dg_firebird_fill_error(c, NULL, NULL, err);
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
        int rc = dg_firebird_fill_error(c, "reading a blob", NULL, err);
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
        int rc = dg_firebird_fill_error(c, "reading a blob", NULL, err);
        ISC_STATUS_ARRAY l;
        dg_fb.isc_close_blob(l, &bh);
        return rc;
    }
    col->text[col->text_len] = '\0';
    if (dg_fb.isc_close_blob(c->sv, &bh))
        return dg_firebird_fill_error(c, "reading a blob", NULL, err);
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
    dg_firebird_cursor_close(s);
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
    rc = dg_firebird_stmt_run(s, params, txp, txk, err);
    if (rc == 0 && s->pending) {
        if (singleton_empty(s))
            s->pending = false;
        else if (s->has_blobs)
            rc = load_blobs(s, err);
    }
    if (rc) {
        if (txk == TXK_AUTO) {
            auto_end(c, false, NULL);
        } else if (txk == TXK_SHARED && !s->rw && dg_firebird_sv_has(c->sv, isc_read_only_trans)) {
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
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
    }
    /* end of rows or an error: the cursor is done, and so is its implicit transaction */
    if (c->auto_owner == s) {
        int rc2 = auto_end(c, rc == 0, rc ? NULL : err);
        if (rc == 0)
            rc = rc2;
    }
    dg_firebird_cursor_close(s);
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
    dg_firebird_cursor_close(s);
}

/* ---- statements: one-row queries ------------------------------------------------------- */

/* Runs a one-row query (prepared once into *cache) in its own short read-only snapshot
 * transaction: the MON$ tables are a snapshot taken once per transaction. On success the
 * row is in (*cache)'s columns until the next call. */
int dg_firebird_query_row(fb_conn *c, fb_stmt **cache, const char *sql, const dg_value *params,
                          dg_err *err)
{
    static const char tpb[] = {isc_tpb_version3, isc_tpb_read, isc_tpb_concurrency, isc_tpb_wait};
    int rc;
    if (!*cache && (rc = dg_firebird_stmt_prepare(c, sql, cache, err)) != 0)
        return rc;
    fb_stmt *s = *cache;
    isc_tr_handle t = 0;
    if ((rc = dg_firebird_tx_start(c, &t, tpb, sizeof tpb, err)) != 0)
        return rc;
    rc = dg_firebird_stmt_run(s, params, &t, TXK_LOCAL, err);
    if (rc == 0) {
        ISC_STATUS r = dg_fb.isc_dsql_fetch(c->sv, &s->h, SQL_DIALECT, s->out);
        if (r == 100)
            rc = dg_err_fail(err, DG_E_NOTFOUND, "no row from: %s", sql);
        else if (r)
            rc = dg_firebird_fill_error(c, NULL, NULL, err);
    }
    dg_firebird_cursor_close(s);
    if (rc == 0 && dg_fb.isc_commit_transaction(c->sv, &t))
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
    dg_firebird_tx_abandon(&t);
    return rc;
}

int64_t dg_firebird_col_int(fb_stmt *s, int i)
{
    dg_value v;
    int64_t x;
    fb_column(&s->base, i, &v);
    return dg_value_as_int(&v, &x) ? x : -1;
}

void dg_firebird_col_text(fb_stmt *s, int i, char *buf, size_t len)
{
    dg_value v;
    fb_column(&s->base, i, &v);
    dg_value_format(&v, buf, len);
    /* CHAR columns of the MON$ tables come blank-padded */
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ')
        buf[--n] = '\0';
}

/* ---- statements: exec ------------------------------------------------------------------- */

static int fb_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (c->load_ddl) /* the loader's DDL: the kept bulk statements would hold its tables */
        c->load_ddl(c);
    if (c->tx) {
        if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &c->tx, 0, sql, SQL_DIALECT, NULL))
            return dg_firebird_fill_error(c, NULL, NULL, err);
        return 0;
    }
    int rc = auto_begin(c, true, err);
    if (rc)
        return rc;
    if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &c->auto_tx, 0, sql, SQL_DIALECT, NULL)) {
        rc = dg_firebird_fill_error(c, NULL, NULL, err);
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
    return dg_firebird_tx_start(c, &c->tx, c->tpb[ro][iso], c->tpb_len[ro][iso], err);
}

static int fb_commit(dg_conn *conn, dg_err *err)
{
    fb_conn *c = (fb_conn *)conn;
    if (!c->tx)
        return 0;
    cursors_close(c, TXK_EXPLICIT);
    if (dg_fb.isc_commit_transaction(c->sv, &c->tx)) {
        int rc = dg_firebird_fill_error(c, "commit", "COMMIT", err);
        dg_firebird_tx_abandon(&c->tx);
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
        int rc = dg_firebird_fill_error(c, "rollback", NULL, err);
        dg_firebird_tx_abandon(&c->tx);
        return rc;
    }
    return 0;
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
                                                 "page_buffers",
                                                 /* from the lock table (monitor/locktab.h):
                                                    a database on this machine */
                                                 "LockHashSlots", "lock_hash_slots",
                                                 "LockMemSize", "lock_table_bytes", NULL, NULL},
    .cache_setting = "page_buffers",
    .user_tables_sql = "SELECT TRIM(RDB$RELATION_NAME) FROM RDB$RELATIONS WHERE "
                       "COALESCE(RDB$SYSTEM_FLAG, 0) = 0 AND RDB$VIEW_BLR IS NULL AND "
                       "COALESCE(RDB$RELATION_TYPE, 0) = 0 ORDER BY 1",
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
    {"bulk", "enum", 0, 0, "block|insert|external|auto",
     "bulk path: EXECUTE BLOCK batches, a prepared one-row INSERT, external files, or auto "
     "(default: external files when the server is on this machine and its firebird.conf allows "
     "a directory dbgauge can write to, tried first; else EXECUTE BLOCK)"},
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

/* What MON$ tells of an attachment: a statement running (active: its lock waits
 * included, which Firebird 3 does not show apart), one whose cursor waits for the client
 * to fetch (stalled), or none. Each execute runs in a transaction of its own (a new
 * monitoring snapshot); the snapshot costs the engine a walk of every attachment. */
static const dg_wait_query fb_wait_queries[] = {
    {"SELECT a.MON$ATTACHMENT_ID, CASE MIN(s.MON$STATE) WHEN 1 THEN 'CPU' ELSE 'Client' END, "
     "CASE MIN(s.MON$STATE) WHEN 1 THEN 'active statement' WHEN 2 THEN 'stalled statement' "
     "ELSE 'no statement' END FROM MON$ATTACHMENTS a LEFT JOIN MON$STATEMENTS s ON "
     "s.MON$ATTACHMENT_ID = a.MON$ATTACHMENT_ID AND s.MON$STATE > 0 WHERE "
     "a.MON$ATTACHMENT_ID <> CURRENT_CONNECTION GROUP BY a.MON$ATTACHMENT_ID",
     "MON$ATTACHMENTS, MON$STATEMENTS",
     "Firebird's monitoring tables tell a statement running from one waiting for the client, "
     "not what a running statement waits on (lock waits and I/O count as CPU), and no "
     "statement running from a commit (both count as Client)",
     NULL, 50, "a monitoring snapshot walks every attachment of the engine", true},
    {NULL, NULL, NULL, NULL, 0, NULL, false},
};

const dg_backend dg_backend_firebird = {
    .name = "firebird",
    .schemes = firebird_schemes,
    .url_help = "firebird://user:pass@host:port//abs/path.fdb | firebird:PATH (embedded)",
    .caps = DG_CAP_CONCURRENT_WRITERS,
    .dialect = &firebird_dialect,
    .options = backend_options,
    .server_comms = "firebird fbserver fb_smp_server fb_inet_server",
    .lock_table = true,
    /* gbak, isql and gstat: the user and password (the server is in the connect string) */
    .tool_env = {NULL, NULL, "ISC_USER", "ISC_PASSWORD", NULL},
    .wait_queries = fb_wait_queries,
    .server_pid_sql = "SELECT MON$SERVER_PID FROM MON$ATTACHMENTS WHERE MON$ATTACHMENT_ID = CURRENT_CONNECTION",
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
    .bulk_begin = dg_firebird_bulk_begin,
    .bulk_row = dg_firebird_bulk_row,
    .bulk_end = dg_firebird_bulk_end,
    .bulk_path = dg_firebird_bulk_path,
    .stats = dg_firebird_stats,
    .server_info = dg_firebird_server_info,
    .conn_cache_stats = dg_firebird_conn_cache_stats,
    .table_exists = dg_firebird_table_exists,
    .object_stats = dg_firebird_object_stats,
    .interrupt = fb_interrupt,
};

