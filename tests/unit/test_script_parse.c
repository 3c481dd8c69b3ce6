/*
 * test_script_parse.c - script parsing: malformed scripts give exact FILE:LINE:COL errors
 * with the offending line and a caret; well-formed scripts (pgbench's built-in scripts,
 * multi-line SQL, comments, \if chains) parse into the expected commands.
 *
 * Layout: the error table and its test; then well-formed scripts, checked through the
 * engine's internal structures (script_int.h): command kinds, SQL text with '?'
 * placeholders, parameters, transaction options and the jumps of \if chains.
 */
#include "dgtest.h"
#include "dgtest_fs.h"

#include "workload/script/script.h"
#include "workload/script/script_int.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Malformed scripts (named t.sql) and the whole message of the error. */
static const struct {
    const char *script, *msg;
} errors[] = {
    {"\\set x 1 +\n",
     "t.sql:1:11: error: syntax error: unexpected end of expression\n"
     "    \\set x 1 +\n"
     "              ^"},
    {"\\set i noSuchFunction()\n",
     "t.sql:1:8: error: unknown function \"noSuchFunction\"\n"
     "    \\set i noSuchFunction()\n"
     "           ^"},
    {"\\set . 1\n",
     "t.sql:1:6: error: invalid variable name \".\"\n"
     "    \\set . 1\n"
     "         ^"},
    {"\\set i ;\n",
     "t.sql:1:8: error: unexpected character \";\" in expression\n"
     "    \\set i ;\n"
     "           ^"},
    {"\\if 1\n\\set a 1\n",
     "t.sql:1:1: error: \\if without matching \\endif\n"
     "    \\if 1\n"
     "    ^"},
    {"\\elif 1\n",
     "t.sql:1:1: error: \\elif without matching \\if\n"
     "    \\elif 1\n"
     "    ^"},
    {"\\else\n",
     "t.sql:1:1: error: \\else without matching \\if\n"
     "    \\else\n"
     "    ^"},
    {"\\endif\n",
     "t.sql:1:1: error: \\endif without matching \\if\n"
     "    \\endif\n"
     "    ^"},
    {"\\if 1\n\\else\n\\elif 1\n\\endif\n",
     "t.sql:3:1: error: \\elif after \\else\n"
     "    \\elif 1\n"
     "    ^"},
    {"\\if 1\n\\else\n\\else\n\\endif\n",
     "t.sql:3:1: error: \\else after \\else\n"
     "    \\else\n"
     "    ^"},
    {"\\if 1\n\\else foo\n\\endif\n",
     "t.sql:2:7: error: \\else: unexpected argument\n"
     "    \\else foo\n"
     "          ^"},
    {"\\if 1\n\\endif foo\n",
     "t.sql:2:8: error: \\endif: unexpected argument\n"
     "    \\endif foo\n"
     "           ^"},
    {"\\if\n",
     "t.sql:1:4: error: missing expression\n"
     "    \\if\n"
     "       ^"},
    {"\\sleep\n",
     "t.sql:1:7: error: \\sleep: missing argument\n"
     "    \\sleep\n"
     "          ^"},
    {"\\sleep too many args\n",
     "t.sql:1:17: error: \\sleep: too many arguments\n"
     "    \\sleep too many args\n"
     "                    ^"},
    {"\\sleep 1 week\n",
     "t.sql:1:10: error: \\sleep: unknown time unit \"week\", must be us, ms or s\n"
     "    \\sleep 1 week\n"
     "             ^"},
    {"\\sleep abc\n",
     "t.sql:1:8: error: \\sleep: invalid time \"abc\", must be an integer or :variable\n"
     "    \\sleep abc\n"
     "           ^"},
    {"\\sleep -5 s\n",
     "t.sql:1:8: error: \\sleep: time \"-5\" is negative, must be from 0 to 2147483647 (or a "
     ":variable)\n"
     "    \\sleep -5 s\n"
     "           ^"},
    {"SELECT 1;\n  \\sleep -1ms\n",
     "t.sql:2:10: error: \\sleep: time \"-1ms\" is negative, must be from 0 to 2147483647 (or a "
     ":variable)\n"
     "      \\sleep -1ms\n"
     "             ^"},
    {"\\sleep 1.5\n",
     "t.sql:1:9: error: \\sleep: unknown time unit \".5\", must be us, ms or s\n"
     "    \\sleep 1.5\n"
     "            ^"},
    {"\\nosuchcommand\n",
     "t.sql:1:1: error: unknown meta-command \"\\nosuchcommand\"\n"
     "    \\nosuchcommand\n"
     "    ^"},
    {"\\shell echo hi\n",
     "t.sql:1:1: error: meta-command \"\\shell\" is not supported\n"
     "    \\shell echo hi\n"
     "    ^"},
    {"\\setshell x echo 1\n",
     "t.sql:1:1: error: meta-command \"\\setshell\" is not supported\n"
     "    \\setshell x echo 1\n"
     "    ^"},
    {"\\startpipeline\n",
     "t.sql:1:1: error: meta-command \"\\startpipeline\" is not supported\n"
     "    \\startpipeline\n"
     "    ^"},
    {"",
     "t.sql:1:1: error: script has no commands"},
    {"-- only a comment\n",
     "t.sql:1:1: error: script has no commands\n"
     "    -- only a comment\n"
     "    ^"},
    {"\\gset\n",
     "t.sql:1:1: error: \\gset must follow an SQL command\n"
     "    \\gset\n"
     "    ^"},
    {"\\set i 1\n\\gset\n",
     "t.sql:2:1: error: \\gset must follow an SQL command\n"
     "    \\gset\n"
     "    ^"},
    {"SELECT 1 \\gset a b\n",
     "t.sql:1:18: error: \\gset: too many arguments\n"
     "    SELECT 1 \\gset a b\n"
     "                     ^"},
    {"SELECT 1 AS i \\gset\n\\gset\n",
     "t.sql:2:1: error: \\gset must follow an SQL command\n"
     "    \\gset\n"
     "    ^"},
    {"BEGIN;\n\\gset\n",
     "t.sql:2:1: error: \\gset cannot follow a transaction control command\n"
     "    \\gset\n"
     "    ^"},
    {"SELECT 1 \\gset 1x\n",
     "t.sql:1:16: error: \\gset: invalid variable prefix \"1x\"\n"
     "    SELECT 1 \\gset 1x\n"
     "                   ^"},
    {"SELECT 'abc\n",
     "t.sql:1:8: error: unterminated quoted string\n"
     "    SELECT 'abc\n"
     "           ^"},
    {"SELECT \"abc\n",
     "t.sql:1:8: error: unterminated quoted identifier\n"
     "    SELECT \"abc\n"
     "           ^"},
    {"SELECT 1 /* x\n",
     "t.sql:1:10: error: unterminated /* comment\n"
     "    SELECT 1 /* x\n"
     "             ^"},
    {"SELECT $$abc\n",
     "t.sql:1:8: error: unterminated dollar-quoted string\n"
     "    SELECT $$abc\n"
     "           ^"},
    {"SELECT :'x';\n",
     "t.sql:1:8: error: quoted variable references (:'name', :\"name\") are not supported; use :name, which is sent as a parameter\n"
     "    SELECT :'x';\n"
     "           ^"},
    {"SELECT ? ;\n",
     "t.sql:1:8: error: \"?\" is reserved for parameters; use :name variables\n"
     "    SELECT ? ;\n"
     "           ^"},
    {"SELECT 1 \\; SELECT 2;\n",
     "t.sql:1:10: error: compound statements (\\;) are not supported\n"
     "    SELECT 1 \\; SELECT 2;\n"
     "             ^"},
    {"SELECT :undefined_var;\n",
     "t.sql:1:8: error: variable \"undefined_var\" is used but never set (by \\set, \\gset, \\aset or -D)\n"
     "    SELECT :undefined_var;\n"
     "           ^"},
    {"BEGIN ISOLATION LEVEL SNAPSHOT;\n",
     "t.sql:1:1: error: unsupported transaction mode in \"BEGIN ISOLATION LEVEL SNAPSHOT\"\n"
     "    BEGIN ISOLATION LEVEL SNAPSHOT;\n"
     "    ^"},
    {"COMMIT AND CHAIN;\n",
     "t.sql:1:1: error: unsupported form of COMMIT: \"COMMIT AND CHAIN\"\n"
     "    COMMIT AND CHAIN;\n"
     "    ^"},
    {"\\ set x 1\n",
     "t.sql:1:1: error: missing meta-command name after \"\\\"\n"
     "    \\ set x 1\n"
     "    ^"},
    {"BEGIN;\nSELECT 1\n\\set x (1\n",
     "t.sql:3:10: error: syntax error: unexpected end of expression, expected \")\"\n"
     "    \\set x (1\n"
     "             ^"},
    {"SELECT 1;\n\\set x 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26 + 27 + 28 + 29 + 30 + 31 + 32 + @ + 33 + 34 + 35 + 36 + 37 + 38 + 39 + 40 + 41 + 42 + 43 + 44 + 45 + 46 + 47 + 48 + 49 + 50 + 51 + 52 + 53 + 54 + 55 + 56\n",
     "t.sql:2:159: error: unexpected character \"@\" in expression\n"
     "    ...21 + 22 + 23 + 24 + 25 + 26 + 27 + 28 + 29 + 30 + 31 + 32 + @ + 33 + 34 + 35 + 36 + 37 + 38 + 39 + 40 + 41 + 42 + 43 + 4...\n"
     "                                                                   ^"},
    {"\t\\set x\t1 +\n",
     "t.sql:1:12: error: syntax error: unexpected end of expression\n"
     "    \t\\set x\t1 +\n"
     "    \t      \t   ^"},
    {"\\set é 1 + @\n",
     "t.sql:1:12: error: unexpected character \"@\" in expression\n"
     "    \\set é 1 + @\n"
     "               ^"},
    {"\\set x 1\n\\if :x\n\\set y 2\n\\endif\n\\if :y\n",
     "t.sql:5:1: error: \\if without matching \\endif\n"
     "    \\if :y\n"
     "    ^"},
    {"\\if 1\n\\if 2\n\\endif\n",
     "t.sql:1:1: error: \\if without matching \\endif\n"
     "    \\if 1\n"
     "    ^"},
    {"\\set x 1 -- comment\n",
     "t.sql:1:13: error: syntax error at \"comment\" (a variable is written :comment)\n"
     "    \\set x 1 -- comment\n"
     "                ^"},
    {"\\sleep :1x\n",
     "t.sql:1:8: error: invalid variable name \"1x\"\n"
     "    \\sleep :1x\n"
     "           ^"},
    {"\\set 1x 2\n",
     "t.sql:1:6: error: invalid variable name \"1x\"\n"
     "    \\set 1x 2\n"
     "         ^"},
    {"\\set x 1\r\n\\set y 1 +\r\n",
     "t.sql:2:12: error: syntax error: unexpected end of expression\n"
     "    \\set y 1 +\n"
     "              ^"},
    {"SELECT 1;\n  SELECT :a\n  FROM t;\n",
     "t.sql:2:10: error: variable \"a\" is used but never set (by \\set, \\gset, \\aset or -D)\n"
     "      SELECT :a\n"
     "             ^"},
    {"\\set x 1 \\\n + \\\n\n",
     "t.sql:3:1: error: syntax error: unexpected end of expression"},
    {"\\SET x 1\n\\Sleep 1 MS\n\\ELSE\n",
     "t.sql:3:1: error: \\else without matching \\if\n"
     "    \\ELSE\n"
     "    ^"},
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        dg_script_set *set = dg_script_set_new();
        dg_err err;
        dg_err_clear(&err);
        int rc = dg_script_set_add(set, "t.sql", errors[i].script, strlen(errors[i].script), 1, &err);
        if (rc == 0)
            rc = dg_script_set_finish(set, &err);
        DG_CHECK_INT(rc, DG_E_PARSE);
        DG_CHECK_INT(err.cls, DG_EC_USER);
        if (strcmp(err.msg, errors[i].msg) != 0)
            fprintf(stderr, "  script %zu: %s\n", i, errors[i].script);
        DG_CHECK_STR(err.msg, errors[i].msg);
        dg_script_set_free(set);
    }
}

