/*
 * test_sysstat.c - monitoring figures against what the kernel did in the same window:
 * a known amount of file writes (with fsync) must appear in the disk counters of the
 * device holding the file, and a known amount of CPU burnt by this process in its own
 * CPU figure.
 */
#include "core/clock.h"
#include "monitor/host.h"
#include "monitor/sysstat.h"

#include "dgtest.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void test_disk_writes(void)
{
    char path[] = "dg_sysstat_XXXXXX";
    int fd = mkstemp(path);
    DG_CHECK(fd >= 0);
    if (fd < 0)
        return;
    dg_hostinfo h;
    dg_host_info(path, &h);
    if (!h.block_device[0]) {
        DG_SKIP("no block device holds the test directory, so no disk counters to check");
        close(fd);
        unlink(path);
        return;
    }
    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    dg_sysample a, b;
    dg_sysample_take(h.block_device, &a);
    const int mb = 32;
    for (int i = 0; i < mb; i++)
        DG_CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
    DG_CHECK_INT(fsync(fd), 0);
    dg_sysample_take(h.block_device, &b);
    close(fd);
    unlink(path);
    dg_sysdelta d;
    dg_sysample_delta(&a, &b, &d);
    fprintf(stderr, "  device %s: wrote %.1f MB in %.0f writes (expected >= %d MB)\n", h.block_device,
            d.write_bytes / 1e6, d.disk_writes, mb);
    DG_CHECK(d.write_bytes >= (double)mb * (1 << 20));
    DG_CHECK(d.disk_writes >= 1);
    DG_CHECK(d.iops > 0);
}

static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_self_cpu(void)
{
    /* dbgauge's own CPU must agree with the kernel's process CPU clock over the same
     * window (however busy the machine is, which changes both alike) */
    dg_sysample a, b;
    double c0 = process_cpu_s();
    dg_sysample_take(NULL, &a);
    int64_t end = dg_now_ns() + 400 * DG_NS_PER_MS;
    volatile uint64_t x = 0;
    while (dg_now_ns() < end)
        x += 1;
    (void)x;
    dg_sysample_take(NULL, &b);
    double c1 = process_cpu_s();
    dg_sysdelta d;
    dg_sysample_delta(&a, &b, &d);
    double expect = 100.0 * (c1 - c0) / d.seconds;
    fprintf(stderr, "  busy loop: self %.0f%% of a core (kernel clock %.0f%%), host %.0f%%\n",
            d.self_cpu_pct, expect, d.cpu_pct);
    DG_CHECK_NEAR(d.self_cpu_pct, expect, 10); /* getrusage ticks vs the CPU clock */
    DG_CHECK(d.self_cpu_pct > 5);
    DG_CHECK(d.cpu_pct > 0 && d.cpu_pct <= 100.5);
    DG_CHECK(d.user_pct + d.sys_pct <= d.cpu_pct + 0.5);
}

static void test_host(void)
{
    dg_hostinfo h;
    dg_host_info(".", &h);
    DG_CHECK(h.cores >= 1);
    DG_CHECK(h.ram_bytes > (1u << 20));
    DG_CHECK(strncmp(h.kernel, "Linux", 5) == 0);
    /* the type comes from statfs when no mount entry covers the directory (a chroot
     * lists only the mounts inside it); the mount point is then unknown */
    DG_CHECK(h.fs_type[0] != '\0');
    DG_CHECK(h.mount_point[0] == '/' || h.mount_point[0] == '\0');
}

/* A sysfs CPU directory made up: cpu0 and cpu1 with a governor and an EPP, cpu2 without
 * cpufreq (offline). */
static void put(const char *dir, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_cpu_power(void)
{
    char dir[] = "/tmp/dgtest-cpuXXXXXX";
    DG_CHECK(mkdtemp(dir) != NULL);
    char path[512];
    const char *sub[] = {"cpu0", "cpu0/cpufreq", "cpu1", "cpu1/cpufreq", "cpu2"};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, sub[i]);
        DG_CHECK(mkdir(path, 0700) == 0);
    }
    put(dir, "cpu0/cpufreq/scaling_governor", "performance\n");
    put(dir, "cpu1/cpufreq/scaling_governor", "performance\n");
    put(dir, "cpu0/cpufreq/energy_performance_preference", "balance_performance\n");
    put(dir, "cpu1/cpufreq/energy_performance_preference", "performance\n");
    dg_hostinfo h;
    memset(&h, 0, sizeof h);
    dg_host_cpu_power(dir, &h);
    DG_CHECK_STR(h.cpu_governor, "performance");
    DG_CHECK_STR(h.cpu_epp, "mixed: balance_performance, performance");
    /* no cpufreq anywhere (a VM): empty */
    char none[] = "/tmp/dgtest-nocpuXXXXXX";
    DG_CHECK(mkdtemp(none) != NULL);
    snprintf(path, sizeof path, "%s/cpu0", none);
    DG_CHECK(mkdir(path, 0700) == 0);
    dg_host_cpu_power(none, &h);
    DG_CHECK_STR(h.cpu_governor, "");
    DG_CHECK_STR(h.cpu_epp, "");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, none);
    DG_CHECK(system(cmd) == 0);
}

int main(void)
{
    DG_RUN(test_host);
    DG_RUN(test_cpu_power);
    DG_RUN(test_disk_writes);
    DG_RUN(test_self_cpu);
    DG_TEST_END();
}
