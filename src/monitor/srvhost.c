/* srvhost.c - the server host's /proc, locally or over the user's ssh (see srvhost.h). */
#include "monitor/srvhost.h"

#include "core/clock.h"
#include "core/ssh.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* One line, no single quote (it travels inside '...' through the login shell of the
 * user on the server, whatever that shell is). A request is a line of paths (globs are
 * expanded by the shell; "N/path": the first N lines only); "q" ends the loop. Files
 * that vanish between the glob and the read (a process that exited) give an empty
 * section. The answer is gathered in a variable and written at once: one write, so one
 * ssh packet, per sample (a printf per line cost sshd a wake-up and a packet each). */
const char dg_srvhost_script[] =
    "nl=$(printf \"\\n_\"); nl=${nl%_}; "
    "while read -r r; do [ \"$r\" = q ] && exit 0; o=; for f in $r; do n=0; case $f in [0-9]*) "
    "n=${f%%/*}; f=/${f#*/};; esac; [ -r \"$f\" ] || continue; o=\"$o@$f$nl\"; i=0; "
    "while IFS= read -r l || [ -n \"$l\" ]; do o=\"$o$l$nl\"; i=$((i+1)); "
    "[ $i = $n ] && break; done < \"$f\" 2>/dev/null; done; printf \"%s@.\\n\" \"$o\"; done";

/* What every sample reads: the first line of /proc/uptime, /proc/stat (the "cpu" line)
 * and /proc/loadavg, and MemTotal ... MemAvailable of /proc/meminfo. A shell's read
 * takes a file a byte at a time, so no more is read than the figures need. */
static const char globals[] = "1/proc/uptime 1/proc/stat 1/proc/loadavg 3/proc/meminfo";

enum { RESCAN_EVERY = 30, MAX_SEL = 65536 };

struct dg_srvhost {
    char *source;
    bool remote;      /* over ssh (else this machine's /proc) */
    dg_ssh ssh;       /* the session (ssh true) */
    bool pending;     /* a request's answer is still to come */
    dg_strbuf buf;
    char *data_dir;
    char dev[32];     /* MAJ:MIN */
    char devname[64];
    int hint;
    char *pid_file; /* read in the first request when hint is 0 ("": none) */
    char *comms;
    int root;
    int *sel, nsel;
    double born_after; /* see dg_srvsample_delta */
    dg_srvsample prev, mark;
    bool have_prev, have_mark;
    double acc_cpu_s; /* the server processes' CPU seconds since the mark, interval by
                         interval (a process that started before the mark but was first
                         seen after it has no count at the mark) */
    double acc_io_rd, acc_io_wr; /* their storage I/O since the mark, the same way */
    bool acc_io;
    int nsamples;
    int late, lost;
    double tck;
};

int dg_srvhost_check_target(const char *t, dg_err *err)
{
    dg_ssh_target tg;
    return !t || !strcmp(t, "local") ? 0 : dg_ssh_target_parse(t, "--server-host", &tg, err);
}

/* ---- transport -------------------------------------------------------------------------- */

static void set_lost(dg_srvhost *h)
{
    if (!h->lost) {
        h->lost = 1;
        dg_ssh_end(&h->ssh, true, DG_NS_PER_S);
    }
}

static bool complete(const dg_strbuf *b)
{
    size_t n = b->len;
    return n >= 3 && !memcmp(b->buf + n - 3, "@.\n", 3) && (n == 3 || b->buf[n - 4] == '\n');
}

/* Reads into h->buf until an answer is complete: 1; 0 at the deadline; -1 at the end. */
static int read_answer(dg_srvhost *h, int64_t deadline_ns)
{
    while (!complete(&h->buf)) {
        int64_t left = deadline_ns - dg_now_ns();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = h->ssh.fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(left / 1000000 + 1));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[16384];
        ssize_t n = read(h->ssh.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        dg_sb_addn(&h->buf, chunk, (size_t)n);
    }
    return 1;
}

