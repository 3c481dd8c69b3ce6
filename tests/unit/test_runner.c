/*
 * test_runner.c - the runner against real SQLite connections, with a small workload
 * defined here whose transactions do real statements and can be told to fail in a
 * chosen way (the one fault a database cannot produce on demand: "fail the next N").
 *
 * Checked: exact counts (every transaction a terminal ran is counted once, in one
 * interval), the weighted mix, intervals summing to totals, warmup kept apart, retries
 * with the same inputs, errors by class, aborted terminals, --transactions, --rate pacing
 * and schedule lag, think time, and stop requests. Also built and run under TSan.
 */
#include "core/clock.h"
#include "core/xalloc.h"
#include "runner/runner.h"

#include "dgtest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* ---- the test workload ------------------------------------------------------------------ */

typedef struct twl {
    atomic_llong calls[2];     /* tx_run calls per type, all terminals */
    atomic_llong ok[2];        /* successful calls per type */
    int fail_every;            /* type 0 fails with fail_class on every fail_every-th call */
    dg_errclass fail_class;
    bool fail_unknown;         /* the failure leaves the outcome unknown (lost during COMMIT) */
    bool fail_then_succeed;    /* a failing call's retry (same inputs) succeeds */
    int64_t sleep_ns;          /* inside each transaction */
    int64_t close_sleep_ns;    /* closing a terminal's session takes this long */
    atomic_llong retried_same_input; /* retries that saw the same random input */
} twl;

typedef struct tterm {
    twl *w;
    dg_conn *conn;
    dg_prng *rng;
    dg_stmt *sel;
    long long n;
    uint64_t last_input;
    bool last_failed;
} tterm;

