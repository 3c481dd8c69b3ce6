/*
 * test_dialect.c - unit tests of backend/dialect.c: rendering SQL templates ({int},
 * {numeric P,S}, {varchar N}, {for_update}, {limit N}, {now} ...) into each dialect, the
 * error messages for bad markers, and dg_sql_add_pk.
 *
 * Every dialect is the real one, reached through the registry; a backend this build lacks
 * (the minimal build has none of the servers) is left out of the tables, so the expected
 * renderings check the backends' own facts. Cases where the renderer accepts what
 * dialect.h calls an error are under DG_TEST_KNOWN_BUGS.
 */
#include "dgtest.h"

#include "backend/backend.h"
#include "backend/dialect.h"
#include "core/strbuf.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { D_SQLITE, D_PG, D_MYSQL, D_FB, ND };

static const dg_dialect *dialects[ND];

static const char *const DDL =
    "CREATE TABLE t (a {int}, b {bigint}, c {double}, d {text}, e {timestamp}, f {clob}, "
    "g {numeric 12,2}, h {char 16}, i {varchar 24})";

/* template -> expected rendering in sqlite, postgres, mysql, firebird */
static const struct {
    const char *tmpl;
    const char *want[ND];
} renders[] = {
    {DDL,
     {"CREATE TABLE t (a INTEGER, b INTEGER, c REAL, d TEXT, e TEXT, f TEXT, g NUMERIC, "
      "h TEXT, i TEXT)",
      "CREATE TABLE t (a int, b bigint, c double precision, d text, e timestamp, f text, "
      "g numeric(12,2), h char(16), i varchar(24))",
      "CREATE TABLE t (a INT, b BIGINT, c DOUBLE, d TEXT, e DATETIME(6), f MEDIUMTEXT, "
      "g DECIMAL(12,2), h CHAR(16), i VARCHAR(24))",
      "CREATE TABLE t (a INTEGER, b BIGINT, c DOUBLE PRECISION, d VARCHAR(4000), "
      "e TIMESTAMP, f BLOB SUB_TYPE TEXT, g NUMERIC(12,2), h CHAR(16), i VARCHAR(24))"}},
    {"SELECT c FROM t WHERE k = ?{for_update}",
     {"SELECT c FROM t WHERE k = ?", "SELECT c FROM t WHERE k = ? FOR UPDATE",
      "SELECT c FROM t WHERE k = ? FOR UPDATE", "SELECT c FROM t WHERE k = ? WITH LOCK"}},
    {"SELECT c FROM t ORDER BY c{limit 1}",
     {"SELECT c FROM t ORDER BY c LIMIT 1", "SELECT c FROM t ORDER BY c LIMIT 1",
      "SELECT c FROM t ORDER BY c LIMIT 1", "SELECT c FROM t ORDER BY c ROWS 1"}},
    {"SELECT c FROM t{limit 100}{for_update}",
     {"SELECT c FROM t LIMIT 100", "SELECT c FROM t LIMIT 100 FOR UPDATE",
      "SELECT c FROM t LIMIT 100 FOR UPDATE", "SELECT c FROM t ROWS 100 WITH LOCK"}},
    {"UPDATE t SET ts = {now} WHERE k = ?",
     {"UPDATE t SET ts = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE k = ?",
      "UPDATE t SET ts = now() WHERE k = ?", "UPDATE t SET ts = NOW(6) WHERE k = ?",
      "UPDATE t SET ts = LOCALTIMESTAMP WHERE k = ?"}},
    /* the XML type where there is one, else the large text type */
    {"CREATE TABLE x (doc {xml})",
     {"CREATE TABLE x (doc TEXT)", "CREATE TABLE x (doc xml)", "CREATE TABLE x (doc MEDIUMTEXT)",
      "CREATE TABLE x (doc BLOB SUB_TYPE TEXT)"}},
    /* a column's length in bytes */
    {"SELECT sum({octet_length doc}) FROM x",
     {"SELECT sum(length(CAST(doc AS BLOB))) FROM x",
      "SELECT sum(octet_length(CAST(doc AS text))) FROM x", "SELECT sum(OCTET_LENGTH(doc)) FROM x",
      "SELECT sum(OCTET_LENGTH(doc)) FROM x"}},
    /* an XML-typed column's length: the text form where the dialect has no other */
    {"SELECT sum({xml_octet_length doc}) FROM x",
     {"SELECT sum(length(CAST(doc AS BLOB))) FROM x",
      "SELECT sum(octet_length(CAST(doc AS text))) FROM x", "SELECT sum(OCTET_LENGTH(doc)) FROM x",
      "SELECT sum(OCTET_LENGTH(doc)) FROM x"}},
    /* no markers, empty, adjacent markers, a lone '}' */
    {"SELECT 1", {"SELECT 1", "SELECT 1", "SELECT 1", "SELECT 1"}},
    {"", {"", "", "", ""}},
    {"{int}{bigint}", {"INTEGERINTEGER", "intbigint", "INTBIGINT", "INTEGERBIGINT"}},
    {"SELECT '}'", {"SELECT '}'", "SELECT '}'", "SELECT '}'", "SELECT '}'"}},
    /* spaces after the comma, other sizes */
    {"{numeric 12, 2} {numeric 1,0} {char 1} {varchar 4000}",
     {"NUMERIC NUMERIC TEXT TEXT", "numeric(12,2) numeric(1,0) char(1) varchar(4000)",
      "DECIMAL(12,2) DECIMAL(1,0) CHAR(1) VARCHAR(4000)",
      "NUMERIC(12,2) NUMERIC(1,0) CHAR(1) VARCHAR(4000)"}},
};

