/*
 * test_sched.c - the fiber scheduler (runner/sched.h): sleeps wake in deadline order and
 * never early, a sleep with slack ends with another's wake-up, a socket wait wakes on
 * data or on its deadline, a kick from another thread ends sleeps, thousands of fibers
 * share one thread, waits made through core/wait.h and dg_sleep_ns park the fiber and
 * not the thread, a fiber that rests starts over later without keeping a stack meanwhile
 * and a kick ends its rest. Timings are asserted only as lower bounds (never early) and as hang
 * checks with seconds of margin.
 */
#include "dgtest.h"

#include "core/clock.h"
#include "core/wait.h"
#include "runner/sched.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK (64 * 1024)

/* ---- order of sleeps ---------------------------------------------------------------------- */

typedef struct order_ctx {
    int64_t t0;
    int log[8], nlog;
    int64_t woke[8], want[8];
} order_ctx;

typedef struct order_arg {
    order_ctx *c;
    int id;
    int64_t delay_ns;
} order_arg;

static void order_fiber(void *p)
{
    order_arg *a = p;
    if (a->c->t0 == 0) /* the first to run: every deadline is well ahead of all of them */
        a->c->t0 = dg_now_ns() + 200 * DG_NS_PER_MS;
    int64_t until = a->c->t0 + a->delay_ns;
    a->c->want[a->id] = until;
    dg_sleep_until_ns(until);
    a->c->woke[a->id] = dg_now_ns();
    a->c->log[a->c->nlog++] = a->id;
}

static void test_sleep_order(void)
{
    dg_sched *s = dg_sched_new(8, STACK);
    DG_CHECK(s != NULL);
    order_ctx c = {.t0 = 0};
    static const int64_t delays_ms[5] = {40, 10, 30, 5, 20};
    order_arg a[5];
    for (int i = 0; i < 5; i++) {
        a[i] = (order_arg){&c, i, delays_ms[i] * DG_NS_PER_MS};
        DG_CHECK_INT(dg_sched_spawn(s, order_fiber, &a[i]), 0);
    }
    dg_sched_run(s);
    DG_CHECK_INT(c.nlog, 5);
    static const int want[5] = {3, 1, 4, 2, 0};
    for (int i = 0; i < 5 && i < c.nlog; i++)
        DG_CHECK_INT(c.log[i], want[i]);
    for (int i = 0; i < 5; i++)
        DG_CHECK(c.woke[i] >= c.want[i]); /* never early */
    dg_sched_stats st;
    dg_sched_stats_get(s, &st);
    DG_CHECK(st.timers >= 5);
    DG_CHECK(st.lag_max_ns >= 0 && st.lag_sum_ns >= 0);
    DG_CHECK(dg_waiter_get() == NULL); /* restored after the run */
    dg_sched_free(s);
}

/* ---- slack ------------------------------------------------------------------------------ */

/* A sleep with slack ends with the wake-up for another's deadline that falls within its
 * slack (one wake-up for both), never before its own deadline; one without slack ends
 * at its deadline and never waits for another's. */
typedef struct slack_ctx {
    dg_sched *s;
    int64_t t0;
    int64_t want[3], slack[3], woke[3];
    uint64_t wake_no[3]; /* the loop's wake-up count when each ran again */
    bool late;           /* one first ran after t0: the machine stalled, skip the checks */
} slack_ctx;

typedef struct slack_arg {
    slack_ctx *c;
    int id;
} slack_arg;

static void slack_fiber(void *p)
{
    slack_arg *a = p;
    slack_ctx *c = a->c;
    if (c->t0 == 0)
        c->t0 = dg_now_ns() + 200 * DG_NS_PER_MS;
    const dg_waiter *w = dg_waiter_get();
    if (dg_now_ns() >= c->t0)
        c->late = true;
    int64_t until = c->t0 + c->want[a->id];
    while (dg_now_ns() < until)
        w->sleep_until(w->ctx, until, c->slack[a->id]);
    c->woke[a->id] = dg_now_ns() - c->t0;
    dg_sched_stats st;
    dg_sched_stats_get(c->s, &st);
    c->wake_no[a->id] = st.wakeups;
}

