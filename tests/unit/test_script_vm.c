/*
 * test_script_vm.c - running scripts against SQLite (sqlite::memory:).
 *
 * Layout: a fixture table kv(k, v, d, note) and helpers; tests for parameters, \gset /
 * \aset, \if driven by values from the database, transactions checked by reading the
 * data back, error messages and classes; and a steady-state test that runs a script
 * 10,000 times under a counting malloc shim (defined in this file, forwarding to
 * glibc's __libc_* functions; skipped in sanitizer builds and under valgrind, whose
 * allocators replace it).
 * The shim counts the calls made from code of this executable (the engine, the backend
 * glue, the test): the shared SQLite library allocates its in-memory journal in every
 * write transaction, which is not the engine's doing.
 */
#define _GNU_SOURCE /* dladdr */
#include "dgtest.h"

#include "backend/backend.h"
#include "workload/script/script.h"

#include <dlfcn.h>
#include <malloc.h>
#include <time.h>
#include <stdbool.h>

/* ---- counting allocator ------------------------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__)
#define DG_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DG_COUNT_MALLOC 0
#endif
#endif
#ifndef DG_COUNT_MALLOC
#define DG_COUNT_MALLOC 1
#endif

static long allocs; /* calls of malloc/calloc/realloc from this executable */

/* Valgrind replaces malloc in the executable too, so the shim below never runs there
 * (scripts/check runs the unit tests under valgrind); it preloads its vgpreload_*.so. */
static bool under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

#if DG_COUNT_MALLOC
static void *exe_base; /* load address of this executable */
static __thread int in_count;

static void count(void *caller)
{
    if (in_count)
        return;
    in_count = 1;
    Dl_info info;
    if (!exe_base && dladdr((void *)count, &info))
        exe_base = info.dli_fbase;
    if (dladdr(caller, &info) && info.dli_fbase == exe_base)
        __atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
    in_count = 0;
}

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
    count(__builtin_return_address(0));
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    count(__builtin_return_address(0));
    return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    count(__builtin_return_address(0));
    return __libc_realloc(p, n);
}

void free(void *p) { __libc_free(p); }
#endif

/* ---- fixture ------------------------------------------------------------------------- */

static dg_conn *conn;
static dg_prng rng;

static void setup(void)
{
    dg_err err;
    dg_conn_close(conn);
    conn = NULL;
    int rc = dg_connect("sqlite::memory:", NULL, &conn, &err);
    if (rc) {
        fprintf(stderr, "connect: %s\n", err.msg);
        exit(1);
    }
    rc = dg_exec(conn,
                 "CREATE TABLE kv (k INTEGER PRIMARY KEY, v INTEGER, d REAL, note TEXT);"
                 "INSERT INTO kv VALUES (1, 10, 0.5, 'one'), (2, 20, 1.5, 'two'),"
                 " (3, 30, NULL, NULL), (4, 400, 4.25, 'four');",
                 &err);
    if (rc) {
        fprintf(stderr, "setup: %s\n", err.msg);
        exit(1);
    }
    dg_prng_seed(&rng, 7);
}

static int64_t q_int(const char *sql)
{
    dg_err err;
    int64_t v = -1;
    bool found = false;
    if (dg_query_int(conn, sql, NULL, 0, &v, &found, &err) != 0) {
        fprintf(stderr, "query %s: %s\n", sql, err.msg);
        return -999;
    }
    return found ? v : -1;
}

/* A set of one or more scripts (NULL-terminated name, text pairs), -D defs, and a VM. */
typedef struct rig {
    dg_script_set *set;
    dg_script_vm *vm;
    dg_err err;
    int rc; /* of the first step that failed */
} rig;

