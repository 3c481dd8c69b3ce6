/*
 * parallel.h - a loop over independent items spread over a few threads (off any measured
 * path: merging result files, which is parsing and zlib, CPU-bound and per-item
 * independent). Items are handed out in order from one atomic counter, so a slow item does
 * not hold up a fixed share of the others.
 */
#ifndef DG_CORE_PARALLEL_H
#define DG_CORE_PARALLEL_H

/* fn(ctx, worker, item) for item 0 ... n-1, each exactly once, on at most `workers`
 * threads (the caller's thread is worker 0; workers <= 0: one per online CPU, at most
 * DG_PARALLEL_MAX). worker < the returned count identifies the thread, for per-thread
 * state. Returns after every item has run; the count of workers used (>= 1). When a thread
 * cannot be started the others take its items. */
#define DG_PARALLEL_MAX 16
int dg_parallel_workers(int n, int workers);
int dg_parallel_for(int n, int workers, void (*fn)(void *ctx, int worker, int item), void *ctx);

#endif