static void test_slack(void)
{
    slack_ctx c = {.t0 = 0};
    c.s = dg_sched_new(3, STACK);
    DG_CHECK(c.s != NULL);
    /* 0: 20 ms with 50 ms of slack; 1: 30 ms exact, inside 0's slack; 2: 200 ms with 1 ms
     * of slack, alone */
    static const int64_t want_ms[3] = {20, 30, 200}, slack_ms[3] = {50, 0, 1};
    slack_arg a[3];
    for (int i = 0; i < 3; i++) {
        c.want[i] = want_ms[i] * DG_NS_PER_MS;
        c.slack[i] = slack_ms[i] * DG_NS_PER_MS;
        a[i] = (slack_arg){&c, i};
        DG_CHECK_INT(dg_sched_spawn(c.s, slack_fiber, &a[i]), 0);
    }
    dg_sched_run(c.s);
    for (int i = 0; i < 3; i++)
        DG_CHECK(c.woke[i] >= c.want[i]); /* never early */
    /* 0 waited for 1's deadline and ended with the same wake-up (1's latest time is
     * before 0's, so 0 can only end with 1 or after it) */
    if (!c.late) {
        DG_CHECK(c.woke[0] >= c.want[1]);
        DG_CHECK(c.wake_no[0] == c.wake_no[1]);
    }
    /* 2 had nobody to share with: its own wake-up, within its slack plus a hang margin
     * (unless the machine held the loop back past 2's deadline too) */
    if (c.woke[1] < c.want[2])
        DG_CHECK(c.wake_no[2] > c.wake_no[1]);
    DG_CHECK(c.woke[2] < c.want[2] + DG_NS_PER_S);
    dg_sched_free(c.s);
}

/* ---- sockets ---------------------------------------------------------------------------- */

typedef struct pipe_ctx {
    int fds[2];
    int got_rc;
    char got;
    int64_t waited_ns;
    int timeout_rc;
    int64_t timeout_waited_ns;
    int order[4], norder;
} pipe_ctx;

static void reader_fiber(void *p)
{
    pipe_ctx *c = p;
    int64_t t = dg_now_ns();
    c->got_rc = dg_wait_fd(c->fds[0], DG_WAIT_READ, INT64_MAX);
    c->waited_ns = dg_now_ns() - t;
    if (c->got_rc == 1 && read(c->fds[0], &c->got, 1) != 1)
        c->got = 0;
    c->order[c->norder++] = 2;
}

static void writer_fiber(void *p)
{
    pipe_ctx *c = p;
    c->order[c->norder++] = 1; /* runs while the reader waits */
    dg_sleep_ns(20 * DG_NS_PER_MS);
    if (write(c->fds[1], "x", 1) != 1)
        c->got = '?';
}

static void deadline_fiber(void *p)
{
    pipe_ctx *c = p;
    int64_t t = dg_now_ns();
    c->timeout_rc = dg_wait_fd(c->fds[0], DG_WAIT_READ, t + 30 * DG_NS_PER_MS);
    c->timeout_waited_ns = dg_now_ns() - t;
}

