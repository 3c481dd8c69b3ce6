/*
 * verdict.h - what limited a run, or one of its intervals: a rule over the figures dbgauge
 * measured (the driver's CPU and schedule lag, the server host's CPU, I/O wait and device
 * utilisation, a cluster's conflicts and flow control, the target rate), with the figures
 * that decided it and a confidence. "not_enough_evidence" is an answer: a figure that was
 * not measured is never assumed.
 *
 * The rules, in order (the first that holds decides):
 *   rate_target        --rate given and served on schedule: a schedule lag p99 under 50 ms
 *                      with the rate roughly reached (the transactions at least the
 *                      arrivals expected less three standard deviations of their Poisson
 *                      count, and >= 50 % of them: 37 of 60 in a 3 s run at 20/s; >= 80 %
 *                      when the span is unknown) - the run did what it was asked; nothing
 *                      else limited it
 *   driver             dbgauge saturated: its CPU >= 80 % of the cores its threads can use,
 *                      or --rate missed (< 90 %) with a schedule lag p99 over 100 ms and
 *                      the server not saturated
 *   cluster_conflicts  >= 0.2 cluster conflicts per transaction, or flow control holding
 *                      writes >= 20 % of the time
 *   server_disk        the data device >= 80 % busy, or the server host's I/O wait >= 20 %
 *                      (unless the sessions sampled waited on I/O < 20 % of their time: the
 *                      host's wait was then other processes'), or the sessions sampled
 *                      waiting on I/O >= 40 % of their time; when
 *                      the server's processes moved under a tenth of the device's bytes
 *                      (others kept it busy), only with the server's CPU below 85 %, and
 *                      at low confidence
 *   lock_waits         the sessions sampled waiting on locks >= 30 % of their time, more
 *                      than they were running (--wait-profile)
 *   server_cpu         the server host's CPU >= 85 % busy, its server processes using more
 *                      of it than dbgauge (when both run on one machine); for an engine
 *                      inside dbgauge (SQLite), dbgauge's CPU >= 85 % of its usable cores
 *   round_trips        a closed-loop run with the server host's CPU < 50 %, its device
 *                      < 50 % busy and dbgauge far from saturated: the terminals spend their
 *                      time waiting on answers (network, per-statement latency); confidence
 *                      medium when the wait profile shows the sessions waiting for the
 *                      client >= 50 % of their time, low without a profile (locks are then
 *                      not ruled out); with a profile and no host figures, that share alone
 *                      (>= 60 %) decides, with dbgauge far from saturated
 *   not_enough_evidence anything else (the server host not measured, or figures in between)
 *
 * Pure functions; thread-safe.
 */
#ifndef DG_RESULTS_VERDICT_H
#define DG_RESULTS_VERDICT_H

#include <jansson.h>
#include <stdbool.h>

/* The figures a verdict weighs; NaN where not measured. */
typedef struct dg_verdict_in {
    double tps;
    double seconds;            /* the span tps is over (NaN: unknown) */
    double rate_tps;           /* --rate's target (0 or NaN: closed loop) */
    double lag_p99_ms;         /* schedule lag p99 (rate-paced runs) */
    double self_cpu_pct;       /* dbgauge's CPU, % of one core */
    int driver_threads;        /* threads running terminals (terminals, or --workers) */
    int client_cores;
    bool embedded;             /* the engine runs inside dbgauge (SQLite) */
    bool server_local;         /* the server host is this machine */
    double server_cpu_pct;     /* the server host's CPU, % of all its cores */
    double server_iowait_pct;
    double server_disk_util_pct;
    double server_procs_cpu_pct; /* the server's processes, % of one core */
    double server_disk_share;  /* the server's processes' storage bytes against the data
                                  device's (0..1; NaN: unknown) */
    double conflicts_per_tx;   /* a cluster's (Galera) */
    double flow_paused_pct;    /* the most any node's flow control held writes, % of time */
    /* the server wait profile (--wait-profile): shares 0..1 of the terminals' sampled time
     * in a transaction their sessions were waiting on locks, on I/O, for the client
     * (between statements), or running; NaN when not sampled */
    double wait_lock, wait_io, wait_client, wait_cpu;
} dg_verdict_in;

typedef struct dg_verdict {
    const char *limited_by;    /* one of the rule names above */
    const char *confidence;    /* "high", "medium", "low" */
    const char *why;           /* one line, for people */
} dg_verdict;

/* Decides; v's strings are static. */
void dg_verdict_decide(const dg_verdict_in *in, dg_verdict *v);

/* {"limited_by", "confidence", "why", "evidence": {the figures weighed, null where not
 * measured}}. */
json_t *dg_verdict_json(const dg_verdict_in *in, const dg_verdict *v);

/* The figures of one result interval (an element of "intervals") or, with iv NULL, of the
 * whole run, from a result document. */
void dg_verdict_in_of(const json_t *doc, const json_t *iv, dg_verdict_in *in);

/* Sets "verdict" on the document (the whole run) and on each of its measured intervals.
 * Intervals that are shallow copies share nothing changed here (each gets a new value). */
void dg_verdict_annotate(json_t *doc);

/* The human words for a limited_by value ("the driver", "server CPU", ...). */
const char *dg_verdict_words(const char *limited_by);

#endif
