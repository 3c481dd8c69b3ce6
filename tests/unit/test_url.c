/*
 * test_url.c - unit tests of the shared part of backend/backend.c that needs no database:
 * connection URL parsing (dg_url_parse), password redaction (dg_url_redact and the
 * dg_url.redacted field), the backend registry (dg_backend_catalog, dg_backend_lookup,
 * dg_backend_for_scheme) and dg_sql_count_params.
 *
 * Layout: a table of URLs with every parsed field expected (NULL = absent), a table of
 * query parameters, a table of rejected URLs with their exact messages, tables for
 * redaction of URLs (dg_url_redact) and of free text (dg_url_redact_text), the default
 * password, then the registry and the placeholder counter.
 */
#include "dgtest.h"

#include "backend/backend.h"
#include "backend/nodes.h"
#include "core/err.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* NULL-aware string equality, so expected NULL means "absent". */
static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

#define CHECK_OPT_STR(got, want)                                                            \
    do {                                                                                    \
        if (!same_str((got), (want)))                                                       \
            fprintf(stderr, "  %s: got \"%s\", expected \"%s\"\n", #got,                    \
                    (got) ? (got) : "(null)", (want) ? (want) : "(null)");                  \
        DG_CHECK(same_str((got), (want)));                                                  \
    } while (0)

/* ---- URLs that parse -------------------------------------------------------------------- */

static const struct {
    const char *url;
    const char *scheme, *user, *password, *host;
    int port;
    const char *path;
    int nparams;
    const char *redacted;
} good[] = {
    /* sqlite and the other path forms (no "//") */
    {"sqlite:bench.db", "sqlite", NULL, NULL, NULL, 0, "bench.db", 0, "sqlite:bench.db"},
    {"sqlite:/tmp/x.db", "sqlite", NULL, NULL, NULL, 0, "/tmp/x.db", 0, "sqlite:/tmp/x.db"},
    {"sqlite::memory:", "sqlite", NULL, NULL, NULL, 0, ":memory:", 0, "sqlite::memory:"},
    {"sqlite::memory:?cache=shared", "sqlite", NULL, NULL, NULL, 0, ":memory:", 1,
     "sqlite::memory:?cache=shared"},
    {"sqlite3:bench.db", "sqlite", NULL, NULL, NULL, 0, "bench.db", 0, "sqlite3:bench.db"},
    {"SQLite:bench.db", "sqlite", NULL, NULL, NULL, 0, "bench.db", 0, "SQLite:bench.db"},
    {"sqlite:bench.db?journal_mode=wal&synchronous=normal", "sqlite", NULL, NULL, NULL, 0,
     "bench.db", 2, "sqlite:bench.db?journal_mode=wal&synchronous=normal"},
    {"firebird:/var/lib/firebird/bench.fdb", "firebird", NULL, NULL, NULL, 0,
     "/var/lib/firebird/bench.fdb", 0, "firebird:/var/lib/firebird/bench.fdb"},
    {"fb:bench.fdb", "firebird", NULL, NULL, NULL, 0, "bench.fdb", 0, "fb:bench.fdb"},
    {"firebird:localhost/3051:/data/x.fdb", "firebird", NULL, NULL, NULL, 0,
     "localhost/3051:/data/x.fdb", 0, "firebird:localhost/3051:/data/x.fdb"},
    /* postgres and its aliases */
    {"postgres://user:pass@host:5432/db?sslmode=disable&application_name=x", "postgres",
     "user", "pass", "host", 5432, "db", 2,
     "postgres://user:***@host:5432/db?sslmode=disable&application_name=x"},
    {"postgresql://u@h/db", "postgres", "u", NULL, "h", 0, "db", 0, "postgresql://u@h/db"},
    {"PostgreSQL://U@H/DB", "postgres", "U", NULL, "H", 0, "DB", 0, "PostgreSQL://U@H/DB"},
    {"pg://h", "postgres", NULL, NULL, "h", 0, NULL, 0, "pg://h"},
    {"pg://h/", "postgres", NULL, NULL, "h", 0, NULL, 0, "pg://h/"},
    {"postgres://", "postgres", NULL, NULL, NULL, 0, NULL, 0, "postgres://"},
    {"postgres:///db", "postgres", NULL, NULL, NULL, 0, "db", 0, "postgres:///db"},
    {"postgres://h:1/db", "postgres", NULL, NULL, "h", 1, "db", 0, "postgres://h:1/db"},
    {"postgres://h:65535", "postgres", NULL, NULL, "h", 65535, NULL, 0, "postgres://h:65535"},
    {"postgres://:pw@h", "postgres", "", "pw", "h", 0, NULL, 0, "postgres://:***@h"},
    {"postgres://u:@h/db", "postgres", "u", "", "h", 0, "db", 0, "postgres://u:***@h/db"},
    /* a unix socket directory as a percent-encoded host */
    {"postgres://%2Fvar%2Frun%2Fpostgresql/db", "postgres", NULL, NULL, "/var/run/postgresql",
     0, "db", 0, "postgres://%2Fvar%2Frun%2Fpostgresql/db"},
    /* IPv6 literals */
    {"postgres://[::1]:5433/db", "postgres", NULL, NULL, "::1", 5433, "db", 0,
     "postgres://[::1]:5433/db"},
    {"postgres://u:pw@[2001:db8::7]/db", "postgres", "u", "pw", "2001:db8::7", 0, "db", 0,
     "postgres://u:***@[2001:db8::7]/db"},
    {"mysql://[::1]", "mysql", NULL, NULL, "::1", 0, NULL, 0, "mysql://[::1]"},
    /* mysql and mariadb */
    {"mysql://root:secret@127.0.0.1:3306/bench", "mysql", "root", "secret", "127.0.0.1", 3306,
     "bench", 0, "mysql://root:***@127.0.0.1:3306/bench"},
    {"mariadb://root@localhost/bench", "mysql", "root", NULL, "localhost", 0, "bench", 0,
     "mariadb://root@localhost/bench"},
    /* firebird servers: //abs/path, alias, no port */
    {"firebird://SYSDBA:masterkey@localhost:3050//var/lib/firebird/data/bench.fdb",
     "firebird", "SYSDBA", "masterkey", "localhost", 3050, "/var/lib/firebird/data/bench.fdb",
     0, "firebird://SYSDBA:***@localhost:3050//var/lib/firebird/data/bench.fdb"},
    {"firebird://host/employee", "firebird", NULL, NULL, "host", 0, "employee", 0,
     "firebird://host/employee"},
    {"fb://h//db/x.fdb?lock_timeout=5", "firebird", NULL, NULL, "h", 0, "/db/x.fdb", 1,
     "fb://h//db/x.fdb?lock_timeout=5"},
    /* percent-encoding in user, password, path and parameters */
    {"postgres://us%40er:p%40ss%3Aw%2Fd@h/db%20x?opt=a%26b&x%3Dy=1", "postgres", "us@er",
     "p@ss:w/d", "h", 0, "db x", 2, "postgres://us%40er:***@h/db%20x?opt=a%26b&x%3Dy=1"},
    /* an unencoded '@' in the password: the last '@' ends the user info */
    {"postgres://u:p@ss@h/db", "postgres", "u", "p@ss", "h", 0, "db", 0,
     "postgres://u:***@h/db"},
    /* an unencoded ':' in the password: the first ':' ends the user name */
    {"mysql://u:a:b@h:3307/db", "mysql", "u", "a:b", "h", 3307, "db", 0,
     "mysql://u:***@h:3307/db"},
    /* passwords in the query string */
    {"postgres://u@h/db?sslmode=require&password=s3cret&connect_timeout=5", "postgres", "u",
     NULL, "h", 0, "db", 3,
     "postgres://u@h/db?sslmode=require&password=***&connect_timeout=5"},
    {"postgres://u:a@h/db?password=b", "postgres", "u", "a", "h", 0, "db", 1,
     "postgres://u:***@h/db?password=***"},
    /* an '@' after the path is fine when the user info is there */
    {"postgres://u:p@h:5432/x@y", "postgres", "u", "p", "h", 5432, "x@y", 0,
     "postgres://u:***@h:5432/x@y"},
    {"firebird://h//data/x@y.fdb", "firebird", NULL, NULL, "h", 0, "/data/x@y.fdb", 0,
     "firebird://h//data/x@y.fdb"},
    /* the path forms read ?password= too (firebird) */
    {"firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=masterkey", "firebird", NULL,
     NULL, NULL, 0, "localhost/3050:/data/x.fdb", 2,
     "firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=***"},
    /* the path of the path forms is %-decoded like every other part */
    {"sqlite:100%25.db", "sqlite", NULL, NULL, NULL, 0, "100%.db", 0, "sqlite:100%25.db"},
    {"firebird:/data/a%20b.fdb", "firebird", NULL, NULL, NULL, 0, "/data/a b.fdb", 0,
     "firebird:/data/a%20b.fdb"},
    /* an '@' in a path form's path is fine after a '/' (firebird:HOST/PORT:PATH) */
    {"firebird:h/3050:/data/x@y.fdb", "firebird", NULL, NULL, NULL, 0, "h/3050:/data/x@y.fdb",
     0, "firebird:h/3050:/data/x@y.fdb"},
    /* the parser does not judge the scheme: dg_connect() does */
    {"oracle://h/db", "oracle", NULL, NULL, "h", 0, "db", 0, "oracle://h/db"},
};

