/*
 * runner.c - terminals and the collector (see runner.h).
 *
 * Layout:
 *   - stop requests (signal-safe flag)
 *   - the terminal: its state, the transaction loop (choose, pace, run with retries,
 *     record), error handling by class (retry, reconnect, abort) and think time
 *   - the collector: starts terminals, opens a start gate once all are connected and
 *     prepared, then flips and merges their statistics at interval boundaries
 *
 * A terminal's measured path per transaction: one clock read at the end (the end of one
 * transaction is the start of the next in a closed loop), the workload call, two atomic
 * increments of its own phaser, histogram and counter updates. Errors, reconnects and
 * think time are off that path.
 */
#define _GNU_SOURCE /* pthread_getattr_np: a thread's stack bounds (release_stack) */
#include "runner/runner.h"

#include "core/clock.h"
#include "core/futex.h"
#include "core/hot.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/wait.h"
#include "core/xalloc.h"
#include "stats/ci.h"
#include "runner/sched.h"
#include "stats/phaser.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#define RECONNECT_MIN_NS (100 * DG_NS_PER_MS)
#define RECONNECT_MAX_NS (1 * DG_NS_PER_S) /* a restarted server is found within 1 s */
/* At the end (or on a stop request) terminals finish the transaction they are in; one
 * still inside a database call this long after is interrupted (its connection's I/O shut
 * down), so a server that stopped answering cannot hold the run past its end. */
#define STUCK_GRACE_NS (2 * DG_NS_PER_S)
#define SLEEP_SLICE_NS (50 * DG_NS_PER_MS) /* a sleep's longest wait without futexes */
/* A terminal fiber's stack (events engine): opening a session (name lookup, SCRAM, TLS)
 * is the deepest it goes; untouched pages cost nothing, so the size is only a bound. */
#define FIBER_STACK_BYTES (256 * 1024)
#define MAX_WORKERS 256

/* ---- stop requests -------------------------------------------------------------------- */

/* the stop word (core/stop.h) is also the futex word thinking terminals wait on */
/* What the run's main loop waits on between its boundaries (a futex word): bumped
 * by a stop request and by each terminal as it finishes, so the loop sleeps until its next
 * boundary instead of waking every few milliseconds to look. Those wake-ups cost a lone
 * SQLite terminal about 3 % of its speed: the scheduler moved it between the cores. */
static atomic_int g_main_wake;
/* The events engine's schedulers, kicked by a stop request so that sleeping fibers
 * notice it (a write to an eventfd each: async-signal-safe). */
static _Atomic(dg_sched *) g_scheds[MAX_WORKERS];
/* Kicks under way: a scheduler leaves g_scheds, then is freed only once none is, so no
 * kick writes to its eventfd after the close (or to a descriptor that took its number). */
static atomic_int g_kickers;

/* async-signal-safe */
static void wake_main(void)
{
    atomic_fetch_add(&g_main_wake, 1);
    dg_futex_wake_all(&g_main_wake);
}

/* The main loop's sleep until `until`, or until wake_main() after `seen` was read (where
 * there is no futex, 10 ms at most). */
static void main_sleep_until(int seen, int64_t until)
{
    dg_futex_wait_until(&g_main_wake, seen, until, 10 * DG_NS_PER_MS);
}

static void kick_schedulers(void)
{
    atomic_fetch_add(&g_kickers, 1);
    for (int i = 0; i < MAX_WORKERS; i++) {
        dg_sched *s = atomic_load(&g_scheds[i]);
        if (s)
            dg_sched_kick(s);
    }
    atomic_fetch_sub(&g_kickers, 1);
}

/* The first signal is the reason (core/stop.h keeps it): a second Ctrl-C (or a SIGTERM
 * after it) does not rewrite why the run stopped. */
void dg_run_request_stop(int signo)
{
    dg_stop_request(signo); /* wakes every thinking terminal */
    wake_main();
    kick_schedulers();
}

void dg_run_clear_stop(void)
{
    dg_stop_clear();
}

int dg_run_stop_signal(void)
{
    return dg_stop_signal();
}

static inline bool stop_requested(void)
{
    return dg_stop_requested();
}

/* ---- shared run state ---------------------------------------------------------------- */

/* Latencies a terminal recorded since the last flip that are not in its histograms yet.
 * A terminal with think time (thousands of them, a few transactions a second each) only
 * fills this buffer, and the collector, which flips every COLLECT_NS, puts the values
 * into the interval's histograms: the terminal's own histogram pages are never written,
 * so they never become memory (at 1,000 terminals that was 100 KB each). A busy terminal
 * (over PENDING_MAX transactions per COLLECT_NS) fills it and empties it into its own
 * histograms itself, 32 values at a time. Small, because every terminal's buffers are
 * resident: 1,000 terminals hold 0.5 MB of them. */
#define PENDING_MAX 32
#define COLLECT_NS (250 * DG_NS_PER_MS)
/* A pending latency is one word: the transaction type above PENDING_NS_BITS, the
 * nanoseconds below (78 hours; a longer one goes into the histogram at once). */
#define PENDING_NS_BITS 48
#define PENDING_NS_MAX ((UINT64_C(1) << PENDING_NS_BITS) - 1)
#define PENDING_TYPES (1 << (64 - PENDING_NS_BITS))

typedef struct slot {
    dg_txstats *tx;       /* [ntx] */
    dg_hist lag;
    uint64_t reconnects;
    int64_t downtime_ns;
    dg_node_counts *nodes; /* [nnodes] of a cluster run, else NULL */
    int npending;
    uint64_t pending[PENDING_MAX]; /* last: a thinking terminal touches only its start */
} slot;

static inline int pending_type(uint64_t p)
{
    return (int)(p >> PENDING_NS_BITS);
}

static inline int64_t pending_ns(uint64_t p)
{
    return (int64_t)(p & PENDING_NS_MAX);
}

/* A terminal's own (full) slot: its pending latencies into its histograms. */
static void fold_pending(slot *s)
{
    for (int k = 0; k < s->npending; k++)
        dg_hist_record(&s->tx[pending_type(s->pending[k])].lat, pending_ns(s->pending[k]));
    s->npending = 0;
}

typedef struct run run;

/* Each terminal starts on a cache line of its own (alignas below, and the array is
 * allocated 64-byte aligned), so the phaser a terminal writes on every transaction never
 * shares a line with another terminal's. */
typedef struct terminal {
    alignas(64) dg_phaser ph; /* first: written on every record */
    int id;
    run *r;
    dg_conn *conn;
    void *wl_state;
    int node;                 /* the host of a cluster URL it is on (0 otherwise) */
    dg_conn *rconn;           /* --db-read: its session on a replica, for the transactions */
    void *rwl_state;          /*   that only read (NULL without --db-read) */
    int rnode;                /*   which replica (of cfg->read_nodes) */
    int cur_node;             /* the counted node of the transaction under way */
    dg_termwait *tw;          /* where it publishes its session and type (NULL: nowhere) */
    dg_prng rng;
    pthread_t thread;
    bool started;
    atomic_bool done;
    atomic_bool aborted;
    atomic_bool cut; /* stop_terminals() interrupted its connection: the call's error is ours */
    atomic_llong cache_hits, cache_misses;
    /* Outage bookkeeping (error path only): while down_since != 0 the terminal has no
     * connection; the collector books the time up to each interval boundary into that
     * interval, the terminal books the rest when it is back, never both for one span. */
    pthread_mutex_t down_lock;
    int64_t down_since;
    int64_t booked_until;
    int last_gen; /* the collector's report_gen when it last sampled the cache */
    atomic_llong finished_ns; /* when it left its loop, before closing its session */
    dg_drain_stats *drain;    /* [type]: completions after the deadline (this thread's) */
    dg_node_counts *node_drain; /* [nnodes] of a cluster run: the same by host */
    uint64_t *hist_block;     /* the counters of both slots' histograms, one mapping */
    /* A fiber that rests at the start gate or through its think time (see pace_after)
     * starts terminal_main over: where it is (TS_*), and its loop's state */
    int stage;
    int64_t rest_until, rest_sched, rest_last_end, rest_measured_done;
    int init_rc;
    dg_err *init_err;         /* why it could not start (allocated then) */
    /* Last, and the array of terminals in pages of its own: what a terminal never
     * touches (most of its pending buffers, with think time) never becomes memory. */
    slot slots[2];
} terminal;
static_assert(alignof(terminal) == 64 && sizeof(terminal) % 64 == 0,
              "terminals must not share cache lines");