static void test_render(void)
{
    for (size_t i = 0; i < sizeof renders / sizeof renders[0]; i++) {
        for (int d = 0; d < ND; d++) {
            if (!dialects[d])
                continue; /* not built */
            dg_strbuf sb = DG_STRBUF_INIT;
            dg_err e = DG_ERR_INIT;
            int rc = dg_sql_render(dialects[d], renders[i].tmpl, &sb, &e);
            DG_CHECK_INT(rc, 0);
            if (rc)
                fprintf(stderr, "  %s: %s\n", dialects[d]->name, e.msg);
            DG_CHECK_STR(dg_sb_str(&sb), renders[i].want[d]);
            dg_sb_free(&sb);
            /* renderx gives the same text */
            char *x = dg_sql_renderx(dialects[d], renders[i].tmpl);
            DG_CHECK_STR(x, renders[i].want[d]);
            free(x);
        }
    }
}

/* Rendering appends to what the buffer holds. */
static void test_render_appends(void)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "CREATE TABLE t (");
    DG_CHECK_INT(dg_sql_render(dialects[D_SQLITE], "a {int}", &sb, NULL), 0);
    DG_CHECK_INT(dg_sql_render(dialects[D_SQLITE], ", b {varchar 8})", &sb, NULL), 0);
    DG_CHECK_STR(dg_sb_str(&sb), "CREATE TABLE t (a INTEGER, b TEXT)");
    dg_sb_free(&sb);
}

static const struct {
    const char *tmpl;
    const char *msg;
} errors[] = {
    {"{foo}", "unknown SQL template marker '{foo}'"},
    {"SELECT {}", "unknown SQL template marker '{}'"},
    {"a {INT}", "unknown SQL template marker '{INT}'"},
    {"{ int }", "unknown SQL template marker '{ int }'"},
    {"{numeric 12}", "unknown SQL template marker '{numeric 12}'"},
    {"{numeric}", "unknown SQL template marker '{numeric}'"},
    {"{char}", "unknown SQL template marker '{char}'"},
    {"{varchar n}", "unknown SQL template marker '{varchar n}'"},
    {"{limit}", "unknown SQL template marker '{limit}'"},
    {"{{int}}", "unknown SQL template marker '{{int}'"},
    {"SELECT 1 {for_update", "unterminated '{' in SQL template: {for_update"},
    {"{", "unterminated '{' in SQL template: {"},
    {"{int} {0123456789012345678901234567890123456789012345678901234567890123}",
     "bad SQL template marker: {0123456789012345678901234567890123456789012345678901234567890123}"},
};

