/*
 * phaser.h - a writer/reader phaser: lets one reader swap a writer's double buffer
 * without the writer ever blocking or taking a lock.
 *
 * The writer brackets each update with dg_phaser_enter()/dg_phaser_exit(); enter returns
 * which of the two buffers (0 or 1) to write. The reader calls dg_phaser_flip(), which
 * makes new writers use the other buffer and then waits until every writer that was still
 * in the old buffer has left: after it returns, the old buffer is the reader's alone until
 * the next flip. Writer cost: two uncontended atomic increments on the writer's own cache
 * line. The reader's wait lasts at most one writer critical section (a few hundred ns).
 *
 * Epoch counters: `start` counts entries, with its sign bit telling the current phase
 * (>= 0: buffer 0, < 0: buffer 1); `end[b]` counts exits from buffer b, counting from the
 * start value the flip put in place, so `end[old] == start value at flip` means drained.
 */
#ifndef DG_STATS_PHASER_H
#define DG_STATS_PHASER_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct dg_phaser {
    _Atomic int64_t start;
    _Atomic int64_t end[2];
} dg_phaser;

static inline void dg_phaser_init(dg_phaser *p)
{
    atomic_init(&p->start, 0);
    atomic_init(&p->end[0], 0);
    atomic_init(&p->end[1], INT64_MIN);
}

/* Writer: enter; returns the token to pass to exit. The buffer is (token < 0). */
static inline int64_t dg_phaser_enter(dg_phaser *p)
{
    return atomic_fetch_add_explicit(&p->start, 1, memory_order_acq_rel);
}

static inline int dg_phaser_buffer(int64_t token)
{
    return token < 0 ? 1 : 0;
}

static inline void dg_phaser_exit(dg_phaser *p, int64_t token)
{
    atomic_fetch_add_explicit(&p->end[token < 0 ? 1 : 0], 1, memory_order_acq_rel);
}

/* Reader (one reader at a time): switches writers to the other buffer and returns the
 * index of the buffer they left, now safe to read and reset. */
static inline int dg_phaser_flip(dg_phaser *p)
{
    int64_t cur = atomic_load_explicit(&p->start, memory_order_acquire);
    int old = cur < 0 ? 1 : 0;
    int64_t fresh = old == 0 ? INT64_MIN : 0; /* new phase's start value */
    atomic_store_explicit(&p->end[1 - old], fresh, memory_order_release);
    int64_t at_flip = atomic_exchange_explicit(&p->start, fresh, memory_order_acq_rel);
    while (atomic_load_explicit(&p->end[old], memory_order_acquire) != at_flip)
        sched_yield();
    return old;
}

#endif
