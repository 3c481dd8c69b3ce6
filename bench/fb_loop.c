/*
 * fb_loop.c - the floor for bench/fb-loop: the point select dbgauge's tpcb:select-only
 * runs (SELECT abalance FROM pgbench_accounts WHERE aid = ?), prepared once per connection
 * and executed as tightly as the Firebird client allows, with THREADS connections for
 * SECONDS, in one of two shapes:
 *   onetx   every query in one long transaction per connection (READ COMMITTED READ ONLY,
 *           as dbgauge's shared read transaction; peers.md "minimal Firebird loop")
 *   pertx   a transaction started and committed around every query (as dbgauge's
 *           ?read_tx=statement)
 *
 * usage: fb_loop CONNECT USER PASSWORD SECONDS ACCOUNTS THREADS onetx|pertx
 *        -> prints "<queries> <seconds>"
 * CONNECT is a Firebird connect string (host/port:/path/file.fdb).
 */
#include <ibase.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *target, *user, *password;
static double seconds;
static long long accounts;
static int per_tx;
static pthread_barrier_t start;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int check(const ISC_STATUS *sv, const char *what)
{
    if (sv[0] == 1 && sv[1]) {
        char buf[512];
        const ISC_STATUS *p = sv;
        fprintf(stderr, "fb_loop: %s:", what);
        while (fb_interpret(buf, sizeof buf, &p) > 0)
            fprintf(stderr, " %s;", buf);
        fprintf(stderr, "\n");
        exit(1);
    }
    return 0;
}

typedef struct worker {
    pthread_t th;
    unsigned long long n;
    unsigned seed;
} worker;

static void *run(void *arg)
{
    worker *w = arg;
    ISC_STATUS_ARRAY sv;
    isc_db_handle db = 0;
    isc_tr_handle tr = 0;
    isc_stmt_handle st = 0;
    char dpb[256];
    short n = 0;
    dpb[n++] = isc_dpb_version1;
    dpb[n++] = isc_dpb_user_name;
    dpb[n++] = (char)strlen(user);
    memcpy(dpb + n, user, strlen(user));
    n += (short)strlen(user);
    dpb[n++] = isc_dpb_password;
    dpb[n++] = (char)strlen(password);
    memcpy(dpb + n, password, strlen(password));
    n += (short)strlen(password);
    dpb[n++] = isc_dpb_lc_ctype;
    dpb[n++] = 4;
    memcpy(dpb + n, "UTF8", 4);
    n += 4;
    isc_attach_database(sv, 0, target, &db, n, dpb);
    check(sv, "attach");
    static const char tpb[] = {isc_tpb_version3, isc_tpb_read, isc_tpb_read_committed,
                               isc_tpb_rec_version, isc_tpb_wait};
    isc_start_transaction(sv, &tr, 1, &db, (unsigned short)sizeof tpb, tpb);
    check(sv, "start");
    isc_dsql_allocate_statement(sv, &db, &st);
    check(sv, "allocate");
    XSQLDA *out = calloc(1, XSQLDA_LENGTH(1)), *in = calloc(1, XSQLDA_LENGTH(1));
    out->version = in->version = SQLDA_VERSION1;
    out->sqln = in->sqln = 1;
    isc_dsql_prepare(sv, &tr, &st, 0, "SELECT abalance FROM pgbench_accounts WHERE aid = ?", 3, out);
    check(sv, "prepare");
    int64_t aid = 0, bal = 0;
    short in_ind = 0, out_ind = 0;
    in->sqld = 1;
    in->sqlvar[0].sqltype = SQL_INT64 | 1;
    in->sqlvar[0].sqllen = 8;
    in->sqlvar[0].sqldata = (char *)&aid;
    in->sqlvar[0].sqlind = &in_ind;
    out->sqlvar[0].sqltype = SQL_INT64 | 1;
    out->sqlvar[0].sqllen = 8;
    out->sqlvar[0].sqlscale = 0;
    out->sqlvar[0].sqldata = (char *)&bal;
    out->sqlvar[0].sqlind = &out_ind;
    if (per_tx) {
        isc_commit_transaction(sv, &tr);
        check(sv, "commit");
    }
    pthread_barrier_wait(&start);
    double end = now() + seconds;
    while (now() < end) {
        aid = (int64_t)(rand_r(&w->seed) % accounts) + 1;
        if (per_tx) {
            isc_start_transaction(sv, &tr, 1, &db, (unsigned short)sizeof tpb, tpb);
            check(sv, "start");
        }
        isc_dsql_execute(sv, &tr, &st, 3, in);
        check(sv, "execute");
        while (isc_dsql_fetch(sv, &st, 3, out) == 0)
            ;
        isc_dsql_free_statement(sv, &st, DSQL_close);
        if (per_tx) {
            isc_commit_transaction(sv, &tr);
            check(sv, "commit");
        }
        w->n++;
    }
    isc_dsql_free_statement(sv, &st, DSQL_drop);
    if (tr)
        isc_commit_transaction(sv, &tr);
    isc_detach_database(sv, &db);
    free(in);
    free(out);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: fb_loop CONNECT USER PASSWORD SECONDS ACCOUNTS THREADS onetx|pertx\n");
        return 2;
    }
    target = argv[1];
    user = argv[2];
    password = argv[3];
    seconds = atof(argv[4]);
    accounts = atoll(argv[5]);
    int threads = atoi(argv[6]);
    per_tx = !strcmp(argv[7], "pertx");
    if (threads < 1 || accounts < 1 || (!per_tx && strcmp(argv[7], "onetx") != 0)) {
        fprintf(stderr, "fb_loop: bad arguments\n");
        return 2;
    }
    worker *w = calloc((size_t)threads, sizeof *w);
    pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
    for (int i = 0; i < threads; i++) {
        w[i].seed = 12345u + (unsigned)i;
        pthread_create(&w[i].th, NULL, run, &w[i]);
    }
    pthread_barrier_wait(&start);
    double t0 = now();
    unsigned long long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(w[i].th, NULL);
        total += w[i].n;
    }
    printf("%llu %.3f\n", total, now() - t0);
    free(w);
    return 0;
}