/* One file into a bundle as the remote loop sends it: "N/path" keeps its first N lines. */
static void read_local(dg_strbuf *out, const char *word)
{
    long lines = 0;
    const char *path = word;
    if (*word >= '0' && *word <= '9') {
        char *end;
        lines = strtol(word, &end, 10);
        path = end;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    dg_sb_printf(out, "@%s\n", path);
    size_t start = out->len;
    char chunk[16384];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0)
        dg_sb_addn(out, chunk, (size_t)n);
    close(fd);
    if (out->len > start && out->buf[out->len - 1] != '\n')
        dg_sb_addn(out, "\n", 1);
    if (lines > 0) { /* cut after the N-th line */
        size_t i = start;
        for (long k = 0; k < lines && i < out->len; k++) {
            const char *nl = memchr(out->buf + i, '\n', out->len - i);
            i = nl ? (size_t)(nl - out->buf) + 1 : out->len;
        }
        out->len = i;
        out->buf[i] = '\0';
    }
}

/* Sends one request and reads its answer into h->buf: 1, 0 (late), -1 (lost). */
static int exchange(dg_srvhost *h, const char *req, int64_t deadline_ns)
{
    dg_sb_reset(&h->buf);
    if (!h->remote) {
        char *words = xstrdup(req);
        for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
            if (strpbrk(w, "*?[")) {
                glob_t g;
                if (glob(w, 0, NULL, &g) == 0)
                    for (size_t i = 0; i < g.gl_pathc; i++)
                        read_local(&h->buf, g.gl_pathv[i]);
                globfree(&g);
            } else {
                read_local(&h->buf, w);
            }
        }
        free(words);
        dg_sb_addn(&h->buf, "@.\n", 3);
        return 1;
    }
    if (h->lost)
        return -1;
    dg_ssh_drain_stderr(&h->ssh);
    if (h->pending) { /* the answer to a late request first */
        int r = read_answer(h, deadline_ns);
        if (r <= 0) {
            if (r < 0)
                set_lost(h);
            return r;
        }
        h->pending = false;
        dg_sb_reset(&h->buf);
    }
    size_t len = strlen(req);
    char *line = xmalloc(len + 2);
    memcpy(line, req, len);
    line[len] = '\n';
    int sent = dg_ssh_send(&h->ssh, line, len + 1);
    free(line);
    if (sent) {
        set_lost(h);
        return -1;
    }
    int r = read_answer(h, deadline_ns);
    if (r == 0)
        h->pending = true;
    if (r < 0)
        set_lost(h);
    return r;
}

/* ---- sampling --------------------------------------------------------------------------- */

static void copy_sample(dg_srvsample *dst, const dg_srvsample *src)
{
    dg_srvsample_free(dst);
    *dst = *src;
    dst->procs = src->nprocs ? xmalloc((size_t)src->nprocs * sizeof *src->procs) : NULL;
    if (src->nprocs)
        memcpy(dst->procs, src->procs, (size_t)src->nprocs * sizeof *src->procs);
    dst->children = NULL;
    dst->nchildren = 0;
}

static void request_text(const dg_srvhost *h, bool full, dg_strbuf *req)
{
    dg_sb_reset(req);
    dg_sb_printf(req, "%s", globals);
    if (full) { /* the first: where the data lives, every process, the server's pid file */
        dg_sb_printf(req, " /proc/diskstats /proc/self/mountinfo /proc/[0-9]*/stat");
        if (h->pid_file[0] && h->hint <= 0)
            dg_sb_printf(req, " 1%s", h->pid_file);
        return;
    }
    if (h->dev[0]) /* the data device's counters: one line */
        dg_sb_printf(req, " 1/sys/dev/block/%s/stat", h->dev);
    if (h->root <= 0 && h->nsamples % RESCAN_EVERY == 0) {
        dg_sb_printf(req, " /proc/[0-9]*/stat");
        return;
    }
    /* a root's children (PostgreSQL's backends: one thread each) by their schedstat, a
       tenth of the bytes of their stat; processes found by name (MariaDB's, Firebird's:
       many threads, which only stat sums) by their stat */
    for (int i = 0; i < h->nsel; i++)
        if (h->sel[i] != h->root)
            dg_sb_printf(req, h->root > 0 ? " 1/proc/%d/schedstat 6/proc/%d/io" : " /proc/%d/stat 6/proc/%d/io",
                         h->sel[i], h->sel[i]);
    /* the root last, its stat before its list of children: a child reaped while the
     * children were read is in the root's cticks and missing from the list (procfs.h);
     * after each one's CPU, its storage I/O (the first six lines of its io: read_bytes,
     * write_bytes; readable by its own user and root only, else skipped) */
    if (h->root > 0)
        dg_sb_printf(req, " /proc/%d/stat 6/proc/%d/io /proc/%d/task/%d/children", h->root,
                     h->root, h->root, h->root);
}

