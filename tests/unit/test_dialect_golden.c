/*
 * test_dialect_golden.c - every SQL statement dbgauge sends for each built-in workload, as
 * the Db2 and CUBRID dialects render it, against a golden file a person checked against
 * the engine's published grammar (tests/fixtures/dialect/<dialect>.sql).
 *
 * Neither engine is in Debian, so no real server checks these dialects in the suite: a
 * recording connection stands in for one. It answers every query with one row (the meta
 * tables' rows a loaded database would hold), says every table exists when asked before a
 * drop, and keeps the text of each statement prepared or run, each bulk load as the
 * one-row INSERT the ODBC backend prepares for it. The workloads then do what `load
 * --drop`, `run` and `check` do: drop, create and fill the tables at a small scale, build
 * keys and indexes, gather statistics, attach, open a terminal (prepare its statements),
 * and run the consistency checks. Where a workload refuses the dialect (tpcc's procedures
 * on an engine without a procedure style dbgauge writes), its message is the golden text.
 *
 * A statement that changes shows as a diff against the file; DG_UPDATE_GOLDEN=1 rewrites
 * it (then read the diff before committing it).
 */
#include "dgtest.h"

#include "backend/backend.h"
#include "backend/dialect.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "workload/docs/docs.h"
#include "workload/loader.h"
#include "workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the recording connection ------------------------------------------------------------- */

typedef struct rec_conn {
    dg_conn base;
    dg_strbuf *log;      /* the section's statements, in first-seen order */
    bool exists;         /* what table_exists says (true while dropping) ... */
    const char *const *known; /* ... of these tables (NULL-ended; NULL: of any) */
    const char *storage; /* the docs storage name docs_meta holds */
} rec_conn;

typedef struct rec_stmt {
    dg_stmt base;
    int row;   /* 0 before the first fetch, 1 on the row, 2 after it */
    bool query;
    const char *const *answer; /* the row's columns as text; NULL: "1" for every column */
    int nanswer;
} rec_stmt;

/* Appends sql to the log unless it is there already (terminals and loops repeat them). */
static void rec_log(rec_conn *c, const char *sql)
{
    const char *all = dg_sb_str(c->log);
    size_t n = strlen(sql);
    for (const char *p = all; (p = strstr(p, sql)) != NULL; p++)
        if ((p == all || p[-1] == '\n') && !strncmp(p + n, ";\n", 2))
            return;
    dg_sb_printf(c->log, "%s;\n", sql);
}

static const char *const tables_meta_row[] = {"2", "2000", "7"};
static const char *const docs_meta_row_pre[] = {"7", "20", "10"};

static int rec_prepare(dg_conn *conn, const char *sql, dg_stmt **out, dg_err *err)
{
    (void)err;
    rec_conn *c = (rec_conn *)conn;
    rec_log(c, sql);
    rec_stmt *s = xcalloc(1, sizeof *s);
    s->base.conn = conn;
    s->base.sql = xstrdup(sql);
    const char *p = sql;
    while (*p == ' ' || *p == '(')
        p++;
    s->query = !strncmp(p, "SELECT", 6) || !strncmp(p, "select", 6) || !strncmp(p, "WITH", 4) ||
               !strncmp(p, "CALL", 4);
    if (strstr(sql, "FROM tables_meta")) {
        s->answer = tables_meta_row;
        s->nanswer = 3;
    } else if (strstr(sql, "FROM docs_meta")) {
        s->answer = docs_meta_row_pre;
        s->nanswer = 4; /* the storage, the 4th, from the connection */
    }
    *out = &s->base;
    return 0;
}

static void rec_stmt_free(dg_stmt *st)
{
    free(st->sql);
    free(st);
}

static int rec_execute(dg_stmt *st, const dg_value *params, int n, dg_err *err)
{
    (void)params, (void)n, (void)err;
    ((rec_stmt *)st)->row = 0;
    return 0;
}

