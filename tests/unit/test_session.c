/*
 * test_session.c - the session layer against SQLite: `dbgauge load` as a session
 * (dg_session_load_doc), a run that loads an empty database first (dg_session_run), the
 * check preamble (dg_session_prepare in DG_PREPARE_CHECK), the --workers and --pipeline
 * checks, and a stop request that ends a run early.
 *
 * SQLite's ":memory:" is one database per connection, and every terminal opens its own,
 * so the tests use database files in a fresh mkdtemp() directory that main() removes at
 * the end. The workload is `tables` at a few hundred rows: loading it takes a moment.
 * Nothing here waits on the clock: the stop is requested from the interval callback,
 * once the run has reported a measured interval.
 */
#include "core/err.h"
#include "results/result.h"
#include "runner/runner.h"
#include "session/load.h"
#include "session/session.h"
#include "workload/workload.h"

#include "dgtest.h"
#include "dgtest_fs.h"

#include <signal.h>

static char g_dir[256];

/* What the UI callbacks saw. */
typedef struct seen {
    int begin, intervals, warm_intervals, load_begin, load_done;
    bool begin_had_run;           /* the document given to begin holds "run" */
    int stop_after;               /* > 0: request a stop after this many measured intervals */
} seen;

static void on_begin(void *arg, const json_t *doc)
{
    seen *s = arg;
    s->begin++;
    s->begin_had_run = dg_res_get(doc, "run.workload") != NULL;
}

static void on_interval(void *arg, const json_t *iv, bool warmup, int64_t end_wall_ns)
{
    (void)iv;
    (void)end_wall_ns;
    seen *s = arg;
    if (warmup) {
        s->warm_intervals++;
        return;
    }
    s->intervals++;
    if (s->stop_after > 0 && s->intervals == s->stop_after)
        dg_run_request_stop(SIGINT); /* what the session's SIGINT handler does */
}

static void on_load_begin(void *arg, const dg_workload *wl, const char *url, int jobs, uint64_t seed)
{
    (void)wl, (void)url, (void)jobs, (void)seed;
    ((seen *)arg)->load_begin++;
}

static void on_load_done(void *arg, const json_t *load)
{
    (void)load;
    ((seen *)arg)->load_done++;
}

static dg_workload *open_tables(void)
{
    dg_wl_config wc = {.name = "tables", .scale = 400, .seed = 7, .tables = 4};
    dg_workload *wl = NULL;
    dg_err err = DG_ERR_INIT;
    if (dg_workload_open(&wc, &wl, &err) != 0) {
        fprintf(stderr, "cannot open workload tables: %s\n", err.msg);
        return NULL;
    }
    return wl;
}

/* A session config on sqlite:<dir>/<file> that runs 2 terminals for 40 transactions each. */
static void config(dg_session_config *cfg, dg_session_ui *ui, seen *s, char *url, size_t urlsz,
                   const char *file, dg_workload *wl)
{
    snprintf(url, urlsz, "sqlite:%s/%s", g_dir, file);
    memset(s, 0, sizeof *s);
    *ui = (dg_session_ui){.arg = s, .begin = on_begin, .interval = on_interval,
                          .load_begin = on_load_begin, .load_done = on_load_done};
    memset(cfg, 0, sizeof *cfg);
    cfg->db = url;
    cfg->wl = wl;
    cfg->seed = 7;
    cfg->jobs = 1;
    cfg->terminals = 2;
    cfg->transactions = 40;
    cfg->interval_ns = 0; /* one interval per phase */
    cfg->max_tries = 10;
    cfg->command_line = "dbgauge test-session";
    cfg->ui = ui;
}

static void test_load_doc(void)
{
    dg_workload *wl = open_tables();
    DG_CHECK(wl != NULL);
    if (!wl)
        return;
    dg_session_config cfg;
    dg_session_ui ui;
    seen s;
    char url[512];
    config(&cfg, &ui, &s, url, sizeof url, "load.db", wl);
    json_t *doc = NULL;
    dg_session_stage stage = DG_STAGE_RUN;
    dg_err err = DG_ERR_INIT;
    int rc = dg_session_load_doc(&cfg, &doc, &stage, &err);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", err.msg);
    DG_CHECK(doc != NULL);
    if (doc) {
        DG_CHECK_STR(dg_res_str(doc, "kind"), "load");
        DG_CHECK_STR(dg_res_str(doc, "run.workload"), "tables");
        DG_CHECK_STR(dg_res_str(doc, "run.backend"), "sqlite");
        DG_CHECK_STR(dg_res_str(doc, "run.command"), "dbgauge test-session");
        DG_CHECK(dg_res_get(doc, "run.complete") == json_true());
        DG_CHECK(dg_res_get(doc, "run.stop_reason") == NULL);
        DG_CHECK_INT(dg_res_num(doc, "run.scale", 0), 400);
        DG_CHECK(json_array_size(dg_res_get(doc, "load.steps")) > 0);
        DG_CHECK(dg_res_num(doc, "load.seconds", -1) >= 0);
        DG_CHECK(dg_res_str(doc, "server.version") != NULL);
        DG_CHECK(json_is_object(dg_res_get(doc, "host")));
        DG_CHECK(dg_res_get(doc, "totals") == NULL); /* a load has no run */
    }
    DG_CHECK_INT(s.load_begin, 1);
    DG_CHECK_INT(s.load_done, 1);
    DG_CHECK_INT(s.begin, 0);
    /* loading again without --drop: refused before anything changed */
    json_t *again = NULL;
    rc = dg_session_load_doc(&cfg, &again, &stage, &err);
    DG_CHECK_INT(rc, DG_E_EXISTS);
    DG_CHECK(again == NULL);
    DG_CHECK_INT(stage, DG_STAGE_SETUP);
    json_decref(doc);
    dg_workload_free(wl);
}