struct run {
    const dg_run_config *cfg;
    dg_workload *wl;
    int ntx;
    double *cum_weight; /* cumulative weights of the transaction types */
    double total_weight;
    terminal *terms;    /* [cfg->terminals], aligned */
    int nnodes;         /* nodes counted (nwrite + nread); 0: not a cluster run */
    int nwrite;         /* hosts of the URL the transactions that write go to */
    int nread;          /* replicas of --db-read (0: none) */
    atomic_bool node_down_said[2 * DG_MAX_NODES]; /* "node X down" warned once: the URL's
                                                     hosts, then the replicas */
    pthread_mutex_t gate_lock; /* start gate: terminals report ready, then wait for go */
    pthread_cond_t ready_cond; /* a terminal is ready: only dg_run waits on it */
    pthread_cond_t go_cond;    /* the gate opened: the terminals wait on it */
    int ready_count;
    bool go;
    atomic_bool go_flag; /* go, read without the lock by fibers (events engine) */
    struct worker *workers; /* events engine: [nworkers]; NULL with a thread per terminal */
    int nworkers;
    atomic_int phase;   /* DG_PHASE_* as seen by terminals (for --transactions) */
    int64_t t0_ns;      /* start of the run, written before the gate opens */
    int64_t end_ns;     /* planned end (duration mode), INT64_MAX otherwise */
    atomic_bool start_failed;
    pthread_mutex_t err_lock; /* error registry only: never taken on the measured path */
    atomic_int interrupted;   /* terminals stop_terminals() had to interrupt */
    atomic_int report_gen;    /* intervals reported so far */
    /* the connect gate (connect_gate_enter): tickets handed out, sessions opened or failed,
     * and the nanoseconds those took */
    atomic_llong conn_tickets, conn_done, conn_ns;
    dg_run_stats *out;
};

/* ---- error registry (error path only) --------------------------------------------------- */

/* Records an error kind; returns true the first time this kind is seen (caller logs it). */
static bool note_error(run *r, const char *tx, const dg_err *e, const char *context)
{
    char key[320];
    snprintf(key, sizeof key, "%s%s%s%s%s", context, e->msg, e->sqlstate[0] ? " [" : "",
             e->sqlstate, e->sqlstate[0] ? "]" : "");
    bool first = false;
    pthread_mutex_lock(&r->err_lock);
    dg_run_stats *o = r->out;
    int i;
    for (i = 0; i < o->nerrors; i++) {
        /* same transaction and same text without the terminal number = same kind */
        if (!strcmp(o->errors[i].tx, tx) && o->errors[i].cls == e->cls &&
            !strcmp(strchr(o->errors[i].msg, ':') ? strchr(o->errors[i].msg, ':') : o->errors[i].msg,
                    strchr(key, ':') ? strchr(key, ':') : key)) {
            o->errors[i].count++;
            break;
        }
    }
    if (i == o->nerrors) {
        if (o->nerrors < DG_RUN_MAX_ERRORS) {
            dg_run_error *re = &o->errors[o->nerrors++];
            snprintf(re->msg, sizeof re->msg, "%s", key);
            snprintf(re->tx, sizeof re->tx, "%s", tx);
            re->cls = e->cls;
            re->count = 1;
            first = true;
        } else {
            o->errors_dropped++;
        }
    }
    pthread_mutex_unlock(&r->err_lock);
    return first;
}

/* ---- terminal ---------------------------------------------------------------------------- */

static int choose_type(run *r, dg_prng *rng)
{
    if (r->ntx == 1)
        return 0;
    double x = dg_prng_double(rng) * r->total_weight;
    for (int i = 0; i < r->ntx - 1; i++)
        if (x < r->cum_weight[i])
            return i;
    return r->ntx - 1;
}

/* How late a think or keying time of `ns` from `now` may end on an events-engine worker:
 * 1/200 of it, at most 1 ms (100 ms of think time: 0.5 ms), and never past the run's
 * end. The worker then ends it at a wake-up it has anyway, for a result or another
 * terminal's timer, instead of waking for it alone: at 50 terminals thinking 100 ms that
 * was 1.2 wake-ups per transaction, and CPU with them. The transactions' latency does not
 * include think time; a --rate schedule, whose latency counts from the schedule, and
 * waits for a socket have no slack. */
#define THINK_SLACK_DIV 200
#define THINK_SLACK_MAX_NS DG_NS_PER_MS

static inline int64_t think_slack(int64_t ns, int64_t now, int64_t end_ns)
{
    int64_t slack = ns / THINK_SLACK_DIV;
    if (slack > THINK_SLACK_MAX_NS)
        slack = THINK_SLACK_MAX_NS;
    int64_t left = end_ns - now - ns; /* after the sleep, before the end */
    return slack < left ? slack : left > 0 ? left : 0;
}

/* Sleeps until `until` or a stop request; a fiber's sleep may end up to slack_ns late
 * (see think_slack). A thread waits on the stop flag itself (core/futex.h, which
 * dg_run_request_stop wakes, from a signal handler too): a terminal thinking 100 ms wakes
 * once, not every slice. Without futexes in slices, so a stop is noticed within one. */
static void sleep_until_or_stop(int64_t until, int64_t slack_ns)
{
    const dg_waiter *w = dg_waiter_get(); /* a fiber: its scheduler, which a stop kicks */
    for (;;) {
        int64_t now = dg_now_ns();
        if (now >= until || stop_requested())
            return;
        if (w) {
            w->sleep_until(w->ctx, until, slack_ns);
            continue;
        }
        dg_futex_wait_until(&dg_stop_word, 0, until, SLEEP_SLICE_NS); /* at once once it is not 0 */
    }
}

static void close_session(terminal *t);

/* The connect gate: at most CONNECT_AT_ONCE sessions open at a time, in the order the
 * terminals asked (tickets). A server forks a process for each connection and runs the
 * password exchange (SCRAM: thousands of hash rounds on each side) with it: 5,000
 * terminals that all connect at once on a small machine leave server processes waiting
 * for answers the client has not computed yet, past the server's authentication timeout
 * (60 s by default), and the run cannot start; pgbench connects its clients one by one
 * per thread. A waiting terminal sleeps about as long as the sessions ahead of it should
 * take (from the opens so far), so thousands of them wake a few times each, not every
 * millisecond. Reconnects go through it too (a server back after a restart). Returns
 * false when the run is stopped while waiting. */
#define CONNECT_AT_ONCE 16
#define CONNECT_GUESS_NS (2 * DG_NS_PER_MS) /* before any session has opened */

static bool connect_gate_enter(run *r)
{
    long long ticket = atomic_fetch_add(&r->conn_tickets, 1);
    for (;;) {
        long long done = atomic_load(&r->conn_done);
        long long ahead = ticket - done - CONNECT_AT_ONCE + 1; /* to finish before this one */
        if (ahead <= 0)
            return true;
        if (stop_requested()) {
            atomic_fetch_add(&r->conn_done, 1); /* keep the count of tickets settled */
            return false;
        }
        int64_t avg = done > 0 ? (int64_t)(atomic_load(&r->conn_ns) / done) : CONNECT_GUESS_NS;
        int64_t wait = (int64_t)ahead * avg / CONNECT_AT_ONCE;
        if (wait < DG_NS_PER_MS)
            wait = DG_NS_PER_MS;
        if (wait > 100 * DG_NS_PER_MS)
            wait = 100 * DG_NS_PER_MS;
        sleep_until_or_stop(dg_now_ns() + wait, 0);
    }
}

static void connect_gate_leave(run *r, int64_t took_ns)
{
    atomic_fetch_add(&r->conn_ns, took_ns);
    atomic_fetch_add(&r->conn_done, 1);
}

static int connect_one(run *r, const char *url, dg_conn **conn, dg_err *err)
{
    return r->cfg->connect ? r->cfg->connect(r->cfg->connect_arg, url, r->cfg->connopts, conn, err)
                           : dg_connect(url, r->cfg->connopts, conn, err);
}

static void count_arrival(terminal *t, int node)
{
    int64_t tok = dg_phaser_enter(&t->ph);
    t->slots[dg_phaser_buffer(tok)].nodes[node].arrivals++;
    dg_phaser_exit(&t->ph, tok);
}

/* One list of a cluster run's nodes: the URL's hosts (the terminal's t->node) or
 * --db-read's replicas (t->rnode). Counted nodes of the list start at `base`. */
typedef struct nodes_of {
    const dg_nodelist *nl;
    int n, base;
    int *cur;
    const char *kind, *of; /* "host", "of the URL"; "replica", "of --db-read" */
} nodes_of;

/* The terminal's node of the list, else the next ones in order (the node it reaches
 * becomes its own, counted as an arrival there); a node found down is said once. When
 * every node refuses, the first one's error, with every reason in the message. */
static int connect_node(terminal *t, const nodes_of *no, dg_conn **conn, dg_err *err)
{
    run *r = t->r;
    int rc = 0;
    for (int k = 0; k < no->n; k++) {
        int i = (*no->cur + k) % no->n;
        dg_err e;
        dg_err_clear(&e);
        rc = connect_one(r, no->nl->urls[i], conn, &e);
        if (rc == 0) {
            if (i != *no->cur) {
                *no->cur = i;
                count_arrival(t, no->base + i);
            }
            return 0;
        }
        if (k == 0)
            *err = e;
        else
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     "; %s: %s", no->nl->names[i], e.msg);
        if (e.cls == DG_EC_USER)
            break; /* a wrong password or a missing database: the next node will not help */
        if (!atomic_exchange(&r->node_down_said[no->base + i], true))
            dg_log_warn("%s %s %s did not accept a connection (%s): its terminals go on the next "
                        "one",
                        no->kind, no->nl->names[i], no->of, e.msg);
    }
    return rc;
}

/* The workload's state for the terminal on conn. */
static int term_open(terminal *t, dg_conn *conn, void **state, dg_err *err)
{
    run *r = t->r;
    dg_term term = {
        .id = t->id,
        .nterminals = r->cfg->whole_terminals > 0 ? r->cfg->whole_terminals : r->cfg->terminals,
        .conn = conn,
        .rng = &t->rng,
        .scale = r->wl->scale,
        .phase = &r->phase,
    };
    return r->wl->ops->term_open(r->wl, &term, state, err);
}