static int rec_fetch(dg_stmt *st, dg_err *err)
{
    (void)err;
    rec_stmt *s = (rec_stmt *)st;
    if (!s->query || s->row >= 1) {
        s->row = 2;
        return 0;
    }
    s->row = 1;
    return 1;
}

static int rec_ncols(dg_stmt *st)
{
    (void)st;
    return 8;
}

static const char *rec_colname(dg_stmt *st, int i)
{
    (void)st, (void)i;
    return "c";
}

static void rec_column(dg_stmt *st, int i, dg_value *out)
{
    rec_stmt *s = (rec_stmt *)st;
    const char *v = "1";
    if (s->answer && i < s->nanswer)
        v = i < 3 ? s->answer[i] : ((rec_conn *)st->conn)->storage;
    char *end = NULL;
    long long x = strtoll(v, &end, 10);
    *out = *end ? dg_vtext(v, strlen(v)) : dg_vint(x);
}

static int64_t rec_affected(dg_stmt *st)
{
    (void)st;
    return 1;
}

static void rec_reset(dg_stmt *st) { ((rec_stmt *)st)->row = 2; }

static int rec_exec(dg_conn *conn, const char *sql, dg_err *err)
{
    (void)err;
    rec_log((rec_conn *)conn, sql);
    return 0;
}

static int rec_tx(dg_conn *conn, dg_err *err)
{
    (void)conn, (void)err;
    return 0;
}

static int rec_begin(dg_conn *conn, const dg_txopts *tx, dg_err *err)
{
    (void)tx;
    return rec_tx(conn, err);
}

static int rec_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                          dg_bulk **out, dg_err *err)
{
    (void)err;
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sql_insert(table, cols, ncols, &sb);
    rec_log((rec_conn *)conn, dg_sb_str(&sb));
    dg_sb_free(&sb);
    dg_bulk *b = xcalloc(1, sizeof *b);
    b->conn = conn;
    *out = b;
    return 0;
}

static int rec_bulk_row(dg_bulk *b, const dg_value *vals, dg_err *err)
{
    (void)vals, (void)err;
    b->rows++;
    return 0;
}

static int rec_bulk_end(dg_bulk *b, bool commit, dg_err *err)
{
    (void)commit, (void)err;
    free(b);
    return 0;
}

static int rec_stats(dg_conn *conn, dg_dbstats *out, dg_err *err)
{
    (void)conn, (void)out, (void)err;
    return 0;
}

static int rec_server_info(dg_conn *conn, dg_server_info *out, dg_err *err)
{
    (void)conn, (void)err;
    memset(out, 0, sizeof *out);
    return 0;
}

static int rec_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err)
{
    (void)err;
    rec_conn *c = (rec_conn *)conn;
    *out = c->exists && !c->known;
    for (int i = 0; c->exists && c->known && c->known[i]; i++)
        if (!strcmp(c->known[i], table))
            *out = true;
    return 0;
}

static void rec_interrupt(dg_conn *conn) { (void)conn; }
static void rec_close(dg_conn *conn) { (void)conn; }

static const dg_backend rec_backend = {
    .name = "odbc",
    .caps = DG_CAP_BULK_ATOMIC | DG_CAP_CONCURRENT_WRITERS,
    .close = rec_close,
    .prepare = rec_prepare,
    .stmt_free = rec_stmt_free,
    .execute = rec_execute,
    .fetch = rec_fetch,
    .ncols = rec_ncols,
    .colname = rec_colname,
    .column = rec_column,
    .affected = rec_affected,
    .reset = rec_reset,
    .exec = rec_exec,
    .begin = rec_begin,
    .commit = rec_tx,
    .rollback = rec_tx,
    .bulk_begin = rec_bulk_begin,
    .bulk_row = rec_bulk_row,
    .bulk_end = rec_bulk_end,
    .stats = rec_stats,
    .server_info = rec_server_info,
    .table_exists = rec_table_exists,
    .interrupt = rec_interrupt,
};

/* ---- the workloads' statements --------------------------------------------------------- */

