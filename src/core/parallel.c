/*
 * parallel.c - see parallel.h.
 */
#include "core/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct pool {
    atomic_int next;
    int n;
    void (*fn)(void *ctx, int worker, int item);
    void *ctx;
} pool;

typedef struct worker {
    pool *p;
    int id;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (;;) {
        int i = atomic_fetch_add_explicit(&w->p->next, 1, memory_order_relaxed);
        if (i >= w->p->n)
            return NULL;
        w->p->fn(w->p->ctx, w->id, i);
    }
}

int dg_parallel_workers(int n, int workers)
{
    if (workers <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        workers = cpus > 0 ? (int)cpus : 1;
    }
    if (workers > DG_PARALLEL_MAX)
        workers = DG_PARALLEL_MAX;
    if (workers > n)
        workers = n;
    return workers > 0 ? workers : 1;
}

int dg_parallel_for(int n, int workers, void (*fn)(void *ctx, int worker, int item), void *ctx)
{
    workers = dg_parallel_workers(n, workers);
    pool p = {.n = n, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    worker w[DG_PARALLEL_MAX];
    pthread_t t[DG_PARALLEL_MAX];
    int started = 0;
    for (int k = 1; k < workers; k++) {
        w[k] = (worker){.p = &p, .id = k};
        if (pthread_create(&t[k], NULL, work, &w[k]) != 0)
            break; /* the threads already started, and this one, take the rest */
        started = k;
    }
    w[0] = (worker){.p = &p, .id = 0};
    work(&w[0]);
    for (int k = 1; k <= started; k++)
        pthread_join(t[k], NULL);
    return workers;
}
