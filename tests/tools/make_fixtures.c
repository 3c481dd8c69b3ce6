/*
 * make_fixtures.c - writes the result files the report and compare tests read
 * (tests/fixtures/results/), with the same writers real runs use: every document is
 * begun by dg_doc_run_document and completed by dg_doc_run_finish (results/doc.h), as
 * session.c does, from figures in doc.h's structs and histograms recorded into dg_hist; a
 * sweep point's "sweep" object is the sweep's own (dg_sweep_point_json, passed as the
 * result's extra as experiment/exec.c does), and the index is experiment/sweep.c's. This
 * file names no field of a document, so the fixtures cannot drift from the real file
 * format: cli/fixtures regenerates them and fails when the checked-in files differ.
 *
 *   dg_make_fixtures DIR     (DIR = tests/fixtures/results to update them)
 *
 * The figures are chosen by hand so that expected report outputs can be checked by eye:
 *   small.json    one run: 5 one-second intervals at 100, 110, 90, 100, 100 tx/s (the
 *                 third without a cache figure), 500 transactions in 5 s, two types with
 *                 small histograms, a load of 3 steps, one error kind, a warmup, tpmC
 *   hostile.json  like small.json, with HTML/JS and quotes in the workload name, a
 *                 transaction name, a server setting and the error message
 *   sweep/        scale 1,10 x terminals 1,2,4, two repeats; p006 repeat 2 failed (no file).
 *                 tps = 100 * terminals^0.8, 30 % less at scale 10, repeat 2 is 2 %
 *                 faster; 16 MB per scale unit loaded at 40 MB/s (scale 1), 32 (scale 10)
 *   compare/      a1, a2: 60 intervals around 1000 tx/s (sd 20, different noise); b1:
 *                 around 1200; p95 2.0 ms (A), 1.7 ms (B). a-reps/, b-reps/: three
 *                 repeats each (1000 vs 1010 tx/s, sd 30)
 * All ran on the same machine (fixture_host, SQLite in WAL mode) with no warmup except
 * small.json's. Only small.json and hostile.json have a "drain" (doc.h leaves it out when
 * given none, as for a run by transaction count); they have no "warmup_transactions".
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include "core/prng.h"
#include "core/xalloc.h"
#include "experiment/sweep.h"
#include "results/doc.h"
#include "results/result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>

#define MS 1000000LL /* ns */

static const char *outdir;

static void die(const char *what, const dg_err *e)
{
    fprintf(stderr, "dg_make_fixtures: %s: %s\n", what, e ? e->msg : "failed");
    exit(1);
}

/* The machine every fixture ran on: a 4-core VM, an SQLite database in WAL mode
 * (journal_mode is a parameter so that hostile.json can put markup into it). */
static dg_server_info fixture_server(const char *journal_mode)
{
    dg_server_info si;
    memset(&si, 0, sizeof si);
    snprintf(si.version, sizeof si.version, "SQLite 3.40.1");
    dg_server_info_add(&si, "journal_mode", journal_mode);
    dg_server_info_add(&si, "synchronous", "2");
    return si;
}

static dg_hostinfo fixture_host(void)
{
    dg_hostinfo h = {.cores = 4, .ram_bytes = 8000000000ULL};
    snprintf(h.hostname, sizeof h.hostname, "fixture");
    snprintf(h.cpu_model, sizeof h.cpu_model, "Test CPU");
    snprintf(h.kernel, sizeof h.kernel, "Linux 6.1");
    snprintf(h.arch, sizeof h.arch, "x86_64");
    snprintf(h.fs_type, sizeof h.fs_type, "ext4");
    snprintf(h.fs_device, sizeof h.fs_device, "/dev/vda");
    snprintf(h.mount_point, sizeof h.mount_point, "/");
    snprintf(h.block_device, sizeof h.block_device, "vda");
    snprintf(h.cpu_governor, sizeof h.cpu_governor, "performance");
    return h;
}

/* A finished run's document as session.c makes it: begun with run (not yet finished)
 * and the machine, completed with r (whose run is the finished one). */