typedef struct wl_case {
    const char *title;   /* the section's name */
    const char *name;    /* workload name */
    double scale;        /* --scale */
    int tables;          /* --tables */
    const char *option;  /* one --wl-opt NAME=VALUE, or NULL */
    bool run_only;       /* loaded as the case before: its run alone */
} wl_case;

static const wl_case cases[] = {
    {"tpcb", "tpcb", 1, 0, NULL, false},
    {"tpcc", "tpcc", 1, 0, NULL, false},
    {"tpcc, procedures=1", "tpcc", 1, 0, "procedures=1", true},
    {"tables", "tables", 2000, 2, NULL, false},
    {"docs", "docs", 0.0002, 0, "securities=10", false}, /* 20 customers */
};

static void check_report(void *arg, const dg_check_result *r)
{
    (void)arg, (void)r;
}

/* A workload's refusal, without what it says of this build ("(this build has them for
 * postgres, mysql and firebird)": the minimal build has no server backend). */
static void refused(dg_strbuf *out, const char *msg)
{
    const char *cut = strstr(msg, " (this build");
    dg_sb_printf(out, "-- refused: %.*s\n", cut ? (int)(cut - msg) : (int)strlen(msg), msg);
}

/* load --drop: every table of the workload found dropped, then the load. */
static void render_load(dg_workload *wl, rec_conn *c, dg_strbuf *out)
{
    dg_err err = DG_ERR_INIT;
    c->known = wl->tables;
    c->exists = true;
    int rc = wl->ops->drop(wl, &c->base, &err);
    DG_CHECK_INT(rc, 0);
    c->exists = false;
    dg_loader ld;
    memset(&ld, 0, sizeof ld);
    ld.conn = &c->base;
    ld.jobs = 1;
    ld.seed = 7;
    ld.scale = wl->scale;
    dg_loader_init(&ld);
    if (rc == 0)
        rc = wl->ops->load(wl, &ld, &err);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "%s: load: %s\n", wl->name, err.msg);
    dg_sb_printf(out, "-- load (drop, create, fill, keys and indexes, statistics)\n%s",
                 dg_sb_str(c->log));
    dg_sb_reset(c->log);
}

/* Appends one workload's statements, section by section, to out. */
static void render_case(const dg_dialect *d, const wl_case *wc, dg_strbuf *out)
{
    rec_conn c;
    memset(&c, 0, sizeof c);
    c.base.be = &rec_backend;
    c.base.dialect = d;
    c.base.caps = rec_backend.caps;
    dg_strbuf log = DG_STRBUF_INIT;
    c.log = &log;
    c.storage = dg_docs_storage_name(dg_docs_native_storage(d));

    dg_setting opt = {NULL, NULL};
    char optbuf[64];
    dg_wl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = wc->name;
    cfg.scale = (int64_t)wc->scale;
    cfg.scale_factor = wc->scale;
    cfg.seed = 7;
    cfg.tables = wc->tables;
    if (wc->option) {
        snprintf(optbuf, sizeof optbuf, "%s", wc->option);
        char *eq = strchr(optbuf, '=');
        *eq = '\0';
        opt.name = optbuf;
        opt.value = eq + 1;
        cfg.options = &opt;
        cfg.noptions = 1;
    }
    dg_workload *wl = NULL;
    dg_err err = DG_ERR_INIT;
    int rc = dg_workload_open(&cfg, &wl, &err);
    DG_CHECK_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "%s: %s\n", wc->title, err.msg);
        dg_sb_free(&log);
        return;
    }
    dg_sb_printf(out, "\n-- ==== %s\n", wc->title);
    if (wl->ops->usable && (rc = wl->ops->usable(wl, &c.base, &err)) != 0) {
        refused(out, err.msg);
        dg_workload_free(wl);
        dg_sb_free(&log);
        return;
    }

    if (!wc->run_only)
        render_load(wl, &c, out);
    /* run: attach, the run's set-up, a terminal's statements, the run's end */
    c.exists = true;
    c.known = NULL;
    rc = wl->ops->attach ? wl->ops->attach(wl, &c.base, &err) : 0;
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "%s: attach: %s\n", wc->title, err.msg);
    if (rc == 0 && wl->ops->run_begin && (rc = wl->ops->run_begin(wl, &c.base, &err)) != 0)
        refused(&log, err.msg);
    if (rc == 0) {
        dg_prng rng;
        dg_prng_seed(&rng, 7);
        dg_term tm = {.id = 0, .nterminals = 1, .conn = &c.base, .rng = &rng, .scale = wl->scale};
        void *state = NULL;
        rc = wl->ops->term_open(wl, &tm, &state, &err);
        DG_CHECK_INT(rc, 0);
        if (rc)
            fprintf(stderr, "%s: terminal: %s\n", wc->title, err.msg);
        else
            wl->ops->term_close(state);
    }
    if (rc == 0 && wl->ops->run_end)
        DG_CHECK_INT(rc = wl->ops->run_end(wl, &c.base, &err), 0);
    dg_sb_printf(out, "-- run (attach, a terminal's statements)\n%s", dg_sb_str(&log));
    dg_sb_reset(&log);

    if (wl->ops->check && !wc->run_only) { /* run_only: the case before checked it */
        /* the answers are no database's: the checks' verdicts mean nothing, their SQL is
           the point */
        (void)wl->ops->check(wl, &c.base, check_report, NULL, &err);
        dg_sb_printf(out, "-- check\n%s", dg_sb_str(&log));
    }
    dg_workload_free(wl);
    dg_sb_free(&log);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    dg_strbuf sb = DG_STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        dg_sb_addn(&sb, buf, n);
    fclose(f);
    char *s = xstrdup(dg_sb_str(&sb));
    dg_sb_free(&sb);
    return s;
}

