/*
 * locktab.c - Firebird's lock table through fb_lock_print (locktab.h).
 *
 * Layout: the parser of the header; deltas and their JSON; running the tool with a
 * deadline; the sampler.
 */
#define _GNU_SOURCE
#include "monitor/locktab.h"

#include "core/clock.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define TOOL "fb_lock_print"
#define OUT_MAX 65536 /* the header is under 1 KB; the rest of a long output is dropped */

/* ---- the header ------------------------------------------------------------------------ */

/* The number after "LABEL:" within [text, end), -1 when absent or not a number. */
static int64_t field(const char *text, const char *end, const char *label)
{
    size_t n = strlen(label);
    for (const char *p = text; p && p + n < end; p = memchr(p + 1, label[0], (size_t)(end - p - 1))) {
        if (memcmp(p, label, n) || p[n] != ':')
            continue;
        /* a label, not the tail of a longer one ("Blocks" in "Acquire blocks") */
        if (p > text && (p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n' && p[-1] != ','))
            continue;
        const char *q = p + n + 1;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= end || *q < '0' || *q > '9')
            return -1;
        int64_t v = 0;
        for (; q < end && *q >= '0' && *q <= '9'; q++) {
            if (v > (INT64_MAX - 9) / 10)
                return -1; /* not a counter this tool prints */
            v = v * 10 + (*q - '0');
        }
        return v;
    }
    return -1;
}

bool dg_locktab_parse(const char *text, dg_locktab *out)
{
    memset(out, 0xff, sizeof *out); /* every counter -1 */
    out->created[0] = '\0';
    out->hash_avg = NAN;
    const char *start = strstr(text, "LOCK_HEADER BLOCK");
    if (!start)
        return false;
    /* the header ends at the first empty line or the next block's heading */
    const char *end = start + strlen(start);
    const char *blank = strstr(start, "\n\n");
    if (blank && blank < end)
        end = blank;
    const char *next = strstr(start + 1, "_BLOCK");
    if (next && next < end)
        end = next;
    const char *c = strstr(start, "Creation timestamp:");
    if (c && c < end) {
        c += strlen("Creation timestamp:");
        while (*c == ' ')
            c++;
        size_t n = strcspn(c, "\n,");
        if (n >= sizeof out->created)
            n = sizeof out->created - 1;
        memcpy(out->created, c, n);
        out->created[n] = '\0';
    }
    out->length = field(start, end, "Length");
    out->used = field(start, end, "Used");
    out->enqueues = field(start, end, "Enqs");
    out->converts = field(start, end, "Converts");
    out->rejects = field(start, end, "Rejects");
    out->blocks = field(start, end, "Blocks");
    out->deadlock_scans = field(start, end, "Deadlock scans");
    out->deadlocks = field(start, end, "Deadlocks");
    out->acquires = field(start, end, "Acquires");
    out->acquire_blocks = field(start, end, "Acquire blocks");
    out->hash_slots = field(start, end, "Hash slots");
    /* "Hash lengths (min/avg/max):    0/   0/   4" */
    const char *h = strstr(start, "(min/avg/max):");
    if (h && h < end) {
        long long mn, avg, mx;
        if (sscanf(h, "(min/avg/max): %lld/ %lld/ %lld", &mn, &avg, &mx) == 3 && mn >= 0 &&
            avg >= 0 && mx >= 0) {
            out->hash_avg = (double)avg;
            out->hash_max = mx;
        }
    }
    /* "Owners (6):" */
    const char *o = strstr(start, "Owners (");
    if (o && o < end) {
        long long n;
        if (sscanf(o, "Owners (%lld)", &n) == 1 && n >= 0)
            out->owners = n;
    }
    return out->enqueues >= 0 && out->acquires >= 0;
}

/* ---- deltas ---------------------------------------------------------------------------- */

bool dg_locktab_delta_of(const dg_locktab *a, const dg_locktab *b, dg_locktab_delta *d)
{
    if (strcmp(a->created, b->created))
        return false;
    const int64_t *pa[] = {&a->enqueues, &a->converts, &a->rejects, &a->blocks,
                           &a->deadlock_scans, &a->deadlocks, &a->acquires, &a->acquire_blocks};
    const int64_t *pb[] = {&b->enqueues, &b->converts, &b->rejects, &b->blocks,
                           &b->deadlock_scans, &b->deadlocks, &b->acquires, &b->acquire_blocks};
    int64_t *pd[] = {&d->enqueues, &d->converts, &d->rejects, &d->blocks,
                     &d->deadlock_scans, &d->deadlocks, &d->acquires, &d->acquire_blocks};
    for (size_t i = 0; i < sizeof pa / sizeof pa[0]; i++) {
        if (*pa[i] < 0 || *pb[i] < 0)
            *pd[i] = -1; /* not printed */
        else if (*pb[i] < *pa[i])
            return false; /* another table, created within the same second */
        else
            *pd[i] = *pb[i] - *pa[i];
    }
    d->mutex_wait_pct = d->acquires > 0 && d->acquire_blocks >= 0
                            ? 100.0 * (double)d->acquire_blocks / (double)d->acquires
                            : NAN;
    return true;
}

static void set_count(json_t *o, const char *k, int64_t v)
{
    json_object_set_new(o, k, v >= 0 ? json_integer(v) : json_null());
}

json_t *dg_locktab_delta_json(const dg_locktab_delta *d, const dg_locktab *b)
{
    json_t *o = json_object();
    json_object_set_new(o, "mutex_wait_pct",
                        isfinite(d->mutex_wait_pct) ? json_real(d->mutex_wait_pct) : json_null());
    set_count(o, "acquires", d->acquires);
    set_count(o, "acquire_blocks", d->acquire_blocks);
    set_count(o, "enqueues", d->enqueues);
    set_count(o, "converts", d->converts);
    set_count(o, "rejects", d->rejects);
    set_count(o, "blocks", d->blocks);
    set_count(o, "deadlock_scans", d->deadlock_scans);
    set_count(o, "deadlocks", d->deadlocks);
    if (b) {
        set_count(o, "owners", b->owners);
        set_count(o, "used_bytes", b->used);
        set_count(o, "length_bytes", b->length);
        set_count(o, "hash_slots", b->hash_slots);
        json_object_set_new(o, "hash_avg", isfinite(b->hash_avg) ? json_real(b->hash_avg) : json_null());
        set_count(o, "hash_max", b->hash_max);
    }
    return o;
}

/* ---- running the tool ------------------------------------------------------------------- */

/* The value of FIREBIRD_LOCK in process pid's environment (allocated), or NULL. */
static char *server_lock_dir(int pid)
{
    if (pid <= 0)
        return NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL; /* another user's process */
    char *found = NULL;
    char *var = NULL;
    size_t cap = 0;
    while (!found && getdelim(&var, &cap, '\0', f) > 0) {
        if (!strncmp(var, "FIREBIRD_LOCK=", 14) && var[14])
            found = xstrdup(var + 14);
    }
    free(var);
    fclose(f);
    return found;
}

/* The tool's path on PATH (allocated), or NULL when no directory there has it: looked up
 * here, not left to posix_spawnp, whose failure to find it some environments (valgrind)
 * cannot report. */
static char *find_tool(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        char *f = n ? xasprintf("%.*s/" TOOL, (int)n, p) : xstrdup("./" TOOL);
        if (access(f, X_OK) == 0)
            return f;
        free(f);
        p += n;
        if (*p == ':')
            p++;
    }
    return NULL;
}