/* --db-read: the terminal's session on a replica, for the types that only read. */
static int open_read_session(terminal *t, dg_err *err)
{
    run *r = t->r;
    nodes_of no = {r->cfg->read_nodes, r->nread, r->nwrite, &t->rnode, "replica", "of --db-read"};
    dg_conn *conn = NULL;
    int rc = connect_node(t, &no, &conn, err);
    if (rc)
        return rc;
    pthread_mutex_lock(&t->down_lock);
    t->rconn = conn;
    pthread_mutex_unlock(&t->down_lock);
    return term_open(t, conn, &t->rwl_state, err);
}

static int open_session(terminal *t, dg_err *err)
{
    run *r = t->r;
    dg_conn *conn = NULL;
    if (!connect_gate_enter(r))
        return dg_err_set(err, DG_E_STOPPED, DG_EC_FATAL, 0, NULL,
                          "stopped while waiting to connect");
    int64_t t0 = dg_now_ns();
    nodes_of no = {r->cfg->nodes, r->nwrite, 0, &t->node, "host", "of the URL"};
    int rc = r->nnodes && r->cfg->nodes ? connect_node(t, &no, &conn, err)
             : r->cfg->connect
                 ? r->cfg->connect(r->cfg->connect_arg, r->cfg->url, r->cfg->connopts, &conn, err)
                 : dg_connect(r->cfg->url, r->cfg->connopts, &conn, err);
    connect_gate_leave(r, dg_now_ns() - t0);
    if (rc)
        return rc;
    /* t->conn changes under down_lock, so the collector can interrupt it (stop_stuck) */
    pthread_mutex_lock(&t->down_lock);
    t->conn = conn;
    pthread_mutex_unlock(&t->down_lock);
    rc = term_open(t, conn, &t->wl_state, err);
    if (rc == 0 && r->nread)
        rc = open_read_session(t, err);
    if (rc)
        close_session(t);
    else if (t->tw)
        atomic_store_explicit(&t->tw->session, conn->session_id, memory_order_relaxed);
    return rc;
}

static void close_session(terminal *t)
{
    if (t->wl_state)
        t->r->wl->ops->term_close(t->wl_state);
    if (t->rwl_state)
        t->r->wl->ops->term_close(t->rwl_state);
    t->wl_state = t->rwl_state = NULL;
    if (t->tw)
        atomic_store_explicit(&t->tw->session, 0, memory_order_relaxed);
    pthread_mutex_lock(&t->down_lock);
    dg_conn *conn = t->conn, *rconn = t->rconn;
    t->conn = t->rconn = NULL;
    pthread_mutex_unlock(&t->down_lock);
    dg_conn_close(conn);
    dg_conn_close(rconn);
}

/* After CONN_LOST: reconnect with capped exponential backoff until it works, the run
 * ends, or a non-connection error says it never will. Returns true when connected. */
static bool reconnect(terminal *t)
{
    run *r = t->r;
    int64_t backoff = RECONNECT_MIN_NS;
    pthread_mutex_lock(&t->down_lock);
    t->down_since = t->booked_until = dg_now_ns();
    pthread_mutex_unlock(&t->down_lock);
    close_session(t);
    /* its host is gone: the next one first (and it is counted there); both sessions are
     * opened again, so the one that was lost moves on */
    bool on_replica = r->nread && t->cur_node >= r->nwrite;
    if (on_replica && r->nread > 1) {
        t->rnode = (t->rnode + 1) % r->nread;
        count_arrival(t, r->nwrite + t->rnode);
    } else if (!on_replica && r->nwrite > 1) {
        t->node = (t->node + 1) % r->nwrite;
        count_arrival(t, t->node);
    }
    bool ok = false;
    while (!stop_requested() && dg_now_ns() < r->end_ns) {
        dg_err e;
        dg_err_clear(&e);
        if (open_session(t, &e) == 0) {
            ok = true;
            break;
        }
        if (e.cls != DG_EC_CONN_LOST && e.cls != DG_EC_RETRY && e.cls != DG_EC_FATAL) {
            /* wrong password, missing table ...: reconnecting will not help */
            if (note_error(r, "(reconnect)", &e, ""))
                dg_log_error("terminal %d: reconnect failed: %s", t->id + 1, e.msg);
            break;
        }
        int64_t until = dg_now_ns() + backoff;
        if (until > r->end_ns)
            until = r->end_ns;
        sleep_until_or_stop(until, 0);
        backoff = backoff * 2 > RECONNECT_MAX_NS ? RECONNECT_MAX_NS : backoff * 2;
    }
    pthread_mutex_lock(&t->down_lock);
    int64_t down = dg_now_ns() - t->booked_until;
    t->down_since = 0;
    pthread_mutex_unlock(&t->down_lock);
    int64_t tok = dg_phaser_enter(&t->ph);
    slot *s = &t->slots[dg_phaser_buffer(tok)];
    s->downtime_ns += down;
    if (ok)
        s->reconnects++;
    dg_phaser_exit(&t->ph, tok);
    return ok;
}

static void sample_cache(terminal *t)
{
    int64_t h, m;
    if (!t->conn || !dg_conn_cache_stats(t->conn, &h, &m))
        return;
    atomic_store_explicit(&t->cache_hits, h, memory_order_relaxed);
    atomic_store_explicit(&t->cache_misses, m, memory_order_relaxed);
}

/* Gives back the pages of this thread's stack below the current frame. Opening a
 * session goes deep (name lookup, TLS and SCRAM in the client library: some 20 KB at
 * PostgreSQL) while running transactions does not; without this each of 1,000 terminals
 * would keep that depth resident for the whole run. The memory below the stack pointer
 * holds nothing live; touched again, it comes back as zero pages. */
static void release_stack(void)
{
#ifdef __linux__
    void *lo = dg_sched_stack_low(); /* a fiber's own stack */
    if (!lo) {
        pthread_attr_t a;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &a) != 0)
            return;
        int rc = pthread_attr_getstack(&a, &lo, &size);
        pthread_attr_destroy(&a);
        if (rc != 0)
            return;
    }
    volatile char here;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)lo + page - 1) & ~(page - 1);
    uintptr_t to = ((uintptr_t)&here - page) & ~(page - 1); /* madvise()'s own frame below us */
    if (to > from && to - from >= page)
        madvise((void *)from, to - from, MADV_DONTNEED);
#endif
}

/* The first session; its error, if any, kept in the terminal. Not inlined: the error
 * buffer is on this frame, gone before the loop's sleeps (a fiber's resident stack). */
static __attribute__((noinline)) int start_session(terminal *t)
{
    dg_err e = {0};
    int rc = open_session(t, &e);
    if (rc) {
        t->init_err = xmalloc(sizeof *t->init_err);
        *t->init_err = e;
    }
    return rc;
}

/* Where a terminal is, for a fiber that rests and runs terminal_main again */
enum { TS_START, TS_GATE, TS_LOOP };

/* Connects (start_session), gives back the stack that went deep, and waits at the start
 * gate until every terminal is ready. Returns false when the fiber rests at the gate
 * instead (terminal_main returns; the gate's opening kick runs it again, at TS_GATE). Off
 * the measured path. */
static bool term_start(terminal *t, const dg_waiter *w)
{
    run *r = t->r;
    if (t->stage == TS_START) {
        t->init_rc = start_session(t);
        release_stack();
        if (t->init_rc)
            atomic_store(&r->start_failed, true);
        /* Two condition variables: with one, every terminal's "ready" would wake all those
         * already waiting for the gate, 500,000 wake-ups for 1,000 terminals (seconds). */
        pthread_mutex_lock(&r->gate_lock);
        r->ready_count++;
        pthread_cond_signal(&r->ready_cond);
        if (!w) {
            while (!r->go)
                pthread_cond_wait(&r->go_cond, &r->gate_lock);
            pthread_mutex_unlock(&r->gate_lock);
            return true;
        }
        pthread_mutex_unlock(&r->gate_lock);
        t->stage = TS_GATE;
    }
    /* A fiber must not block its worker: it rests (no stack kept: at 1,000 terminals the
     * gate was the run's peak of memory) until the opening kick, which comes after go_flag
     * is set and finds it in its scheduler's heap (a kick that comes before stays pending
     * in the scheduler's eventfd); where it cannot rest it sleeps. */
    if (!atomic_load(&r->go_flag) && dg_sched_rest_until(INT64_MAX, 0))
        return false;
    while (!atomic_load(&r->go_flag))
        w->sleep_until(w->ctx, INT64_MAX, 0);
    return true;
}

/* What the loop reads on every transaction, in a terminal's locals: across the
 * workload's call the compiler must reload anything behind a pointer, and this is the
 * measured path. end_ns is fixed before the gate opens. */