/* A NUL byte is refused; a failed add leaves the set usable. */
static void test_failed_add_leaves_set_usable(void)
{
    dg_script_set *set = dg_script_set_new();
    dg_err err;
    DG_CHECK_INT(dg_script_set_add(set, "n.sql", "SELECT 1;\0x", 11, 1, &err), DG_E_PARSE);
    DG_CHECK_STR(err.msg, "n.sql:1:10: error: NUL byte in script\n    SELECT 1;\n             ^");
    /* this one uses :ghost before failing; :ghost must not haunt the set afterwards */
    const char *bad = "SELECT :ghost;\n\\set x (\n";
    DG_CHECK_INT(dg_script_set_add(set, "b.sql", bad, strlen(bad), 1, &err), DG_E_PARSE);
    const char *good = "SELECT 1;\n";
    DG_CHECK_INT(dg_script_set_add(set, "g.sql", good, strlen(good), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_set_count(set), 1);
    DG_CHECK_INT(dg_script_set_add(set, "late.sql", good, strlen(good), 1, &err), DG_E_INVAL);
    dg_script_set_free(set);

    set = dg_script_set_new();
    DG_CHECK_INT(dg_script_set_add(set, "w.sql", good, strlen(good), -1, &err), DG_E_INVAL);
    DG_CHECK_INT(dg_script_set_add_file(set, "/nonexistent/x.sql", 1, &err), DG_E_IO);
    DG_CHECK(strstr(err.msg, "cannot open \"/nonexistent/x.sql\"") != NULL);
    DG_CHECK_INT(dg_script_set_define(set, "1bad", "1", &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "invalid variable name \"1bad\"");
    DG_CHECK_INT(dg_script_set_finish(set, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "no scripts given");
    dg_script_set_free(set);
}

/* ---- well-formed scripts ----------------------------------------------------------- */

static dg_script_set *parse_ok(const char *name, const char *text)
{
    dg_script_set *set = dg_script_set_new();
    dg_err err;
    int rc = dg_script_set_add(set, name, text, strlen(text), 1, &err);
    if (rc == 0)
        rc = dg_script_set_finish(set, &err);
    if (rc != 0)
        fprintf(stderr, "  %s: %s\n", name, err.msg);
    DG_CHECK_INT(rc, 0);
    return set;
}

static const char *var_name(const dg_script_set *set, int slot) { return set->vars[slot].name; }

static char *fixture(const char *name)
{
    const char *dir = getenv("DG_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/scripts/%s", dir ? dir : "tests/fixtures", name);
    return strdup(path);
}

static void test_builtin_scripts(void)
{
    static const char *const files[] = {"tpcb-like.sql", "simple-update.sql", "select-only.sql",
                                        "conditional.sql"};
    dg_script_set *set = dg_script_set_new();
    dg_err err;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *path = fixture(files[i]);
        int rc = dg_script_set_add_file(set, path, (double)(i + 1), &err);
        if (rc)
            fprintf(stderr, "  %s: %s\n", path, err.msg);
        DG_CHECK_INT(rc, 0);
        free(path);
    }
    /* the same file twice gets a unique transaction name */
    char *path = fixture("select-only.sql");
    DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), 0);
    free(path);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_set_count(set), 5);
    DG_CHECK_STR(dg_script_set_name(set, 0), "tpcb-like");
    DG_CHECK_STR(dg_script_set_name(set, 2), "select-only");
    DG_CHECK_STR(dg_script_set_name(set, 4), "select-only#2");
    DG_CHECK_NEAR(dg_script_set_weight(set, 1), 2.0, 0);

    /* tpcb-like: 4 \set, BEGIN, 5 SQL, END */
    const scr_script *sc = &set->scripts[0];
    DG_CHECK_INT(sc->ncmds, 11);
    DG_CHECK_INT(sc->cmds[0].kind, CMD_SET);
    DG_CHECK_STR(var_name(set, sc->cmds[0].slot), "aid");
    DG_CHECK_INT(sc->cmds[0].line, 2);
    DG_CHECK_INT(sc->cmds[4].kind, CMD_BEGIN);
    DG_CHECK(sc->cmds[4].tx.write);
    DG_CHECK_INT(sc->cmds[5].kind, CMD_SQL);
    DG_CHECK_STR(sc->cmds[5].sql,
                 "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?");
    DG_CHECK_INT(sc->cmds[5].nparams, 2);
    DG_CHECK_STR(var_name(set, sc->cmds[5].params[0]), "delta");
    DG_CHECK_STR(var_name(set, sc->cmds[5].params[1]), "aid");
    DG_CHECK_STR(sc->cmds[9].sql, "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
                                  "VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)");
    DG_CHECK_INT(sc->cmds[9].nparams, 4);
    DG_CHECK_INT(sc->cmds[10].kind, CMD_COMMIT);

    /* select-only: no transaction block */
    sc = &set->scripts[2];
    DG_CHECK_INT(sc->ncmds, 2);
    DG_CHECK_STR(sc->cmds[1].sql, "SELECT abalance FROM pgbench_accounts WHERE aid = ?");
    DG_CHECK(!sc->cmds[1].writes);

    /* conditional.sql: comments, multi-line SQL, \gset / \aset, nested \if */
    sc = &set->scripts[3];
    DG_CHECK_INT(sc->ncmds, 19);
    DG_CHECK_INT(sc->cmds[0].line, 3);
    DG_CHECK_INT(sc->cmds[1].kind, CMD_SET); /* continued over two lines */
    DG_CHECK_INT(sc->cmds[2].kind, CMD_SQL);
    DG_CHECK_INT(sc->cmds[2].line, 6);
    DG_CHECK_STR(sc->cmds[2].sql, "SELECT count(*) AS total,     \n"
                                  "       max(v) AS top\n"
                                  "  FROM kv\n"
                                  " WHERE note <> 'a;b :notavar'\n"
                                  "   AND k < ?");
    DG_CHECK_INT(sc->cmds[2].fetch, FETCH_GSET);
    DG_CHECK_STR(sc->cmds[2].prefix, "stat_");
    /* \if (3) \elif (5) [\if (6) \else (8) \endif (10)] \elif (11) \else (13) \endif (15) */
    static const struct {
        int idx, kind, next, endif;
    } chain[] = {
        {3, CMD_IF, 5, 15},    {5, CMD_ELIF, 11, 15}, {6, CMD_IF, 8, 10},    {8, CMD_ELSE, 10, 10},
        {10, CMD_ENDIF, -1, 10}, {11, CMD_ELIF, 13, 15}, {13, CMD_ELSE, 15, 15}, {15, CMD_ENDIF, -1, 15},
    };
    for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++) {
        const scr_cmd *c = &sc->cmds[chain[i].idx];
        DG_CHECK_INT(c->kind, chain[i].kind);
        if (chain[i].kind != CMD_ENDIF && chain[i].kind != CMD_ELSE)
            DG_CHECK_INT(c->next, chain[i].next);
        DG_CHECK_INT(c->endif, chain[i].endif);
    }
    DG_CHECK_INT(sc->cmds[16].fetch, FETCH_ASET);
    DG_CHECK_STR(sc->cmds[16].prefix, "");
    DG_CHECK_STR(sc->cmds[17].sql, "UPDATE kv SET v = v + 1, note = $$it's; fine$$ WHERE k = ?");
    DG_CHECK(sc->cmds[17].writes);
    DG_CHECK_INT(sc->cmds[18].kind, CMD_SLEEP);
    DG_CHECK_INT(sc->cmds[18].sleep_unit_us, 1000);
    dg_script_set_free(set);
}