static int t_term_open(dg_workload *wl, const dg_term *t, void **state, dg_err *err)
{
    tterm *s = xcalloc(1, sizeof *s);
    s->w = wl->priv;
    s->conn = t->conn;
    s->rng = t->rng;
    int rc = dg_prepare(t->conn, "SELECT ? + 1", &s->sel, err);
    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int t_tx_run(void *state, int type, int *outcome, dg_err *err)
{
    tterm *s = state;
    uint64_t input = dg_prng_u64(s->rng);
    atomic_fetch_add(&s->w->calls[type], 1);
    if (s->last_failed && input == s->last_input)
        atomic_fetch_add(&s->w->retried_same_input, 1);
    s->last_failed = false;
    dg_value p = dg_vint((int64_t)(input >> 2));
    int rc = dg_execute(s->sel, &p, 1, err);
    if (rc)
        return rc;
    while ((rc = dg_fetch(s->sel, err)) == 1)
        ;
    if (rc < 0)
        return rc;
    if (s->w->sleep_ns)
        dg_sleep_ns(s->w->sleep_ns);
    s->n++;
    if (type == 0 && s->w->fail_every && s->n % s->w->fail_every == 0) {
        s->last_failed = true;
        s->last_input = input;
        if (s->w->fail_then_succeed)
            s->n++; /* the retry will not fail */
        dg_err_set(err, DG_E_DB, s->w->fail_class, 0, "40001", "injected failure");
        if (err)
            err->outcome_unknown = s->w->fail_unknown;
        return DG_E_DB;
    }
    *outcome = DG_TX_COMMITTED;
    atomic_fetch_add(&s->w->ok[type], 1);
    return 0;
}

static void t_term_close(void *state)
{
    tterm *s = state;
    if (s->w->close_sleep_ns)
        dg_sleep_ns(s->w->close_sleep_ns);
    dg_stmt_free(s->sel);
    free(s);
}

static const dg_workload_ops t_ops = {
    .term_open = t_term_open,
    .tx_run = t_tx_run,
    .term_close = t_term_close,
};

static dg_workload *make_wl(twl *w, double w0, double w1)
{
    dg_workload *wl = xcalloc(1, sizeof *wl);
    wl->ops = &t_ops;
    wl->name = xstrdup("test");
    wl->scale = 1;
    wl->ntx = 2;
    wl->tx = xcalloc(2, sizeof *wl->tx);
    wl->tx[0].name = "a";
    wl->tx[0].weight = w0;
    wl->tx[1].name = "b";
    wl->tx[1].weight = w1;
    wl->priv = w;
    return wl;
}

static void free_wl(dg_workload *wl)
{
    free(wl->name);
    free(wl->tx);
    free(wl);
}

typedef struct ivsum {
    uint64_t count[2];  /* per phase */
    uint64_t errors;
    uint64_t retries;
    int intervals[2];
    int64_t last_end;
    bool monotonic;
} ivsum;

static void on_iv(void *arg, const dg_interval_report *iv)
{
    ivsum *s = arg;
    s->count[iv->phase] += iv->all->count;
    s->errors += iv->all->errors;
    s->retries += iv->all->retries;
    s->intervals[iv->phase]++;
    if (iv->t_end_ns < s->last_end)
        s->monotonic = false;
    s->last_end = iv->t_end_ns;
    uint64_t sum = 0;
    for (int i = 0; i < iv->ntx; i++)
        sum += iv->tx[i].count;
    if (sum != iv->all->count)
        s->monotonic = false;
}

/* 0: a thread per terminal; 2: the events engine (every test runs in both) */
static int g_workers;

static dg_run_config base_cfg(ivsum *s)
{
    dg_run_config c = {
        .url = "sqlite::memory:",
        .workers = g_workers,
        .terminals = 4,
        .interval_ns = 100 * DG_NS_PER_MS,
        .max_tries = 1,
        .seed = 42,
        .on_interval = on_iv,
        .arg = s,
    };
    memset(s, 0, sizeof *s);
    s->monotonic = true;
    return c;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void test_transactions_exact(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 3, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.transactions = 2000;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    DG_CHECK_STR(st.stop_reason, "transactions");
    DG_CHECK_INT(st.all[DG_PHASE_MEASURE].count, 8000);
    DG_CHECK_INT(st.tx[1][0].count + st.tx[1][1].count, 8000);
    DG_CHECK_INT(st.tx[1][0].count, atomic_load(&w.ok[0]));
    DG_CHECK_INT(st.tx[1][1].count, atomic_load(&w.ok[1]));
    DG_CHECK_INT(s.count[DG_PHASE_MEASURE], 8000);
    DG_CHECK_INT(st.all[1].lat.total, 8000);
    DG_CHECK(s.monotonic);
    /* weights 3:1 -> 75% +- 3% */
    double share = (double)st.tx[1][0].count / 8000.0;
    DG_CHECK_NEAR(share, 0.75, 0.03);
    DG_CHECK(st.all[1].lat.min_ns > 0);
    DG_CHECK(st.phase_ns[1] > 0);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_duration_and_warmup(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 3;
    c.warmup_ns = 300 * DG_NS_PER_MS;
    c.duration_ns = 700 * DG_NS_PER_MS;
    w.sleep_ns = 200 * DG_NS_PER_US;
    dg_run_stats st;
    dg_err e;
    int64_t t0 = dg_now_ns();
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    int64_t took = dg_now_ns() - t0;
    DG_CHECK(st.complete);
    DG_CHECK_STR(st.stop_reason, "duration");
    /* every successful call is counted exactly once: in warmup, measurement or the drain
     * (completed after the deadline) */
    uint64_t calls = (uint64_t)(atomic_load(&w.ok[0]) + atomic_load(&w.ok[1]));
    DG_CHECK_INT(st.all[0].count + st.all[1].count + st.drain_all.count, calls);
    DG_CHECK_INT(st.drain_all.count, st.drain[0].count + st.drain[1].count);
    DG_CHECK(st.drain_all.count <= 3);  /* at most one per terminal */
    DG_CHECK_INT(s.count[0], st.all[0].count);
    DG_CHECK_INT(s.count[1], st.all[1].count);
    DG_CHECK(st.all[0].count > 0 && st.all[1].count > 0);
    /* A phase never ends before its time (the collector flips it at or after the
     * boundary), and ends soon after it: the margin covers a collector that a loaded
     * machine wakes late, and terminals finishing their last transaction. */
    DG_CHECK(st.phase_ns[0] >= 300 * DG_NS_PER_MS);
    DG_CHECK(st.phase_ns[0] < 1000 * DG_NS_PER_MS);
    /* the measured phase ends at the deadline: together they are what was asked */
    DG_CHECK_INT(st.phase_ns[0] + st.phase_ns[1], 1000 * DG_NS_PER_MS);
    DG_CHECK(took < 5 * DG_NS_PER_S);
    /* boundaries late by more than an interval are merged, never lost: at least one
     * interval per phase, and they cover every transaction (s.count above) */
    DG_CHECK(s.intervals[0] >= 1 && s.intervals[1] >= 1);
    /* latency includes the 200 us sleep */
    DG_CHECK(st.all[1].lat.min_ns >= 200 * DG_NS_PER_US);
    /* thousands per interval (terminals empty their buffers themselves): one latency for
     * each, in both phases and per type */
    DG_CHECK_INT(st.all[0].lat.total, st.all[0].count);
    DG_CHECK_INT(st.all[1].lat.total, st.all[1].count);
    DG_CHECK_INT(st.tx[1][0].lat.total, st.tx[1][0].count);
    DG_CHECK_INT(st.tx[1][1].lat.total, st.tx[1][1].count);
    dg_run_stats_free(&st);
    free_wl(wl);
}

/* Closing sessions is not measured time: with 4 terminals each taking 1 s to close, a
 * 500 ms run still measures about 500 ms (it would measure 1.5 s otherwise; the margin
 * covers a loaded machine). */
static void test_teardown_not_measured(void)
{
    twl w = {.close_sleep_ns = 1000 * DG_NS_PER_MS};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.duration_ns = 500 * DG_NS_PER_MS;
    dg_run_stats st;
    dg_err e;
    int64_t t0 = dg_now_ns();
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(dg_now_ns() - t0 >= 1500 * DG_NS_PER_MS); /* the closing did happen */
    DG_CHECK_INT(st.phase_ns[1], 500 * DG_NS_PER_MS);
    DG_CHECK(st.drain_ns < 700 * DG_NS_PER_MS);
    DG_CHECK(st.complete);
    dg_run_stats_free(&st);
    free_wl(wl);
}

/* Transactions in flight at the deadline finish and are counted in the drain, not in the
 * measured phase, whose time stays the duration asked: with 300 ms transactions and a
 * 500 ms run, each terminal completes one in the phase and one 100 ms after its end. */
static void test_drain_after_deadline(void)
{
    twl w = {.sleep_ns = 300 * DG_NS_PER_MS};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 2;
    c.duration_ns = 500 * DG_NS_PER_MS;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    DG_CHECK_INT(st.phase_ns[1], 500 * DG_NS_PER_MS);
    DG_CHECK_INT(st.all[1].count, 2);
    DG_CHECK_INT(st.drain_all.count, 2);
    DG_CHECK_INT(st.drain[0].count + st.drain[1].count, 2);
    DG_CHECK_INT(st.drain_all.errors, 0);
    DG_CHECK_INT(s.count[1], 2); /* the intervals hold the measured ones only */
    /* the last completion came about 100 ms after the deadline (later on a loaded machine) */
    DG_CHECK(st.drain_ns >= 90 * DG_NS_PER_MS && st.drain_ns < 1500 * DG_NS_PER_MS);
    uint64_t calls = (uint64_t)(atomic_load(&w.ok[0]) + atomic_load(&w.ok[1]));
    DG_CHECK_INT(calls, 4);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_retries(void)
{
    twl w = {.fail_every = 5, .fail_class = DG_EC_RETRY, .fail_then_succeed = true};
    dg_workload *wl = make_wl(&w, 1, 0);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 2;
    c.transactions = 500;
    c.max_tries = 3;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK_INT(st.all[1].count, 1000);
    DG_CHECK_INT(st.all[1].errors, 0);
    /* every 5th attempt fails once, then succeeds with the same input */
    DG_CHECK(st.all[1].retries > 150);
    DG_CHECK_INT(st.all[1].retries, st.all[1].retried);
    DG_CHECK_INT(atomic_load(&w.retried_same_input), st.all[1].retries);
    DG_CHECK_INT(atomic_load(&w.calls[0]), 1000 + (long long)st.all[1].retries);
    DG_CHECK_INT(s.retries, st.all[1].retries);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_errors_by_class(void)
{
    /* RETRY with max_tries 1: counted as errors, run continues */
    twl w = {.fail_every = 4, .fail_class = DG_EC_RETRY};
    dg_workload *wl = make_wl(&w, 1, 0);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 2;
    c.transactions = 400;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    DG_CHECK_INT(st.all[1].count + st.all[1].errors, 800);
    DG_CHECK_INT(st.all[1].errors, 200);
    DG_CHECK_INT(st.all[1].err_class[DG_EC_RETRY], 200);
    DG_CHECK_INT(st.all[1].retries, 0);
    DG_CHECK_INT(s.errors, 200);
    DG_CHECK_INT(st.nerrors, 1);
    DG_CHECK_INT(st.errors[0].count, 200);
    DG_CHECK(strstr(st.errors[0].msg, "injected failure") != NULL);
    dg_run_stats_free(&st);
    free_wl(wl);

    /* USER: the terminal aborts; when all do, the run is incomplete */
    twl u = {.fail_every = 10, .fail_class = DG_EC_USER};
    wl = make_wl(&u, 1, 0);
    c = base_cfg(&s);
    c.terminals = 3;
    c.duration_ns = 5 * DG_NS_PER_S;
    int64_t t0 = dg_now_ns();
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(dg_now_ns() - t0 < 4 * DG_NS_PER_S); /* did not wait for the 5 s duration */
    DG_CHECK(!st.complete);
    DG_CHECK_INT(st.aborted_terminals, 3);
    DG_CHECK_STR(st.stop_reason, "all terminals aborted");
    DG_CHECK_INT(st.all[1].count, 27);
    DG_CHECK_INT(st.all[1].errors, 3);
    dg_run_stats_free(&st);
    free_wl(wl);
}

/* ---- faults a real server cannot produce on demand ---------------------------------------- */

/* Connects as dg_connect does, but refuses `refuse` attempts (CONN_LOST) once `allow`
 * connections have been made: a server that is down for a while. */
typedef struct fconn {
    atomic_int allow;
    atomic_int refuse;
    atomic_int refused;
} fconn;

static int f_connect(void *arg, const char *url, const dg_connopts *co, dg_conn **out, dg_err *err)
{
    fconn *f = arg;
    if (atomic_fetch_sub(&f->allow, 1) <= 0 && atomic_load(&f->refuse) > 0) {
        atomic_fetch_sub(&f->refuse, 1);
        atomic_fetch_add(&f->refused, 1);
        return dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08001", "injected: server down");
    }
    return dg_connect(url, co, out, err);
}

typedef struct outage_sum {
    ivsum s;
    uint64_t reconnects;
    int64_t downtime_ns;
} outage_sum;

static void on_iv_outage(void *arg, const dg_interval_report *iv)
{
    outage_sum *o = arg;
    on_iv(&o->s, iv);
    o->reconnects += iv->reconnects;
    o->downtime_ns += iv->downtime_ns;
}

static void test_reconnect_and_outage(void)
{
    /* one terminal; every 50th type-0 call loses the connection with the outcome
     * unknown; the first reconnect is refused 3 times (backoff 100, 200, 400 ms) */
    twl w = {.fail_every = 50, .fail_class = DG_EC_CONN_LOST, .fail_unknown = true};
    dg_workload *wl = make_wl(&w, 1, 0);
    outage_sum o;
    memset(&o, 0, sizeof o);
    dg_run_config c = base_cfg(&o.s);
    c.on_interval = on_iv_outage;
    c.arg = &o;
    fconn f;
    atomic_init(&f.allow, 1);
    atomic_init(&f.refuse, 3);
    atomic_init(&f.refused, 0);
    c.terminals = 1;
    c.connect = f_connect;
    c.connect_arg = &f;
    c.transactions = 500;
    c.duration_ns = 0;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    DG_CHECK_INT(atomic_load(&f.refused), 3);
    /* attempts 50, 100, ... 500 of each connection's life lose it (a new session counts
     * from 0): 10 errors with an unknown outcome, each followed by a reconnect */
    uint64_t lost = st.all[1].errors;
    DG_CHECK_INT(lost, 10);
    DG_CHECK_INT(st.all[1].count + lost, 500);
    DG_CHECK_INT(st.all[1].err_class[DG_EC_CONN_LOST], lost);
    DG_CHECK_INT(st.all[1].unknown, lost);
    DG_CHECK_INT(st.reconnects, lost);
    /* the outage of at least 100 + 200 + 400 ms is booked once, across the intervals */
    DG_CHECK(st.downtime_ns >= 700 * DG_NS_PER_MS);
    DG_CHECK_INT(o.downtime_ns, st.downtime_ns);
    DG_CHECK_INT(o.reconnects, st.reconnects);
    dg_run_stats_free(&st);
    free_wl(wl);

    /* a server that never comes back: the terminal aborts, the run ends incomplete */
    twl w2 = {.fail_every = 10, .fail_class = DG_EC_CONN_LOST};
    wl = make_wl(&w2, 1, 0);
    c = base_cfg(&o.s);
    c.terminals = 1;
    atomic_init(&f.allow, 1);
    atomic_init(&f.refuse, 1000000);
    atomic_init(&f.refused, 0);
    c.connect = f_connect;
    c.connect_arg = &f;
    c.duration_ns = 1500 * DG_NS_PER_MS;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK_INT(st.all[1].count, 9);
    DG_CHECK_INT(st.all[1].errors, 1);
    DG_CHECK_INT(st.all[1].unknown, 0);
    DG_CHECK_INT(st.reconnects, 0);
    DG_CHECK(atomic_load(&f.refused) >= 2);
    /* down from the 10th call to the end: booked as downtime, not lost */
    DG_CHECK(st.downtime_ns >= 1000 * DG_NS_PER_MS);
    dg_run_stats_free(&st);
    free_wl(wl);
}

/* Nodes of a cluster URL as the runner sees them: "node0" ... "node2", each an in-memory
 * SQLite database, node0 refusing connections when told to. */
typedef struct nconn {
    atomic_bool node0_down;
} nconn;

static int n_connect(void *arg, const char *url, const dg_connopts *co, dg_conn **out, dg_err *err)
{
    nconn *n = arg;
    if (!strcmp(url, "node0") && atomic_load(&n->node0_down))
        return dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08001", "injected: node0 down");
    return dg_connect("sqlite::memory:", co, out, err);
}

static void check_nodes(const dg_run_stats *st, const uint64_t *tx, const uint64_t *errors,
                        const uint64_t *arrivals)
{
    DG_CHECK_INT(st->nnodes, 3);
    uint64_t sum = 0;
    for (int i = 0; i < 3; i++) {
        const dg_node_counts *c = &st->nodes[DG_PHASE_MEASURE][i];
        if (c->tx != tx[i] || c->errors != errors[i] || c->arrivals != arrivals[i])
            fprintf(stderr, "  node %d: tx %llu errors %llu arrivals %llu\n", i,
                    (unsigned long long)c->tx, (unsigned long long)c->errors,
                    (unsigned long long)c->arrivals);
        DG_CHECK_INT(c->tx, tx[i]);
        DG_CHECK_INT(c->errors, errors[i]);
        DG_CHECK_INT(c->arrivals, arrivals[i]);
        sum += c->tx;
    }
    DG_CHECK_INT(sum, st->all[DG_PHASE_MEASURE].count);
}

/* A run of `terminals` x `transactions` on the nodes of nl, connecting through n. */
static dg_run_config node_cfg(ivsum *s, const dg_nodelist *nl, nconn *n, int terminals,
                              int64_t transactions)
{
    dg_run_config c = base_cfg(s);
    c.nodes = nl;
    c.connect = n_connect;
    c.connect_arg = n;
    c.terminals = terminals;
    c.transactions = transactions;
    return c;
}

static void test_nodes(void)
{
    char *urls[] = {"node0", "node1", "node2"}, *names[] = {"h0", "h1", "h2"};
    dg_nodelist nl = {.n = 3, .place = DG_PLACE_TERMINAL, .urls = urls, .names = names};
    nconn n;
    atomic_init(&n.node0_down, false);
    ivsum s;
    dg_run_stats st;
    dg_err e;

    /* terminal t on node t mod 3: 6 terminals, 50 transactions each */
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    dg_run_config c = node_cfg(&s, &nl, &n, 6, 50);
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    check_nodes(&st, (uint64_t[]){100, 100, 100}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, 0, 0});
    dg_run_stats_free(&st);

    /* node0 down at the start: its two terminals arrive on node1 */
    atomic_store(&n.node0_down, true);
    c = node_cfg(&s, &nl, &n, 6, 50);
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    check_nodes(&st, (uint64_t[]){0, 200, 100}, (uint64_t[]){0, 0, 0}, (uint64_t[]){0, 2, 0});
    dg_run_stats_free(&st);
    free_wl(wl);

    /* place=first, one terminal whose connection is lost on every 50th call: each loss
     * moves it to the next node (a new session counts from 0), 10 lives of 49 + 1 */
    atomic_store(&n.node0_down, false);
    nl.place = DG_PLACE_FIRST;
    twl w2 = {.fail_every = 50, .fail_class = DG_EC_CONN_LOST};
    wl = make_wl(&w2, 1, 0);
    c = node_cfg(&s, &nl, &n, 1, 500);
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    check_nodes(&st, (uint64_t[]){196, 147, 147}, (uint64_t[]){4, 3, 3}, (uint64_t[]){3, 4, 3});
    DG_CHECK_INT(st.reconnects, 10);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_rate(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 2;
    c.rate_tps = 2000;
    c.duration_ns = 1 * DG_NS_PER_S;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    /* Poisson arrivals at 2000/s for 1 s: the seed fixes the schedule, about 2000
     * arrivals (the bound is 4.5 standard deviations); terminals that a loaded machine
     * holds back leave the last arrivals unserved when the run ends, never add any */
    DG_CHECK(st.all[1].count <= 2200);
    DG_CHECK(st.all[1].count >= 1000);
    /* lag is recorded per transaction, and is part of the latency, never more */
    DG_CHECK_INT(st.lag[1].total, st.all[1].count);
    DG_CHECK(st.lag[1].max_ns <= st.all[1].lat.max_ns);
    DG_CHECK(dg_hist_percentile(&st.lag[1], 50) <= dg_hist_percentile(&st.all[1].lat, 50));
    dg_run_stats_free(&st);
    free_wl(wl);

    /* a rate the terminals cannot keep: latency counts from the schedule, so it grows
     * with the backlog while service time stays ~1 ms */
    twl slow = {.sleep_ns = 1 * DG_NS_PER_MS};
    wl = make_wl(&slow, 1, 1);
    c = base_cfg(&s);
    c.terminals = 1;
    c.rate_tps = 2000;
    c.duration_ns = 500 * DG_NS_PER_MS;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.all[1].count <= 501); /* each takes at least 1 ms */
    DG_CHECK(dg_hist_percentile(&st.all[1].lat, 99) > 100 * DG_NS_PER_MS);
    DG_CHECK(dg_hist_percentile(&st.lag[1], 99) > 100 * DG_NS_PER_MS);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_think_time(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 2;
    c.think_ns = 10 * DG_NS_PER_MS;
    c.duration_ns = 500 * DG_NS_PER_MS;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    /* at most 500 / 10 + 1 per terminal (think time is never cut short before the end);
     * some, however loaded the machine; latency excludes the think time */
    DG_CHECK(st.all[1].count >= 10 && st.all[1].count <= 102);
    DG_CHECK(dg_hist_percentile(&st.all[1].lat, 50) < 10 * DG_NS_PER_MS);
    /* few per interval: every latency went through the collector, none is lost */
    DG_CHECK_INT(st.all[1].lat.total, st.all[1].count);
    DG_CHECK_INT(st.tx[1][0].lat.total + st.tx[1][1].lat.total, st.all[1].count);
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void *stop_later(void *arg)
{
    (void)arg;
    dg_sleep_ns(300 * DG_NS_PER_MS);
    dg_run_request_stop(2 /* SIGINT */);
    return NULL;
}

/* A stop request wakes terminals in the middle of a long think time (the stop flag is
 * what they sleep on), so Ctrl-C does not wait out anyone's 10 s think. */
static void test_stop_wakes_thinkers(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.terminals = 3;
    c.think_ns = 10 * DG_NS_PER_S;
    c.duration_ns = 30 * DG_NS_PER_S;
    dg_run_stats st;
    dg_err e;
    pthread_t th;
    pthread_create(&th, NULL, stop_later, NULL);
    int64_t t0 = dg_now_ns();
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    pthread_join(th, NULL);
    DG_CHECK(dg_now_ns() - t0 < 5 * DG_NS_PER_S); /* stopped at 0.3 s, not after the think */
    DG_CHECK(!st.complete);
    DG_CHECK_INT(st.all[1].count, 3); /* one each, then thinking */
    dg_run_clear_stop();
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_stop_request(void)
{
    twl w = {.sleep_ns = 100 * DG_NS_PER_US};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.duration_ns = 10 * DG_NS_PER_S;
    dg_run_stats st;
    dg_err e;
    pthread_t th;
    pthread_create(&th, NULL, stop_later, NULL);
    int64_t t0 = dg_now_ns();
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    pthread_join(th, NULL);
    DG_CHECK(dg_now_ns() - t0 < 8 * DG_NS_PER_S); /* stopped at 0.3 s, not after 10 s */
    DG_CHECK(!st.complete);
    DG_CHECK(strstr(st.stop_reason, "interrupted") != NULL);
    uint64_t calls = (uint64_t)(atomic_load(&w.ok[0]) + atomic_load(&w.ok[1]));
    DG_CHECK_INT(st.all[1].count, calls); /* in-flight transactions finished and counted */
    DG_CHECK_INT(dg_run_stop_signal(), 2);  /* kept for the caller's shutdown ... */
    dg_run_clear_stop();
    DG_CHECK_INT(dg_run_stop_signal(), 0);  /* ... until it clears it for the next run */
    dg_run_stats_free(&st);
    free_wl(wl);
}

static void test_start_failure(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.url = "sqlite:/nonexistent-dir/x/y.db";
    c.duration_ns = DG_NS_PER_S;
    dg_run_stats st;
    dg_err e;
    dg_err_clear(&e);
    DG_CHECK(dg_run(&c, wl, &st, &e) != 0);
    DG_CHECK(strstr(e.msg, "cannot open") != NULL);
    DG_CHECK_INT(atomic_load(&w.calls[0]) + atomic_load(&w.calls[1]), 0);
    dg_run_stats_free(&st);
    free_wl(wl);
}

/* A connect that returns only once the wall clock is past *arg: terminals that cannot be
 * ready by a --start-at time, without a race (the clock passing it is the state). */
static int late_connect(void *arg, const char *url, const dg_connopts *co, dg_conn **out,
                        dg_err *err)
{
    const int64_t *until = arg;
    while (dg_wall_ns() <= *until)
        dg_sleep_ns(DG_NS_PER_MS);
    return dg_connect(url, co, out, err);
}

static void test_start_at(void)
{
    twl w = {0};
    dg_workload *wl = make_wl(&w, 1, 1);
    ivsum s;
    dg_run_config c = base_cfg(&s);
    c.transactions = 50;
    c.warmup_ns = 0;
    c.start_at_wall_ns = dg_wall_ns() + 300 * DG_NS_PER_MS;
    dg_run_stats st;
    dg_err e;
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), 0);
    DG_CHECK(st.complete);
    DG_CHECK(st.clock_wall_ns >= c.start_at_wall_ns); /* never early */
    DG_CHECK_INT(st.all[DG_PHASE_MEASURE].count, 200);
    dg_run_stats_free(&st);

    /* terminals still connecting at the start time: the run fails before measuring */
    int64_t until = dg_wall_ns() + 200 * DG_NS_PER_MS;
    c = base_cfg(&s);
    c.duration_ns = DG_NS_PER_S;
    c.start_at_wall_ns = until - 100 * DG_NS_PER_MS;
    c.connect = late_connect;
    c.connect_arg = &until;
    int calls = atomic_load(&w.calls[0]) + atomic_load(&w.calls[1]);
    dg_err_clear(&e);
    DG_CHECK_INT(dg_run(&c, wl, &st, &e), DG_E_INVAL);
    DG_CHECK(strstr(e.msg, "past the start time (--start-at)") != NULL);
    DG_CHECK_INT(atomic_load(&w.calls[0]) + atomic_load(&w.calls[1]), calls);
    dg_run_stats_free(&st);
    free_wl(wl);
}

int main(void)
{
    DG_RUN(test_transactions_exact);
    DG_RUN(test_duration_and_warmup);
    DG_RUN(test_teardown_not_measured);
    DG_RUN(test_drain_after_deadline);
    DG_RUN(test_stop_wakes_thinkers);
    DG_RUN(test_retries);
    DG_RUN(test_errors_by_class);
    DG_RUN(test_reconnect_and_outage);
    DG_RUN(test_nodes);
    DG_RUN(test_rate);
    DG_RUN(test_think_time);
    DG_RUN(test_stop_request);
    DG_RUN(test_start_failure);
    DG_RUN(test_start_at);
    /* the same tests on the events engine: terminals as fibers on 2 worker threads (the
     * test workload's waits are dg_sleep_ns, which park a fiber as a socket wait would) */
    g_workers = 2;
    DG_RUN_AS("test_transactions_exact/events", test_transactions_exact);
    DG_RUN_AS("test_duration_and_warmup/events", test_duration_and_warmup);
    DG_RUN_AS("test_teardown_not_measured/events", test_teardown_not_measured);
    DG_RUN_AS("test_drain_after_deadline/events", test_drain_after_deadline);
    DG_RUN_AS("test_stop_wakes_thinkers/events", test_stop_wakes_thinkers);
    DG_RUN_AS("test_retries/events", test_retries);
    DG_RUN_AS("test_errors_by_class/events", test_errors_by_class);
    DG_RUN_AS("test_reconnect_and_outage/events", test_reconnect_and_outage);
    DG_RUN_AS("test_rate/events", test_rate);
    DG_RUN_AS("test_think_time/events", test_think_time);
    DG_RUN_AS("test_stop_request/events", test_stop_request);
    DG_RUN_AS("test_start_at/events", test_start_at);
    DG_RUN_AS("test_start_failure/events", test_start_failure);
    DG_TEST_END();
}
