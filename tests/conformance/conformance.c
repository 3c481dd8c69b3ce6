/*
 * conformance.c - one body of backend checks run against every database.
 *
 * usage: dg_conformance URL [TEST...]   (all checks, or only the named test_* functions)
 *
 * Each check talks to the real database behind URL through backend.h only, so the same
 * expectations hold for SQLite, PostgreSQL, MariaDB and Firebird: URL handling and password
 * redaction, typed parameters and NULLs round-tripping, transactions, snapshot reads,
 * result reading (partial fetch and reset, long values), bulk load, statistics, server
 * facts, and error classes provoked for real (bad SQL, unique violation, a deadlock and a
 * serialization failure between two connections where the database has them); the
 * backend's option table (every entry well-formed and enforced when connecting) and the
 * helpers backends share (password scrubbing, the monitor's reconnect policy).
 * Tables are named dgc_* and dropped before and after.
 */
#include "backend/backend.h"
#include "backend/dialect.h"
#include "core/clock.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include "dgtest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

static const char *url;

static dg_conn *connect_or_die(void)
{
    dg_conn *c = NULL;
    dg_err e;
    if (dg_connect(url, NULL, &c, &e)) {
        fprintf(stderr, "cannot connect to %s: %s\n", url, e.msg);
        exit(2);
    }
    return c;
}

static int exec_t(dg_conn *c, const char *tmpl)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e;
    int rc = dg_sql_render(c->dialect, tmpl, &sb, &e);
    if (rc == 0)
        rc = dg_exec(c, dg_sb_str(&sb), &e);
    if (rc)
        fprintf(stderr, "  exec failed: %s: %s\n", dg_sb_str(&sb), e.msg);
    dg_sb_free(&sb);
    return rc;
}

static void drop_quietly(dg_conn *c, const char *table)
{
    bool exists = false;
    dg_err e;
    if (dg_table_exists(c, table, &exists, &e) == 0 && exists) {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP TABLE %s", table);
        dg_exec(c, sql, &e);
    }
}

static int64_t count_rows(dg_conn *c, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    int64_t n = -1;
    bool found;
    dg_err e;
    if (dg_query_int(c, sql, NULL, 0, &n, &found, &e))
        fprintf(stderr, "  count failed: %s\n", e.msg);
    return n;
}

static void test_url_redaction(void)
{
    dg_conn *c = connect_or_die();
    DG_CHECK(c->url_redacted != NULL);
    /* a password in the URL never shows in what we print */
    dg_url u;
    dg_err e;
    if (dg_url_parse(url, &u, &e) == 0) {
        if (u.password && *u.password) {
            /* a password that is also the user or database name shows as those; then it
             * must at least not show in the password's place */
            char needle[256];
            bool public_name = (u.user && !strcmp(u.user, u.password)) ||
                               (u.path && !strcmp(u.path, u.password));
            snprintf(needle, sizeof needle, public_name ? ":%s@" : "%s", u.password);
            DG_CHECK(strstr(c->url_redacted, needle) == NULL);
            DG_CHECK(strstr(c->url_redacted, "***") != NULL);
        }
        dg_url_free(&u);
    }
    char *r = dg_url_redact("postgres://bob:s3cret@h:5432/db?password=s3cret");
    DG_CHECK(strstr(r, "s3cret") == NULL);
    free(r);
    dg_conn_close(c);
}

/* The backend's option table: well-formed, its checks enforced by dg_connect, unknown names
 * refused (with the list of known ones) unless the backend passes them on. */
static void test_options(void)
{
    dg_url u;
    dg_err e;
    if (dg_url_parse(url, &u, &e) != 0) {
        DG_CHECK(false);
        return;
    }
    const dg_backend *be = dg_backend_for_scheme(u.scheme);
    dg_url_free(&u);
    DG_CHECK(be != NULL && be->options != NULL);
    if (!be || !be->options)
        return;
    for (const dg_backend_option *o = be->options; o->name; o++) {
        DG_CHECK(o->help && *o->help);
        DG_CHECK(dg_backend_option_find(be, o->name) == o);
        if (!strcmp(o->type, "int")) {
            char v[32];
            DG_CHECK(o->min <= o->max);
            snprintf(v, sizeof v, "%lld", o->min);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, v, NULL), 0);
            if (o->max == LLONG_MAX) /* one past the type's limit, written out */
                snprintf(v, sizeof v, "9223372036854775808");
            else
                snprintf(v, sizeof v, "%lld", o->max + 1);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, v, &e), DG_E_INVAL);
            DG_CHECK(strstr(e.msg, "expected an integer") != NULL);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, "12abc", NULL), DG_E_INVAL);
        } else if (!strcmp(o->type, "bool")) {
            DG_CHECK_INT(dg_backend_option_check(be, o->name, "on", NULL), 0);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, "0", NULL), 0);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, "maybe", NULL), DG_E_INVAL);
        } else if (!strcmp(o->type, "enum")) {
            DG_CHECK(o->values && *o->values);
            char first[64];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(o->values, "|"), o->values);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, first, NULL), 0);
            DG_CHECK_INT(dg_backend_option_enum(o, first), 0);
            DG_CHECK_INT(dg_backend_option_check(be, o->name, "dgc-none", &e), DG_E_INVAL);
            DG_CHECK(strstr(e.msg, first) != NULL);
        } else {
            DG_CHECK_STR(o->type, "text");
            if (o->max > 0) {
                char *v = calloc(1, (size_t)o->max + 2);
                memset(v, 'x', (size_t)o->max + 1);
                DG_CHECK_INT(dg_backend_option_check(be, o->name, v, &e), DG_E_INVAL);
                DG_CHECK(strstr(e.msg, v) == NULL); /* a text value (a password?) never shows */
                free(v);
            }
        }
    }
    int rc = dg_backend_option_check(be, "dgc_no_such_setting", "1", &e);
    if (be->other_options) {
        DG_CHECK_INT(rc, 0);
    } else {
        DG_CHECK_INT(rc, DG_E_INVAL);
        DG_CHECK(e.cls == DG_EC_USER);
        for (const dg_backend_option *o = be->options; o->name; o++)
            DG_CHECK(strstr(e.msg, o->name) != NULL);
    }
    /* dg_connect enforces the table: the first option with a value that cannot be valid */
    for (const dg_backend_option *o = be->options; o->name; o++) {
        if (!strcmp(o->type, "text"))
            continue;
        dg_setting bad = {o->name, "dgc-not-a-value"};
        dg_connopts opts = {.settings = &bad, .nsettings = 1};
        dg_conn *c = NULL;
        DG_CHECK_INT(dg_connect(url, &opts, &c, &e), DG_E_INVAL);
        DG_CHECK(c == NULL && e.cls == DG_EC_USER && strstr(e.msg, o->name) != NULL);
        break;
    }
}

