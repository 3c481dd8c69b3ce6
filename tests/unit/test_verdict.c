/*
 * test_verdict.c - the bottleneck verdict's rules (results/verdict.c): a table of figures
 * and the verdict each must give, the order of the rules where several hold, and the
 * figures read from a result document's interval and run.
 */
#include "dgtest.h"

#include "results/result.h"
#include "results/verdict.h"

#include <math.h>
#include <string.h>

/* A closed-loop run on a remote server, nothing measured yet. */
static dg_verdict_in base(void)
{
    dg_verdict_in in = {
        .tps = 1000, .seconds = NAN, .rate_tps = 0, .lag_p99_ms = NAN, .self_cpu_pct = 20, .driver_threads = 8,
        .client_cores = 4, .embedded = false, .server_local = false, .server_cpu_pct = NAN,
        .server_iowait_pct = NAN, .server_disk_util_pct = NAN, .server_procs_cpu_pct = NAN,
        .conflicts_per_tx = NAN, .flow_paused_pct = NAN, .wait_lock = NAN, .wait_io = NAN,
        .wait_client = NAN, .wait_cpu = NAN, .server_disk_share = NAN,
    };
    return in;
}

static void expect(const dg_verdict_in *in, const char *want, const char *conf)
{
    dg_verdict v;
    dg_verdict_decide(in, &v);
    if (strcmp(v.limited_by, want) || (conf && strcmp(v.confidence, conf)))
        fprintf(stderr, "  got %s (%s), wanted %s (%s)\n", v.limited_by, v.confidence, want,
                conf ? conf : "any");
    DG_CHECK_STR(v.limited_by, want);
    if (conf)
        DG_CHECK_STR(v.confidence, conf);
}