static void test_parse_good(void)
{
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        dg_url u;
        dg_err e = DG_ERR_INIT;
        int rc = dg_url_parse(good[i].url, &u, &e);
        if (rc != 0) {
            fprintf(stderr, "  url \"%s\": %s\n", good[i].url, e.msg);
            DG_CHECK_INT(rc, 0);
            continue;
        }
        int before = dgt_fail;
        CHECK_OPT_STR(u.scheme, good[i].scheme);
        CHECK_OPT_STR(u.user, good[i].user);
        CHECK_OPT_STR(u.password, good[i].password);
        CHECK_OPT_STR(u.host, good[i].host);
        DG_CHECK_INT(u.port, good[i].port);
        CHECK_OPT_STR(u.path, good[i].path);
        DG_CHECK_INT(u.nparams, good[i].nparams);
        CHECK_OPT_STR(u.redacted, good[i].redacted);
        /* the redacted field is what dg_url_redact gives */
        char *r = dg_url_redact(good[i].url);
        CHECK_OPT_STR(u.redacted, r);
        free(r);
        if (dgt_fail != before)
            fprintf(stderr, "  ^ url \"%s\"\n", good[i].url);
        dg_url_free(&u);
        /* dg_url_free leaves a zeroed struct, and a second free is harmless */
        DG_CHECK(u.scheme == NULL && u.params == NULL && u.nparams == 0 && u.redacted == NULL);
        dg_url_free(&u);
    }
    dg_url_free(NULL);
}

/* ---- query parameters --------------------------------------------------------------------- */