static void test_render_errors(void)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        for (int d = 0; d < ND; d++) {
            if (!dialects[d])
                continue; /* not built */
            dg_strbuf sb = DG_STRBUF_INIT;
            dg_err e = DG_ERR_INIT;
            DG_CHECK_INT(dg_sql_render(dialects[d], errors[i].tmpl, &sb, &e), DG_E_INVAL);
            DG_CHECK_STR(e.msg, errors[i].msg);
            DG_CHECK_INT(e.cls, DG_EC_FATAL);
            dg_sb_free(&sb);
        }
        dg_strbuf sb = DG_STRBUF_INIT;
        DG_CHECK_INT(dg_sql_render(dialects[D_SQLITE], errors[i].tmpl, &sb, NULL), DG_E_INVAL);
        dg_sb_free(&sb);
    }
    /* 63 characters inside the braces is still a marker (unknown), 64 is "bad" */
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_sql_render(dialects[D_SQLITE],
                               "{012345678901234567890123456789012345678901234567890123456789012}",
                               &sb, &e),
                 DG_E_INVAL);
    DG_CHECK_STR(e.msg, "unknown SQL template marker "
                        "'{012345678901234567890123456789012345678901234567890123456789012}'");
    dg_sb_free(&sb);
}

/* dg_sql_renderx aborts on a bad marker (a bug in a built-in workload). */
static void test_renderx_aborts(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 2);
        char *x = dg_sql_renderx(dialects[D_SQLITE], "SELECT {nope}");
        free(x);
        _exit(0);
    }
    DG_CHECK(pid > 0);
    if (pid <= 0)
        return;
    int st = 0;
    DG_CHECK_INT(waitpid(pid, &st, 0), pid);
    DG_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

static void test_add_pk(void)
{
    static const char *const want[ND] = {
        "CREATE UNIQUE INDEX t_pk ON t (a, b)",
        "ALTER TABLE t ADD CONSTRAINT t_pk PRIMARY KEY (a, b)",
        "ALTER TABLE t ADD CONSTRAINT t_pk PRIMARY KEY (a, b)",
        "ALTER TABLE t ADD CONSTRAINT t_pk PRIMARY KEY (a, b)",
    };
    for (int d = 0; d < ND; d++) {
        if (!dialects[d])
            continue; /* not built */
        dg_strbuf sb = DG_STRBUF_INIT;
        dg_sql_add_pk(dialects[d], "t", "t_pk", "a, b", &sb);
        DG_CHECK_STR(dg_sb_str(&sb), want[d]);
        dg_sb_free(&sb);
    }
}

/* Where the key is the storage order (InnoDB) CREATE TABLE declares it and no key is added
 * after the load; elsewhere the table is created bare. MariaDB's loaded tables recompute
 * no statistics while loading (the loader's ANALYZE step sets that back). */
