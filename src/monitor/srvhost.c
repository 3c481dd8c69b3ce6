/* srvhost.c - the server host's /proc, locally or over the user's ssh (see srvhost.h). */
#include "monitor/srvhost.h"

#include "core/clock.h"
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
 * expanded by the shell); "q" ends the loop. Files that vanish between the glob and the
 * read (a process that exited) give an empty section. */
const char dg_srvhost_script[] =
    "while read -r r; do [ \"$r\" = q ] && exit 0; for f in $r; do [ -r \"$f\" ] || continue; "
    "printf \"@%s\\n\" \"$f\"; while IFS= read -r l || [ -n \"$l\" ]; do printf \"%s\\n\" \"$l\"; "
    "done < \"$f\" 2>/dev/null; done; printf \"@.\\n\"; done";

static const char globals[] = "/proc/uptime /proc/stat /proc/diskstats /proc/meminfo /proc/loadavg";

enum { RESCAN_EVERY = 30, MAX_SEL = 65536 };

struct dg_srvhost {
    char *source;
    bool ssh;
    int fd;           /* ssh's stdin and stdout (a socket: a send to a dead ssh is EPIPE,
                         not SIGPIPE) */
    int errfd;        /* ssh's stderr */
    pid_t pid;
    char errtail[512];
    bool pending;     /* a request's answer is still to come */
    dg_strbuf buf;
    char *data_dir;
    char dev[32];     /* MAJ:MIN */
    char devname[64];
    int hint;
    char *comms;
    int root;
    int *sel, nsel;
    double born_after; /* see dg_srvsample_delta */
    dg_srvsample prev, mark;
    bool have_prev, have_mark;
    double acc_cpu_s; /* the server processes' CPU seconds since the mark, interval by
                         interval (a process that started before the mark but was first
                         seen after it has no count at the mark) */
    int nsamples;
    int late, lost;
    double tck;
};

/* ---- target ----------------------------------------------------------------------------- */

typedef struct target {
    char user[128], host[256], port[16];
} target;

static int parse_target(const char *t, target *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    if (strncmp(t, "ssh://", 6) != 0)
        return dg_err_fail(err, DG_E_INVAL,
                           "--server-host '%s': expected local or ssh://[user@]host[:port]", t);
    const char *p = t + 6, *at = strchr(p, '@');
    if (at) {
        size_t n = (size_t)(at - p);
        if (memchr(p, ':', n))
            return dg_err_fail(err, DG_E_INVAL,
                               "--server-host: no password in an ssh URL (ssh uses your keys or agent)");
        if (n == 0 || n >= sizeof out->user)
            return dg_err_fail(err, DG_E_INVAL, "--server-host: bad user name");
        memcpy(out->user, p, n);
        p = at + 1;
    }
    const char *hend;
    if (*p == '[') { /* [IPv6]:port */
        hend = strchr(p, ']');
        if (!hend)
            return dg_err_fail(err, DG_E_INVAL, "--server-host '%s': unclosed '['", t);
        snprintf(out->host, sizeof out->host, "%.*s", (int)(hend - p - 1), p + 1);
        hend++;
    } else {
        hend = p + strcspn(p, ":/");
        snprintf(out->host, sizeof out->host, "%.*s", (int)(hend - p), p);
    }
    if (!out->host[0] || out->host[0] == '-')
        return dg_err_fail(err, DG_E_INVAL, "--server-host '%s': no host name", t);
    if (*hend == ':') {
        const char *q = hend + 1;
        size_t n = strspn(q, "0123456789");
        if (n == 0 || n >= sizeof out->port || (q[n] && strcmp(q + n, "/") != 0))
            return dg_err_fail(err, DG_E_INVAL, "--server-host '%s': bad port", t);
        memcpy(out->port, q, n);
        hend = q + n;
    }
    if (*hend && strcmp(hend, "/") != 0)
        return dg_err_fail(err, DG_E_INVAL, "--server-host '%s': an ssh URL has no path", t);
    return 0;
}

int dg_srvhost_check_target(const char *t, dg_err *err)
{
    target tg;
    return !t || !strcmp(t, "local") ? 0 : parse_target(t, &tg, err);
}

/* ---- transport -------------------------------------------------------------------------- */