static const scr_cmd *only_cmd(const dg_script_set *set, int i)
{
    return &set->scripts[0].cmds[i];
}

/* SQL scanning: quotes, comments, casts, variables, dollar quotes, parentheses */
static void test_sql_text(void)
{
    static const struct {
        const char *script, *sql;
        int nparams;
    } t[] = {
        {"SELECT 1", "SELECT 1", 0},
        {"SELECT 1;", "SELECT 1", 0},
        {"  -- leading comment\n  SELECT 1 -- trailing\n  ;", "SELECT 1", 0},
        {"/* lead */ SELECT /* keep */ 2;", "SELECT /* keep */ 2", 0},
        {"/* a /* nested */ comment */ SELECT 3;", "SELECT 3", 0},
        {"SELECT ':x', \":y\", 'it''s :z';", "SELECT ':x', \":y\", 'it''s :z'", 0},
        {"SELECT E'\\':x', :a;", "SELECT E'\\':x', ?", 1},
        {"SELECT '\\', :a;", "SELECT '\\', ?", 1},
        {"SELECT :a::int, :a ::text, x:::a;", "SELECT ?::int, ? ::text, x:::a", 2},
        {"SELECT arr[1:2], :a;", "SELECT arr[1:2], ?", 1},
        {"SELECT $$ :x ; $$, $tag$ $$ ; $tag$, :a;", "SELECT $$ :x ; $$, $tag$ $$ ; $tag$, ?", 1},
        {"SELECT $1, a$b, :a;", "SELECT $1, a$b, ?", 1},
        {"SELECT f(1; 2), :a;", "SELECT f(1; 2), ?", 1},
        {"SELECT x := 1, \\:a;", "SELECT x := 1, :a", 0},
        {"SELECT :a,:a,:é_1;", "SELECT ?,?,?", 3},
        {"SELECT 1\n\\set a 1\n", "SELECT 1", 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "\\set a 1\n\\set é_1 2\n%s", t[i].script);
        dg_script_set *set = parse_ok("s.sql", text);
        const scr_cmd *c = only_cmd(set, 2);
        DG_CHECK_INT(c->kind, CMD_SQL);
        if (c->kind == CMD_SQL) {
            DG_CHECK_STR(c->sql, t[i].sql);
            DG_CHECK_INT(c->nparams, t[i].nparams);
        }
        dg_script_set_free(set);
    }
}