static json_t *run_document(const dg_doc_result *r, const dg_server_info *si)
{
    dg_doc_run start = *r->run;
    start.finished = false;
    dg_hostinfo h = fixture_host();
    json_t *doc = dg_doc_run_document(&start, si, NULL, &h);
    dg_doc_run_finish(doc, r);
    return doc;
}

static void write_doc(const char *rel, json_t *doc)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", outdir, rel);
    dg_err e = DG_ERR_INIT;
    if (dg_result_write(doc, path, &e))
        die(path, &e);
    json_decref(doc);
}

/* A phase's counters (no latencies needed for totals). */
static dg_txstats counters(uint64_t count, uint64_t errors, uint64_t retries, uint64_t retried,
                           uint64_t rollbacks)
{
    dg_txstats t;
    memset(&t, 0, sizeof t);
    t.count = count;
    t.errors = errors;
    t.retries = retries;
    t.retried = retried;
    t.rollbacks = rollbacks;
    t.err_class[DG_EC_RETRY] = errors;
    return t;
}

/* A transaction type whose latencies put p50, p90, p95, p99, p99.9 and max at the given
 * values (ms) over 1000 transactions. */
static void shaped_latency(dg_txstats *t, double p50, double p90, double p95, double p99,
                           double p999, double max)
{
    static const struct {
        int n;
    } parts[] = {{500}, {400}, {50}, {40}, {9}, {1}};
    double at[] = {p50, p90, p95, p99, p999, max};
    for (int i = 0; i < 6; i++)
        dg_hist_record_n(&t->lat, (int64_t)(at[i] * MS), (uint64_t)parts[i].n);
    t->count = 1000;
}

static dg_doc_interval interval(double t, double tps, double p50, double p95, double p99, double cpu)
{
    dg_doc_interval iv = {
        .t_s = t,
        .dur_s = 1.0,
        .transactions = (uint64_t)llround(tps),
        .p50_ms = p50,
        .p95_ms = p95,
        .p99_ms = p99,
        .avg_ms = p50 * 1.2,
        .max_ms = p99 * 2,
        .sys = {.seconds = 1.0, .cpu_pct = cpu, .user_pct = cpu * 0.7, .sys_pct = cpu * 0.3,
                .iowait_pct = 0, .self_cpu_pct = cpu / 2, .disk_reads = 10, .disk_writes = 200,
                .read_bytes = 10 * 8192.0, .write_bytes = 200 * 8192.0, .iops = 210.0},
        .cache_hit_pct = 99.0,
        .physical_reads = 10,
        .db_size_bytes = -1,
        .active_terminals = 4,
        .lag_p99_ms = NAN,
    };
    return iv;
}

static dg_doc_run base_run(const char *workload, int64_t scale, const char *db, int terminals,
                           double duration_s, const char *command)
{
    dg_doc_run r = {
        .workload = workload,
        .workload_hash = "0123456789abcdef",
        .scale_unit = "branch",
        .scale = scale,
        .backend = "sqlite",
        .db = db,
        .terminals = terminals,
        .duration_s = duration_s,
        .warmup_s = 0,
        .interval_s = 1.0,
        .seed = 42,
        .command = command,
        .rate_tps = NAN,
        .think_time_ms = NAN,
        .max_tries = 10,
        .finished = true,
        .started_at = "2026-01-02T03:04:05Z",
        .complete = true,
        .stop_reason = "duration",
        .connect_s = 0.05,
        .close_s = 0.01,
    };
    return r;
}

/* A tpcb run's one transaction type. */
static const char *const tpcb_names[] = {"tpcb"};
static const double tpcb_weights[] = {1.0};

/* The figures of a tpcb run (one transaction type). */
static dg_doc_run tpcb_run(int64_t scale, const char *db, int terminals, double duration_s,
                           const char *command)
{
    dg_doc_run r = base_run("tpcb", scale, db, terminals, duration_s, command);
    r.ntx = 1;
    r.tx_names = tpcb_names;
    r.tx_weights = tpcb_weights;
    return r;
}

