/* clock.c - wall clock, sleeping and timestamp formatting. */
#include "core/clock.h"

#include "core/wait.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

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

/* n decimal digits at *p (advanced); -1 when one is not a digit. */
static int digits(const char **p, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    *p += n;
    return v;
}

int64_t dg_days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int dg_parse_rfc3339(const char *s, int64_t *wall_ns)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const char *p = s;
    int y = digits(&p, 4);
    if (y < 0 || *p++ != '-')
        return -1;
    int mo = digits(&p, 2);
    if (mo < 1 || mo > 12 || *p++ != '-')
        return -1;
    int d = digits(&p, 2);
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap))
        return -1;
    if (*p != 'T' && *p != 't')
        return -1;
    p++;
    int h = digits(&p, 2);
    if (h < 0 || h > 23 || *p++ != ':')
        return -1;
    int mi = digits(&p, 2);
    if (mi < 0 || mi > 59 || *p++ != ':')
        return -1;
    int sec = digits(&p, 2);
    if (sec < 0 || sec > 59)
        return -1;
    int64_t frac = 0;
    if (*p == '.') {
        p++;
        int n = 0;
        while (*p >= '0' && *p <= '9') {
            if (++n > 9)
                return -1;
            frac = frac * 10 + (*p++ - '0');
        }
        if (n == 0)
            return -1;
        for (; n < 9; n++)
            frac *= 10;
    }
    int64_t off_s = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1;
        int oh = digits(&p, 2);
        if (oh < 0 || oh > 23 || *p++ != ':')
            return -1;
        int om = digits(&p, 2);
        if (om < 0 || om > 59)
            return -1;
        off_s = sign * (oh * 3600 + om * 60);
    } else {
        return -1;
    }
    if (*p)
        return -1;
    int64_t t = dg_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off_s;
    *wall_ns = t * DG_NS_PER_S + frac;
    return 0;
}

void dg_cond_init_monotonic(pthread_cond_t *c)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(c, &ca);
    pthread_condattr_destroy(&ca);
}