static const struct {
    const char *url;
    int n;
    const char *kv[8]; /* name, value, name, value ... */
} queries[] = {
    {"postgres://h/db?sslmode=disable&application_name=x", 2,
     {"sslmode", "disable", "application_name", "x"}},
    {"sqlite:bench.db?journal_mode=wal&synchronous=normal", 2,
     {"journal_mode", "wal", "synchronous", "normal"}},
    {"sqlite::memory:?cache=shared", 1, {"cache", "shared"}},
    /* empty segments are skipped, an empty value is a value */
    {"postgres://h/db?a=1&&b=", 2, {"a", "1", "b", ""}},
    /* only the first '=' splits */
    {"postgres://h/db?options=-c%20x=y", 1, {"options", "-c x=y"}},
    /* names and values are percent-decoded */
    {"postgres://h/db%20x?opt=a%26b&x%3Dy=1", 2, {"opt", "a&b", "x=y", "1"}},
    {"postgres://h/db?password=s%26cret", 1, {"password", "s&cret"}},
    /* a query right after the host */
    {"mysql://h?ssl=1", 1, {"ssl", "1"}},
    {"postgres://h/db?", 0, {NULL}},
};

static void test_parse_query(void)
{
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        dg_url u;
        int rc = dg_url_parse(queries[i].url, &u, NULL);
        DG_CHECK_INT(rc, 0);
        if (rc)
            continue;
        DG_CHECK_INT(u.nparams, queries[i].n);
        for (int k = 0; k < u.nparams && k < queries[i].n; k++) {
            DG_CHECK_STR(u.params[k].name, queries[i].kv[2 * k]);
            DG_CHECK_STR(u.params[k].value, queries[i].kv[2 * k + 1]);
        }
        dg_url_free(&u);
    }
}

/* ---- URLs that are rejected --------------------------------------------------------------- */

#define NO_SCHEME "': expected SCHEME:..., e.g. sqlite:bench.db or postgres://user@localhost/db"

