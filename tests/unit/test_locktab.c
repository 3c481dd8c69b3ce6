/*
 * test_locktab.c - Firebird's lock table: the parser on fb_lock_print's real header and on
 * broken ones, deltas across a table created anew, and the sampler against a stand-in
 * fb_lock_print on PATH (the server's FIREBIRD_LOCK handed on from its environment, a
 * tool that never answers killed at the deadline, a tool that is missing).
 */
#define _GNU_SOURCE
#include "core/clock.h"
#include "monitor/locktab.h"

#include "dgtest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* fb_lock_print -d of a Firebird 3 SuperServer during a tpcb run */
static const char header_a[] =
    "LOCK_HEADER BLOCK\n"
    "\tVersion: 146, Creation timestamp: 2026-12-07 22:06:52\n"
    "\tActive owner:      0, Length: 1048576, Used: 113304\n"
    "\tEnqs:  17643, Converts:     14, Rejects:   4330, Blocks:      4\n"
    "\tDeadlock scans:      0, Deadlocks:      0, Scan interval:  10\n"
    "\tAcquires:  35182, Acquire blocks:    119, Spin count:   0\n"
    "\tMutex wait: 0.3%\n"
    "\tHash slots: 8191, Hash lengths (min/avg/max):    0/   0/   4\n"
    "\tRemove node:      0, Insert queue:      0, Insert prior:      0\n"
    "\tOwners (6):\tforward:  78400, backward:  95336\n"
    "\tFree owners: *empty*\n"
    "\n"
    "OWNER BLOCK  78400\n"
    "\tOwner id: 12345, Blocks: 999999, Acquires: 1\n";

static const char header_b[] =
    "LOCK_HEADER BLOCK\n"
    "\tVersion: 146, Creation timestamp: 2026-12-07 22:06:52\n"
    "\tActive owner:      0, Length: 1048576, Used: 120000\n"
    "\tEnqs:  27643, Converts:     20, Rejects:   5330, Blocks:     10\n"
    "\tDeadlock scans:      2, Deadlocks:      1, Scan interval:  10\n"
    "\tAcquires:  45182, Acquire blocks:    619, Spin count:   0\n"
    "\tMutex wait: 1.4%\n"
    "\tHash slots: 8191, Hash lengths (min/avg/max):    0/   1/   7\n"
    "\tOwners (5):\tforward:  78400, backward:  95336\n";

static void test_parse(void)
{
    dg_locktab a;
    DG_CHECK(dg_locktab_parse(header_a, &a));
    DG_CHECK_STR(a.created, "2026-12-07 22:06:52");
    DG_CHECK_INT(a.length, 1048576);
    DG_CHECK_INT(a.used, 113304);
    DG_CHECK_INT(a.enqueues, 17643);
    DG_CHECK_INT(a.converts, 14);
    DG_CHECK_INT(a.rejects, 4330);
    DG_CHECK_INT(a.blocks, 4); /* not "Acquire blocks", nor an owner's "Blocks" */
    DG_CHECK_INT(a.deadlock_scans, 0);
    DG_CHECK_INT(a.deadlocks, 0);
    DG_CHECK_INT(a.acquires, 35182);
    DG_CHECK_INT(a.acquire_blocks, 119);
    DG_CHECK_INT(a.hash_slots, 8191);
    DG_CHECK_INT(a.hash_max, 4);
    DG_CHECK_NEAR(a.hash_avg, 0, 1e-9);
    DG_CHECK_INT(a.owners, 6);

    dg_locktab x;
    DG_CHECK(!dg_locktab_parse("shmem_data->sh_mem_length_mapped is 0\nUnable to access lock table.\n", &x));
    DG_CHECK_INT(x.enqueues, -1);
    DG_CHECK(!dg_locktab_parse("", &x));
    DG_CHECK(!dg_locktab_parse("LOCK_HEADER BLOCK\n\tEnqs: x, Acquires: 5\n", &x));
    DG_CHECK(!dg_locktab_parse("LOCK_HEADER BLOCK\n\tEnqs: 99999999999999999999999, Acquires: 5\n", &x));
    /* cut short: what was printed is read, and the rest is unknown */
    DG_CHECK(dg_locktab_parse("LOCK_HEADER BLOCK\n\tEnqs: 3, Converts: 1\n\tAcquires: 9", &x));
    DG_CHECK_INT(x.enqueues, 3);
    DG_CHECK_INT(x.acquires, 9);
    DG_CHECK_INT(x.blocks, -1);
    DG_CHECK_INT(x.hash_max, -1);
    DG_CHECK(isnan(x.hash_avg));
    DG_CHECK_STR(x.created, "");
    /* a label's tail is not the label */
    DG_CHECK(dg_locktab_parse("LOCK_HEADER BLOCK\n\tXEnqs: 7, Enqs: 2, Acquires: 1\n", &x));
    DG_CHECK_INT(x.enqueues, 2);
}

