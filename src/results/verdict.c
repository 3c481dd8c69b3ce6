/*
 * verdict.c - what limited a run (see verdict.h for the rules).
 */
#include "results/verdict.h"

#include "results/result.h"

#include <math.h>
#include <string.h>

static bool known(double x)
{
    return isfinite(x);
}

/* dbgauge's CPU as a share (0..1) of the cores its threads can use. */
static double driver_load(const dg_verdict_in *in)
{
    int usable = in->driver_threads < in->client_cores ? in->driver_threads : in->client_cores;
    if (usable < 1 || !known(in->self_cpu_pct))
        return NAN;
    return in->self_cpu_pct / (100.0 * usable);
}

static bool rated(const dg_verdict_in *in)
{
    return known(in->rate_tps) && in->rate_tps > 0;
}

/* The rate roughly reached: the Poisson arrivals of a short span vary (a 3 s run at 20/s
 * expects 60, and draws 47 or fewer one time in twenty), so the bound is the expected
 * count less three of its standard deviations, and never under half of it. */
static bool rate_reached(const dg_verdict_in *in)
{
    if (!known(in->tps))
        return false;
    if (!known(in->seconds) || in->seconds <= 0)
        return in->tps >= 0.8 * in->rate_tps;
    double expect = in->rate_tps * in->seconds;
    double low = fmax(expect - 3 * sqrt(expect), 0.5 * expect);
    return in->tps * in->seconds >= low;
}

