/*
 * procfs.h - a database server host's figures from the text of its /proc files: CPU,
 * the data device, memory, load, and the server processes' own CPU. Pure: it parses a
 * "bundle" (each file as a line "@PATH" followed by its lines, the whole ended by a line
 * "@."), the form monitor/srvhost.c gets from the server's host over ssh or builds from
 * the local /proc, so both sources are one parser and one set of tests.
 *
 * Rates use the host's own clock (/proc/uptime), never the time the sample arrived here:
 * the delay of an ssh round trip or a sampler's drift does not bias them.
 */
#ifndef DG_MONITOR_PROCFS_H
#define DG_MONITOR_PROCFS_H

#include "monitor/sysstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One process, from /proc/PID/stat, or from /proc/PID/schedstat (by_ns: its CPU time
 * in ns, a tenth of the bytes for a shell to read; for single-threaded processes only, as
 * it is the main thread's; no ppid, command or start time: ppid -1, starttime 0). */
typedef struct dg_procstat {
    int pid, ppid;
    char comm[32];
    bool by_ns;
    uint64_t ticks;     /* utime + stime, clock ticks (by_ns: 0) */
    uint64_t ns;        /* by_ns: CPU time in ns */
    uint64_t cticks;    /* cutime + cstime: of its children that exited and were reaped */
    uint64_t starttime; /* clock ticks after boot (0: unknown) */
    bool have_io;       /* its /proc/PID/io was readable (the same user, or root) */
    uint64_t io_read, io_write; /* read_bytes, write_bytes: what it made the storage
                                   layer read and write (page-cache hits not counted) */
} dg_procstat;

typedef struct dg_srvsample {
    bool have_uptime, have_cpu, have_disk, have_mem, have_load;
    double uptime_s;
    dg_cputicks cpu;
    uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ms;         /* the data device */
    uint64_t mem_total_kb, mem_avail_kb;
    double load1;
    dg_procstat *procs; /* owned: every /proc/PID/stat of the bundle */
    int nprocs;
    int *children;      /* owned: the pids of a /proc/PID/task/PID/children file */
    int nchildren;
    bool have_children;
} dg_srvsample;

/* The server's figures between two samples. NaN where a figure could not be read. */
typedef struct dg_srvdelta {
    double seconds; /* by the host's clock */
    double cpu_pct; /* the host, all cores: 100 = every core busy */
    double user_pct, sys_pct, iowait_pct, steal_pct;
    double procs_cpu_pct; /* the server's processes, in % of one core */
    double procs_cpu_s;   /* the CPU seconds behind it */
    double procs_read_bytes, procs_write_bytes; /* the server's processes' storage I/O,
                                   any device (NaN: no /proc/PID/io readable); at least:
                                   a process that exited within takes its part along */
    int procs;            /* how many processes were counted */
    double disk_reads, disk_writes; /* operations on the data device */
    double iops, read_mb_s, write_mb_s, util_pct;
    double mem_used_pct;  /* (MemTotal - MemAvailable) / MemTotal */
    double mem_available_bytes;
    double load1;
} dg_srvdelta;

/* Parses a bundle of len bytes (need not end with "@."). dev: "MAJ:MIN" of the data
 * device in /proc/diskstats ("" or NULL: no device figures). Fills *out (zeroed first;
 * free with dg_srvsample_free). Returns false when the text is not a bundle. */
bool dg_srvsample_parse(const char *text, size_t len, const char *dev, dg_srvsample *out);

void dg_srvsample_free(dg_srvsample *s);

/* The figures from a to b. tck: clock ticks per second of the host (USER_HZ: 100 on
 * Linux). sel: the pids counted as the server's (nsel of them); a process of b that a
 * does not have counts from its start when it started after born_after_s (the host's
 * uptime when the list sel came from was last known without it; NaN: a's), else not at
 * all (its earlier ticks are not this interval's). root (0: none): the server's main
 * process, whose children's CPU is counted to their end: a child of a that b no longer
 * has exited, and its ticks since a are in root's cticks (less what a had counted).
 * A process's /proc/PID/io, a section after its stat or schedstat in the bundle, adds
 * its storage I/O the same way (a reaped child's is lost: Linux keeps no sum of it). */
void dg_srvsample_delta(const dg_srvsample *a, const dg_srvsample *b, double tck,
                        const int *sel, int nsel, double born_after_s, int root,
                        dg_srvdelta *out);

/* The block device ("MAJ:MIN") holding path, from a bundle's /proc/self/mountinfo: the
 * longest mount point that is path or one of its parents. false (dev "") when no mount
 * covers it or the filesystem has no block device (major 0: tmpfs, overlay, NFS). */
bool dg_procfs_device_of(const char *mountinfo, size_t len, const char *path, char *dev,
                         size_t devlen);

/* The server's processes among a sample's: when root_hint > 0 and present, its
 * ancestors while their command is one of comms (a backend's parent is the postmaster),
 * the topmost of them and that one's children; otherwise every process whose command
 * is one of comms (space-separated, e.g. "mariadbd mysqld"). Writes at most cap pids to
 * out, returns how many; *root receives the root found (0: none). */
int dg_procfs_select(const dg_srvsample *s, int root_hint, const char *comms, int *out,
                     int cap, int *root);

/* The text of one file of a bundle (its lines, each ending in '\n'); NULL when the
 * bundle does not have it. *len receives the length. */
const char *dg_procfs_section(const char *text, size_t tlen, const char *path, size_t *len);

#endif