/* A server host's figures with its CPU at cpu % (the rest in proportion). */
static dg_srvdelta server_delta(double cpu)
{
    dg_srvdelta d = {.seconds = 1.0, .cpu_pct = cpu, .user_pct = cpu * 0.6,
                     .sys_pct = cpu * 0.3, .iowait_pct = cpu * 0.1, .steal_pct = 0,
                     .procs_cpu_pct = cpu * 1.8, .procs_cpu_s = cpu * 0.018, .procs = 9,
                     .disk_reads = 40, .disk_writes = 400, .iops = 440, .read_mb_s = 0.3,
                     .write_mb_s = 3.5, .util_pct = cpu / 2, .mem_used_pct = 41.5,
                     .mem_available_bytes = 9.4e9, .load1 = cpu / 25};
    return d;
}

static json_t *intervals_json(const dg_doc_interval *iv, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, dg_doc_interval_json(&iv[i]));
    return a;
}

/* ---- small.json / hostile.json --------------------------------------------------------- */

static void small(const char *rel, const char *workload, const char *tx0, const char *tx1,
                  const char *message, const char *setting)
{
    const char *names[] = {tx0, tx1};
    double weights[] = {0.6, 0.4};
    dg_setting conn = {"cache_size", "-4000"};
    dg_doc_run r = base_run(workload, 2, "sqlite:fixture.db", 4, 5.0,
                            "dbgauge run -c 4 -T 5s -P 1s --warmup 2s");
    r.warmup_s = 2.0;
    r.conn_settings = &conn;
    r.nconn_settings = 1;
    r.ntx = 2;
    r.tx_names = names;
    r.tx_weights = weights;
    dg_server_info si = fixture_server(setting);

    dg_doc_step steps[] = {{"table accounts", "table", 1.5, 200000, 18000000, 0.0, 12, 2200},
                           {"table branches", "table", 0.1, 2, 100, 1.5, 0, 1},
                           {"index accounts_pkey", "index", 0.4, 0, 0, 1.6, 2197, 560}};
    dg_objstat objs[] = {{"accounts", "accounts", false, 200000, 18022400, -1},
                         {"accounts", "accounts_pkey", true, 200000, 4497408, 3},
                         {"branches", "branches", false, 2, 8192, -1}};
    dg_doc_load l = {.workload = workload, .scale = 2, .jobs = 1, .seed = 42, .bytes = 20000000,
                     .data_bytes_sent = 18000100, .db_size_bytes = 20000000, .seconds = 2.0,
                     .nsteps = 3, .steps = steps, .nobjects = 3, .objects = objs,
                     .objects_read = true, .objects_seconds = 0.05};
    json_t *load = dg_doc_load_json(&l);

    dg_txstats all = counters(500, 3, 5, 4, 1), warm = counters(150, 0, 0, 0, 0);
    dg_doc_drain_tx drain[] = {{tx0, 2, 0, 0, 0}, {tx1, 1, 0, 0, 0}};

    /* 300 values: 150 near 1 ms, 135 near 2 ms, 15 near 10 ms; 200: 100 near 0.5 ms and
     * 100 near 1.5 ms */
    dg_txstats tx[2] = {counters(300, 2, 3, 2, 1), counters(200, 1, 2, 2, 0)};
    if (dg_hist_init(&tx[0].lat) || dg_hist_init(&tx[1].lat))
        die("histogram", NULL);
    dg_hist_record_n(&tx[0].lat, 999936, 150);
    dg_hist_record_n(&tx[0].lat, 1999872, 135);
    dg_hist_record_n(&tx[0].lat, 9998336, 15);
    dg_hist_record_n(&tx[1].lat, 499968, 100);
    dg_hist_record_n(&tx[1].lat, 1499136, 100);
    dg_doc_metric tpmc = {"tpmC", 3600.0, "tx/min"};

    static const double tps[] = {100, 110, 90, 100, 100};
    dg_doc_interval iv[5];
    for (int i = 0; i < 5; i++) {
        iv[i] = interval(i + 1, tps[i], 1.0 + i * 0.1, 2.0 + i * 0.2, 5.0, 40.0 + 2 * i);
        static uint64_t counts[5][2];
        counts[i][0] = (uint64_t)(tps[i] * 0.6);
        counts[i][1] = (uint64_t)tps[i] - counts[i][0];
        iv[i].ntx = 2;
        iv[i].tx_names = names;
        iv[i].tx_counts = counts[i];
    }
    iv[2].cache_hit_pct = NAN; /* a missing sample breaks the line */
    /* the server host's figures (--server-host), the last interval's lost with its ssh
     * session */
    for (int i = 0; i < 5; i++) {
        iv[i].server_status = i < 4 ? DG_DOC_SERVER_OK : DG_DOC_SERVER_LOST;
        iv[i].server = server_delta(60.0 + 4 * i);
    }
    json_t *intervals = intervals_json(iv, 5), *warm_intervals = json_array();

    dg_doc_monitor m = {
        .sys = {.seconds = 5, .cpu_pct = 44.0, .user_pct = 30.8, .sys_pct = 13.2,
                .self_cpu_pct = 22.0, .disk_reads = 50, .disk_writes = 1000, .iops = 210.0},
        .self_cpu_us_per_tx = 2200.0,
        .cache_hit_pct = 99.0,
        .physical_reads_per_tx = 0.1,
        .db_size_before_bytes = 20000000,
        .db_size_after_bytes = 21000000,
        .server_commits = -1,
        .block_device = "vda",
        .self_max_rss_bytes = 14000000,
        .cache_hit_null_intervals = 0,
    };
    dg_doc_server_host sh = {.source = "ssh://bench@db1", .device = "nvme0n1",
                             .data_dir = "/var/lib/postgresql/15/main", .root_pid = 812,
                             .procs = 9, .late_intervals = 0, .lost = true,
                             .have_totals = true, .totals = server_delta(66.0),
                             .transactions = 500};
    m.server_host = &sh;
    char msg[512];
    snprintf(msg, sizeof msg, "terminal 2, %s: %s", tx0, message);
    dg_doc_error err = {msg, tx0, DG_EC_RETRY, 3};

    dg_doc_result res = {
        .run = &r,
        .load = load,
        .totals = &all,
        .totals_s = 5.0,
        .warmup = &warm,
        .warmup_s = 2.0,
        .ntx = 2,
        .tx_names = names,
        .tx_weights = weights,
        .tx = tx,
        .drain_tx = drain,
        .drain_s = 0.03,
        .metrics = true,
        .nmetrics = 1,
        .metric = &tpmc,
        .intervals = intervals,
        .warmup_intervals = warm_intervals,
        .monitor = &m,
        .nerrors = 1,
        .errors = &err,
    };
    json_t *doc = run_document(&res, &si);
    dg_hist_destroy(&tx[0].lat);
    dg_hist_destroy(&tx[1].lat);
    json_decref(load);
    json_decref(intervals);
    json_decref(warm_intervals);
    write_doc(rel, doc);
}

