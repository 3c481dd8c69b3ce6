/*
 * waits.c - the server wait profile (waits.h): a thread that runs the backend's
 * wait_sample_sql every interval on its own connection and counts, per transaction type,
 * the (class, event) each of the run's sessions was in.
 */
#include "session/waits.h"

#include "core/clock.h"
#include "core/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct (class, event) pairs kept; any beyond are counted as one "other" pair. */
#define MAX_PAIRS 128
#define NSLOTS (MAX_PAIRS + 1)

typedef struct pair {
    char cls[32];
    char ev[80];
} pair;

typedef struct sess {
    int64_t id;
    int term;
} sess;

struct dg_waits {
    dg_conn *conn;
    dg_stmt *q;
    dg_waits_spec spec;
    const char *source;
    pthread_t thread;
    bool running;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop, ended;
    /* the sampler thread's alone */
    sess *idx;          /* [nterms] the terminals with a session, by id */
    uint32_t *stamp;    /* [nterms] the sample that last counted the terminal */
    uint32_t sample_no;
    int *hits;          /* [nterms] this sample's type * NSLOTS + pair */
    /* under lock */
    pair pairs[NSLOTS];
    int npairs;
    uint64_t *iv, *tot;  /* [ntypes * NSLOTS] sessions sampled: this interval, measured */
    uint64_t iv_samples, tot_samples, iv_unseen, tot_unseen;
    uint64_t queries, failed, late;
    int64_t query_ns, first_ns, last_ns;
    char error[256];     /* the first failed query's message */
    char note[256];      /* what the profile lacks on this server ("": nothing) */
    char raised[256];    /* why the interval is longer than asked ("": it is not) */
    bool own_tx;         /* each sample in a transaction of its own */
};

