/*
 * test_procfs.c - the server host's figures: the bundle parser on fixed /proc text (CPU,
 * the data device by major:minor, memory, load, processes chosen by root or by name,
 * processes born within an interval), the mount that holds a path, and the local source
 * against the kernel: a busy child process's CPU must appear as the server's.
 */
#include "core/clock.h"
#include "monitor/procfs.h"
#include "monitor/srvhost.h"

#include "dgtest.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Two samples 2 s apart: the host busy 100 of 800 ticks, the data disk 8:1 doing 300 reads and 100 writes, the postmaster 100 with a
 * backend 101 (10 + 40 ticks), an unrelated process 200, a backend 102 born in the
 * interval and 103 born before it but first seen now. */
static const char bundle_a[] =
    "@/proc/uptime\n1000.00 1900.00\n"
    "@/proc/stat\ncpu  100 0 100 1500 100 0 0 0 0 0\ncpu0 50 0 50 750 50 0 0 0 0 0\n"
    "@/proc/diskstats\n   8       0 sda 1 0 8 0 1 0 8 0 0 1 0\n"
    "   8       1 sda1 1000 0 8000 0 500 0 4000 0 0 2000 0 0 0 0 0\n"
    "@/proc/meminfo\nMemTotal:       1000 kB\nMemFree:  100 kB\nMemAvailable:    250 kB\n"
    "@/proc/loadavg\n0.50 0.40 0.30 1/100 999\n"
    "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 100 0 0\n"
    "@/proc/101/stat\n101 (postgres) S 100 100 100 0 -1 0 0 0 0 0 10 0 0 0 20 0 1 0 99000 0 0\n"
    "@/proc/200/stat\n200 (my prog) x) S 1 200 200 0 -1 0 0 0 0 0 7 7 0 0 20 0 1 0 500 0 0\n"
    "@.\n";
static const char bundle_b[] =
    "@/proc/uptime\n1002.00 1903.00\n"
    "@/proc/stat\ncpu  150 0 150 2200 100 0 0 0 0 0\n"
    "@/proc/diskstats\n   8       1 sda1 1300 0 8800 0 600 0 6000 0 0 2500 0 0 0 0 0\n"
    "@/proc/meminfo\nMemTotal:       1000 kB\nMemAvailable:    400 kB\n"
    "@/proc/loadavg\n1.25 0.40 0.30 1/100 999\n"
    "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 55 0 20 0 1 0 100 0 0\n"
    "@/proc/101/stat\n101 (postgres) S 100 100 100 0 -1 0 0 0 0 0 30 30 0 0 20 0 1 0 99000 0 0\n"
    "@/proc/102/stat\n102 (postgres) S 100 100 100 0 -1 0 0 0 0 0 20 0 0 0 20 0 1 0 100050 0 0\n"
    "@/proc/103/stat\n103 (postgres) S 100 100 100 0 -1 0 0 0 0 0 90 0 0 0 20 0 1 0 99500 0 0\n"
    "@/proc/200/stat\n200 (my prog) x) S 1 200 200 0 -1 0 0 0 0 0 70 70 0 0 20 0 1 0 500 0 0\n"
    "@/proc/100/task/100/children\n101 102 103 \n"
    "@.\n";