static const struct {
    const char *url;
    const char *msg;
} bad[] = {
    {"", "invalid database URL '" NO_SCHEME},
    {"bench.db", "invalid database URL 'bench.db" NO_SCHEME},
    {":memory:", "invalid database URL ':memory:" NO_SCHEME},
    {"sqlite:", "invalid database URL 'sqlite:': missing path"},
    {"fb:", "invalid database URL 'fb:': missing path"},
    {"postgres://h:0/db", "invalid database URL 'postgres://h:0/db': bad port"},
    {"postgres://h:65536/db", "invalid database URL 'postgres://h:65536/db': bad port"},
    {"postgres://h:/db", "invalid database URL 'postgres://h:/db': bad port"},
    {"postgres://h:54x/db", "invalid database URL 'postgres://h:54x/db': bad port"},
    {"postgres://h:-1", "invalid database URL 'postgres://h:-1': bad port"},
    {"postgres://h:99999999999999999999",
     "invalid database URL 'postgres://h:99999999999999999999': bad port"},
    {"mysql://[::1]:x/db", "invalid database URL 'mysql://[::1]:x/db': bad port"},
    /* host lists (clusters) */
    {"postgres://u@h1:5432,h2:x/db", "invalid database URL 'postgres://u@h1:5432,h2:x/db': bad port"},
    {"postgres://u@h1,,h2/db",
     "invalid database URL 'postgres://u@h1,,h2/db': an empty host in the host list (expected "
     "h1:p1,h2:p2)"},
    {"mysql://u@,h2/db",
     "invalid database URL 'mysql://u@,h2/db': an empty host in the host list (expected "
     "h1:p1,h2:p2)"},
    {"firebird://h1,h2//x.fdb",
     "invalid database URL 'firebird://h1,h2//x.fdb': several hosts in one URL (a cluster) are "
     "for postgres: and mysql: URLs"},
    {"postgres://u:secret@h1,h2/db?place=near",
     "invalid database URL 'postgres://u:***@h1,h2/db?place=near': ?place= takes terminal "
     "(terminal t on host t mod n, the default), first (the first host that answers, the next "
     "on failure) or random"},
    {"mysql://h1,h2,h3,h4,h5,h6,h7,h8,h9,h10,h11,h12,h13,h14,h15,h16,h17/db",
     "invalid database URL 'mysql://h1,h2,h3,h4,h5,h6,h7,h8,h9,h10,h11,h12,h13,h14,h15,h16,h17/db': "
     "more than 16 hosts in one URL"},
    /* the message shows the URL without its password */
    {"postgres://u:secret@h:99999/db",
     "invalid database URL 'postgres://u:***@h:99999/db': bad port"},
    {"postgres://u:secret@h:0/db?password=other",
     "invalid database URL 'postgres://u:***@h:0/db?password=***': bad port"},
    {"postgres://u:secret@h:0/db?password=other&pass%77ord=other",
     "invalid database URL 'postgres://u:***@h:0/db?password=***&pass%77ord=***': bad port"},
    {"fb:?password=secret", "invalid database URL 'fb:?password=***': missing path"},
    {"sqlite:?mode=ro", "invalid database URL 'sqlite:?mode=ro': missing path"},
    /* IPv6 brackets */
    {"postgres://[::1/db",
     "invalid database URL 'postgres://[::1/db': unclosed '[' in the host (an IPv6 address "
     "is written [::1])"},
    {"postgres://u:secret@[::1",
     "invalid database URL 'postgres://u:***@[::1': unclosed '[' in the host (an IPv6 address "
     "is written [::1])"},
    {"postgres://[::1]junk/db",
     "invalid database URL 'postgres://[::1]junk/db': unexpected text after ']' (expected "
     ":PORT, '/' or '?')"},
    {"mysql://[]:3306", "invalid database URL 'mysql://[]:3306': empty IPv6 address '[]'"},
    /* bad escapes in every decoded part */
#define BAD_ESC " (expected %XX with two hex digits, not %00)"
    {"postgres://u:100%zz@h",
     "invalid database URL 'postgres://u:***@h': bad %-escape in the password" BAD_ESC},
    {"postgres://u:secret%00@h/db",
     "invalid database URL 'postgres://u:***@h/db': bad %-escape in the password" BAD_ESC},
    {"postgres://u:secret%4@h/db",
     "invalid database URL 'postgres://u:***@h/db': bad %-escape in the password" BAD_ESC},
    {"postgres://u%zz:secret@h/db",
     "invalid database URL 'postgres://u%zz:***@h/db': bad %-escape in the user name" BAD_ESC},
    {"postgres://h%2/db", "invalid database URL 'postgres://h%2/db': bad %-escape in the host" BAD_ESC},
    {"postgres://h/db%zz", "invalid database URL 'postgres://h/db%zz': bad %-escape in the path" BAD_ESC},
    {"postgres://h/db%", "invalid database URL 'postgres://h/db%': bad %-escape in the path" BAD_ESC},
    {"postgres://h/db?a%zz=1",
     "invalid database URL 'postgres://h/db?a%zz=1': bad %-escape in a parameter name" BAD_ESC},
    {"postgres://h/db?a=%00",
     "invalid database URL 'postgres://h/db?a=%00': bad %-escape in a parameter value" BAD_ESC},
    {"postgres://h/db?password=secret%zz",
     "invalid database URL 'postgres://h/db?password=***': bad %-escape in a parameter value"
     BAD_ESC},
    {"postgres://h/db?pass%7zord=secret",
     "invalid database URL 'postgres://h/db?pass%7zord=***': bad %-escape in a parameter name"
     BAD_ESC},
    {"sqlite:x.db?password=%zzsecret",
     "invalid database URL 'sqlite:x.db?password=***': bad %-escape in a parameter value"
     BAD_ESC},
    /* a '/' or '?' in a password, unencoded: refused, and the password is not shown */
#define AT_AFTER_HOST                                                                      \
    ": '@' after the host: write a '/' or '?' in a password as %2F or %3F, and an '@' in a " \
    "path or parameter as %40"
    {"postgres://u:se/cret@h/db", "invalid database URL 'postgres://u:***@h/db'" AT_AFTER_HOST},
    {"postgres://u:se?cret@h/db", "invalid database URL 'postgres://u:***@h/db'" AT_AFTER_HOST},
    {"postgres://u:123/secret@h/db", "invalid database URL 'postgres://u:***@h/db'" AT_AFTER_HOST},
    {"mysql://u:12?x=secret@h/db", "invalid database URL 'mysql://u:***@h/db'" AT_AFTER_HOST},
    {"postgres://[::1]:5432/db?x=a@b",
     "invalid database URL 'postgres://[:***@b'" AT_AFTER_HOST},
    /* the path forms decode their path too */
    {"sqlite:b%zz.db", "invalid database URL 'sqlite:b%zz.db': bad %-escape in the path (expected "
     "%XX with two hex digits, not %00; write a '%' as %25)"},
    /* parameters: NAME=VALUE, nothing else */
#define BAD_PARAM(what) ": a parameter without " what " (expected ?NAME=VALUE&NAME=VALUE)"
    {"postgres://h/db?sslmode", "invalid database URL 'postgres://h/db?sslmode'" BAD_PARAM("'='")},
    {"postgres://h/db?a=1&sslmode", "invalid database URL 'postgres://h/db?a=1&sslmode'" BAD_PARAM("'='")},
    {"sqlite:x.db?=x", "invalid database URL 'sqlite:x.db?=x'" BAD_PARAM("a name")},
    /* a fragment */
    {"postgres://u:secret@h/db#frag",
     "invalid database URL 'postgres://u:***@h/db#frag': a '#' (URLs to a database have no "
     "fragment): write a '#' in a password, name or value as %23"},
    {"mysql://u:se#cret@h/db", "invalid database URL 'mysql://u:***@h/db': a '#' (URLs to a "
     "database have no fragment): write a '#' in a password, name or value as %23"},
    /* a label glued to a URL, or user info in a path form: the password is still hidden */
#define GLUED ": a URL after the scheme: a label (NAME:URL) belongs in a --vary list, and no " \
    "label may be a scheme name; write the URL alone"
    {"pg:postgres://u:secret@h/db", "invalid database URL 'pg:postgres://u:***@h/db'" GLUED},
    {"postgresql:postgres://u:secret@h/db",
     "invalid database URL 'postgresql:postgres://u:***@h/db'" GLUED},
    {"fb:firebird://u:secret@h//x.fdb", "invalid database URL 'fb:firebird://u:***@h//x.fdb'" GLUED},
    {"mariadb:mysql://u:secret@h/db", "invalid database URL 'mariadb:mysql://u:***@h/db'" GLUED},
    {"sqlite3:sqlite:x.db?password=secret",
     "invalid database URL 'sqlite3:sqlite:x.db?password=***'" GLUED},
    {"pg:postgres://h/db?password=secret", "invalid database URL 'pg:postgres://h/db?password=***'" GLUED},
    {"firebird:u:secret@h/3050:/x.fdb",
     "invalid database URL 'firebird:***@h/3050:/x.fdb': user info (user:password@) in a path "
     "form: write the password with ?password=, --password-file or DBGAUGE_PASSWORD"},
};

static void test_parse_bad(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dg_url u;
        memset(&u, 0, sizeof u);
        u.port = -42; /* *out is left alone on failure */
        dg_err e = DG_ERR_INIT;
        int rc = dg_url_parse(bad[i].url, &u, &e);
        DG_CHECK_INT(rc, DG_E_INVAL);
        DG_CHECK_INT(u.port, -42);
        DG_CHECK(u.scheme == NULL && u.redacted == NULL);
        DG_CHECK_STR(e.msg, bad[i].msg);
        DG_CHECK_INT(e.cls, DG_EC_FATAL);
        DG_CHECK(strstr(e.msg, "secret") == NULL && strstr(e.msg, "other") == NULL &&
                 strstr(e.msg, "cret") == NULL);
        /* a NULL error record is allowed */
        DG_CHECK_INT(dg_url_parse(bad[i].url, &u, NULL), DG_E_INVAL);
        DG_CHECK_INT(u.port, -42);
    }
}