/* The preamble of `dbgauge check`: the tables must all be there. */
static void test_check_mode(void)
{
    dg_workload *wl = open_tables();
    DG_CHECK(wl != NULL);
    if (!wl)
        return;
    dg_session_config cfg;
    dg_session_ui ui;
    seen s;
    char url[512];
    config(&cfg, &ui, &s, url, sizeof url, "check-empty.db", wl);
    dg_conn *conn = NULL;
    dg_session_stage stage = DG_STAGE_RUN;
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_session_connect(&cfg, false, &conn, &err), 0);
    if (conn) {
        DG_CHECK_INT(dg_session_prepare(&cfg, conn, DG_PREPARE_CHECK, NULL, &stage, &err),
                     DG_E_NOTFOUND);
        DG_CHECK(strstr(err.msg, "does not hold workload 'tables'") != NULL);
        DG_CHECK_INT(stage, DG_STAGE_SETUP);
        DG_CHECK_INT(s.load_begin, 0); /* check never loads */
        dg_conn_close(conn);
        conn = NULL;
    }
    config(&cfg, &ui, &s, url, sizeof url, "load.db", wl); /* loaded by test_load_doc */
    dg_err_clear(&err);
    DG_CHECK_INT(dg_session_connect(&cfg, false, &conn, &err), 0);
    if (conn) {
        DG_CHECK_INT(dg_session_prepare(&cfg, conn, DG_PREPARE_CHECK, NULL, &stage, &err), 0);
        DG_CHECK_INT(wl->scale, 400); /* attached: the scale read from the database */
        dg_conn_close(conn);
    }
    dg_workload_free(wl);
}

/* --workers and --pipeline ask what SQLite's client cannot do: refused before any load. */
static void test_run_modes_refused(void)
{
    dg_workload *wl = open_tables();
    DG_CHECK(wl != NULL);
    if (!wl)
        return;
    dg_session_config cfg;
    dg_session_ui ui;
    seen s;
    char url[512];
    config(&cfg, &ui, &s, url, sizeof url, "modes.db", wl);
    json_t *doc = NULL;
    dg_session_stage stage = DG_STAGE_RUN;
    dg_err err = DG_ERR_INIT;
    cfg.workers = 1;
    DG_CHECK_INT(dg_session_run(&cfg, &doc, &stage, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "--workers") != NULL);
    DG_CHECK(doc == NULL);
    DG_CHECK_INT(stage, DG_STAGE_SETUP);
    cfg.workers = 0;
    cfg.pipeline = true;
    dg_err_clear(&err);
    DG_CHECK_INT(dg_session_run(&cfg, &doc, &stage, &err), DG_E_INVAL);
    DG_CHECK(strstr(err.msg, "--pipeline") != NULL);
    DG_CHECK(doc == NULL);
    DG_CHECK_INT(s.load_begin, 0);
    DG_CHECK_INT(s.begin, 0);
    dg_workload_free(wl);
}