static void test_rules(void)
{
    dg_verdict_in in = base();
    expect(&in, "not_enough_evidence", "low"); /* the server host not measured */

    in = base(); /* dbgauge at 3.9 of its 4 usable cores */
    in.self_cpu_pct = 390;
    expect(&in, "driver", "high");
    in.driver_threads = 1; /* one worker thread: one core is all it can use */
    in.self_cpu_pct = 92;
    expect(&in, "driver", "medium");

    in = base(); /* the target reached on schedule */
    in.rate_tps = 50;
    in.tps = 45;
    in.lag_p99_ms = 3;
    in.server_cpu_pct = 99; /* the host busy with something else: the run still did its part */
    expect(&in, "rate_target", "high");
    /* a short span's Poisson arrivals: 46 of the 60 expected in 3 s at 20/s is on schedule
       (CI: 15.4 tps, lag p99 4 ms), 30 is not */
    in.rate_tps = 20, in.seconds = 3, in.tps = 15.4, in.lag_p99_ms = 4, in.server_cpu_pct = 60;
    expect(&in, "rate_target", "high");
    in.tps = 10;
    expect(&in, "not_enough_evidence", NULL);
    in.seconds = 600, in.tps = 18.5; /* 11,100 of 12,000: past three deviations (329) */
    expect(&in, "not_enough_evidence", NULL);
    in.tps = 19.7;
    expect(&in, "rate_target", "high");
    in.rate_tps = 50, in.tps = 45, in.seconds = NAN, in.lag_p99_ms = 3;
    in.lag_p99_ms = 900; /* missed, the server had room: the driver */
    in.tps = 20;
    in.server_cpu_pct = 30;
    expect(&in, "driver", "medium");
    in.server_cpu_pct = NAN; /* ... unless the server was not measured */
    expect(&in, "not_enough_evidence", NULL);

    in = base();
    in.server_cpu_pct = 40;
    in.conflicts_per_tx = 1.7;
    expect(&in, "cluster_conflicts", "high");
    in.conflicts_per_tx = 0.05;
    in.flow_paused_pct = 25;
    expect(&in, "cluster_conflicts", "medium");

    in = base();
    in.server_cpu_pct = 60;
    in.server_disk_util_pct = 97;
    expect(&in, "server_disk", "high");
    in.server_disk_util_pct = 30;
    in.server_iowait_pct = 35;
    expect(&in, "server_disk", "medium");
    in.server_disk_util_pct = 90; /* the device busy, but with others' bytes (a neighbour) */
    in.server_disk_share = 0.03;
    in.server_cpu_pct = 97;
    in.server_procs_cpu_pct = 150;
    expect(&in, "server_cpu", "high");
    in.server_disk_share = 0.4; /* the server's own share of it: the disk */
    expect(&in, "server_disk", "medium");
    in.server_disk_share = 0.03; /* others' bytes and an idle CPU: the device still, low */
    in.server_cpu_pct = 10;
    expect(&in, "server_disk", "low");

    in = base();
    in.server_cpu_pct = 97;
    in.server_procs_cpu_pct = 370;
    expect(&in, "server_cpu", "high");
    in.server_local = true; /* one machine: whose CPU it is decides */
    in.server_procs_cpu_pct = 60;
    in.self_cpu_pct = 150;
    expect(&in, "driver", "medium");

    in = base(); /* SQLite: the engine's CPU is dbgauge's */
    in.embedded = true;
    in.driver_threads = 2;
    in.self_cpu_pct = 196;
    expect(&in, "server_cpu", "high");
    in.self_cpu_pct = 40;
    expect(&in, "not_enough_evidence", NULL);

    in = base(); /* nobody busy, closed loop: the terminals wait */
    in.server_cpu_pct = 20;
    in.server_disk_util_pct = 5;
    expect(&in, "round_trips", "low");
    in.server_cpu_pct = 70; /* in between: no verdict */
    expect(&in, "not_enough_evidence", NULL);

    /* the wait profile */
    in = base();
    in.server_cpu_pct = 60;
    in.wait_lock = 0.55, in.wait_cpu = 0.2, in.wait_client = 0.2, in.wait_io = 0.05;
    expect(&in, "lock_waits", "high");
    in.wait_lock = 0.35;
    expect(&in, "lock_waits", "medium");
    /* the host's I/O wait (a neighbour's) against sessions that hardly waited on I/O: the
     * sessions decide (a loaded CI host: iowait 21 %, Lock 59 %, IO 11 %) */
    in.wait_lock = 0.59, in.wait_io = 0.11, in.wait_client = 0.25, in.wait_cpu = 0.04;
    in.server_iowait_pct = 21;
    expect(&in, "lock_waits", "high");
    in.wait_io = 0.3; /* theirs too: the host's wait counts */
    expect(&in, "server_disk", "medium");
    in.server_iowait_pct = NAN;
    in.wait_lock = 0.35, in.wait_io = 0.05, in.wait_client = 0.2;
    in.wait_cpu = 0.45; /* running more than waiting on locks: not the locks */
    expect(&in, "not_enough_evidence", NULL);
    in.server_disk_util_pct = 90; /* a busy disk comes first (holders wait on their commits) */
    in.wait_cpu = 0.1;
    expect(&in, "server_disk", "medium");
    in.server_disk_util_pct = NAN; /* the sessions themselves wait on I/O */
    in.wait_lock = 0.1, in.wait_io = 0.6, in.wait_cpu = 0.1;
    expect(&in, "server_disk", "medium");
    in = base(); /* nobody busy, and the sessions wait for the next statement */
    in.server_cpu_pct = 20;
    in.wait_client = 0.7, in.wait_lock = 0.05, in.wait_cpu = 0.2, in.wait_io = 0.05;
    expect(&in, "round_trips", "medium");
    in.server_cpu_pct = NAN; /* the host not measured: the profile alone, low */
    expect(&in, "round_trips", "low");
    in.wait_client = 0.4;
    expect(&in, "not_enough_evidence", NULL);
}