static rig make(const char *const *scripts, const char *const *defs)
{
    rig r = {0};
    r.set = dg_script_set_new();
    for (int i = 0; defs && defs[i]; i += 2)
        if ((r.rc = dg_script_set_define(r.set, defs[i], defs[i + 1], &r.err)))
            return r;
    for (int i = 0; scripts[i]; i += 2)
        if ((r.rc = dg_script_set_add(r.set, scripts[i], scripts[i + 1], strlen(scripts[i + 1]), 1,
                                      &r.err)))
            return r;
    if ((r.rc = dg_script_set_finish(r.set, &r.err)))
        return r;
    r.rc = dg_script_vm_new(r.set, conn, &rng, 1, 3, 99, &r.vm, &r.err);
    if (r.rc)
        fprintf(stderr, "  (vm: %s)\n", r.err.msg);
    return r;
}

static rig make1(const char *name, const char *text)
{
    const char *s[] = {name, text, NULL};
    return make(s, NULL);
}

static void unmake(rig *r)
{
    dg_script_vm_free(r->vm);
    dg_script_set_free(r->set);
    if (conn->in_tx) {
        dg_err err;
        dg_rollback(conn, &err);
    }
}

static int run(rig *r, int script)
{
    r->rc = dg_script_vm_run(r->vm, script, &r->err);
    if (r->rc)
        fprintf(stderr, "  (run: %s)\n", r->err.msg);
    return r->rc;
}

static int64_t get_int(rig *r, const char *name)
{
    dg_value v;
    if (dg_script_vm_get(r->vm, name, &v) != 0 || v.type != DG_V_INT)
        return -12345;
    return v.u.i;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_set_and_parameters(void)
{
    setup();
    const char *defs[] = {"word", "hello", "nothing", "null", NULL};
    const char *s[] = {"p.sql",
                       "\\set k 3\n"
                       "\\set v :k * 100 + :client_id\n"
                       "\\set d :v / 4.0\n"
                       "\\set b :k = 3\n"
                       "\\set n NULL\n"
                       "\\set k2 :k + 10\n"
                       "UPDATE kv SET v = :v, d = :d, note = :word WHERE k = :k AND :b;\n"
                       "INSERT INTO kv (k, v, note) VALUES (:k2, :n, :word);\n",
                       NULL};
    rig r = make(s, defs);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc == 0) {
        DG_CHECK_INT(run(&r, 0), 0);
        DG_CHECK_INT(q_int("SELECT v FROM kv WHERE k = 3"), 303);
        DG_CHECK_INT(q_int("SELECT d * 100 FROM kv WHERE k = 3"), 7575);
        DG_CHECK_INT(q_int("SELECT typeof(d) = 'real' FROM kv WHERE k = 3"), 1);
        DG_CHECK_INT(q_int("SELECT note = 'hello' FROM kv WHERE k = 3"), 1);
        DG_CHECK_INT(q_int("SELECT v IS NULL FROM kv WHERE k = 13"), 1);
        DG_CHECK_INT(q_int("SELECT typeof(note) = 'text' FROM kv WHERE k = 13"), 1);
    }
    unmake(&r);
}