/* ---- sweep/ ------------------------------------------------------------------------------- */

static void sweep(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/sweep", outdir);
    dg_setting vary[] = {{"scale", "1,10"}, {"terminals", "1,2,4"}};
    dg_sweep s;
    dg_err e = DG_ERR_INIT;
    if (dg_sweep_plan(vary, 2, 2, dir,
                      "dbgauge sweep --vary scale=1,10 --vary terminals=1,2,4 --repeat 2 -T 3s", &s, &e))
        die("sweep plan", &e);
    s.seed = 42; /* every point's (base_run) */
    dg_server_info si = fixture_server("wal");
    for (int i = 0; i < s.npoints; i++) {
        dg_sweep_point *pt = &s.points[i];
        int scale = atoi(dg_sweep_value(&s, pt, 0));
        int t = atoi(dg_sweep_value(&s, pt, 1));
        if (!strcmp(pt->id, "p006") && pt->repeat == 2) { /* scale 10, 4 terminals */
            pt->status = DG_POINT_FAILED;
            pt->exit = 1;
            continue;
        }
        pt->status = DG_POINT_DONE;
        double tps = round(1000 * pow(t, 0.8) * (scale == 10 ? 0.7 : 1.0) *
                           (pt->repeat == 2 ? 1.02 : 1.0)) / 10;
        double size = 16000000.0 * scale, mbps = scale == 1 ? 40.0 : 32.0;
        double secs = size / 1e6 / mbps;

        dg_doc_run r = tpcb_run(scale, "sqlite:sweep.db", t, 3.0, "dbgauge sweep ...");
        json_t *point = dg_sweep_point_json(&s, pt);
        json_t *extra = dg_doc_sweep_extra(point);
        json_decref(point);
        dg_doc_step steps[] = {{"table accounts", "table", secs * 0.8, 100000 * (uint64_t)scale, 0, 0, -1, -1},
                               {"index accounts_pkey", "index", secs * 0.2, 0, 0, secs * 0.8, -1, -1}};
        dg_doc_load l = {.workload = "tpcb", .scale = scale, .jobs = 1, .seed = 42, .bytes = size,
                         .db_size_bytes = (int64_t)size, .seconds = secs, .nsteps = 2, .steps = steps};
        json_t *load = dg_doc_load_json(&l);
        dg_txstats all = counters((uint64_t)llround(tps * 3), 0, 0, 0, 0);
        dg_txstats warm = counters(0, 0, 0, 0, 0);
        dg_txstats tx = counters(0, 0, 0, 0, 0);
        if (dg_hist_init(&tx.lat))
            die("histogram", NULL);
        shaped_latency(&tx, 0.9 * t, 1.5 * t, 2.0 * t, 4.0 * t, 8.0 * t, 9.0 * t);
        tx.count = all.count;
        dg_doc_interval iv[3];
        for (int k = 0; k < 3; k++)
            iv[k] = interval(k + 1, tps, 0.9 * t, 2.0 * t, 4.0 * t, 20.0 * t);
        json_t *intervals = intervals_json(iv, 3), *warm_intervals = json_array();
        dg_doc_monitor m = {.sys = {.cpu_pct = 20.0 * t, .user_pct = NAN, .sys_pct = NAN,
                                    .iowait_pct = NAN, .self_cpu_pct = NAN, .disk_reads = NAN,
                                    .disk_writes = NAN, .iops = NAN},
                            .self_cpu_us_per_tx = NAN, .cache_hit_pct = NAN,
                            .physical_reads_per_tx = NAN, .db_size_before_bytes = (int64_t)size,
                            .db_size_after_bytes = (int64_t)size, .server_commits = -1,
                            .block_device = "vda", .self_max_rss_bytes = -1};
        dg_doc_result res = {.run = &r, .load = load, .totals = &all, .totals_s = 3.0,
                             .warmup = &warm, .ntx = 1, .tx_names = tpcb_names,
                             .tx_weights = tpcb_weights, .tx = &tx, .intervals = intervals,
                             .warmup_intervals = warm_intervals, .monitor = &m, .extra = extra};
        json_t *doc = run_document(&res, &si);
        dg_hist_destroy(&tx.lat);
        json_decref(load);
        json_decref(intervals);
        json_decref(warm_intervals);
        json_decref(extra);
        char rel[1100];
        snprintf(rel, sizeof rel, "sweep/%s", pt->file);
        write_doc(rel, doc);
    }
    if (dg_sweep_write_index(&s, &e))
        die("sweep index", &e);
    dg_sweep_free(&s);
}