/* ---- redaction ------------------------------------------------------------------------------ */

static const struct {
    const char *url, *redacted;
} redact[] = {
    {"sqlite:bench.db", "sqlite:bench.db"},
    /* ODBC connection strings: PWD= and Password= (any case), braced or not */
    {"odbc:DSN=shop;UID=u;PWD=s3cret", "odbc:DSN=shop;UID=u;PWD=***"},
    {"odbc:DRIVER={PostgreSQL Unicode};SERVER=h;pwd=s3;DATABASE=x",
     "odbc:DRIVER={PostgreSQL Unicode};SERVER=h;pwd=***;DATABASE=x"},
    {"odbc:DSN=a;Password={se;cr}}et};UID=u", "odbc:DSN=a;Password={***};UID=u"},
    {"odbc:DSN=a; PWD = x ;UID=u", "odbc:DSN=a; PWD =***;UID=u"},
    {"odbc:DSN=a;UID=u", "odbc:DSN=a;UID=u"},
    {"postgres://u:p@h/db", "postgres://u:***@h/db"},
    {"postgres://u@h/db", "postgres://u@h/db"},
    {"postgres://h/db", "postgres://h/db"},
    {"postgres://h/db?password=x", "postgres://h/db?password=***"},
    {"postgres://h/db?password=", "postgres://h/db?password=***"},
    {"postgres://h/db?a=1&password=x&b=2", "postgres://h/db?a=1&password=***&b=2"},
    {"postgres://h?password=x", "postgres://h?password=***"},
    {"postgres://h/db?mypassword=x", "postgres://h/db?mypassword=x"}, /* not a password */
    {"mysql://u:p%40ss@h", "mysql://u:***@h"},
    {"mysql://u:p%3Ass@h", "mysql://u:***@h"},
    {"postgres://u:p@ss@h:5432/db", "postgres://u:***@h:5432/db"},
    {"postgres://u:a:b@h/db", "postgres://u:***@h/db"},
    {"postgres://u:p@h/db?x=a@b", "postgres://u:***@h/db?x=a@b"}, /* '@' after the path */
    {"firebird://SYSDBA:masterkey@host:3050//data/x.fdb",
     "firebird://SYSDBA:***@host:3050//data/x.fdb"},
    {"postgres://u:pw@[::1]:5432/db", "postgres://u:***@[::1]:5432/db"},
    {"postgres://[::1]:5432/db", "postgres://[::1]:5432/db"},
    {"postgres://u:a@h/db?password=b&sslmode=require",
     "postgres://u:***@h/db?password=***&sslmode=require"},
    /* every password parameter, by its decoded name, in every form */
    {"postgres://h/db?password=a&password=b", "postgres://h/db?password=***&password=***"},
    {"postgres://h/db?mypassword=x&password=y", "postgres://h/db?mypassword=x&password=***"},
    {"postgres://h/db?passwd=x", "postgres://h/db?passwd=x"}, /* a server setting, not ours */
    {"postgres://h/db?PassWord=x", "postgres://h/db?PassWord=***"},
    {"postgres://h/db?password", "postgres://h/db?password"}, /* no value, nothing to hide */
    {"firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=masterkey",
     "firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=***"},
    {"firebird:/data/x.fdb?password=masterkey", "firebird:/data/x.fdb?password=***"},
    {"fb:x.fdb?password=", "fb:x.fdb?password=***"},
    {"sqlite:bench.db?password=x&cache_size=5", "sqlite:bench.db?password=***&cache_size=5"},
    {"firebird://h//data/x.fdb?pass%77ord=masterkey", "firebird://h//data/x.fdb?pass%77ord=***"},
    {"firebird://h//data/x.fdb?%70%61%73%73%77%6F%72%64=m", "firebird://h//data/x.fdb?%70%61%73%73%77%6F%72%64=***"},
    {"mysql://u:a@h/db?x=1&password=b", "mysql://u:***@h/db?x=1&password=***"},
    {"oracle://u:p@h/db?mypassword=x", "oracle://u:***@h/db?mypassword=x"},
    /* texts that do not parse: conservative */
    {"postgres://h:54x/db?password=x&mypassword=y",
     "postgres://h:54x/db?password=***&mypassword=***"},
    {"postgres://u:p/q@h/db", "postgres://u:***@h/db"},
    {"oracle:u:p@h", "oracle:***@h"},           /* not a form any backend reads */
    {"u:p@h/db", "u:***@h/db"},
    {"nourl", "nourl"},
    {"", ""},
};

static void test_redact(void)
{
    for (size_t i = 0; i < sizeof redact / sizeof redact[0]; i++) {
        char *r = dg_url_redact(redact[i].url);
        DG_CHECK_STR(r, redact[i].redacted);
        free(r);
    }
}

/* Secrets in a URL that does not parse stay hidden, whichever way it fails; a URL that
 * would silently mean another server is refused. */
