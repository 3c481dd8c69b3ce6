/* host.c - machine facts from uname, sysconf, /proc/cpuinfo, /proc/meminfo, /proc/mounts
 * and statfs. */
#include "monitor/host.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

static void cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ')
                    c++;
                snprintf(buf, len, "%s", c);
                trim(buf);
            }
            break;
        }
    }
    fclose(f);
}

static uint64_t mem_total(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
}

/* The mount whose point is the longest prefix of the absolute path. */
static void find_mount(const char *abs, dg_hostinfo *out)
{
    FILE *f = fopen("/proc/mounts", "r");
    if (!f)
        return;
    char dev[256], mnt[512], type[64];
    size_t best = 0;
    while (fscanf(f, "%255s %511s %63s %*[^\n]", dev, mnt, type) == 3) {
        size_t n = strlen(mnt);
        bool prefix = !strncmp(abs, mnt, n) && (abs[n] == '/' || abs[n] == '\0' || n == 1);
        if (prefix && n >= best) {
            best = n;
            snprintf(out->fs_type, sizeof out->fs_type, "%s", type);
            snprintf(out->fs_device, sizeof out->fs_device, "%s", dev);
            snprintf(out->mount_point, sizeof out->mount_point, "%s", mnt);
        }
    }
    fclose(f);
}

/* The filesystem type from statfs, for when no mount entry covers the path: in a chroot
 * the mounts above the root are not listed. The common Linux filesystems' magic numbers
 * (linux/magic.h); others are named by their number. */
static void fs_type_of(const char *path, dg_hostinfo *out)
{
    struct statfs sf;
    if (statfs(path, &sf) != 0)
        return;
    static const struct {
        unsigned long magic;
        const char *name;
    } types[] = {
        {0xEF53, "ext4"},          {0x58465342, "xfs"},   {0x9123683E, "btrfs"},
        {0x01021994, "tmpfs"},     {0x794C7630, "overlay"}, {0x2FC12FC1, "zfs"},
        {0x6969, "nfs"},           {0xF2F52010, "f2fs"},  {0x65735546, "fuse"},
        {0x858458F6, "ramfs"},     {0x4d44, "vfat"},      {0x9fa0, "proc"},
    };
    unsigned long m = (unsigned long)sf.f_type & 0xffffffffUL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (types[i].magic == m) {
            snprintf(out->fs_type, sizeof out->fs_type, "%s", types[i].name);
            return;
        }
    }
    snprintf(out->fs_type, sizeof out->fs_type, "0x%lx", m);
}

/* Whole-disk name for the device holding path, via /sys/dev/block/MAJ:MIN. */
static void find_block_device(const char *path, dg_hostinfo *out)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    char link[PATH_MAX], target[PATH_MAX];
    snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return;
    target[n] = '\0';
    /* .../block/vda/vda1 -> partition: take the parent; .../block/vda -> vda */
    char *last = strrchr(target, '/');
    if (!last)
        return;
    char part[64];
    snprintf(part, sizeof part, "%s", last + 1);
    char check[PATH_MAX + 16];
    snprintf(check, sizeof check, "%s/partition", link);
    if (access(check, F_OK) == 0) {
        *last = '\0';
        char *parent = strrchr(target, '/');
        if (parent)
            snprintf(out->block_device, sizeof out->block_device, "%s", parent + 1);
    } else {
        snprintf(out->block_device, sizeof out->block_device, "%s", part);
    }
}

/* v is one of the values of list ("a" or "mixed: a, b, ..."). */
static bool has_value(const char *list, const char *v)
{
    const char *p = strncmp(list, "mixed: ", 7) ? list : list + 7;
    size_t n = strlen(v);
    while (*p) {
        const char *e = strstr(p, ", ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, v, n))
            return true;
        if (!e)
            break;
        p = e + 2;
    }
    return false;
}

/* The value of cpuN/cpufreq/<file> over the CPUs: one value, "mixed: a, b" when they
 * differ, "" when no CPU has the file. */
static void cpufreq_value(const char *cpu_dir, const char *file, char *out, size_t len)
{
    out[0] = '\0';
    bool mixed = false;
    for (int cpu = 0; cpu < 4096; cpu++) {
        char path[PATH_MAX], v[64] = "";
        snprintf(path, sizeof path, "%s/cpu%d", cpu_dir, cpu);
        struct stat st;
        if (stat(path, &st) != 0)
            break;
        snprintf(path, sizeof path, "%s/cpu%d/cpufreq/%s", cpu_dir, cpu, file);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* offline, or no cpufreq */
        if (!fgets(v, sizeof v, f))
            v[0] = '\0';
        fclose(f);
        trim(v);
        if (!v[0])
            continue;
        if (!out[0]) {
            snprintf(out, len, "%s", v);
        } else if (!has_value(out, v)) {
            char prev[96];
            snprintf(prev, sizeof prev, "%s", mixed ? out + 7 : out);
            snprintf(out, len, "mixed: %s, %s", prev, v);
            mixed = true;
        }
    }
}

void dg_host_cpu_power(const char *cpu_dir, dg_hostinfo *out)
{
    cpufreq_value(cpu_dir, "scaling_governor", out->cpu_governor, sizeof out->cpu_governor);
    cpufreq_value(cpu_dir, "energy_performance_preference", out->cpu_epp, sizeof out->cpu_epp);
}

void dg_host_info(const char *data_path, dg_hostinfo *out)
{
    memset(out, 0, sizeof *out);
    gethostname(out->hostname, sizeof out->hostname - 1);
    cpu_model(out->cpu_model, sizeof out->cpu_model);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = n > 0 ? (int)n : 0;
    out->ram_bytes = mem_total();
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(out->kernel, sizeof out->kernel, "%s %s", u.sysname, u.release);
        snprintf(out->arch, sizeof out->arch, "%s", u.machine);
    }
    dg_host_cpu_power("/sys/devices/system/cpu", out);
    if (!data_path || !*data_path)
        return;
    char abs[PATH_MAX];
    char probe[PATH_MAX];
    snprintf(probe, sizeof probe, "%s", data_path);
    /* the file may not exist yet: use its directory */
    if (!realpath(probe, abs)) {
        char *slash = strrchr(probe, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(probe, sizeof probe, ".");
        if (!realpath(probe, abs))
            return;
    }
    find_mount(abs, out);
    if (!out->fs_type[0])
        fs_type_of(abs, out);
    find_block_device(abs, out);
}