static void test_fd_wait(void)
{
    pipe_ctx c = {0};
    DG_CHECK_INT(pipe(c.fds), 0);
    dg_sched *s = dg_sched_new(4, STACK);
    DG_CHECK_INT(dg_sched_spawn(s, reader_fiber, &c), 0);
    DG_CHECK_INT(dg_sched_spawn(s, writer_fiber, &c), 0);
    dg_sched_run(s);
    DG_CHECK_INT(c.got_rc, 1);
    DG_CHECK_INT(c.got, 'x');
    DG_CHECK(c.waited_ns >= 20 * DG_NS_PER_MS);
    DG_CHECK_INT(c.norder, 2);
    DG_CHECK_INT(c.order[0], 1);
    DG_CHECK_INT(c.order[1], 2);
    dg_sched_free(s);

    /* nobody writes: the wait ends on its deadline, not before */
    s = dg_sched_new(1, STACK);
    DG_CHECK_INT(dg_sched_spawn(s, deadline_fiber, &c), 0);
    dg_sched_run(s);
    DG_CHECK_INT(c.timeout_rc, 0);
    DG_CHECK(c.timeout_waited_ns >= 30 * DG_NS_PER_MS);
    DG_CHECK(c.timeout_waited_ns < 5 * DG_NS_PER_S);
    dg_sched_free(s);

    /* a descriptor shut on the other end wakes its waiter (the stuck-call interruption) */
    s = dg_sched_new(1, STACK);
    close(c.fds[1]);
    c.got_rc = -9;
    DG_CHECK_INT(dg_sched_spawn(s, reader_fiber, &c), 0);
    dg_sched_run(s);
    DG_CHECK_INT(c.got_rc, 1);
    dg_sched_free(s);
    close(c.fds[0]);

    /* outside a scheduler dg_wait_fd polls */
    DG_CHECK_INT(pipe(c.fds), 0);
    DG_CHECK_INT(dg_wait_fd(c.fds[1], DG_WAIT_WRITE, INT64_MAX), 1);
    DG_CHECK_INT(dg_wait_fd(c.fds[0], DG_WAIT_READ, dg_now_ns() + 5 * DG_NS_PER_MS), 0);
    close(c.fds[0]);
    close(c.fds[1]);
}

/* A socket closed behind the scheduler's back and a new one on the same number: after
 * dg_wait_forget the new one is registered afresh and its data wakes the waiter. */
typedef struct reuse_ctx {
    int a[2], b[2];
    int rc1, rc2;
    char got;
} reuse_ctx;

static void reuse_reader(void *p)
{
    reuse_ctx *c = p;
    c->rc1 = dg_wait_fd(c->a[0], DG_WAIT_READ, dg_now_ns() + 10 * DG_NS_PER_S); /* registered */
    close(c->a[0]);
    close(c->a[1]);
    if (pipe(c->b) != 0)
        return;
    dg_wait_forget(c->b[0]); /* the lowest free numbers: those of a, reused */
    c->rc2 = dg_wait_fd(c->b[0], DG_WAIT_READ, dg_now_ns() + 10 * DG_NS_PER_S);
    if (c->rc2 == 1 && read(c->b[0], &c->got, 1) != 1)
        c->got = 0;
}

static void reuse_writer(void *p)
{
    reuse_ctx *c = p;
    if (write(c->a[1], "a", 1) != 1)
        return;
    dg_sleep_ns(20 * DG_NS_PER_MS); /* the reader has made b and waits on it */
    if (write(c->b[1], "b", 1) != 1)
        c->got = '?';
}

static void test_reused_fd(void)
{
    reuse_ctx c = {0};
    DG_CHECK_INT(pipe(c.a), 0);
    dg_sched *s = dg_sched_new(2, STACK);
    DG_CHECK_INT(dg_sched_spawn(s, reuse_reader, &c), 0);
    DG_CHECK_INT(dg_sched_spawn(s, reuse_writer, &c), 0);
    dg_sched_run(s);
    DG_CHECK_INT(c.rc1, 1);
    DG_CHECK_INT(c.b[0], c.a[0]); /* the number was reused */
    DG_CHECK_INT(c.rc2, 1);       /* and the wait on it woke for its data, not its deadline */
    DG_CHECK_INT(c.got, 'b');
    dg_sched_free(s);
    close(c.b[0]);
    close(c.b[1]);
}

/* Two fibers whose descriptors become ready in one return from epoll: the second waits
 * for the first, which keeps the thread 20 ms; queued_since tells the second how long it
 * sat ready (so that a result's arrival is timed by the loop, not by the fiber's turn), and
 * says 0 for a wake before the time asked about. */