static void test_redact_unparsed(void)
{
    static const struct {
        const char *url, *redacted;
    } cases[] = {
        {"postgres://h/db?password=a&password=b", "postgres://h/db?password=***&password=***"},
        {"postgres://h/db?mypassword=x&password=y", "postgres://h/db?mypassword=x&password=***"},
        {"firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=masterkey",
         "firebird:localhost/3050:/data/x.fdb?user=SYSDBA&password=***"},
        {"firebird:/data/x.fdb?password=masterkey", "firebird:/data/x.fdb?password=***"},
        {"firebird://h//data/x.fdb?pass%77ord=masterkey",
         "firebird://h//data/x.fdb?pass%77ord=***"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *r = dg_url_redact(cases[i].url);
        DG_CHECK_STR(r, cases[i].redacted);
        free(r);
        dg_url u;
        if (dg_url_parse(cases[i].url, &u, NULL) == 0) {
            DG_CHECK_STR(u.redacted, cases[i].redacted);
            dg_url_free(&u);
        }
    }

    static const char *const leaky[] = {"postgres://u:se/cret@h/db", "postgres://u:se?cret@h/db"};
    for (size_t i = 0; i < sizeof leaky / sizeof leaky[0]; i++) {
        dg_url u;
        dg_err e = DG_ERR_INIT;
        if (dg_url_parse(leaky[i], &u, &e) == 0) {
            DG_CHECK(strstr(u.redacted, "cret") == NULL);
            dg_url_free(&u);
        } else {
            DG_CHECK(strstr(e.msg, "cret") == NULL);
        }
    }

    dg_url u;
    int rc = dg_url_parse("postgres://[::1/db", &u, NULL);
    DG_CHECK_INT(rc, DG_E_INVAL);
    if (rc == 0)
        dg_url_free(&u);
    rc = dg_url_parse("sqlite:?mode=ro", &u, NULL);
    DG_CHECK_INT(rc, DG_E_INVAL);
    if (rc == 0)
        dg_url_free(&u);
}

/* ---- free text -------------------------------------------------------------------------- */

static const struct {
    const char *text, *redacted;
} texts[] = {
    {"", ""},
    /* a DRIVER name with a space ends the URL-shaped part, whose '{' is then unclosed: it
       is masked conservatively, and PWD= after the space is still a secret */
    {"--db odbc:DRIVER={MariaDB Unicode};SERVER=h;PWD=s3", "--db odbc:DRIVER={*** Unicode};SERVER=h;PWD=***"},
    {"run", "run"},
    {"terminals=1,2,4", "terminals=1,2,4"},
    {"sqlite:bench.db", "sqlite:bench.db"},
    {"echo fb:x {db} > log", "echo fb:x {db} > log"},
    {"--db=postgres://u:s@h/db", "--db=postgres://u:***@h/db"},
    {"db=postgres://u:a@h/db,mysql://u:b@h/db?password=c",
     "db=postgres://u:***@h/db,mysql://u:***@h/db?password=***"},
    {"db=sqlite:a.db,sqlite:b.db", "db=sqlite:a.db,sqlite:b.db"},
    {"db=sqlite:a.db,firebird:h/3050:/p.fdb?password=s,fb:/p.fdb?user=u&password=t",
     "db=sqlite:a.db,firebird:h/3050:/p.fdb?password=***,fb:/p.fdb?user=u&password=***"},
    {"pg16:postgres://u:s@h/db", "pg16:postgres://u:***@h/db"}, /* label:URL */
    /* labelled lists: every URL ends at the ',' before the next label */
    {"db=a1:postgres://u:p1@h/db,b1:postgres://u:p2@h/db,c1:mysql://u:p3@h/db",
     "db=a1:postgres://u:***@h/db,b1:postgres://u:***@h/db,c1:mysql://u:***@h/db"},
    {"db=sqlite:a.db,b-2.x:postgres://h/db?password=p2", "db=sqlite:a.db,b-2.x:postgres://h/db?password=***"},
    /* a scheme as a label: refused by the parser, still hidden */
    {"db=pg:postgres://u:p1@h/db,fb:firebird://u:p2@h//x.fdb",
     "db=pg:postgres://u:***@h/db,fb:firebird://u:***@h//x.fdb"},
    {"db=postgresql:postgres://u:p1@h/db", "db=postgresql:postgres://u:***@h/db"},
    /* user info without a scheme, ODBC-style PWD= */
    {"cannot reach u:pw@h/db", "cannot reach u:***@h/db"},
    {"DRIVER={x};UID=u;PWD=s;SERVER=h", "DRIVER={x};UID=u;PWD=***;SERVER=h"},
    {"mail me@example.com at 10:30", "mail me@example.com at 10:30"},
    {"psql 'postgres://u:s@h/db?sslmode=disable' -c 'select 1'",
     "psql 'postgres://u:***@h/db?sslmode=disable' -c 'select 1'"},
    {"psql \"postgresql://h/db?password=s\"", "psql \"postgresql://h/db?password=***\""},
    {"curl https://u:tok@example.com/x", "curl https://u:***@example.com/x"},
    {"postgres://u:se/cret@h/db", "postgres://u:***@h/db"},
    /* NAME=VALUE outside URLs */
    {"PGPASSWORD=s psql -h h", "PGPASSWORD=*** psql -h h"},
    {"ISC_PASSWORD=s isql x", "ISC_PASSWORD=*** isql x"},
    {"password=s", "password=***"},
    {"conn.password=a,b", "conn.password=***"},
    {"--wl-opt=db_passwd=x&y", "--wl-opt=db_passwd=***&y"},
    {"--password-file=pw.txt", "--password-file=pw.txt"},
    {"mypassword_hint=x", "mypassword_hint=x"},
};

static void test_redact_text(void)
{
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *r = dg_url_redact_text(texts[i].text);
        DG_CHECK_STR(r, texts[i].redacted);
        free(r);
    }
}

/* ---- scrubbing in place ------------------------------------------------------------------ */