/* Several commands on one line, a SQL command ended by a meta-command, a final SQL
 * command without ';' */
static void test_command_boundaries(void)
{
    dg_script_set *set = parse_ok("b.sql", "SELECT 1; SELECT 2;SELECT 3\n\\set x 1\nSELECT\n  4");
    const scr_script *sc = &set->scripts[0];
    DG_CHECK_INT(sc->ncmds, 5);
    DG_CHECK_STR(sc->cmds[0].sql, "SELECT 1");
    DG_CHECK_STR(sc->cmds[1].sql, "SELECT 2");
    DG_CHECK_STR(sc->cmds[2].sql, "SELECT 3");
    DG_CHECK_INT(sc->cmds[3].kind, CMD_SET);
    DG_CHECK_STR(sc->cmds[4].sql, "SELECT\n  4");
    DG_CHECK_INT(sc->cmds[4].line, 3);
    dg_script_set_free(set);

    /* \gset after a ';' still attaches to that command, as in pgbench */
    set = parse_ok("g.sql", "SELECT 1 AS a;\n\\gset p_\n\\set b :p_a\n");
    DG_CHECK_INT(set->scripts[0].ncmds, 2);
    DG_CHECK_INT(set->scripts[0].cmds[0].fetch, FETCH_GSET);
    dg_script_set_free(set);
}