typedef struct queue_ctx {
    int p[2], fd2;
    int ran;                 /* readers that ran */
    int64_t first_q, second_q, second_later_q;
} queue_ctx;

typedef struct queue_arg {
    queue_ctx *c;
    int fd;
} queue_arg;

static void queue_reader(void *arg)
{
    queue_arg *a = arg;
    queue_ctx *c = a->c;
    const dg_waiter *w = dg_waiter_get();
    int64_t since = dg_now_ns();
    if (dg_wait_fd(a->fd, DG_WAIT_READ, dg_now_ns() + 10 * DG_NS_PER_S) != 1)
        return;
    if (c->ran++ == 0) {
        c->first_q = w->queued_since(w->ctx, since);
        int64_t until = dg_now_ns() + 20 * DG_NS_PER_MS; /* keeps the thread */
        while (dg_now_ns() < until) {
        }
    } else {
        c->second_q = w->queued_since(w->ctx, since);
        c->second_later_q = w->queued_since(w->ctx, dg_now_ns());
    }
}

static void queue_writer(void *arg)
{
    queue_ctx *c = arg;
    dg_sleep_ns(10 * DG_NS_PER_MS); /* both readers wait by now */
    if (write(c->p[1], "x", 1) != 1)
        c->ran = -100;
}

static void test_queued(void)
{
    queue_ctx c = {.first_q = -1, .second_q = -1, .second_later_q = -1};
    DG_CHECK_INT(pipe(c.p), 0);
    c.fd2 = dup(c.p[0]); /* the same pipe under a second number: ready together */
    queue_arg a1 = {&c, c.p[0]}, a2 = {&c, c.fd2};
    dg_sched *s = dg_sched_new(3, STACK);
    DG_CHECK_INT(dg_sched_spawn(s, queue_reader, &a1), 0);
    DG_CHECK_INT(dg_sched_spawn(s, queue_reader, &a2), 0);
    DG_CHECK_INT(dg_sched_spawn(s, queue_writer, &c), 0);
    dg_sched_run(s);
    dg_sched_free(s);
    close(c.fd2);
    close(c.p[0]);
    close(c.p[1]);
    DG_CHECK_INT(c.ran, 2);
    DG_CHECK(c.first_q >= 0 && c.first_q < 20 * DG_NS_PER_MS);
    DG_CHECK(c.second_q >= 20 * DG_NS_PER_MS); /* it waited for the first's 20 ms */
    DG_CHECK_INT(c.second_later_q, 0);
}

/* ---- kick ------------------------------------------------------------------------------- */

typedef struct kick_ctx {
    dg_sched *s;
    int64_t slept_ns;
    const dg_waiter *w;
    void *stack_low;
} kick_ctx;

static void long_sleeper(void *p)
{
    kick_ctx *c = p;
    c->w = dg_waiter_get();
    c->stack_low = dg_sched_stack_low();
    int64_t t = dg_now_ns();
    c->w->sleep_until(c->w->ctx, t + 60 * DG_NS_PER_S, 0);
    c->slept_ns = dg_now_ns() - t;
}

static void *kicker(void *p)
{
    kick_ctx *c = p;
    dg_sleep_ns(50 * DG_NS_PER_MS);
    dg_sched_kick(c->s);
    return NULL;
}

static void test_kick(void)
{
    kick_ctx c = {0};
    c.s = dg_sched_new(1, STACK);
    DG_CHECK_INT(dg_sched_spawn(c.s, long_sleeper, &c), 0);
    pthread_t th;
    DG_CHECK_INT(pthread_create(&th, NULL, kicker, &c), 0);
    dg_sched_run(c.s);
    pthread_join(th, NULL);
    DG_CHECK(c.w != NULL);
    DG_CHECK(c.stack_low != NULL);
    DG_CHECK(dg_sched_stack_low() == NULL);
    DG_CHECK(c.slept_ns < 30 * DG_NS_PER_S); /* the kick ended the 60 s sleep */
    dg_sched_free(c.s);
}

