/* futex.c - see futex.h. */
#include "core/futex.h"

#include "core/clock.h"

#include <assert.h>

#ifdef __linux__
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static_assert(sizeof(atomic_int) == sizeof(int), "an atomic_int is waited on as a futex word");

void dg_futex_wait_until(atomic_int *word, int expected, int64_t deadline_ns, int64_t slice_ns)
{
    (void)slice_ns;
    /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time (FUTEX_WAIT a relative one) */
    struct timespec ts = {.tv_sec = deadline_ns / DG_NS_PER_S, .tv_nsec = deadline_ns % DG_NS_PER_S};
    syscall(SYS_futex, (int *)word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, expected, &ts, NULL,
            FUTEX_BITSET_MATCH_ANY);
}

void dg_futex_wake_all(atomic_int *word)
{
    syscall(SYS_futex, (int *)word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT_MAX, NULL, NULL, 0);
}

#else

void dg_futex_wait_until(atomic_int *word, int expected, int64_t deadline_ns, int64_t slice_ns)
{
    if (atomic_load(word) != expected)
        return;
    int64_t now = dg_now_ns();
    if (deadline_ns - now > slice_ns)
        deadline_ns = now + slice_ns;
    dg_sleep_until_ns(deadline_ns);
}

void dg_futex_wake_all(atomic_int *word)
{
    (void)word; /* sleepers look again after a slice */
}

#endif
