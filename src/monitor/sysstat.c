/* sysstat.c - /proc/stat, /proc/diskstats and getrusage sampling. */
#include "monitor/sysstat.h"

#include "core/clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static bool is_whole_disk(const char *name)
{
    if (!strncmp(name, "loop", 4) || !strncmp(name, "ram", 3) || !strncmp(name, "zram", 4) ||
        !strncmp(name, "dm-", 3) || !strncmp(name, "md", 2))
        return false;
    char path[128];
    snprintf(path, sizeof path, "/sys/block/%s", name);
    return access(path, F_OK) == 0;
}

bool dg_cputicks_parse(const char *line, dg_cputicks *out)
{
    unsigned long long v[8] = {0};
    if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]) < 4)
        return false;
    *out = (dg_cputicks){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    return true;
}

void dg_cputicks_share(const dg_cputicks *a, const dg_cputicks *b, dg_cpushare *out)
{
    double busy_a = (double)(a->user + a->nice + a->system + a->irq + a->softirq + a->steal);
    double busy_b = (double)(b->user + b->nice + b->system + b->irq + b->softirq + b->steal);
    double dt = busy_b + (double)(b->idle + b->iowait) - busy_a - (double)(a->idle + a->iowait);
    if (!(dt > 0)) {
        *out = (dg_cpushare){NAN, NAN, NAN, NAN, NAN};
        return;
    }
    out->busy = 100.0 * (busy_b - busy_a) / dt;
    out->user = 100.0 * (double)((b->user + b->nice) - (a->user + a->nice)) / dt;
    out->sys = 100.0 * (double)((b->system + b->irq + b->softirq) - (a->system + a->irq + a->softirq)) / dt;
    out->iowait = 100.0 * (double)(b->iowait - a->iowait) / dt;
    out->steal = 100.0 * (double)(b->steal - a->steal) / dt;
}

void dg_sysample_take(const char *block_device, dg_sysample *out)
{
    memset(out, 0, sizeof *out);
    out->t_ns = dg_now_ns();
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        char line[512];
        out->have_cpu = fgets(line, sizeof line, f) && dg_cputicks_parse(line, &out->cpu);
        fclose(f);
    }
    f = fopen("/proc/diskstats", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            unsigned maj, min;
            char name[64];
            unsigned long long rd, rdm, rds, rdt, wr, wrm, wrs;
            if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu", &maj, &min, name, &rd,
                       &rdm, &rds, &rdt, &wr, &wrm, &wrs) != 10)
                continue;
            bool take = block_device && *block_device ? !strcmp(name, block_device)
                                                      : is_whole_disk(name);
            if (!take)
                continue;
            out->have_disk = true;
            out->rd_ios += rd;
            out->rd_sectors += rds;
            out->wr_ios += wr;
            out->wr_sectors += wrs;
        }
        fclose(f);
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        out->self_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
        out->self_sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    }
}

void dg_sysample_delta(const dg_sysample *a, const dg_sysample *b, dg_sysdelta *out)
{
    out->seconds = (double)(b->t_ns - a->t_ns) / DG_NS_PER_S;
    double s = out->seconds > 0 ? out->seconds : NAN;
    dg_cpushare sh = {NAN, NAN, NAN, NAN, NAN};
    if (a->have_cpu && b->have_cpu)
        dg_cputicks_share(&a->cpu, &b->cpu, &sh);
    out->cpu_pct = sh.busy;
    out->user_pct = sh.user;
    out->sys_pct = sh.sys;
    out->iowait_pct = sh.iowait;
    out->self_cpu_pct =
        100.0 * ((b->self_user_s + b->self_sys_s) - (a->self_user_s + a->self_sys_s)) / s;
    if (a->have_disk && b->have_disk) {
        out->disk_reads = (double)(b->rd_ios - a->rd_ios);
        out->disk_writes = (double)(b->wr_ios - a->wr_ios);
        out->read_bytes = 512.0 * (double)(b->rd_sectors - a->rd_sectors);
        out->write_bytes = 512.0 * (double)(b->wr_sectors - a->wr_sectors);
        out->iops = (out->disk_reads + out->disk_writes) / s;
    } else {
        out->disk_reads = out->disk_writes = out->read_bytes = out->write_bytes = out->iops = NAN;
    }
}
