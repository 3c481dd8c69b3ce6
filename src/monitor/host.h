/*
 * host.h - facts about the machine a run happened on, for the result file: CPU model,
 * cores, memory, kernel, the CPU frequency policy (Linux's counterpart of a power plan),
 * and the filesystem and block device holding the database.
 */
#ifndef DG_MONITOR_HOST_H
#define DG_MONITOR_HOST_H

#include <stdint.h>

typedef struct dg_hostinfo {
    char hostname[128];
    char cpu_model[128];
    int cores;              /* online CPUs */
    uint64_t ram_bytes;
    char kernel[128];       /* uname -sr */
    char arch[32];
    char fs_type[32];       /* filesystem of the data path ("" if unknown) */
    char fs_device[128];    /* its source device, e.g. /dev/vda1 */
    char mount_point[256];  /* "" when no mount entry covers it (e.g. inside a chroot) */
    char block_device[64];  /* whole-disk name in /proc/diskstats, e.g. "vda" ("" if unknown) */
    char cpu_governor[96];  /* cpufreq scaling governor ("performance", "powersave" ...;
                               "mixed: a, b" when CPUs differ); "" without cpufreq (most
                               virtual machines) */
    char cpu_epp[96];       /* energy_performance_preference where the driver has one
                               ("balance_performance" ...), "mixed: ..." likewise; "" if none */
} dg_hostinfo;

/* Fills *out. data_path is a file or directory of the database (NULL or a server URL: the
 * filesystem fields stay empty). Never fails; unknown fields are left empty / 0. */
void dg_host_info(const char *data_path, dg_hostinfo *out);

/* The governor and EPP fields from a sysfs CPU directory (/sys/devices/system/cpu: cpuN/
 * cpufreq/scaling_governor and energy_performance_preference); dg_host_info calls it. */
void dg_host_cpu_power(const char *cpu_dir, dg_hostinfo *out);

#endif
