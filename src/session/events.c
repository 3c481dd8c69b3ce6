/*
 * events.c - scheduled commands of a run (see events.h).
 *
 * One thread sleeps until the next event or a finished child (at most POLL_NS while a
 * command runs: children are reaped with WNOHANG), starts commands with posix_spawn and
 * records their ends. The collector's finish wakes it through the condition variable.
 */
#define _GNU_SOURCE
#include "session/events.h"

#include "backend/backend.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define POLL_NS (20 * DG_NS_PER_MS)

typedef struct event {
    int64_t at_ns;
    char *command;       /* as written: it runs */
    char *shown;         /* redacted: it is recorded */
    pid_t pid;           /* running: > 0 */
    int64_t started_ns;  /* 0: not started */
    int64_t ended_ns;    /* 0: not ended */
    int status;          /* waitpid's */
    int spawn_errno;
} event;

struct dg_events {
    int n;
    event *ev;           /* sorted by at_ns */
    int64_t t0;          /* the measured phase's start (dg_now_ns clock) */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* CLOCK_MONOTONIC */
    bool stop;
};

static int by_time(const void *a, const void *b)
{
    const event *x = a, *y = b;
    return (x->at_ns > y->at_ns) - (x->at_ns < y->at_ns);
}

static void spawn(event *e)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 2, 1); /* its output beside dbgauge's warnings */
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    char *argv[] = {"sh", "-c", e->command, NULL};
    e->started_ns = dg_now_ns();
    int rc = posix_spawn(&e->pid, "/bin/sh", &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        e->spawn_errno = rc;
        e->pid = 0;
        e->ended_ns = e->started_ns;
        dg_log_warn("event at %.1f s: cannot start '%s': %s", (double)e->at_ns / DG_NS_PER_S,
                    e->shown, strerror(rc));
    } else {
        dg_log_info("event at %.1f s: %s", (double)e->at_ns / DG_NS_PER_S, e->shown);
    }
}

/* Reaps the children that ended; true when one is still running. */
static bool reap(dg_events *s)
{
    bool running = false;
    for (int i = 0; i < s->n; i++) {
        event *e = &s->ev[i];
        if (e->pid <= 0 || e->ended_ns)
            continue;
        int st;
        pid_t r;
        do {
            r = waitpid(e->pid, &st, WNOHANG);
        } while (r < 0 && errno == EINTR);
        if (r == e->pid || (r < 0 && errno == ECHILD)) {
            e->status = r == e->pid ? st : 0;
            e->ended_ns = dg_now_ns();
        } else {
            running = true;
        }
    }
    return running;
}

static void *events_main(void *arg)
{
    dg_events *s = arg;
    int next = 0;
    pthread_mutex_lock(&s->lock);
    while (!s->stop) {
        int64_t now = dg_now_ns();
        while (next < s->n && s->t0 + s->ev[next].at_ns <= now) {
            pthread_mutex_unlock(&s->lock);
            spawn(&s->ev[next++]);
            pthread_mutex_lock(&s->lock);
        }
        pthread_mutex_unlock(&s->lock);
        bool running = reap(s);
        pthread_mutex_lock(&s->lock);
        if (s->stop || (next == s->n && !running))
            break;
        int64_t wake = next < s->n ? s->t0 + s->ev[next].at_ns : INT64_MAX;
        if (running && wake > dg_now_ns() + POLL_NS)
            wake = dg_now_ns() + POLL_NS;
        struct timespec ts = dg_timespec(wake);
        if (!s->stop)
            pthread_cond_timedwait(&s->cond, &s->lock, &ts);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

dg_events *dg_events_start(const dg_event_spec *ev, int n, int64_t measure_start_ns)
{
    if (n <= 0)
        return NULL;
    dg_events *s = xcalloc(1, sizeof *s);
    s->n = n;
    s->t0 = measure_start_ns;
    s->ev = xcalloc((size_t)n, sizeof *s->ev);
    for (int i = 0; i < n; i++) {
        s->ev[i].at_ns = ev[i].at_ns;
        s->ev[i].command = xstrdup(ev[i].command);
        s->ev[i].shown = dg_url_redact_text(ev[i].command);
    }
    qsort(s->ev, (size_t)n, sizeof *s->ev, by_time);
    pthread_mutex_init(&s->lock, NULL);
    dg_cond_init_monotonic(&s->cond);
    if (pthread_create(&s->thread, NULL, events_main, s) != 0) {
        dg_log_warn("cannot start the thread of the --event commands: they are not run");
        s->thread = 0;
    }
    return s;
}

/* A command still running at the end: SIGTERM to its process group, SIGKILL if it has not
 * ended within a second, and its status. */
static void end_group(event *e)
{
    kill(-e->pid, SIGTERM);
    int64_t until = dg_now_ns() + DG_NS_PER_S;
    pid_t r;
    while ((r = waitpid(e->pid, &e->status, WNOHANG)) == 0 && dg_now_ns() < until)
        dg_sleep_ns(POLL_NS);
    if (r == 0) {
        kill(-e->pid, SIGKILL);
        waitpid(e->pid, &e->status, 0);
    }
    e->ended_ns = dg_now_ns();
}

json_t *dg_events_finish(dg_events *s, int64_t deadline_ns)
{
    if (!s)
        return NULL;
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    if (s->thread)
        pthread_join(s->thread, NULL);
    /* commands still running: until the deadline, then their process groups are ended */
    while (reap(s) && dg_now_ns() < deadline_ns) {
        struct timespec ts = {0, POLL_NS};
        nanosleep(&ts, NULL);
    }
    json_t *arr = json_array();
    for (int i = 0; i < s->n; i++) {
        event *e = &s->ev[i];
        const char *status = "not_reached";
        if (e->spawn_errno)
            status = "not_started";
        else if (e->started_ns && !e->ended_ns) {
            end_group(e);
            status = "ended_by_dbgauge";
        } else if (e->started_ns)
            status = WIFEXITED(e->status) && WEXITSTATUS(e->status) == 0 ? "ok" : "failed";
        json_t *o = json_object();
        json_object_set_new(o, "at_s", json_real((double)e->at_ns / DG_NS_PER_S));
        json_object_set_new(o, "command", json_string(e->shown));
        json_object_set_new(o, "status", json_string(status));
        if (e->started_ns && !e->spawn_errno) {
            json_object_set_new(o, "started_s",
                                json_real((double)(e->started_ns - s->t0) / DG_NS_PER_S));
            json_object_set_new(o, "duration_s",
                                json_real((double)(e->ended_ns - e->started_ns) / DG_NS_PER_S));
            json_object_set_new(o, "exit", WIFEXITED(e->status)
                                               ? json_integer(WEXITSTATUS(e->status))
                                               : json_null());
            if (strcmp(status, "ok") && strcmp(status, "ended_by_dbgauge"))
                dg_log_warn("event at %.1f s failed (%s %d): %s", (double)e->at_ns / DG_NS_PER_S,
                            WIFEXITED(e->status) ? "exit status" : "signal",
                            WIFEXITED(e->status) ? WEXITSTATUS(e->status) : WTERMSIG(e->status),
                            e->shown);
        }
        json_array_append_new(arr, o);
        free(e->command);
        free(e->shown);
    }
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s->ev);
    free(s);
    return arr;
}
