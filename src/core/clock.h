/*
 * clock.h - monotonic and wall clocks. dg_now_ns() is the one clock read allowed per
 * event on the measured path (CLOCK_MONOTONIC through the vDSO, ~20 ns).
 */
#ifndef DG_CORE_CLOCK_H
#define DG_CORE_CLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#define DG_NS_PER_US 1000LL
#define DG_NS_PER_MS 1000000LL
#define DG_NS_PER_S 1000000000LL

static inline int64_t dg_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * DG_NS_PER_S + ts.tv_nsec;
}

/* Wall-clock time in nanoseconds since the epoch (for timestamps in result files). */
int64_t dg_wall_ns(void);

/* Sleeps until the monotonic time `deadline_ns`; returns early only on error. On a thread
 * with a waiter (core/wait.h) the current fiber sleeps instead. */
void dg_sleep_until_ns(int64_t deadline_ns);

/* Sleeps for `ns` nanoseconds (no-op for ns <= 0). */
void dg_sleep_ns(int64_t ns);

/* Initialises *c to wait on the monotonic clock (pthread_cond_timedwait deadlines are then
 * dg_now_ns values, see dg_timespec). */
void dg_cond_init_monotonic(pthread_cond_t *c);

/* A dg_now_ns (or dg_wall_ns) time as a struct timespec. */
static inline struct timespec dg_timespec(int64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / DG_NS_PER_S), .tv_nsec = (long)(ns % DG_NS_PER_S)};
    return ts;
}

/* Formats wall time `wall_ns` as ISO-8601 UTC ("2026-12-02T15:04:05Z") into buf. */
void dg_format_iso8601(int64_t wall_ns, char *buf, size_t len);

/* Days from 1970-01-01 to y-m-d (m 1-12) in the proleptic Gregorian calendar. */
int64_t dg_days_from_civil(int64_t y, int m, int d);

/* Parses an RFC 3339 date-time ("2026-12-06T01:00:00Z", "2026-12-06T01:00:00.250Z",
 * "2026-12-06T02:00:00+01:00"; 'T' or 't', 'Z' or 'z' or an offset, seconds 00-59, a
 * fraction to 9 digits) into wall time ns since the epoch. 0, or -1 when s is not one. */
int dg_parse_rfc3339(const char *s, int64_t *wall_ns);

#endif