static int fake_calls, fake_reopens;
static int fake_lost(dg_conn *c, void *arg, dg_err *err)
{
    fake_calls++;
    return dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08006", "server closed the connection");
}
static int fake_reopen(dg_conn *c, dg_err *err)
{
    fake_reopens++;
    return 0;
}

/* What the backends share: the password never survives in a message, and the monitor
 * reconnects after a lost connection but never inside a transaction. */
static void test_shared_helpers(void)
{
    dg_err e = DG_ERR_INIT;
    char *secret = dg_backend_secret("Pw0rdX", "bob", "db");
    snprintf(e.msg, sizeof e.msg, "login failed (password Pw0rdX, again Pw0rdX)");
    dg_backend_scrub(&e, secret);
    DG_CHECK_STR(e.msg, "login failed (password ***, again ***)");
    free(secret);
    DG_CHECK(dg_backend_secret("bob", "bob", "db") == NULL); /* the user name is public */
    DG_CHECK(dg_backend_secret("ab", NULL, NULL) == NULL);

    dg_conn *c = connect_or_die();
    fake_calls = fake_reopens = 0;
    DG_CHECK_INT(dg_backend_with_reconnect(c, true, fake_reopen, fake_lost, NULL, &e), DG_E_DB);
    DG_CHECK_INT(fake_calls, 2); /* tried, reopened, tried again */
    DG_CHECK_INT(fake_reopens, 1);
    c->in_tx = true;
    fake_calls = fake_reopens = 0;
    DG_CHECK_INT(dg_backend_with_reconnect(c, true, fake_reopen, fake_lost, NULL, &e), DG_E_DB);
    DG_CHECK(fake_calls == 1 && fake_reopens == 0 && e.cls == DG_EC_CONN_LOST);
    DG_CHECK_INT(dg_backend_with_reconnect(c, false, fake_reopen, fake_lost, NULL, &e), DG_E_DB);
    DG_CHECK(fake_calls == 1 && fake_reopens == 0 && !strcmp(e.sqlstate, "08003"));
    c->in_tx = false;
    dg_conn_close(c);
}

