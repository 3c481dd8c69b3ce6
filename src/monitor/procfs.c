/* procfs.c - parsing a bundle of /proc files (see procfs.h). */
#include "monitor/procfs.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of [*p, end): its start and length (without '\n'); false at the end. */
static bool next_line(const char **p, const char *end, const char **line, size_t *len)
{
    if (*p >= end)
        return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    *line = *p;
    *len = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
    *p = nl ? nl + 1 : end;
    return true;
}

/* A line copied into buf (NUL-terminated, cut at len-1). */
static void copy_line(char *buf, size_t cap, const char *line, size_t len)
{
    size_t n = len < cap - 1 ? len : cap - 1;
    memcpy(buf, line, n);
    buf[n] = '\0';
}

const char *dg_procfs_section(const char *text, size_t tlen, const char *path, size_t *len)
{
    const char *p = text, *end = text + tlen, *line;
    size_t n, plen = strlen(path);
    const char *start = NULL;
    while (next_line(&p, end, &line, &n)) {
        if (n >= 1 && line[0] == '@') {
            if (start) {
                *len = (size_t)(line - start);
                return start;
            }
            if (n == plen + 1 && !memcmp(line + 1, path, plen))
                start = p;
        }
    }
    if (start)
        *len = (size_t)(end - start);
    return start;
}

static bool parse_stat_line(const char *buf, dg_procstat *ps)
{
    /* "PID (COMM) S PPID ..." - the command may hold spaces and ')': it ends at the
     * last ')' */
    const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
    if (!open || !close || close < open)
        return false;
    memset(ps, 0, sizeof *ps);
    ps->pid = atoi(buf);
    size_t cl = (size_t)(close - open - 1);
    if (cl >= sizeof ps->comm)
        cl = sizeof ps->comm - 1;
    memcpy(ps->comm, open + 1, cl);
    ps->comm[cl] = '\0';
    /* after ")": state(3) ppid(4) pgrp session tty tpgid flags minflt cminflt majflt
     * cmajflt utime(14) stime(15) cutime cstime priority nice threads itrealvalue
     * starttime(22) */
    char state;
    unsigned long long v[20];
    int got = sscanf(close + 1,
                     " %c %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
                     "%llu %llu %llu %llu %llu",
                     &state, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
                     &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16], &v[17], &v[18]);
    if (got < 20 || ps->pid <= 0)
        return false;
    ps->ppid = (int)v[0];
    ps->ticks = v[10] + v[11];
    ps->cticks = v[12] + v[13];
    ps->starttime = v[18];
    return true;
}


/* The figures after the keys key_a and key_b ("MemTotal:") at the start of a section's
 * lines, into v[0] and v[1] (0 when missing); true when both were there. */
static bool two_figures(const char *p, const char *end, const char *key_a, const char *key_b,
                        uint64_t v[2])
{
    const char *line;
    size_t n;
    char buf[256];
    const char *keys[2] = {key_a, key_b};
    bool seen[2] = {false, false};
    v[0] = v[1] = 0;
    while (next_line(&p, end, &line, &n)) {
        copy_line(buf, sizeof buf, line, n);
        for (int k = 0; k < 2; k++) {
            size_t kl = strlen(keys[k]);
            char *e;
            if (strncmp(buf, keys[k], kl) != 0)
                continue;
            unsigned long long x = strtoull(buf + kl, &e, 10);
            if (e != buf + kl) {
                v[k] = x;
                seen[k] = true;
            }
        }
    }
    return seen[0] && seen[1];
}