typedef struct loop_params {
    int64_t end_ns;
    int64_t by_count;       /* transactions to measure (0: by duration) */
    int64_t think_ns;
    double rate_per_term;   /* > 0: paced (Poisson arrivals) */
    bool think_exp;
    bool paced;
    bool workload_pauses;   /* keying and think times of the workload's own */
    /* A busy terminal (closed loop: no schedule, no keying or think time) runs a
     * transaction after the other: its histograms are written anyway, so it records into
     * them directly; the pending buffer is for terminals that wait, whose histogram pages
     * it keeps from becoming memory. One test of `waits` per step skips the waiting code. */
    bool waits;
    int64_t (*pause)(void *, int, int);
    int (*tx_run)(void *, int, int *, dg_err *);
    const dg_txdef *tx; /* the workload's types (reads_only) */
} loop_params;

static inline loop_params loop_params_of(const run *r)
{
    const dg_run_config *cfg = r->cfg;
    loop_params lp = {
        .end_ns = r->end_ns,
        .by_count = cfg->transactions,
        .think_ns = cfg->think_ns,
        .rate_per_term = cfg->rate_tps > 0 ? cfg->rate_tps / cfg->terminals : 0,
        .think_exp = cfg->think_exponential,
        .pause = r->wl->ops->pause_ns,
        .tx_run = r->wl->ops->tx_run,
        .tx = r->wl->tx,
    };
    lp.paced = lp.rate_per_term > 0;
    lp.workload_pauses = lp.pause && !lp.paced;
    lp.waits = lp.paced || lp.workload_pauses || lp.think_ns > 0;
    return lp;
}

/* Before a transaction of a terminal that waits: the workload's keying time (before the
 * clock starts), or the next Poisson arrival (*sched), which is then the intended start.
 * Returns false when the run ends first. */
static inline bool pace_before(terminal *t, const loop_params *lp, int type, int64_t *now,
                               int64_t *sched, int64_t *intended)
{
    if (lp->workload_pauses) { /* keying time: before the clock starts */
        int64_t key = lp->pause(t->wl_state, type, DG_PAUSE_KEYING);
        if (key > 0) {
            sleep_until_or_stop(*now + key < lp->end_ns ? *now + key : lp->end_ns,
                                think_slack(key, *now, lp->end_ns));
            *now = dg_now_ns();
            if (stop_requested() || *now >= lp->end_ns)
                return false;
            *intended = *now;
        }
    } else if (lp->paced) {
        /* Poisson arrivals: exponential gaps, drawn in (0, 1] to avoid log(0) */
        double u = 1.0 - dg_prng_double(&t->rng);
        double gap_ns = -log(u) / lp->rate_per_term * (double)DG_NS_PER_S;
        /* compared as doubles: a tiny rate's gap does not fit an int64_t */
        if (gap_ns >= (double)(lp->end_ns - *sched))
            return false;
        *sched += (int64_t)gap_ns;
        if (*now < *sched) {
            sleep_until_or_stop(*sched, 0);
            if (stop_requested())
                return false;
            *now = dg_now_ns();
        }
        *intended = *sched;
    }
    return true;
}

/* One transaction, retried with the same inputs on RETRY-class errors. Returns the last
 * attempt's result; *tries counts the retries. */
static inline int run_tx(terminal *t, const loop_params *lp, int type, int *outcome, int *tries,
                         dg_err *e)
{
    dg_prng saved = t->rng;
    int rc;
    void *state = t->wl_state;
    dg_conn *conn = t->conn;
    t->cur_node = t->node;
    if (t->rwl_state && lp->tx[type].reads_only) { /* --db-read: on the replica */
        state = t->rwl_state;
        conn = t->rconn;
        t->cur_node = t->r->nwrite + t->rnode;
    } else if (t->tw) {
        atomic_store_explicit(&t->tw->type, type, memory_order_relaxed);
    }
    for (;;) {
        rc = lp->tx_run(state, type, outcome, e);
        if (rc == 0)
            break;
        if (conn->in_tx)
            dg_rollback(conn, NULL);
        if (e->cls == DG_EC_RETRY && *tries + 1 < t->r->cfg->max_tries && !stop_requested()) {
            (*tries)++;
            t->rng = saved; /* same inputs again */
            continue;
        }
        break;
    }
    if (t->tw)
        atomic_store_explicit(&t->tw->type, -1, memory_order_relaxed);
    return rc;
}

/* Records a finished transaction (rc: its result) in the terminal's current slot, or in
 * its drain counters when it completed after the deadline (counted, not measured). */
static inline void record_tx(run *r, terminal *t, const loop_params *lp, int type, int rc,
                             int outcome, int tries, const dg_err *e, int64_t intended,
                             int64_t started, int64_t now)
{
    if (now > lp->end_ns) {
        dg_drain_stats *d = &t->drain[type];
        if (rc == 0) {
            d->count++;
            d->rollbacks += outcome == DG_TX_ROLLED_BACK;
        } else {
            d->errors++;
            d->unknown += e->outcome_unknown;
        }
        if (t->node_drain) {
            dg_node_counts *nc = &t->node_drain[t->cur_node];
            nc->tx += rc == 0;
            nc->rollbacks += rc == 0 && outcome == DG_TX_ROLLED_BACK;
            nc->errors += rc != 0;
        }
        return;
    }
    int64_t tok = dg_phaser_enter(&t->ph);
    int buf = dg_phaser_buffer(tok);
    slot *s = &t->slots[buf];
    dg_txstats *ts = &s->tx[type];
    if (rc == 0) {
        uint64_t ns = (uint64_t)(now - intended);
        if (!lp->waits || ns > PENDING_NS_MAX) {
            dg_hist_record(&ts->lat, (int64_t)ns);
        } else {
            if (s->npending == PENDING_MAX)
                fold_pending(s);
            s->pending[s->npending++] = (uint64_t)type << PENDING_NS_BITS | ns;
        }
        ts->count++;
        ts->rollbacks += outcome == DG_TX_ROLLED_BACK;
        if (lp->paced)
            dg_hist_record(&s->lag, started - intended);
    } else {
        ts->errors++;
        ts->err_class[e->cls]++;
        ts->unknown += e->outcome_unknown;
    }
    if (tries > 0) {
        ts->retries += (uint64_t)tries;
        ts->retried++;
    }
    if (s->nodes) {
        dg_node_counts *nc = &s->nodes[t->cur_node];
        nc->tx += rc == 0;
        nc->rollbacks += rc == 0 && outcome == DG_TX_ROLLED_BACK;
        nc->errors += rc != 0;
    }
    dg_phaser_exit(&t->ph, tok);
    int gen = atomic_load_explicit(&r->report_gen, memory_order_relaxed);
    if (gen != t->last_gen) { /* an interval was reported: refresh slow counters (at
                               * Firebird, a round trip: once an interval, not a flip) */
        t->last_gen = gen;
        sample_cache(t);
    }
}

/* After a failed transaction (counted already): report its first of a kind, reconnect
 * after CONN_LOST (*now is then the time after it), or abort the terminal on bad SQL or a
 * fatal error. Returns false when the terminal must stop. Off the measured path. */
static __attribute__((noinline)) bool handle_error(terminal *t, int type, int tries, dg_err *e,
                                                   int64_t end_ns, int64_t *now)
{
    run *r = t->r;
    const char *txname = r->wl->tx[type].name;
    char ctx[96];
    snprintf(ctx, sizeof ctx, "terminal %d, %s: ", t->id + 1, txname);
    bool first = note_error(r, txname, e, ctx);
    switch (e->cls) {
    case DG_EC_CONN_LOST:
        if (first)
            dg_log_warn("%s%s (reconnecting; further errors of this kind are counted)", ctx, e->msg);
        if (!reconnect(t)) {
            /* the run ended while reconnecting, or the database refuses us for good */
            if (!stop_requested() && dg_now_ns() < end_ns)
                atomic_store(&t->aborted, true);
            return false;
        }
        *now = dg_now_ns();
        break;
    case DG_EC_RETRY:
    case DG_EC_CONSTRAINT:
        if (first)
            dg_log_warn("%s%s%s%s%s (after %d tr%s; further errors of this kind are counted)",
                        ctx, e->msg, e->sqlstate[0] ? " [" : "", e->sqlstate,
                        e->sqlstate[0] ? "]" : "", tries + 1, tries == 0 ? "y" : "ies");
        break;
    default:
        /* bad SQL or a fatal database error: this terminal stops */
        dg_log_error("%s%s%s%s%s (terminal aborted)", ctx, e->msg, e->sqlstate[0] ? " [" : "",
                     e->sqlstate, e->sqlstate[0] ? "]" : "");
        atomic_store(&t->aborted, true);
        return false;
    }
    dg_err_clear(e); /* clean for the next transaction */
    return true;
}

/* After a transaction of a terminal that waits: the workload's think time, then
 * --think-time (fixed, or exponential truncated at 10 times its mean), one after the
 * other. A fiber rests through them instead of sleeping (runner/sched.h: it keeps no
 * stack meanwhile, which at a thousand thinking terminals was 4 MB); then the function
 * returns true and terminal_main returns, to start over when the rest ends. */