static void test_types_roundtrip(void)
{
    dg_conn *c = connect_or_die();
    drop_quietly(c, "dgc_types");
    DG_CHECK_INT(exec_t(c, "CREATE TABLE dgc_types (id {int} NOT NULL PRIMARY KEY, i {bigint}, "
                           "d {double}, s {varchar 100}, n {numeric 12,2}, t {timestamp})"),
                 0);
    dg_stmt *ins = NULL, *sel = NULL;
    dg_err e;
    DG_CHECK_INT(dg_prepare(c, "INSERT INTO dgc_types (id, i, d, s, n, t) VALUES (?, ?, ?, ?, ?, ?)",
                            &ins, &e), 0);
    dg_value row1[6] = {dg_vint(1), dg_vint(INT64_C(-9007199254740993)), dg_vdouble(2.5),
                        dg_vstr("héllo 'quoted' \"x\""), dg_vnumeric(-123456, 2),
                        dg_vstr("2024-02-29 13:45:01")};
    dg_value row2[6] = {dg_vint(2), dg_vnull(), dg_vnull(), dg_vnull(), dg_vnull(), dg_vnull()};
    DG_CHECK_INT(dg_execute(ins, row1, 6, &e), 0);
    DG_CHECK_INT(dg_affected(ins), 1);
    DG_CHECK_INT(dg_execute(ins, row2, 6, &e), 0);
    /* the same statement again, each parameter's kind changed back from NULL, a numeric of
     * another scale, and text from one buffer whose bytes grow, then shrink (a backend that
     * keeps its bindings between executions must see each change) */
    char tb[64];
    snprintf(tb, sizeof tb, "ab");
    dg_value row3[6] = {dg_vint(3), dg_vint(7), dg_vdouble(-0.5), dg_vstr(tb), dg_vnumeric(55, 1),
                        dg_vstr("2024-03-01 00:00:00")};
    DG_CHECK_INT(dg_execute(ins, row3, 6, &e), 0);
    snprintf(tb, sizeof tb, "a longer text in the same buffer");
    dg_value row4[6] = {dg_vint(4), dg_vint(8), dg_vdouble(1e10), dg_vstr(tb), dg_vnumeric(-1, 0),
                        dg_vnull()};
    DG_CHECK_INT(dg_execute(ins, row4, 6, &e), 0);
    snprintf(tb, sizeof tb, "x");
    row4[0] = dg_vint(5);
    row4[3] = dg_vstr(tb);
    DG_CHECK_INT(dg_execute(ins, row4, 6, &e), 0);
    {
        dg_stmt *chk = NULL;
        DG_CHECK_INT(dg_prepare(c, "SELECT id, i, d, s, n FROM dgc_types WHERE id >= 3 ORDER BY id",
                                &chk, &e), 0);
        DG_CHECK_INT(dg_execute(chk, NULL, 0, &e), 0);
        static const char *const want_s[] = {"ab", "a longer text in the same buffer", "x"};
        static const double want_n[] = {5.5, -1, -1}, want_d[] = {-0.5, 1e10, 1e10};
        static const int64_t want_i[] = {7, 8, 8};
        for (int r = 0; r < 3; r++) {
            DG_CHECK_INT(dg_fetch(chk, &e), 1);
            dg_value cv;
            int64_t ci = 0;
            double cd = 0;
            char cb[64];
            dg_column(chk, 0, &cv);
            DG_CHECK(dg_value_as_int(&cv, &ci) && ci == 3 + r);
            dg_column(chk, 1, &cv);
            DG_CHECK(dg_value_as_int(&cv, &ci) && ci == want_i[r]);
            dg_column(chk, 2, &cv);
            DG_CHECK(dg_value_as_double(&cv, &cd) && cd == want_d[r]);
            dg_column(chk, 3, &cv);
            dg_value_format(&cv, cb, sizeof cb);
            DG_CHECK_STR(cb, want_s[r]);
            dg_column(chk, 4, &cv);
            DG_CHECK(dg_value_as_double(&cv, &cd) && cd == want_n[r]);
        }
        DG_CHECK_INT(dg_fetch(chk, &e), 0);
        dg_stmt_free(chk);
    }
    DG_CHECK_INT(dg_prepare(c, "SELECT i, d, s, n, t FROM dgc_types WHERE id = ?", &sel, &e), 0);
    dg_value p = dg_vint(1);
    DG_CHECK_INT(dg_execute(sel, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(sel, &e), 1);
    DG_CHECK_INT(dg_ncols(sel), 5);
    dg_value v;
    int64_t iv = 0;
    double dv = 0;
    char buf[128];
    dg_column(sel, 0, &v);
    DG_CHECK(dg_value_as_int(&v, &iv) && iv == INT64_C(-9007199254740993));
    dg_column(sel, 1, &v);
    DG_CHECK(dg_value_as_double(&v, &dv) && dv == 2.5);
    dg_column(sel, 2, &v);
    DG_CHECK(v.type == DG_V_TEXT);
    dg_value_format(&v, buf, sizeof buf);
    DG_CHECK_STR(buf, "héllo 'quoted' \"x\"");
    dg_column(sel, 3, &v);
    DG_CHECK(dg_value_as_double(&v, &dv) && dv == -1234.56);
    dg_column(sel, 4, &v);
    dg_value_format(&v, buf, sizeof buf);
    DG_CHECK(strncmp(buf, "2024-02-29", 10) == 0);
    DG_CHECK_INT(dg_fetch(sel, &e), 0);
    p = dg_vint(2);
    DG_CHECK_INT(dg_execute(sel, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(sel, &e), 1);
    for (int i = 0; i < 5; i++) {
        dg_column(sel, i, &v);
        DG_CHECK_INT(v.type, DG_V_NULL);
    }
    dg_stmt_reset(sel);
    /* a query with no rows */
    p = dg_vint(99);
    DG_CHECK_INT(dg_execute(sel, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(sel, &e), 0);
    dg_stmt_free(sel);
    dg_stmt_free(ins);
    drop_quietly(c, "dgc_types");
    dg_conn_close(c);
}

static void test_transactions(void)
{
    dg_conn *a = connect_or_die();
    dg_conn *b = connect_or_die();
    dg_err e;
    drop_quietly(a, "dgc_tx");
    DG_CHECK_INT(exec_t(a, "CREATE TABLE dgc_tx (id {int} NOT NULL PRIMARY KEY, v {int})"), 0);
    dg_stmt *ins = NULL;
    DG_CHECK_INT(dg_prepare(a, "INSERT INTO dgc_tx (id, v) VALUES (?, ?)", &ins, &e), 0);
    dg_txopts w = {.write = true};
    /* rollback discards */
    DG_CHECK_INT(dg_begin(a, &w, &e), 0);
    dg_value r[2] = {dg_vint(1), dg_vint(10)};
    DG_CHECK_INT(dg_execute(ins, r, 2, &e), 0);
    DG_CHECK_INT(dg_rollback(a, &e), 0);
    DG_CHECK_INT(count_rows(b, "dgc_tx"), 0);
    /* commit is visible to another connection */
    DG_CHECK_INT(dg_begin(a, &w, &e), 0);
    DG_CHECK_INT(dg_execute(ins, r, 2, &e), 0);
    DG_CHECK_INT(dg_commit(a, &e), 0);
    DG_CHECK_INT(count_rows(b, "dgc_tx"), 1);
    /* a repeatable-read transaction keeps its snapshot while another commits */
    dg_txopts rr = {.isolation = DG_ISO_REPEATABLE_READ, .read_only = true};
    DG_CHECK_INT(dg_begin(b, &rr, &e), 0);
    DG_CHECK_INT(count_rows(b, "dgc_tx"), 1);
    r[0] = dg_vint(2);
    DG_CHECK_INT(dg_execute(ins, r, 2, &e), 0); /* autocommit on a */
    DG_CHECK_INT(count_rows(b, "dgc_tx"), 1);
    DG_CHECK_INT(dg_commit(b, &e), 0);
    DG_CHECK_INT(count_rows(b, "dgc_tx"), 2);
    /* unique violation is CONSTRAINT, and the connection stays usable */
    int rc = dg_execute(ins, r, 2, &e);
    DG_CHECK(rc != 0);
    DG_CHECK_INT(e.cls, DG_EC_CONSTRAINT);
    DG_CHECK(e.msg[0] != '\0');
    DG_CHECK_INT(count_rows(a, "dgc_tx"), 2);
    dg_stmt_free(ins);
    drop_quietly(a, "dgc_tx");
    dg_conn_close(b);
    dg_conn_close(a);
}

static void test_errors(void)
{
    dg_conn *c = connect_or_die();
    dg_err e;
    dg_stmt *s = NULL;
    int rc = dg_prepare(c, "SELECT * FROM dgc_no_such_table", &s, &e);
    if (rc == 0) { /* some servers report at execute time */
        rc = dg_execute(s, NULL, 0, &e);
        dg_stmt_free(s);
    }
    DG_CHECK(rc != 0);
    DG_CHECK_INT(e.cls, DG_EC_USER);
    rc = dg_exec(c, "SELEC 1", &e);
    DG_CHECK(rc != 0);
    DG_CHECK_INT(e.cls, DG_EC_USER);
    /* still usable */
    int64_t one = 0;
    bool found = false;
    DG_CHECK_INT(dg_query_int(c, "SELECT count(*) FROM dgc_none_here_either", NULL, 0, &one, &found, &e) != 0, 1);
    dg_conn_close(c);
    /* a database URL of an unknown kind */
    dg_conn *x = NULL;
    DG_CHECK(dg_connect("nosuchdb://h/x", NULL, &x, &e) != 0);
    DG_CHECK(strstr(e.msg, "unknown database type") != NULL);
}

static void test_bulk_and_stats(void)
{
    dg_conn *c = connect_or_die();
    dg_err e;
    drop_quietly(c, "dgc_bulk");
    DG_CHECK_INT(exec_t(c, "CREATE TABLE dgc_bulk (id {int} NOT NULL, name {varchar 40}, "
                           "amount {numeric 8,2}, note {varchar 20})"),
                 0);
    static const char *const cols[] = {"id", "name", "amount", "note"};
    dg_bulk *b = NULL;
    DG_CHECK_INT(dg_bulk_begin(c, "dgc_bulk", cols, 4, &b, &e), 0);
    if (b) {
        for (int i = 1; i <= 20000; i++) {
            char name[40];
            snprintf(name, sizeof name, "name\t%d\\ \"q\" '%d'", i, i);
            dg_value v[4] = {dg_vint(i), dg_vstr(name), dg_vnumeric(i * 7 % 100000, 2),
                             i % 3 ? dg_vnull() : dg_vstr("x")};
            if (dg_bulk_row(b, v, &e)) {
                fprintf(stderr, "  bulk row failed: %s\n", e.msg);
                DG_CHECK(0);
                break;
            }
        }
        DG_CHECK_INT(b->rows, 20000);
        DG_CHECK_INT(dg_bulk_end(b, true, &e), 0);
    }
    DG_CHECK_INT(count_rows(c, "dgc_bulk"), 20000);
    int64_t nnull = -1;
    bool found;
    DG_CHECK_INT(dg_query_int(c, "SELECT count(*) FROM dgc_bulk WHERE note IS NULL", NULL, 0, &nnull, &found, &e), 0);
    DG_CHECK_INT(nnull, 20000 - 20000 / 3);
    dg_stmt *s = NULL;
    DG_CHECK_INT(dg_prepare(c, "SELECT name FROM dgc_bulk WHERE id = ?", &s, &e), 0);
    dg_value p = dg_vint(1234);
    DG_CHECK_INT(dg_execute(s, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(s, &e), 1);
    dg_value v;
    dg_column(s, 0, &v);
    char buf[64];
    dg_value_format(&v, buf, sizeof buf);
    DG_CHECK_STR(buf, "name\t1234\\ \"q\" '1234'");
    dg_stmt_reset(s);
    dg_stmt_free(s);

    dg_dbstats st;
    DG_CHECK_INT(dg_stats(c, &st, &e), 0);
    DG_CHECK(st.db_size_bytes > 0);
    dg_server_info si;
    DG_CHECK_INT(dg_server_info_get(c, &si, &e), 0);
    DG_CHECK(si.version[0] != '\0');
    DG_CHECK(si.nsettings > 0);
    bool exists = false;
    DG_CHECK_INT(dg_table_exists(c, "dgc_bulk", &exists, &e), 0);
    DG_CHECK(exists);
    DG_CHECK_INT(dg_table_exists(c, "dgc_nope", &exists, &e), 0);
    DG_CHECK(!exists);
    /* the table's bytes on disk, where the engine tells them in SQL: 20,000 rows of about
     * 40 bytes are more than 400 KB of data, and an index on the names is some of it (not
     * a unique one on id: InnoDB would make that the table's clustered index) */
    DG_CHECK_INT(exec_t(c, "CREATE INDEX dgc_bulk_name ON dgc_bulk (name)"), 0);
    int64_t data = 0, index = 0;
    int rc = dg_table_bytes(c, "dgc_bulk", &data, &index, &e);
    if (c->dialect->table_bytes_sql) {
        DG_CHECK_INT(rc, 0);
        DG_CHECK(data > 400000 && data < 20000000);
        DG_CHECK(index > 50000 && index <= 2 * data);
    } else {
        DG_CHECK_INT(rc, DG_E_UNSUPPORTED);
        DG_CHECK(data == -1 && index == -1);
    }
    /* a text column's length in bytes: 'name\t1234\\ "q" \'1234\'' is 22 bytes */
    char *sql = dg_sql_renderx(c->dialect, "SELECT {octet_length name} FROM dgc_bulk WHERE id = 1234");
    int64_t len = 0;
    DG_CHECK_INT(dg_query_int(c, sql, NULL, 0, &len, &found, &e), 0);
    DG_CHECK_INT(len, (int64_t)strlen("name\t1234\\ \"q\" '1234'"));
    free(sql);
    drop_quietly(c, "dgc_bulk");
    dg_conn_close(c);
}

/* Result reading: partial fetch then reset leaves the connection usable; re-executing
 * starts from the first row; long values (beyond any initial buffer) and text parameters
 * that are not NUL-terminated at their length round-trip; column names are known. */
/* The bulk path takes the values a loader sends in every form the server would take in a
 * text load: numbers as text, integers into numeric, double and text columns, numerics with
 * their scale, timestamps as text, empty text (not NULL), control characters. On
 * PostgreSQL this is the binary COPY writer (pgcopy), checked against the text format by
 * loading the same rows with ?copy=text too; a value that fits no column is an error that
 * names the column, and leaves the table empty and the connection usable. */
static void bulk_types_load(dg_conn *c)
{
    static const char *const cols[] = {"id", "i", "d", "s", "n", "t", "c"};
    dg_value rows[][7] = {
        {dg_vint(1), dg_vint(INT64_C(-9007199254740993)), dg_vdouble(2.5),
         dg_vstr("tab\t nl\n cr\r bs\\ q' \"x\" \xc3\xa9"), dg_vnumeric(-123456, 2),
         dg_vstr("2024-02-29 13:45:01"), dg_vstr("ab")},
        {dg_vint(2), dg_vnull(), dg_vnull(), dg_vnull(), dg_vnull(), dg_vnull(), dg_vnull()},
        {dg_vint(3), dg_vstr("42"), dg_vint(7), dg_vint(12345), dg_vint(5),
         dg_vstr("2001-12-31 23:59:59"), dg_vstr("abcd")},
        {dg_vint(4), dg_vint(INT64_MAX), dg_vdouble(-0.125), dg_vstr(""), dg_vstr("-0.5"),
         dg_vstr("2000-01-01 00:00:00"), dg_vstr("x")},
        {dg_vint(5), dg_vint(0), dg_vstr("1.5e3"), dg_vnumeric(77, 1), dg_vnumeric(123456789012, 2),
         dg_vstr("2037-06-15 08:09:10"), dg_vstr("")},
    };
    dg_bulk *b = NULL;
    dg_err e;
    DG_CHECK_INT(dg_bulk_begin(c, "dgc_btypes", cols, 7, &b, &e), 0);
    if (!b) {
        fprintf(stderr, "  bulk begin failed: %s\n", e.msg);
        return;
    }
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (dg_bulk_row(b, rows[r], &e)) {
            fprintf(stderr, "  bulk row %zu failed: %s\n", r + 1, e.msg);
            DG_CHECK(0);
        }
    DG_CHECK_INT(dg_bulk_end(b, true, &e), 0);
}

/* column i of the row id as text (trailing blanks of CHAR columns dropped) */
static void bulk_types_get(dg_conn *c, int id, int col, char *buf, size_t len)
{
    static const char *const sql[] = {"SELECT i FROM dgc_btypes WHERE id = ?", "SELECT d FROM dgc_btypes WHERE id = ?",
                                      "SELECT s FROM dgc_btypes WHERE id = ?", "SELECT n FROM dgc_btypes WHERE id = ?",
                                      "SELECT t FROM dgc_btypes WHERE id = ?", "SELECT c FROM dgc_btypes WHERE id = ?"};
    dg_stmt *s = NULL;
    dg_err e;
    snprintf(buf, len, "(failed)");
    if (dg_prepare(c, sql[col], &s, &e))
        return;
    dg_value p = dg_vint(id), v;
    if (dg_execute(s, &p, 1, &e) == 0 && dg_fetch(s, &e) == 1) {
        dg_column(s, 0, &v);
        if (v.type == DG_V_NULL)
            snprintf(buf, len, "NULL");
        else
            dg_value_format(&v, buf, len);
        size_t n = strlen(buf);
        while (col == 5 && n > 0 && buf[n - 1] == ' ')
            buf[--n] = '\0';
    }
    dg_stmt_free(s);
}

static void bulk_types_verify(dg_conn *c)
{
    DG_CHECK_INT(count_rows(c, "dgc_btypes"), 5);
    char buf[128];
    int64_t iv;
    double dv;
    dg_value v;
    /* integers */
    static const struct {
        int id;
        int64_t want;
    } ints[] = {{1, INT64_C(-9007199254740993)}, {3, 42}, {4, INT64_MAX}, {5, 0}};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        bulk_types_get(c, ints[k].id, 0, buf, sizeof buf);
        v = dg_vstr(buf);
        DG_CHECK(dg_value_as_int(&v, &iv) && iv == ints[k].want);
    }
    /* doubles, exactly representable */
    static const struct {
        int id;
        double want;
    } dbl[] = {{1, 2.5}, {3, 7}, {4, -0.125}, {5, 1500}};
    for (size_t k = 0; k < sizeof dbl / sizeof dbl[0]; k++) {
        bulk_types_get(c, dbl[k].id, 1, buf, sizeof buf);
        v = dg_vstr(buf);
        DG_CHECK(dg_value_as_double(&v, &dv) && dv == dbl[k].want);
    }
    /* text: as sent, empty is not NULL, numbers as their text */
    bulk_types_get(c, 1, 2, buf, sizeof buf);
    DG_CHECK_STR(buf, "tab\t nl\n cr\r bs\\ q' \"x\" \xc3\xa9");
    bulk_types_get(c, 3, 2, buf, sizeof buf);
    DG_CHECK_STR(buf, "12345");
    bulk_types_get(c, 4, 2, buf, sizeof buf);
    DG_CHECK_STR(buf, "");
    bulk_types_get(c, 5, 2, buf, sizeof buf);
    DG_CHECK_STR(buf, "7.7");
    bulk_types_get(c, 2, 2, buf, sizeof buf);
    DG_CHECK_STR(buf, "NULL");
    /* numeric(12,2), compared in cents */
    static const struct {
        int id;
        int64_t cents;
    } num[] = {{1, -123456}, {3, 500}, {4, -50}, {5, 123456789012}};
    for (size_t k = 0; k < sizeof num / sizeof num[0]; k++) {
        bulk_types_get(c, num[k].id, 3, buf, sizeof buf);
        v = dg_vstr(buf);
        DG_CHECK(dg_value_as_double(&v, &dv) && (int64_t)(dv * 100 + (dv < 0 ? -0.5 : 0.5)) == num[k].cents);
    }
    /* timestamps to the second */
    static const struct {
        int id;
        const char *want;
    } ts[] = {{1, "2024-02-29 13:45:01"}, {3, "2001-12-31 23:59:59"}, {4, "2000-01-01 00:00:00"},
              {5, "2037-06-15 08:09:10"}};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        bulk_types_get(c, ts[k].id, 4, buf, sizeof buf);
        if (strncmp(buf, ts[k].want, 19) != 0)
            fprintf(stderr, "  timestamp of row %d: %s, expected %s\n", ts[k].id, buf, ts[k].want);
        DG_CHECK(strncmp(buf, ts[k].want, 19) == 0);
    }
    /* char(4) */
    bulk_types_get(c, 1, 5, buf, sizeof buf);
    DG_CHECK_STR(buf, "ab");
    bulk_types_get(c, 3, 5, buf, sizeof buf);
    DG_CHECK_STR(buf, "abcd");
}

static void test_bulk_types(void)
{
    dg_conn *c = connect_or_die();
    dg_err e;
    static const char *ddl = "CREATE TABLE dgc_btypes (id {int} NOT NULL, i {bigint}, d {double}, "
                             "s {varchar 100}, n {numeric 12,2}, t {timestamp}, c {char 4})";
    drop_quietly(c, "dgc_btypes");
    DG_CHECK_INT(exec_t(c, ddl), 0);
    bulk_types_load(c);
    bulk_types_verify(c);
    if (!strcmp(c->be->name, "postgres")) {
        /* the same rows through the text format */
        char *text_url = xmalloc(strlen(url) + 16);
        sprintf(text_url, "%s%scopy=text", url, strchr(url, '?') ? "&" : "?");
        dg_conn *t = NULL;
        DG_CHECK_INT(dg_connect(text_url, NULL, &t, &e), 0);
        free(text_url);
        if (t) {
            DG_CHECK_INT(dg_exec(t, "TRUNCATE dgc_btypes", &e), 0);
            bulk_types_load(t);
            bulk_types_verify(t);
            dg_conn_close(t);
        }
        /* a value that fits no column: an error naming it; nothing loaded */
        DG_CHECK_INT(dg_exec(c, "TRUNCATE dgc_btypes", &e), 0);
        static const char *const cols[] = {"id", "t"};
        dg_bulk *b = NULL;
        DG_CHECK_INT(dg_bulk_begin(c, "dgc_btypes", cols, 2, &b, &e), 0);
        if (b) {
            dg_value ok[2] = {dg_vint(1), dg_vstr("2024-01-01 00:00:00")};
            dg_value bad[2] = {dg_vint(2), dg_vstr("yesterday")};
            DG_CHECK_INT(dg_bulk_row(b, ok, &e), 0);
            DG_CHECK_INT(dg_bulk_row(b, bad, &e), DG_E_INVAL);
            DG_CHECK(strstr(e.msg, "column t: 'yesterday' is not a value of type timestamp") != NULL);
            dg_err e2;
            dg_bulk_end(b, false, &e2);
        }
        DG_CHECK_INT(count_rows(c, "dgc_btypes"), 0);
    }
    drop_quietly(c, "dgc_btypes");
    dg_conn_close(c);
}

static void test_results(void)
{
    dg_conn *c = connect_or_die();
    dg_err e;
    drop_quietly(c, "dgc_res");
    DG_CHECK_INT(exec_t(c, "CREATE TABLE dgc_res (id {int} NOT NULL PRIMARY KEY, s {clob})"), 0);
    dg_stmt *ins = NULL, *all = NULL, *one = NULL;
    DG_CHECK_INT(dg_prepare(c, "INSERT INTO dgc_res (id, s) VALUES (?, ?)", &ins, &e), 0);
    static char big[20001];
    for (int i = 0; i < 20000; i++)
        big[i] = (char)('a' + i % 26);
    const char *partial = "abcdefXYZ"; /* bound with length 6: "abcdef" */
    for (int i = 1; i <= 5; i++) {
        dg_value r[2] = {dg_vint(i), i == 2 ? dg_vtext(partial, 6)
                                     : i == 3 ? dg_vtext(big, 20000)
                                              : dg_vstr("short")};
        DG_CHECK_INT(dg_execute(ins, r, 2, &e), 0);
    }
    DG_CHECK_INT(dg_prepare(c, "SELECT id, s FROM dgc_res ORDER BY id", &all, &e), 0);
    DG_CHECK_INT(dg_prepare(c, "SELECT s FROM dgc_res WHERE id = ?", &one, &e), 0);
    /* partial fetch, reset, another statement, then the first again from its start */
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    DG_CHECK_INT(dg_fetch(all, &e), 1);
    DG_CHECK_INT(dg_ncols(all), 2);
    const char *name = dg_colname(all, 1);
    DG_CHECK(name && (!strcmp(name, "s") || !strcmp(name, "S")));
    dg_stmt_reset(all);
    dg_value p = dg_vint(2), v;
    char buf[64];
    DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(one, &e), 1);
    dg_column(one, 0, &v);
    dg_value_format(&v, buf, sizeof buf);
    DG_CHECK_STR(buf, "abcdef");
    dg_stmt_reset(one);
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    int rows = 0;
    int64_t first = 0;
    while (dg_fetch(all, &e) == 1) {
        if (rows++ == 0) {
            dg_column(all, 0, &v);
            dg_value_as_int(&v, &first);
        }
        dg_column(all, 0, &v);
        int64_t id = 0;
        dg_value_as_int(&v, &id);
        dg_column(all, 1, &v);
        if (id == 3) {
            DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 20000);
            DG_CHECK(v.type == DG_V_TEXT && memcmp(v.u.s.ptr, big, 20000) == 0);
            DG_CHECK(v.type == DG_V_TEXT && v.u.s.ptr[20000] == '\0');
        }
    }
    DG_CHECK_INT(rows, 5);
    DG_CHECK_INT(first, 1);
    /* rows stepped over unread, then a later row's columns, then the next row's: each
     * value is its own row's (backends may move to a row only when it is read) */
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    for (int i = 1; i <= 5; i++) {
        DG_CHECK_INT(dg_fetch(all, &e), 1);
        if (i == 1 || i == 2)
            continue;
        int64_t id = 0;
        dg_column(all, 0, &v);
        DG_CHECK(dg_value_as_int(&v, &id) && id == i);
        if (i == 4) { /* the same column twice, then the other one */
            dg_column(all, 0, &v);
            DG_CHECK(dg_value_as_int(&v, &id) && id == 4);
            dg_column(all, 1, &v);
            DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 5 && !memcmp(v.u.s.ptr, "short", 5));
        }
    }
    DG_CHECK_INT(dg_fetch(all, &e), 0);
    /* all rows stepped over unread: the count is still every row */
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    rows = 0;
    while (dg_fetch(all, &e) == 1)
        rows++;
    DG_CHECK_INT(rows, 5);
    /* the last row only, after the others were skipped */
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    for (int i = 1; i <= 5; i++)
        DG_CHECK_INT(dg_fetch(all, &e), 1);
    dg_column(all, 1, &v);
    DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 5 && !memcmp(v.u.s.ptr, "short", 5));
    dg_column(all, 0, &v);
    int64_t last = 0;
    DG_CHECK(dg_value_as_int(&v, &last) && last == 5);
    dg_stmt_reset(all);
    /* a long value read by the same statement after short ones (buffers grow) */
    p = dg_vint(1);
    DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(one, &e), 1);
    dg_stmt_reset(one);
    p = dg_vint(3);
    DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(one, &e), 1);
    dg_column(one, 0, &v);
    DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 20000 && memcmp(v.u.s.ptr, big, 20000) == 0);
    DG_CHECK_INT(dg_fetch(one, &e), 0);
    /* a result of more rows (backends may keep a small finished result until the next
     * execute and free a large one at once): read in part and reset, other statements,
     * a transaction, then read again to its end, twice */
    for (int i = 6; i <= 300; i++) {
        dg_value r[2] = {dg_vint(i), dg_vstr("more")};
        DG_CHECK_INT(dg_execute(ins, r, 2, &e), 0);
    }
    DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
    for (int i = 0; i < 10; i++)
        DG_CHECK_INT(dg_fetch(all, &e), 1);
    dg_stmt_reset(all);
    p = dg_vint(250);
    DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
    DG_CHECK_INT(dg_fetch(one, &e), 1);
    dg_column(one, 0, &v);
    DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 4 && !memcmp(v.u.s.ptr, "more", 4));
    DG_CHECK_INT(dg_fetch(one, &e), 0);
    DG_CHECK_INT(dg_begin(c, NULL, &e), 0);
    DG_CHECK_INT(dg_commit(c, &e), 0);
    /* discarding the rows left, after some or none were read: the statement is done */
    for (int skip = 0; skip <= 3; skip += 3) {
        DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
        for (int i = 0; i < skip; i++)
            DG_CHECK_INT(dg_fetch(all, &e), 1);
        DG_CHECK_INT(dg_discard(all, &e), 0);
        DG_CHECK_INT(dg_fetch(all, &e), 0);
        DG_CHECK_INT(dg_discard(all, &e), 0);
        dg_stmt_reset(all);
    }
    p = dg_vint(2);
    DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
    DG_CHECK_INT(dg_discard(one, &e), 0);
    dg_stmt_reset(one);
    for (int pass = 0; pass < 2; pass++) {
        DG_CHECK_INT(dg_execute(all, NULL, 0, &e), 0);
        rows = 0;
        int64_t sum = 0;
        while (dg_fetch(all, &e) == 1) {
            int64_t id = 0;
            dg_column(all, 0, &v);
            dg_value_as_int(&v, &id);
            sum += id;
            rows++;
        }
        DG_CHECK_INT(rows, 300);
        DG_CHECK_INT(sum, 300 * 301 / 2);
        p = dg_vint(1);
        DG_CHECK_INT(dg_execute(one, &p, 1, &e), 0);
        DG_CHECK_INT(dg_fetch(one, &e), 1);
        dg_column(one, 0, &v);
        DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 5 && !memcmp(v.u.s.ptr, "short", 5));
        DG_CHECK_INT(dg_fetch(one, &e), 0);
    }
    dg_stmt_free(one);
    dg_stmt_free(all);
    dg_stmt_free(ins);
    drop_quietly(c, "dgc_res");
    dg_conn_close(c);
}