static void test_scrub(void)
{
    static const struct {
        const char *text, *scrubbed;
        bool url; /* dg_url_scrub, else dg_url_scrub_text */
    } cases[] = {
        {"postgres://u:pw@h/db", "postgres://u:**@h/db", true},
        {"postgres://u@h/db?password=secret&a=1", "postgres://u@h/db?password=******&a=1", true},
        {"pg:postgres://u:pw@h/db", "pg:postgres://u:**@h/db", true}, /* refused: conservative */
        {"sqlite:x.db", "sqlite:x.db", true},
        {"db=a:postgres://u:p1@h/db,b:mysql://u:p2@h/db", "db=a:postgres://u:**@h/db,b:mysql://u:**@h/db", false},
        {"PGPASSWORD=s3 psql", "PGPASSWORD=** psql", false},
        {"--db=postgres://u:x@h", "--db=postgres://u:*@h", false},
        {"terminals=1,2", "terminals=1,2", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = strdup(cases[i].text);
        if (cases[i].url)
            dg_url_scrub(t);
        else
            dg_url_scrub_text(t);
        DG_CHECK_STR(t, cases[i].scrubbed);
        free(t);
    }
}

/* ---- the default password ----------------------------------------------------------------- */

static void test_default_password(void)
{
    static const struct {
        const char *url, *password;
    } cases[] = {
        {"postgres://u@h/db", "dflt"},
        {"mysql://h", "dflt"},
        {"firebird:/data/x.fdb", "dflt"},
        {"postgres://u:own@h/db", "own"},
        {"postgres://u:@h/db", ""},          /* an empty password is a password */
        {"postgres://h/db?password=q", NULL}, /* the backend reads the parameter */
        {"sqlite:x.db", NULL},                /* no password at all */
    };
    dg_url_set_default_password("dflt");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dg_url u;
        DG_CHECK_INT(dg_url_parse(cases[i].url, &u, NULL), 0);
        CHECK_OPT_STR(u.password, cases[i].password);
        DG_CHECK(strstr(u.redacted, "dflt") == NULL);
        dg_url_free(&u);
    }
    dg_url_set_default_password(NULL);
    dg_url u;
    DG_CHECK_INT(dg_url_parse("postgres://u@h/db", &u, NULL), 0);
    DG_CHECK(u.password == NULL);
    dg_url_free(&u);
}

/* ---- registry ----------------------------------------------------------------------------- */

static void test_catalog(void)
{
    size_t n = 0;
    const dg_backend_entry *cat = dg_backend_catalog(&n);
    DG_CHECK_INT(n, 5);
    if (n != 5)
        return;
    static const char *const names[] = {"sqlite", "postgres", "mysql", "firebird", "odbc"};
    static const char *const packages[] = {"libsqlite3-dev", "libpq-dev", "libmariadb-dev",
                                           "firebird-dev", "unixodbc-dev"};
    static const bool built[] = {
        true,
#ifdef DG_HAVE_POSTGRES
        true,
#else
        false,
#endif
#ifdef DG_HAVE_MYSQL
        true,
#else
        false,
#endif
#ifdef DG_HAVE_FIREBIRD
        true,
#else
        false,
#endif
#ifdef DG_HAVE_ODBC
        true,
#else
        false,
#endif
    };
    for (size_t i = 0; i < n; i++) {
        DG_CHECK_STR(cat[i].name, names[i]);
        DG_CHECK_STR(cat[i].package, packages[i]);
        DG_CHECK_INT(cat[i].be != NULL, built[i]);
        DG_CHECK(dg_backend_lookup(names[i]) == &cat[i]);
        DG_CHECK(dg_backend_for_scheme(names[i]) == cat[i].be);
        const dg_backend *be = cat[i].be;
        if (!be)
            continue;
        /* a built backend is complete and answers to each of its own schemes */
        DG_CHECK_STR(be->name, names[i]);
        DG_CHECK(be->url_help != NULL && be->url_help[0] != '\0');
        DG_CHECK(be->dialect != NULL);
        if (be->dialect)
            DG_CHECK_STR(be->dialect->name, names[i]);
        DG_CHECK(be->schemes != NULL && be->schemes[0] != NULL);
        for (const char *const *s = be->schemes; s && *s; s++)
            DG_CHECK(dg_backend_for_scheme(*s) == be);
        DG_CHECK(be->connect && be->close && be->prepare && be->stmt_free && be->execute &&
                 be->fetch && be->ncols && be->colname && be->column && be->affected &&
                 be->reset && be->exec && be->begin && be->commit && be->rollback &&
                 be->bulk_begin && be->bulk_row && be->bulk_end && be->stats &&
                 be->server_info && be->table_exists);
    }
    /* the same array every time */
    size_t n2 = 0;
    DG_CHECK(dg_backend_catalog(&n2) == cat);
    DG_CHECK_INT(n2, n);
}

static const struct {
    const char *scheme;
    const char *name; /* NULL: unknown */
} lookups[] = {
    {"sqlite", "sqlite"},     {"sqlite3", "sqlite"},   {"postgres", "postgres"},
    {"postgresql", "postgres"}, {"pg", "postgres"},    {"mysql", "mysql"},
    {"mariadb", "mysql"},     {"firebird", "firebird"}, {"fb", "firebird"},
    {"oracle", NULL},         {"", NULL},              {"sqlite ", NULL},
    {"sql", NULL},            {"postgres://", NULL},
};