static void test_create_table(void)
{
    static const char *const tmpl = "CREATE TABLE t (a {int} NOT NULL, b {varchar 20})";
    static const char *const want[ND] = {
        "CREATE TABLE t (a INTEGER NOT NULL, b TEXT)",
        "CREATE TABLE t (a int NOT NULL, b varchar(20))",
        "CREATE TABLE t (a INT NOT NULL, b VARCHAR(20), PRIMARY KEY (a)) STATS_AUTO_RECALC=0",
        "CREATE TABLE t (a INTEGER NOT NULL, b VARCHAR(20))",
    };
    for (int d = 0; d < ND; d++) {
        if (!dialects[d])
            continue; /* not built */
        char *sql = dg_sql_create_table(dialects[d], tmpl, "a");
        DG_CHECK_STR(sql, want[d]);
        free(sql);
        DG_CHECK(dg_sql_pk_after_load(dialects[d]) == (d != D_MYSQL));
        sql = dg_sql_create_table(dialects[d], tmpl, NULL); /* no key: never declared */
        DG_CHECK(strstr(sql, "PRIMARY KEY") == NULL);
        DG_CHECK((strstr(sql, "STATS_AUTO_RECALC=0") != NULL) == (d == D_MYSQL));
        DG_CHECK((dialects[d]->after_load_alter != NULL) == (dialects[d]->load_table_options != NULL));
        free(sql);
    }
}

static void test_insert(void)
{
    static const char *const cols[] = {"a", "b", "c"};
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sql_insert("t", cols, 3, &sb);
    DG_CHECK_STR(dg_sb_str(&sb), "INSERT INTO t (a, b, c) VALUES (?, ?, ?)");
    dg_sb_reset(&sb);
    dg_sql_insert("u", cols, 1, &sb);
    DG_CHECK_STR(dg_sb_str(&sb), "INSERT INTO u (a) VALUES (?)");
    dg_sb_free(&sb);
}

/* dg_format_numeric against printf-made text, on edges and on random values. */
static void numeric_ref(int64_t u, int scale, char *out, size_t len)
{
    uint64_t a = u < 0 ? (uint64_t)0 - (uint64_t)u : (uint64_t)u, p = 1;
    for (int i = 0; i < scale; i++)
        p *= 10;
    if (scale == 0)
        snprintf(out, len, "%s%llu", u < 0 ? "-" : "", (unsigned long long)a);
    else
        snprintf(out, len, "%s%llu.%0*llu", u < 0 ? "-" : "", (unsigned long long)(a / p), scale,
                 (unsigned long long)(a % p));
}

static void test_format_numeric(void)
{
    static const struct {
        int64_t u;
        int scale;
        const char *want;
    } cases[] = {
        {0, 0, "0"},         {0, 2, "0.00"},       {5, 2, "0.05"},       {-5, 2, "-0.05"},
        {1234, 2, "12.34"},  {-1234, 2, "-12.34"}, {100, 2, "1.00"},     {7, 0, "7"},
        {-7, 0, "-7"},       {99999999, 4, "9999.9999"},
        {INT64_MAX, 0, "9223372036854775807"},     {INT64_MIN, 0, "-9223372036854775808"},
        {INT64_MIN, 18, "-9.223372036854775808"}, {1, 18, "0.000000000000000001"},
        {42, 25, "0.000000000000000042"}, /* scale clamped to 18 */
    };
    char buf[DG_NUMERIC_BUF];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = dg_format_numeric(cases[i].u, cases[i].scale, buf);
        DG_CHECK_STR(buf, cases[i].want);
        DG_CHECK(n == strlen(cases[i].want));
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    char ref[64];
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t u = (int64_t)(x >> (x & 63)); /* all magnitudes */
        if (x & 0x100)
            u = -u;
        int scale = (int)((x >> 9) % 19);
        dg_format_numeric(u, scale, buf);
        numeric_ref(u, scale, ref, sizeof ref);
        bad += strcmp(buf, ref) != 0;
    }
    DG_CHECK(bad == 0);
    /* dg_value_format goes through it */
    dg_value v = dg_vnumeric(-1234, 2);
    char out[32];
    dg_value_format(&v, out, sizeof out);
    DG_CHECK_STR(out, "-12.34");
}

/* The sqlite dialect facts the renderer does not cover. */
static void test_sqlite_facts(void)
{
    const dg_dialect *d = dialects[D_SQLITE];
    DG_CHECK_STR(d->name, "sqlite");
    DG_CHECK(!d->sized_types);
    DG_CHECK(!d->alter_add_pk);
    DG_CHECK_INT(d->limit_style, DG_LIMIT_LIMIT);
    DG_CHECK_STR(d->for_update, "");
    DG_CHECK(d->max_params > 0);
}