/* Two transactions at SERIALIZABLE both read a row, then both update it: a database with
 * isolation levels and concurrent writers must refuse one of them with a RETRY-class
 * error (serialization failure, or a deadlock where reads take shared locks), commit the
 * other, and the row must show exactly one update. */
typedef struct ser_arg {
    pthread_barrier_t *after_read;
    int rc;
    dg_err err;
} ser_arg;

static void *serialization_side(void *p)
{
    ser_arg *a = p;
    dg_conn *c = connect_or_die();
    dg_stmt *sel = NULL, *upd = NULL;
    dg_err e;
    dg_txopts tx = {.isolation = DG_ISO_SERIALIZABLE, .write = true};
    a->rc = dg_prepare(c, "SELECT v FROM dgc_ser WHERE id = 1", &sel, &a->err);
    if (a->rc == 0)
        a->rc = dg_prepare(c, "UPDATE dgc_ser SET v = v + 1 WHERE id = 1", &upd, &a->err);
    if (a->rc == 0)
        a->rc = dg_begin(c, &tx, &a->err);
    if (a->rc == 0 && (a->rc = dg_execute(sel, NULL, 0, &a->err)) == 0) {
        while (dg_fetch(sel, &a->err) == 1)
            ;
    }
    pthread_barrier_wait(a->after_read); /* both have read before either writes */
    if (a->rc == 0)
        a->rc = dg_execute(upd, NULL, 0, &a->err);
    if (a->rc == 0)
        a->rc = dg_commit(c, &a->err);
    else if (c->in_tx)
        dg_rollback(c, &e);
    dg_stmt_free(sel);
    dg_stmt_free(upd);
    dg_conn_close(c);
    return NULL;
}

