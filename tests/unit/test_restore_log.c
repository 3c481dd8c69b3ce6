/*
 * test_restore_log.c - unit tests of session/restore_log.c (a restore tool's verbose output
 * read into steps: gbak with all, some and none of its -st columns, pg_restore serial and
 * -j, psql's command tags, tools it does not know) and of the restore command's redaction
 * (session/restore.c: dg_restore_argv_redact).
 */
#include "dgtest.h"

#include "session/restore.h"
#include "session/restore_log.h"

#include <stdlib.h>
#include <string.h>

/* Feeds lines (arrival times 100 s apart, so a test can tell gbak's own times from them). */
static void feed(dg_rlog *l, const char *const *lines, double end_s)
{
    for (int i = 0; lines[i]; i++)
        dg_rlog_line(l, lines[i], 100.0 * (i + 1));
    dg_rlog_end(l, end_s);
}

static const dg_rlog_step *find(const dg_rlog *l, const char *name)
{
    for (int i = 0; i < l->nsteps; i++)
        if (!strcmp(l->steps[i].name, name))
            return &l->steps[i];
    return NULL;
}

static void test_detect(void)
{
    const char *a1[] = {"/usr/bin/gbak", "-c", NULL}, *a2[] = {"pg_restore", NULL},
               *a3[] = {"psql", NULL}, *a4[] = {"mariadb", NULL}, *a5[] = {"mysqlimport", NULL},
               *a6[] = {"./restore.sh", NULL}, *a7[] = {"gbakx", NULL};
    DG_CHECK_INT(dg_rlog_detect(a1), DG_RLOG_GBAK);
    DG_CHECK_INT(dg_rlog_detect(a2), DG_RLOG_PG_RESTORE);
    DG_CHECK_INT(dg_rlog_detect(a3), DG_RLOG_PSQL);
    DG_CHECK_INT(dg_rlog_detect(a4), DG_RLOG_MARIADB);
    DG_CHECK_INT(dg_rlog_detect(a5), DG_RLOG_MARIADB);
    DG_CHECK_INT(dg_rlog_detect(a6), DG_RLOG_NONE);
    DG_CHECK_INT(dg_rlog_detect(a7), DG_RLOG_NONE);
    DG_CHECK_STR(dg_rlog_format_name(DG_RLOG_GBAK), "gbak");
    DG_CHECK_STR(dg_rlog_format_name(DG_RLOG_NONE), "none");
}

/* gbak -c -v -st tdrw, as Firebird 3 prints it */
static void test_gbak_full(void)
{
    const char *lines[] = {
        "gbak: time     delta  reads  writes ",
        "gbak:    0.000  0.000      0      0 opened file /b/x.fbk",
        "gbak:    0.098  0.078      0    667 created database h:/d/x.fdb, page_size 8192 bytes",
        "gbak:    0.233  0.000      0      0 committing metadata",
        "gbak:    0.239  0.005      0     93 restoring data for table DOCS_META",
        "gbak:    0.239  0.000      0      0    1 records restored",
        "gbak:    0.239  0.000      0      0     restoring index ORDERS_PKEY",
        "gbak:    0.241  0.000      0      0 restoring data for table ORDERS",
        "gbak:    0.390  0.149      3     40    605 records restored",
        "gbak:    0.391  0.000      0      0     restoring index ACC_PKEY",
        "gbak:    0.577  0.000      0      0 restoring data for table ACCOUNTS",
        "gbak:    1.425  0.848      1     10    10000 records restored",
        "gbak:    2.217  0.792      2     20    20000 records restored",
        "gbak:    2.217  0.000      0      0    20000 records restored",
        "gbak:    2.300  0.083      9      9     restoring index SOMETHING_ELSE",
        "gbak:   60.726  0.006    194     11     activating and creating deferred index ORDERS_PKEY",
        "gbak:   60.871  0.129   4660     81     activating and creating deferred index ACC_PKEY",
        "gbak:   61.294  0.023    209     56     activating and creating deferred index RDB$PRIMARY8",
        "gbak:   61.366  0.009     34     15 finishing, closing, and going home",
        "gbak:   61.366  0.000  17417  17212 total statistics",
        "gbak:adjusting the ONLINE and FORCED WRITES flags",
        NULL,
    };
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_GBAK);
    feed(&l, lines, 9999);
    DG_CHECK_INT(l.ncols, 4);
    DG_CHECK(l.tool_times);
    DG_CHECK_INT(l.nsteps, 6);
    const dg_rlog_step *s = find(&l, "ORDERS");
    DG_CHECK(s != NULL);
    if (s) {
        DG_CHECK_STR(s->kind, "table");
        DG_CHECK_INT(s->rows, 605);
        DG_CHECK_NEAR(s->start_s, 0.241, 1e-9);
        DG_CHECK_NEAR(s->elapsed_s, 0.390, 1e-9);
        DG_CHECK_NEAR(s->seconds, 0.149, 1e-9);
        DG_CHECK_INT(s->page_reads, 3);
        DG_CHECK_INT(s->page_writes, 40);
    }
    s = find(&l, "ACCOUNTS"); /* up to its last records line; the index line after is not its */
    DG_CHECK(s != NULL);
    if (s) {
        DG_CHECK_INT(s->rows, 20000);
        DG_CHECK_NEAR(s->elapsed_s, 2.217, 1e-9);
        DG_CHECK_NEAR(s->seconds, 2.217 - 0.577, 1e-9);
        DG_CHECK_INT(s->page_reads, 3);
        DG_CHECK_INT(s->page_writes, 30);
    }
    s = find(&l, "ACC_PKEY"); /* an index: its line's figures exactly */
    DG_CHECK(s != NULL);
    if (s) {
        DG_CHECK_STR(s->kind, "index");
        DG_CHECK_NEAR(s->elapsed_s, 60.871, 1e-9);
        DG_CHECK_NEAR(s->seconds, 0.129, 1e-9);
        DG_CHECK_INT(s->page_reads, 4660);
        DG_CHECK_INT(s->page_writes, 81);
        DG_CHECK_INT(s->rows, -1);
    }
    s = find(&l, "RDB$PRIMARY8");
    DG_CHECK(s && s->page_writes == 56 && s->elapsed_s == 61.294);
    DG_CHECK(find(&l, "SOMETHING_ELSE") == NULL); /* "restoring index": a definition, no step */
    dg_rlog_free(&l);
}