/* Runs fb_lock_print -d db_file with FIREBIRD_LOCK=lock_dir (NULL: the environment's) and
 * returns its output (stdout and stderr, allocated; NULL with *why when it could not run
 * or outlived deadline_ns). */
static char *run_tool(const char *db_file, const char *lock_dir, int64_t deadline_ns, char **why)
{
    char *tool = find_tool();
    if (!tool) {
        *why = xstrdup(TOOL " is not installed (Debian: firebird3.0-utils)");
        return NULL;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC)) {
        *why = xasprintf("cannot make a pipe: %s", strerror(errno));
        free(tool);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    /* the environment, with the server's lock directory */
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = xcalloc(n + 2, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!lock_dir || strncmp(environ[i], "FIREBIRD_LOCK=", 14))
            env[k++] = environ[i];
    char *lockvar = lock_dir ? xasprintf("FIREBIRD_LOCK=%s", lock_dir) : NULL;
    if (lockvar)
        env[k++] = lockvar;
    char *argv[] = {TOOL, "-d", (char *)db_file, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, argv, env);
    free(tool);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    free(lockvar);
    close(p[1]);
    if (rc) {
        close(p[0]);
        *why = rc == ENOENT ? xstrdup(TOOL " is not installed (Debian: firebird3.0-utils)")
                            : xasprintf("cannot run " TOOL ": %s", strerror(rc));
        return NULL;
    }
    char *buf = xmalloc(OUT_MAX + 1);
    size_t len = 0;
    bool late = false;
    for (;;) {
        int64_t left = deadline_ns - dg_now_ns();
        if (left <= 0) {
            late = true;
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int r = poll(&pf, 1, (int)(left / 1000000 + 1));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            late = r == 0;
            if (r < 0)
                break;
            continue;
        }
        char tmp[4096];
        ssize_t got = read(p[0], tmp, sizeof tmp);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        size_t take = (size_t)got < OUT_MAX - len ? (size_t)got : OUT_MAX - len;
        memcpy(buf + len, tmp, take);
        len += take;
    }
    close(p[0]);
    if (late)
        kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    buf[len] = '\0';
    if (late) {
        free(buf);
        *why = xstrdup(TOOL " did not answer in time");
        return NULL;
    }
    return buf;
}

