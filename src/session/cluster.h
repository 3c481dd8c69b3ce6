/*
 * cluster.h - a run against several nodes of one database (a URL that lists several
 * hosts, backend/nodes.h): each node's own figures every interval, the cluster's
 * conflicts, and the audit of dbgauge's committed count against the cluster's.
 *
 * One monitor connection per node, each read on a thread of its own (session/sampler.h),
 * so a node that stalls or dies costs an interval at most its wait and is shown as "late"
 * or "down" there, never a stalled collector. What a node tells comes from the backend's
 * statistics (dg_dbstats.cluster: Galera's wsrep_ figures); what dbgauge did on each node
 * comes from the runner (dg_interval_report.nodes).
 *
 * The audit (Galera): every write transaction committed anywhere in the cluster takes the
 * next number of one cluster-wide sequence (wsrep_last_committed), and so does one the
 * cluster then refuses at certification (counted in wsrep_local_cert_failures on its
 * node). So the transactions committed = the sequence's growth less the certification
 * failures of every node. Com_commit counts refused COMMITs too: it is not used here.
 *
 * Thread-safety: one thread (the session's collector) calls every function.
 */
#ifndef DG_SESSION_CLUSTER_H
#define DG_SESSION_CLUSTER_H

#include "backend/backend.h"
#include "backend/nodes.h"
#include "runner/runner.h"

#include <jansson.h>

typedef struct dg_cluster dg_cluster;

/* The nodes of a run: the URL's hosts (writes, and everything when there are no
 * replicas), then --db-read's replicas (reads; NULL: none). NULL when that is one host
 * alone. A node that does not accept the monitor connection is said (a warning) and shown
 * as "no_monitor". */
dg_cluster *dg_cluster_open(const dg_nodelist *hosts, const dg_nodelist *replicas,
                            const dg_connopts *co);

/* Each node's reading before the run (the audit's start): again until every node has
 * applied the same write sets (what a load wrote may still be on its way), at most until
 * deadline_ns (dg_now_ns clock). */
void dg_cluster_begin(dg_cluster *c, int64_t deadline_ns);

/* Each node's figures for the interval iv ends, as a JSON array (one object per node:
 * what dbgauge did there and what the node reports), waiting at most until deadline_ns
 * for the readings. */
json_t *dg_cluster_interval(dg_cluster *c, const dg_interval_report *iv, int64_t deadline_ns);

/* The closing readings (fresh ones, again until the nodes have applied the same write
 * sets, at most until deadline_ns), then the
 * document's parts: "cluster" (kind, placement, each node's totals, conflicts, the
 * audit), "totals.conflicts", and monitor.server_commits as the cluster counts them. */
void dg_cluster_finish(dg_cluster *c, const dg_run_stats *st, dg_place place, int64_t deadline_ns,
                       json_t *doc);

/* Stops the monitors and frees c (NULL: nothing). */
void dg_cluster_close(dg_cluster *c);

/* The conflicts of one Galera node as the document shows them, from its readings before
 * and after: {"cert_failures", "bf_aborts", "replays"}; NULL when the node is not one. */
json_t *dg_cluster_conflicts_json(const dg_clusterstats *before, const dg_clusterstats *after);

#endif
