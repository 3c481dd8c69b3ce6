/*
 * cluster.c - each node's figures and the cluster's audit (see cluster.h).
 *
 * Layout: opening the monitors; readings; the interval's per-node objects; the finished
 * run's document parts.
 */
#include "session/cluster.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/xalloc.h"
#include "session/sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
    char *name;            /* "host:port" as the URL writes it */
    const char *role;      /* with --db-read: "write" or "read"; NULL without */
    bool galera;           /* it has reported Galera's figures */
    dg_conn *conn;         /* its monitor connection (NULL: it did not accept one) */
    dg_sampler *sampler;   /* reads conn on its own thread (NULL: none) */
    dg_dbstats first;      /* before the run (every field -1 when not read) */
    dg_dbstats prev;       /* at the last interval's end */
    dg_dbstats last;       /* the closing reading */
    bool have_first, have_prev, have_last;
} node;

struct dg_cluster {
    int n;
    node *nodes;
};

static void unknown(dg_dbstats *s)
{
    memset(s, 0xff, sizeof *s);
}

/* ---- opening ------------------------------------------------------------------------------ */

dg_cluster *dg_cluster_open(const dg_nodelist *hosts, const dg_nodelist *replicas,
                            const dg_connopts *co)
{
    int nr = replicas ? replicas->n : 0;
    if (hosts->n + nr < 2)
        return NULL;
    dg_cluster *c = xcalloc(1, sizeof *c);
    c->n = hosts->n + nr;
    c->nodes = xcalloc((size_t)c->n, sizeof *c->nodes);
    for (int i = 0; i < c->n; i++) {
        node *nd = &c->nodes[i];
        bool rep = i >= hosts->n;
        const dg_nodelist *nl = rep ? replicas : hosts;
        int k = rep ? i - hosts->n : i;
        nd->name = xstrdup(nl->names[k]);
        nd->role = !nr ? NULL : rep ? "read" : "write";
        unknown(&nd->first);
        unknown(&nd->prev);
        unknown(&nd->last);
        dg_err ce = DG_ERR_INIT;
        if (dg_connect(nl->urls[k], co, &nd->conn, &ce) != 0) {
            dg_log_warn("node %s: no monitor connection (%s): its figures are missing", nd->name,
                        ce.msg);
            nd->conn = NULL;
            continue;
        }
        nd->sampler = dg_sampler_start(nd->conn);
    }
    return c;
}

/* ---- readings ----------------------------------------------------------------------------- */

/* Reads every node by the one deadline: each interval's readings asked of every node at
 * once, then waited for (a stalled node costs the others nothing); the fresh readings at
 * the ends one after the other (each first waits for a call still in its server). */
static void read_all(dg_cluster *c, int64_t deadline_ns, bool fresh, dg_dbstats *out, bool *ok)
{
    uint64_t want[DG_MAX_NODES * 2];
    for (int i = 0; i < c->n && !fresh; i++)
        if (c->nodes[i].sampler)
            want[i] = dg_sampler_request(c->nodes[i].sampler);
    for (int i = 0; i < c->n; i++) {
        node *nd = &c->nodes[i];
        unknown(&out[i]);
        ok[i] = nd->sampler && (fresh ? dg_sampler_take_fresh(nd->sampler, deadline_ns, &out[i])
                                      : dg_sampler_wait(nd->sampler, want[i], deadline_ns, &out[i]));
    }
}

/* True when every node that answered has applied the same last write set and has none
 * waiting (or the nodes are not Galera's). */
static bool settled(const dg_cluster *c, const dg_dbstats *r, const bool *ok)
{
    int64_t seq = -1;
    for (int i = 0; i < c->n; i++) {
        const dg_clusterstats *cl = &r[i].cluster;
        if (!ok[i] || cl->seqno < 0)
            continue;
        if ((seq >= 0 && cl->seqno != seq) || cl->recv_queue > 0)
            return false;
        seq = cl->seqno;
    }
    return true;
}

/* Fresh readings of every node, again until the nodes have applied everything written
 * before (a load's last write sets may still be on their way to some) or the deadline. */
static void read_settled(dg_cluster *c, int64_t deadline_ns, dg_dbstats *r, bool *ok)
{
    int64_t t0 = dg_now_ns();
    for (;;) {
        read_all(c, deadline_ns, true, r, ok);
        if (settled(c, r, ok) || dg_now_ns() >= deadline_ns)
            break;
        dg_sleep_ns(20 * DG_NS_PER_MS);
    }
    if (!settled(c, r, ok))
        dg_log_warn("the cluster's nodes had not applied the same write sets after %.1f s: the "
                    "count audit may be off by those in flight",
                    (double)(dg_now_ns() - t0) / DG_NS_PER_S);
}

