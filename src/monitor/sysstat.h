/*
 * sysstat.h - host CPU, disk and own-process CPU counters from /proc, sampled by the
 * collector thread at interval boundaries (never by terminals), and their deltas.
 */
#ifndef DG_MONITOR_SYSSTAT_H
#define DG_MONITOR_SYSSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* The "cpu" line of /proc/stat: clock ticks of all cores, by kind. */
typedef struct dg_cputicks {
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
} dg_cputicks;

/* The shares of the time from a to b, in % of all cores (100 = every core busy): busy,
 * user (with nice), system (with irq and softirq), iowait, steal. All NaN when no tick
 * passed. The one formula of the client's and the server host's CPU. */
typedef struct dg_cpushare {
    double busy, user, sys, iowait, steal;
} dg_cpushare;
void dg_cputicks_share(const dg_cputicks *a, const dg_cputicks *b, dg_cpushare *out);

/* Parses a "cpu  U N S I W Q SQ ST ..." line (at least four numbers); false otherwise. */
bool dg_cputicks_parse(const char *line, dg_cputicks *out);

typedef struct dg_sysample {
    int64_t t_ns;
    bool have_cpu, have_disk;
    dg_cputicks cpu;
    uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors;                 /* 512-byte sectors */
    double self_user_s, self_sys_s;                                  /* this process */
} dg_sysample;

typedef struct dg_sysdelta {
    double seconds;
    double cpu_pct;      /* host, all cores: 100 = every core busy */
    double user_pct, sys_pct, iowait_pct;
    double self_cpu_pct; /* dbgauge itself, in % of one core (200 = two cores busy) */
    double disk_reads, disk_writes;         /* I/O operations */
    double read_bytes, write_bytes;
    double iops;
} dg_sysdelta;

/* Samples the counters. block_device: a whole-disk name from /proc/diskstats ("vda");
 * NULL or "" sums every whole disk (used when the database's device is unknown). */
void dg_sysample_take(const char *block_device, dg_sysample *out);

/* Rates between two samples; fields that could not be read are NaN. */
void dg_sysample_delta(const dg_sysample *a, const dg_sysample *b, dg_sysdelta *out);

#endif