void dg_verdict_decide(const dg_verdict_in *in, dg_verdict *v)
{
    double drv = driver_load(in);
    bool srv_cpu_known = known(in->server_cpu_pct);
    bool srv_busy = (srv_cpu_known && in->server_cpu_pct >= 85) ||
                    (known(in->server_disk_util_pct) && in->server_disk_util_pct >= 80);
    /* on schedule: arrivals served when due (an interval's count varies with the Poisson
     * arrivals, so the lag decides, with the rate roughly reached) */
    if (rated(in) && rate_reached(in) && known(in->lag_p99_ms) && in->lag_p99_ms < 50) {
        *v = (dg_verdict){"rate_target", "high",
                          "the target rate was reached on schedule: nothing else limited the run"};
        return;
    }
    /* (the run's former "dbgauge used N % of a core per terminal" warning: 80 % of a core
     * per thread is this rule's case too) */
    if (!in->embedded && known(drv) && drv >= 0.8) {
        *v = (dg_verdict){"driver", drv >= 0.95 ? "high" : "medium",
                          "dbgauge used nearly all the CPU its terminal threads can use"};
        return;
    }
    if (rated(in) && known(in->tps) && in->tps < 0.9 * in->rate_tps && known(in->lag_p99_ms) &&
        in->lag_p99_ms > 100 && !srv_busy && srv_cpu_known) {
        *v = (dg_verdict){"driver", "medium",
                          "the target rate was missed with a growing schedule lag while the "
                          "server had room"};
        return;
    }
    if ((known(in->conflicts_per_tx) && in->conflicts_per_tx >= 0.2) ||
        (known(in->flow_paused_pct) && in->flow_paused_pct >= 20)) {
        bool strong = (known(in->conflicts_per_tx) && in->conflicts_per_tx >= 0.5) ||
                      (known(in->flow_paused_pct) && in->flow_paused_pct >= 40);
        *v = (dg_verdict){"cluster_conflicts", strong ? "high" : "medium",
                          "the cluster aborted or held a large share of the transactions"};
        return;
    }
    /* a device busy with what others read and wrote (the server's processes moved under
     * a tenth of its bytes): the server's limit only when nothing else explains the run
     * (its commits and reads still queue behind the others'); a busy server CPU does */
    bool others_io = known(in->server_disk_share) && in->server_disk_share < 0.1;
    bool cpu_too = srv_cpu_known && in->server_cpu_pct >= 85;
    bool dev_busy = known(in->server_disk_util_pct) && in->server_disk_util_pct >= 80;
    /* the host's I/O wait is any process's: with no device reading, sampled sessions that
     * hardly waited on I/O say it was not theirs */
    bool host_iowait = known(in->server_iowait_pct) && in->server_iowait_pct >= 20 &&
                       !(known(in->wait_io) && in->wait_io < 0.2);
    if ((dev_busy || host_iowait) && !(others_io && cpu_too)) {
        bool strong = known(in->server_disk_util_pct) && in->server_disk_util_pct >= 95;
        if (others_io)
            *v = (dg_verdict){"server_disk", "low",
                              "the server's data device was busy most of the time, mostly with "
                              "other processes' reads and writes"};
        else
            *v = (dg_verdict){"server_disk", strong ? "high" : "medium",
                              "the server's data device was busy most of the time"};
        return;
    }
    if (known(in->wait_io) && in->wait_io >= 0.4) {
        *v = (dg_verdict){"server_disk", "medium",
                          "the server's sessions spent most of their time waiting on I/O "
                          "(reads, log writes and syncs)"};
        return;
    }
    if (known(in->wait_lock) && in->wait_lock >= 0.3 &&
        (!known(in->wait_cpu) || in->wait_lock > in->wait_cpu)) {
        *v = (dg_verdict){"lock_waits", in->wait_lock >= 0.5 ? "high" : "medium",
                          "the server's sessions spent a large share of their time waiting "
                          "for locks other transactions held"};
        return;
    }
    if (in->embedded) {
        if (known(drv) && drv >= 0.85) {
            *v = (dg_verdict){"server_cpu", drv >= 0.95 ? "high" : "medium",
                              "the engine runs inside dbgauge, and dbgauge used nearly all the "
                              "CPU its threads can use"};
            return;
        }
    } else if (srv_cpu_known && in->server_cpu_pct >= 85) {
        /* on one machine, the host's CPU is dbgauge's too: the server must be the larger
         * part of it */
        bool server_more = !in->server_local || !known(in->server_procs_cpu_pct) ||
                           !known(in->self_cpu_pct) ||
                           in->server_procs_cpu_pct > in->self_cpu_pct;
        if (server_more) {
            *v = (dg_verdict){"server_cpu", in->server_cpu_pct >= 95 ? "high" : "medium",
                              "the server host's CPU was nearly all busy, most of it the "
                              "server's"};
            return;
        }
        *v = (dg_verdict){"driver", "medium",
                          "the one machine's CPU was nearly all busy, more of it dbgauge's than "
                          "the server's"};
        return;
    }
    bool client_bound = known(in->wait_client) && in->wait_client >= 0.5;
    if (!rated(in) && !in->embedded && srv_cpu_known && in->server_cpu_pct < 50 &&
        (!known(in->server_disk_util_pct) || in->server_disk_util_pct < 50) && known(drv) &&
        drv < 0.5) {
        if (client_bound)
            *v = (dg_verdict){"round_trips", "medium",
                              "neither the server's CPU, its disk nor dbgauge was busy, and the "
                              "server's sessions waited for the next statement most of the "
                              "time: round trips (network or client-server latency)"};
        else
            *v = (dg_verdict){"round_trips", "low",
                              "neither the server's CPU, its disk nor dbgauge was busy: the "
                              "terminals wait on answers (round trips, or locks: sample the "
                              "server's waits with --wait-profile to tell)"};
        return;
    }
    if (!rated(in) && !in->embedded && !srv_cpu_known && known(in->wait_client) &&
        in->wait_client >= 0.6 && known(drv) && drv < 0.5) {
        *v = (dg_verdict){"round_trips", "low",
                          "the server's sessions waited for the next statement most of the "
                          "time, with dbgauge far from saturated (the server host was not "
                          "measured)"};
        return;
    }
    *v = (dg_verdict){"not_enough_evidence", "low",
                      srv_cpu_known ? "no figure passed a threshold"
                                    : "the server host was not measured (see --server-host)"};
}