static void test_lookup(void)
{
    for (size_t i = 0; i < sizeof lookups / sizeof lookups[0]; i++) {
        const dg_backend_entry *e = dg_backend_lookup(lookups[i].scheme);
        if (!lookups[i].name) {
            DG_CHECK(e == NULL);
            DG_CHECK(dg_backend_for_scheme(lookups[i].scheme) == NULL);
            continue;
        }
        DG_CHECK(e != NULL);
        if (!e)
            continue;
        DG_CHECK_STR(e->name, lookups[i].name);
        DG_CHECK(dg_backend_for_scheme(lookups[i].scheme) == e->be);
    }
    const dg_backend *sq = dg_backend_for_scheme("sqlite3");
    DG_CHECK(sq != NULL);
    if (sq)
        DG_CHECK_STR(sq->name, "sqlite");
    /* the scheme a parsed URL carries is one the registry knows */
    dg_url u;
    if (dg_url_parse("PG://h/db", &u, NULL) == 0) {
        const dg_backend_entry *e = dg_backend_lookup(u.scheme);
        DG_CHECK(e != NULL && strcmp(e->name, "postgres") == 0);
        dg_url_free(&u);
    } else {
        DG_CHECK(0);
    }
}

/* ---- placeholders ------------------------------------------------------------------------- */

static const struct {
    const char *sql;
    int n;
} params[] = {
    {"", 0},
    {"SELECT 1", 0},
    {"SELECT ?", 1},
    {"INSERT INTO t VALUES (?, ?, ?)", 3},
    {"SELECT a FROM t WHERE b = ? AND c IN (?,?)", 3},
    {"x ??", 2},
    {"SELECT 5-?", 1},
    {"SELECT '?'", 0},
    {"SELECT \"a?\" FROM t WHERE x = ?", 1},
    {"SELECT 'it''s ?', ?", 1},
    {"SELECT 'a\"?', \"b'?\", ?", 1},
    {"SELECT ? -- what?\n, ?", 2},
    {"SELECT ? -- tail ?", 1},
    {"SELECT ? /* ? */ + ?", 2},
    {"SELECT /**/?", 1},
    {"SELECT /*/ ? */ ?", 1},
    {"SELECT /* a */ ? /* b ? */", 1},
    {"SELECT 'unterminated ?", 0},
    {"SELECT ?, 'unterminated ?", 1},
    {"SELECT ? /* unterminated ?", 1},
    {"SELECT a - -1, ?", 1},
    {"SELECT $1", 0},
};

static void test_count_params(void)
{
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        int n = dg_sql_count_params(params[i].sql);
        if (n != params[i].n)
            fprintf(stderr, "  sql \"%s\"\n", params[i].sql);
        DG_CHECK_INT(n, params[i].n);
    }
}

/* A host list: the first host in the dg_url, one URL per host from dg_url_nodes, each
 * with the user, password, database and parameters, ?place= taken out. */
static void test_nodes(void)
{
    dg_url u;
    dg_err e;
    DG_CHECK_INT(dg_url_parse("postgres://u:pw@h1:5433,[::1]:5434,h3/db?place=first&sslmode=disable",
                              &u, &e), 0);
    CHECK_OPT_STR(u.host, "h1");
    DG_CHECK_INT(u.port, 5433);
    DG_CHECK_INT(u.nnodes, 3);
    DG_CHECK_INT(u.place, DG_PLACE_FIRST);
    DG_CHECK_INT(u.nparams, 1);
    CHECK_OPT_STR(u.params[0].name, "sslmode");
    CHECK_OPT_STR(u.redacted, "postgres://u:***@h1:5433,[::1]:5434,h3/db?place=first&sslmode=disable");
    dg_url_free(&u);

    dg_nodelist nl;
    DG_CHECK_INT(dg_url_nodes("postgres://u:pw@h1:5433,[::1]:5434,h3/db?place=first&sslmode=disable",
                              &nl, &e), 0);
    DG_CHECK_INT(nl.n, 3);
    DG_CHECK_INT(nl.place, DG_PLACE_FIRST);
    CHECK_OPT_STR(nl.urls[0], "postgres://u:pw@h1:5433/db?sslmode=disable");
    CHECK_OPT_STR(nl.urls[1], "postgres://u:pw@[::1]:5434/db?sslmode=disable");
    CHECK_OPT_STR(nl.urls[2], "postgres://u:pw@h3/db?sslmode=disable");
    CHECK_OPT_STR(nl.names[1], "[::1]:5434");
    dg_nodelist_free(&nl);

    /* one host: the URL itself, less ?place= */
    DG_CHECK_INT(dg_url_nodes("mysql://root@127.0.0.1:3306/x?place=random", &nl, &e), 0);
    DG_CHECK_INT(nl.n, 1);
    DG_CHECK_INT(nl.place, DG_PLACE_RANDOM);
    CHECK_OPT_STR(nl.urls[0], "mysql://root@127.0.0.1:3306/x");
    dg_nodelist_free(&nl);
    DG_CHECK_INT(dg_url_nodes("sqlite:bench.db", &nl, &e), 0);
    DG_CHECK_INT(nl.n, 1);
    CHECK_OPT_STR(nl.urls[0], "sqlite:bench.db");
    CHECK_OPT_STR(nl.names[0], "");
    dg_nodelist_free(&nl);

    /* redaction of text: a host list does not end the URL early */
    char *r = dg_url_redact_text("--db mysql://u:pw@h1:1,h2:2/db --vary db=a:mysql://u:pw@h1,h2/x,b:pg://v:pw2@h/y");
    CHECK_OPT_STR(r, "--db mysql://u:***@h1:1,h2:2/db --vary db=a:mysql://u:***@h1,h2/x,b:pg://v:***@h/y");
    free(r);
}

int main(void)
{
    DG_RUN(test_nodes);
    DG_RUN(test_parse_good);
    DG_RUN(test_parse_query);
    DG_RUN(test_parse_bad);
    DG_RUN(test_redact);
    DG_RUN(test_redact_unparsed);
    DG_RUN(test_redact_text);
    DG_RUN(test_scrub);
    DG_RUN(test_default_password);
    DG_RUN(test_catalog);
    DG_RUN(test_lookup);
    DG_RUN(test_count_params);
    DG_TEST_END();
}