/* The server's processes for the next request, from sample s (whose uptime is now). */
static void reselect(dg_srvhost *h, const dg_srvsample *s, double prev_uptime, bool full)
{
    if (full) {
        if (!h->sel)
            h->sel = xcalloc(MAX_SEL, sizeof *h->sel);
        int root;
        h->nsel = dg_procfs_select(s, h->root > 0 ? h->root : h->hint, h->comms, h->sel, MAX_SEL, &root);
        if (h->root <= 0)
            h->root = root;
        h->born_after = prev_uptime;
    } else if (h->root > 0 && s->have_children) {
        h->nsel = 0;
        h->sel[h->nsel++] = h->root;
        for (int i = 0; i < s->nchildren && h->nsel < MAX_SEL; i++)
            h->sel[h->nsel++] = s->children[i];
        h->born_after = prev_uptime;
    }
}

static void find_devname(dg_srvhost *h, const char *text, size_t len)
{
    size_t dlen;
    const char *ds = dg_procfs_section(text, len, "/proc/diskstats", &dlen);
    unsigned dmaj, dmin;
    if (!ds || sscanf(h->dev, "%u:%u", &dmaj, &dmin) != 2)
        return;
    char *copy = xmalloc(dlen + 1);
    memcpy(copy, ds, dlen);
    copy[dlen] = '\0';
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned maj, min;
        char name[64];
        if (sscanf(line, "%u %u %63s", &maj, &min, name) == 3 && maj == dmaj && min == dmin) {
            snprintf(h->devname, sizeof h->devname, "%s", name);
            break;
        }
    }
    free(copy);
}

int dg_srvhost_open(const dg_srvhost_spec *spec, int64_t deadline_ns, dg_srvhost **out,
                    dg_err *err)
{
    *out = NULL;
    dg_srvhost *h = xcalloc(1, sizeof *h);
    h->ssh.fd = h->ssh.errfd = -1;
    h->tck = 100; /* USER_HZ: the unit of /proc/stat and /proc/PID/stat on every Linux */
    h->remote = spec->target && strcmp(spec->target, "local") != 0;
    h->source = xstrdup(h->remote ? spec->target : "local");
    h->data_dir = xstrdup(spec->data_dir ? spec->data_dir : "");
    h->comms = xstrdup(spec->comms ? spec->comms : "");
    h->hint = spec->server_pid;
    /* a pid file's path is a word of the request: an absolute path without blanks or
       glob characters (anything else: the processes by name) */
    const char *pf = spec->pid_file;
    h->pid_file = xstrdup(pf && pf[0] == '/' && !pf[strcspn(pf, " \t\n*?[")] ? pf : "");
    if (!h->remote) {
        long t = sysconf(_SC_CLK_TCK);
        if (t > 0)
            h->tck = (double)t;
    } else {
        dg_ssh_target tg;
        char *cmd = xasprintf("exec sh -c '%s'", dg_srvhost_script);
        int rc = dg_ssh_target_parse(spec->target, "--server-host", &tg, err);
        if (rc == 0)
            rc = dg_ssh_start(&h->ssh, &tg, cmd, err);
        free(cmd);
        if (rc) {
            dg_srvhost_close(h);
            return rc;
        }
    }
    dg_strbuf req = {0};
    request_text(h, true, &req);
    int r = exchange(h, req.buf, deadline_ns);
    dg_sb_free(&req);
    if (r <= 0) {
        if (r == 0)
            dg_err_fail(err, DG_E_IO, "server host %s: no answer in time (%s)", h->source,
                        dg_ssh_message(&h->ssh));
        else
            dg_err_fail(err, DG_E_IO, "server host %s: %s", h->source, dg_ssh_message(&h->ssh));
        dg_srvhost_close(h);
        return DG_E_IO;
    }
    size_t mlen;
    const char *mi = dg_procfs_section(h->buf.buf, h->buf.len, "/proc/self/mountinfo", &mlen);
    if (mi && h->data_dir[0] && dg_procfs_device_of(mi, mlen, h->data_dir, h->dev, sizeof h->dev))
        find_devname(h, h->buf.buf, h->buf.len);
    if (!dg_srvsample_parse(h->buf.buf, h->buf.len, h->dev, &h->prev) || !h->prev.have_uptime ||
        !h->prev.have_cpu) {
        dg_err_fail(err, DG_E_IO, "server host %s: no Linux /proc there (/proc/uptime, /proc/stat)",
                    h->source);
        dg_srvhost_close(h);
        return DG_E_IO;
    }
    h->have_prev = true;
    size_t plen;
    const char *pt = h->pid_file[0] && h->hint <= 0
                         ? dg_procfs_section(h->buf.buf, h->buf.len, h->pid_file, &plen)
                         : NULL;
    if (pt) {
        char *e;
        long v = strtol(pt, &e, 10);
        if (e != pt && v > 0 && v <= INT32_MAX)
            h->hint = (int)v;
    }
    reselect(h, &h->prev, h->prev.uptime_s, true);
    h->nsamples = 1;
    *out = h;
    return 0;
}