static inline bool pace_after(terminal *t, const loop_params *lp, int type, int64_t *now)
{
    int64_t until = *now, think_sum = 0;
    if (lp->workload_pauses && t->wl_state) {
        int64_t think = lp->pause(t->wl_state, type, DG_PAUSE_THINK);
        if (think > 0) {
            until += think;
            think_sum += think;
        }
    }
    if (lp->think_ns > 0) {
        int64_t think = lp->think_ns;
        if (lp->think_exp) {
            double u = 1.0 - dg_prng_double(&t->rng);
            double x = -log(u);
            think = (int64_t)((x > 10.0 ? 10.0 : x) * (double)lp->think_ns);
        }
        until += think;
        think_sum += think;
    }
    if (think_sum <= 0)
        return false;
    if (until > lp->end_ns)
        until = lp->end_ns;
    if (until <= *now) /* after the deadline (the drain): nothing to wait for */
        return false;
    int64_t slack = think_slack(think_sum, *now, lp->end_ns);
    if (!stop_requested() && dg_sched_rest_until(until, slack)) {
        t->rest_until = until;
        return true;
    }
    sleep_until_or_stop(until, slack);
    *now = dg_now_ns();
    return false;
}

/* The end of this terminal's work: its last transaction's completion (after the deadline
 * when one was in flight then), or the deadline when it was thinking (or waiting for a
 * CPU to notice the stop) then. Neither closing its session nor waking late counts: 1,000
 * terminals whose think time all ends at the deadline wake one after another on two
 * cores. */
static void term_finish(terminal *t, int64_t last_end)
{
    run *r = t->r;
    int64_t fin = dg_now_ns();
    if (fin > r->end_ns)
        fin = last_end > r->end_ns ? last_end : r->end_ns;
    atomic_store(&t->finished_ns, fin);
    sample_cache(t);
    close_session(t);
    atomic_store(&t->done, true);
    wake_main();
}

static DG_HOT void *terminal_main(void *arg)
{
    terminal *t = arg;
    run *r = t->r;
    int64_t last_end = 0; /* when its last transaction completed */
    const dg_waiter *w = dg_waiter_get();
    bool resumed = t->stage == TS_LOOP; /* a fiber's think time ended (or a stop came) */
    if (!resumed) {
        if (!term_start(t, w)) /* through the gate: the run's times are set after it */
            return NULL;    /* a fiber resting at the gate */
        t->stage = TS_LOOP;
    }
    const loop_params lp = loop_params_of(r);
    int64_t sched = r->t0_ns, now = r->t0_ns, measured_done = 0;
    /* One error record for the terminal's life (of a rest, for a fiber), cleared after
     * each failure: initialising its message buffer for every transaction cost 73
     * instructions of ~8,300 (SQLite). */
    dg_err e = DG_ERR_INIT;
    if (resumed) { /* back into the loop where it rested */
        sched = t->rest_sched;
        last_end = t->rest_last_end;
        measured_done = t->rest_measured_done;
        /* ended early (a kick) without a stop: the rest of the think time */
        sleep_until_or_stop(t->rest_until, 0);
        now = dg_now_ns();
    } else if (atomic_load(&r->start_failed)) {
        goto out;
    }

    for (;;) {
        if (stop_requested() || now >= lp.end_ns)
            break;
        if (!t->conn && !reconnect(t)) {
            if (!stop_requested() && dg_now_ns() < lp.end_ns)
                atomic_store(&t->aborted, true);
            break;
        }
        int type = choose_type(r, &t->rng);
        int64_t intended = now;
        if (lp.waits && !pace_before(t, &lp, type, &now, &sched, &intended))
            break;
        int64_t started = now;
        int tries = 0, outcome = DG_TX_COMMITTED;
        int rc = run_tx(t, &lp, type, &outcome, &tries, &e);
        /* the collector shut this connection down (a server that did not answer at the
         * end or after a stop): the error is dbgauge's own, not the server's, so it is
         * neither counted nor reported, and nothing reconnects */
        if (rc != 0 && atomic_load_explicit(&t->cut, memory_order_relaxed)) {
            last_end = dg_now_ns(); /* its work ended when it was cut (an overrun's end) */
            break;
        }
        now = dg_now_ns();
        if (w) /* the result arrived when the loop saw it, not when this fiber's turn came */
            now -= w->queued_since(w->ctx, started);
        last_end = now;
        record_tx(r, t, &lp, type, rc, outcome, tries, &e, intended, started, now);
        if (lp.by_count > 0 &&
            atomic_load_explicit(&r->phase, memory_order_relaxed) == DG_PHASE_MEASURE)
            measured_done++;
        if (rc != 0 && !handle_error(t, type, tries, &e, lp.end_ns, &now))
            break;
        if (lp.by_count > 0 && measured_done >= lp.by_count) /* counted only while measuring */
            break;
        if (lp.waits && pace_after(t, &lp, type, &now)) {
            t->rest_sched = sched;
            t->rest_last_end = last_end;
            t->rest_measured_done = measured_done;
            return NULL; /* the fiber rests; it runs this function again after */
        }
    }
out:
    term_finish(t, last_end);
    return NULL;
}

/* ---- the events engine: worker threads running terminals as fibers ------------------------ */

typedef struct worker {
    dg_sched *s;
    pthread_t thread;
    bool started;
} worker;

static void terminal_fiber(void *t)
{
    terminal_main(t);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    dg_sched_run(w->s);
    return NULL;
}

/* Terminal k runs on worker k % nworkers. On failure start_failed is set and nothing that
 * did not start is marked started. */
static int start_workers(run *r, int *nstarted, dg_err *err)
{
    int n = r->cfg->terminals;
    int nw = r->cfg->workers < n ? r->cfg->workers : n;
    if (nw > MAX_WORKERS)
        nw = MAX_WORKERS;
    r->workers = xcalloc((size_t)nw, sizeof *r->workers);
    r->nworkers = nw;
    for (int i = 0; i < nw; i++) {
        worker *w = &r->workers[i];
        w->s = dg_sched_new((n - i + nw - 1) / nw, FIBER_STACK_BYTES);
        if (!w->s) {
            atomic_store(&r->start_failed, true);
            return dg_err_fail(err, DG_E_NOMEM, "cannot make the scheduler of worker %d: %s", i + 1,
                               strerror(errno));
        }
        for (int k = i; k < n; k += nw) {
            if (dg_sched_spawn(w->s, terminal_fiber, &r->terms[k]) != 0) {
                atomic_store(&r->start_failed, true);
                return dg_err_fail(err, DG_E_NOMEM, "out of memory for terminal %d's stack", k + 1);
            }
        }
    }
    for (int i = 0; i < nw; i++) {
        worker *w = &r->workers[i];
        atomic_store(&g_scheds[i], w->s);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            atomic_store(&r->start_failed, true);
            return dg_err_fail(err, DG_E_IO, "cannot start worker thread %d: %s", i + 1,
                               strerror(errno));
        }
        w->started = true;
        for (int k = i; k < n; k += nw) {
            r->terms[k].started = true;
            (*nstarted)++;
        }
    }
    return 0;
}

static void join_terminals(run *r)
{
    if (r->workers) {
        for (int i = 0; i < r->nworkers; i++)
            if (r->workers[i].started)
                pthread_join(r->workers[i].thread, NULL);
        return;
    }
    for (int k = 0; k < r->cfg->terminals; k++)
        if (r->terms[k].started)
            pthread_join(r->terms[k].thread, NULL);
}

/* ---- collector --------------------------------------------------------------------------- */

/* Waits for every terminal to end; those still in their loop (a database call) after
 * STUCK_GRACE_NS, or at the shutdown's shared deadline after a stop signal (core/stop.h),
 * get their connection interrupted (the call then fails; the terminal knows it was cut
 * and does not count that). A terminal closing its session is left to finish: that is
 * not stuck. */
static void stop_terminals(run *r)
{
    int n = r->cfg->terminals;
    int64_t deadline = dg_stop_cap_ns(dg_now_ns() + STUCK_GRACE_NS);
    for (;;) {
        bool all = true;
        for (int k = 0; k < n; k++)
            all &= atomic_load(&r->terms[k].done) || atomic_load(&r->terms[k].finished_ns) != 0;
        if (all || dg_now_ns() >= deadline)
            break;
        dg_sleep_ns(5 * DG_NS_PER_MS);
    }
    for (int k = 0; k < n; k++) {
        terminal *t = &r->terms[k];
        if (atomic_load(&t->done) || atomic_load(&t->finished_ns) != 0)
            continue;
        pthread_mutex_lock(&t->down_lock);
        if (t->conn) {
            atomic_store(&t->cut, true); /* before the call can fail */
            dg_interrupt(t->conn);
            if (t->rconn)
                dg_interrupt(t->rconn);
            atomic_fetch_add(&r->interrupted, 1);
        }
        pthread_mutex_unlock(&t->down_lock);
    }
    join_terminals(r);
}

static void free_slot(slot *s)
{
    free(s->tx); /* the histograms' counters are the terminal's block */
    s->tx = NULL;
    free(s->nodes);
    s->nodes = NULL;
}

static void add_nodes(dg_node_counts *to, dg_node_counts *from, int n, bool reset)
{
    for (int i = 0; i < n; i++) {
        to[i].tx += from[i].tx;
        to[i].rollbacks += from[i].rollbacks;
        to[i].errors += from[i].errors;
        to[i].arrivals += from[i].arrivals;
        if (reset)
            memset(&from[i], 0, sizeof from[i]);
    }
}

