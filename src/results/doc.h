/*
 * doc.h - the parts of a result document, built from plain figures: the one place that
 * names the fields of a result file (docs/file-formats.md). The session fills these
 * structs from its statistics and samples; the test-fixture maker (tests/tools/) fills
 * them by hand and builds its documents with the same functions, so the files the report
 * tests read have the shape real runs write.
 *
 * The whole documents are assembled here too (a load's; a run's at its start and at its
 * end), so the session passes figures and parts and never names a field.
 *
 * Conventions: a double that is NaN, and an int64_t size that is negative, are written
 * as null (not measured). Every function returns a new reference (json_decref), never
 * NULL; strings are copied.
 */
#ifndef DG_RESULTS_DOC_H
#define DG_RESULTS_DOC_H

#include "backend/backend.h"
#include "monitor/host.h"
#include "monitor/procfs.h"
#include "monitor/sysstat.h"
#include "stats/txstats.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* "run": what was asked and, when `finished`, how it ended. */
typedef struct dg_doc_run {
    const char *workload, *workload_hash, *scale_unit;
    const char *storage;      /* the workload's storage mode; NULL: left out */
    const char *execution;    /* "procedures" (a workload mode); NULL: left out, the
                                 client sent each statement */
    int64_t scale;
    const char *backend, *db; /* db: the redacted URL */
    int terminals;            /* this process's (a part's share) */
    int part_k, part_n;       /* part K of N of a run split over processes (N 0: whole run) */
    const char *part_from;    /* where K and N came from ("--part", "Slurm" ...) */
    int first_terminal;       /* a part's first terminal, run-wide number (0-based) */
    int whole_terminals;      /* the whole run's terminals (all parts) */
    const char *start_at;     /* --start-at as given (NULL: none) */
    double start_late_ms;     /* how much later than start_at the measured phase started */
    double duration_s;        /* NaN when the run is by transaction count */
    int64_t transactions_per_terminal;
    double warmup_s, interval_s;
    uint64_t seed;
    const char *command;
    double rate_tps;          /* NaN / <= 0: closed loop (null) */
    double think_time_ms;     /* NaN / <= 0: none (null) */
    bool think_time_exponential;
    int max_tries;
    bool keying_think;
    const dg_setting *conn_settings;
    int nconn_settings;
    int ntx;                  /* the mix: tx_names[i] with tx_weights[i] */
    const char *const *tx_names;
    const double *tx_weights;
    bool finished;            /* the fields below are set */
    const char *started_at;   /* ISO 8601 */
    bool complete;
    const char *stop_reason;
    int aborted_terminals;
    int interrupted_terminals; /* still in a database call well after the end */
    double overrun_s;          /* the last terminal finished this long after the deadline */
    double connect_s, close_s; /* opening the sessions before, closing them after (NaN: n/a) */
    int workers;               /* the events engine's threads; 0: a thread per terminal */
    bool pipeline;             /* transactions pipelined (--pipeline) */
    uint64_t engine_timers;    /* events engine, finished: timer expiries, and how late */
    double engine_lag_avg_ms, engine_lag_max_ms; /*   they fired (NaN: none) */
} dg_doc_run;
json_t *dg_doc_run_json(const dg_doc_run *r);

/* "server" and "host". */
json_t *dg_doc_server_json(const dg_server_info *si);
json_t *dg_doc_host_json(const dg_hostinfo *h);

/* "drain": what completed after a duration run's deadline, over secs seconds after it;
 * tx[ntx] by type (the counts as in dg_txstats). */
typedef struct dg_doc_drain_tx {
    const char *name;
    uint64_t count, rollbacks, errors, unknown;
} dg_doc_drain_tx;
json_t *dg_doc_drain_json(double secs, int ntx, const dg_doc_drain_tx *tx);

/* "totals" / "warmup": a phase's counters over secs seconds. */
json_t *dg_doc_totals_json(const dg_txstats *all, double secs);

