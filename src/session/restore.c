/*
 * restore.c - `dbgauge restore`: the user's restore command run and measured like a load
 * (restore.h says what is measured and how the command is run).
 *
 * Layout: the recorded command, the child's environment, the size probe, the child's
 * output, the run loop, the document.
 */
#include "session/restore.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/stop.h"
#include "core/xalloc.h"
#include "monitor/host.h"
#include "monitor/srvhost.h"
#include "monitor/sysstat.h"
#include "results/doc.h"
#include "results/result.h"
#include "session/session.h"
#include "session/restore_log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <libgen.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* After a stop: the command's group gets SIGTERM, then SIGKILL this much later. */
#define KILL_GRACE_NS (2 * DG_NS_PER_S)
/* After the command exits, how long its output may stay open (a descendant holding it). */
#define OUTPUT_GRACE_NS (2 * DG_NS_PER_S)
/* How long a tick waits for the server host's sample (ssh: a round trip). */
#define SERVER_SAMPLE_WAIT_NS (500 * DG_NS_PER_MS)
#define TAIL_LINES 20
#define LINE_MAX_BYTES 2048

/* ---- the recorded command --------------------------------------------------------------- */

/* gbak's -pas[sword] in any case, abbreviated to no fewer than its 3 letters */
static bool gbak_password_flag(const char *a)
{
    size_t n = strlen(a);
    return n >= 4 && n <= 9 && !strncasecmp(a, "-password", n);
}

