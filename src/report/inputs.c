/*
 * inputs.c - the input set of a report or comparison (inputs.h): result files and sweep
 * directories read into documents, sweep parameters, and run labels.
 *
 * A sweep directory holds experiment.json (the index: parameters, points, the file of
 * each point) and one result file per point; a directory without an index is read as all
 * of its *.json files in name order. Every document is validated by dg_result_read.
 */
#include "report/inputs.h"

#include "core/stop.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "results/result.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void set_note(dg_rep_set *s, char *msg)
{
    s->notes = xrealloc(s->notes, (size_t)(s->nnotes + 1) * sizeof *s->notes);
    s->notes[s->nnotes++] = msg;
}

/* Points the run's sweep fields at its document's "sweep" object. */
static void bind_sweep(dg_rep_run *r)
{
    json_t *sw = json_object_get(r->doc, "sweep");
    r->params = json_is_object(json_object_get(sw, "params")) ? json_object_get(sw, "params") : NULL;
    r->point = json_string_value(json_object_get(sw, "point"));
    json_t *rep = json_object_get(sw, "repeat");
    r->repeat = json_is_integer(rep) ? (int)json_integer_value(rep) : 0;
}

static void add_doc(dg_rep_set *s, const char *path, json_t *doc)
{
    if (s->nruns == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->runs = xrealloc(s->runs, (size_t)s->cap * sizeof *s->runs);
    }
    dg_rep_run *r = &s->runs[s->nruns++];
    memset(r, 0, sizeof *r);
    r->path = xstrdup(path);
    r->doc = doc;
    bind_sweep(r);
}

static int add_file(dg_rep_set *s, const char *path, dg_err *err)
{
    json_t *doc = NULL;
    /* a stop request (SIGINT, SIGTERM) ends a report over thousands of files between two */
    if (dg_stop_requested())
        return dg_err_fail(err, DG_E_STOPPED, "interrupted before '%s'", path);
    int rc = dg_result_read(path, &doc, err);
    if (rc && dg_stop_requested()) /* a read the signal cut short (a slow disk, a pipe) */
        return dg_err_fail(err, DG_E_STOPPED, "interrupted while reading '%s'", path);
    if (rc)
        return rc;
    add_doc(s, path, doc);
    return 0;
}

static char *join_path(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

/* "scale=1 terminals=4" from a params object (for notes). */
static char *params_text(const json_t *params)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)params, k, v)
    {
        char buf[64];
        const char *t = json_string_value(v);
        if (!t && json_is_number(v)) {
            snprintf(buf, sizeof buf, "%g", json_number_value(v));
            t = buf;
        }
        dg_sb_printf(&sb, "%s%s=%s", sb.len ? " " : "", k, t ? t : "?");
    }
    return dg_sb_take(&sb);
}

static int add_experiment(dg_rep_set *s, const char *dir, const char *index, dg_err *err)
{
    json_error_t je;
    json_t *exp = json_load_file(index, 0, &je);
    if (!exp) {
        if (je.line <= 0)
            return dg_err_fail(err, DG_E_IO, "cannot read sweep index '%s': %s", index, je.text);
        return dg_err_fail(err, DG_E_PARSE, "%s:%d:%d: error: %s", index, je.line, je.column,
                           je.text);
    }
    json_t *points = json_object_get(exp, "points");
    if (!json_is_object(exp) || !json_is_array(points)) {
        json_decref(exp);
        return dg_err_fail(err, DG_E_PARSE, "%s: not a sweep index (no \"points\" array)", index);
    }
    if (!s->experiment) {
        s->experiment = json_incref(exp);
        s->experiment_path = xstrdup(index);
    } else {
        /* its points would join the first sweep's as if they were repeats of them */
        int rc = dg_err_fail(err, DG_E_INVAL,
                             "%s and %s are two sweeps: a report shows one (report each, or "
                             "`dbgauge compare` them)",
                             s->experiment_path, index);
        json_decref(exp);
        return rc;
    }
    int rc = 0;
    size_t i;
    json_t *pt;
    json_array_foreach(points, i, pt)
    {
        const char *file = json_string_value(json_object_get(pt, "file"));
        const char *id = json_string_value(json_object_get(pt, "id"));
        /* a point's file lives in the sweep's directory: an index (written by someone
         * else, perhaps) that names another place is refused, not followed */
        if (file && (!*file || strchr(file, '/') || !strcmp(file, "..") || !strcmp(file, "."))) {
            rc = dg_err_fail(err, DG_E_PARSE,
                             "%s: point %s names the file '%s', which is not a file in the sweep's "
                             "directory",
                             index, id ? id : "?", file);
            break;
        }
        const char *status = json_string_value(json_object_get(pt, "status"));
        char *ptext = params_text(json_object_get(pt, "params"));
        char *path = file ? join_path(dir, file) : NULL;
        struct stat st;
        if (status && !strcmp(status, "skipped")) {
            /* a repeat --until-ci did not need: no file, nothing missing */
        } else if (!path || stat(path, &st) != 0) {
            set_note(s, xasprintf("sweep point %s (%s) has no result file%s%s%s",
                                  id ? id : "?", ptext, status ? " (status: " : "",
                                  status ? status : "", status ? ")" : ""));
        } else {
            rc = add_file(s, path, err);
            if (rc == 0 && !json_object_get(s->runs[s->nruns - 1].doc, "sweep")) {
                /* an older point file: take its parameters from the index */
                dg_rep_run *r = &s->runs[s->nruns - 1];
                json_t *sw = json_object();
                json_object_set(sw, "params", json_object_get(pt, "params"));
                if (id)
                    json_object_set_new(sw, "point", json_string(id));
                json_object_set(sw, "repeat", json_object_get(pt, "repeat"));
                json_object_set_new(r->doc, "sweep", sw);
                bind_sweep(r);
            }
        }
        free(path);
        free(ptext);
        if (rc)
            break;
    }
    json_decref(exp);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(dg_rep_set *s, const char *dir, dg_err *err)
{
    char *index = join_path(dir, "experiment.json");
    struct stat st;
    if (stat(index, &st) == 0) {
        int rc = add_experiment(s, dir, index, err);
        free(index);
        return rc;
    }
    free(index);
    DIR *d = opendir(dir);
    if (!d)
        return dg_err_fail(err, DG_E_IO, "cannot read directory '%s': %s", dir, strerror(errno));
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, (size_t)n, sizeof *names, cmp_str);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *path = join_path(dir, names[i]);
        if (rc == 0)
            rc = add_file(s, path, err);
        free(path);
        free(names[i]);
    }
    free(names);
    if (rc == 0 && n == 0)
        rc = dg_err_fail(err, DG_E_IO, "directory '%s' holds no result files (*.json)", dir);
    return rc;
}