/* Slot `which` of a terminal whose block holds 2 * (ntx + 1) histograms. */
static void init_slot(slot *s, int ntx, uint64_t *block, int which)
{
    int base = which * (ntx + 1);
    s->tx = xcalloc((size_t)ntx, sizeof *s->tx);
    for (int i = 0; i < ntx; i++)
        dg_txstats_init_in(&s->tx[i], block, base + i);
    dg_hist_init_in(&s->lag, block, base + ntx);
    s->npending = 0;
}

typedef struct interval_acc {
    dg_txstats *tx;
    dg_txstats all;
    dg_hist lag;
    uint64_t reconnects;
    int64_t downtime_ns;
    dg_node_counts *nodes; /* [nnodes] of a cluster run */
} interval_acc;

/* An interval's accumulator emptied, after its report. */
static void iv_reset(run *r, interval_acc *iv)
{
    for (int i = 0; i < r->ntx; i++)
        dg_txstats_reset(&iv->tx[i]);
    dg_txstats_reset(&iv->all);
    dg_hist_reset(&iv->lag);
    iv->reconnects = 0;
    iv->downtime_ns = 0;
    if (iv->nodes)
        memset(iv->nodes, 0, sizeof *iv->nodes * (size_t)r->nnodes);
}

/* Flips every terminal, adds what they recorded since the last flip to iv, and resets
 * their old buffers. Every COLLECT_NS and at each interval's end. */
static void collect(run *r, interval_acc *iv)
{
    for (int k = 0; k < r->cfg->terminals; k++) {
        terminal *t = &r->terms[k];
        if (!t->started)
            continue;
        int old = dg_phaser_flip(&t->ph);
        slot *s = &t->slots[old];
        for (int i = 0; i < r->ntx; i++) {
            if (s->tx[i].count || s->tx[i].errors || s->tx[i].retries) {
                dg_txstats_merge(&iv->tx[i], &s->tx[i]);
                dg_txstats_reset(&s->tx[i]);
            }
        }
        for (int j = 0; j < s->npending; j++) /* counted above, latencies here */
            dg_hist_record(&iv->tx[pending_type(s->pending[j])].lat, pending_ns(s->pending[j]));
        s->npending = 0;
        dg_hist_merge(&iv->lag, &s->lag);
        dg_hist_reset(&s->lag);
        iv->reconnects += s->reconnects;
        iv->downtime_ns += s->downtime_ns;
        if (s->nodes)
            add_nodes(iv->nodes, s->nodes, r->nnodes, true);
        s->reconnects = 0;
        s->downtime_ns = 0;
        /* a terminal still without a connection: its outage so far belongs here */
        pthread_mutex_lock(&t->down_lock);
        if (t->down_since) {
            int64_t now = dg_now_ns();
            iv->downtime_ns += now - t->booked_until;
            t->booked_until = now;
        }
        pthread_mutex_unlock(&t->down_lock);
    }
}

/* The interval's last collect and its totals over the transaction types. */
static void harvest(run *r, interval_acc *iv)
{
    collect(r, iv);
    dg_txstats_reset(&iv->all);
    for (int i = 0; i < r->ntx; i++)
        dg_txstats_merge(&iv->all, &iv->tx[i]);
}

static void report_interval(run *r, interval_acc *iv, int phase, int64_t t_end, int64_t dur)
{
    dg_run_stats *o = r->out;
    for (int i = 0; i < r->ntx; i++)
        dg_txstats_merge(&o->tx[phase][i], &iv->tx[i]);
    dg_txstats_merge(&o->all[phase], &iv->all);
    dg_hist_merge(&o->lag[phase], &iv->lag);
    o->reconnects += iv->reconnects;
    o->downtime_ns += iv->downtime_ns;
    if (r->nnodes)
        add_nodes(o->nodes[phase], iv->nodes, r->nnodes, false);
    if (!r->cfg->on_interval)
        return;
    int active = 0;
    int64_t hits = 0, misses = 0;
    bool have_cache = false;
    for (int k = 0; k < r->cfg->terminals; k++) {
        terminal *t = &r->terms[k];
        if (!atomic_load(&t->done))
            active++;
        int64_t h = atomic_load_explicit(&t->cache_hits, memory_order_relaxed);
        if (h >= 0) {
            have_cache = true;
            hits += h;
            misses += atomic_load_explicit(&t->cache_misses, memory_order_relaxed);
        }
    }
    dg_interval_report rep = {
        .phase = phase,
        .t_end_ns = t_end,
        .end_mono_ns = r->t0_ns + t_end,
        .dur_ns = dur,
        .ntx = r->ntx,
        .tx = iv->tx,
        .all = &iv->all,
        .lag = &iv->lag,
        .reconnects = iv->reconnects,
        .downtime_ns = iv->downtime_ns,
        .active_terminals = active,
        .cache_hits = have_cache ? hits : -1,
        .cache_misses = have_cache ? misses : -1,
        .nnodes = r->nnodes,
        .nodes = iv->nodes,
    };
    r->cfg->on_interval(r->cfg->arg, &rep);
}

static bool all_done(run *r)
{
    for (int k = 0; k < r->cfg->terminals; k++)
        if (r->terms[k].started && !atomic_load(&r->terms[k].done))
            return false;
    return true;
}

void dg_run_stats_free(dg_run_stats *st)
{
    if (!st)
        return;
    free(st->drain);
    st->drain = NULL;
    free(st->node_drain);
    st->node_drain = NULL;
    for (int p = 0; p < 2; p++) {
        free(st->nodes[p]);
        st->nodes[p] = NULL;
        if (st->tx[p]) {
            for (int i = 0; i < st->ntx; i++)
                dg_txstats_destroy(&st->tx[p][i]);
            free(st->tx[p]);
            st->tx[p] = NULL;
        }
        dg_txstats_destroy(&st->all[p]);
        dg_hist_destroy(&st->lag[p]);
    }
}

static int init_stats(dg_run_stats *o, int ntx, int nnodes)
{
    memset(o, 0, sizeof *o);
    o->ntx = ntx;
    o->nnodes = nnodes;
    if (nnodes) {
        o->node_drain = xcalloc((size_t)nnodes, sizeof *o->node_drain);
        for (int p = 0; p < 2; p++)
            o->nodes[p] = xcalloc((size_t)nnodes, sizeof *o->nodes[p]);
    }
    o->cache_hits = o->cache_misses = -1;
    o->drain = xcalloc((size_t)ntx, sizeof *o->drain);
    for (int p = 0; p < 2; p++) {
        o->tx[p] = xcalloc((size_t)ntx, sizeof *o->tx[p]);
        for (int i = 0; i < ntx; i++)
            if (dg_txstats_init(&o->tx[p][i]))
                return DG_E_NOMEM;
        if (dg_txstats_init(&o->all[p]) || dg_hist_init(&o->lag[p]))
            return DG_E_NOMEM;
    }
    return 0;
}

static void iv_init(interval_acc *iv, int ntx, int nnodes)
{
    memset(iv, 0, sizeof *iv);
    if (nnodes)
        iv->nodes = xcalloc((size_t)nnodes, sizeof *iv->nodes);
    iv->tx = xcalloc((size_t)ntx, sizeof *iv->tx);
    for (int i = 0; i < ntx; i++)
        dg_txstats_init(&iv->tx[i]);
    dg_txstats_init(&iv->all);
    dg_hist_init(&iv->lag);
}

static void iv_free(interval_acc *iv, int ntx)
{
    for (int i = 0; i < ntx; i++)
        dg_txstats_destroy(&iv->tx[i]);
    free(iv->tx);
    dg_txstats_destroy(&iv->all);
    dg_hist_destroy(&iv->lag);
    free(iv->nodes);
}

/* The run's shared state before any terminal starts: the mix's cumulative weights, the
 * locks and the gate. 0, or DG_E_INVAL when no type has a weight (nothing to free then). */
static int run_init(run *r, const dg_run_config *cfg, dg_workload *wl, dg_run_stats *out,
                    dg_err *err)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->wl = wl;
    r->ntx = wl->ntx;
    r->out = out;
    r->end_ns = INT64_MAX;
    r->nwrite = cfg->nodes ? cfg->nodes->n : 1;
    r->nread = cfg->read_nodes ? cfg->read_nodes->n : 0;
    r->nnodes = r->nwrite > 1 || r->nread > 0 ? r->nwrite + r->nread : 0;
    r->cum_weight = xcalloc((size_t)wl->ntx, sizeof *r->cum_weight);
    for (int i = 0; i < wl->ntx; i++) {
        r->total_weight += wl->tx[i].weight;
        r->cum_weight[i] = r->total_weight;
    }
    if (!(r->total_weight > 0)) {
        free(r->cum_weight);
        return dg_err_fail(err, DG_E_INVAL, "every transaction type has weight 0");
    }
    atomic_init(&r->phase, cfg->warmup_ns > 0 ? DG_PHASE_WARMUP : DG_PHASE_MEASURE);
    atomic_init(&r->start_failed, false);
    atomic_init(&r->interrupted, 0);
    atomic_init(&r->report_gen, 0);
    pthread_mutex_init(&r->err_lock, NULL);
    pthread_mutex_init(&r->gate_lock, NULL);
    pthread_cond_init(&r->ready_cond, NULL);
    pthread_cond_init(&r->go_cond, NULL);
    r->terms = xpages_zalloc(sizeof(terminal) * (size_t)cfg->terminals);
    return 0;
}

