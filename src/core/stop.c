/* stop.c - see stop.h. */
#include "core/stop.h"

#include "core/futex.h"
#include "core/xalloc.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

atomic_int dg_stop_word;
static atomic_int g_signal;
static _Atomic int64_t g_signal_ns; /* when the first signal came (0: none) */

void dg_stop_request(int signo)
{
    if (signo) {
        int none = 0;
        if (atomic_compare_exchange_strong(&g_signal, &none, signo))
            atomic_store(&g_signal_ns, dg_now_ns()); /* clock_gettime: async-signal-safe */
    }
    atomic_store(&dg_stop_word, 1);
    dg_futex_wake_all(&dg_stop_word);
}

int dg_stop_signal(void)
{
    return atomic_load(&g_signal);
}

int64_t dg_stop_deadline_ns(void)
{
    if (!atomic_load(&g_signal))
        return INT64_MAX;
    int64_t at = atomic_load(&g_signal_ns);
    return at ? at + DG_STOP_BUDGET_NS : dg_now_ns() + DG_STOP_BUDGET_NS; /* 0: being stored */
}

int64_t dg_stop_cap_ns(int64_t deadline_ns)
{
    int64_t d = dg_stop_deadline_ns();
    return d < deadline_ns ? d : deadline_ns;
}

static atomic_int g_left_calls;

void dg_stop_left_call(void)
{
    atomic_fetch_add(&g_left_calls, 1);
}

bool dg_stop_calls_left(void)
{
    return atomic_load(&g_left_calls) > 0;
}

void dg_stop_clear(void)
{
    atomic_store(&dg_stop_word, 0);
    atomic_store(&g_signal, 0);
    atomic_store(&g_signal_ns, 0);
}

static void on_signal(int signo)
{
    dg_stop_request(signo);
}

void dg_stop_catch(dg_sigsave *save)
{
    dg_signals_catch(on_signal, save);
}

struct dg_stop_watch {
    void (*fn)(void *);
    void *arg;
    int64_t grace_ns;
    atomic_bool ended;
    atomic_int ended_word; /* 1 once ended: what the thread sleeps on between calls */
    pthread_t thread;
};

#define WATCH_SLICE_NS (100 * DG_NS_PER_MS)

static void *watch_main(void *p)
{
    dg_stop_watch *w = p;
    /* until a stop (the futex wakes at once), or the end (seen within a slice) */
    while (!atomic_load(&w->ended) && !dg_stop_requested())
        dg_futex_wait_until(&dg_stop_word, 0, dg_now_ns() + WATCH_SLICE_NS, WATCH_SLICE_NS);
    int64_t at = dg_now_ns() + w->grace_ns;
    for (int64_t now = dg_now_ns(); !atomic_load(&w->ended) && now < at; now = dg_now_ns())
        dg_sleep_ns(at - now < WATCH_SLICE_NS / 4 ? at - now : WATCH_SLICE_NS / 4);
    /* again every slice: an engine that stops only the statement running (SQLite) would
     * otherwise go on with the next one */
    while (!atomic_load(&w->ended)) {
        w->fn(w->arg);
        dg_futex_wait_until(&w->ended_word, 0, dg_now_ns() + WATCH_SLICE_NS, WATCH_SLICE_NS);
    }
    return NULL;
}

dg_stop_watch *dg_stop_watch_start(void (*fn)(void *arg), void *arg, int64_t grace_ns)
{
    dg_stop_watch *w = xcalloc(1, sizeof *w);
    w->fn = fn;
    w->arg = arg;
    w->grace_ns = grace_ns;
    atomic_init(&w->ended, false);
    atomic_init(&w->ended_word, 0);
    if (pthread_create(&w->thread, NULL, watch_main, w) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

void dg_stop_watch_end(dg_stop_watch *w)
{
    if (!w)
        return;
    atomic_store(&w->ended, true);
    atomic_store(&w->ended_word, 1);
    dg_futex_wake_all(&w->ended_word);
    dg_futex_wake_all(&dg_stop_word); /* a spurious wake for other sleepers: they look again */
    pthread_join(w->thread, NULL);
    free(w);
}