int dg_rep_set_add(dg_rep_set *s, const char *path, dg_err *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return dg_err_fail(err, DG_E_IO, "cannot read '%s': %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return add_dir(s, path, err);
    const char *base = strrchr(path, '/');
    if (!strcmp(base ? base + 1 : path, "experiment.json")) {
        /* the index of a sweep stands for its directory */
        char *dir = base ? xstrndup(path, (size_t)(base - path)) : xstrdup(".");
        int rc = add_dir(s, *dir ? dir : "/", err);
        free(dir);
        return rc;
    }
    return add_file(s, path, err);
}

const char *dg_rep_param(const dg_rep_run *r, const char *name, char *buf, size_t len)
{
    json_t *v = json_object_get(r->params, name);
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_number(v)) {
        snprintf(buf, len, "%g", json_number_value(v));
        return buf;
    }
    if (json_is_boolean(v)) {
        snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
        return buf;
    }
    return NULL;
}

static bool has_name(const char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

int dg_rep_set_params(const dg_rep_set *s, const char **names, bool *varies, int max)
{
    int n = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(s->experiment, "parameters"), i, p)
    {
        const char *name = json_string_value(json_object_get(p, "name"));
        if (name && n < max && !has_name(names, n, name))
            names[n++] = name;
    }
    int first_other = n;
    for (int r = 0; r < s->nruns; r++) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)s->runs[r].params, k, v)
        {
            if (n < max && !has_name(names, n, k))
                names[n++] = k;
        }
    }
    qsort(names + first_other, (size_t)(n - first_other), sizeof *names, cmp_str);
    for (int k = 0; k < n; k++) {
        varies[k] = false;
        const char *first = NULL;
        bool seen = false;
        for (int r = 0; r < s->nruns && !varies[k]; r++) {
            char buf[64];
            const char *v = dg_rep_param(&s->runs[r], names[k], buf, sizeof buf);
            if (!seen) {
                seen = true;
                first = v ? xstrdup(v) : NULL;
            } else if ((v == NULL) != (first == NULL) || (v && strcmp(v, first) != 0)) {
                varies[k] = true;
            }
        }
        free((char *)first);
    }
    return n;
}

static char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 5 && !strcmp(b + n - 5, ".json"))
        n -= 5;
    return xstrndup(b, n);
}

void dg_rep_set_label(dg_rep_set *s)
{
    const char *names[64];
    bool varies[64];
    int np = dg_rep_set_params(s, names, varies, 64);
    bool repeats = false;
    for (int r = 0; r < s->nruns; r++)
        repeats |= s->runs[r].repeat > 1;
    for (int r = 0; r < s->nruns; r++) {
        dg_rep_run *run = &s->runs[r];
        free(run->label);
        dg_strbuf sb = DG_STRBUF_INIT;
        for (int k = 0; k < np; k++) {
            char buf[64];
            const char *v = varies[k] ? dg_rep_param(run, names[k], buf, sizeof buf) : NULL;
            if (v)
                dg_sb_printf(&sb, "%s%s=%s", sb.len ? " " : "", names[k], v);
        }
        if (sb.len && repeats)
            dg_sb_printf(&sb, " #%d", run->repeat);
        run->label = sb.len ? dg_sb_take(&sb) : base_name(run->path);
        dg_sb_free(&sb);
    }
    /* labels must tell runs apart: fall back to the paths */
    for (int r = 0; r < s->nruns; r++)
        for (int q = 0; q < r; q++)
            if (!strcmp(s->runs[r].label, s->runs[q].label)) {
                for (int k = 0; k < s->nruns; k++) {
                    free(s->runs[k].label);
                    s->runs[k].label = xstrdup(s->runs[k].path);
                }
                return;
            }
}

void dg_rep_set_free(dg_rep_set *s)
{
    if (!s)
        return;
    for (int r = 0; r < s->nruns; r++) {
        free(s->runs[r].path);
        free(s->runs[r].label);
        json_decref(s->runs[r].doc);
    }
    for (int i = 0; i < s->nnotes; i++)
        free(s->notes[i]);
    free(s->notes);
    free(s->runs);
    json_decref(s->experiment);
    free(s->experiment_path);
    memset(s, 0, sizeof *s);
}
