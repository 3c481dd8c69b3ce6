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
        fprintf(stderr, "  (no block device for the test directory: skipping disk check)\n");
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

static void test_self_cpu(void)
{
    dg_sysample a, b;
    dg_sysample_take(NULL, &a);
    int64_t end = dg_now_ns() + 400 * DG_NS_PER_MS;
    volatile uint64_t x = 0;
    while (dg_now_ns() < end)
        x += 1;
    dg_sysample_take(NULL, &b);
    dg_sysdelta d;
    dg_sysample_delta(&a, &b, &d);
    fprintf(stderr, "  busy loop: self %.0f%% of a core, host %.0f%%\n", d.self_cpu_pct, d.cpu_pct);
    /* one thread spinning: ~100% of one core (a loaded machine can steal some) */
    DG_CHECK(d.self_cpu_pct > 50 && d.self_cpu_pct < 110);
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
    DG_CHECK(h.fs_type[0] != '\0');
    DG_CHECK(h.mount_point[0] == '/');
}

int main(void)
{
    DG_RUN(test_host);
    DG_RUN(test_disk_writes);
    DG_RUN(test_self_cpu);
    DG_TEST_END();
}