/* One element of "transactions" (with its histogram when `hist`). */
json_t *dg_doc_tx_json(const char *name, double weight, const dg_txstats *t, bool hist);

/* Intervals shorter than this get "tps": null (their counts are kept). */
#define DG_DOC_MIN_RATE_S 0.1

/* One element of "intervals" / "warmup_intervals". */
/* What the server host sampler gave for an interval. */
typedef enum dg_doc_server_status {
    DG_DOC_SERVER_NONE = 0, /* no sampler in this run */
    DG_DOC_SERVER_OK,
    DG_DOC_SERVER_LATE,     /* the sample did not come back in time */
    DG_DOC_SERVER_LOST,     /* the ssh session had ended */
} dg_doc_server_status;

typedef struct dg_doc_interval {
    double t_s, dur_s;
    uint64_t transactions, errors, retries, rollbacks;
    double p50_ms, p95_ms, p99_ms, avg_ms, max_ms; /* all NaN when there were none */
    int ntx;                  /* per-type counts: tx_names[i] -> tx_counts[i] */
    const char *const *tx_names;
    const uint64_t *tx_counts;
    const dg_hist *const *tx_hists; /* per-type latency histograms, written as HdrHistogram
                                       V2 compressed base64 ("histograms"); NULL: none */
    dg_sysdelta sys;          /* host CPU, own CPU, disk */
    double cache_hit_pct, physical_reads; /* NaN: not published in the interval */
    int64_t db_size_bytes;
    uint64_t reconnects;
    double downtime_s;
    int active_terminals;
    double lag_p99_ms;        /* NaN: not a rate-paced run (field left out) */
    dg_doc_server_status server_status; /* "server_host" (left out: NONE) */
    dg_srvdelta server;       /* the server host's figures when server_status is OK */
    const dg_dbstats *db_prev, *db_now; /* the readings around the interval, for its
                                           "cache_parts" (NULL: none) */
} dg_doc_interval;

/* "cache_parts": {NAME: {"hits", "reads", "hit_pct"}} from a to b for each part both
 * readings have (by name; the engine's order), hit_pct null when nothing was read; NULL
 * when there is none. */
json_t *dg_doc_cache_parts_json(const dg_dbstats *a, const dg_dbstats *b);
json_t *dg_doc_interval_json(const dg_doc_interval *iv);

/* The server host's figures as an interval's "server_host": "status" ok (with the
 * figures), late or lost. */
json_t *dg_doc_srvdelta_json(dg_doc_server_status st, const dg_srvdelta *d);

/* The server host sampler's facts and the measured phase's figures ("monitor.server_host"). */
typedef struct dg_doc_server_host {
    const char *source, *device, *data_dir; /* "local" or ssh://...; "" if unknown */
    int root_pid, procs;
    int late_intervals;
    bool lost;
    bool have_totals;         /* totals holds the measured phase's figures */
    dg_srvdelta totals;
    uint64_t transactions;    /* of the measured phase: I/O per transaction */
} dg_doc_server_host;

/* "monitor": the measured phase as a whole. */
typedef struct dg_doc_monitor {
    dg_sysdelta sys;
    double self_cpu_us_per_tx, cache_hit_pct, physical_reads_per_tx;
    int64_t db_size_before_bytes, db_size_after_bytes;
    int64_t server_commits;   /* < 0: the server keeps no such counter (left out) */
    uint64_t reconnects;
    double downtime_s;
    const char *block_device;
    int64_t self_max_rss_bytes; /* < 0: unknown (left out) */
    const char *cache_null_reason; /* why cache_hit_pct is NaN with transactions measured
                                      (NULL: it is not): in "notes" */
    int cache_hit_null_intervals; /* intervals whose cache figure the server had not
                                     published yet: explained in "notes" */
    int stats_late_intervals; /* intervals whose statistics query the server did not
                                 answer in time (it stalled): explained in "notes" */
    double db_phase_late_s;   /* > 0: the reading at the measured phase's start came late,
                                 its database figures count from this far into it: in
                                 "notes" */
    int64_t stats_readings;   /* statistics readings dbgauge made during the run (its own
                                 transactions on the server); <= 0: none (left out) */
    const dg_doc_server_host *server_host; /* NULL: no server host sampler (left out) */
    const dg_dbstats *parts_from, *parts_to; /* the measured phase's "cache_parts" (NULL:
                                                left out) */
    int conn_hit_n;           /* connections with their own cache counters (0: left out) */
    double conn_hit_min, conn_hit_median, conn_hit_max; /* their hit ratios, % */
} dg_doc_monitor;
json_t *dg_doc_monitor_json(const dg_doc_monitor *m);

