/*
 * locktab.h - a Firebird database's lock manager, as its own tool fb_lock_print prints the
 * lock table's header (the counters since the table was created: lock requests, waits,
 * deadlocks, and the mutex every request takes), sampled at interval boundaries by the
 * collector for a database file on this machine.
 *
 * The page-buffer study explained Classic's curve by contention in the lock manager; these
 * are the figures that test it: "mutex wait" (the share of the lock table's mutex acquires
 * that had to wait), the lock requests that waited ("blocks"), deadlock scans, and the
 * hash chains LockHashSlots sizes.
 *
 * fb_lock_print finds the table from the database file (its file id) in the lock
 * directory the server uses: the server process's FIREBIRD_LOCK (read from its
 * environment when this user may), else dbgauge's own, else Firebird's default. It reads
 * shared memory only and takes no lock (it is run without -c).
 *
 * The parser is a pure function (tests and the fuzz harness call it); the sampler runs the
 * tool once per sample with a deadline. Not thread-safe: one thread (the collector) uses
 * a handle.
 */
#ifndef DG_MONITOR_LOCKTAB_H
#define DG_MONITOR_LOCKTAB_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* The lock table's header; counters cumulative since `created`, -1 when not printed. */
typedef struct dg_locktab {
    char created[32];       /* "Creation timestamp": a new table restarts the counters */
    int64_t length, used;   /* the table's bytes (LockMemSize, grown) and those in use */
    int64_t owners;         /* lock owners (attachments and the engine's own) */
    int64_t enqueues, converts, rejects, blocks; /* requests; those refused (no wait);
                                                    those that waited for another owner */
    int64_t deadlock_scans, deadlocks;
    int64_t acquires, acquire_blocks; /* the table's mutex: taken, and taken after a wait */
    int64_t hash_slots, hash_max;     /* LockHashSlots; the longest chain */
    double hash_avg;                  /* the average chain (NaN when not printed) */
} dg_locktab;

/* Reads fb_lock_print's output (the header block; the rest is ignored). true when the
 * header and its counters (at least Enqs and Acquires) were found. */
bool dg_locktab_parse(const char *text, dg_locktab *out);

/* The figures between two readings: counts, and the mutex wait share of the acquires in
 * between (%, NaN when none). false when b is of another table (created again: a server
 * restart, or Classic's last attachment closing) or a counter went backwards. */
typedef struct dg_locktab_delta {
    int64_t enqueues, converts, rejects, blocks, deadlock_scans, deadlocks, acquires,
        acquire_blocks;
    double mutex_wait_pct;
} dg_locktab_delta;
bool dg_locktab_delta_of(const dg_locktab *a, const dg_locktab *b, dg_locktab_delta *d);

/* {"mutex_wait_pct", "acquires", "acquire_blocks", "enqueues", "converts", "rejects",
 * "blocks", "deadlock_scans", "deadlocks"} of d, with b's gauges ("owners", "used_bytes",
 * "length_bytes", "hash_slots", "hash_avg", "hash_max") when b is given. */
json_t *dg_locktab_delta_json(const dg_locktab_delta *d, const dg_locktab *b);

typedef struct dg_locktab_mon dg_locktab_mon;

/* Starts reading the lock table of db_file (a file on this machine) and takes the first
 * reading; server_pid (0: unknown) is a server process whose FIREBIRD_LOCK names the lock
 * directory. NULL, with *why (allocated), when fb_lock_print is not installed, the table
 * cannot be read, or it prints no header. */
dg_locktab_mon *dg_locktab_open(const char *db_file, int server_pid, int64_t deadline_ns,
                                char **why);

/* Reads the table now (the tool is killed at deadline_ns, dg_now_ns clock): the
 * interval's "lock_table" object since the previous reading, or NULL when this reading
 * failed or follows a failed or an earlier table's one. */
json_t *dg_locktab_sample(dg_locktab_mon *m, int64_t deadline_ns);

/* The first reading (open's): the table's size and hash slots as the run began. */
const dg_locktab *dg_locktab_first(const dg_locktab_mon *m);

/* The last reading starts the measured phase (dg_locktab_finish's totals). */
void dg_locktab_mark(dg_locktab_mon *m);

/* The result's "monitor.lock_table": the source, the lock directory, the tool's and the
 * readings' counts, and "measured" (the figures from the mark to the last reading, when
 * both are of one table). Frees m; NULL m: NULL. */
json_t *dg_locktab_finish(dg_locktab_mon *m);

/* "monitor.lock_table" when none could be read: {"available": false, "reason": why}. */
json_t *dg_locktab_missing(const char *why);

#endif