static void drain_stderr(dg_srvhost *h)
{
    if (h->errfd < 0)
        return;
    char chunk[512];
    ssize_t n;
    while ((n = read(h->errfd, chunk, sizeof chunk)) > 0) { /* keep the last 511 bytes */
        char both[sizeof h->errtail + sizeof chunk];
        size_t have = strlen(h->errtail);
        memcpy(both, h->errtail, have);
        memcpy(both + have, chunk, (size_t)n);
        size_t total = have + (size_t)n, keep = total < sizeof h->errtail ? total : sizeof h->errtail - 1;
        memcpy(h->errtail, both + total - keep, keep);
        h->errtail[keep] = '\0';
    }
}

/* ssh's last message line, for errors. */
static const char *ssh_message(dg_srvhost *h)
{
    drain_stderr(h);
    size_t n = strlen(h->errtail);
    while (n && (h->errtail[n - 1] == '\n' || h->errtail[n - 1] == '\r'))
        h->errtail[--n] = '\0';
    char *last = strrchr(h->errtail, '\n');
    return last ? last + 1 : h->errtail[0] ? h->errtail : "the session ended";
}

static char **ssh_argv(const target *tg)
{
    const char *cmd = getenv("DBGAUGE_SSH");
    char *words = xstrdup(cmd && *cmd ? cmd : "ssh");
    int cap = 32, n = 0;
    char **argv = xcalloc((size_t)cap, sizeof *argv);
    for (char *w = strtok(words, " \t"); w && n < cap - 16; w = strtok(NULL, " \t"))
        argv[n++] = xstrdup(w);
    free(words);
    const char *fixed[] = {"-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                           "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[n++] = xstrdup(fixed[i]);
    if (tg->port[0]) {
        argv[n++] = xstrdup("-p");
        argv[n++] = xstrdup(tg->port);
    }
    if (tg->user[0]) {
        argv[n++] = xstrdup("-l");
        argv[n++] = xstrdup(tg->user);
    }
    argv[n++] = xstrdup(tg->host);
    dg_strbuf rc = {0};
    dg_sb_printf(&rc, "exec sh -c '%s'", dg_srvhost_script);
    argv[n++] = dg_sb_take(&rc);
    return argv;
}

static int spawn_ssh(dg_srvhost *h, const target *tg, dg_err *err)
{
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return dg_err_fail(err, DG_E_IO, "socketpair: %s", strerror(errno));
    if (pipe(ep) != 0) {
        close(sv[0]);
        close(sv[1]);
        return dg_err_fail(err, DG_E_IO, "pipe: %s", strerror(errno));
    }
    fcntl(ep[0], F_SETFD, FD_CLOEXEC);
    fcntl(ep[1], F_SETFD, FD_CLOEXEC);
    char **argv = ssh_argv(tg);
    pid_t pid = fork();
    if (pid == 0) {
        /* its own session: a Ctrl-C at the terminal stops dbgauge, which ends ssh itself
         * after the run's last sample */
        setsid();
        dup2(sv[1], 0);
        dup2(sv[1], 1);
        dup2(ep[1], 2);
        long maxfd = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 65536); fd++)
            close((int)fd);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int e = errno;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
    close(sv[1]);
    close(ep[1]);
    if (pid < 0) {
        close(sv[0]);
        close(ep[0]);
        return dg_err_fail(err, DG_E_IO, "fork: %s", strerror(e));
    }
    h->pid = pid;
    h->fd = sv[0];
    h->errfd = ep[0];
    fcntl(h->errfd, F_SETFL, O_NONBLOCK);
    return 0;
}

static void reap(dg_srvhost *h, bool force)
{
    if (h->pid <= 0)
        return;
    if (force)
        kill(h->pid, SIGTERM);
    for (int i = 0; i < 100; i++) { /* up to 1 s */
        if (waitpid(h->pid, NULL, WNOHANG) != 0) {
            h->pid = 0;
            return;
        }
        dg_sleep_ns(10 * 1000 * 1000);
        if (i == 50)
            kill(h->pid, SIGKILL);
    }
    kill(h->pid, SIGKILL);
    waitpid(h->pid, NULL, 0);
    h->pid = 0;
}

