/*
 * test_sweep.c - unit tests of experiment/sweep.c, everything that needs no database:
 * planning the grid from --vary settings (one parameter, a cross product, repeats, a name
 * given twice), the errors of planning, point ids and result file names (with URLs
 * redacted), placeholder expansion for hook commands, the per-point JSON, and the
 * experiment index: writing it and resuming from it (statuses copied back, a different
 * grid refused).
 *
 * Resume tests work in a fresh mkdtemp() directory that main() removes at the end.
 */
#include "dgtest.h"
#include "dgtest_fs.h"

#include "core/err.h"
#include "experiment/sweep.h"
#include "results/result.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static const char *subdir(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", root, name);
    mkdir(buf, 0755);
    return buf;
}


/* "id value value ... rREPEAT file" for point i, for compact table comparisons. */
static const char *describe(const dg_sweep *s, int i)
{
    static char buf[512];
    const dg_sweep_point *pt = &s->points[i];
    int n = snprintf(buf, sizeof buf, "%s", pt->id);
    for (int p = 0; p < s->nparams; p++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", dg_sweep_value(s, pt, p));
    snprintf(buf + n, sizeof buf - (size_t)n, " r%d %s", pt->repeat, pt->file);
    return buf;
}

/* Plans and compares every point with want[] (describe() format). */
static void check_plan(const dg_setting *vary, int nvary, int repeat, int npoints,
                       const char *const *want)
{
    dg_sweep s;
    dg_err e = DG_ERR_INIT;
    int rc = dg_sweep_plan(vary, nvary, repeat, "/tmp/exp", "dbgauge sweep", &s, &e);
    DG_CHECK_INT(rc, 0);
    if (rc) {
        fprintf(stderr, "  %s\n", e.msg);
        return;
    }
    DG_CHECK_INT(s.npoints, npoints);
    for (int i = 0; i < s.npoints && i < npoints; i++) {
        DG_CHECK_STR(describe(&s, i), want[i]);
        DG_CHECK_INT(s.points[i].status, DG_POINT_PENDING);
        DG_CHECK_INT(s.points[i].exit, 0);
    }
    dg_sweep_free(&s);
}

/* ---- planning ------------------------------------------------------------------------------ */

static void test_plan_one_param(void)
{
    const dg_setting vary[] = {{"terminals", "1,2,4"}};
    const char *const want[] = {
        "p001 1 r1 p001-terminals=1-r1.json",
        "p002 2 r1 p002-terminals=2-r1.json",
        "p003 4 r1 p003-terminals=4-r1.json",
    };
    check_plan(vary, 1, 1, 3, want);

    dg_sweep s;
    DG_CHECK_INT(dg_sweep_plan(vary, 1, 1, "/tmp/exp", NULL, &s, NULL), 0);
    DG_CHECK_INT(s.nparams, 1);
    DG_CHECK_STR(s.params[0].name, "terminals");
    DG_CHECK_INT(s.params[0].nvalues, 3);
    DG_CHECK_INT(s.repeat, 1);
    DG_CHECK_STR(s.dir, "/tmp/exp");
    DG_CHECK_STR(s.command, ""); /* NULL command */
    dg_sweep_free(&s);
    DG_CHECK(s.points == NULL && s.npoints == 0 && s.params == NULL);
    dg_sweep_free(&s); /* a freed sweep can be freed again */
    dg_sweep_free(NULL);
}

/* Two parameters: the cross product, the first --vary varying slowest. */
static void test_plan_cross_product(void)
{
    const dg_setting vary[] = {{"terminals", "1,2"}, {"scale", "10,100,1000"}};
    const char *const want[] = {
        "p001 1 10 r1 p001-terminals=1-scale=10-r1.json",
        "p002 1 100 r1 p002-terminals=1-scale=100-r1.json",
        "p003 1 1000 r1 p003-terminals=1-scale=1000-r1.json",
        "p004 2 10 r1 p004-terminals=2-scale=10-r1.json",
        "p005 2 100 r1 p005-terminals=2-scale=100-r1.json",
        "p006 2 1000 r1 p006-terminals=2-scale=1000-r1.json",
    };
    check_plan(vary, 2, 1, 6, want);

    dg_sweep s;
    DG_CHECK_INT(dg_sweep_plan(vary, 2, 1, "d", "c", &s, NULL), 0);
    DG_CHECK_INT(s.points[4].vi[0], 1);
    DG_CHECK_INT(s.points[4].vi[1], 1);
    dg_sweep_free(&s);

    /* three parameters: 2 x 2 x 2, last one fastest */
    const dg_setting v3[] = {{"a", "x,y"}, {"b", "1,2"}, {"conn.cache_size", "-2000,-8000"}};
    const char *const want3[] = {
        "p001 x 1 -2000 r1 p001-a=x-b=1-conn.cache_size=-2000-r1.json",
        "p002 x 1 -8000 r1 p002-a=x-b=1-conn.cache_size=-8000-r1.json",
        "p003 x 2 -2000 r1 p003-a=x-b=2-conn.cache_size=-2000-r1.json",
        "p004 x 2 -8000 r1 p004-a=x-b=2-conn.cache_size=-8000-r1.json",
        "p005 y 1 -2000 r1 p005-a=y-b=1-conn.cache_size=-2000-r1.json",
        "p006 y 1 -8000 r1 p006-a=y-b=1-conn.cache_size=-8000-r1.json",
        "p007 y 2 -2000 r1 p007-a=y-b=2-conn.cache_size=-2000-r1.json",
        "p008 y 2 -8000 r1 p008-a=y-b=2-conn.cache_size=-8000-r1.json",
    };
    check_plan(v3, 3, 1, 8, want3);
}

/* Repeats are the innermost loop and share the point id. */
static void test_plan_repeats(void)
{
    const dg_setting vary[] = {{"terminals", "1,2"}};
    const char *const want[] = {
        "p001 1 r1 p001-terminals=1-r1.json", "p001 1 r2 p001-terminals=1-r2.json",
        "p001 1 r3 p001-terminals=1-r3.json", "p002 2 r1 p002-terminals=2-r1.json",
        "p002 2 r2 p002-terminals=2-r2.json", "p002 2 r3 p002-terminals=2-r3.json",
    };
    check_plan(vary, 1, 3, 6, want);

    /* repeat below 1 means once */
    const char *const once[] = {"p001 1 r1 p001-terminals=1-r1.json",
                                "p002 2 r1 p002-terminals=2-r1.json"};
    check_plan(vary, 1, 0, 2, once);
    check_plan(vary, 1, -5, 2, once);

    /* no --vary at all: one point, repeated */
    const char *const bare[] = {"p001 r1 p001-r1.json", "p001 r2 p001-r2.json"};
    check_plan(NULL, 0, 2, 2, bare);
}

static void test_plan_merging(void)
{
    /* the same name twice appends values */
    const dg_setting vary[] = {{"terminals", "1,2"}, {"scale", "5"}, {"terminals", "4"}};
    const char *const want[] = {
        "p001 1 5 r1 p001-terminals=1-scale=5-r1.json",
        "p002 2 5 r1 p002-terminals=2-scale=5-r1.json",
        "p003 4 5 r1 p003-terminals=4-scale=5-r1.json",
    };
    check_plan(vary, 3, 1, 3, want);
}

/* File names: characters outside [A-Za-z0-9._-] become '_', values are cut to 40
 * characters, and db URLs lose their password before they get there. */
static void test_point_files(void)
{
    const dg_setting vary[] = {
        {"db", "postgres://u:secret@h:5432/bench,sqlite:/tmp/a b.db"},
        {"label", "0123456789012345678901234567890123456789TAIL"},
    };
    const char *const want[] = {
        "p001 postgres://u:secret@h:5432/bench 0123456789012345678901234567890123456789TAIL r1 "
        "p001-db=postgres___u_____h_5432_bench-label=0123456789012345678901234567890123456789-r1.json",
        "p002 sqlite:/tmp/a b.db 0123456789012345678901234567890123456789TAIL r1 "
        "p002-db=sqlite__tmp_a_b.db-label=0123456789012345678901234567890123456789-r1.json",
    };
    check_plan(vary, 2, 1, 2, want);

    /* ids keep counting past 999 */
    char values[8192];
    int n = 0;
    for (int i = 0; i < 1001; i++)
        n += snprintf(values + n, sizeof values - (size_t)n, "%s%d", i ? "," : "", i);
    const dg_setting big[] = {{"rate", values}};
    dg_sweep s;
    DG_CHECK_INT(dg_sweep_plan(big, 1, 1, "d", "c", &s, NULL), 0);
    DG_CHECK_INT(s.npoints, 1001);
    DG_CHECK_STR(s.points[998].id, "p999");
    DG_CHECK_STR(s.points[999].id, "p1000");
    DG_CHECK_STR(s.points[1000].file, "p1001-rate=1000-r1.json");
    dg_sweep_free(&s);
}

static void test_plan_errors(void)
{
    char many[400];
    int n = 0;
    for (int i = 0; i < 50; i++)
        n += snprintf(many + n, sizeof many - (size_t)n, "%s%d", i ? "," : "", i);
    static const struct {
        dg_setting vary[3];
        int nvary;
        const char *msg;
    } rows[] = {
        {{{"terminals", ""}}, 1, "--vary terminals has no values"},
        {{{"terminals", ","}}, 1,
         "--vary terminals=, has an empty value (expected NAME=V1,V2,... with no empty element)"},
        {{{"terminals", "1,,2"}}, 1,
         "--vary terminals=1,,2 has an empty value (expected NAME=V1,V2,... with no empty "
         "element)"},
        {{{"terminals", "1,2,"}}, 1,
         "--vary terminals=1,2, has an empty value (expected NAME=V1,V2,... with no empty "
         "element)"},
        {{{"db", "a:postgres://u:secret@h/a,"}}, 1,
         "--vary db=a:postgres://u:***@h/a, has an empty value (expected NAME=V1,V2,... with no "
         "empty element)"},
        {{{"terminals", "few:"}}, 1, "--vary terminals: the label 'few' has no value"},
        /* a scheme name or alias is no label: the value would run as a path-form URL */
        {{{"db", "sqlite:a.db,pg:postgres://u:secret@h/a"}}, 1,
         "--vary db: 'pg' in 'pg:postgres://u:***@h/a' is a database scheme, not a label: give "
         "the value a label that is no scheme name (e.g. pg1:postgres://u:***@h/a)"},
        {{{"db", "fb:firebird://u:secret@h//x.fdb"}}, 1,
         "--vary db: 'fb' in 'fb:firebird://u:***@h//x.fdb' is a database scheme, not a label: "
         "give the value a label that is no scheme name (e.g. fb1:firebird://u:***@h//x.fdb)"},
        {{{"db", "postgresql:postgres://h/a?password=secret"}}, 1,
         "--vary db: 'postgresql' in 'postgresql:postgres://h/a?password=***' is a database "
         "scheme, not a label: give the value a label that is no scheme name (e.g. "
         "postgresql1:postgres://h/a?password=***)"},
        {{{"db", "mariadb:mysql://u:secret@h/a"}}, 1,
         "--vary db: 'mariadb' in 'mariadb:mysql://u:***@h/a' is a database scheme, not a "
         "label: give the value a label that is no scheme name (e.g. "
         "mariadb1:mysql://u:***@h/a)"},
        {{{"db", "sqlite3:sqlite:x.db"}}, 1,
         "--vary db: 'sqlite3' in 'sqlite3:sqlite:x.db' is a database scheme, not a label: give "
         "the value a label that is no scheme name (e.g. sqlite31:sqlite:x.db)"},
        {{{"terminals", "1,2,1"}}, 1, "--vary terminals lists '1' twice"},
        {{{"terminals", "1"}, {"terminals", "2,1"}}, 2, "--vary terminals lists '1' twice"},
        {{{"bad name", "1"}}, 1, "invalid --vary name 'bad name'"},
        {{{"", "1"}}, 1, "invalid --vary name ''"},
        {{{"a/b", "1"}}, 1, "invalid --vary name 'a/b'"},
        {{{"a=b", "1"}}, 1, "invalid --vary name 'a=b'"},
        {{{"{x}", "1"}}, 1, "invalid --vary name '{x}'"},
        {{{"terminals", "1"}, {"scale", ""}}, 2, "--vary scale has no values"},
        /* the message shows a listed URL without its password */
        {{{"db", "postgres://u:secret@h/a,sqlite:b.db,postgres://u:secret@h/a"}},
         1,
         "--vary db lists 'postgres://u:***@h/a' twice"},
        {{{"conn.password", "secret,secret"}}, 1, "--vary conn.password lists '***' twice"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        dg_sweep s;
        memset(&s, 0, sizeof s);
        s.npoints = -42; /* *out is left alone on failure */
        dg_err e = DG_ERR_INIT;
        DG_CHECK_INT(dg_sweep_plan(rows[i].vary, rows[i].nvary, 1, "d", "c", &s, &e),
                     DG_E_INVAL);
        DG_CHECK_STR(e.msg, rows[i].msg);
        DG_CHECK_INT(s.npoints, -42);
        DG_CHECK_INT(dg_sweep_plan(rows[i].vary, rows[i].nvary, 1, "d", "c", &s, NULL),
                     DG_E_INVAL);
    }
    /* 50 x 50 x 50 = 125000 points is over the limit of 100000 */
    const dg_setting huge[] = {{"a", many}, {"b", many}, {"c", many}};
    dg_sweep s;
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_sweep_plan(huge, 3, 1, "d", "c", &s, &e), DG_E_INVAL);
    DG_CHECK_STR(e.msg, "the sweep has more than 100000 points");
    /* 50 x 50 = 2500 points is fine */
    DG_CHECK_INT(dg_sweep_plan(huge, 2, 1, "d", "c", &s, NULL), 0);
    DG_CHECK_INT(s.npoints, 2500);
    dg_sweep_free(&s);
}

/* ---- expansion and per-point JSON --------------------------------------------------------- */

static void test_expand(void)
{
    const dg_setting vary[] = {{"terminals", "1,2"}, {"conn.cache_size", "-2000,-8000"}};
    dg_sweep s;
    if (dg_sweep_plan(vary, 2, 2, "/data/exp", "c", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    const dg_sweep_point *pt = &s.points[5]; /* p003: terminals 2, cache -2000, repeat 2 */
    DG_CHECK_STR(pt->id, "p003");
    static const struct {
        const char *tmpl, *out, *msg;
    } rows[] = {
        {"{dir}/hook.sh {point} {repeat} {terminals} {conn.cache_size}",
         "/data/exp/hook.sh p003 2 2 -2000", NULL},
        {"", "", NULL},
        {"no placeholders }", "no placeholders }", NULL},
        {"{point}{point}", "p003p003", NULL},
        /* values are shell words: quoted when the shell would read a byte of theirs */
        {"echo {conn.cache_size}", "echo -2000", NULL},
        {"echo {nope}", NULL,
         "unknown placeholder '{nope}' in hook command (known: the --vary names, point, repeat, "
         "dir)"},
        {"{}", NULL,
         "unknown placeholder '{}' in hook command (known: the --vary names, point, repeat, dir)"},
        {"{POINT}", NULL,
         "unknown placeholder '{POINT}' in hook command (known: the --vary names, point, repeat, "
         "dir)"},
        {"echo {point", NULL, "unterminated '{' in hook command: echo {point"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *out = (char *)"untouched";
        dg_err e = DG_ERR_INIT;
        int rc = dg_sweep_expand(&s, pt, rows[i].tmpl, &out, &e);
        if (rows[i].out) {
            DG_CHECK_INT(rc, 0);
            if (rc == 0) {
                DG_CHECK_STR(out, rows[i].out);
                free(out);
            }
        } else {
            DG_CHECK_INT(rc, DG_E_INVAL);
            DG_CHECK_STR(e.msg, rows[i].msg);
            DG_CHECK_STR(out, "untouched");
        }
    }
    dg_sweep_free(&s);
}

/* Hooks run on a shell command line, which any user of the machine can read (ps): {db}
 * is the URL without its password, and no placeholder gives the password. */
static void test_expand_redacted(void)
{
    const dg_setting vary[] = {
        {"db", "postgres://u:secret@h/a,firebird:h/3050:/p.fdb?user=u&password=secret,"
               "fb:/p.fdb?pass%77ord=secret"},
        {"conn.password", "secret"},
        {"wl.note", "see postgres://v:secret@h2/b"},
    };
    dg_sweep s;
    if (dg_sweep_plan(vary, 3, 1, "/data/exp", "c", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    static const char *const want[] = {
        "'postgres://u:***@h/a' '***' 'see postgres://v:***@h2/b'",
        "'firebird:h/3050:/p.fdb?user=u&password=***' '***' 'see postgres://v:***@h2/b'",
        "'fb:/p.fdb?pass%77ord=***' '***' 'see postgres://v:***@h2/b'",
    };
    DG_CHECK_INT(s.npoints, 3);
    for (int i = 0; i < s.npoints && i < 3; i++) {
        char *out = NULL;
        DG_CHECK_INT(dg_sweep_expand(&s, &s.points[i], "{db} {conn.password} {wl.note}", &out,
                                     NULL),
                     0);
        DG_CHECK_STR(out, want[i]);
        free(out);
        /* the values themselves are kept for the run */
        DG_CHECK(strstr(dg_sweep_value(&s, &s.points[i], 0), "secret") != NULL);
        DG_CHECK(strstr(s.points[i].file, "secret") == NULL);
        json_t *j = dg_sweep_point_json(&s, &s.points[i]);
        char *text = json_dumps(j, JSON_COMPACT);
        DG_CHECK(strstr(text, "secret") == NULL);
        free(text);
        json_decref(j);
    }
    dg_err e = DG_ERR_INIT;
    char *out = NULL;
    DG_CHECK_INT(dg_sweep_expand(&s, &s.points[0], "psql postgres://u:secret@h/a {db", &out, &e),
                 DG_E_INVAL);
    DG_CHECK_STR(e.msg, "unterminated '{' in hook command: psql postgres://u:***@h/a {db");
    dg_sweep_free(&s);

    static const struct {
        const char *name, *value, *shown;
    } shown[] = {
        {"terminals", "4", "4"},
        {"db", "postgres://u:secret@h/db?password=secret", "postgres://u:***@h/db?password=***"},
        {"db", "postgres://u:se/cret@h/db", "postgres://u:***@h/db"}, /* does not parse */
        {"conn.password", "secret", "***"},
        {"conn.PASSWORD", "secret", "***"},
        {"wl.db_passwd", "secret", "***"},
        {"conn.application_name", "x", "x"},
        {"conn.options", "password=secret", "password=***"},
    };
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        char *v = dg_sweep_shown_value(shown[i].name, shown[i].value);
        DG_CHECK_STR(v, shown[i].shown);
        free(v);
    }
}

static void test_point_json(void)
{
    const dg_setting vary[] = {{"terminals", "4"}, {"db", "postgres://u:secret@h/bench"}};
    dg_sweep s;
    if (dg_sweep_plan(vary, 2, 2, "d", "c", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    json_t *j = dg_sweep_point_json(&s, &s.points[1]);
    char *text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
    DG_CHECK_STR(text, "{\"params\":{\"db\":\"postgres://u:***@h/bench\",\"terminals\":\"4\"},"
                       "\"point\":\"p001\",\"repeat\":2}");
    free(text);
    json_decref(j);
    dg_sweep_free(&s);

    static const char *const names[] = {"pending", "done", "incomplete", "failed", "interrupted"};
    for (int i = DG_POINT_PENDING; i <= DG_POINT_INTERRUPTED; i++)
        DG_CHECK_STR(dg_point_status_name((dg_point_status)i), names[i]);
}

/* LABEL:VALUE: the label names the point (file, params), the value runs, "values" keeps
 * it redacted; database schemes are URLs, not labels; labels and values must not repeat. */
static void test_labels(void)
{
    const dg_setting vary[] = {{"db", "sata:postgres://u:secret@h/a,ssd:sqlite:/ssd/b.db,sqlite:/c.db"},
                               {"conn.mode", "10:30,Super_2:x:y"}};
    dg_sweep s;
    dg_err e = DG_ERR_INIT;
    if (dg_sweep_plan(vary, 2, 1, "d", "c", &s, &e) != 0) {
        fprintf(stderr, "  %s\n", e.msg);
        DG_CHECK(0);
        return;
    }
    DG_CHECK_INT(s.npoints, 6);
    /* values as given run; labels stand for them */
    DG_CHECK_STR(dg_sweep_value(&s, &s.points[0], 0), "postgres://u:secret@h/a");
    DG_CHECK_STR(dg_sweep_label(&s, &s.points[0], 0), "sata");
    DG_CHECK_STR(dg_sweep_value(&s, &s.points[2], 0), "sqlite:/ssd/b.db");
    DG_CHECK_STR(dg_sweep_label(&s, &s.points[2], 0), "ssd");
    DG_CHECK_STR(dg_sweep_value(&s, &s.points[4], 0), "sqlite:/c.db"); /* a scheme: no label */
    DG_CHECK(dg_sweep_label(&s, &s.points[4], 0) == NULL);
    DG_CHECK_STR(dg_sweep_value(&s, &s.points[0], 1), "10:30"); /* a digit first: no label */
    DG_CHECK(dg_sweep_label(&s, &s.points[0], 1) == NULL);
    DG_CHECK_STR(dg_sweep_value(&s, &s.points[1], 1), "x:y"); /* the first colon splits */
    DG_CHECK_STR(dg_sweep_label(&s, &s.points[1], 1), "Super_2");
    DG_CHECK_STR(s.points[1].file, "p002-db=sata-conn.mode=Super_2-r1.json");
    DG_CHECK_STR(s.points[4].file, "p005-db=sqlite__c.db-conn.mode=10_30-r1.json");
    json_t *j = dg_sweep_point_json(&s, &s.points[1]);
    char *text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
    DG_CHECK_STR(text, "{\"params\":{\"conn.mode\":\"Super_2\",\"db\":\"sata\"},\"point\":\"p002\","
                       "\"repeat\":1,\"values\":{\"conn.mode\":\"x:y\",\"db\":\"postgres://u:***@h/a\"}}");
    free(text);
    json_decref(j);
    j = dg_sweep_point_json(&s, &s.points[4]); /* nothing labelled: no "values" */
    DG_CHECK(json_object_get(j, "values") == NULL);
    json_decref(j);
    dg_sweep_free(&s);

    const dg_setting twice[] = {{"db", "a:sqlite:x.db,a:sqlite:y.db"}};
    DG_CHECK_INT(dg_sweep_plan(twice, 1, 1, "d", "c", &s, &e), DG_E_INVAL);
    DG_CHECK(strstr(e.msg, "uses the label 'a' twice") != NULL);
    const dg_setting same[] = {{"db", "a:sqlite:x.db,b:sqlite:x.db"}};
    DG_CHECK_INT(dg_sweep_plan(same, 1, 1, "d", "c", &s, &e), DG_E_INVAL);
    DG_CHECK(strstr(e.msg, "lists 'sqlite:x.db' twice") != NULL);
}

/* ---- index and resume ---------------------------------------------------------------------- */

static const dg_setting grid[] = {{"terminals", "1,2"},
                                  {"db", "postgres://u:secret@h/a,sqlite:b.db"}};

static void test_index_and_resume(void)
{
    char dir[256], path[512];
    subdir("resume", dir, sizeof dir);
    dg_sweep s;
    if (dg_sweep_plan(grid, 2, 2, dir, "dbgauge sweep --vary ...", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    DG_CHECK_INT(s.npoints, 8);
    s.points[0].status = DG_POINT_DONE;
    s.points[1].status = DG_POINT_INCOMPLETE;
    s.points[1].exit = 2;
    s.points[2].status = DG_POINT_FAILED;
    s.points[2].exit = 1;
    s.points[3].status = DG_POINT_INTERRUPTED;
    s.points[3].exit = 130;
    s.seed = 9223372036854775807ULL; /* the largest seed */
    dg_err e = DG_ERR_INIT;
    int rc = dg_sweep_write_index(&s, &e);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", e.msg);

    /* the index is a result document that lists the grid and the points */
    snprintf(path, sizeof path, "%s/experiment.json", dir);
    json_t *doc = NULL;
    DG_CHECK_INT(dg_result_read(path, &doc, NULL), 0);
    if (doc) {
        DG_CHECK_STR(dg_res_str(doc, "kind"), "sweep");
        DG_CHECK_STR(dg_res_str(doc, "command"), "dbgauge sweep --vary ...");
        DG_CHECK_NEAR(dg_res_num(doc, "repeat", -1), 2, 0);
        DG_CHECK(json_integer_value(dg_res_get(doc, "seed")) == INT64_MAX);
        DG_CHECK_STR(dg_res_str(doc, "parameters.0.name"), "terminals");
        DG_CHECK_STR(dg_res_str(doc, "parameters.1.name"), "db");
        DG_CHECK_STR(dg_res_str(doc, "parameters.1.values.0"), "postgres://u:***@h/a");
        DG_CHECK_STR(dg_res_str(doc, "parameters.1.values.1"), "sqlite:b.db");
        DG_CHECK_INT(json_array_size(dg_res_get(doc, "points")), 8);
        DG_CHECK_STR(dg_res_str(doc, "points.1.id"), "p001");
        DG_CHECK_NEAR(dg_res_num(doc, "points.1.repeat", -1), 2, 0);
        DG_CHECK_STR(dg_res_str(doc, "points.1.status"), "incomplete");
        DG_CHECK_NEAR(dg_res_num(doc, "points.1.exit", -1), 2, 0);
        DG_CHECK_STR(dg_res_str(doc, "points.1.file"), s.points[1].file);
        DG_CHECK_STR(dg_res_str(doc, "points.1.params.db"), "postgres://u:***@h/a");
        DG_CHECK_STR(dg_res_str(doc, "points.7.status"), "pending");
        json_decref(doc);
    }
    /* no password anywhere in the file */
    FILE *f = fopen(path, "r");
    DG_CHECK(f != NULL);
    if (f) {
        static char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        DG_CHECK(strstr(text, "secret") == NULL);
    }

    /* a fresh plan of the same grid takes the statuses and the seed back */
    dg_sweep r;
    DG_CHECK_INT(dg_sweep_plan(grid, 2, 2, dir, "again", &r, NULL), 0);
    r.seed = 5;
    rc = dg_sweep_resume(&r, &e);
    DG_CHECK(r.seed == 9223372036854775807ULL);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", e.msg);
    static const dg_point_status want[8] = {DG_POINT_DONE, DG_POINT_INCOMPLETE, DG_POINT_FAILED,
                                           DG_POINT_INTERRUPTED};
    static const int want_exit[8] = {0, 2, 1, 130};
    for (int i = 0; i < 8; i++) {
        DG_CHECK_INT(r.points[i].status, want[i]);
        DG_CHECK_INT(r.points[i].exit, want_exit[i]);
    }
    dg_sweep_free(&r);
    dg_sweep_free(&s);
}

/* An index with a status name this build does not know, or a point it does not list,
 * leaves those points pending; one without a seed (older than the field) leaves the
 * sweep's. */
static void test_resume_partial_index(void)
{
    char dir[256], path[512];
    subdir("partial", dir, sizeof dir);
    dg_sweep s;
    const dg_setting vary[] = {{"terminals", "1,2,3"}};
    if (dg_sweep_plan(vary, 1, 1, dir, "c", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    for (int i = 0; i < 3; i++)
        s.points[i].status = DG_POINT_DONE;
    DG_CHECK_INT(dg_sweep_write_index(&s, NULL), 0);
    snprintf(path, sizeof path, "%s/experiment.json", dir);
    json_t *doc = NULL;
    DG_CHECK_INT(dg_result_read(path, &doc, NULL), 0);
    if (!doc) {
        dg_sweep_free(&s);
        return;
    }
    json_t *points = json_object_get(doc, "points");
    json_object_set_new(json_array_get(points, 1), "status", json_string("exploded"));
    json_array_remove(points, 2);
    json_object_del(doc, "seed");
    DG_CHECK_INT(dg_result_write(doc, path, NULL), 0);
    json_decref(doc);

    dg_sweep r;
    DG_CHECK_INT(dg_sweep_plan(vary, 1, 1, dir, "c", &r, NULL), 0);
    r.seed = 77;
    DG_CHECK_INT(dg_sweep_resume(&r, NULL), 0);
    DG_CHECK(r.seed == 77);
    DG_CHECK_INT(r.points[0].status, DG_POINT_DONE);
    DG_CHECK_INT(r.points[1].status, DG_POINT_PENDING);
    DG_CHECK_INT(r.points[2].status, DG_POINT_PENDING);
    dg_sweep_free(&r);
    dg_sweep_free(&s);
}

static void test_resume_refused(void)
{
    char dir[256], msg[1024];
    subdir("refuse", dir, sizeof dir);
    dg_sweep s;
    if (dg_sweep_plan(grid, 2, 2, dir, "c", &s, NULL) != 0) {
        DG_CHECK(0);
        return;
    }
    DG_CHECK_INT(dg_sweep_write_index(&s, NULL), 0);
    dg_sweep_free(&s);

    static const struct {
        dg_setting vary[2];
        int nvary, repeat;
    } other[] = {
        {{{"terminals", "1,2"}, {"db", "postgres://u:secret@h/a,sqlite:c.db"}}, 2, 2}, /* value */
        {{{"terminals", "1,2,4"}, {"db", "postgres://u:secret@h/a,sqlite:b.db"}}, 2, 2}, /* more */
        {{{"terminals", "2,1"}, {"db", "postgres://u:secret@h/a,sqlite:b.db"}}, 2, 2}, /* order */
        {{{"db", "postgres://u:secret@h/a,sqlite:b.db"}, {"terminals", "1,2"}}, 2, 2}, /* order */
        {{{"clients", "1,2"}, {"db", "postgres://u:secret@h/a,sqlite:b.db"}}, 2, 2},  /* name */
        {{{"terminals", "1,2"}}, 1, 2},                                                /* fewer */
        {{{"terminals", "1,2"}, {"db", "postgres://u:secret@h/a,sqlite:b.db"}}, 2, 3}, /* repeat */
        {{{"terminals", "1,2"}, {"db", "postgres://u:secret@h/a,sqlite:b.db"}}, 2, 1}, /* repeat */
    };
    snprintf(msg, sizeof msg,
             "cannot resume: %s/experiment.json was made with other --vary values or --repeat",
             dir);
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        dg_sweep r;
        if (dg_sweep_plan(other[i].vary, other[i].nvary, other[i].repeat, dir, "c", &r, NULL)) {
            DG_CHECK(0);
            continue;
        }
        dg_err e = DG_ERR_INIT;
        DG_CHECK_INT(dg_sweep_resume(&r, &e), DG_E_INVAL);
        DG_CHECK_STR(e.msg, msg);
        for (int k = 0; k < r.npoints; k++)
            DG_CHECK_INT(r.points[k].status, DG_POINT_PENDING);
        dg_sweep_free(&r);
    }

    /* the same grid with another password is the same grid (the index keeps no passwords) */
    const dg_setting pw[] = {{"terminals", "1,2"}, {"db", "postgres://u:changed@h/a,sqlite:b.db"}};
    dg_sweep r;
    DG_CHECK_INT(dg_sweep_plan(pw, 2, 2, dir, "c", &r, NULL), 0);
    DG_CHECK_INT(dg_sweep_resume(&r, NULL), 0);
    dg_sweep_free(&r);

    /* nothing to resume from */
    char none[256], want[1024];
    subdir("empty", none, sizeof none);
    DG_CHECK_INT(dg_sweep_plan(grid, 2, 2, none, "c", &r, NULL), 0);
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_sweep_resume(&r, &e), DG_E_IO);
    snprintf(want, sizeof want, "cannot read result file '%s/experiment.json': ", none);
    DG_CHECK(strncmp(e.msg, want, strlen(want)) == 0);
    dg_sweep_free(&r);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/dg-test-sweep-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    DG_RUN(test_plan_one_param);
    DG_RUN(test_plan_cross_product);
    DG_RUN(test_plan_repeats);
    DG_RUN(test_plan_merging);
    DG_RUN(test_point_files);
    DG_RUN(test_plan_errors);
    DG_RUN(test_expand);
    DG_RUN(test_expand_redacted);
    DG_RUN(test_point_json);
    DG_RUN(test_labels);
    DG_RUN(test_index_and_resume);
    DG_RUN(test_resume_partial_index);
    DG_RUN(test_resume_refused);
    dgt_remove_tree(root);
    DG_TEST_END();
}
