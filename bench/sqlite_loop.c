/*
 * sqlite_loop.c - the floor for bench/sqlite-overhead: the same prepared point select
 * dbgauge's tpcb:select-only runs, looped as tightly as C allows on the same database
 * file with the same connection settings (WAL, busy timeout, autocommit), for a duration.
 *
 * usage: sqlite_loop DBFILE SECONDS ACCOUNTS [COUNT [THREADED]]
 *   -> prints "<transactions> <seconds>"
 * With COUNT > 0 it runs exactly COUNT transactions (for instruction counting). With
 * THREADED = 1 an idle second thread exists during the loop: libc then takes its
 * multi-threaded paths (atomic mutex and malloc operations, cancellation points), which
 * any driver with a collector thread pays; the difference is the price of that thread.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *idle(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: sqlite_loop DBFILE SECONDS ACCOUNTS [COUNT [THREADED]]\n");
        return 2;
    }
    pthread_t th;
    if (argc == 6 && atoi(argv[5]) == 1 && pthread_create(&th, NULL, idle, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    double secs = atof(argv[2]);
    long long accounts = atoll(argv[3]);
    unsigned long long count = argc >= 5 ? strtoull(argv[4], NULL, 10) : 0;
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "open: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    sqlite3_busy_timeout(db, 30000);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v3(db, "SELECT abalance FROM pgbench_accounts WHERE aid = ?", -1,
                           SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    uint64_t x = 88172645463325252ULL, n = 0;
    long long sum = 0;
    double t0 = now(), end = t0 + secs, t = t0;
    while (count ? n < count : t < end) {
        x ^= x << 13; /* xorshift64: cheapest possible input */
        x ^= x >> 7;
        x ^= x << 17;
        sqlite3_bind_int64(st, 1, (sqlite3_int64)(x % (uint64_t)accounts) + 1);
        if (sqlite3_step(st) == SQLITE_ROW)
            sum += sqlite3_column_int(st, 0);
        sqlite3_reset(st);
        n++;
        t = now(); /* one clock read per transaction, as dbgauge does */
    }
    printf("%llu %.6f\n", (unsigned long long)n, t - t0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return sum == 42 ? 3 : 0; /* keep the reads alive */
}