/* gbak -st td (times only, in another order) and gbak without -st (arrival times) */
static void test_gbak_some_columns(void)
{
    const char *td[] = {
        "gbak: delta time",
        "gbak: 0.010 5.000 restoring data for table T",
        "gbak: 1.500 6.500    7 records restored",
        "gbak: 0.250 7.000 activating and creating deferred index T_PK",
        NULL,
    };
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_GBAK);
    feed(&l, td, 9999);
    DG_CHECK_INT(l.nsteps, 2);
    DG_CHECK(l.tool_times);
    const dg_rlog_step *s = find(&l, "T");
    DG_CHECK(s && s->rows == 7 && s->page_reads == -1 && s->page_writes == -1);
    DG_CHECK(s && s->seconds == 1.5);
    s = find(&l, "T_PK");
    DG_CHECK(s && s->elapsed_s == 7.0 && s->seconds == 0.25 && s->page_reads == -1);
    dg_rlog_free(&l);

    const char *plain[] = {
        "gbak:opened file /b/x.fbk",
        "gbak:restoring data for table T",
        "gbak:   7 records restored",
        "gbak:activating and creating deferred index T_PK",
        NULL,
    };
    dg_rlog_init(&l, DG_RLOG_GBAK);
    feed(&l, plain, 9999);
    DG_CHECK_INT(l.ncols, 0);
    DG_CHECK(!l.tool_times);
    DG_CHECK_INT(l.nsteps, 2);
    s = find(&l, "T"); /* from line 2 (200 s) to line 3 (300 s) */
    DG_CHECK(s && s->start_s == 200 && s->elapsed_s == 300 && s->rows == 7);
    s = find(&l, "T_PK"); /* since the line before */
    DG_CHECK(s && s->elapsed_s == 400 && s->seconds == 100);
    dg_rlog_free(&l);
}

