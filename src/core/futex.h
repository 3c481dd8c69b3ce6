/*
 * futex.h - sleeping on a word until another thread or a signal handler changes it, or
 * until a time: a Linux futex (one system call to sleep, one to wake everyone);
 * elsewhere sleeps of at most a slice, after which the caller looks at the word again.
 *
 * Thread-safety: any thread may wait and wake; dg_futex_wake_all is async-signal-safe.
 */
#ifndef DG_CORE_FUTEX_H
#define DG_CORE_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/* Sleeps while *word holds `expected`, until deadline_ns (monotonic, absolute) at the
 * latest. Returns early on a wake, a signal or a spurious wake-up, and (not on Linux)
 * after slice_ns: the caller checks its condition and the time, and waits again. */
void dg_futex_wait_until(atomic_int *word, int expected, int64_t deadline_ns, int64_t slice_ns);

/* Wakes every thread sleeping on word; change the word first. Async-signal-safe. */
void dg_futex_wake_all(atomic_int *word);

#endif