static void test_delta(void)
{
    dg_locktab a, b;
    DG_CHECK(dg_locktab_parse(header_a, &a));
    DG_CHECK(dg_locktab_parse(header_b, &b));
    dg_locktab_delta d;
    DG_CHECK(dg_locktab_delta_of(&a, &b, &d));
    DG_CHECK_INT(d.enqueues, 10000);
    DG_CHECK_INT(d.blocks, 6);
    DG_CHECK_INT(d.deadlocks, 1);
    DG_CHECK_INT(d.acquires, 10000);
    DG_CHECK_INT(d.acquire_blocks, 500);
    DG_CHECK_NEAR(d.mutex_wait_pct, 5.0, 1e-9);
    json_t *j = dg_locktab_delta_json(&d, &b);
    DG_CHECK_NEAR(json_real_value(json_object_get(j, "mutex_wait_pct")), 5.0, 1e-9);
    DG_CHECK_INT(json_integer_value(json_object_get(j, "owners")), 5);
    DG_CHECK_INT(json_integer_value(json_object_get(j, "hash_max")), 7);
    json_decref(j);

    /* no acquire in between: no share */
    DG_CHECK(dg_locktab_delta_of(&a, &a, &d));
    DG_CHECK(isnan(d.mutex_wait_pct));
    j = dg_locktab_delta_json(&d, NULL);
    DG_CHECK(json_is_null(json_object_get(j, "mutex_wait_pct")));
    DG_CHECK(json_object_get(j, "owners") == NULL);
    json_decref(j);

    /* a table created anew (a restart): no delta, even with larger counters */
    dg_locktab c = b;
    strcpy(c.created, "2026-12-07 23:00:00");
    DG_CHECK(!dg_locktab_delta_of(&a, &c, &d));
    /* created again within the same second: a counter that went back says so */
    DG_CHECK(!dg_locktab_delta_of(&b, &a, &d));
}

/* A stand-in fb_lock_print in a directory of its own, put first on PATH. */
static char tooldir[64];

static void write_tool(const char *body)
{
    char path[128];
    snprintf(path, sizeof path, "%s/fb_lock_print", tooldir);
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
}

