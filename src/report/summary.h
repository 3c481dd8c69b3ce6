/*
 * summary.h - per-run figures (summary.c): what every part of a report or comparison
 * needs of one result document (throughput, overall latency percentiles merged from the
 * per-transaction histograms, CPU, load speed, database size). Pure functions of the
 * document; thread-safe.
 */
#ifndef DG_REPORT_SUMMARY_H
#define DG_REPORT_SUMMARY_H

#include <jansson.h>
#include <stdbool.h>

typedef struct dg_rep_summary {
    double tps;            /* totals.tps */
    double p50_ms, p95_ms, p99_ms; /* over all transaction types (merged histograms) */
    double cpu_pct;        /* the client's host, monitor.cpu_pct */
    double self_cpu_pct;   /* dbgauge's own, % of one core */
    double server_cpu_pct; /* the server's host (monitor.server_host), all cores */
    double server_procs_cpu_pct; /* the server's processes there, % of one core */
    double errors;
    double db_size_bytes;  /* monitor.db_size_before_bytes, else load.db_size_bytes (a
                              Firebird file that kept a dropped table's pages: its load's
                              tables and indexes) */
    double database_bytes; /* the database as the engine reports it: before the run, else
                              after its load (NaN: not known) */
    double workload_bytes; /* the workload's own tables and indexes after its load
                              (load.objects_bytes; NaN: no load, or not known) */
    double load_s, load_mb_per_s;
    double tpmc;           /* workload_metrics.tpmC, the workload's headline figure */
    double conflicts_per_tx; /* a cluster's conflicts (totals.conflicts: certification
                                failures and brute-force aborts) per transaction */
    double cache_total_bytes; /* the engine's caches of all connections, when each has one
                                 (server.cache_total_bytes) */
    double lock_wait_pct;  /* the lock manager's mutex acquires that waited, % (Firebird:
                              monitor.lock_table.measured.mutex_wait_pct) */
    bool complete;
} dg_rep_summary;

/* A workload metric that is a rate, by its name: tpmC, or one ending in _per_s, _per_h or
 * _tps (higher is better; a sweep charts it against its parameter). */
bool dg_rep_metric_is_rate(const char *name);

/* Figures of one result document; a missing figure is NaN. */
void dg_rep_summarize(const json_t *doc, dg_rep_summary *out);

/* Latency percentiles (pct[i] in 0..100) over all transaction types of a document, from
 * the merged histograms; with a single type lacking a histogram, its latency_ms figures.
 * Missing values are NaN. */
void dg_rep_latency(const json_t *doc, const double *pct, int n, double *out_ms);

#endif