/* A cluster run: the terminal's host and its per-host counters. */
static void place_terminal(run *r, terminal *t)
{
    t->node_drain = xcalloc((size_t)r->nnodes, sizeof *t->node_drain);
    for (int b = 0; b < 2; b++)
        t->slots[b].nodes = xcalloc((size_t)r->nnodes, sizeof *t->slots[b].nodes);
    switch (r->cfg->nodes->place) {
    case DG_PLACE_FIRST:
        t->node = 0;
        break;
    case DG_PLACE_RANDOM: { /* from the seed, not the terminal's own stream: the same
                               transactions as an unplaced run */
        uint64_t x = r->cfg->seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(t->id + 1));
        t->node = (int)(dg_splitmix64(&x) % (uint64_t)r->nwrite);
        break;
    }
    default:
        t->node = t->id % r->nwrite;
    }
    t->rnode = r->nread ? t->id % r->nread : 0;
    t->cur_node = t->node;
}

/* Each terminal's state: its generator (from one seeded stream, so runs repeat with
 * --seed), its statistics slots in one histogram mapping, its drain counters. */
static int init_terminals(run *r, dg_err *err)
{
    dg_prng seeder;
    dg_prng_seed(&seeder, r->cfg->seed);
    for (int k = 0; k < r->cfg->first_terminal; k++) /* a part: the run's earlier terminals' */
        (void)dg_prng_u64(&seeder);
    for (int k = 0; k < r->cfg->terminals; k++) {
        terminal *t = &r->terms[k];
        dg_phaser_init(&t->ph);
        t->id = r->cfg->first_terminal + k;
        t->r = r;
        if (r->cfg->waits) {
            t->tw = &r->cfg->waits[k];
            atomic_store(&t->tw->session, 0);
            atomic_store(&t->tw->type, -1);
        }
        dg_prng_seed(&t->rng, dg_prng_u64(&seeder));
        atomic_init(&t->done, false);
        atomic_init(&t->aborted, false);
        atomic_init(&t->cut, false);
        atomic_init(&t->finished_ns, 0);
        atomic_init(&t->cache_hits, -1);
        atomic_init(&t->cache_misses, -1);
        pthread_mutex_init(&t->down_lock, NULL);
        t->drain = xcalloc((size_t)r->ntx, sizeof *t->drain);
        t->hist_block = dg_hist_block_map(2 * (r->ntx + 1));
        if (!t->hist_block)
            return dg_err_fail(err, DG_E_NOMEM, "out of memory for terminal statistics");
        init_slot(&t->slots[0], r->ntx, t->hist_block, 0);
        init_slot(&t->slots[1], r->ntx, t->hist_block, 1);
        if (r->nnodes)
            place_terminal(r, t);
    }
    return 0;
}

/* A thread per terminal, or the events engine's workers. On failure start_failed is set;
 * *nstarted counts the terminals that did start. */
static int start_terminals(run *r, int *nstarted, dg_err *err)
{
    if (r->cfg->workers > 0)
        return start_workers(r, nstarted, err);
    for (int k = 0; k < r->cfg->terminals; k++) {
        if (stop_requested()) { /* thousands of threads to start: a stop need not wait */
            atomic_store(&r->start_failed, true);
            return dg_err_fail(err, DG_E_STOPPED, "stopped while the terminals started");
        }
        if (pthread_create(&r->terms[k].thread, NULL, terminal_main, &r->terms[k]) != 0) {
            atomic_store(&r->start_failed, true);
            return dg_err_fail(err, DG_E_IO, "cannot start terminal thread %d: %s", k + 1,
                               strerror(errno));
        }
        r->terms[k].started = true;
        (*nstarted)++;
    }
    return 0;
}

/* With --start-at, once every terminal is ready: waits (stoppable) for the wall-clock time
 * the warmup, else the measured phase, starts. Fails the start when the terminals were
 * not ready by then, or on a stop. Called with the gate lock held. */
static int wait_start_at(run *r, int64_t entered, dg_err *err)
{
    const dg_run_config *cfg = r->cfg;
    int64_t at = cfg->start_at_wall_ns - cfg->warmup_ns;
    int64_t late = dg_wall_ns() - at;
    if (late > 0) {
        atomic_store(&r->start_failed, true);
        return dg_err_fail(err, DG_E_INVAL,
                           "the terminals took %.2f s to connect and prepare, %.2f s past the "
                           "start time (--start-at%s): start with more room",
                           (double)(dg_now_ns() - entered) / DG_NS_PER_S,
                           (double)late / DG_NS_PER_S, cfg->warmup_ns ? " less --warmup" : "");
    }
    pthread_mutex_unlock(&r->gate_lock);
    /* the monotonic clock from here on: a wall-clock step while waiting moves nothing */
    sleep_until_or_stop(dg_now_ns() - late, 0);
    pthread_mutex_lock(&r->gate_lock);
    if (stop_requested()) {
        atomic_store(&r->start_failed, true);
        return dg_err_fail(err, DG_E_STOPPED, "stopped while waiting for the start time (--start-at)");
    }
    return 0;
}

/* Opens the gate once every started terminal is connected and prepared (or failed): the
 * run's clock starts, and a duration run's end is fixed. Returns a failure of --start-at
 * (start_failed set), else 0. */
static int open_gate(run *r, int nstarted, int64_t entered, dg_err *err)
{
    const dg_run_config *cfg = r->cfg;
    int rc = 0;
    pthread_mutex_lock(&r->gate_lock);
    while (r->ready_count < nstarted)
        pthread_cond_wait(&r->ready_cond, &r->gate_lock);
    if (cfg->start_at_wall_ns > 0 && !atomic_load(&r->start_failed))
        rc = wait_start_at(r, entered, err);
    r->t0_ns = dg_now_ns();
    r->out->clock_wall_ns = dg_wall_ns();
    r->out->connect_ns = r->t0_ns - entered;
    if (cfg->duration_ns > 0 && cfg->transactions == 0)
        r->end_ns = r->t0_ns + cfg->warmup_ns + cfg->duration_ns;
    r->go = true;
    atomic_store(&r->go_flag, true);
    pthread_cond_broadcast(&r->go_cond);
    pthread_mutex_unlock(&r->gate_lock);
    kick_schedulers(); /* fibers waiting at the gate */
    return rc;
}

/* A run that could not start: once every terminal ended, the first terminal's own error
 * when the start itself went well (rc 0). */
static int start_error(run *r, int rc, dg_err *err)
{
    join_terminals(r);
    if (rc != 0)
        return rc;
    for (int k = 0; k < r->cfg->terminals; k++) {
        if (r->terms[k].init_rc) {
            if (err)
                *err = *r->terms[k].init_err;
            return r->terms[k].init_rc;
        }
    }
    return rc;
}

/* The collector's clock: the phase under way, and where the next boundaries are. */
typedef struct collector {
    int phase;
    int64_t interval, warm_end, phase_start, last_flip, next, next_collect;
} collector;

/* The end: stop and join the terminals, then report the last interval. The phase ends at
 * the deadline, or (stopped or out of work before it) when the last terminal finished its
 * last transaction; never when every session is closed (1,000 of them take a while).
 * What completed after the deadline is the drain. */
static void finish_collecting(run *r, interval_acc *iv, collector *c)
{
    dg_run_stats *out = r->out;
    dg_run_request_stop(0);
    stop_terminals(r);
    int64_t joined = dg_now_ns();
    int64_t now = c->last_flip;
    for (int k = 0; k < r->cfg->terminals; k++) {
        int64_t f = atomic_load(&r->terms[k].finished_ns);
        if (f > now)
            now = f;
    }
    out->close_ns = joined > now ? joined - now : 0;
    if (now > r->end_ns) {
        out->drain_ns = now - r->end_ns;
        now = r->end_ns > c->last_flip ? r->end_ns : c->last_flip;
    }
    harvest(r, iv);
    report_interval(r, iv, c->phase, now - r->t0_ns, now - c->last_flip);
    out->phase_ns[c->phase] = now - c->phase_start;
}

/* An interval boundary at `now`: report it, and move to the measured phase at the
 * warmup's end. */
static void interval_boundary(run *r, interval_acc *iv, collector *c, int64_t now)
{
    harvest(r, iv);
    report_interval(r, iv, c->phase, now - r->t0_ns, now - c->last_flip);
    atomic_fetch_add_explicit(&r->report_gen, 1, memory_order_relaxed);
    iv_reset(r, iv);
    c->next_collect = now + COLLECT_NS;
    c->last_flip = now;
    if (c->phase == DG_PHASE_WARMUP && now >= c->warm_end) {
        r->out->phase_ns[DG_PHASE_WARMUP] = now - c->phase_start;
        c->phase = DG_PHASE_MEASURE;
        c->phase_start = now;
        atomic_store(&r->phase, DG_PHASE_MEASURE);
        c->next = c->interval > 0 ? now + c->interval : INT64_MAX;
    } else {
        c->next = c->interval > 0 ? c->next + c->interval : INT64_MAX;
        while (c->next <= now)
            c->next += c->interval;
        if (c->phase == DG_PHASE_WARMUP && c->next > c->warm_end)
            c->next = c->warm_end;
    }
}

/* The collector's loop on the calling thread: empties the terminals' buffers every
 * COLLECT_NS, reports each interval, and ends the run. Returns the phase it ended in. */