/* "load", with its steps. */
typedef struct dg_doc_step {
    const char *name, *kind; /* kind: "table", "index", "ddl", ... */
    double seconds;
    uint64_t rows, bytes;
    double start_s;          /* since the load began */
    int64_t page_reads, page_writes; /* the database's, from the previous step's end to
                                        this one's (a restore log's columns); -1: not told */
} dg_doc_step;
/* One second of a load (load.timeline). */
typedef struct dg_doc_load_tick {
    double t_s, dur_s;        /* since the load began; the tick's length */
    uint64_t rows, bytes;     /* rows and data bytes sent during the tick */
    dg_sysdelta sys;          /* host CPU, dbgauge's CPU, the data's disk */
    int step;                 /* the step under way at the tick's end (index into steps;
                                 -1: between steps) */
} dg_doc_load_tick;

typedef struct dg_doc_load {
    const char *workload;
    int64_t scale;
    int jobs;
    uint64_t seed;
    double bytes;             /* what the database grew by (or the bytes sent) */
    const char *bytes_measure; /* "growth", or "sent" when growth does not measure the load
                                  (the database reused free space, or has no size); NULL:
                                  "growth" */
    uint64_t data_bytes_sent;
    int64_t db_size_bytes;
    double seconds;
    int nsteps;
    const dg_doc_step *steps;
    int nobjects;             /* the tables' and indexes' statistics after the load */
    const dg_objstat *objects;
    bool objects_read;        /* false: the engine tells none (objects: null) */
    double objects_seconds;   /* reading them took */
    int nticks;               /* the timeline (0: none) */
    const dg_doc_load_tick *ticks;
    const char *bulk_path;    /* the backend's bulk path and why (dg_backend.bulk_path);
                                 NULL or "": the backend has one (no "bulk_path") */
    const char *bulk_why;
} dg_doc_load;
json_t *dg_doc_load_json(const dg_doc_load *l);

/* One element of "errors". */
json_t *dg_doc_error_json(const char *message, const char *transaction, dg_errclass cls,
                          uint64_t count);

/* ---- whole documents ---- */

/* "run" of a load's document: what was asked, and whether the load finished. */
typedef struct dg_doc_load_run {
    const char *workload, *workload_hash, *scale_unit;
    int64_t scale;
    const char *backend, *db; /* db: the redacted URL */
    uint64_t seed;
    int jobs;
    const char *started_at;   /* ISO 8601 */
    const char *stop_reason;  /* NULL: complete */
    const char *command;      /* NULL: null */
    const char *storage;      /* the workload's storage mode; NULL: null */
} dg_doc_load_run;
json_t *dg_doc_load_run_json(const dg_doc_load_run *r);

/* A load's document: {"dbgauge", "kind": "load", "run", "server", "host", "load"}, then
 * extra's fields (a sweep's point; NULL: none). load is dg_doc_load_json's (NULL: null);
 * load and extra are borrowed (references taken). */
json_t *dg_doc_load_document(const dg_doc_load_run *run, const dg_server_info *si,
                             const dg_hostinfo *host, const json_t *load, const json_t *extra);

/* "server.requested" / "server.effective": what --server-ctl set for each setting and
 * what the server shows for it (effective[i] NULL: the engine cannot tell, null). */