/* The figures of a document's interval and of its run. */
static void test_from_document(void)
{
    json_error_t je;
    json_t *doc = json_loads(
        "{\"run\": {\"backend\": \"mysql\", \"terminals\": 6, \"rate_tps\": null,"
        " \"engine\": {\"kind\": \"threads\", \"workers\": 0}},"
        " \"host\": {\"cores\": 2},"
        " \"totals\": {\"tps\": 500, \"transactions\": 1000, \"duration_s\": 2,"
        "            \"conflicts\": {\"cert_failures\": 300, \"bf_aborts\": 500}},"
        " \"monitor\": {\"self_cpu_pct\": 20, \"server_host\": {\"source\": \"local\", \"cpu_pct\": 70}},"
        " \"cluster\": {\"nodes\": [{\"flow_paused_s\": 0.2}, {\"flow_paused_s\": 0.6}]},"
        " \"intervals\": [{\"tps\": 400, \"transactions\": 400, \"self_cpu_pct\": 19,"
        "   \"server_host\": {\"cpu_pct\": 71, \"disk_util_pct\": 12, \"read_mb_s\": 3,"
        "     \"write_mb_s\": 1, \"server_read_mb_s\": 0.5, \"server_write_mb_s\": 0.5},"
        "   \"nodes\": [{\"cert_failures\": 10, \"bf_aborts\": 10, \"flow_paused_pct\": 3},"
        "               {\"cert_failures\": 5, \"bf_aborts\": null, \"flow_paused_pct\": 9}]}]}",
        0, &je);
    DG_CHECK(doc != NULL);
    dg_verdict_in in;
    dg_verdict_in_of(doc, json_array_get(json_object_get(doc, "intervals"), 0), &in);
    DG_CHECK_INT(in.driver_threads, 6);
    DG_CHECK_INT(in.client_cores, 2);
    DG_CHECK(in.server_local && !in.embedded);
    DG_CHECK(fabs(in.conflicts_per_tx - 20.0 / 400) < 1e-9); /* a null figure is left out */
    DG_CHECK(fabs(in.flow_paused_pct - 9) < 1e-9);
    DG_CHECK(fabs(in.server_disk_util_pct - 12) < 1e-9);
    DG_CHECK(fabs(in.server_disk_share - 0.25) < 1e-9); /* 1 MB/s of the device's 4 */
    dg_verdict_in_of(doc, NULL, &in);
    DG_CHECK(isnan(in.server_disk_share)); /* the run's figures have no byte counts */
    DG_CHECK(fabs(in.conflicts_per_tx - 0.8) < 1e-9);
    DG_CHECK(fabs(in.flow_paused_pct - 30) < 1e-9); /* 0.6 s of 2 s */
    dg_verdict_annotate(doc);
    DG_CHECK_STR(json_string_value(json_object_get(json_object_get(doc, "verdict"), "limited_by")),
                 "cluster_conflicts");
    const json_t *iv = json_array_get(json_object_get(doc, "intervals"), 0);
    DG_CHECK_STR(json_string_value(json_object_get(json_object_get(iv, "verdict"), "limited_by")),
                 "not_enough_evidence");
    DG_CHECK(json_is_null(json_object_get(
        json_object_get(json_object_get(iv, "verdict"), "evidence"), "rate_tps")));
    json_decref(doc);
}

/* The wait profile's shares: an interval's "waits", the run's "wait_profile.all"; a class
 * no session was in is 0; a profile that is not available is no evidence. */
static void test_waits_from_document(void)
{
    json_error_t je;
    json_t *doc = json_loads(
        "{\"run\": {\"backend\": \"postgres\", \"terminals\": 2},"
        " \"totals\": {\"tps\": 100}, \"monitor\": {\"self_cpu_pct\": 10},"
        " \"wait_profile\": {\"available\": true, \"all\": {\"samples\": 100,"
        "   \"classes\": {\"Lock\": 0.6, \"CPU\": 0.1, \"Client\": 0.3}}},"
        " \"intervals\": [{\"tps\": 100, \"waits\": {\"samples\": 10, \"classes\": {\"IO\": 0.5, \"Client\": 0.5}}},"
        "                 {\"tps\": 100}]}",
        0, &je);
    DG_CHECK(doc != NULL);
    dg_verdict_in in;
    dg_verdict_in_of(doc, NULL, &in);
    DG_CHECK(fabs(in.wait_lock - 0.6) < 1e-9 && fabs(in.wait_client - 0.3) < 1e-9);
    DG_CHECK(in.wait_io == 0); /* sampled, and no session waited on I/O */
    const json_t *ivs = json_object_get(doc, "intervals");
    dg_verdict_in_of(doc, json_array_get(ivs, 0), &in);
    DG_CHECK(fabs(in.wait_io - 0.5) < 1e-9 && in.wait_lock == 0);
    dg_verdict_in_of(doc, json_array_get(ivs, 1), &in); /* an interval without samples */
    DG_CHECK(isnan(in.wait_lock) && isnan(in.wait_client));
    dg_verdict_annotate(doc);
    DG_CHECK_STR(dg_res_str(doc, "verdict.limited_by"), "lock_waits");
    json_object_set_new(json_object_get(doc, "wait_profile"), "available", json_false());
    dg_verdict_in_of(doc, NULL, &in);
    DG_CHECK(isnan(in.wait_lock));
    json_decref(doc);
}

int main(void)
{
    DG_RUN(test_rules);
    DG_RUN(test_from_document);
    DG_RUN(test_waits_from_document);
    DG_TEST_END();
}