static int collect_until_end(run *r, interval_acc *iv)
{
    const dg_run_config *cfg = r->cfg;
    collector c = {
        .phase = cfg->warmup_ns > 0 ? DG_PHASE_WARMUP : DG_PHASE_MEASURE,
        .interval = cfg->interval_ns,
        .warm_end = r->t0_ns + cfg->warmup_ns,
        .phase_start = r->t0_ns,
        .last_flip = r->t0_ns,
        .next = cfg->interval_ns > 0 ? r->t0_ns + cfg->interval_ns : INT64_MAX,
        .next_collect = r->t0_ns + COLLECT_NS,
    };
    if (c.phase == DG_PHASE_WARMUP && c.next > c.warm_end)
        c.next = c.warm_end;
    for (;;) {
        int64_t wake = c.next < r->end_ns ? c.next : r->end_ns;
        if (c.next_collect < wake)
            wake = c.next_collect;
        /* sleep until the next boundary, noticing stops and finished terminals */
        for (;;) {
            int seen = atomic_load(&g_main_wake);
            int64_t now = dg_now_ns();
            if (now >= wake || stop_requested() || all_done(r))
                break;
            main_sleep_until(seen, wake);
        }
        int64_t now = dg_now_ns();
        if (stop_requested() || all_done(r) || now >= r->end_ns) {
            finish_collecting(r, iv, &c);
            return c.phase;
        }
        if (now < c.next && now < r->end_ns) { /* only the terminals' buffers to empty */
            collect(r, iv);
            c.next_collect = now + COLLECT_NS;
            continue;
        }
        interval_boundary(r, iv, &c, now);
    }
}

/* Each terminal's connection's cache hit ratio (per-connection caches: Firebird's Classic
 * and SuperClassic, SQLite): the lowest, median and highest, after the run. */
static void conn_hit_spread(run *r)
{
    dg_run_stats *out = r->out;
    out->conn_hit_n = 0;
    out->conn_hit_min = out->conn_hit_median = out->conn_hit_max = NAN;
    double *v = xmalloc((size_t)(r->cfg->terminals ? r->cfg->terminals : 1) * sizeof *v);
    int n = 0;
    for (int k = 0; k < r->cfg->terminals; k++) {
        int64_t h = atomic_load(&r->terms[k].cache_hits), m = atomic_load(&r->terms[k].cache_misses);
        if (h >= 0 && m >= 0 && h + m > 0)
            v[n++] = 100.0 * (double)h / (double)(h + m);
    }
    if (n > 0) {
        out->conn_hit_n = n;
        out->conn_hit_min = out->conn_hit_max = v[0];
        for (int i = 1; i < n; i++) {
            out->conn_hit_min = fmin(out->conn_hit_min, v[i]);
            out->conn_hit_max = fmax(out->conn_hit_max, v[i]);
        }
        out->conn_hit_median = dg_ci_median(v, n);
    }
    free(v);
}

/* The terminals' own figures summed: aborts, per-connection cache counters, the drain. */
static int sum_terminals(run *r)
{
    dg_run_stats *out = r->out;
    int aborted = 0;
    int64_t hits = 0, misses = 0;
    bool have_cache = false;
    for (int k = 0; k < r->cfg->terminals; k++) {
        const terminal *t = &r->terms[k];
        if (atomic_load(&t->aborted))
            aborted++;
        int64_t h = atomic_load(&t->cache_hits);
        if (h >= 0) {
            have_cache = true;
            hits += h;
            misses += atomic_load(&t->cache_misses);
        }
        if (t->node_drain)
            add_nodes(out->node_drain, t->node_drain, r->nnodes, false);
        for (int i = 0; i < r->ntx; i++) {
            const dg_drain_stats *d = &t->drain[i];
            dg_drain_stats *o = &out->drain[i];
            o->count += d->count;
            o->rollbacks += d->rollbacks;
            o->errors += d->errors;
            o->unknown += d->unknown;
        }
    }
    if (have_cache) {
        out->cache_hits = hits;
        out->cache_misses = misses;
    }
    conn_hit_spread(r);
    for (int i = 0; i < r->ntx; i++) {
        out->drain_all.count += out->drain[i].count;
        out->drain_all.rollbacks += out->drain[i].rollbacks;
        out->drain_all.errors += out->drain[i].errors;
        out->drain_all.unknown += out->drain[i].unknown;
    }
    return aborted;
}

/* Why did it stop? A signal, every terminal aborted, still in warmup, or its planned end
 * (complete only when no terminal aborted). */
static void judge_end(run *r, int phase, int aborted)
{
    dg_run_stats *out = r->out;
    out->aborted_terminals = aborted;
    out->interrupted_terminals = atomic_load(&r->interrupted);
    int sig = dg_run_stop_signal();
    if (sig) {
        snprintf(out->stop_reason, sizeof out->stop_reason, "interrupted (%s)",
                 sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal");
        out->complete = false;
    } else if (aborted == r->cfg->terminals) {
        snprintf(out->stop_reason, sizeof out->stop_reason, "all terminals aborted");
        out->complete = false;
    } else if (phase != DG_PHASE_MEASURE) {
        snprintf(out->stop_reason, sizeof out->stop_reason, "ended during warmup");
        out->complete = false;
    } else {
        snprintf(out->stop_reason, sizeof out->stop_reason, "%s",
                 r->cfg->transactions > 0 ? "transactions" : "duration");
        out->complete = aborted == 0;
    }
}

/* The events engine's loops: their figures summed into out->sched, then freed, once no
 * stop request is kicking them. */
static void free_workers(run *r)
{
    dg_run_stats *out = r->out;
    out->workers = r->nworkers;
    for (int i = 0; i < r->nworkers; i++)
        atomic_store(&g_scheds[i], NULL);
    while (r->nworkers > 0 && atomic_load(&g_kickers) > 0) /* a stop request kicking them */
        dg_sleep_ns(DG_NS_PER_MS);
    for (int i = 0; i < r->nworkers; i++) {
        if (!r->workers[i].s)
            continue;
        dg_sched_stats st;
        dg_sched_stats_get(r->workers[i].s, &st);
        out->sched.timers += st.timers;
        out->sched.lag_sum_ns += st.lag_sum_ns;
        out->sched.wakeups += st.wakeups;
        if (st.lag_max_ns > out->sched.lag_max_ns)
            out->sched.lag_max_ns = st.lag_max_ns;
        dg_sched_free(r->workers[i].s);
    }
    free(r->workers);
}

/* Everything run_init and init_terminals made, once every terminal has ended. */
static void run_free(run *r)
{
    free_workers(r);
    pthread_cond_destroy(&r->ready_cond);
    pthread_cond_destroy(&r->go_cond);
    pthread_mutex_destroy(&r->gate_lock);
    for (int k = 0; k < r->cfg->terminals; k++) {
        free_slot(&r->terms[k].slots[0]);
        free_slot(&r->terms[k].slots[1]);
        dg_hist_block_unmap(r->terms[k].hist_block, 2 * (r->ntx + 1));
        pthread_mutex_destroy(&r->terms[k].down_lock);
        free(r->terms[k].drain);
        free(r->terms[k].node_drain);
        free(r->terms[k].init_err);
    }
    xpages_free(r->terms, sizeof(terminal) * (size_t)r->cfg->terminals);
    free(r->cum_weight);
    pthread_mutex_destroy(&r->err_lock);
}

int dg_run(const dg_run_config *cfg, dg_workload *wl, dg_run_stats *out, dg_err *err)
{
    if (wl->ntx > PENDING_TYPES)
        return dg_err_fail(err, DG_E_INVAL, "%d transaction types: at most %d", wl->ntx,
                           PENDING_TYPES);
    int nw = cfg->nodes ? cfg->nodes->n : 1, nr = cfg->read_nodes ? cfg->read_nodes->n : 0;
    int rc = init_stats(out, wl->ntx, nw > 1 || nr > 0 ? nw + nr : 0);
    if (rc)
        return dg_err_fail(err, rc, "out of memory for statistics");
    out->started_wall_ns = dg_wall_ns();
    int64_t entered = dg_now_ns();
    run r;
    if ((rc = run_init(&r, cfg, wl, out, err)) != 0)
        return rc;
    interval_acc iv;
    iv_init(&iv, r.ntx, r.nnodes);
    if ((rc = init_terminals(&r, err)) != 0)
        goto cleanup;
    int nstarted = 0;
    rc = start_terminals(&r, &nstarted, err);
    int gate_rc = open_gate(&r, nstarted, entered, rc ? NULL : err);
    if (rc == 0)
        rc = gate_rc;
    if (atomic_load(&r.start_failed)) {
        rc = start_error(&r, rc, err);
        goto cleanup;
    }
    if (cfg->on_start)
        cfg->on_start(cfg->arg);
    int phase = collect_until_end(&r, &iv);
    judge_end(&r, phase, sum_terminals(&r));
    rc = 0;
cleanup:
    run_free(&r);
    iv_free(&iv, r.ntx);
    /* the run's own stop (its end) is over; a signal's stays for the caller's shutdown
     * (its deadline) and its exit status, until the caller clears it */
    if (!dg_stop_signal())
        dg_run_clear_stop();
    return rc;
}