static void test_sampler(void)
{
    strcpy(tooldir, "/tmp/dg-locktab-XXXXXX");
    DG_CHECK(mkdtemp(tooldir) != NULL);
    const char *old = getenv("PATH");
    char *path = NULL;
    DG_CHECK(asprintf(&path, "%s:%s", tooldir, old ? old : "/usr/bin:/bin") > 0);
    setenv("PATH", path, 1);
    unsetenv("FIREBIRD_LOCK");

    /* the tool prints the header of a counter file, and the lock directory it was given */
    char counter[128];
    snprintf(counter, sizeof counter, "%s/n", tooldir);
    char *body = NULL;
    DG_CHECK(asprintf(&body,
                      "[ \"$1\" = -d ] || exit 1\n"
                      "n=$(cat %s 2>/dev/null || echo 0); echo $((n + 100)) > %s\n"
                      "echo \"LOCK_HEADER BLOCK\"\n"
                      "echo \"	Version: 146, Creation timestamp: 2026-12-07 22:06:52\"\n"
                      "echo \"	Enqs: $n, Converts: 0, Rejects: 0, Blocks: 1\"\n"
                      "echo \"	Acquires: $((n * 2)), Acquire blocks: $n, Spin count: 0\"\n"
                      "echo \"	Hash slots: ${FIREBIRD_LOCK:-none}, Hash lengths (min/avg/max): 0/ 0/ 1\"\n"
                      "echo \"$3\" > %s/db\n",
                      counter, counter, tooldir) > 0);
    write_tool(body);
    free(body);

    /* a "server" whose environment names its lock directory 4242 */
    pid_t server = fork();
    if (server == 0) {
        char *argv[] = {"sleep", "600", NULL};
        char *envp[] = {"FIREBIRD_LOCK=4242", NULL};
        execve("/bin/sleep", argv, envp);
        _exit(127);
    }
    /* wait for the state the test needs: the environment the exec gave it */
    char envf[64];
    snprintf(envf, sizeof envf, "/proc/%d/environ", (int)server);
    for (int i = 0; i < 100000; i++) {
        char buf[256] = "";
        FILE *f = fopen(envf, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[n] = '\0';
        if (!strcmp(buf, "FIREBIRD_LOCK=4242"))
            break;
        usleep(1000);
    }

    char *why = NULL;
    dg_locktab_mon *m = dg_locktab_open("/data/x.fdb", (int)server, dg_now_ns() + 10 * DG_NS_PER_S, &why);
    DG_CHECK(m != NULL);
    DG_CHECK(why == NULL);
    json_t *iv = m ? dg_locktab_sample(m, dg_now_ns() + 10 * DG_NS_PER_S) : NULL;
    DG_CHECK(iv != NULL);
    DG_CHECK_INT(json_integer_value(json_object_get(iv, "enqueues")), 100);
    DG_CHECK_INT(json_integer_value(json_object_get(iv, "acquires")), 200);
    DG_CHECK_NEAR(json_real_value(json_object_get(iv, "mutex_wait_pct")), 50.0, 1e-9);
    DG_CHECK_INT(json_integer_value(json_object_get(iv, "hash_slots")), 4242); /* the server's */
    json_decref(iv);
    if (m)
        dg_locktab_mark(m);
    json_decref(m ? dg_locktab_sample(m, dg_now_ns() + 10 * DG_NS_PER_S) : NULL);

    /* a tool that never answers: killed at the deadline, the reading missing */
    write_tool("exec sleep 600");
    int64_t t0 = dg_now_ns();
    iv = m ? dg_locktab_sample(m, dg_now_ns() + DG_NS_PER_S / 5) : NULL;
    DG_CHECK(iv == NULL);
    DG_CHECK(dg_now_ns() - t0 < 60 * DG_NS_PER_S); /* not the tool's 600 s */
    json_t *doc = dg_locktab_finish(m);
    DG_CHECK(json_is_true(json_object_get(doc, "available")));
    DG_CHECK_INT(json_integer_value(json_object_get(doc, "readings")), 3);
    DG_CHECK_INT(json_integer_value(json_object_get(doc, "failed")), 1);
    DG_CHECK_STR(json_string_value(json_object_get(doc, "lock_dir")), "4242");
    DG_CHECK(strstr(json_string_value(json_object_get(doc, "last_failure")), "in time") != NULL);
    /* measured: from the mark (enqs 100) to the last reading that succeeded (200) */
    const json_t *ms = json_object_get(doc, "measured");
    DG_CHECK_INT(json_integer_value(json_object_get(ms, "enqueues")), 100);
    json_decref(doc);

    /* a tool that prints no header: its first line is the reason */
    write_tool("echo; echo 'Unable to access lock table.'");
    why = NULL;
    m = dg_locktab_open("/data/x.fdb", 0, dg_now_ns() + 10 * DG_NS_PER_S, &why);
    DG_CHECK(m == NULL);
    DG_CHECK(why && strstr(why, "Unable to access lock table.") != NULL);
    free(why);

    /* no tool */
    char tool[128];
    snprintf(tool, sizeof tool, "%s/fb_lock_print", tooldir);
    unlink(tool);
    setenv("PATH", tooldir, 1);
    why = NULL;
    m = dg_locktab_open("/data/x.fdb", 0, dg_now_ns() + 10 * DG_NS_PER_S, &why);
    DG_CHECK(m == NULL);
    DG_CHECK(why && strstr(why, "not installed") != NULL);
    free(why);
    json_t *miss = dg_locktab_missing("no tool");
    DG_CHECK(json_is_false(json_object_get(miss, "available")));
    json_decref(miss);

    setenv("PATH", old ? old : "/usr/bin:/bin", 1);
    free(path);
    kill(server, SIGKILL);
    waitpid(server, NULL, 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tooldir);
    DG_CHECK(system(cmd) == 0);
}

int main(void)
{
    DG_RUN(test_parse);
    DG_RUN(test_delta);
    DG_RUN(test_sampler);
    DG_TEST_END();
}