static int by_id(const void *a, const void *b)
{
    const sess *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* The pair's slot, added when new (under lock: the collector reads the names). */
static int intern(dg_waits *w, const dg_value *cls, const dg_value *ev)
{
    char c[sizeof w->pairs[0].cls], e[sizeof w->pairs[0].ev];
    dg_value_format(cls, c, sizeof c);
    dg_value_format(ev, e, sizeof e);
    for (int i = 0; i < w->npairs; i++)
        if (!strcmp(w->pairs[i].cls, c) && !strcmp(w->pairs[i].ev, e))
            return i;
    pthread_mutex_lock(&w->lock);
    int i = w->npairs < MAX_PAIRS ? w->npairs++ : MAX_PAIRS;
    if (i < MAX_PAIRS) {
        snprintf(w->pairs[i].cls, sizeof w->pairs[i].cls, "%s", c);
        snprintf(w->pairs[i].ev, sizeof w->pairs[i].ev, "%s", e);
    }
    pthread_mutex_unlock(&w->lock);
    return i;
}

/* One sample: the query, each row matched to a terminal in a transaction. */
static void sample(dg_waits *w)
{
    const dg_waits_spec *sp = &w->spec;
    int n = 0;
    for (int k = 0; k < sp->nterms; k++) {
        int64_t id = atomic_load_explicit(&sp->terms[k].session, memory_order_relaxed);
        if (id != 0)
            w->idx[n++] = (sess){id, k};
    }
    qsort(w->idx, (size_t)n, sizeof *w->idx, by_id);
    uint32_t no = ++w->sample_no;
    int nh = 0;
    dg_err e = DG_ERR_INIT;
    int64_t t0 = dg_now_ns();
    static const dg_txopts ro = {.read_only = true};
    int rc = w->own_tx ? dg_begin(w->conn, &ro, &e) : 0;
    if (rc == 0)
        rc = dg_execute(w->q, NULL, 0, &e);
    while (rc == 0 && (rc = dg_fetch(w->q, &e)) == 1) {
        rc = 0;
        dg_value v;
        int64_t id = 0;
        dg_column(w->q, 0, &v);
        if (!dg_value_as_int(&v, &id))
            continue;
        sess key = {id, 0}, *s = n ? bsearch(&key, w->idx, (size_t)n, sizeof key, by_id) : NULL;
        if (!s || w->stamp[s->term] == no)
            continue;
        w->stamp[s->term] = no; /* seen, whether or not it is in a transaction now */
        int type = atomic_load_explicit(&sp->terms[s->term].type, memory_order_relaxed);
        if (type < 0 || type >= sp->ntypes)
            continue;
        dg_value cls, ev;
        dg_column(w->q, 1, &cls);
        dg_column(w->q, 2, &ev);
        w->hits[nh++] = type * NSLOTS + intern(w, &cls, &ev);
    }
    dg_stmt_reset(w->q);
    if (w->own_tx && w->conn->in_tx) {
        if (rc == 0)
            rc = dg_commit(w->conn, &e);
        else
            dg_rollback(w->conn, NULL);
    }
    int64_t t1 = dg_now_ns();
    /* in a transaction and not shown: another node's session, or one we may not see */
    uint64_t unseen = 0;
    for (int i = 0; i < n; i++)
        unseen += w->stamp[w->idx[i].term] != no &&
                  atomic_load_explicit(&sp->terms[w->idx[i].term].type, memory_order_relaxed) >= 0;
    pthread_mutex_lock(&w->lock);
    w->queries++;
    w->query_ns += t1 - t0;
    if (!w->first_ns)
        w->first_ns = t0;
    w->last_ns = t1;
    if (rc < 0) {
        if (!w->failed++)
            snprintf(w->error, sizeof w->error, "%s", e.msg);
    } else {
        for (int i = 0; i < nh; i++)
            w->iv[w->hits[i]]++;
        w->iv_samples++;
        w->iv_unseen += unseen;
    }
    pthread_mutex_unlock(&w->lock);
    if (rc < 0 && e.cls == DG_EC_CONN_LOST) { /* nothing more to sample with */
        pthread_mutex_lock(&w->lock);
        w->stop = true;
        pthread_mutex_unlock(&w->lock);
    }
}

/* The sampler keeps its queries under a tenth of its time: after queries of q on average
 * (a moving average: one slow query on a loaded machine does not stop the sampling) it
 * waits at least 9 q before the next, never more than MAX_SKIP intervals, the sampling
 * times it skips counted as late, as those a slow query ran past. */
#define DUTY_SPAN 10
#define MAX_SKIP 20

static void *sampler_main(void *arg)
{
    dg_waits *w = arg;
    int64_t period = w->spec.interval_ns, next = dg_now_ns(), earliest = next;
    double avg_q = 0; /* the queries' time, a moving average (ns) */
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        next += period;
        int64_t now = dg_now_ns(), floor = earliest > now ? earliest : now;
        if (next < floor) {
            int64_t skip = (floor - next + period - 1) / period;
            w->late += (uint64_t)skip;
            next += skip * period;
        }
        while (!w->stop && dg_now_ns() < next) {
            struct timespec ts = dg_timespec(next);
            pthread_cond_timedwait(&w->cond, &w->lock, &ts);
        }
        if (w->stop)
            break;
        pthread_mutex_unlock(&w->lock);
        int64_t t0 = dg_now_ns();
        sample(w);
        int64_t t1 = dg_now_ns();
        avg_q = avg_q > 0 ? 0.75 * avg_q + 0.25 * (double)(t1 - t0) : (double)(t1 - t0);
        double gap = (DUTY_SPAN - 1) * avg_q;
        if (gap > (double)MAX_SKIP * (double)period)
            gap = (double)MAX_SKIP * (double)period;
        earliest = t1 + (int64_t)gap;
        pthread_mutex_lock(&w->lock);
    }
    w->ended = true;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

dg_waits *dg_waits_open(const dg_waits_spec *spec, const dg_backend *be, char **why)
{
    *why = NULL;
    if (!be->wait_queries || !be->wait_queries[0].sql) {
        *why = xasprintf("%s tells no session's waits", be->name);
        return NULL;
    }
    dg_waits *w = xcalloc(1, sizeof *w);
    w->spec = *spec;
    dg_err e = DG_ERR_INIT;
    if (dg_connect(spec->url, spec->connopts, &w->conn, &e)) {
        *why = xasprintf("cannot sample the server's waits: %s", e.msg);
        goto fail;
    }
    /* the most telling query the user may run: each tried once now, so a privilege or a
     * missing table shows before the run */
    const dg_wait_query *wq = be->wait_queries;
    for (; wq->sql; wq++) {
        dg_err_clear(&e);
        if (dg_prepare(w->conn, wq->sql, &w->q, &e) == 0 && dg_execute(w->q, NULL, 0, &e) == 0 &&
            dg_discard(w->q, &e) >= 0)
            break;
        dg_stmt_free(w->q);
        w->q = NULL;
        if (e.cls == DG_EC_CONN_LOST)
            break;
    }
    if (!w->q) {
        *why = xasprintf("cannot read the server's sessions (%s): %s",
                         be->wait_queries[0].source, e.msg);
        goto fail;
    }
    dg_stmt_reset(w->q);
    w->source = wq->source;
    w->own_tx = wq->own_tx;
    if (wq->note)
        snprintf(w->note, sizeof w->note, "%s", wq->note);
    if ((int64_t)wq->min_interval_ms * DG_NS_PER_MS > w->spec.interval_ns) {
        w->spec.interval_ns = (int64_t)wq->min_interval_ms * DG_NS_PER_MS;
        snprintf(w->raised, sizeof w->raised, "sampled every %d ms, not %.0f ms: %s",
                 wq->min_interval_ms, (double)spec->interval_ns / 1e6, wq->min_interval_why);
    }
    if (wq->note_sql) {
        dg_stmt *n = NULL;
        dg_value v;
        if (dg_prepare(w->conn, wq->note_sql, &n, &e) == 0 && dg_execute(n, NULL, 0, &e) == 0 &&
            dg_fetch(n, &e) == 1) {
            dg_column(n, 0, &v);
            if (v.type != DG_V_NULL)
                dg_value_format(&v, w->note, sizeof w->note);
        }
        dg_stmt_free(n);
    }
    size_t nt = (size_t)(spec->nterms > 0 ? spec->nterms : 1);
    w->idx = xcalloc(nt, sizeof *w->idx);
    w->stamp = xcalloc(nt, sizeof *w->stamp);
    w->hits = xcalloc(nt, sizeof *w->hits);
    w->iv = xcalloc((size_t)spec->ntypes * NSLOTS, sizeof *w->iv);
    w->tot = xcalloc((size_t)spec->ntypes * NSLOTS, sizeof *w->tot);
    snprintf(w->pairs[MAX_PAIRS].cls, sizeof w->pairs[0].cls, "other");
    snprintf(w->pairs[MAX_PAIRS].ev, sizeof w->pairs[0].ev, "other");
    pthread_mutex_init(&w->lock, NULL);
    dg_cond_init_monotonic(&w->cond);
    return w;
fail:
    dg_stmt_free(w->q);
    dg_conn_close(w->conn);
    free(w);
    return NULL;
}

const char *dg_waits_note(const dg_waits *w)
{
    return w && w->note[0] ? w->note : NULL;
}

const char *dg_waits_interval_note(const dg_waits *w)
{
    return w && w->raised[0] ? w->raised : NULL;
}

void dg_waits_begin(dg_waits *w)
{
    if (w && !w->running)
        w->running = pthread_create(&w->thread, NULL, sampler_main, w) == 0;
}

/* The slots in use: the interned pairs, and "other" when any sample went there. */
static bool slot_used(const dg_waits *w, int p)
{
    return p < w->npairs || p == MAX_PAIRS;
}

/* {CLASS: share} of counts c[ntypes][NSLOTS] over the types in [t0, t1). */
static json_t *class_shares(const dg_waits *w, const uint64_t *c, int t0, int t1, uint64_t *total)
{
    uint64_t all = 0;
    for (int t = t0; t < t1; t++)
        for (int p = 0; p < NSLOTS; p++)
            all += c[t * NSLOTS + p];
    json_t *o = json_object();
    if (all)
        for (int p = 0; p < NSLOTS; p++) {
            if (!slot_used(w, p))
                continue;
            uint64_t n = 0;
            for (int t = t0; t < t1; t++)
                n += c[t * NSLOTS + p];
            if (!n)
                continue;
            json_t *cur = json_object_get(o, w->pairs[p].cls);
            double v = (cur ? json_real_value(cur) : 0) + (double)n / (double)all;
            json_object_set_new(o, w->pairs[p].cls, json_real(v));
        }
    *total = all;
    return o;
}

json_t *dg_waits_interval(dg_waits *w, bool warm)
{
    if (!w)
        return NULL;
    pthread_mutex_lock(&w->lock);
    uint64_t total = 0;
    json_t *cls = class_shares(w, w->iv, 0, w->spec.ntypes, &total);
    json_t *j = NULL;
    if (w->iv_samples > 0) {
        j = json_object();
        json_object_set_new(j, "samples", json_integer((json_int_t)w->iv_samples));
        json_object_set_new(j, "sessions_sampled", json_integer((json_int_t)total));
        json_object_set_new(j, "classes", cls);
    } else {
        json_decref(cls);
    }
    size_t cells = (size_t)w->spec.ntypes * NSLOTS;
    if (!warm) {
        for (size_t i = 0; i < cells; i++)
            w->tot[i] += w->iv[i];
        w->tot_samples += w->iv_samples;
        w->tot_unseen += w->iv_unseen;
    }
    memset(w->iv, 0, cells * sizeof *w->iv);
    w->iv_samples = w->iv_unseen = 0;
    pthread_mutex_unlock(&w->lock);
    return j;
}

json_t *dg_waits_missing(const char *why)
{
    json_t *j = json_object();
    json_object_set_new(j, "available", json_false());
    json_object_set_new(j, "reason", json_string(why ? why : "not sampled"));
    return j;
}

/* One type's (or, t0..t1 every type's) part: samples, class shares, event shares. */
static json_t *type_json(const dg_waits *w, int t0, int t1)
{
    uint64_t all = 0;
    json_t *j = json_object();
    json_t *cls = class_shares(w, w->tot, t0, t1, &all);
    json_object_set_new(j, "samples", json_integer((json_int_t)all));
    json_object_set_new(j, "classes", cls);
    json_t *ev = json_object();
    for (int p = 0; all && p < NSLOTS; p++) {
        if (!slot_used(w, p))
            continue;
        uint64_t n = 0;
        for (int t = t0; t < t1; t++)
            n += w->tot[t * NSLOTS + p];
        if (!n)
            continue;
        char name[sizeof w->pairs[0].cls + sizeof w->pairs[0].ev + 2];
        snprintf(name, sizeof name, "%s:%s", w->pairs[p].cls, w->pairs[p].ev);
        json_object_set_new(ev, name, json_real((double)n / (double)all));
    }
    json_object_set_new(j, "events", ev);
    return j;
}

json_t *dg_waits_finish(dg_waits *w, int64_t deadline_ns)
{
    if (!w)
        return NULL;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_broadcast(&w->cond);
    while (w->running && !w->ended && dg_now_ns() < deadline_ns) {
        struct timespec ts = dg_timespec(deadline_ns);
        pthread_cond_timedwait(&w->cond, &w->lock, &ts);
    }
    bool stuck = w->running && !w->ended;
    pthread_mutex_unlock(&w->lock);
    if (stuck) /* a query still in a stalled server: cut it (allowed from this thread) */
        dg_interrupt(w->conn);
    if (w->running)
        pthread_join(w->thread, NULL);

    json_t *j = json_object();
    json_object_set_new(j, "available", json_true());
    json_object_set_new(j, "source", json_string(w->source ? w->source : ""));
    if (w->note[0])
        json_object_set_new(j, "note", json_string(w->note));
    if (w->raised[0])
        json_object_set_new(j, "interval_note", json_string(w->raised));
    json_object_set_new(j, "interval_ms", json_real((double)w->spec.interval_ns / 1e6));
    json_object_set_new(j, "samples", json_integer((json_int_t)w->tot_samples));
    json_object_set_new(j, "queries", json_integer((json_int_t)w->queries));
    json_object_set_new(j, "late", json_integer((json_int_t)w->late));
    json_object_set_new(j, "failed", json_integer((json_int_t)w->failed));
    if (w->failed)
        json_object_set_new(j, "error", json_string(w->error));
    json_object_set_new(j, "unseen", json_integer((json_int_t)w->tot_unseen));
    double span = (double)(w->last_ns - w->first_ns);
    json_object_set_new(j, "query_ms_avg",
                        w->queries ? json_real((double)w->query_ns / (double)w->queries / 1e6)
                                   : json_null());
    /* the sampler's own cost: the share of the run its queries kept a server session busy */
    json_object_set_new(j, "busy_pct", span > 0 ? json_real(100.0 * (double)w->query_ns / span)
                                                : json_null());
    json_object_set_new(j, "all", type_json(w, 0, w->spec.ntypes));
    json_t *types = json_object();
    for (int t = 0; t < w->spec.ntypes; t++)
        json_object_set_new(types, w->spec.types[t], type_json(w, t, t + 1));
    json_object_set_new(j, "types", types);

    dg_stmt_free(w->q);
    dg_conn_close(w->conn);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    free(w->idx);
    free(w->stamp);
    free(w->hits);
    free(w->iv);
    free(w->tot);
    free(w);
    return j;
}