int dg_srvhost_sample(dg_srvhost *h, int64_t deadline_ns, dg_srvdelta *d)
{
    bool full = h->root <= 0 && h->nsamples % RESCAN_EVERY == 0;
    dg_strbuf req = {0};
    request_text(h, false, &req);
    int r = exchange(h, req.buf, deadline_ns);
    dg_sb_free(&req);
    if (r <= 0) {
        if (r == 0)
            h->late++;
        return r;
    }
    dg_srvsample cur;
    if (!dg_srvsample_parse(h->buf.buf, h->buf.len, h->dev, &cur) || !cur.have_uptime) {
        dg_srvsample_free(&cur);
        h->late++;
        return 0;
    }
    h->nsamples++;
    dg_srvsample_delta(&h->prev, &cur, h->tck, h->sel, h->nsel, h->born_after, h->root, d);
    if (!isnan(d->procs_cpu_s))
        h->acc_cpu_s += d->procs_cpu_s;
    if (!isnan(d->procs_read_bytes)) {
        h->acc_io_rd += d->procs_read_bytes;
        h->acc_io_wr += d->procs_write_bytes;
        h->acc_io = true;
    }
    double prev_uptime = h->prev.uptime_s;
    reselect(h, &cur, prev_uptime, full);
    dg_srvsample_free(&h->prev);
    h->prev = cur;
    return 1;
}

void dg_srvhost_mark(dg_srvhost *h)
{
    if (!h->have_prev)
        return;
    copy_sample(&h->mark, &h->prev);
    h->have_mark = true;
    h->acc_cpu_s = 0;
    h->acc_io_rd = h->acc_io_wr = 0;
    h->acc_io = false;
}

bool dg_srvhost_since_mark(dg_srvhost *h, dg_srvdelta *d)
{
    if (!h->have_mark || !h->have_prev || h->prev.uptime_s <= h->mark.uptime_s)
        return false;
    dg_srvsample_delta(&h->mark, &h->prev, h->tck, h->sel, h->nsel, h->mark.uptime_s, h->root, d);
    if (h->nsel > 0) {
        d->procs_cpu_s = h->acc_cpu_s;
        d->procs_cpu_pct = 100.0 * h->acc_cpu_s / d->seconds;
        d->procs_read_bytes = h->acc_io ? h->acc_io_rd : NAN;
        d->procs_write_bytes = h->acc_io ? h->acc_io_wr : NAN;
    }
    return true;
}

void dg_srvhost_facts_get(const dg_srvhost *h, dg_srvhost_facts *f)
{
    f->source = h->source;
    f->device = h->devname;
    f->data_dir = h->data_dir;
    f->root_pid = h->root;
    f->procs = h->nsel;
    f->late = h->late;
    f->lost = h->lost;
}

const dg_srvsample *dg_srvhost_last(const dg_srvhost *h)
{
    return &h->prev;
}

void dg_srvhost_close(dg_srvhost *h)
{
    if (!h)
        return;
    if (h->ssh.fd >= 0 && !h->pending)
        (void)dg_ssh_send(&h->ssh, "q\n", 2);
    dg_ssh_end(&h->ssh, h->pending, DG_NS_PER_S);
    dg_srvsample_free(&h->prev);
    dg_srvsample_free(&h->mark);
    dg_sb_free(&h->buf);
    free(h->sel);
    free(h->source);
    free(h->data_dir);
    free(h->pid_file);
    free(h->comms);
    free(h);
}