void dg_cluster_begin(dg_cluster *c, int64_t deadline_ns)
{
    if (!c)
        return;
    dg_dbstats *r = xcalloc((size_t)c->n, sizeof *r);
    bool *ok = xcalloc((size_t)c->n, sizeof *ok);
    read_settled(c, deadline_ns, r, ok);
    for (int i = 0; i < c->n; i++) {
        c->nodes[i].first = c->nodes[i].prev = r[i];
        c->nodes[i].have_first = c->nodes[i].have_prev = ok[i];
    }
    free(r);
    free(ok);
}

/* b - a of a counter both readings have, else -1. */
static int64_t delta(int64_t a, int64_t b)
{
    return a >= 0 && b >= 0 && b >= a ? b - a : -1;
}

static void set_count(json_t *o, const char *key, int64_t v)
{
    json_object_set_new(o, key, v >= 0 ? json_integer(v) : json_null());
}

/* ---- each interval ------------------------------------------------------------------------ */

/* "ok": the node answered; "no_answer": not in time, or with an error (down, restarting);
 * "no_monitor": it refused the monitor connection at the start. */
static const char *status_name(const node *nd, bool ok)
{
    return !nd->sampler ? "no_monitor" : ok ? "ok" : "no_answer";
}

json_t *dg_cluster_interval(dg_cluster *c, const dg_interval_report *iv, int64_t deadline_ns)
{
    if (!c)
        return NULL;
    dg_dbstats *r = xcalloc((size_t)c->n, sizeof *r);
    bool *ok = xcalloc((size_t)c->n, sizeof *ok);
    read_all(c, deadline_ns, false, r, ok);
    double dur_s = (double)iv->dur_ns / DG_NS_PER_S;
    json_t *arr = json_array();
    for (int i = 0; i < c->n; i++) {
        node *nd = &c->nodes[i];
        json_t *o = json_object();
        json_object_set_new(o, "node", json_string(nd->name));
        if (nd->role)
            json_object_set_new(o, "role", json_string(nd->role));
        const dg_node_counts *nc = iv->nodes && i < iv->nnodes ? &iv->nodes[i] : NULL;
        uint64_t tx = nc ? nc->tx : 0;
        json_object_set_new(o, "transactions", json_integer((json_int_t)tx));
        json_object_set_new(o, "tps", dur_s > 0 ? json_real((double)tx / dur_s) : json_null());
        json_object_set_new(o, "errors", json_integer(nc ? (json_int_t)nc->errors : 0));
        json_object_set_new(o, "arrivals", json_integer(nc ? (json_int_t)nc->arrivals : 0));
        json_object_set_new(o, "status", json_string(status_name(nd, ok[i])));
        const dg_clusterstats *a = &nd->prev.cluster, *b = &r[i].cluster;
        bool both = ok[i] && nd->have_prev;
        if (ok[i] && b->standby >= 0) { /* streaming replication */
            json_object_set_new(o, "standby", json_boolean(b->standby == 1));
            set_count(o, "replicas", b->replicas);
            set_count(o, "lag_bytes", b->lag_bytes);
            set_count(o, "replay_delay_ms", b->replay_delay_ms);
        }
        if (ok[i] ? b->seqno < 0 : !nd->galera) { /* not a Galera node */
            json_array_append_new(arr, o);
            if (ok[i] || !nd->sampler) {
                nd->prev = r[i];
                nd->have_prev = ok[i];
            }
            continue;
        }
        nd->galera = true;
        set_count(o, "cert_failures", both ? delta(a->cert_failures, b->cert_failures) : -1);
        set_count(o, "bf_aborts", both ? delta(a->bf_aborts, b->bf_aborts) : -1);
        set_count(o, "replays", both ? delta(a->replays, b->replays) : -1);
        int64_t paused = both ? delta(a->flow_paused_ns, b->flow_paused_ns) : -1;
        json_object_set_new(o, "flow_paused_pct",
                            paused >= 0 && iv->dur_ns > 0
                                ? json_real(100.0 * (double)paused / (double)iv->dur_ns)
                                : json_null());
        set_count(o, "cluster_size", ok[i] ? b->size : -1);
        json_object_set_new(o, "synced", ok[i] && b->synced >= 0 ? json_boolean(b->synced == 1)
                                                                 : json_null());
        set_count(o, "recv_queue", ok[i] ? b->recv_queue : -1);
        json_array_append_new(arr, o);
        if (ok[i] || !nd->sampler) { /* a late reading keeps the last one as the start */
            nd->prev = r[i];
            nd->have_prev = ok[i];
        }
    }
    free(r);
    free(ok);
    return arr;
}