static void test_parse_and_delta(void)
{
    dg_srvsample a, b;
    DG_CHECK(dg_srvsample_parse(bundle_a, strlen(bundle_a), "8:1", &a));
    DG_CHECK(dg_srvsample_parse(bundle_b, strlen(bundle_b), "8:1", &b));
    DG_CHECK(a.have_uptime && a.have_cpu && a.have_disk && a.have_mem && a.have_load);
    DG_CHECK_INT(a.nprocs, 3);
    DG_CHECK_STR(a.procs[2].comm, "my prog) x"); /* the command ends at the last ')' */
    DG_CHECK_INT(a.procs[2].ppid, 1);
    DG_CHECK(b.have_children);
    DG_CHECK_INT(b.nchildren, 3);
    int sel[] = {100, 101, 102, 103};
    dg_srvdelta d;
    dg_srvsample_delta(&a, &b, 100, sel, 4, NAN, 0, &d);
    DG_CHECK_NEAR(d.seconds, 2.0, 1e-9);
    /* 50 user + 50 system ticks of 800 */
    DG_CHECK_NEAR(d.cpu_pct, 100.0 * 100 / 800, 1e-9);
    DG_CHECK_NEAR(d.user_pct, 100.0 * 50 / 800, 1e-9);
    DG_CHECK_NEAR(d.iowait_pct, 0, 1e-9);
    /* 101: 50 ticks; 102 born at 1000.5 s (after a): all its 20; 103 born at 995 s,
     * before a, and not in a: nothing; 100: none. 70 ticks = 0.7 s in 2 s */
    DG_CHECK_NEAR(d.procs_cpu_s, 0.7, 1e-9);
    DG_CHECK_NEAR(d.procs_cpu_pct, 35.0, 1e-9);
    DG_CHECK_INT(d.procs, 4);
    DG_CHECK_NEAR(d.disk_reads, 300, 1e-9);
    DG_CHECK_NEAR(d.disk_writes, 100, 1e-9);
    DG_CHECK_NEAR(d.iops, 200, 1e-9);
    DG_CHECK_NEAR(d.read_mb_s, 800 * 512 / 1e6 / 2, 1e-9);
    DG_CHECK_NEAR(d.util_pct, 25.0, 1e-9); /* 500 ms busy in 2 s */
    DG_CHECK_NEAR(d.mem_used_pct, 60.0, 1e-9);
    DG_CHECK_NEAR(d.load1, 1.25, 1e-9);
    /* 103 counts when the list it came from was known without it since 990 s */
    dg_srvsample_delta(&a, &b, 100, sel, 4, 990.0, 0, &d);
    DG_CHECK_NEAR(d.procs_cpu_s, 1.6, 1e-9);
    /* with the postmaster as root: its cutime/cstime grew by 55 ticks (the 5 + 5 it had
     * in a were earlier); a child of a that b has not (none here) would be taken off */
    dg_srvsample_delta(&a, &b, 100, sel, 4, NAN, 100, &d);
    DG_CHECK_NEAR(d.procs_cpu_s, 0.7 + 0.55, 1e-9);
    /* a backend that exited in the interval: 101 had 10 ticks in a; the root reaped it
     * with 60 in all (cutime +60): 50 more are counted */
    static const char bundle_c[] =
        "@/proc/uptime\n1002.00 1903.00\n"
        "@/proc/stat\ncpu  150 0 150 2200 100 0 0 0 0 0\n"
        "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 60 0 20 0 1 0 100 0 0\n"
        "@/proc/100/task/100/children\n\n"
        "@.\n";
    dg_srvsample e;
    DG_CHECK(dg_srvsample_parse(bundle_c, strlen(bundle_c), NULL, &e));
    dg_srvsample_delta(&a, &e, 100, sel, 4, NAN, 100, &d);
    DG_CHECK_NEAR(d.procs_cpu_s, 0.5, 1e-9);
    /* 101 read alive (30 ticks) but reaped before the root's stat: its whole life (60)
     * is in the root's cticks, and it is not counted twice */
    static const char bundle_d[] =
        "@/proc/uptime\n1002.00 1903.00\n"
        "@/proc/stat\ncpu  150 0 150 2200 100 0 0 0 0 0\n"
        "@/proc/101/stat\n101 (postgres) Z 100 100 100 0 -1 0 0 0 0 0 30 0 0 0 20 0 1 0 99000 0 0\n"
        "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 60 0 20 0 1 0 100 0 0\n"
        "@/proc/100/task/100/children\n\n"
        "@.\n";
    dg_srvsample_free(&e);
    DG_CHECK(dg_srvsample_parse(bundle_d, strlen(bundle_d), NULL, &e));
    dg_srvsample_delta(&a, &e, 100, sel, 4, NAN, 100, &d);
    DG_CHECK_NEAR(d.procs_cpu_s, 0.5, 1e-9);
    dg_srvsample_free(&e);
    /* the root's children by their schedstat (ns, no start time): 101 from 10 ticks to
     * 0.6 s; 104 new to the list: all of its 0.25 s */
    static const char bundle_s[] =
        "@/proc/uptime\n1002.00 1903.00\n"
        "@/proc/stat\ncpu  150 0 150 2200 100 0 0 0 0 0\n"
        "@/proc/101/schedstat\n600000000 1000 12\n"
        "@/proc/104/schedstat\n250000000 1000 3\n"
        "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 100 0 0\n"
        "@/proc/100/task/100/children\n101 104\n"
        "@.\n";
    DG_CHECK(dg_srvsample_parse(bundle_s, strlen(bundle_s), NULL, &e));
    DG_CHECK(e.nprocs == 3 && e.procs[0].by_ns && e.procs[0].pid == 101);
    int sel_s[] = {100, 101, 104};
    dg_srvsample_delta(&a, &e, 100, sel_s, 3, NAN, 100, &d);
    DG_CHECK_NEAR(d.procs_cpu_s, 0.5 + 0.25, 1e-9);
    DG_CHECK(isnan(d.procs_read_bytes)); /* no /proc/PID/io read: unknown, not 0 */
    dg_srvsample_free(&e);
    /* storage I/O from each process's io, the section after its CPU: 101 read 4096 more
     * and wrote 8192 more; 104, new, counts whole; an io before any stat, or one whose
     * process's CPU was not read, is ignored */
    static const char io_a[] =
        "@/proc/uptime\n1000.00 1900.00\n"
        "@/proc/101/schedstat\n100000000 1000 12\n"
        "@/proc/101/io\nrchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 10000\nwrite_bytes: 20000\n"
        "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 100 0 0\n"
        "@/proc/100/task/100/children\n101\n"
        "@.\n";
    static const char io_b[] =
        "@/proc/uptime\n1002.00 1902.00\n"
        "@/proc/7/io\nread_bytes: 1\nwrite_bytes: 1\n"
        "@/proc/101/schedstat\n200000000 1000 12\n"
        "@/proc/101/io\nrchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 14096\nwrite_bytes: 28192\n"
        "@/proc/104/schedstat\n250000000 1000 3\n"
        "@/proc/104/io\nread_bytes: 0\nwrite_bytes: 1000\n"
        "@/proc/100/stat\n100 (postgres) S 1 100 100 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 100 0 0\n"
        "@/proc/100/task/100/children\n101 104\n"
        "@.\n";
    dg_srvsample ia, ib;
    DG_CHECK(dg_srvsample_parse(io_a, strlen(io_a), NULL, &ia));
    DG_CHECK(dg_srvsample_parse(io_b, strlen(io_b), NULL, &ib));
    DG_CHECK(ia.procs[0].have_io && !ia.procs[1].have_io);
    DG_CHECK_INT(ib.nprocs, 3);
    dg_srvsample_delta(&ia, &ib, 100, sel_s, 3, NAN, 100, &d);
    DG_CHECK_NEAR(d.procs_read_bytes, 4096, 1e-9);
    DG_CHECK_NEAR(d.procs_write_bytes, 8192 + 1000, 1e-9);
    dg_srvsample_free(&ia);
    dg_srvsample_free(&ib);
    /* no device: no disk figures, the rest stands */
    dg_srvsample c;
    DG_CHECK(dg_srvsample_parse(bundle_b, strlen(bundle_b), NULL, &c));
    dg_srvsample_delta(&a, &c, 100, sel, 4, NAN, 0, &d);
    DG_CHECK(isnan(d.iops) && isnan(d.util_pct));
    DG_CHECK_NEAR(d.cpu_pct, 12.5, 1e-9);
    dg_srvsample_free(&a);
    dg_srvsample_free(&b);
    dg_srvsample_free(&c);
    DG_CHECK(!dg_srvsample_parse("garbage\n", 8, NULL, &c));
    dg_srvsample_free(&c);
}