/* One reading into *out; false with *why (allocated) when none could be made. */
static bool read_table(const char *db_file, const char *lock_dir, int64_t deadline_ns,
                       dg_locktab *out, char **why)
{
    char *text = run_tool(db_file, lock_dir, deadline_ns, why);
    if (!text)
        return false;
    bool ok = dg_locktab_parse(text, out);
    if (!ok) { /* the tool's own words: its first line */
        const char *t = text;
        while (*t == '\n' || *t == ' ')
            t++;
        size_t n = strcspn(t, "\n");
        *why = n ? xasprintf(TOOL " printed no lock table header: %.*s", (int)(n > 200 ? 200 : n), t)
                 : xstrdup(TOOL " printed nothing");
    }
    free(text);
    return ok;
}

/* ---- the sampler ------------------------------------------------------------------------ */

struct dg_locktab_mon {
    char *db_file, *lock_dir; /* lock_dir NULL: the environment's (or Firebird's default) */
    dg_locktab prev, mark, first;
    bool have_prev, have_mark; /* have_prev: the last reading succeeded (prev is it) */
    int readings, failed, resets;
    char *last_why;
};

dg_locktab_mon *dg_locktab_open(const char *db_file, int server_pid, int64_t deadline_ns,
                                char **why)
{
    dg_locktab_mon *m = xcalloc(1, sizeof *m);
    m->db_file = xstrdup(db_file);
    m->lock_dir = server_lock_dir(server_pid);
    if (!m->lock_dir && getenv("FIREBIRD_LOCK") && *getenv("FIREBIRD_LOCK"))
        m->lock_dir = xstrdup(getenv("FIREBIRD_LOCK"));
    if (!read_table(m->db_file, m->lock_dir, deadline_ns, &m->prev, why)) {
        free(m->db_file);
        free(m->lock_dir);
        free(m);
        return NULL;
    }
    m->first = m->prev;
    m->have_prev = true;
    m->readings = 1;
    return m;
}

json_t *dg_locktab_sample(dg_locktab_mon *m, int64_t deadline_ns)
{
    dg_locktab now;
    char *why = NULL;
    if (!read_table(m->db_file, m->lock_dir, deadline_ns, &now, &why)) {
        m->failed++;
        free(m->last_why);
        m->last_why = why;
        m->have_prev = false;
        return NULL;
    }
    m->readings++;
    dg_locktab_delta d;
    bool ok = m->have_prev && dg_locktab_delta_of(&m->prev, &now, &d);
    if (m->have_prev && !ok)
        m->resets++;
    m->prev = now;
    m->have_prev = true;
    return ok ? dg_locktab_delta_json(&d, &now) : NULL;
}

const dg_locktab *dg_locktab_first(const dg_locktab_mon *m)
{
    return &m->first;
}

void dg_locktab_mark(dg_locktab_mon *m)
{
    m->mark = m->prev;
    m->have_mark = m->have_prev;
}

json_t *dg_locktab_finish(dg_locktab_mon *m)
{
    if (!m)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "available", json_true());
    json_object_set_new(o, "source", json_string(TOOL));
    json_object_set_new(o, "lock_dir", m->lock_dir ? json_string(m->lock_dir) : json_null());
    json_object_set_new(o, "created", json_string(m->prev.created));
    json_object_set_new(o, "readings", json_integer(m->readings));
    json_object_set_new(o, "failed", json_integer(m->failed));
    json_object_set_new(o, "resets", json_integer(m->resets));
    if (m->last_why)
        json_object_set_new(o, "last_failure", json_string(m->last_why));
    set_count(o, "hash_slots", m->prev.hash_slots);
    set_count(o, "length_bytes", m->prev.length);
    dg_locktab_delta d;
    /* prev: the last reading that succeeded */
    if (m->have_mark && dg_locktab_delta_of(&m->mark, &m->prev, &d))
        json_object_set_new(o, "measured", dg_locktab_delta_json(&d, &m->prev));
    else
        json_object_set_new(o, "measured", json_null());
    free(m->db_file);
    free(m->lock_dir);
    free(m->last_why);
    free(m);
    return o;
}

json_t *dg_locktab_missing(const char *why)
{
    json_t *o = json_object();
    json_object_set_new(o, "available", json_false());
    json_object_set_new(o, "reason", json_string(why ? why : "not read"));
    return o;
}