/* The first line where a and b differ, both shown. */
static void show_diff(const char *path, const char *want, const char *got)
{
    int line = 1;
    const char *a = want, *b = got;
    while (*a && *a == *b) {
        if (*a == '\n')
            line++;
        a++, b++;
    }
    const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
    fprintf(stderr, "%s:%d: differs\n  golden:   %.*s\n  rendered: %.*s\n", path, line,
            ea ? (int)(ea - a) : (int)strlen(a), a, eb ? (int)(eb - b) : (int)strlen(b), b);
}

static void golden(const dg_dialect *d, const char *file)
{
    dg_strbuf out = DG_STRBUF_INIT;
    dg_sb_printf(&out,
                 "-- The SQL dbgauge sends to %s for each built-in workload, through ODBC, as\n"
                 "-- its dialect (src/backend/dialect_%s.c) renders it: rendered by\n"
                 "-- tests/unit/test_dialect_golden.c, checked by a person against the engine's\n"
                 "-- published grammar; DG_UPDATE_GOLDEN=1 rewrites it.\n",
                 d->name, d->name);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        render_case(d, &cases[i], &out);
    const char *dir = getenv("DG_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/dialect/%s", dir ? dir : "tests/fixtures", file);
    const char *upd = getenv("DG_UPDATE_GOLDEN");
    if (upd && *upd && strcmp(upd, "0")) {
        FILE *f = fopen(path, "wb");
        DG_CHECK(f != NULL);
        if (f) {
            fputs(dg_sb_str(&out), f);
            DG_CHECK(fclose(f) == 0);
        }
    } else {
        char *want = read_all(path);
        DG_CHECK(want != NULL);
        if (want && strcmp(want, dg_sb_str(&out)))
            show_diff(path, want, dg_sb_str(&out));
        DG_CHECK(want && !strcmp(want, dg_sb_str(&out)));
        free(want);
    }
    dg_sb_free(&out);
}

static void test_db2(void) { golden(&dg_dialect_db2, "db2.sql"); }
static void test_cubrid(void) { golden(&dg_dialect_cubrid, "cubrid.sql"); }

int main(void)
{
    DG_RUN(test_db2);
    DG_RUN(test_cubrid);
    DG_TEST_END();
}