/* ---- the finished run --------------------------------------------------------------------- */

json_t *dg_cluster_conflicts_json(const dg_clusterstats *before, const dg_clusterstats *after)
{
    if (before->seqno < 0 || after->seqno < 0)
        return NULL;
    json_t *o = json_object();
    set_count(o, "cert_failures", delta(before->cert_failures, after->cert_failures));
    set_count(o, "bf_aborts", delta(before->bf_aborts, after->bf_aborts));
    set_count(o, "replays", delta(before->replays, after->replays));
    return o;
}

static const char *place_name(dg_place p)
{
    return p == DG_PLACE_FIRST ? "first" : p == DG_PLACE_RANDOM ? "random" : "terminal";
}

/* What dbgauge committed in the whole run (warmup, measured phase, drain): transactions
 * that completed, less business rollbacks. */
static uint64_t committed_all(const dg_run_stats *st)
{
    uint64_t n = 0;
    for (int p = 0; p < 2; p++)
        n += st->all[p].count - st->all[p].rollbacks;
    return n + st->drain_all.count - st->drain_all.rollbacks;
}

/* Transactions of the whole run whose COMMIT lost its connection: committed or not. */
static uint64_t unknown_all(const dg_run_stats *st)
{
    return st->all[0].unknown + st->all[1].unknown + st->drain_all.unknown;
}