/* Transaction control statements and the write flag of their blocks */
static void test_transactions(void)
{
    static const struct {
        const char *sql;
        int kind;
        int iso;
        bool read_only, write;
    } t[] = {
        {"BEGIN;\nSELECT 1;\nCOMMIT;", CMD_BEGIN, DG_ISO_DEFAULT, false, false},
        {"begin transaction;\nupdate t set a = 1;\ncommit;", CMD_BEGIN, DG_ISO_DEFAULT, false, true},
        {"BEGIN WORK;\nSELECT replace(a, 'x', 'y') FROM t;\nEND;", CMD_BEGIN, DG_ISO_DEFAULT, false, false},
        {"START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY;\nSELECT 1;\nCOMMIT;",
         CMD_BEGIN, DG_ISO_SERIALIZABLE, true, false},
        {"BEGIN ISOLATION LEVEL REPEATABLE READ READ WRITE;\nDELETE FROM t;\nROLLBACK;", CMD_BEGIN,
         DG_ISO_REPEATABLE_READ, false, true},
        {"BEGIN ISOLATION LEVEL READ COMMITTED NOT DEFERRABLE;\nINSERT INTO t VALUES (1);\nABORT;",
         CMD_BEGIN, DG_ISO_READ_COMMITTED, false, true},
        {"BEGIN IMMEDIATE;\nSELECT 1;\nCOMMIT;", CMD_BEGIN, DG_ISO_DEFAULT, false, true},
        {"BEGIN DEFERRED TRANSACTION;\nSELECT 1;\nCOMMIT;", CMD_BEGIN, DG_ISO_DEFAULT, false, false},
        {"BEGIN;\nSELECT 1;\nCOMMIT;\nUPDATE t SET a = 2;", CMD_BEGIN, DG_ISO_DEFAULT, false, false},
        {"BEGIN;\nSELECT * FROM t FOR UPDATE;\nCOMMIT;", CMD_BEGIN, DG_ISO_DEFAULT, false, true},
        {"BEGIN;\nWITH d AS (DELETE FROM t RETURNING *) SELECT 1;\nCOMMIT;", CMD_BEGIN,
         DG_ISO_DEFAULT, false, true},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        dg_script_set *set = parse_ok("x.sql", t[i].sql);
        const scr_cmd *c = only_cmd(set, 0);
        DG_CHECK_INT(c->kind, t[i].kind);
        DG_CHECK_INT(c->tx.isolation, t[i].iso);
        DG_CHECK_INT(c->tx.read_only, t[i].read_only);
        if (c->tx.write != t[i].write)
            fprintf(stderr, "  write flag of: %s\n", t[i].sql);
        DG_CHECK_INT(c->tx.write, t[i].write);
        DG_CHECK(only_cmd(set, 2)->kind == CMD_COMMIT || only_cmd(set, 2)->kind == CMD_ROLLBACK);
        dg_script_set_free(set);
    }
    /* ROLLBACK TO SAVEPOINT and two-phase commands are ordinary SQL */
    dg_script_set *set = parse_ok("s.sql", "ROLLBACK TO SAVEPOINT a;\nROLLBACK WORK TO a;\n"
                                           "COMMIT PREPARED 'x';\nEND TRANSACTION;\n");
    DG_CHECK_INT(only_cmd(set, 0)->kind, CMD_SQL);
    DG_CHECK_INT(only_cmd(set, 1)->kind, CMD_SQL);
    DG_CHECK_INT(only_cmd(set, 2)->kind, CMD_SQL);
    DG_CHECK_INT(only_cmd(set, 3)->kind, CMD_COMMIT);
    dg_script_set_free(set);
}