/* A run on an empty database loads it first; its document records both. */
static void test_run_doc(void)
{
    dg_workload *wl = open_tables();
    DG_CHECK(wl != NULL);
    if (!wl)
        return;
    dg_session_config cfg;
    dg_session_ui ui;
    seen s;
    char url[512];
    config(&cfg, &ui, &s, url, sizeof url, "run.db", wl);
    json_t *doc = NULL;
    dg_session_stage stage = DG_STAGE_RUN;
    dg_err err = DG_ERR_INIT;
    int rc = dg_session_run(&cfg, &doc, &stage, &err);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", err.msg);
    DG_CHECK(doc != NULL);
    if (!doc) {
        dg_workload_free(wl);
        return;
    }
    DG_CHECK(dg_res_get(doc, "kind") == NULL); /* a run's document */
    DG_CHECK_INT(dg_res_num(doc, "dbgauge.format", 0), DG_RESULT_FORMAT);
    DG_CHECK_STR(dg_res_str(doc, "run.workload"), "tables");
    DG_CHECK_STR(dg_res_str(doc, "run.command"), "dbgauge test-session");
    DG_CHECK(dg_res_get(doc, "run.complete") == json_true());
    DG_CHECK_STR(dg_res_str(doc, "run.stop_reason"), "transactions");
    DG_CHECK_INT(dg_res_num(doc, "run.terminals", 0), 2);
    DG_CHECK_INT(dg_res_num(doc, "run.transactions_per_terminal", 0), 40);
    DG_CHECK(json_array_size(dg_res_get(doc, "load.steps")) > 0); /* loaded first */
    /* every measured transaction once: 2 terminals x 40 */
    double done = dg_res_num(doc, "totals.transactions", 0) + dg_res_num(doc, "totals.errors", 0);
    DG_CHECK_INT(done, 80);
    DG_CHECK(dg_res_num(doc, "totals.transactions", 0) > 0);
    const json_t *txs = dg_res_get(doc, "transactions");
    DG_CHECK_INT(json_array_size(txs), wl->ntx);
    uint64_t by_type = 0;
    for (size_t i = 0; i < json_array_size(txs); i++)
        by_type += (uint64_t)dg_res_num(json_array_get(txs, i), "count", 0);
    DG_CHECK_INT(by_type, dg_res_num(doc, "totals.transactions", -1));
    /* the intervals: as many as the UI saw, summing to the totals */
    const json_t *ivs = dg_res_get(doc, "intervals");
    DG_CHECK(json_array_size(ivs) >= 1);
    DG_CHECK_INT(json_array_size(ivs), s.intervals);
    double iv_sum = 0;
    for (size_t i = 0; i < json_array_size(ivs); i++)
        iv_sum += dg_res_num(json_array_get(ivs, i), "transactions", 0);
    DG_CHECK_INT(iv_sum, dg_res_num(doc, "totals.transactions", -1));
    DG_CHECK_INT(json_array_size(dg_res_get(doc, "warmup_intervals")), 0);
    DG_CHECK(dg_res_get(doc, "drain") == NULL); /* a count run has no deadline */
    DG_CHECK(json_is_object(dg_res_get(doc, "workload_metrics")));
    DG_CHECK(json_is_object(dg_res_get(doc, "monitor")));
    DG_CHECK(json_is_array(dg_res_get(doc, "errors")));
    DG_CHECK(json_is_array(dg_res_get(doc, "warnings")));
    DG_CHECK_INT(s.begin, 1);
    DG_CHECK(s.begin_had_run);
    DG_CHECK_INT(s.load_begin, 1);
    json_decref(doc);
    dg_workload_free(wl);
}

/* A stop request (what SIGINT does) after the first measured interval ends a run of an
 * hour: its document says it was interrupted. */
static void test_stop_ends_run(void)
{
    dg_workload *wl = open_tables();
    DG_CHECK(wl != NULL);
    if (!wl)
        return;
    dg_session_config cfg;
    dg_session_ui ui;
    seen s;
    char url[512];
    config(&cfg, &ui, &s, url, sizeof url, "load.db", wl);
    cfg.transactions = 0;
    cfg.duration_ns = 3600 * DG_NS_PER_S;
    cfg.interval_ns = 100 * DG_NS_PER_MS;
    s.stop_after = 1;
    json_t *doc = NULL;
    dg_session_stage stage = DG_STAGE_SETUP;
    dg_err err = DG_ERR_INIT;
    int rc = dg_session_run(&cfg, &doc, &stage, &err);
    DG_CHECK_INT(rc, 0); /* an interrupted run still has its document */
    if (rc)
        fprintf(stderr, "  %s\n", err.msg);
    if (doc) {
        DG_CHECK(dg_res_get(doc, "run.complete") == json_false());
        DG_CHECK_STR(dg_res_str(doc, "run.stop_reason"), "interrupted (SIGINT)");
        DG_CHECK(dg_res_num(doc, "totals.duration_s", 3600) < 3600);
        DG_CHECK(json_array_size(dg_res_get(doc, "intervals")) >= 1);
        DG_CHECK(json_is_object(dg_res_get(doc, "drain"))); /* a duration run */
        DG_CHECK(dg_res_get(doc, "load") == NULL);      /* the database was loaded */
    }
    DG_CHECK(s.intervals >= 1);
    DG_CHECK_INT(dg_run_stop_signal(), SIGINT); /* kept for the caller's exit status */
    dg_run_clear_stop();
    DG_CHECK_INT(dg_run_stop_signal(), 0);
    json_decref(doc);
    dg_workload_free(wl);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/dg-session-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    DG_RUN(test_load_doc);
    DG_RUN(test_check_mode); /* after test_load_doc: reads its database */
    DG_RUN(test_run_modes_refused);
    DG_RUN(test_run_doc);
    DG_RUN(test_stop_ends_run); /* after test_load_doc: runs on its database */
    dgt_remove_tree(g_dir);
    DG_TEST_END();
}