/* The statements that begin a transaction, shared by the native backends and ODBC: every
 * level and access of the server dialects has them, a read-only one says so, a level is
 * named; SQLite and Firebird begin in their own way (NULL). */
static void test_begin(void)
{
    static const char *const levels[4] = {NULL, "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"};
    for (int d = D_PG; d <= D_MYSQL; d++)
        for (int iso = 0; iso < 4 && dialects[d]; iso++) /* NULL: a build without it */
            for (int ro = 0; ro < 2; ro++) {
                const char *const *q = dialects[d]->begin[iso][ro];
                const char *last = q[1] ? q[1] : q[0];
                DG_CHECK(q[0] != NULL);
                DG_CHECK(!strncmp(last, d == D_PG ? "BEGIN" : "START TRANSACTION", 5));
                DG_CHECK((strstr(last, "READ ONLY") != NULL) == (ro == 1));
                if (levels[iso])
                    DG_CHECK(strstr(q[0], levels[iso]) != NULL);
                else
                    DG_CHECK(q[1] == NULL && !strstr(q[0], "ISOLATION"));
            }
    DG_CHECK(dialects[D_SQLITE]->begin[0][0][0] == NULL);
    if (dialects[D_FB])
        DG_CHECK(dialects[D_FB]->begin[0][0][0] == NULL);
}

/* The engine's cache in bytes from its setting as server facts show it. */
static void test_cache_bytes(void)
{
    DG_CHECK_NEAR(dg_cache_bytes("shared_buffers", "128MB", NULL), 134217728.0, 0.5);
    DG_CHECK_NEAR(dg_cache_bytes("shared_buffers", "16GB", NULL), 17179869184.0, 0.5);
    DG_CHECK_NEAR(dg_cache_bytes("shared_buffers", "8192kB", NULL), 8388608.0, 0.5);
    DG_CHECK_NEAR(dg_cache_bytes("shared_buffers", "16384", NULL), 134217728.0, 0.5);
    DG_CHECK(dg_cache_bytes("shared_buffers", "128XB", NULL) < 0);
    DG_CHECK_NEAR(dg_cache_bytes("innodb_buffer_pool_size", "134217728", NULL), 134217728.0, 0.5);
    DG_CHECK(dg_cache_bytes("innodb_buffer_pool_size", "128M", NULL) < 0);
    DG_CHECK_NEAR(dg_cache_bytes("cache_size", "-2000", "4096"), 2048000.0, 0.5);
    DG_CHECK_NEAR(dg_cache_bytes("cache_size", "1000", "4096"), 4096000.0, 0.5);
    DG_CHECK(dg_cache_bytes("cache_size", "1000", NULL) < 0);
    DG_CHECK_NEAR(dg_cache_bytes("page_buffers", "2048", "8192"), 16777216.0, 0.5);
    DG_CHECK(dg_cache_bytes("page_buffers", "", "8192") < 0);
    DG_CHECK(dg_cache_bytes(NULL, "1", NULL) < 0);
    DG_CHECK(dg_cache_bytes("work_mem", "4MB", NULL) < 0);
}

/* The dialects of engines reached only through ODBC (built always), where they differ
 * from the ANSI default: the golden files (test_dialect_golden) hold whole workloads. */