/* Meta-commands: case, units, continuation, variables shared between scripts, -D */
static void test_meta_commands(void)
{
    dg_script_set *set = parse_ok("m.sql", "\\SET x 1\n\\Sleep 1 MS\n\\sleep 10us\n\\sleep 2\n"
                                           "\\sleep :x s\n\\sleep -0\n\\set y \\\n  :x \\\n + 1\n");
    const scr_script *sc = &set->scripts[0];
    DG_CHECK_INT(sc->ncmds, 7);
    DG_CHECK_INT(sc->cmds[1].sleep_value, 1);
    DG_CHECK_INT(sc->cmds[1].sleep_unit_us, 1000);
    DG_CHECK_INT(sc->cmds[2].sleep_value, 10);
    DG_CHECK_INT(sc->cmds[2].sleep_unit_us, 1);
    DG_CHECK_INT(sc->cmds[3].sleep_unit_us, 1000000);
    DG_CHECK_STR(var_name(set, sc->cmds[4].sleep_slot), "x");
    DG_CHECK_INT(sc->cmds[5].sleep_value, 0);
    DG_CHECK_INT(sc->cmds[6].kind, CMD_SET);
    DG_CHECK_INT(sc->cmds[6].line, 7);
    dg_script_set_free(set);

    /* a variable set in one script may be used in another; -D counts as set; a \gset
     * prefix covers the names it may produce */
    set = dg_script_set_new();
    dg_err err;
    const char *a = "SELECT :shared, :cli, :row_x;\n", *b = "\\set shared 1\nSELECT 1 \\gset row_\n";
    DG_CHECK_INT(dg_script_set_add(set, "a.sql", a, strlen(a), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_add(set, "b.sql", b, strlen(b), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), DG_E_PARSE);
    DG_CHECK_STR(err.msg, "a.sql:1:17: error: variable \"cli\" is used but never set (by \\set, "
                          "\\gset, \\aset or -D)\n    SELECT :shared, :cli, :row_x;\n"
                          "                    ^");
    DG_CHECK_INT(dg_script_set_define(set, "cli", "x", &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    dg_script_set_free(set);
}

static void hash_cb(void *arg, const char *p, size_t n)
{
    dg_strbuf *sb = arg;
    dg_sb_addn(sb, p, n);
}

/* dg_script_set_hash_text gives every script's text, in order */
static void test_hash_text(void)
{
    dg_script_set *set = dg_script_set_new();
    dg_err err;
    DG_CHECK_INT(dg_script_set_add(set, "a.sql", "SELECT 1;\n", 10, 1, &err), 0);
    DG_CHECK_INT(dg_script_set_add(set, "b.sql", "SELECT 2;", 9, 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_script_set_hash_text(set, hash_cb, &sb);
    DG_CHECK_STR(dg_sb_str(&sb), "SELECT 1;\nSELECT 2;");
    dg_sb_free(&sb);
    dg_script_set_free(set);
}

/* ---- limits ------------------------------------------------------------------------ */

/* Script files: only regular files up to DG_SCRIPT_MAX_BYTES are read; anything else is
 * refused before reading (-f /dev/zero used to read until memory ran out). */
static void test_file_limits(void)
{
    char dir[] = "/tmp/dg-test-script-parse-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        DG_CHECK(0);
        return;
    }
    char path[256], want[512];
    dg_err err;
    dg_script_set *set = dg_script_set_new();

    DG_CHECK_INT(dg_script_set_add_file(set, dir, 1, &err), DG_E_INVAL);
    snprintf(want, sizeof want, "script \"%s\" is a directory, not a regular file", dir);
    DG_CHECK_STR(err.msg, want);
    DG_CHECK_INT(err.cls, DG_EC_USER);

    DG_CHECK_INT(dg_script_set_add_file(set, "/dev/zero", 1, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "script \"/dev/zero\" is a character device, not a regular file");

    snprintf(path, sizeof path, "%s/fifo.sql", dir);
    if (mkfifo(path, 0600) == 0) { /* no writer: opening must not wait for one */
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), DG_E_INVAL);
        snprintf(want, sizeof want, "script \"%s\" is a pipe, not a regular file", path);
        DG_CHECK_STR(err.msg, want);
    }

    /* a sparse file one byte over the limit, and one at the limit (all NUL bytes: read,
     * then refused by the parser) */
    snprintf(path, sizeof path, "%s/huge.sql", dir);
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        DG_CHECK_INT(ftruncate(fileno(f), DG_SCRIPT_MAX_BYTES + 1), 0);
        fclose(f);
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), DG_E_INVAL);
        snprintf(want, sizeof want,
                 "script \"%s\" is too large (16777217 bytes; the limit is 16 MiB)", path);
        DG_CHECK_STR(err.msg, want);
        DG_CHECK_INT(truncate(path, DG_SCRIPT_MAX_BYTES), 0);
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), DG_E_PARSE);
        DG_CHECK(strstr(err.msg, "error: NUL byte in script") != NULL);
    }

    snprintf(path, sizeof path, "%s/ok.sql", dir);
    f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        fputs("SELECT 1;\n", f);
        fclose(f);
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), 0);
        DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    }
    dg_script_set_free(set);
    dgt_remove_tree(dir);
}