static void test_gset_aset(void)
{
    setup();
    rig r = make1("g.sql", "SELECT v AS val, d, note, k * 2 AS twice FROM kv WHERE k = 2 \\gset p_\n"
                           "\\set x :p_val + :p_twice\n"
                           "SELECT d AS nd, note AS nn FROM kv WHERE k = 3 \\gset\n"
                           "\\set y :nd IS NULL\n"
                           "SELECT k AS last, note AS lastnote FROM kv ORDER BY k \\aset\n"
                           "SELECT -1 AS last FROM kv WHERE k < 0 \\aset\n"
                           "SELECT 'abc' AS s1, '42' AS s2, '2.5' AS s3, 'yes' AS s4;\n"
                           "\\gset\n"
                           "\\set t :s2 * 2 + :s3\n"
                           "\\if :s4\n\\set u 1\n\\else\n\\set u 0\n\\endif\n"
                           "\\set unused debug(:last)\n"
                           "SELECT :lastnote, :s1;\n");
    DG_CHECK_INT(r.rc, 0);
    if (r.rc == 0) {
        DG_CHECK_INT(run(&r, 0), 0);
        dg_value v;
        DG_CHECK_INT(get_int(&r, "p_val"), 20);
        DG_CHECK_INT(dg_script_vm_get(r.vm, "p_d", &v), DG_E_NOTFOUND); /* never read: not kept */
        DG_CHECK_INT(get_int(&r, "x"), 24);
        DG_CHECK_INT(dg_script_vm_get(r.vm, "nd", &v), 0);
        DG_CHECK_INT(v.type, DG_V_NULL);
        DG_CHECK_INT(get_int(&r, "y"), 1);
        DG_CHECK_INT(get_int(&r, "last"), 4);
        DG_CHECK_INT(dg_script_vm_get(r.vm, "lastnote", &v), 0);
        DG_CHECK(v.type == DG_V_TEXT && strcmp(v.u.s.ptr, "four") == 0);
        DG_CHECK_INT(dg_script_vm_get(r.vm, "s1", &v), 0);
        DG_CHECK(v.type == DG_V_TEXT && v.u.s.len == 3 && strcmp(v.u.s.ptr, "abc") == 0);
        DG_CHECK_INT(dg_script_vm_get(r.vm, "t", &v), 0);
        DG_CHECK(v.type == DG_V_DOUBLE && v.u.d == 86.5);
        DG_CHECK_INT(get_int(&r, "u"), 1);
    }
    unmake(&r);

    /* \gset on its own column names: two columns of the same name, the last wins */
    r = make1("g2.sql", "SELECT 1 AS i, 2 AS i \\gset\n\\set j :i\n");
    DG_CHECK_INT(r.rc, 0);
    if (r.rc == 0) {
        DG_CHECK_INT(run(&r, 0), 0);
        DG_CHECK_INT(get_int(&r, "j"), 2);
    }
    unmake(&r);
}