/* ---- rests: a fiber that starts over keeps no stack meanwhile ------------------------------ */

#define RESTERS 300
#define RESTS 3

typedef struct rest_ctx {
    dg_sched *s;
    int runs[RESTERS], rests[RESTERS];
    int64_t due[RESTERS];
    int early;            /* runs that started before their rest's deadline */
    int refused;          /* dg_sched_rest_until returned false inside a fiber */
    int rested_once;      /* fibers that have rested at least once */
    int64_t stacks_seen;  /* the scheduler's mapped stacks once every fiber had rested */
    int watcher_done;
} rest_ctx;

typedef struct rest_arg {
    rest_ctx *c;
    int id;
} rest_arg;

static void rest_fiber(void *p)
{
    rest_arg *a = p;
    rest_ctx *c = a->c;
    volatile char touch[512]; /* some stack, so a reused one is written */
    touch[0] = (char)a->id;
    (void)touch[0];
    c->runs[a->id]++;
    if (c->due[a->id] && dg_now_ns() < c->due[a->id])
        c->early++;
    if (c->rests[a->id] == RESTS)
        return; /* done */
    if (c->rests[a->id]++ == 0)
        c->rested_once++;
    c->due[a->id] = dg_now_ns() + (int64_t)(2 + a->id % 9) * DG_NS_PER_MS;
    if (!dg_sched_rest_until(c->due[a->id], 0))
        c->refused++;
}

/* waits (sleeping, so it keeps its own stack) until every rester has rested once, then
 * reads how many stacks are mapped: only its own and the pool's */
static void rest_watcher(void *p)
{
    rest_ctx *c = p;
    for (int i = 0; i < 10000 && c->rested_once < RESTERS; i++)
        dg_sleep_ns(DG_NS_PER_MS);
    dg_sched_stats st;
    dg_sched_stats_get(c->s, &st);
    c->stacks_seen = st.stacks;
    c->watcher_done = 1;
}

static void test_rest(void)
{
    DG_CHECK(!dg_sched_rest_until(dg_now_ns(), 0)); /* outside a fiber: nothing asked */
    static rest_ctx c;
    static rest_arg a[RESTERS];
    c.s = dg_sched_new(RESTERS + 1, STACK);
    DG_CHECK(c.s != NULL);
    for (int i = 0; i < RESTERS; i++) {
        a[i] = (rest_arg){&c, i};
        DG_CHECK_INT(dg_sched_spawn(c.s, rest_fiber, &a[i]), 0);
    }
    DG_CHECK_INT(dg_sched_spawn(c.s, rest_watcher, &c), 0);
    dg_sched_run(c.s);
    for (int i = 0; i < RESTERS; i++)
        DG_CHECK_INT(c.runs[i], RESTS + 1); /* started over after each rest */
    DG_CHECK_INT(c.early, 0);
    DG_CHECK_INT(c.refused, 0);
    DG_CHECK(c.watcher_done);
    /* 301 fibers, 300 of them resting: the watcher's stack and at most the pool's 64 */
    DG_CHECK(c.stacks_seen >= 1 && c.stacks_seen <= 65);
    dg_sched_stats st;
    dg_sched_stats_get(c.s, &st);
    DG_CHECK(st.stacks >= 0 && st.stacks <= 64); /* all returned: the pool's */
    dg_sched_free(c.s);
}

/* A kick ends a rest as it ends a sleep: the fiber starts over at once. */
typedef struct rest_kick_ctx {
    dg_sched *s;
    int runs;
    _Atomic int rested;
    int64_t rested_at, restarted_ns;
} rest_kick_ctx;

static void rest_long(void *p)
{
    rest_kick_ctx *c = p;
    if (c->runs++ == 0) {
        c->rested_at = dg_now_ns();
        dg_sched_rest_until(c->rested_at + 60 * DG_NS_PER_S, 0);
        atomic_store(&c->rested, 1);
        return;
    }
    c->restarted_ns = dg_now_ns() - c->rested_at;
}