static void test_serialization(void)
{
    dg_conn *c = connect_or_die();
    if (!dg_has_cap(c, DG_CAP_CONCURRENT_WRITERS)) {
        dg_conn_close(c);
        fprintf(stderr, "  (a single writer: no serialization test)\n");
        return;
    }
    drop_quietly(c, "dgc_ser");
    DG_CHECK_INT(exec_t(c, "CREATE TABLE dgc_ser (id {int} NOT NULL PRIMARY KEY, v {int})"), 0);
    DG_CHECK_INT(exec_t(c, "INSERT INTO dgc_ser (id, v) VALUES (1, 0)"), 0);
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, 2);
    ser_arg a = {&bar, 0, {0}}, b = {&bar, 0, {0}};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, serialization_side, &a);
    pthread_create(&tb, NULL, serialization_side, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&bar);
    DG_CHECK((a.rc != 0) + (b.rc != 0) == 1);
    const ser_arg *loser = a.rc ? &a : &b;
    DG_CHECK_INT(loser->err.cls, DG_EC_RETRY);
    fprintf(stderr, "  serialization failure reported as: %s [%s]\n", loser->err.msg,
            loser->err.sqlstate);
    int64_t v = -1;
    bool found = false;
    dg_err e;
    DG_CHECK_INT(dg_query_int(c, "SELECT v FROM dgc_ser WHERE id = 1", NULL, 0, &v, &found, &e), 0);
    DG_CHECK_INT(v, 1);
    drop_quietly(c, "dgc_ser");
    dg_conn_close(c);
}