static void parse_section(dg_srvsample *o, const char *path, const char *body, size_t blen,
                          const char *dev, int *cap_procs)
{
    const char *p = body, *end = body + blen, *line;
    size_t n;
    char buf[1024];
    if (!strcmp(path, "/proc/uptime")) {
        if (next_line(&p, end, &line, &n)) {
            copy_line(buf, sizeof buf, line, n);
            o->have_uptime = sscanf(buf, "%lf", &o->uptime_s) == 1;
        }
    } else if (!strcmp(path, "/proc/stat")) {
        while (next_line(&p, end, &line, &n)) {
            copy_line(buf, sizeof buf, line, n);
            if ((o->have_cpu = dg_cputicks_parse(buf, &o->cpu)))
                break;
        }
    } else if (!strcmp(path, "/proc/diskstats")) {
        unsigned dmaj, dmin;
        if (!dev || sscanf(dev, "%u:%u", &dmaj, &dmin) != 2)
            return;
        while (next_line(&p, end, &line, &n)) {
            copy_line(buf, sizeof buf, line, n);
            unsigned maj, min;
            char name[64];
            unsigned long long rd, rdm, rds, rdt, wr, wrm, wrs, wrt, inflight, io_ms;
            if (sscanf(buf, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &maj,
                       &min, name, &rd, &rdm, &rds, &rdt, &wr, &wrm, &wrs, &wrt, &inflight,
                       &io_ms) != 13 ||
                maj != dmaj || min != dmin)
                continue;
            o->have_disk = true;
            o->rd_ios = rd, o->rd_sectors = rds, o->wr_ios = wr, o->wr_sectors = wrs;
            o->io_ms = io_ms;
            break;
        }
    } else if (!strncmp(path, "/sys/dev/block/", 15)) { /* one device's diskstats fields */
        if (!next_line(&p, end, &line, &n))
            return;
        copy_line(buf, sizeof buf, line, n);
        unsigned long long rd, rdm, rds, rdt, wr, wrm, wrs, wrt, inflight, io_ms;
        if (sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &rd, &rdm, &rds,
                   &rdt, &wr, &wrm, &wrs, &wrt, &inflight, &io_ms) != 10)
            return;
        o->have_disk = true;
        o->rd_ios = rd, o->rd_sectors = rds, o->wr_ios = wr, o->wr_sectors = wrs;
        o->io_ms = io_ms;
    } else if (!strcmp(path, "/proc/meminfo")) {
        uint64_t kb[2];
        o->have_mem = two_figures(p, end, "MemTotal:", "MemAvailable:", kb) &&
                      kb[0] > 0;
        o->mem_total_kb = kb[0];
        o->mem_avail_kb = kb[1];
    } else if (!strcmp(path, "/proc/loadavg")) {
        if (next_line(&p, end, &line, &n)) {
            copy_line(buf, sizeof buf, line, n);
            o->have_load = sscanf(buf, "%lf", &o->load1) == 1;
        }
    } else if (!strncmp(path, "/proc/", 6) && strstr(path, "/children")) {
        o->have_children = true;
        while (next_line(&p, end, &line, &n)) {
            copy_line(buf, sizeof buf, line, n);
            char *s = buf, *e;
            for (long v = strtol(s, &e, 10); e != s; v = strtol(s, &e, 10)) {
                o->children = xrealloc(o->children, (size_t)(o->nchildren + 1) * sizeof *o->children);
                o->children[o->nchildren++] = (int)v;
                s = e;
            }
        }
    } else if (!strncmp(path, "/proc/", 6) && strlen(path) > 9 &&
               !strcmp(path + strlen(path) - 3, "/io")) {
        /* a process's storage I/O, for the stat or schedstat just before it */
        int pid = atoi(path + 6);
        dg_procstat *ps = o->nprocs > 0 && o->procs[o->nprocs - 1].pid == pid
                              ? &o->procs[o->nprocs - 1]
                              : NULL;
        uint64_t b[2];
        if (ps && (ps->have_io = two_figures(p, end, "read_bytes:", "write_bytes:", b))) {
            ps->io_read = b[0];
            ps->io_write = b[1];
        }
    } else if (!strncmp(path, "/proc/", 6) && strlen(path) > 11 &&
               (!strcmp(path + strlen(path) - 5, "/stat") ||
                !strcmp(path + strlen(path) - 10, "/schedstat"))) {
        if (!next_line(&p, end, &line, &n))
            return;
        copy_line(buf, sizeof buf, line, n);
        dg_procstat ps;
        if (path[strlen(path) - 5] == 'd') { /* schedstat: "RUNTIME_NS WAIT_NS SLICES" */
            unsigned long long ns;
            memset(&ps, 0, sizeof ps);
            ps.pid = atoi(path + 6);
            ps.ppid = -1;
            ps.by_ns = true;
            if (ps.pid <= 0 || sscanf(buf, "%llu", &ns) != 1)
                return;
            ps.ns = ns;
        } else if (!parse_stat_line(buf, &ps)) {
            return;
        }
        if (o->nprocs == *cap_procs) {
            *cap_procs = *cap_procs ? 2 * *cap_procs : 64;
            o->procs = xrealloc(o->procs, (size_t)*cap_procs * sizeof *o->procs);
        }
        o->procs[o->nprocs++] = ps;
    }
}