static void set_lost(dg_srvhost *h)
{
    if (!h->lost) {
        h->lost = 1;
        drain_stderr(h);
        if (h->fd >= 0)
            close(h->fd);
        h->fd = -1;
        reap(h, true);
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
        struct pollfd p = {.fd = h->fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(left / 1000000 + 1));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        char chunk[16384];
        ssize_t n = read(h->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        dg_sb_addn(&h->buf, chunk, (size_t)n);
    }
    return 1;
}

static void read_local(dg_strbuf *out, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    dg_sb_printf(out, "@%s\n", path);
    char chunk[16384];
    ssize_t n;
    bool nl = true;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) {
        dg_sb_addn(out, chunk, (size_t)n);
        nl = chunk[n - 1] == '\n';
    }
    if (!nl)
        dg_sb_addn(out, "\n", 1);
    close(fd);
}

/* Sends one request and reads its answer into h->buf: 1, 0 (late), -1 (lost). */
static int exchange(dg_srvhost *h, const char *req, int64_t deadline_ns)
{
    dg_sb_reset(&h->buf);
    if (!h->ssh) {
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
    drain_stderr(h);
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
    size_t off = 0;
    while (off < len + 1) {
        ssize_t n = send(h->fd, line + off, len + 1 - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(line);
            set_lost(h);
            return -1;
        }
        off += (size_t)n;
    }
    free(line);
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
    if (full) {
        dg_sb_printf(req, " /proc/self/mountinfo /proc/[0-9]*/stat");
        return;
    }
    if (h->root <= 0 && h->nsamples % RESCAN_EVERY == 0) {
        dg_sb_printf(req, " /proc/[0-9]*/stat");
        return;
    }
    for (int i = 0; i < h->nsel; i++)
        if (h->sel[i] != h->root)
            dg_sb_printf(req, " /proc/%d/stat", h->sel[i]);
    /* the root last, its stat before its list of children: a child reaped while the
     * children were read is in the root's cticks and missing from the list (procfs.h) */
    if (h->root > 0)
        dg_sb_printf(req, " /proc/%d/stat /proc/%d/task/%d/children", h->root, h->root, h->root);
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
    h->fd = h->errfd = -1;
    h->tck = 100; /* USER_HZ: the unit of /proc/stat and /proc/PID/stat on every Linux */
    h->ssh = spec->target && strcmp(spec->target, "local") != 0;
    h->source = xstrdup(h->ssh ? spec->target : "local");
    h->data_dir = xstrdup(spec->data_dir ? spec->data_dir : "");
    h->comms = xstrdup(spec->comms ? spec->comms : "");
    h->hint = spec->server_pid;
    if (!h->ssh) {
        long t = sysconf(_SC_CLK_TCK);
        if (t > 0)
            h->tck = (double)t;
    } else {
        target tg;
        if (parse_target(spec->target, &tg, err) || spawn_ssh(h, &tg, err)) {
            dg_srvhost_close(h);
            return DG_E_INVAL;
        }
    }
    dg_strbuf req = {0};
    request_text(h, true, &req);
    int r = exchange(h, req.buf, deadline_ns);
    dg_sb_free(&req);
    if (r <= 0) {
        if (r == 0)
            dg_err_fail(err, DG_E_IO, "server host %s: no answer in time (%s)", h->source,
                        ssh_message(h));
        else
            dg_err_fail(err, DG_E_IO, "server host %s: %s", h->source, ssh_message(h));
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
}

bool dg_srvhost_since_mark(dg_srvhost *h, dg_srvdelta *d)
{
    if (!h->have_mark || !h->have_prev || h->prev.uptime_s <= h->mark.uptime_s)
        return false;
    dg_srvsample_delta(&h->mark, &h->prev, h->tck, h->sel, h->nsel, h->mark.uptime_s, h->root, d);
    if (h->nsel > 0) {
        d->procs_cpu_s = h->acc_cpu_s;
        d->procs_cpu_pct = 100.0 * h->acc_cpu_s / d->seconds;
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
    if (h->fd >= 0) {
        (void)!send(h->fd, "q\n", 2, MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(h->fd, SHUT_WR);
        close(h->fd);
    }
    reap(h, false);
    if (h->errfd >= 0)
        close(h->errfd);
    dg_srvsample_free(&h->prev);
    dg_srvsample_free(&h->mark);
    dg_sb_free(&h->buf);
    free(h->sel);
    free(h->source);
    free(h->data_dir);
    free(h->comms);
    free(h);
}
