/* clock.c - wall clock, sleeping and timestamp formatting. */
#include "core/clock.h"

#include "core/wait.h"

#include <errno.h>
#include <stdio.h>

int64_t dg_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * DG_NS_PER_S + ts.tv_nsec;
}

void dg_sleep_until_ns(int64_t deadline_ns)
{
    const dg_waiter *w = dg_waiter_get();
    if (w) { /* a fiber: park it, not the thread (a kick may end a park early) */
        while (dg_now_ns() < deadline_ns)
            w->sleep_until(w->ctx, deadline_ns, 0);
        return;
    }
    struct timespec ts = {.tv_sec = deadline_ns / DG_NS_PER_S, .tv_nsec = deadline_ns % DG_NS_PER_S};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

void dg_sleep_ns(int64_t ns)
{
    if (ns <= 0)
        return;
    dg_sleep_until_ns(dg_now_ns() + ns);
}

void dg_format_iso8601(int64_t wall_ns, char *buf, size_t len)
{
    time_t t = (time_t)(wall_ns / DG_NS_PER_S);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