static void *rest_kicker(void *p)
{
    rest_kick_ctx *c = p;
    for (int i = 0; i < 30000 && !atomic_load(&c->rested); i++) /* the rest, observed */
        dg_sleep_ns(DG_NS_PER_MS);
    dg_sched_kick(c->s);
    return NULL;
}

static void test_rest_kick(void)
{
    rest_kick_ctx c = {0};
    c.s = dg_sched_new(1, STACK);
    DG_CHECK_INT(dg_sched_spawn(c.s, rest_long, &c), 0);
    pthread_t th;
    DG_CHECK_INT(pthread_create(&th, NULL, rest_kicker, &c), 0);
    dg_sched_run(c.s);
    pthread_join(th, NULL);
    DG_CHECK_INT(c.runs, 2);
    DG_CHECK(c.restarted_ns < 30 * DG_NS_PER_S); /* the kick ended the 60 s rest */
    dg_sched_free(c.s);
}

/* ---- a long sleep gives back the stack below it ----------------------------------------------- */

static int resident_pages_below(char *low, char *frame)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t hi = ((uintptr_t)frame & ~(uintptr_t)(page - 1)) - page; /* below frame's page */
    if (hi <= (uintptr_t)low)
        return 0;
    size_t n = (hi - (uintptr_t)low) / page;
    unsigned char vec[64];
    if (n > sizeof vec)
        n = sizeof vec;
    char *from = (char *)hi - n * page;
    if (mincore(from, n * page, vec) != 0)
        return -1;
    int r = 0;
    for (size_t i = 0; i < n; i++)
        r += vec[i] & 1;
    return r;
}

static __attribute__((noinline)) int go_deep(int depth)
{
    volatile char buf[4096];
    for (size_t i = 0; i < sizeof buf; i += 512)
        buf[i] = (char)depth;
    return depth > 0 ? go_deep(depth - 1) + buf[0] : buf[0];
}

static int trim_short, trim_long;

static void trim_fiber(void *p)
{
    (void)p;
    volatile char here = 0;
    char *low = dg_sched_stack_low();
    go_deep(8); /* some 36 KB below this frame */
    dg_sleep_ns(DG_NS_PER_MS); /* short: the pages stay */
    trim_short = resident_pages_below(low, (char *)&here);
    go_deep(8);
    dg_sleep_ns(30 * DG_NS_PER_MS); /* a think time: they go */
    trim_long = resident_pages_below(low, (char *)&here);
}

static void test_trim_on_sleep(void)
{
    dg_sched *s = dg_sched_new(1, STACK);
    DG_CHECK_INT(dg_sched_spawn(s, trim_fiber, NULL), 0);
    dg_sched_run(s);
    DG_CHECK_INT(trim_long, 0);
#if !defined(__SANITIZE_ADDRESS__)
    DG_CHECK(trim_short > 4); /* so it was the long sleep that gave them back */
#endif
    dg_sched_free(s);
}

/* ---- a long sleep trims only a stack that went deep ----------------------------------------- */

typedef struct deep_ctx {
    dg_sched *s;
    int fds[2];
    uint64_t after_first, after_shallow, after_deep_wait, after_deep_call;
    int resident_after_deep_wait, resident_after_deep_call;
    int sleeps_to_trim; /* long sleeps after a deep call without a wait until one trimmed */
} deep_ctx;

static uint64_t trims(deep_ctx *c)
{
    dg_sched_stats st;
    dg_sched_stats_get(c->s, &st);
    return st.trims;
}

/* goes some 36 KB deep, then waits there for the (readable) pipe: a park far below */
static __attribute__((noinline)) int wait_deep(deep_ctx *c, int depth)
{
    volatile char buf[4096];
    for (size_t i = 0; i < sizeof buf; i += 512)
        buf[i] = (char)depth;
    if (depth > 0)
        return wait_deep(c, depth - 1) + buf[0];
    return dg_wait_fd(c->fds[0], DG_WAIT_READ, INT64_MAX) + buf[0];
}