/* Two connections update two rows in opposite orders: a database with row locks and
 * concurrent writers must break the deadlock with a RETRY-class error for one of them. */
typedef struct dl_arg {
    int first, second;
    int rc;
    dg_err err;
    pthread_barrier_t *both_locked; /* each side holds its first row before the second */
} dl_arg;

static void *deadlock_side(void *p)
{
    dl_arg *a = p;
    dg_conn *c = connect_or_die();
    dg_stmt *u = NULL;
    dg_err e;
    a->rc = dg_prepare(c, "UPDATE dgc_dl SET v = v + 1 WHERE id = ?", &u, &a->err);
    dg_txopts w = {.write = true};
    if (a->rc == 0)
        a->rc = dg_begin(c, &w, &a->err);
    dg_value v = dg_vint(a->first);
    if (a->rc == 0)
        a->rc = dg_execute(u, &v, 1, &a->err);
    /* both sides hold their first row now, however slow the other's connect was: the
     * second updates make a cycle for certain */
    pthread_barrier_wait(a->both_locked);
    v = dg_vint(a->second);
    if (a->rc == 0)
        a->rc = dg_execute(u, &v, 1, &a->err);
    if (a->rc == 0)
        a->rc = dg_commit(c, &a->err);
    else if (c->in_tx)
        dg_rollback(c, &e);
    dg_stmt_free(u);
    dg_conn_close(c);
    return NULL;
}