static void test_if_from_database(void)
{
    setup();
    /* :k is read before this client ever set it */
    rig r = make1("if.sql", "\\set k :k % 4 + 1\n");
    DG_CHECK_INT(r.rc, 0);
    DG_CHECK_INT(dg_script_vm_run(r.vm, 0, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "if.sql command 1: undefined variable \"k\"");
    unmake(&r);
    const char *defs[] = {"k", "0", NULL};
    const char *s[] = {"if.sql",
                       "\\set k :k % 4 + 1\n"
                       "SELECT v FROM kv WHERE k = :k \\gset\n"
                       "\\if :v >= 100\n"
                       "  UPDATE kv SET note = 'big' WHERE k = :k;\n"
                       "\\elif :v >= 20\n"
                       "  UPDATE kv SET note = 'medium' WHERE k = :k;\n"
                       "\\else\n"
                       "  UPDATE kv SET note = 'small' WHERE k = :k;\n"
                       "\\endif\n",
                       NULL};
    r = make(s, defs);
    DG_CHECK_INT(r.rc, 0);
    for (int i = 0; r.rc == 0 && i < 4; i++)
        DG_CHECK_INT(run(&r, 0), 0);
    DG_CHECK_INT(q_int("SELECT count(*) FROM kv WHERE note = 'small'"), 1);
    DG_CHECK_INT(q_int("SELECT k FROM kv WHERE note = 'small'"), 1);
    DG_CHECK_INT(q_int("SELECT count(*) FROM kv WHERE note = 'medium'"), 2);
    DG_CHECK_INT(q_int("SELECT k FROM kv WHERE note = 'big'"), 4);
    unmake(&r);
}

static void test_transactions(void)
{
    setup();
    const char *s[] = {"commit.sql",
                       "BEGIN;\nUPDATE kv SET v = v + 1 WHERE k = 1;\nUPDATE kv SET v = v + 1 WHERE k = 2;\n"
                       "COMMIT;\n",
                       "rollback.sql",
                       "BEGIN;\nUPDATE kv SET v = 999 WHERE k = 1;\nSELECT v FROM kv WHERE k = 1 \\gset\n"
                       "ROLLBACK;\n\\set v2 :v\n",
                       "iso.sql",
                       "START TRANSACTION ISOLATION LEVEL SERIALIZABLE;\nSELECT v AS w FROM kv WHERE k = 4 "
                       "\\gset\nEND;\n\\set w2 :w\n",
                       "open.sql", "\\set a 1\nBEGIN;\nUPDATE kv SET v = 0 WHERE k = 4;\n",
                       "twice.sql", "BEGIN;\nBEGIN;\nCOMMIT;\n",
                       "stray.sql", "COMMIT;\nROLLBACK;\n",
                       NULL};
    rig r = make(s, NULL);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc)
        goto done;
    DG_CHECK_INT(run(&r, 0), 0);
    DG_CHECK(!conn->in_tx);
    DG_CHECK_INT(q_int("SELECT v FROM kv WHERE k = 1"), 11);
    DG_CHECK_INT(q_int("SELECT v FROM kv WHERE k = 2"), 21);

    DG_CHECK_INT(run(&r, 1), 0);
    DG_CHECK_INT(get_int(&r, "v"), 999); /* seen inside the transaction */
    DG_CHECK_INT(q_int("SELECT v FROM kv WHERE k = 1"), 11);

    DG_CHECK_INT(run(&r, 2), 0);
    DG_CHECK_INT(get_int(&r, "w"), 400);

    DG_CHECK_INT(dg_script_vm_run(r.vm, 3, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "open.sql command 2: the transaction begun here is still open at the "
                            "end of the script");
    DG_CHECK_INT(r.err.cls, DG_EC_USER);
    DG_CHECK(conn->in_tx); /* left to the caller */
    dg_rollback(conn, &r.err);
    DG_CHECK_INT(q_int("SELECT v FROM kv WHERE k = 4"), 400);

    DG_CHECK_INT(dg_script_vm_run(r.vm, 4, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "twice.sql command 2: BEGIN inside a transaction begun by command 1");
    dg_rollback(conn, &r.err);

    DG_CHECK_INT(run(&r, 5), 0); /* COMMIT / ROLLBACK without a transaction: no-ops */
done:
    unmake(&r);
}

static void test_errors(void)
{
    setup();
    /* a statement that cannot be prepared fails the VM, naming script and command */
    rig r = make1("bad.sql", "\\set a 1\nSELECT * FROM nosuchtable;\n");
    DG_CHECK(r.rc < 0);
    DG_CHECK(strncmp(r.err.msg, "bad.sql command 2: ", 19) == 0);
    DG_CHECK(strstr(r.err.msg, "nosuchtable") != NULL);
    DG_CHECK_INT(r.err.cls, DG_EC_USER);
    DG_CHECK(r.vm == NULL);
    unmake(&r);

    const char *s[] = {"c.sql", "INSERT INTO kv (k) VALUES (1);\n",
                       "g0.sql", "\\set a 1\nSELECT v FROM kv WHERE k < 0 \\gset\n",
                       "g2.sql", "SELECT v FROM kv WHERE k < 3 \\gset\n",
                       "gu.sql", "UPDATE kv SET v = v WHERE k = 1 \\gset\n",
                       "div.sql", "SELECT 0 AS z \\gset\n\\set q 1 / :z\n",
                       "badcol.sql", "SELECT 1 \\gset\n",
                       "mix.sql", "\\set t 'x'\n",
                       NULL};
    r = make(s, NULL);
    DG_CHECK_INT(r.rc, DG_E_PARSE); /* 'x' is not an expression */
    DG_CHECK(strstr(r.err.msg, "mix.sql:1:8: error: unexpected character \"'\"") != NULL);
    unmake(&r);
    s[12] = NULL;
    r = make(s, NULL);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc)
        goto done;
    int rc = dg_script_vm_run(r.vm, 0, &r.err);
    DG_CHECK(rc < 0);
    DG_CHECK(strncmp(r.err.msg, "c.sql command 1: ", 17) == 0);
    DG_CHECK_INT(r.err.cls, DG_EC_CONSTRAINT);

    DG_CHECK_INT(dg_script_vm_run(r.vm, 1, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "g0.sql command 2: \\gset expects one row, got 0");
    DG_CHECK_INT(r.err.cls, DG_EC_USER);
    DG_CHECK_INT(dg_script_vm_run(r.vm, 2, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "g2.sql command 1: \\gset expects one row, got 2");
    DG_CHECK_INT(dg_script_vm_run(r.vm, 3, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "gu.sql command 1: \\gset expects one row, got 0");
    DG_CHECK_INT(dg_script_vm_run(r.vm, 4, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "div.sql command 2: division by zero");
    DG_CHECK_INT(r.err.cls, DG_EC_USER);
    DG_CHECK_INT(dg_script_vm_run(r.vm, 5, &r.err), DG_E_INVAL);
    DG_CHECK_STR(r.err.msg, "badcol.sql command 1: \\gset: column \"1\" does not make a valid "
                            "variable name");
    /* after errors the statements were reset: the VM keeps working */
    DG_CHECK_INT(dg_script_vm_run(r.vm, 4, &r.err), DG_E_INVAL);
    DG_CHECK_INT(q_int("SELECT count(*) FROM kv"), 4);
done:
    unmake(&r);

    /* transaction control needs a connection as SQL does (found by fuzzing: a script of
     * only "END;" ran dg_commit on a NULL connection) */
    dg_script_set *set = dg_script_set_new();
    dg_script_vm *vm = NULL;
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_script_set_add(set, "tx.sql", "END;\n", 5, 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 1, &vm, &err), DG_E_INVAL);
    DG_CHECK_STR(err.msg, "scripts with SQL commands need a connection");
    DG_CHECK(vm == NULL);
    dg_script_set_free(set);
}

static void test_sleep(void)
{
    setup();
    const char *defs[] = {"ms", "2", NULL};
    const char *s[] = {"sl.sql", "\\sleep :ms ms\n\\sleep 1000 us\n\\sleep 0\n\\sleep +0 s\n", NULL};
    rig r = make(s, defs);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc == 0) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        DG_CHECK_INT(run(&r, 0), 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
        DG_CHECK(ms >= 2.9);
        DG_CHECK(ms < 1000);
    }
    unmake(&r);

    /* a negative time from a variable stops the script, naming the line and the value
     * (a constant one is refused when the script is parsed); sleeping not at all would
     * turn a paced script into a tight loop */
    static const struct {
        const char *text, *msg;
    } negative[] = {
        {"SELECT 1;\n\\set t -3\n\\sleep :t s\n",
         "neg.sql command 3: \\sleep at line 3: variable \"t\" holds -3, a negative time (must be "
         "0 or more)"},
        {"\\set t -0.5\n\n\\sleep :t ms\n",
         "neg.sql command 2: \\sleep at line 3: variable \"t\" holds -0.5, a negative time (must "
         "be 0 or more)"},
        {"\\set t 1e308 * 10.0\n\\sleep :t us\n",
         "neg.sql command 2: \\sleep at line 2: variable \"t\" holds inf, not a time (must be a "
         "finite number, 0 or more)"},
        {"\\sleep :d\n",
         "neg.sql command 1: \\sleep at line 1: variable \"d\" holds -7, a negative time (must be "
         "0 or more)"},
    };
    for (size_t i = 0; i < sizeof negative / sizeof negative[0]; i++) {
        const char *ns[] = {"neg.sql", negative[i].text, NULL};
        const char *nd[] = {"d", "-7", NULL};
        r = make(ns, nd);
        DG_CHECK_INT(r.rc, 0);
        if (r.rc == 0) {
            DG_CHECK_INT(run(&r, 0), DG_E_INVAL);
            DG_CHECK_STR(r.err.msg, negative[i].msg);
            DG_CHECK_INT(r.err.cls, DG_EC_USER);
        }
        unmake(&r);
    }
}

/* random(LO, HI) with constant bounds (drawn by the VM without the evaluator) gives the
 * generator's values, the same as the evaluator's path for bounds from variables; a
 * variable that held text becomes an integer; bounds that cannot be drawn from still fail
 * when run, with the evaluator's message. */
static void test_random_draws(void)
{
    setup();
    const char *defs[] = {"x", "some text", "lo", "-5", "hi", "5", NULL};
    const char *s[] = {"r.sql",
                       "\\set x random(1, 1000)\n"
                       "\\set y random(:lo, :hi)\n"
                       "\\set z random(-1000000, -1)\n",
                       "bad.sql", "\\set w random(5, 1)\n", NULL};
    rig r = make(s, defs);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc)
        return;
    dg_prng ref;
    dg_prng_seed(&ref, 7);
    for (int i = 0; i < 50; i++) {
        DG_CHECK_INT(run(&r, 0), 0);
        DG_CHECK_INT(get_int(&r, "x"), dg_prng_range(&ref, 1, 1000));
        DG_CHECK_INT(get_int(&r, "y"), dg_prng_range(&ref, -5, 5));
        DG_CHECK_INT(get_int(&r, "z"), dg_prng_range(&ref, -1000000, -1));
    }
    DG_CHECK(run(&r, 1) != 0);
    DG_CHECK(strstr(r.err.msg, "empty range given to random") != NULL);
    DG_CHECK_INT(r.err.cls, DG_EC_USER);
    unmake(&r);
}

/* After a warm-up, running scripts allocates nothing: the engine's buffers only grow, and
 * SQLite's prepared statements reuse their memory. */
static void test_no_allocation_in_steady_state(void)
{
    setup();
    const char *defs[] = {"word", "text value", NULL};
    const char *s[] = {"steady.sql",
                       "\\set k random(1, 4)\n"
                       "\\set delta random(-5, 5)\n"
                       "BEGIN;\n"
                       "UPDATE kv SET v = v + :delta, note = :word WHERE k = :k;\n"
                       "SELECT v, note, d FROM kv WHERE k = :k \\gset r_\n"
                       "\\if :r_v > 100 AND :r_d IS NOT NULL\n"
                       "  SELECT k AS maxk FROM kv ORDER BY k \\aset\n"
                       "\\else\n"
                       "  \\set maxk :k + hash(:r_v) % 2\n"
                       "\\endif\n"
                       "END;\n"
                       "\\set total :r_v + :maxk + :r_d * 0\n",
                       NULL};
    rig r = make(s, defs);
    DG_CHECK_INT(r.rc, 0);
    if (r.rc)
        goto done;
    for (int i = 0; i < 200; i++) {
        if (dg_script_vm_run(r.vm, 0, &r.err) != 0) {
            fprintf(stderr, "  %s\n", r.err.msg);
            DG_CHECK(false);
            goto done;
        }
    }
    struct mallinfo2 m0 = mallinfo2();
    long a0 = allocs;
    int failures = 0;
    for (int i = 0; i < 10000; i++)
        failures += dg_script_vm_run(r.vm, 0, &r.err) != 0;
    if (failures)
        fprintf(stderr, "  %s\n", r.err.msg);
    long a1 = allocs;
    struct mallinfo2 m1 = mallinfo2();
    DG_CHECK_INT(failures, 0);
    bool counting = DG_COUNT_MALLOC && !under_valgrind();
    DG_CHECK(a0 > 0 || !counting); /* the shim does count */
    if (counting) {
        if (a1 != a0)
            fprintf(stderr, "  %ld allocations in 10000 runs\n", a1 - a0);
        DG_CHECK_INT(a1 - a0, 0);
    }
    /* and memory in use does not grow (SQLite's caches may move a little) */
    DG_CHECK(m1.uordblks <= m0.uordblks + 65536);
done:
    unmake(&r);
}

int main(void)
{
    DG_RUN(test_set_and_parameters);
    DG_RUN(test_gset_aset);
    DG_RUN(test_if_from_database);
    DG_RUN(test_transactions);
    DG_RUN(test_errors);
    DG_RUN(test_sleep);
    DG_RUN(test_random_draws);
    DG_RUN(test_no_allocation_in_steady_state);
    dg_conn_close(conn);
    DG_TEST_END();
}