static void test_pg_restore_serial(void)
{
    const char *lines[] = {
        "pg_restore: connecting to database for restore",
        "pg_restore: creating TABLE \"public.t\"",
        "pg_restore: processing data for table \"public.t\"",
        "pg_restore: creating CONSTRAINT \"public.t t_pkey\"",
        "pg_restore: creating INDEX \"public.t_idx\"",
        "pg_restore: creating FK CONSTRAINT \"public.u u_t_fk\"",
        "pg_restore: warning: errors ignored on restore: 0",
        NULL,
    };
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_PG_RESTORE);
    feed(&l, lines, 750);
    DG_CHECK_INT(l.nsteps, 5);
    const dg_rlog_step *s = find(&l, "public.t");
    DG_CHECK(s && !strcmp(s->kind, "table") && s->start_s == 300 && s->elapsed_s == 400 &&
             s->seconds == 100);
    DG_CHECK(find(&l, "TABLE public.t") && !strcmp(find(&l, "TABLE public.t")->kind, "ddl"));
    s = find(&l, "CONSTRAINT public.t t_pkey");
    DG_CHECK(s && !strcmp(s->kind, "constraint"));
    s = find(&l, "INDEX public.t_idx");
    DG_CHECK(s && !strcmp(s->kind, "index") && s->seconds == 100);
    s = find(&l, "FK CONSTRAINT public.u u_t_fk"); /* ends at the warning line */
    DG_CHECK(s && !strcmp(s->kind, "constraint") && s->elapsed_s == 700);
    dg_rlog_free(&l);
}

static void test_pg_restore_parallel(void)
{
    const char *lines[] = {
        "pg_restore: dropping TABLE t",                                   /* 100 */
        "pg_restore: processing item 225 TABLE t",                        /* 200 */
        "pg_restore: creating TABLE \"public.t\"",                        /* 300 */
        "pg_restore: entering main parallel loop",                        /* 400 */
        "pg_restore: launching item 3416 TABLE DATA t",                   /* 500 */
        "pg_restore: launching item 3414 TABLE DATA u",                   /* 600 */
        "pg_restore: processing data for table \"public.u\"",             /* 700 */
        "pg_restore: finished item 3414 TABLE DATA u",                    /* 800 */
        "pg_restore: launching item 3264 CONSTRAINT u u_pkey",            /* 900 */
        "pg_restore: creating CONSTRAINT \"public.u u_pkey\"",            /* 1000 */
        "pg_restore: finished item 3416 TABLE DATA t",                    /* 1100 */
        "pg_restore: finished item 3264 CONSTRAINT u u_pkey",             /* 1200 */
        "pg_restore: launching item 3267 INDEX t_idx",                    /* 1300 */
        "pg_restore: finished main parallel loop",                        /* 1400 */
        NULL,
    };
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_PG_RESTORE);
    feed(&l, lines, 1500);
    DG_CHECK_INT(l.nsteps, 6); /* drop, TABLE t, 2 data, the constraint, the index */
    const dg_rlog_step *s = find(&l, "TABLE t");
    DG_CHECK(s == NULL); /* "processing item" is no step: "creating TABLE" is */
    s = find(&l, "TABLE public.t");
    DG_CHECK(s && s->start_s == 300 && s->elapsed_s == 400);
    s = find(&l, "TABLE DATA t"); /* side by side with u */
    DG_CHECK(s && !strcmp(s->kind, "table") && s->start_s == 500 && s->elapsed_s == 1100 &&
             s->seconds == 600 && s->rows == -1);
    s = find(&l, "TABLE DATA u");
    DG_CHECK(s && s->start_s == 600 && s->elapsed_s == 800);
    s = find(&l, "CONSTRAINT u u_pkey");
    DG_CHECK(s && !strcmp(s->kind, "constraint") && s->seconds == 300);
    s = find(&l, "INDEX t_idx"); /* never finished: ends with the restore */
    DG_CHECK(s && s->elapsed_s == 1500 && s->seconds == 200);
    s = find(&l, "TABLE t");
    DG_CHECK(find(&l, "TABLE t") == NULL);
    DG_CHECK(l.steps[0].kind[0] == 'd' && !strcmp(l.steps[0].kind, "drop"));
    dg_rlog_free(&l);
}

static void test_psql(void)
{
    const char *lines[] = {
        "SET",               /* 100 */
        " set_config ",      /* 200 */
        "(1 row)",           /* 300 */
        "CREATE TABLE",      /* 400 */
        "COPY 100000",       /* 500 */
        "COPY 10",           /* 600 */
        "COPY 1x",           /* 700: not a count */
        "CREATE INDEX",      /* 800 */
        "ALTER TABLE",       /* 900 */
        NULL,
    };
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_PSQL);
    feed(&l, lines, 1000);
    DG_CHECK_INT(l.nsteps, 5);
    const dg_rlog_step *s = find(&l, "COPY #1");
    DG_CHECK(s && s->rows == 100000 && s->start_s == 400 && s->elapsed_s == 500);
    s = find(&l, "COPY #2");
    DG_CHECK(s && s->rows == 10 && s->seconds == 100);
    s = find(&l, "CREATE INDEX #1"); /* since the line before it */
    DG_CHECK(s && !strcmp(s->kind, "index") && s->start_s == 700 && s->elapsed_s == 800);
    DG_CHECK(find(&l, "ALTER TABLE #1") != NULL);
    dg_rlog_free(&l);
}