static void test_deadlock(void)
{
    dg_conn *c = connect_or_die();
    if (!dg_has_cap(c, DG_CAP_CONCURRENT_WRITERS)) {
        dg_conn_close(c);
        fprintf(stderr, "  (single-writer database: no deadlock test)\n");
        return;
    }
    drop_quietly(c, "dgc_dl");
    DG_CHECK_INT(exec_t(c, "CREATE TABLE dgc_dl (id {int} NOT NULL PRIMARY KEY, v {int})"), 0);
    DG_CHECK_INT(exec_t(c, "INSERT INTO dgc_dl (id, v) VALUES (1, 0)"), 0);
    DG_CHECK_INT(exec_t(c, "INSERT INTO dgc_dl (id, v) VALUES (2, 0)"), 0);
    pthread_barrier_t both_locked;
    pthread_barrier_init(&both_locked, NULL, 2);
    dl_arg a = {1, 2, 0, {0}, &both_locked}, b = {2, 1, 0, {0}, &both_locked};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, deadlock_side, &a);
    pthread_create(&tb, NULL, deadlock_side, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&both_locked);
    /* exactly one side loses, with a retryable error */
    DG_CHECK((a.rc != 0) + (b.rc != 0) == 1);
    const dl_arg *loser = a.rc ? &a : &b;
    DG_CHECK_INT(loser->err.cls, DG_EC_RETRY);
    fprintf(stderr, "  deadlock reported as: %s [%s]\n", loser->err.msg, loser->err.sqlstate);
    drop_quietly(c, "dgc_dl");
    dg_conn_close(c);
}

/* usage: dg_conformance URL [TEST...]: all checks, or only the named ones */
static bool selected(int argc, char **argv, const char *name)
{
    if (argc <= 2)
        return true;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return false;
}
#define RUN_IF(fn)                                                                           \
    do {                                                                                     \
        if (selected(argc, argv, #fn))                                                       \
            DG_RUN(fn);                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: dg_conformance URL [TEST...]\n");
        return 2;
    }
    url = argv[1];
    RUN_IF(test_url_redaction);
    RUN_IF(test_options);
    RUN_IF(test_shared_helpers);
    RUN_IF(test_types_roundtrip);
    RUN_IF(test_transactions);
    RUN_IF(test_errors);
    RUN_IF(test_results);
    RUN_IF(test_bulk_and_stats);
    RUN_IF(test_bulk_types);
    RUN_IF(test_deadlock);
    RUN_IF(test_serialization);
    DG_TEST_END();
}