/* A script file that starts with a UTF-8 byte order mark (Windows editors save one) reads
 * as if it had none: its first line's meta-command stays one, and columns count after the
 * mark, as editors show them. */
static void test_byte_order_mark(void)
{
    char dir[] = "/tmp/dg-test-script-bom-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        DG_CHECK(0);
        return;
    }
    char path[256], want[512];
    dg_err err;
    snprintf(path, sizeof path, "%s/bom.sql", dir);
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        fputs("\xEF\xBB\xBF\\set x 1\nSELECT :x;\n", f);
        fclose(f);
        dg_script_set *set = dg_script_set_new();
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), 0);
        DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
        const scr_script *sc = &set->scripts[0];
        DG_CHECK_INT(sc->ncmds, 2);
        DG_CHECK_INT(sc->cmds[0].kind, CMD_SET);
        DG_CHECK_INT(sc->cmds[0].line, 1);
        DG_CHECK_INT(sc->cmds[1].kind, CMD_SQL);
        DG_CHECK_STR(sc->cmds[1].sql, "SELECT ?");
        dg_script_set_free(set);
    }
    f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        fputs("\xEF\xBB\xBF\\set x 1 +\n", f);
        fclose(f);
        dg_script_set *set = dg_script_set_new();
        DG_CHECK_INT(dg_script_set_add_file(set, path, 1, &err), DG_E_PARSE);
        snprintf(want, sizeof want,
                 "%s:1:11: error: syntax error: unexpected end of expression\n"
                 "    \\set x 1 +\n"
                 "              ^",
                 path);
        DG_CHECK_STR(err.msg, want);
        dg_script_set_free(set);
    }
    dgt_remove_tree(dir);
}