bool dg_srvsample_parse(const char *text, size_t len, const char *dev, dg_srvsample *out)
{
    memset(out, 0, sizeof *out);
    const char *p = text, *end = text + len, *line;
    size_t n;
    char path[256] = "";
    const char *body = NULL;
    int cap_procs = 0;
    bool any = false;
    while (true) {
        const char *here = p;
        bool more = next_line(&p, end, &line, &n);
        if (!more || (n >= 1 && line[0] == '@')) {
            if (body)
                parse_section(out, path, body, (size_t)(here - body), dev, &cap_procs);
            body = NULL;
            if (!more || (n == 2 && line[1] == '.'))
                break;
            copy_line(path, sizeof path, line + 1, n - 1);
            body = p;
            any = true;
        } else if (!body) {
            return false; /* text before the first file */
        }
    }
    return any;
}

void dg_srvsample_free(dg_srvsample *s)
{
    free(s->procs);
    free(s->children);
    s->procs = NULL;
    s->children = NULL;
    s->nprocs = s->nchildren = 0;
}

static bool has_pid(const int *pids, int n, int pid)
{
    for (int i = 0; i < n; i++)
        if (pids[i] == pid)
            return true;
    return false;
}

/* A process's CPU time in seconds. */
static double cpu_s(const dg_procstat *p, double tck)
{
    return p->by_ns ? (double)p->ns / 1e9 : (double)p->ticks / tck;
}

/* The same process in two samples: the same start time where both tell it. */
static bool same_proc(const dg_procstat *a, const dg_procstat *b)
{
    return !a->starttime || !b->starttime || a->starttime == b->starttime;
}

static const dg_procstat *find_proc(const dg_srvsample *s, int pid)
{
    for (int i = 0; i < s->nprocs; i++)
        if (s->procs[i].pid == pid)
            return &s->procs[i];
    return NULL;
}

void dg_srvsample_delta(const dg_srvsample *a, const dg_srvsample *b, double tck,
                        const int *sel, int nsel, double born_after_s, int root,
                        dg_srvdelta *out)
{
    if (isnan(born_after_s))
        born_after_s = a->have_uptime ? a->uptime_s : INFINITY;
    memset(out, 0, sizeof *out);
    out->seconds = a->have_uptime && b->have_uptime ? b->uptime_s - a->uptime_s : NAN;
    double s = out->seconds > 0 ? out->seconds : NAN;
    dg_cpushare sh = {NAN, NAN, NAN, NAN, NAN};
    if (a->have_cpu && b->have_cpu)
        dg_cputicks_share(&a->cpu, &b->cpu, &sh);
    out->cpu_pct = sh.busy;
    out->user_pct = sh.user;
    out->sys_pct = sh.sys;
    out->iowait_pct = sh.iowait;
    out->steal_pct = sh.steal;
    /* With a root whose stat and children list were read after its children's stats
     * (srvhost.c's order): a child missing from that list had been reaped by then, so
     * its whole life is in the root's cticks: it counts through them, less what a had
     * of it, and not through its own figures; a child still listed counts through its
     * own. Without a root (or a list), a process b lacks has simply ended. */
    const dg_procstat *ra = root > 0 ? find_proc(a, root) : NULL;
    const dg_procstat *rb = root > 0 ? find_proc(b, root) : NULL;
    bool by_root = ra && rb && ra->starttime == rb->starttime && rb->cticks >= ra->cticks &&
                   b->have_children;
    double cpu = 0, reaped = by_root ? (double)(rb->cticks - ra->cticks) / tck : 0;
    double io_rd = 0, io_wr = 0;
    int counted = 0, with_io = 0;
    for (int i = 0; i < nsel; i++) {
        const dg_procstat *pb = find_proc(b, sel[i]);
        const dg_procstat *pa = find_proc(a, sel[i]);
        if (by_root && sel[i] != root && !has_pid(b->children, b->nchildren, sel[i])) {
            if (pa && (!pb || same_proc(pa, pb)))
                reaped -= cpu_s(pa, tck);
            continue;
        }
        if (!pb)
            continue;
        counted++;
        if (pa && same_proc(pa, pb)) {
            cpu += fmax(0, cpu_s(pb, tck) - cpu_s(pa, tck));
            if (pa->have_io && pb->have_io) {
                with_io++;
                io_rd += pb->io_read > pa->io_read ? (double)(pb->io_read - pa->io_read) : 0;
                io_wr += pb->io_write > pa->io_write ? (double)(pb->io_write - pa->io_write) : 0;
            }
        } else if (pb->starttime ? (double)pb->starttime / tck >= born_after_s : !pa) {
            /* started in this interval (a schedstat has no start time: a process new to
               the list is one that started since the list before) */
            cpu += cpu_s(pb, tck);
            if (pb->have_io) {
                with_io++;
                io_rd += (double)pb->io_read;
                io_wr += (double)pb->io_write;
            }
        }
    }
    if (reaped > 0)
        cpu += reaped;
    out->procs = counted;
    out->procs_cpu_s = nsel > 0 ? cpu : NAN;
    out->procs_cpu_pct = 100.0 * out->procs_cpu_s / s;
    out->procs_read_bytes = with_io ? io_rd : NAN;
    out->procs_write_bytes = with_io ? io_wr : NAN;
    if (a->have_disk && b->have_disk) {
        out->disk_reads = (double)(b->rd_ios - a->rd_ios);
        out->disk_writes = (double)(b->wr_ios - a->wr_ios);
        out->iops = (out->disk_reads + out->disk_writes) / s;
        out->read_mb_s = 512.0 * (double)(b->rd_sectors - a->rd_sectors) / 1e6 / s;
        out->write_mb_s = 512.0 * (double)(b->wr_sectors - a->wr_sectors) / 1e6 / s;
        out->util_pct = 100.0 * (double)(b->io_ms - a->io_ms) / 1000.0 / s;
        if (out->util_pct > 100)
            out->util_pct = 100; /* io_ms and uptime are read microseconds apart */
    } else {
        out->disk_reads = out->disk_writes = out->iops = NAN;
        out->read_mb_s = out->write_mb_s = out->util_pct = NAN;
    }
    if (b->have_mem) {
        out->mem_used_pct = 100.0 * (double)(b->mem_total_kb - b->mem_avail_kb) / (double)b->mem_total_kb;
        out->mem_available_bytes = 1024.0 * (double)b->mem_avail_kb;
    } else {
        out->mem_used_pct = out->mem_available_bytes = NAN;
    }
    out->load1 = b->have_load ? b->load1 : NAN;
}