/* s with every occurrence of secret replaced by "***" (new string). */
static char *mask_secret(const char *s, const char *secret)
{
    size_t k = secret ? strlen(secret) : 0;
    if (!k || !strstr(s, secret))
        return xstrdup(s);
    size_t cap = strlen(s) * 3 + 4, n = 0;
    char *out = xmalloc(cap);
    for (const char *p = s; *p;) {
        if (!strncmp(p, secret, k)) {
            memcpy(out + n, "***", 3);
            n += 3;
            p += k;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}

char **dg_restore_argv_redact(char *const *argv, const char *password)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **out = xcalloc(n + 1, sizeof *out);
    dg_rlog_format f = dg_rlog_detect((const char *const *)argv);
    bool mask_next = false;
    for (size_t i = 0; i < n; i++) {
        const char *a = argv[i];
        if (mask_next) {
            out[i] = xstrdup("***");
            mask_next = false;
            continue;
        }
        if (i > 0 && f == DG_RLOG_GBAK && gbak_password_flag(a))
            mask_next = true;
        if (i > 0 && !strncmp(a, "--password=", 11)) {
            out[i] = xstrdup("--password=***");
            continue;
        }
        if (i > 0 && f == DG_RLOG_MARIADB && a[0] == '-' && a[1] == 'p' && a[2]) {
            out[i] = xstrdup("-p***");
            continue;
        }
        char *r = dg_url_redact_text(a);
        out[i] = mask_secret(r, password);
        free(r);
    }
    return out;
}

void dg_restore_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

/* The recorded argument vector as one line (arguments with blanks or quotes in quotes). */
static char *argv_line(char *const *argv)
{
    size_t cap = 16, n = 0;
    for (char *const *a = argv; *a; a++)
        cap += 2 * strlen(*a) + 3;
    char *s = xmalloc(cap);
    for (char *const *a = argv; *a; a++) {
        if (a != argv)
            s[n++] = ' ';
        bool q = !**a || strpbrk(*a, " \t\"'\\$&;|<>()*?") != NULL;
        if (q)
            s[n++] = '\'';
        for (const char *p = *a; *p; p++) {
            if (*p == '\'' && q) {
                memcpy(s + n, "'\\''", 4);
                n += 4;
            } else {
                s[n++] = *p;
            }
        }
        if (q)
            s[n++] = '\'';
    }
    s[n] = '\0';
    return s;
}

/* ---- the child's environment ------------------------------------------------------------ */

typedef struct envbuf {
    char **v;
    int n, cap;
} envbuf;

static void env_add(envbuf *e, const char *name, const char *value)
{
    if (!value || !*value)
        return;
    size_t nl = strlen(name);
    for (int i = 0; i < e->n; i++)
        if (!strncmp(e->v[i], name, nl) && e->v[i][nl] == '=') {
            free(e->v[i]);
            e->v[i] = xasprintf("%s=%s", name, value);
            return;
        }
    if (e->n + 2 > e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->v = xrealloc(e->v, (size_t)e->cap * sizeof *e->v);
    }
    e->v[e->n++] = xasprintf("%s=%s", name, value);
    e->v[e->n] = NULL;
}

/* dbgauge's environment and the URL's server, user and password in the variables the
 * engine's own tools read, so the command needs no password of its own. */
static char **child_env(const dg_url *u)
{
    envbuf e = {0};
    for (char **p = environ; *p; p++) {
        if (e.n + 2 > e.cap) {
            e.cap = e.cap ? 2 * e.cap : 64;
            e.v = xrealloc(e.v, (size_t)e.cap * sizeof *e.v);
        }
        e.v[e.n++] = xstrdup(*p);
        e.v[e.n] = NULL;
    }
    if (!e.v) {
        e.v = xcalloc(1, sizeof *e.v);
    }
    char port[16] = "";
    if (u->port > 0)
        snprintf(port, sizeof port, "%d", u->port);
    const dg_backend *be = dg_backend_for_scheme(u->scheme);
    if (be) { /* the variables its tools read (dg_backend.tool_env) */
        const char *const name[] = {be->tool_env.host, be->tool_env.port, be->tool_env.user,
                                    be->tool_env.password, be->tool_env.database};
        const char *const value[] = {u->host, port, u->user, u->password, u->path};
        for (size_t i = 0; i < sizeof name / sizeof name[0]; i++)
            if (name[i])
                env_add(&e, name[i], value[i]);
    }
    return e.v;
}

static void env_free(char **env)
{
    if (!env)
        return;
    for (char **p = env; *p; p++) {
        memset(*p, 0, strlen(*p)); /* the password leaves no copy behind */
        free(*p);
    }
    free(env);
}

/* ---- the size probe --------------------------------------------------------------------- */

/* The database's size during the restore: a file on this machine (SQLite, a local
 * Firebird database) is stat'ed; a server is asked through a connection opened when
 * first needed (the database may not exist until the restore creates it). A remote
 * Firebird database is not probed while gbak restores it (an attachment of ours could
 * keep gbak from bringing it online): its size is read before and after only. */
typedef struct probe {
    const dg_session_config *cfg;
    char *file;         /* stat this */
    bool during;        /* probe while the command runs */
    dg_conn *mon;
} probe;

/* pg_restore -C / --create (alone or in a cluster of short options): it drops and creates
 * the database, which a connection of ours to it would keep it from doing. */
static bool creates_database(char *const *argv)
{
    for (char *const *a = argv + 1; *a; a++) {
        if (!strcmp(*a, "--create") || !strcmp(*a, "--"))
            return !strcmp(*a, "--create");
        if ((*a)[0] == '-' && (*a)[1] != '-' && strchr(*a, 'C') &&
            strspn(*a + 1, "abcCeOsvx1") == strlen(*a + 1))
            return true;
    }
    return false;
}

static void probe_init(probe *p, const dg_session_config *cfg, const dg_url *u,
                       char *const *argv)
{
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    bool local = !u->host || dg_host_is_local(u->host);
    if (!strcmp(u->scheme, "sqlite") || (!strcmp(u->scheme, "firebird") && local && u->path &&
                                          u->path[0] == '/'))
        p->file = xstrdup(u->path);
    p->during = p->file || (strcmp(u->scheme, "firebird") != 0 &&
                            !(!strcmp(u->scheme, "postgres") && creates_database(argv)));
}

/* The size now, or -1 when it cannot be told (no database yet). */
static int64_t probe_size(probe *p)
{
    if (p->file) {
        struct stat st;
        return stat(p->file, &st) == 0 ? (int64_t)st.st_size : -1;
    }
    dg_err e = DG_ERR_INIT;
    if (!p->mon) {
        dg_connopts co = {.settings = p->cfg->settings, .nsettings = p->cfg->nsettings,
                          .application_name = "dbgauge", .local_facts = true};
        if (dg_connect(p->cfg->db, &co, &p->mon, &e))
            return -1;
    }
    dg_dbstats st;
    if (dg_stats(p->mon, &st, &e) || st.db_size_bytes < 0) {
        dg_conn_close(p->mon); /* gone (dropped and created again?): reconnect next time */
        p->mon = NULL;
        return -1;
    }
    return st.db_size_bytes;
}

static void probe_close(probe *p)
{
    if (p->mon)
        dg_conn_close(p->mon);
    p->mon = NULL;
    free(p->file);
    p->file = NULL;
}

/* ---- the child's output ----------------------------------------------------------------- */

typedef struct stream {
    int fd;             /* -1 once at its end */
    bool is_err;
    char buf[LINE_MAX_BYTES];
    size_t n;
} stream;

typedef struct restore_state {
    const dg_session_config *cfg;
    int64_t t0;
    dg_rlog log;
    const char *password;
    /* stderr's last lines (redacted), and the last line of either stream */
    char tail[TAIL_LINES][512];
    int ntail, tail_at;
    char last[256];
    int64_t lines;
} restore_state;

static void on_line(restore_state *rs, char *line, bool is_err, int64_t now)
{
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
        line[--n] = '\0';
    rs->lines++;
    dg_rlog_line(&rs->log, line, (double)(now - rs->t0) / DG_NS_PER_S);
    if (!n)
        return;
    char *r1 = dg_url_redact_text(line);
    char *r = mask_secret(r1, rs->password);
    free(r1);
    snprintf(rs->last, sizeof rs->last, "%s", r);
    if (is_err) {
        snprintf(rs->tail[rs->tail_at], sizeof rs->tail[0], "%s", r);
        rs->tail_at = (rs->tail_at + 1) % TAIL_LINES;
        if (rs->ntail < TAIL_LINES)
            rs->ntail++;
    }
    free(r);
}

/* Reads what is there; lines go to on_line. At the end of the stream, fd becomes -1. */
static void stream_read(restore_state *rs, stream *s)
{
    for (;;) {
        ssize_t k = read(s->fd, s->buf + s->n, sizeof s->buf - 1 - s->n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        int64_t now = dg_now_ns();
        if (k <= 0) {
            if (s->n) {
                s->buf[s->n] = '\0';
                on_line(rs, s->buf, s->is_err, now);
                s->n = 0;
            }
            close(s->fd);
            s->fd = -1;
            return;
        }
        s->n += (size_t)k;
        size_t start = 0;
        for (size_t i = 0; i < s->n; i++)
            if (s->buf[i] == '\n') {
                s->buf[i] = '\0';
                on_line(rs, s->buf + start, s->is_err, now);
                start = i + 1;
            }
        if (start == 0 && s->n == sizeof s->buf - 1) { /* a line longer than the buffer */
            s->buf[s->n] = '\0';
            on_line(rs, s->buf, s->is_err, now);
            start = s->n;
        }
        memmove(s->buf, s->buf + start, s->n - start);
        s->n -= start;
    }
}

/* ---- the run loop ----------------------------------------------------------------------- */

typedef struct ticks {
    int n, cap;
    dg_doc_load_tick *v;
    dg_doc_server_status *srv_status; /* [cap]: the server host's figures at each tick */
    dg_srvdelta *srv;
} ticks;

static void tick(ticks *tk, restore_state *rs, probe *pr, dg_sysample *prev, int64_t *size_prev,
                 int64_t *min_seen, const char *block_device, dg_srvhost *srv)
{
    dg_sysample cur;
    dg_sysample_take(block_device, &cur);
    int64_t size = pr->during ? probe_size(pr) : -1;
    if (tk->n == tk->cap) {
        tk->cap = tk->cap ? 2 * tk->cap : 64;
        tk->v = xrealloc(tk->v, (size_t)tk->cap * sizeof *tk->v);
        tk->srv_status = xrealloc(tk->srv_status, (size_t)tk->cap * sizeof *tk->srv_status);
        tk->srv = xrealloc(tk->srv, (size_t)tk->cap * sizeof *tk->srv);
    }
    tk->srv_status[tk->n] = DG_DOC_SERVER_NONE;
    memset(&tk->srv[tk->n], 0, sizeof tk->srv[tk->n]);
    if (srv) {
        int r = dg_srvhost_sample(srv, dg_now_ns() + SERVER_SAMPLE_WAIT_NS, &tk->srv[tk->n]);
        tk->srv_status[tk->n] = r > 0 ? DG_DOC_SERVER_OK : r == 0 ? DG_DOC_SERVER_LATE
                                                                  : DG_DOC_SERVER_LOST;
    }
    dg_doc_load_tick *k = &tk->v[tk->n++];
    memset(k, 0, sizeof *k);
    k->t_s = (double)(cur.t_ns - rs->t0) / DG_NS_PER_S;
    k->dur_s = (double)(cur.t_ns - prev->t_ns) / DG_NS_PER_S;
    if (size >= 0 && (*min_seen < 0 || size < *min_seen))
        *min_seen = size;
    if (size >= 0) {
        int64_t base = *size_prev >= 0 ? *size_prev : 0;
        k->bytes = size > base ? (uint64_t)(size - base) : 0;
        *size_prev = size;
    }
    dg_sysample_delta(prev, &cur, &k->sys);
    k->step = -1;
    *prev = cur;
    const dg_session_ui *ui = rs->cfg->ui;
    if (ui && ui->restore_progress)
        ui->restore_progress(ui->arg, k->t_s, *size_prev, rs->last);
}

/* Starts argv with stdout and stderr on pipes, in a process group of its own (own_group:
 * a stop then reaches everything it started) — unless the standard input is a terminal:
 * a background group that reads it (a password prompt) would be stopped for good, so the
 * command then stays in dbgauge's group, where the terminal's Ctrl-C reaches it too. */
static int spawn(char *const *argv, char **env, bool own_group, pid_t *pid, int out[2],
                 int errp[2], dg_err *err)
{
    if (pipe(out))
        return dg_err_fail(err, DG_E_IO, "cannot make a pipe: %s", strerror(errno));
    if (pipe(errp)) {
        close(out[0]);
        close(out[1]);
        return dg_err_fail(err, DG_E_IO, "cannot make a pipe: %s", strerror(errno));
    }
    for (int i = 0; i < 2; i++) { /* no other child of ours (a connection's) inherits them */
        fcntl(out[i], F_SETFD, FD_CLOEXEC);
        fcntl(errp[i], F_SETFD, FD_CLOEXEC);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, deflt;
    sigemptyset(&none);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGPIPE);
    sigaddset(&deflt, SIGINT);
    sigaddset(&deflt, SIGTERM);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &deflt);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, (own_group ? POSIX_SPAWN_SETPGROUP : 0) |
                                      POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    int rc = posix_spawnp(pid, argv[0], &fa, &at, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(out[1]);
    close(errp[1]);
    if (rc) {
        close(out[0]);
        close(errp[0]);
        return dg_err_fail(err, DG_E_INVAL, "cannot run '%s': %s", argv[0], strerror(rc));
    }
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    fcntl(errp[0], F_SETFL, fcntl(errp[0], F_GETFL) | O_NONBLOCK);
    return 0;
}

/* ---- the server host -------------------------------------------------------------------- */

/* The server host's sampler as a run opens it (session.c): --server-host's target, or this
 * machine's /proc when the server is on it; NULL without one (an embedded engine, a remote
 * server without --server-host, "none"). A target that cannot be reached is an error; this
 * machine's /proc failing is only a missing figure. */
static int open_server_host(const dg_session_config *cfg, const dg_url *u, const probe *pr,
                            dg_srvhost **out, dg_err *err)
{
    *out = NULL;
    const char *target = cfg->server_host;
    const dg_backend *be = dg_backend_for_scheme(u->scheme);
    if ((target && !strcmp(target, "none")) || !be || !be->server_comms ||
        (be->caps & DG_CAP_EMBEDDED))
        return 0;
    const dg_conn *c = pr->mon;
    bool local = c ? c->server_local : (!u->host || dg_host_is_local(u->host));
    if (!target && !local)
        return 0;
    char *dir = NULL; /* where the data goes: the server's directory, or the database file's */
    if (c && c->server_dir)
        dir = xstrdup(c->server_dir);
    else if (!strcmp(u->scheme, "firebird") && u->path && u->path[0] == '/') {
        char *copy = xstrdup(u->path);
        dir = xstrdup(dirname(copy));
        free(copy);
    }
    int pid = c ? c->server_pid : 0;
    if (c && pid <= 0 && be->server_pid_sql) { /* the process serving us, as the server says */
        int64_t v = 0;
        bool found = false;
        dg_err ignored = DG_ERR_INIT;
        if (dg_query_int(pr->mon, be->server_pid_sql, NULL, 0, &v, &found, &ignored) == 0 &&
            found && v > 0 && v <= INT32_MAX)
            pid = (int)v;
    }
    dg_srvhost_spec spec = {.target = target ? target : "local",
                            .data_dir = dir,
                            .server_pid = pid,
                            .pid_file = c ? c->server_pid_file : NULL,
                            .comms = be->server_comms};
    int rc = dg_srvhost_open(&spec, dg_now_ns() + 20 * DG_NS_PER_S, out, err);
    free(dir);
    if (rc && !target) {
        dg_log_warn("no server host figures: %s", err->msg);
        dg_err_clear(err);
        return 0;
    }
    if (rc == 0)
        dg_srvhost_mark(*out); /* the restore's figures start here */
    return rc;
}

/* ---- the document ----------------------------------------------------------------------- */

/* "totals" per kind of step: count, first and last elapsed, and last - first as the
 * study read gbak's log (the first step's own time is not in it), beside the sum. */
static json_t *step_totals(const dg_rlog *l)
{
    json_t *t = json_object();
    static const char *const kinds[] = {"table", "index", "constraint"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int n = 0;
        double first = 0, last = 0, sum = 0;
        for (int i = 0; i < l->nsteps; i++) {
            const dg_rlog_step *s = &l->steps[i];
            if (strcmp(s->kind, kinds[k]))
                continue;
            if (n == 0 || s->elapsed_s < first)
                first = s->elapsed_s;
            if (n == 0 || s->elapsed_s > last)
                last = s->elapsed_s;
            sum += s->seconds;
            n++;
        }
        if (n)
            json_object_set_new(t, kinds[k],
                                json_pack("{s:i, s:o, s:o, s:o, s:o}", "steps", n,
                                          "first_elapsed_s", dg_json_real(first),
                                          "last_elapsed_s", dg_json_real(last), "seconds",
                                          dg_json_real(last - first), "sum_of_steps_s",
                                          dg_json_real(sum)));
    }
    return t;
}

typedef struct restore_result {
    char **argv_shown;
    int status;            /* waitpid's */
    double seconds;
    int64_t before, after; /* sizes; -1: none */
    dg_objstat *objs;
    int nobjs;
    bool objs_read;
    double objs_seconds;
    ticks tk;
    json_t *server_host;   /* "load.server_host" (NULL: no sampler) */
    bool size_probed;      /* the size was read every second (timeline bytes) */
    int64_t min_seen;      /* the smallest size read during the restore (-1: none) */
} restore_result;

static json_t *load_object(const restore_state *rs, const restore_result *rr)
{
    const dg_rlog *l = &rs->log;
    dg_doc_step *steps = xcalloc((size_t)l->nsteps + 1, sizeof *steps);
    for (int i = 0; i < l->nsteps; i++) {
        const dg_rlog_step *s = &l->steps[i];
        steps[i] = (dg_doc_step){s->name, s->kind, s->seconds, s->rows > 0 ? (uint64_t)s->rows : 0,
                                 0, s->start_s, s->page_reads, s->page_writes};
    }
    /* the restore's size: what the database grew by from the smallest size it had (a
       restore that replaces a database — gbak -rep, pg_restore -c — first shrinks it); a
       database that did not grow (replaced in place, free space reused) by its size */
    double bytes = 0;
    const char *measure = "growth";
    if (rr->after >= 0) {
        int64_t base = rr->before > 0 ? rr->before : 0;
        if (rr->min_seen >= 0 && rr->min_seen < base)
            base = rr->min_seen;
        double growth = (double)rr->after - (double)base;
        if (growth > 0) {
            bytes = growth;
        } else {
            bytes = (double)rr->after;
            measure = "size";
        }
    }
    for (int i = 0; i < rr->tk.n; i++) /* the step under way at each tick's end */
        for (int s = 0; s < l->nsteps; s++)
            if (rr->tk.v[i].t_s >= l->steps[s].start_s && rr->tk.v[i].t_s <= l->steps[s].elapsed_s)
                rr->tk.v[i].step = s;
    dg_doc_load dl = {
        .workload = "restore",
        .jobs = 1,
        .bytes = bytes,
        .bytes_measure = measure,
        .db_size_bytes = rr->after,
        .seconds = rr->seconds,
        .nsteps = l->nsteps,
        .steps = steps,
        .nobjects = rr->nobjs,
        .objects = rr->objs,
        .objects_read = rr->objs_read,
        .objects_seconds = rr->objs_seconds,
        .nticks = rr->tk.n,
        .ticks = rr->tk.v,
    };
    json_t *load = dg_doc_load_json(&dl);
    free(steps);
    /* what the tool did not tell is null, and a step's elapsed time is the tool's own */
    json_t *js = json_object_get(load, "steps");
    for (int i = 0; i < l->nsteps; i++) {
        json_t *o = json_array_get(js, (size_t)i);
        const dg_rlog_step *s = &l->steps[i];
        json_object_set_new(o, "rows", s->rows >= 0 ? json_integer(s->rows) : json_null());
        json_object_set_new(o, "bytes", json_null());
        json_object_set_new(o, "elapsed_s", dg_json_real(s->elapsed_s));
    }
    json_t *jt = json_object_get(load, "timeline");
    for (int i = 0; i < rr->tk.n; i++) {
        json_t *o = json_array_get(jt, (size_t)i);
        if (!rr->size_probed) { /* not probed during the restore: no growth per second */
            json_object_set_new(o, "bytes", json_null());
            json_object_set_new(o, "mb_per_s", json_null());
        }
        if (rr->tk.srv_status[i] != DG_DOC_SERVER_NONE)
            json_object_set_new(o, "server_host",
                                dg_doc_srvdelta_json(rr->tk.srv_status[i], &rr->tk.srv[i]));
    }
    if (rr->server_host)
        json_object_set(load, "server_host", rr->server_host);
    json_object_set_new(load, "data_bytes_sent", json_null());
    json_object_set_new(load, "seed", json_null());
    json_object_set_new(load, "scale", json_null());
    json_t *cmd = json_array();
    for (char **a = rr->argv_shown; *a; a++)
        json_array_append_new(cmd, json_string(*a));
    json_t *tail = json_array();
    for (int i = 0; i < rs->ntail; i++)
        json_array_append_new(
            tail, json_string(rs->tail[(rs->tail_at - rs->ntail + i + TAIL_LINES) % TAIL_LINES]));
    json_t *r = json_object();
    json_object_set_new(r, "command", cmd);
    json_object_set_new(r, "tool", json_string(dg_rlog_format_name(l->format)));
    json_object_set_new(r, "steps_from",
                        json_string(l->format == DG_RLOG_NONE || l->format == DG_RLOG_MARIADB
                                        ? "none"
                                    : l->tool_times ? "the tool's own times"
                                                    : "the times its lines arrived"));
    json_object_set_new(r, "exit_status", WIFEXITED(rr->status)
                                              ? json_integer(WEXITSTATUS(rr->status))
                                              : json_null());
    json_object_set_new(r, "signal", WIFSIGNALED(rr->status)
                                         ? json_string(strsignal(WTERMSIG(rr->status)))
                                         : json_null());
    json_object_set_new(r, "output_lines", json_integer(rs->lines));
    json_object_set_new(r, "stderr_tail", tail);
    json_object_set_new(r, "size_before_bytes",
                        rr->before >= 0 ? json_integer(rr->before) : json_null());
    json_object_set_new(r, "step_totals", step_totals(l));
    json_object_set_new(load, "restore", r);
    return load;
}

/* The tables and indexes the restore brought, as after a load. */
static void read_objects(const dg_session_config *cfg, dg_conn *conn, restore_result *rr)
{
    rr->objs_read = false;
    if (cfg->no_table_stats)
        return;
    int64_t o0 = dg_now_ns();
    char **tables = NULL;
    dg_err e = DG_ERR_INIT;
    int rc = dg_user_tables(conn, &tables, &e);
    if (rc == 0)
        rc = dg_object_stats(conn, (const char *const *)tables, &rr->objs, &rr->nobjs, &e);
    dg_user_tables_free(tables);
    if (rc && rc != DG_E_UNSUPPORTED)
        dg_log_warn("cannot read the restored tables' statistics: %s", e.msg);
    rr->objs_read = rc == 0;
    rr->objs_seconds = (double)(dg_now_ns() - o0) / DG_NS_PER_S;
}

static json_t *document(const dg_session_config *cfg, const dg_url *u, dg_conn *conn,
                        json_t *load, const char *started, const char *reason, const char *cmd)
{
    dg_server_info si;
    memset(&si, 0, sizeof si);
    dg_err e = DG_ERR_INIT;
    if (conn && dg_server_info_get(conn, &si, &e))
        dg_log_warn("cannot read server settings: %s", e.msg);
    dg_doc_load_run run = {
        .workload = "restore",
        .workload_hash = "",
        .scale_unit = "",
        .backend = conn ? conn->be->name : u->scheme,
        .db = u->redacted,
        .jobs = 1,
        .started_at = started,
        .stop_reason = reason,
        .command = cfg->command_line,
    };
    dg_hostinfo h;
    dg_host_info(conn ? conn->data_path : NULL, &h);
    json_t *doc = dg_doc_load_document(&run, &si, &h, load, cfg->extra);
    if (!reason)
        dg_session_server_ctl_json(conn, &si, cfg, json_object_get(doc, "server"));
    json_t *r = json_object_get(doc, "run");
    json_object_set_new(r, "workload_hash", json_null());
    json_object_set_new(r, "scale_unit", json_null());
    json_object_set_new(r, "scale", json_null());
    json_object_set_new(r, "seed", json_null());
    json_object_set_new(r, "restore_command", json_string(cmd));
    return doc;
}

int dg_session_restore_doc(const dg_session_config *cfg, char *const *argv, json_t **doc_out,
                           dg_restore_outcome *outcome, dg_err *err)
{
    *doc_out = NULL;
    *outcome = DG_RESTORE_OK;
    if (!argv || !argv[0])
        return dg_err_fail(err, DG_E_INVAL, "no restore command: give it after '--'");
    dg_url u;
    int rc = dg_url_parse(cfg->db, &u, err);
    if (rc)
        return rc;
    restore_state rs;
    memset(&rs, 0, sizeof rs);
    rs.cfg = cfg;
    rs.password = u.password;
    dg_rlog_init(&rs.log, dg_rlog_detect((const char *const *)argv));
    restore_result rr;
    memset(&rr, 0, sizeof rr);
    rr.argv_shown = dg_restore_argv_redact(argv, u.password);
    char *cmd = argv_line(rr.argv_shown);
    probe pr;
    probe_init(&pr, cfg, &u, argv);
    rr.before = probe_size(&pr);
    dg_hostinfo h; /* the disk of the data, where it is on this machine */
    dg_host_info(pr.file ? pr.file : pr.mon ? pr.mon->data_path : NULL, &h);

    if (pr.mon && !pr.during) {
        dg_conn_close(pr.mon);
        pr.mon = NULL;
    }
    dg_sigsave saved;
    dg_stop_clear();
    dg_stop_catch(&saved);
    char started[32];
    dg_format_iso8601(dg_wall_ns(), started, sizeof started);
    if (cfg->ui && cfg->ui->info) {
        char msg[768];
        snprintf(msg, sizeof msg, "restoring into %s with %s%s", u.redacted, cmd,
                 rs.log.format == DG_RLOG_NONE ? " (a tool dbgauge does not know: no steps)"
                 : rs.log.format == DG_RLOG_MARIADB
                     ? " (the mariadb client tells nothing per table: no steps)"
                     : "");
        cfg->ui->info(cfg->ui->arg, msg);
    }
    dg_srvhost *srv = NULL;
    if ((rc = open_server_host(cfg, &u, &pr, &srv, err)) != 0) {
        dg_err_prefix(err, "--server-host %s", cfg->server_host);
        goto out;
    }
    rr.size_probed = pr.during;
    rr.min_seen = -1;
    char **env = child_env(&u);
    pid_t pid;
    int out[2], errp[2];
    rs.t0 = dg_now_ns();
    bool own_group = !isatty(STDIN_FILENO);
    rc = spawn(argv, env, own_group, &pid, out, errp, err);
    env_free(env);
    if (rc)
        goto out;
    stream ss[2] = {{.fd = out[0]}, {.fd = errp[0], .is_err = true}};
    dg_sysample prev;
    dg_sysample_take(h.block_device, &prev);
    prev.t_ns = rs.t0;
    int64_t size_prev = rr.before;
    int64_t next_tick = rs.t0 + DG_NS_PER_S, kill_at = 0, exited_at = 0;
    bool exited = false, term_sent = false;
    while (!exited || ((ss[0].fd >= 0 || ss[1].fd >= 0) && dg_now_ns() < exited_at + OUTPUT_GRACE_NS)) {
        struct pollfd pf[2];
        int np = 0;
        for (int i = 0; i < 2; i++)
            if (ss[i].fd >= 0)
                pf[np++] = (struct pollfd){.fd = ss[i].fd, .events = POLLIN};
        int64_t now = dg_now_ns();
        int64_t wait_ns = next_tick - now;
        if (wait_ns > 100 * DG_NS_PER_MS)
            wait_ns = 100 * DG_NS_PER_MS; /* a stop or the command's end is seen within 0.1 s */
        if (wait_ns < 0)
            wait_ns = 0;
        if (np)
            poll(pf, (nfds_t)np, (int)(wait_ns / DG_NS_PER_MS));
        else
            usleep((useconds_t)(wait_ns / 1000));
        for (int i = 0; i < 2; i++)
            if (ss[i].fd >= 0)
                stream_read(&rs, &ss[i]);
        if (!exited) {
            pid_t w = waitpid(pid, &rr.status, WNOHANG);
            if (w == pid || (w < 0 && errno == ECHILD)) {
                exited = true;
                exited_at = dg_now_ns();
                rr.seconds = (double)(exited_at - rs.t0) / DG_NS_PER_S;
            }
        }
        now = dg_now_ns();
        if (!exited && dg_stop_requested() && !term_sent) {
            kill(own_group ? -pid : pid, SIGTERM);
            term_sent = true;
            kill_at = now + KILL_GRACE_NS;
        }
        if (!exited && term_sent && now >= kill_at)
            kill(own_group ? -pid : pid, SIGKILL);
        if (!exited && now >= next_tick) {
            tick(&rr.tk, &rs, &pr, &prev, &size_prev, &rr.min_seen, h.block_device, srv);
            next_tick += DG_NS_PER_S;
        }
    }
    for (int i = 0; i < 2; i++)
        if (ss[i].fd >= 0)
            close(ss[i].fd);
    tick(&rr.tk, &rs, &pr, &prev, &size_prev, &rr.min_seen, h.block_device, srv); /* the last, short one */
    dg_rlog_end(&rs.log, rr.seconds);
    if (srv) { /* the whole restore's server figures, and where they come from */
        dg_srvdelta tot;
        bool have = dg_srvhost_since_mark(srv, &tot);
        dg_srvhost_facts f;
        dg_srvhost_facts_get(srv, &f);
        rr.server_host = dg_doc_srvdelta_json(have ? DG_DOC_SERVER_OK
                                              : f.lost ? DG_DOC_SERVER_LOST
                                                       : DG_DOC_SERVER_LATE,
                                              &tot);
        json_object_set_new(rr.server_host, "source", json_string(f.source));
        json_object_set_new(rr.server_host, "device", json_string(f.device));
        json_object_set_new(rr.server_host, "root_pid", json_integer(f.root_pid));
        dg_srvhost_close(srv);
        srv = NULL;
    }
    if (pr.mon) { /* the probe's connection must not outlive the restore it watched */
        dg_conn_close(pr.mon);
        pr.mon = NULL;
    }
    const dg_session_ui *ui = cfg->ui;
    if (ui && ui->restore_progress)
        ui->restore_progress(ui->arg, -1, 0, NULL); /* the end: a progress line goes away */

    bool ok = WIFEXITED(rr.status) && WEXITSTATUS(rr.status) == 0;
    char reason[256] = "";
    if (term_sent) {
        int sig = dg_stop_signal();
        *outcome = DG_RESTORE_INTERRUPTED;
        snprintf(reason, sizeof reason, "interrupted (%s)",
                 sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a stop request");
    } else if (!ok) {
        *outcome = DG_RESTORE_FAILED;
        if (WIFEXITED(rr.status))
            snprintf(reason, sizeof reason, "the restore command failed (exit status %d)",
                     WEXITSTATUS(rr.status));
        else
            snprintf(reason, sizeof reason, "the restore command was killed (%s)",
                     WIFSIGNALED(rr.status) ? strsignal(WTERMSIG(rr.status)) : "?");
    }
    /* after the restore: the database as a load leaves it */
    dg_conn *conn = NULL;
    dg_connopts co = {.settings = cfg->settings, .nsettings = cfg->nsettings,
                      .application_name = "dbgauge", .local_facts = true};
    dg_err ce = DG_ERR_INIT;
    struct stat fst;
    bool no_file = pr.file && stat(pr.file, &fst) != 0; /* connecting would create it */
    if (!no_file && dg_connect(cfg->db, &co, &conn, &ce) == 0) {
        dg_dbstats st;
        rr.after = dg_stats(conn, &st, NULL) == 0 ? st.db_size_bytes : -1;
        if (ok)
            read_objects(cfg, conn, &rr);
    } else {
        rr.after = -1;
        if (ok && !no_file)
            dg_log_warn("cannot connect after the restore: %s", ce.msg);
    }
    if (rr.after < 0 && pr.file) /* a file that the engine cannot open (a failed restore) */
        rr.after = probe_size(&pr);
    json_t *load = load_object(&rs, &rr);
    if (ui && ui->load_done && ok)
        ui->load_done(ui->arg, load);
    *doc_out = document(cfg, &u, conn, load, started, *reason ? reason : NULL, cmd);
    json_decref(load);
    if (conn)
        dg_conn_close(conn);
    if (*outcome == DG_RESTORE_FAILED) {
        /* the tool's own error line (gbak: "gbak: ERROR:..."), else its last words */
        const char *why = rs.ntail ? rs.tail[(rs.tail_at + TAIL_LINES - 1) % TAIL_LINES] : rs.last;
        for (int i = 0; i < rs.ntail; i++) {
            const char *l = rs.tail[(rs.tail_at - rs.ntail + i + TAIL_LINES) % TAIL_LINES];
            if (strstr(l, "ERROR") || strstr(l, "error:")) {
                why = l;
                break;
            }
        }
        dg_err_fail(err, DG_E_IO, "%s%s%s", reason, *why ? ": " : "", why);
    }
out:
    dg_srvhost_close(srv);
    json_decref(rr.server_host);
    free(rr.tk.srv_status);
    free(rr.tk.srv);
    dg_signals_restore(&saved);
    probe_close(&pr);
    free(rr.objs);
    free(rr.tk.v);
    dg_restore_argv_free(rr.argv_shown);
    free(cmd);
    dg_rlog_free(&rs.log);
    dg_url_free(&u);
    return rc;
}