typedef struct dg_doc_server_ctl {
    int n;                    /* 0: both left out */
    const dg_setting *requested;
    const char *const *effective;
} dg_doc_server_ctl;

/* A run's document as the terminals start: {"dbgauge", "run" (not finished), "server",
 * "host"} (what the UI's begin callback shows). ctl NULL: no server settings asked. */
json_t *dg_doc_run_document(const dg_doc_run *run, const dg_server_info *si,
                            const dg_doc_server_ctl *ctl, const dg_hostinfo *host);
/* Adds "requested", "effective" and "verified" to a document's "server" object (nothing
 * when ctl is NULL or asks nothing). */
void dg_doc_server_ctl_add(json_t *server, const dg_doc_server_ctl *ctl);

/* A workload's own figure (tpmC ...), in "workload_metrics" and "workload_metric_units". */
typedef struct dg_doc_metric {
    const char *name;
    double value;
    const char *unit;
} dg_doc_metric;

/* An element of "errors" (dg_doc_error_json). */
typedef struct dg_doc_error {
    const char *message, *transaction;
    dg_errclass cls;
    uint64_t count;
} dg_doc_error;

/* The extra of a sweep point's document (dg_doc_result.extra, dg_doc_load_document's
 * extra): {"sweep": point}, point being dg_sweep_point_json's (borrowed, a reference
 * taken). */
json_t *dg_doc_sweep_extra(const json_t *point);

/* What a finished run adds to its document. Pointers are borrowed; json parts have a
 * reference taken. */
typedef struct dg_doc_result {
    const dg_doc_run *run;            /* finished: replaces the "run" of the start */
    const json_t *load;               /* dg_doc_load_json's; NULL: left out (no load) */
    const dg_txstats *totals, *warmup; /* the phases, all types merged */
    double totals_s, warmup_s;
    int ntx;                          /* the types: names, weights, per-phase counters */
    const char *const *tx_names;
    const double *tx_weights;
    const dg_txstats *tx;             /* [ntx] measured phase ("transactions", histograms) */
    const dg_txstats *warmup_tx;      /* [ntx]; NULL: "warmup_transactions" left out */
    const dg_doc_drain_tx *drain_tx;  /* [ntx]; NULL: "drain" left out (a count run) */
    double drain_s;
    bool metrics;                     /* the workload has figures of its own */
    int nmetrics;
    const dg_doc_metric *metric;
    const json_t *intervals, *warmup_intervals; /* arrays of dg_doc_interval_json's */
    const dg_hist *schedule_lag;      /* NULL: left out (not a rate-paced run) */
    const dg_doc_monitor *monitor;
    int nerrors;
    const dg_doc_error *errors;
    int nwarnings;
    const char *const *warnings;
    const json_t *extra;              /* merged in last (a sweep's point); NULL: none */
} dg_doc_result;

/* Completes doc (dg_doc_run_document's) with a finished run's parts, in the documented
 * order: "run" (in its place), "load", "totals", "warmup", "transactions", "drain",
 * "workload_metrics", "workload_metric_units", "warmup_transactions", "intervals",
 * "warmup_intervals", "schedule_lag_ms", "monitor", "errors", "warnings", then extra's. */
void dg_doc_run_finish(json_t *doc, const dg_doc_result *r);

/* One driver host of run --drivers ("run.drivers"). */
typedef struct dg_doc_driver {
    const char *host;        /* ssh://... */
    double clock_offset_ms;  /* its clock minus the launcher's */
    double round_trip_ms;    /* of the probe the offset came from (its uncertainty: half) */
    int exit_status;         /* of its dbgauge run (-1: unknown) */
} dg_doc_driver;

/* Adds run.drivers to a merged document, and the launcher's command line as
 * run.command (the parts' own are in "parts"). */
void dg_doc_set_drivers(json_t *doc, const dg_doc_driver *d, int n, const char *command);

#endif