bool dg_procfs_device_of(const char *mountinfo, size_t len, const char *path, char *dev,
                         size_t devlen)
{
    dev[0] = '\0';
    const char *p = mountinfo, *end = mountinfo + len, *line;
    size_t n, best = 0;
    bool found = false;
    char buf[2048];
    while (next_line(&p, end, &line, &n)) {
        copy_line(buf, sizeof buf, line, n);
        /* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ..." */
        unsigned maj, min;
        char mnt[1024];
        if (sscanf(buf, "%*d %*d %u:%u %*s %1023s", &maj, &min, mnt) != 3)
            continue;
        size_t ml = strlen(mnt);
        bool covers = !strcmp(mnt, "/") ||
                      (!strncmp(path, mnt, ml) && (path[ml] == '/' || path[ml] == '\0'));
        if (!covers || (found && ml < best))
            continue;
        best = ml;
        found = true;
        if (maj == 0)
            dev[0] = '\0'; /* no block device under this mount */
        else
            snprintf(dev, devlen, "%u:%u", maj, min);
    }
    return dev[0] != '\0';
}

static bool comm_in(const char *comm, const char *comms)
{
    size_t n = strlen(comm);
    for (const char *p = comms; *p;) {
        while (*p == ' ')
            p++;
        size_t w = strcspn(p, " ");
        if (w && w == n && !strncmp(p, comm, n))
            return true;
        p += w;
    }
    return false;
}

int dg_procfs_select(const dg_srvsample *s, int root_hint, const char *comms, int *out,
                     int cap, int *root)
{
    *root = 0;
    int n = 0;
    const dg_procstat *r = root_hint > 0 ? find_proc(s, root_hint) : NULL;
    if (r) {
        for (int hops = 0; hops < 8; hops++) { /* up while the parent is a server process too */
            const dg_procstat *up = find_proc(s, r->ppid);
            if (!up || !comm_in(up->comm, comms))
                break;
            r = up;
        }
        *root = r->pid;
        out[n++] = r->pid;
        for (int i = 0; i < s->nprocs && n < cap; i++)
            if (s->procs[i].ppid == r->pid)
                out[n++] = s->procs[i].pid;
        return n;
    }
    for (int i = 0; i < s->nprocs && n < cap; i++)
        if (comm_in(s->procs[i].comm, comms))
            out[n++] = s->procs[i].pid;
    return n;
}