static void test_select(void)
{
    dg_srvsample b;
    DG_CHECK(dg_srvsample_parse(bundle_b, strlen(bundle_b), NULL, &b));
    int sel[16], root;
    /* from a backend to its postmaster, then the postmaster's children */
    int n = dg_procfs_select(&b, 102, "postgres postmaster", sel, 16, &root);
    DG_CHECK_INT(root, 100);
    DG_CHECK_INT(n, 4);
    DG_CHECK_INT(sel[0], 100);
    /* by name: the unrelated process is never taken */
    n = dg_procfs_select(&b, 0, "postgres", sel, 16, &root);
    DG_CHECK_INT(root, 0);
    DG_CHECK_INT(n, 4);
    n = dg_procfs_select(&b, 0, "mariadbd mysqld", sel, 16, &root);
    DG_CHECK_INT(n, 0);
    size_t len;
    const char *ch = dg_procfs_section(bundle_b, strlen(bundle_b), "/proc/100/task/100/children", &len);
    DG_CHECK(ch && len == strlen("101 102 103 \n"));
    DG_CHECK(!dg_procfs_section(bundle_b, strlen(bundle_b), "/proc/999/stat", &len));
    dg_srvsample_free(&b);
}

static void test_device_of(void)
{
    const char mi[] = "21 26 0:20 / /proc rw - proc proc rw\n"
                      "26 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
                      "40 26 8:17 / /var/lib/postgresql rw - ext4 /dev/sdb1 rw\n"
                      "41 26 8:33 / /var/lib/postgresql2 rw - ext4 /dev/sdc1 rw\n"
                      "42 26 0:44 / /tmp rw - tmpfs tmpfs rw\n";
    char dev[32];
    DG_CHECK(dg_procfs_device_of(mi, strlen(mi), "/var/lib/postgresql/15/main", dev, sizeof dev));
    DG_CHECK_STR(dev, "8:17");
    DG_CHECK(dg_procfs_device_of(mi, strlen(mi), "/var/lib/postgresql2", dev, sizeof dev));
    DG_CHECK_STR(dev, "8:33");
    DG_CHECK(dg_procfs_device_of(mi, strlen(mi), "/srv/db", dev, sizeof dev));
    DG_CHECK_STR(dev, "254:0");
    DG_CHECK(!dg_procfs_device_of(mi, strlen(mi), "/tmp/db/data", dev, sizeof dev)); /* tmpfs */
    DG_CHECK_STR(dev, "");
}