/* ---- compare/ ------------------------------------------------------------------------------ */

static void compare_run(const char *rel, double mean_tps, double p95, uint64_t seed, double sd)
{
    enum { N = 60 };
    dg_prng rng;
    dg_prng_seed(&rng, seed);
    dg_doc_interval iv[N];
    uint64_t total = 0;
    for (int i = 0; i < N; i++) {
        double tps = round((mean_tps + sd * dg_prng_normal(&rng)) * 10) / 10;
        double p = round((p95 + 0.05 * dg_prng_normal(&rng)) * 1000) / 1000;
        double cpu = round((50 + 2 * dg_prng_normal(&rng)) * 10) / 10;
        iv[i] = interval(i + 1, tps, p95 / 2, p, p95 * 2, cpu);
        total += iv[i].transactions;
    }
    dg_doc_run r = tpcb_run(1, "sqlite:cmp.db", 4, N, "dbgauge run -c 4 -T 60s");
    dg_server_info si = fixture_server("wal");
    dg_txstats all = counters(total, 0, 0, 0, 0), warm = counters(0, 0, 0, 0, 0);
    dg_txstats tx = counters(0, 0, 0, 0, 0);
    if (dg_hist_init(&tx.lat))
        die("histogram", NULL);
    shaped_latency(&tx, p95 / 2, p95 * 0.9, p95, p95 * 2, p95 * 3, p95 * 4);
    tx.count = total;
    json_t *intervals = intervals_json(iv, N), *warm_intervals = json_array();
    dg_doc_monitor m = {.sys = {.cpu_pct = 50.0, .user_pct = NAN, .sys_pct = NAN, .iowait_pct = NAN,
                                .self_cpu_pct = NAN, .disk_reads = NAN, .disk_writes = NAN,
                                .iops = NAN},
                        .self_cpu_us_per_tx = NAN, .cache_hit_pct = NAN,
                        .physical_reads_per_tx = NAN, .db_size_before_bytes = -1,
                        .db_size_after_bytes = -1, .server_commits = -1, .block_device = "vda",
                        .self_max_rss_bytes = -1};
    dg_doc_result res = {.run = &r, .totals = &all, .totals_s = N, .warmup = &warm,
                         .ntx = 1, .tx_names = tpcb_names, .tx_weights = tpcb_weights, .tx = &tx,
                         .intervals = intervals, .warmup_intervals = warm_intervals, .monitor = &m};
    json_t *doc = run_document(&res, &si);
    dg_hist_destroy(&tx.lat);
    json_decref(intervals);
    json_decref(warm_intervals);
    write_doc(rel, doc);
}