static json_t *num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

json_t *dg_verdict_json(const dg_verdict_in *in, const dg_verdict *v)
{
    json_t *e = json_object();
    json_object_set_new(e, "tps", num_or_null(in->tps));
    json_object_set_new(e, "rate_tps", rated(in) ? json_real(in->rate_tps) : json_null());
    json_object_set_new(e, "schedule_lag_ms_p99", num_or_null(in->lag_p99_ms));
    json_object_set_new(e, "dbgauge_cpu_pct", num_or_null(in->self_cpu_pct));
    json_object_set_new(e, "driver_load_pct", num_or_null(100 * driver_load(in)));
    json_object_set_new(e, "server_cpu_pct", num_or_null(in->server_cpu_pct));
    json_object_set_new(e, "server_processes_cpu_pct", num_or_null(in->server_procs_cpu_pct));
    json_object_set_new(e, "server_iowait_pct", num_or_null(in->server_iowait_pct));
    json_object_set_new(e, "server_disk_util_pct", num_or_null(in->server_disk_util_pct));
    json_object_set_new(e, "server_processes_disk_share", num_or_null(in->server_disk_share));
    json_object_set_new(e, "conflicts_per_tx", num_or_null(in->conflicts_per_tx));
    json_object_set_new(e, "flow_paused_pct", num_or_null(in->flow_paused_pct));
    json_object_set_new(e, "wait_lock_share", num_or_null(in->wait_lock));
    json_object_set_new(e, "wait_io_share", num_or_null(in->wait_io));
    json_object_set_new(e, "wait_client_share", num_or_null(in->wait_client));
    json_object_set_new(e, "wait_cpu_share", num_or_null(in->wait_cpu));
    json_t *j = json_object();
    json_object_set_new(j, "limited_by", json_string(v->limited_by));
    json_object_set_new(j, "confidence", json_string(v->confidence));
    json_object_set_new(j, "why", json_string(v->why));
    json_object_set_new(j, "evidence", e);
    return j;
}

static double fnum(const json_t *o, const char *path)
{
    return dg_res_num(o, path, NAN);
}

