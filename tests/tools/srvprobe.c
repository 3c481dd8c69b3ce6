/*
 * srvprobe.c - the server host sampler's two sources side by side, for the tests: with
 * TARGET an ssh URL, each round reads this machine's /proc directly, then TARGET's over
 * ssh, then this machine's again, and prints each reading's raw counters, so a test can
 * check that the remote one lies between the two local ones (the same kernel, read over
 * ssh); at the end, the figures of the whole window from each source.
 *
 * Usage: dg_srvprobe TARGET DATA_DIR COMMS ROUNDS
 * Output: one line per reading, "SOURCE uptime busy_ticks total_ticks disk_ios", then
 * "delta SOURCE cpu_pct iops procs_cpu_pct" for both sources.
 */
#include "core/clock.h"
#include "monitor/srvhost.h"

#include <stdio.h>
#include <stdlib.h>

static void print(const char *what, const dg_srvsample *s)
{
    const dg_cputicks *c = &s->cpu;
    unsigned long long busy = c->user + c->nice + c->system + c->irq + c->softirq + c->steal;
    printf("%s %.2f %llu %llu %llu\n", what, s->uptime_s, busy, busy + c->idle + c->iowait,
           (unsigned long long)(s->rd_ios + s->wr_ios));
}

static dg_srvhost *open_or_die(const char *target, const char *dir, const char *comms)
{
    dg_srvhost_spec spec = {.target = target, .data_dir = dir, .comms = comms};
    dg_srvhost *h;
    dg_err err = DG_ERR_INIT;
    if (dg_srvhost_open(&spec, dg_now_ns() + 20 * DG_NS_PER_S, &h, &err)) {
        fprintf(stderr, "srvprobe: %s\n", err.msg);
        exit(1);
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: dg_srvprobe TARGET DATA_DIR COMMS ROUNDS\n");
        return 2;
    }
    dg_srvhost *local = open_or_die("local", argv[2], argv[3]);
    dg_srvhost *remote = open_or_die(argv[1], argv[2], argv[3]);
    dg_srvdelta d; /* both windows start now (ssh's start is not in the local one) */
    if (dg_srvhost_sample(local, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1 ||
        dg_srvhost_sample(remote, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1)
        return 1;
    dg_srvhost_mark(remote);
    if (dg_srvhost_sample(local, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1)
        return 1;
    dg_srvhost_mark(local);
    int rounds = atoi(argv[4]);
    for (int i = 0; i < rounds; i++) {
        dg_sleep_ns(DG_NS_PER_S / 2);
        if (dg_srvhost_sample(local, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1)
            return 1;
        print("local", dg_srvhost_last(local));
        if (dg_srvhost_sample(remote, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1)
            return 1;
        print("ssh", dg_srvhost_last(remote));
        if (dg_srvhost_sample(local, dg_now_ns() + 5 * DG_NS_PER_S, &d) != 1)
            return 1;
        print("local", dg_srvhost_last(local));
    }
    dg_srvhost *both[2] = {local, remote};
    for (int k = 0; k < 2; k++) {
        if (!dg_srvhost_since_mark(both[k], &d))
            return 1;
        dg_srvhost_facts f;
        dg_srvhost_facts_get(both[k], &f);
        printf("delta %s %.3f %.3f %.3f %d %s\n", k ? "ssh" : "local", d.cpu_pct, d.iops,
               d.procs_cpu_pct, f.procs, f.device[0] ? f.device : "-");
    }
    dg_srvhost_close(local);
    dg_srvhost_close(remote);
    return 0;
}