static void test_odbc_only_dialects(void)
{
    static const struct {
        const dg_dialect *d;
        const char *tmpl, *want;
    } cases[] = {
        {&dg_dialect_db2, "SELECT c FROM t ORDER BY c{limit 1}{for_update}",
         "SELECT c FROM t ORDER BY c FETCH FIRST 1 ROWS ONLY WITH RS USE AND KEEP UPDATE LOCKS"},
        {&dg_dialect_db2, "CREATE TABLE x (doc {xml}, t {timestamp}, n {numeric 4,2})",
         "CREATE TABLE x (doc XML, t TIMESTAMP, n DECIMAL(4,2))"},
        {&dg_dialect_db2, "SELECT sum({xml_octet_length doc}), sum({octet_length c}) FROM x",
         "SELECT sum(OCTET_LENGTH(XMLSERIALIZE(doc AS CLOB(16M)))), sum(OCTET_LENGTH(c)) FROM x"},
        {&dg_dialect_cubrid, "SELECT c FROM t ORDER BY c{limit 1}{for_update}",
         "SELECT c FROM t ORDER BY c LIMIT 1 FOR UPDATE"},
        {&dg_dialect_cubrid, "CREATE TABLE x (doc {xml}, t {timestamp}) -- {now}",
         "CREATE TABLE x (doc STRING, t DATETIME) -- SYS_DATETIME"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = dg_sql_renderx(cases[i].d, cases[i].tmpl);
        DG_CHECK_STR(got, cases[i].want);
        free(got);
    }
}

#ifdef DG_TEST_KNOWN_BUGS
/* Known bugs (src/backend/dialect.c): dialect.h says anything but the listed markers is an
 * error, but sscanf() lets trailing junk, a missing space and negative sizes through:
 * "{numeric 12,2junk}" renders as numeric(12,2), "{varchar 16 x}" as varchar(16),
 * "{numeric12,2}" as numeric(12,2), "{limit -1}" as " LIMIT -1". */
static void test_known_bugs(void)
{
    static const char *const lax[] = {"{numeric 12,2junk}", "{varchar 16 x}", "{char 5)}",
                                      "{numeric12,2}", "{limit -1}", "{varchar -3}"};
    for (size_t i = 0; i < sizeof lax / sizeof lax[0]; i++) {
        dg_strbuf sb = DG_STRBUF_INIT;
        /* a dialect with sized types, so the sizes are parsed */
        static const dg_dialect sized = {.name = "sized", .t_numeric = "numeric",
                                         .t_char = "char", .t_varchar = "varchar",
                                         .sized_types = true, .limit_style = DG_LIMIT_LIMIT};
        int rc = dg_sql_render(&sized, lax[i], &sb, NULL);
        if (rc == 0)
            fprintf(stderr, "  \"%s\" rendered as \"%s\"\n", lax[i], dg_sb_str(&sb));
        DG_CHECK_INT(rc, DG_E_INVAL);
        dg_sb_free(&sb);
    }
}
#endif

int main(void)
{
    const dg_backend *sq = dg_backend_for_scheme("sqlite");
    if (!sq || !sq->dialect) {
        fprintf(stderr, "no sqlite backend\n");
        return 1;
    }
    dialects[D_SQLITE] = sq->dialect;
    static const char *const servers[ND] = {[D_PG] = "postgres", [D_MYSQL] = "mysql",
                                            [D_FB] = "firebird"};
    for (int d = D_PG; d < ND; d++) {
        const dg_backend *be = dg_backend_for_scheme(servers[d]);
        dialects[d] = be ? be->dialect : NULL;
        if (!be)
            fprintf(stderr, "  (%s not built: its dialect is left out)\n", servers[d]);
    }
    DG_RUN(test_render);
    DG_RUN(test_render_appends);
    DG_RUN(test_render_errors);
    DG_RUN(test_renderx_aborts);
    DG_RUN(test_add_pk);
    DG_RUN(test_create_table);
    DG_RUN(test_format_numeric);
    DG_RUN(test_insert);
    DG_RUN(test_sqlite_facts);
    DG_RUN(test_begin);
    DG_RUN(test_cache_bytes);
    DG_RUN(test_odbc_only_dialects);
#ifdef DG_TEST_KNOWN_BUGS
    DG_RUN(test_known_bugs);
#endif
    DG_TEST_END();
}