/* Every file's dbgauge.commit made one fixed value: the fixtures must not change with
 * each commit of the tree that makes them. */
static int fix_commit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".json") != 0)
        return 0;
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    json_t *who = json_object_get(doc, "dbgauge");
    if (json_object_get(who, "commit")) {
        json_object_set_new(who, "commit", json_string("fixture"));
        dg_err e = DG_ERR_INIT;
        if (dg_result_write(doc, path, &e))
            die(path, &e);
    }
    json_decref(doc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: dg_make_fixtures DIR\n");
        return 1;
    }
    outdir = argv[1];
    small("small.json", "tpcb", "new_order", "payment", "deadlock detected [40P01]", "wal");
    small("hostile.json", "<script>alert(\"wl\")</script>", "new<b>order</b>",
          "pay'ment\"&amp;", "<img src=x onerror=\"alert(1)\"> it's \"bad\" & <script>",
          "\"><script>alert(2)</script>");
    sweep();
    compare_run("compare/a1.json", 1000, 2.0, 1, 20);
    compare_run("compare/a2.json", 1000, 2.0, 2, 20);
    compare_run("compare/b1.json", 1200, 1.7, 3, 20);
    static const double off[] = {0, 30, -30};
    for (int i = 0; i < 3; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "compare/a-reps/r%d.json", i + 1);
        compare_run(rel, 1000 + off[i], 2.0, 10 + (uint64_t)i, 20);
        snprintf(rel, sizeof rel, "compare/b-reps/r%d.json", i + 1);
        compare_run(rel, 1010 + off[i], 2.0, 20 + (uint64_t)i, 20);
    }
    nftw(outdir, fix_commit, 16, FTW_PHYS);
    return 0;
}