#define LONG_SLEEP (11 * DG_NS_PER_MS)

static void deep_fiber(void *p)
{
    deep_ctx *c = p;
    volatile char here = 0;
    char *low = dg_sched_stack_low();
    dg_sleep_ns(LONG_SLEEP); /* the first long sleep trims: nothing is known yet */
    c->after_first = trims(c);
    for (int i = 0; i < 5; i++) /* no waits in between: nothing to give back */
        dg_sleep_ns(LONG_SLEEP);
    c->after_shallow = trims(c);
    wait_deep(c, 8);
    dg_sleep_ns(LONG_SLEEP); /* a wait parked deep: this sleep trims */
    c->after_deep_wait = trims(c);
    c->resident_after_deep_wait = resident_pages_below(low, (char *)&here);
    go_deep(8); /* deep without a wait: no mark, a later long sleep trims all the same */
    for (c->sleeps_to_trim = 1; c->sleeps_to_trim <= 64; c->sleeps_to_trim++) {
        dg_sleep_ns(LONG_SLEEP);
        if (trims(c) > c->after_deep_wait)
            break;
    }
    c->after_deep_call = trims(c);
    c->resident_after_deep_call = resident_pages_below(low, (char *)&here);
}

static void test_trim_only_deep(void)
{
    deep_ctx c = {0};
    DG_CHECK_INT(pipe(c.fds), 0);
    DG_CHECK_INT((int)write(c.fds[1], "x", 1), 1);
    c.s = dg_sched_new(1, STACK);
    DG_CHECK_INT(dg_sched_spawn(c.s, deep_fiber, &c), 0);
    dg_sched_run(c.s);
    DG_CHECK(c.after_first == 1);
    DG_CHECK(c.after_shallow == 1); /* was a madvise per sleep: 6 */
    DG_CHECK(c.after_deep_wait == 2);
    DG_CHECK_INT(c.resident_after_deep_wait, 0);
    DG_CHECK(c.after_deep_call == 3);
    DG_CHECK(c.sleeps_to_trim > 1 && c.sleeps_to_trim <= 16);
    DG_CHECK_INT(c.resident_after_deep_call, 0);
    dg_sched_free(c.s);
    close(c.fds[0]);
    close(c.fds[1]);
}

/* ---- many fibers -------------------------------------------------------------------------- */

#define MANY 2000
#define ROUNDS 5

static int many_count;

static void many_fiber(void *p)
{
    int id = (int)(intptr_t)p;
    for (int r = 0; r < ROUNDS; r++) {
        dg_sleep_ns((int64_t)(1 + id % 7) * DG_NS_PER_MS);
        many_count++;
    }
}

static void test_many(void)
{
    dg_sched *s = dg_sched_new(MANY, STACK);
    for (int i = 0; i < MANY; i++)
        DG_CHECK_INT(dg_sched_spawn(s, many_fiber, (void *)(intptr_t)i), 0);
    DG_CHECK(dg_sched_spawn(s, many_fiber, NULL) != 0); /* over max_fibers */
    int64_t t = dg_now_ns();
    dg_sched_run(s);
    DG_CHECK_INT(many_count, MANY * ROUNDS);
    DG_CHECK(dg_now_ns() - t >= 5 * DG_NS_PER_MS);
    dg_sched_free(s);
}

int main(void)
{
    DG_RUN(test_sleep_order);
    DG_RUN(test_slack);
    DG_RUN(test_fd_wait);
    DG_RUN(test_reused_fd);
    DG_RUN(test_queued);
    DG_RUN(test_kick);
    DG_RUN(test_many);
    DG_RUN(test_trim_on_sleep);
    DG_RUN(test_trim_only_deep);
    DG_RUN(test_rest);
    DG_RUN(test_rest_kick);
    DG_TEST_END();
}