void dg_cluster_finish(dg_cluster *c, const dg_run_stats *st, dg_place place, int64_t deadline_ns,
                       json_t *doc)
{
    if (!c)
        return;
    dg_dbstats *r = xcalloc((size_t)c->n, sizeof *r);
    bool *ok = xcalloc((size_t)c->n, sizeof *ok);
    read_settled(c, deadline_ns, r, ok);
    json_t *cl = json_object();
    bool galera = false;
    json_t *nodes = json_array();
    int64_t cert = 0, bf = 0, replays = 0;
    bool conflicts_known = true;
    int64_t seq_lo = -1, seq_hi = -1, seq_first = -1;
    json_t *stale = json_array(); /* nodes counted from their last reading before the end */
    double measured_s = (double)st->phase_ns[DG_PHASE_MEASURE] / DG_NS_PER_S;
    for (int i = 0; i < c->n; i++) {
        node *nd = &c->nodes[i];
        nd->last = r[i];
        nd->have_last = ok[i];
        json_t *o = json_object();
        json_object_set_new(o, "node", json_string(nd->name));
        if (nd->role)
            json_object_set_new(o, "role", json_string(nd->role));
        /* every transaction the server saw from the terminals there (warmup and drain
         * included), against its own commit counter (which also counts dbgauge's
         * bookkeeping: sessions, statements prepared, statistics readings) */
        if (i < st->nnodes) {
            uint64_t all = st->node_drain[i].tx - st->node_drain[i].rollbacks;
            for (int p = 0; p < 2; p++)
                all += st->nodes[p][i].tx - st->nodes[p][i].rollbacks;
            json_object_set_new(o, "dbgauge_committed", json_integer((json_int_t)all));
        }
        set_count(o, "server_commits",
                  nd->have_first && ok[i] ? delta(nd->first.commits, r[i].commits) : -1);
        const dg_node_counts *m = st->nodes[DG_PHASE_MEASURE] && i < st->nnodes
                                      ? &st->nodes[DG_PHASE_MEASURE][i] : NULL;
        uint64_t tx = m ? m->tx : 0;
        json_object_set_new(o, "transactions", json_integer((json_int_t)tx));
        json_object_set_new(o, "tps", measured_s > 0 ? json_real((double)tx / measured_s) : json_null());
        json_object_set_new(o, "errors", json_integer(m ? (json_int_t)m->errors : 0));
        json_object_set_new(o, "arrivals", json_integer(m ? (json_int_t)m->arrivals : 0));
        /* a node that does not answer at the end (killed, say) had its last conflicts by
         * its last answer: its transactions since then failed (and were counted so) */
        bool last_good = !ok[i] && nd->have_prev;
        const dg_clusterstats *a = &nd->first.cluster;
        const dg_clusterstats *b = last_good ? &nd->prev.cluster : &r[i].cluster;
        json_t *conf = nd->have_first && (ok[i] || last_good) ? dg_cluster_conflicts_json(a, b) : NULL;
        if (conf && last_good)
            json_array_append_new(stale, json_string(nd->name));
        if (conf) {
            galera = true;
            cert += delta(a->cert_failures, b->cert_failures);
            bf += delta(a->bf_aborts, b->bf_aborts);
            replays += delta(a->replays, b->replays);
            int64_t paused = delta(a->flow_paused_ns, b->flow_paused_ns);
            json_object_set_new(o, "flow_paused_s",
                                paused >= 0 ? json_real((double)paused / DG_NS_PER_S) : json_null());
            if (a->seqno > seq_first)
                seq_first = a->seqno;
            if (ok[i] && (seq_lo < 0 || b->seqno < seq_lo))
                seq_lo = b->seqno;
            if (b->seqno > seq_hi)
                seq_hi = b->seqno;
        } else {
            conflicts_known = false;
        }
        json_object_set_new(o, "conflicts", conf ? conf : json_null());
        json_object_set_new(o, "status", json_string(status_name(nd, ok[i])));
        json_array_append_new(nodes, o);
    }
    bool replication = false;
    for (int i = 0; i < c->n; i++)
        replication |= c->nodes[i].first.cluster.standby >= 0 || r[i].cluster.standby >= 0;
    json_object_set_new(cl, "kind", json_string(galera        ? "galera"
                                                : replication ? "replication"
                                                              : "nodes"));
    json_object_set_new(cl, "place", json_string(place_name(place)));
    json_object_set_new(cl, "nodes", nodes);
    if (galera) {
        json_t *tc = json_object();
        json_object_set_new(tc, "cert_failures", json_integer(cert));
        json_object_set_new(tc, "bf_aborts", json_integer(bf));
        json_object_set_new(tc, "replays", json_integer(replays));
        json_object_set_new(tc, "complete", json_boolean(conflicts_known));
        json_t *totals = json_object_get(doc, "totals");
        if (totals)
            json_object_set(totals, "conflicts", tc);
        json_object_set_new(cl, "conflicts", tc);
        /* the audit: the sequence's growth (its highest number on any node, before and
         * after: a node may still be applying the last write sets) less the refused
         * transactions, against what dbgauge committed. Transactions whose COMMIT lost its
         * connection may or may not be in it; a node read last before the end may have
         * refused more after that (each takes a number): then there is no exact audit. */
        json_t *au = json_object();
        uint64_t mine = committed_all(st), unknown = unknown_all(st);
        json_object_set_new(au, "dbgauge_committed", json_integer((json_int_t)mine));
        json_object_set_new(au, "unknown_outcome", json_integer((json_int_t)unknown));
        json_object_set_new(au, "nodes_agree", json_boolean(seq_lo == seq_hi));
        json_object_set(au, "from_last_reading", stale);
        const char *why = NULL;
        if (conflicts_known && seq_first >= 0) {
            int64_t server = seq_hi - seq_first - cert;
            int64_t diff = server - (int64_t)mine;
            json_object_set_new(au, "cluster_committed", json_integer(server));
            if (json_array_size(stale) > 0)
                why = "a node's last figures are from before the end (it stopped answering): "
                      "what it refused after them is not known";
            json_object_set_new(au, "exact", why ? json_null() : json_boolean(diff == 0));
            json_object_set_new(au, "consistent",
                                why ? json_null()
                                    : json_boolean(diff >= 0 && diff <= (int64_t)unknown));
            json_t *mon = json_object_get(doc, "monitor");
            if (mon)
                json_object_set_new(mon, "server_commits", json_integer(server));
        } else {
            json_object_set_new(au, "cluster_committed", json_null());
            json_object_set_new(au, "exact", json_null());
            json_object_set_new(au, "consistent", json_null());
            why = "a node's figures are missing (no monitor connection, or no answer at the start)";
        }
        if (why)
            json_object_set_new(au, "why", json_string(why));
        json_object_set_new(cl, "audit", au);
    }
    json_object_set_new(doc, "cluster", cl);
    json_decref(stale);
    free(r);
    free(ok);
}

void dg_cluster_close(dg_cluster *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        node *nd = &c->nodes[i];
        bool free_conn = true;
        if (nd->sampler)
            free_conn = dg_sampler_stop(nd->sampler, dg_now_ns() + DG_NS_PER_S);
        if (free_conn) /* else a stuck reading's thread keeps it */
            dg_conn_close(nd->conn);
        free(nd->name);
    }
    free(c->nodes);
    free(c);
}