static void test_unknown_tools(void)
{
    const char *lines[] = {"restoring data for table T", "gbak: 1.0 0.5 restoring data for table T",
                           NULL};
    dg_rlog l;
    dg_rlog_init(&l, DG_RLOG_NONE);
    feed(&l, lines, 10);
    DG_CHECK_INT(l.nsteps, 0);
    dg_rlog_free(&l);
    dg_rlog_init(&l, DG_RLOG_MARIADB);
    feed(&l, lines, 10);
    DG_CHECK_INT(l.nsteps, 0);
    dg_rlog_free(&l);
}

/* Hostile lines: very long, binary, numbers that do not end */
static void test_hostile(void)
{
    char big[5000];
    memset(big, '9', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, "gbak: ", 6);
    char longname[600];
    memset(longname, 'N', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    char line[700];
    snprintf(line, sizeof line, "gbak: 1.0 0.1 1 1 activating and creating deferred index %s", longname);
    const char *lines[] = {"gbak: time delta reads writes", big, "gbak: 1e308 1e308 1 1 x",
                           /* found by fuzz_rlog: a count beyond int64_t, a time of inf */
                           "gbak: 1.0 0.5 55555555555555555555555555555555555555555 1 restoring data for table Y",
                           "gbak: 2.0 1e999 1 1 activating and creating deferred index Z",
                           "gbak:", "gbak: -1 -2 -3 -4 restoring data for table X", line,
                           "gbak: 5 6 7 8    99999999999999999999999 records restored", NULL};
    for (int f = DG_RLOG_NONE; f <= DG_RLOG_MARIADB; f++) {
        dg_rlog l;
        dg_rlog_init(&l, (dg_rlog_format)f);
        feed(&l, lines, 1);
        for (int i = 0; i < l.nsteps; i++)
            DG_CHECK(strlen(l.steps[i].name) < sizeof l.steps[i].name);
        dg_rlog_free(&l);
    }
}

static void test_redact_argv(void)
{
    char *argv[] = {"gbak", "-c", "-user", "SYSDBA", "-PAS", "s3cr3t", "-pa", "other",
                    "fb://u:pw@h/x.fdb", "--password=zz", "/b/s3cr3t.fbk", NULL};
    char **r = dg_restore_argv_redact(argv, "s3cr3t");
    DG_CHECK_STR(r[0], "gbak");
    DG_CHECK_STR(r[3], "SYSDBA");
    DG_CHECK_STR(r[5], "***");
    DG_CHECK_STR(r[6], "-pa"); /* two letters: gbak's -pa is -page_size's, not a password */
    DG_CHECK_STR(r[7], "other");
    DG_CHECK(strstr(r[8], "pw") == NULL);
    DG_CHECK_STR(r[9], "--password=***");
    DG_CHECK_STR(r[10], "/b/***.fbk"); /* the URL's password wherever it occurs */
    DG_CHECK(r[11] == NULL);
    dg_restore_argv_free(r);

    char *my[] = {"mariadb", "-uroot", "-ps3", "-h", "db", "shop", NULL};
    r = dg_restore_argv_redact(my, NULL);
    DG_CHECK_STR(r[1], "-uroot");
    DG_CHECK_STR(r[2], "-p***");
    DG_CHECK_STR(r[5], "shop");
    dg_restore_argv_free(r);

    char *pg[] = {"pg_restore", "-p", "5432", "-d", "postgres://a:b@h/db", NULL};
    r = dg_restore_argv_redact(pg, "");
    DG_CHECK_STR(r[1], "-p"); /* pg_restore's -p is the port */
    DG_CHECK_STR(r[2], "5432");
    DG_CHECK_STR(r[4], "postgres://a:***@h/db");
    dg_restore_argv_free(r);
}

int main(void)
{
    DG_RUN(test_detect);
    DG_RUN(test_gbak_full);
    DG_RUN(test_gbak_some_columns);
    DG_RUN(test_pg_restore_serial);
    DG_RUN(test_pg_restore_parallel);
    DG_RUN(test_psql);
    DG_RUN(test_unknown_tools);
    DG_RUN(test_hostile);
    DG_RUN(test_redact_argv);
    DG_TEST_END();
}
