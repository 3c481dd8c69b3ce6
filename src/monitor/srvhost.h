/*
 * srvhost.h - the database server host's CPU, data device, memory, load and server
 * processes, sampled at interval boundaries by the collector: from the local /proc when
 * the server runs on this machine, or over one long-lived session of the user's own ssh
 * (their config, agent and known_hosts; BatchMode, host keys always checked) running a
 * POSIX-sh loop of shell builtins on the server (nothing installed there).
 *
 * The remote loop reads one request line (paths, globs allowed) and answers with each
 * readable file as "@PATH" and its lines, then "@.": monitor/procfs.c parses both
 * sources' bundles. A sample that does not come back by its deadline is "late" (its
 * answer is read and dropped before the next request); an ssh session that ends is
 * "lost" for the rest of the run, and the run goes on.
 *
 * The ssh session is core/ssh.h's (the user's ssh, or DBGAUGE_SSH's command).
 *
 * Not thread-safe: one thread (the collector) uses a handle.
 */
#ifndef DG_MONITOR_SRVHOST_H
#define DG_MONITOR_SRVHOST_H

#include "core/err.h"
#include "monitor/procfs.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct dg_srvhost dg_srvhost;

typedef struct dg_srvhost_spec {
    const char *target;   /* NULL or "local": this machine's /proc; "ssh://[user@]host[:port]" */
    const char *data_dir; /* the server's data directory or database file, as it reports
                             it (NULL: no device figures) */
    int server_pid;       /* a process serving dbgauge's connection (0: unknown): its
                             ancestors that are server processes too, and their children */
    const char *pid_file; /* NULL, or a file on the host holding the server's main pid
                             (MariaDB's @@pid_file), read when server_pid is 0: one
                             instance's processes, not every one of comms's name; if it
                             cannot be read (another user's), by name */
    const char *comms;    /* the server's process names ("postgres", "mariadbd mysqld") */
} dg_srvhost_spec;

/* What the result records about the sampler (strings owned by the handle). */
typedef struct dg_srvhost_facts {
    const char *source;   /* "local" or the ssh target */
    const char *device;   /* the data device's name in /proc/diskstats ("" if unknown) */
    const char *data_dir; /* "" if unknown */
    int root_pid;         /* the server's main process (0 if not found) */
    int procs;            /* server processes at the last sample */
    int late, lost;       /* samples late; 1 when the ssh session ended */
} dg_srvhost_facts;

/* Checks target's form: "local" or ssh://[user@]host[:port] (no password, no path). */
int dg_srvhost_check_target(const char *target, dg_err *err);

/* Starts the source and takes the first sample (waiting at most until deadline_ns):
 * an ssh host that cannot be reached, a key refused, or a host without /proc is an
 * error with ssh's last message. */
int dg_srvhost_open(const dg_srvhost_spec *spec, int64_t deadline_ns, dg_srvhost **out,
                    dg_err *err);

/* Takes a sample and fills *d with the figures since the previous one. Returns 1 (a
 * sample), 0 (late: none came back by deadline_ns), -1 (lost: the session has ended). */
int dg_srvhost_sample(dg_srvhost *h, int64_t deadline_ns, dg_srvdelta *d);

/* Remembers the last sample as the start of a phase; dg_srvhost_since_mark gives the
 * figures from it to the last sample (false when there is no such pair). */
void dg_srvhost_mark(dg_srvhost *h);
bool dg_srvhost_since_mark(dg_srvhost *h, dg_srvdelta *d);

void dg_srvhost_facts_get(const dg_srvhost *h, dg_srvhost_facts *f);

/* The last sample taken (its raw counters: tests compare two sources with it). */
const dg_srvsample *dg_srvhost_last(const dg_srvhost *h);

/* Ends the ssh session (asks the loop to quit, then terminates ssh) and frees h. */
void dg_srvhost_close(dg_srvhost *h);

/* The script the server runs (for tests and docs). */
extern const char dg_srvhost_script[];

#endif