void dg_verdict_in_of(const json_t *doc, const json_t *iv, dg_verdict_in *in)
{
    const json_t *run = json_object_get(doc, "run");
    memset(in, 0, sizeof *in);
    double workers = fnum(run, "engine.workers");
    double terms = fnum(run, "terminals");
    in->driver_threads = (int)(workers > 0 ? workers : terms > 0 ? terms : 1);
    in->client_cores = (int)fnum(doc, "host.cores");
    in->embedded = !strcmp(dg_res_str(run, "backend") ? dg_res_str(run, "backend") : "", "sqlite");
    in->rate_tps = fnum(run, "rate_tps");
    const json_t *src = iv ? iv : json_object_get(doc, "monitor");
    const json_t *sh = json_object_get(src, "server_host");
    const char *source = dg_res_str(doc, "monitor.server_host.source");
    in->server_local = source && !strcmp(source, "local");
    in->tps = iv ? fnum(iv, "tps") : fnum(doc, "totals.tps");
    in->seconds = iv ? fnum(iv, "dur_s") : fnum(doc, "totals.duration_s");
    in->lag_p99_ms = iv ? fnum(iv, "schedule_lag_ms_p99") : fnum(doc, "schedule_lag_ms.p99");
    in->self_cpu_pct = fnum(src, "self_cpu_pct");
    in->server_cpu_pct = fnum(sh, "cpu_pct");
    in->server_iowait_pct = fnum(sh, "cpu_iowait_pct");
    in->server_disk_util_pct = fnum(sh, "disk_util_pct");
    in->server_procs_cpu_pct = fnum(sh, "server_cpu_pct");
    double dev_mb = fnum(sh, "read_mb_s") + fnum(sh, "write_mb_s");
    double own_mb = fnum(sh, "server_read_mb_s") + fnum(sh, "server_write_mb_s");
    in->server_disk_share = dev_mb > 0 && own_mb >= 0 ? fmin(1, own_mb / dev_mb) : NAN;
    in->conflicts_per_tx = NAN;
    in->flow_paused_pct = NAN;
    /* the wait profile's class shares: the interval's, or the measured phase's */
    const json_t *wp = iv ? json_object_get(iv, "waits") : dg_res_get(doc, "wait_profile.all");
    const json_t *cls = json_object_get(wp, "classes");
    bool sampled = json_is_object(cls) && json_object_size(cls) > 0 &&
                   (iv || json_is_true(dg_res_get(doc, "wait_profile.available")));
    in->wait_lock = sampled ? fnum(cls, "Lock") : NAN;
    in->wait_io = sampled ? fnum(cls, "IO") : NAN;
    in->wait_client = sampled ? fnum(cls, "Client") : NAN;
    in->wait_cpu = sampled ? fnum(cls, "CPU") : NAN;
    if (sampled) { /* a class no session was in is 0, not unknown */
        double *f[] = {&in->wait_lock, &in->wait_io, &in->wait_client, &in->wait_cpu};
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
            if (!isfinite(*f[k]))
                *f[k] = 0;
    }
    if (iv) {
        size_t i;
        json_t *nd;
        double conf = 0, flow = NAN;
        bool any = false;
        json_array_foreach(json_object_get(iv, "nodes"), i, nd)
        {
            double c = fnum(nd, "cert_failures") + fnum(nd, "bf_aborts");
            if (isfinite(c)) {
                conf += c;
                any = true;
            }
            double f = fnum(nd, "flow_paused_pct");
            if (isfinite(f) && !(f <= flow))
                flow = f;
        }
        double tx = fnum(iv, "transactions");
        in->conflicts_per_tx = any && tx > 0 ? conf / tx : NAN;
        in->flow_paused_pct = flow;
    } else {
        double tx = fnum(doc, "totals.transactions");
        double c = fnum(doc, "totals.conflicts.cert_failures") + fnum(doc, "totals.conflicts.bf_aborts");
        in->conflicts_per_tx = tx > 0 && isfinite(c) ? c / tx : NAN;
        double dur = fnum(doc, "totals.duration_s");
        size_t i;
        json_t *nd;
        json_array_foreach(dg_res_get(doc, "cluster.nodes"), i, nd)
        {
            double f = dur > 0 ? 100 * fnum(nd, "flow_paused_s") / dur : NAN;
            if (isfinite(f) && !(f <= in->flow_paused_pct))
                in->flow_paused_pct = f;
        }
    }
}

const char *dg_verdict_words(const char *limited_by)
{
    static const struct {
        const char *name, *words;
    } w[] = {
        {"driver", "the driver (dbgauge's CPU or schedule)"},
        {"server_cpu", "server CPU"},
        {"server_disk", "server disk"},
        {"lock_waits", "lock waits"},
        {"round_trips", "round trips (network or client-server latency)"},
        {"cluster_conflicts", "cluster conflicts"},
        {"rate_target", "the target rate"},
        {"not_enough_evidence", "not enough evidence"},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (limited_by && !strcmp(limited_by, w[i].name))
            return w[i].words;
    return limited_by ? limited_by : "?";
}

void dg_verdict_annotate(json_t *doc)
{
    dg_verdict_in in;
    dg_verdict v;
    size_t i;
    json_t *iv;
    json_array_foreach(json_object_get(doc, "intervals"), i, iv)
    {
        dg_verdict_in_of(doc, iv, &in);
        dg_verdict_decide(&in, &v);
        json_object_set_new(iv, "verdict", dg_verdict_json(&in, &v));
    }
    dg_verdict_in_of(doc, NULL, &in);
    dg_verdict_decide(&in, &v);
    json_object_set_new(doc, "verdict", dg_verdict_json(&in, &v));
}