/* Sizes that used to take quadratic time (50,000 nested \if took over a minute, so did
 * 100,000 variables): the shapes are checked here; scale is what keeps them fast. */
static void test_large_scripts(void)
{
    enum { NIF = 20000, NVAR = 50000, NGSET = 5000 };
    dg_strbuf sb = DG_STRBUF_INIT;
    for (int i = 0; i < NIF; i++)
        dg_sb_add(&sb, "\\if 1\n");
    dg_sb_add(&sb, "\\set x 1\n");
    for (int i = 0; i < NIF; i++)
        dg_sb_add(&sb, "\\endif\n");
    dg_script_set *set = parse_ok("ifs.sql", dg_sb_str(&sb));
    const scr_script *sc = &set->scripts[0];
    DG_CHECK_INT(sc->ncmds, 2 * NIF + 1);
    DG_CHECK_INT(sc->cmds[0].endif, 2 * NIF);
    DG_CHECK_INT(sc->cmds[NIF - 1].endif, NIF + 1);
    DG_CHECK_INT(sc->cmds[NIF].line, NIF + 1);
    DG_CHECK_INT(sc->cmds[2 * NIF].line, 2 * NIF + 1);
    dg_script_set_free(set);

    dg_sb_reset(&sb);
    for (int i = 0; i < NVAR; i++)
        dg_sb_printf(&sb, "\\set v%d %d\n", i, i);
    dg_sb_add(&sb, "SELECT :v0, :v49999;\n");
    set = parse_ok("vars.sql", dg_sb_str(&sb));
    DG_CHECK_INT(set->nvars, SCR_NBUILTINS + NVAR);
    DG_CHECK_INT(dg_scr_var_find(set, "v12345", 6), SCR_NBUILTINS + 12345);
    DG_CHECK_INT(dg_scr_var_find(set, "v123456", 7), -1);
    DG_CHECK_INT(dg_scr_var_find(set, "scale", 5), SCR_BUILTIN_SCALE);
    sc = &set->scripts[0];
    DG_CHECK_INT(sc->cmds[NVAR].params[1], SCR_NBUILTINS + NVAR - 1);
    dg_script_set_free(set);

    /* many \gset prefixes and many variables only they can set; the last is set by none */
    dg_sb_reset(&sb);
    for (int i = 0; i < NGSET; i++)
        dg_sb_printf(&sb, "SELECT 1 AS a \\gset p%d_\n\\set y%d :p%d_a\n", i, i, i);
    dg_sb_add(&sb, "\\set z :p_a\n");
    set = dg_script_set_new();
    dg_err err;
    DG_CHECK_INT(dg_script_set_add(set, "g.sql", sb.buf, sb.len, 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), DG_E_PARSE);
    DG_CHECK(strstr(err.msg, "variable \"p_a\" is used but never set") != NULL);
    dg_script_set_free(set);
    dg_sb_free(&sb);
}

int main(void)
{
    DG_RUN(test_errors);
    DG_RUN(test_failed_add_leaves_set_usable);
    DG_RUN(test_builtin_scripts);
    DG_RUN(test_sql_text);
    DG_RUN(test_command_boundaries);
    DG_RUN(test_transactions);
    DG_RUN(test_meta_commands);
    DG_RUN(test_hash_text);
    DG_RUN(test_file_limits);
    DG_RUN(test_byte_order_mark);
    DG_RUN(test_large_scripts);
    DG_TEST_END();
}