static double child_cpu_s(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    unsigned long long ut, st;
    const char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return NAN;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* Stops the child and returns once it has stopped (its CPU count then stands still). */
static void stop_child(pid_t pid)
{
    int st = 0;
    kill(pid, SIGSTOP);
    while (waitpid(pid, &st, WUNTRACED) < 0 && errno == EINTR)
        ;
    DG_CHECK(WIFSTOPPED(st));
}

/* The local source finds a "server" by its process name and measures its CPU as the
 * kernel counts it, apart from this process's own. */
static void test_local_source(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_NAME, "dg_fake_srv");
        volatile unsigned long x = 0;
        for (;;)
            x++;
    }
    DG_CHECK(pid > 0);
    dg_srvhost_spec spec = {.target = "local", .data_dir = ".", .comms = "dg_fake_srv"};
    dg_srvhost *h = NULL;
    dg_err err = DG_ERR_INIT;
    /* the child may not have renamed itself yet: open until it is found (a state, not a
     * time: the selection says so) */
    dg_srvhost_facts f = {0};
    for (int tries = 0; tries < 200; tries++) {
        DG_CHECK_INT(dg_srvhost_open(&spec, dg_now_ns() + 5 * DG_NS_PER_S, &h, &err), 0);
        if (!h)
            break;
        dg_srvhost_facts_get(h, &f);
        if (f.procs == 1)
            break;
        dg_srvhost_close(h);
        h = NULL;
        usleep(10000);
    }
    DG_CHECK_INT(f.procs, 1);
    if (h) {
        /* each reading of the child's CPU, the sampler's and ours, is taken while the child
         * is stopped, so both see the same count however slowly this process runs (under
         * valgrind the spinning child ran on between the two, 0.35 s against 0.32 s) */
        dg_srvdelta d;
        stop_child(pid);
        DG_CHECK_INT(dg_srvhost_sample(h, dg_now_ns() + DG_NS_PER_S, &d), 1);
        double c0 = child_cpu_s(pid);
        dg_srvhost_mark(h);
        kill(pid, SIGCONT);
        /* until the child has had 0.3 s of CPU (whatever else the machine runs) */
        while (child_cpu_s(pid) - c0 < 0.3)
            usleep(20000);
        stop_child(pid);
        DG_CHECK_INT(dg_srvhost_sample(h, dg_now_ns() + DG_NS_PER_S, &d), 1);
        double c1 = child_cpu_s(pid);
        kill(pid, SIGCONT);
        DG_CHECK(dg_srvhost_since_mark(h, &d));
        fprintf(stderr, "  child: %.2f s CPU by the kernel, %.2f s as the server's (%.0f%% of a core)\n",
                c1 - c0, d.procs_cpu_s, d.procs_cpu_pct);
        DG_CHECK_NEAR(d.procs_cpu_s, c1 - c0, 0.03);
        /* its storage I/O: readable (the same user), and it did none */
        DG_CHECK(d.procs_read_bytes == 0 && d.procs_write_bytes == 0);
        DG_CHECK(d.cpu_pct > 0 && d.cpu_pct <= 100.5);
        DG_CHECK(d.seconds > 0);
        dg_srvhost_close(h);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_targets(void)
{
    dg_err err = DG_ERR_INIT;
    DG_CHECK_INT(dg_srvhost_check_target("ssh://db1", &err), 0);
    DG_CHECK_INT(dg_srvhost_check_target("ssh://me@db1:2222", &err), 0);
    DG_CHECK_INT(dg_srvhost_check_target("ssh://me@[::1]:22", &err), 0);
    DG_CHECK_INT(dg_srvhost_check_target("local", &err), 0);
    DG_CHECK(dg_srvhost_check_target("ssh://me:secret@db1", &err) != 0);
    DG_CHECK(strstr(err.msg, "secret") == NULL);
    DG_CHECK(dg_srvhost_check_target("db1", &err) != 0);
    DG_CHECK(dg_srvhost_check_target("ssh://-oProxyCommand=x", &err) != 0);
    DG_CHECK(dg_srvhost_check_target("ssh://db1:22x", &err) != 0);
    DG_CHECK(dg_srvhost_check_target("ssh://db1/path", &err) != 0);
    DG_CHECK(strchr(dg_srvhost_script, '\'') == NULL); /* it travels inside '...' */
}

int main(void)
{
    DG_RUN(test_parse_and_delta);
    DG_RUN(test_select);
    DG_RUN(test_device_of);
    DG_RUN(test_targets);
    DG_RUN(test_local_source);
    DG_TEST_END();
}
