/*
 * sweep.c - experiment grid, point naming, placeholders and the experiment index.
 *
 * Values go out of the process redacted (dg_sweep_shown_value): in file names,
 * experiment.json, point documents, hook commands and messages. Only the options of a point
 * (cli/cmd_sweep.c) get the values as given.
 */
#include "experiment/sweep.h"

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "results/result.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const status_names[] = {"pending", "done", "incomplete", "failed", "interrupted",
                                           "skipped"};

const char *dg_point_status_name(dg_point_status st)
{
    return status_names[st];
}

static int status_from_name(const char *s)
{
    for (int i = 0; i < (int)(sizeof status_names / sizeof status_names[0]); i++)
        if (s && !strcmp(s, status_names[i]))
            return i;
    return DG_POINT_PENDING;
}

static bool valid_param_name(const char *n)
{
    if (!*n)
        return false;
    for (const char *p = n; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.'))
            return false;
    return true;
}

static dg_sweep_param *find_param(dg_sweep *s, const char *name)
{
    for (int i = 0; i < s->nparams; i++)
        if (!strcmp(s->params[i].name, name))
            return &s->params[i];
    return NULL;
}

/* True for a parameter that is a password itself (conn.password, wl.db_passwd). */
static bool secret_param(const char *name)
{
    size_t n = strlen(name);
    return (n >= 8 && !strcasecmp(name + n - 8, "password")) ||
           (n >= 6 && !strcasecmp(name + n - 6, "passwd"));
}

char *dg_sweep_shown_value(const char *name, const char *value)
{
    if (secret_param(name))
        return xstrdup("***");
    return !strcmp(name, "db") ? dg_url_redact(value) : dg_url_redact_text(value);
}

static char *shown_value(const char *name, const char *v)
{
    return dg_sweep_shown_value(name, v);
}

/* What stands for value k of p outside the process: its label, or the value shown. */
static char *shown_point_value(const dg_sweep_param *p, int k)
{
    return p->labels[k] ? xstrdup(p->labels[k]) : shown_value(p->name, p->values[k]);
}

/* Splits "LABEL:VALUE" (see sweep.h); *label = NULL when tok has no label. A scheme name
 * before the ':' makes tok a URL ("sqlite:/x.db"), unless a URL follows it: "pg:postgres://..."
 * would run as a path-form URL to a different server, so it is refused (the message quotes
 * tok redacted). Returns 0 or DG_E_INVAL. */
static int split_label(const char *param, char *tok, char **label, char **value, dg_err *err)
{
    *label = NULL;
    *value = tok;
    char *colon = strchr(tok, ':');
    if (!colon || colon == tok || !isalpha((unsigned char)tok[0]))
        return 0;
    for (char *c = tok; c < colon; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.'))
            return 0;
    *colon = '\0';
    const dg_backend_entry *scheme = dg_backend_lookup(tok);
    *colon = ':';
    if (scheme) {
        dg_url u;
        if (dg_url_parse(tok, &u, NULL) == 0) { /* "sqlite:/x.db", "postgres://...": a URL */
            dg_url_free(&u);
            return 0;
        }
        if (strstr(colon + 1, "://") || strchr(colon + 1, ':')) {
            char *shown = dg_url_redact_text(tok);
            int n = (int)(colon - tok);
            dg_err_fail(err, DG_E_INVAL,
                        "--vary %s: '%.*s' in '%s' is a database scheme, not a label: give the "
                        "value a label that is no scheme name (e.g. %.*s1:%s)",
                        param, n, tok, shown, n, tok, strchr(shown, ':') + 1);
            free(shown);
            return DG_E_INVAL;
        }
        return 0; /* a malformed URL: dg_connect() says what is wrong with it */
    }
    *colon = '\0';
    *label = tok;
    *value = colon + 1;
    return 0;
}

/* The ',' that ends the value starting at tok (NULL: none): not one inside a URL's host
 * list (db=a:mysql://u@h1,h2/db,b:...), which is in the part after "://" and before the
 * first '/' or '?'. */
static char *value_end(char *tok)
{
    char *c = strchr(tok, ',');
    const char *auth = strstr(tok, "://");
    if (!c || !auth || auth > c)
        return c;
    auth += 3;
    size_t in_hosts = strcspn(auth, "/?");
    while (c && c < auth + in_hosts)
        c = strchr(c + 1, ',');
    return c;
}

char *dg_sweep_shown_list(const char *name, const char *list)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    char *copy = xstrdup(list);
    for (char *tok = copy, *next; tok; tok = next) {
        next = value_end(tok);
        if (next)
            *next++ = '\0';
        char *label = NULL, *value = NULL, *shown;
        if (split_label(name, tok, &label, &value, NULL))
            shown = dg_url_redact_text(tok); /* refused later; still hidden */
        else if (label) {
            char *v = shown_value(name, value);
            shown = xasprintf("%s:%s", label, v);
            free(v);
        } else
            shown = shown_value(name, value);
        dg_sb_printf(&sb, "%s%s", tok == copy ? "" : ",", shown);
        free(shown);
    }
    free(copy);
    return dg_sb_take(&sb);
}

/* "p001-terminals=4-conn.cache_size=-2000-r1.json", with characters a file name should
 * not carry replaced by '_' and each value cut to 40 characters. */
static char *point_file(const dg_sweep *s, const dg_sweep_point *pt)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, pt->id);
    for (int p = 0; p < s->nparams; p++) {
        char *v = shown_point_value(&s->params[p], pt->vi[p]);
        dg_sb_printf(&sb, "-%s=", s->params[p].name);
        size_t n = 0;
        for (const char *c = v; *c && n < 40; c++, n++)
            dg_sb_addc(&sb, isalnum((unsigned char)*c) || *c == '-' || *c == '.' || *c == '_' ? *c : '_');
        free(v);
    }
    dg_sb_printf(&sb, "-r%d.json", pt->repeat);
    return dg_sb_take(&sb);
}

int dg_sweep_plan(const dg_setting *vary, int nvary, int repeat, const char *dir,
                  const char *command, dg_sweep *out, dg_err *err)
{
    dg_sweep s;
    memset(&s, 0, sizeof s);
    s.repeat = repeat < 1 ? 1 : repeat;
    s.dir = xstrdup(dir);
    s.command = xstrdup(command ? command : "");
    int rc = 0;
    for (int i = 0; i < nvary && rc == 0; i++) {
        if (!valid_param_name(vary[i].name)) {
            rc = dg_err_fail(err, DG_E_INVAL, "invalid --vary name '%s'", vary[i].name);
            break;
        }
        dg_sweep_param *p = find_param(&s, vary[i].name);
        if (!p) {
            s.params = xrealloc(s.params, sizeof *s.params * (size_t)(s.nparams + 1));
            p = &s.params[s.nparams++];
            p->name = xstrdup(vary[i].name);
            p->nvalues = 0;
            p->values = NULL;
            p->labels = NULL;
        }
        char *copy = xstrdup(vary[i].value);
        for (char *tok = *copy ? copy : NULL, *next; tok && rc == 0; tok = next) {
            next = value_end(tok);
            if (next)
                *next++ = '\0';
            char *label = NULL, *value = NULL;
            if (!*tok) {
                char *shown = secret_param(p->name) ? xstrdup("***")
                                                    : dg_url_redact_text(vary[i].value);
                rc = dg_err_fail(err, DG_E_INVAL,
                                 "--vary %s=%s has an empty value (expected NAME=V1,V2,... with "
                                 "no empty element)",
                                 p->name, shown);
                free(shown);
                break;
            }
            if ((rc = split_label(p->name, tok, &label, &value, err)))
                break;
            if (!*value) {
                rc = dg_err_fail(err, DG_E_INVAL, "--vary %s: the label '%s' has no value", p->name,
                                 label);
                break;
            }
            for (int k = 0; k < p->nvalues; k++) {
                if (!strcmp(p->values[k], value)) {
                    char *shown = shown_value(p->name, value);
                    rc = dg_err_fail(err, DG_E_INVAL, "--vary %s lists '%s' twice", p->name, shown);
                    free(shown);
                    break;
                }
                if (label && p->labels[k] && !strcmp(p->labels[k], label)) {
                    rc = dg_err_fail(err, DG_E_INVAL, "--vary %s uses the label '%s' twice",
                                     p->name, label);
                    break;
                }
            }
            if (rc)
                break;
            p->values = xrealloc(p->values, sizeof *p->values * (size_t)(p->nvalues + 1));
            p->labels = xrealloc(p->labels, sizeof *p->labels * (size_t)(p->nvalues + 1));
            p->labels[p->nvalues] = label ? xstrdup(label) : NULL;
            p->values[p->nvalues++] = xstrdup(value);
        }
        free(copy);
        if (rc == 0 && p->nvalues == 0)
            rc = dg_err_fail(err, DG_E_INVAL, "--vary %s has no values", vary[i].name);
    }
    if (rc) {
        dg_sweep_free(&s);
        return rc;
    }
    int combos = 1;
    for (int i = 0; i < s.nparams; i++) {
        combos *= s.params[i].nvalues;
        if (combos > 100000) {
            dg_sweep_free(&s);
            return dg_err_fail(err, DG_E_INVAL, "the sweep has more than 100000 points");
        }
    }
    s.npoints = combos * s.repeat;
    s.points = xcalloc((size_t)s.npoints, sizeof *s.points);
    for (int c = 0; c < combos; c++) {
        for (int r = 0; r < s.repeat; r++) {
            dg_sweep_point *pt = &s.points[c * s.repeat + r];
            snprintf(pt->id, sizeof pt->id, "p%03d", c + 1);
            pt->vi = xcalloc((size_t)s.nparams, sizeof *pt->vi);
            /* the first parameter varies slowest */
            int rest = c;
            for (int p = s.nparams - 1; p >= 0; p--) {
                pt->vi[p] = rest % s.params[p].nvalues;
                rest /= s.params[p].nvalues;
            }
            pt->repeat = r + 1;
            pt->file = point_file(&s, pt);
        }
    }
    *out = s;
    return 0;
}

void dg_sweep_free(dg_sweep *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nparams; i++) {
        for (int k = 0; k < s->params[i].nvalues; k++) {
            free(s->params[i].values[k]);
            free(s->params[i].labels[k]);
        }
        free(s->params[i].values);
        free(s->params[i].labels);
        free(s->params[i].name);
    }
    free(s->params);
    for (int i = 0; i < s->npoints; i++) {
        free(s->points[i].vi);
        free(s->points[i].file);
    }
    free(s->points);
    free(s->dir);
    free(s->command);
    memset(s, 0, sizeof *s);
}

const char *dg_sweep_label(const dg_sweep *s, const dg_sweep_point *pt, int p)
{
    return s->params[p].labels[pt->vi[p]];
}

const char *dg_sweep_value(const dg_sweep *s, const dg_sweep_point *pt, int p)
{
    return s->params[p].values[pt->vi[p]];
}

/* Appends v to sb as one shell word: as it is when every byte is one the shell takes
 * literally, else in single quotes (a quote inside as '\''). */
static void add_shell_word(dg_strbuf *sb, const char *v)
{
    bool plain = *v != '\0';
    for (const char *c = v; *c && plain; c++)
        plain = isalnum((unsigned char)*c) || strchr("_-+=.,:/@%^", *c);
    if (plain) {
        dg_sb_add(sb, v);
        return;
    }
    dg_sb_addc(sb, '\'');
    for (const char *c = v; *c; c++)
        if (*c == '\'')
            dg_sb_add(sb, "'\\''");
        else
            dg_sb_addc(sb, *c);
    dg_sb_addc(sb, '\'');
}

int dg_sweep_expand(const dg_sweep *s, const dg_sweep_point *pt, const char *tmpl, char **out,
                    dg_err *err)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    const char *p = tmpl;
    while (*p) {
        if (*p != '{') {
            dg_sb_addc(&sb, *p++);
            continue;
        }
        const char *close = strchr(p, '}');
        if (!close) {
            dg_sb_free(&sb);
            char *shown = dg_url_redact_text(tmpl);
            dg_err_fail(err, DG_E_INVAL, "unterminated '{' in hook command: %s", shown);
            free(shown);
            return DG_E_INVAL;
        }
        char name[128];
        size_t n = (size_t)(close - p - 1);
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, p + 1, n);
        name[n] = '\0';
        bool found = false;
        if (!strcmp(name, "point")) {
            dg_sb_add(&sb, pt->id);
            found = true;
        } else if (!strcmp(name, "repeat")) {
            dg_sb_printf(&sb, "%d", pt->repeat);
            found = true;
        } else if (!strcmp(name, "dir")) {
            add_shell_word(&sb, s->dir);
            found = true;
        } else {
            for (int i = 0; i < s->nparams; i++)
                if (!strcmp(s->params[i].name, name)) {
                    /* a shell command line is visible to every user of the machine (ps) */
                    char *v = shown_value(name, dg_sweep_value(s, pt, i));
                    add_shell_word(&sb, v);
                    free(v);
                    found = true;
                }
        }
        if (!found) {
            dg_sb_free(&sb);
            return dg_err_fail(err, DG_E_INVAL,
                               "unknown placeholder '{%s}' in hook command (known: the --vary names, "
                               "point, repeat, dir)",
                               name);
        }
        p = close + 1;
    }
    *out = dg_sb_take(&sb);
    return 0;
}

static json_t *params_json(const dg_sweep *s, const dg_sweep_point *pt)
{
    json_t *o = json_object();
    for (int p = 0; p < s->nparams; p++) {
        char *v = shown_point_value(&s->params[p], pt->vi[p]);
        json_object_set_new(o, s->params[p].name, json_string(v));
        free(v);
    }
    return o;
}

/* The redacted values of the labelled parameters at pt; NULL when none is labelled. */
static json_t *values_json(const dg_sweep *s, const dg_sweep_point *pt)
{
    json_t *o = NULL;
    for (int p = 0; p < s->nparams; p++) {
        if (!dg_sweep_label(s, pt, p))
            continue;
        if (!o)
            o = json_object();
        char *v = shown_value(s->params[p].name, dg_sweep_value(s, pt, p));
        json_object_set_new(o, s->params[p].name, json_string(v));
        free(v);
    }
    return o;
}

json_t *dg_sweep_point_json(const dg_sweep *s, const dg_sweep_point *pt)
{
    json_t *o = json_pack("{s:o, s:s, s:i}", "params", params_json(s, pt), "point", pt->id,
                          "repeat", pt->repeat);
    json_t *v = values_json(s, pt);
    if (v)
        json_object_set_new(o, "values", v);
    return o;
}

int dg_sweep_write_index(const dg_sweep *s, dg_err *err)
{
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "kind", json_string("sweep"));
    json_object_set_new(doc, "command", json_string(s->command));
    json_t *params = json_array();
    for (int p = 0; p < s->nparams; p++) {
        json_t *vals = json_array(), *labelled = NULL;
        for (int k = 0; k < s->params[p].nvalues; k++) {
            char *v = shown_point_value(&s->params[p], k);
            json_array_append_new(vals, json_string(v));
            free(v);
            if (s->params[p].labels[k]) { /* label -> the value it stands for */
                if (!labelled)
                    labelled = json_object();
                v = shown_value(s->params[p].name, s->params[p].values[k]);
                json_object_set_new(labelled, s->params[p].labels[k], json_string(v));
                free(v);
            }
        }
        json_t *jp = json_pack("{s:s, s:o}", "name", s->params[p].name, "values", vals);
        if (labelled)
            json_object_set_new(jp, "labels", labelled);
        json_array_append_new(params, jp);
    }
    json_object_set_new(doc, "parameters", params);
    json_object_set_new(doc, "repeat", json_integer(s->repeat));
    if (s->until_ci_pct > 0)
        json_object_set_new(doc, "until_ci",
                            json_pack("{s:o, s:i, s:i, s:s}", "pct", dg_json_real(s->until_ci_pct),
                                      "min_repeat", s->min_repeat, "max_repeat", s->repeat,
                                      "metric", "throughput (a restore's: load speed)"));
    json_object_set_new(doc, "seed", json_integer((json_int_t)s->seed));
    json_t *points = json_array();
    for (int i = 0; i < s->npoints; i++) {
        const dg_sweep_point *pt = &s->points[i];
        json_t *jp = json_pack("{s:s, s:o, s:i, s:s, s:s, s:i}", "id", pt->id, "params",
                               params_json(s, pt), "repeat", pt->repeat, "file", pt->file,
                               "status", dg_point_status_name(pt->status), "exit", pt->exit);
        json_t *v = values_json(s, pt);
        if (v)
            json_object_set_new(jp, "values", v);
        if (pt->ci_stopped)
            json_object_set_new(jp, "ci",
                                json_pack("{s:i, s:o, s:s}", "runs", pt->ci_runs, "half_width_pct",
                                          dg_json_real(pt->ci_half_pct), "stopped", pt->ci_stopped));
        json_array_append_new(points, jp);
    }
    json_object_set_new(doc, "points", points);
    char *path = xasprintf("%s/experiment.json", s->dir);
    int rc = dg_result_write(doc, path, err);
    free(path);
    json_decref(doc);
    return rc;
}

int dg_sweep_resume(dg_sweep *s, dg_err *err)
{
    char *path = xasprintf("%s/experiment.json", s->dir);
    json_t *doc = NULL;
    int rc = dg_result_read(path, &doc, err);
    free(path);
    if (rc)
        return rc;
    /* same grid? compare the parameter lists as they were written */
    json_t *params = json_object_get(doc, "parameters");
    bool same = json_is_array(params) && (int)json_array_size(params) == s->nparams &&
                json_integer_value(json_object_get(doc, "repeat")) == s->repeat;
    for (int p = 0; same && p < s->nparams; p++) {
        json_t *jp = json_array_get(params, (size_t)p);
        json_t *vals = json_object_get(jp, "values");
        const char *name = json_string_value(json_object_get(jp, "name"));
        same = name && !strcmp(name, s->params[p].name) &&
               (int)json_array_size(vals) == s->params[p].nvalues;
        for (int k = 0; same && k < s->params[p].nvalues; k++) {
            char *v = shown_point_value(&s->params[p], k);
            const char *old = json_string_value(json_array_get(vals, (size_t)k));
            same = old && !strcmp(old, v);
            free(v);
        }
    }
    if (!same) {
        json_decref(doc);
        return dg_err_fail(err, DG_E_INVAL,
                           "cannot resume: %s/experiment.json was made with other --vary values or "
                           "--repeat",
                           s->dir);
    }
    json_t *seed = json_object_get(doc, "seed");
    if (json_is_integer(seed) && json_integer_value(seed) >= 0)
        s->seed = (uint64_t)json_integer_value(seed);
    json_t *points = json_object_get(doc, "points");
    size_t i;
    json_t *jp;
    json_array_foreach(points, i, jp)
    {
        const char *file = json_string_value(json_object_get(jp, "file"));
        for (int k = 0; k < s->npoints; k++) {
            if (file && !strcmp(file, s->points[k].file)) {
                s->points[k].status = status_from_name(json_string_value(json_object_get(jp, "status")));
                s->points[k].exit = (int)json_integer_value(json_object_get(jp, "exit"));
                json_t *ci = json_object_get(jp, "ci");
                const char *why = json_string_value(json_object_get(ci, "stopped"));
                if (why) { /* a point --until-ci settled */
                    s->points[k].ci_runs = (int)json_integer_value(json_object_get(ci, "runs"));
                    s->points[k].ci_half_pct = json_number_value(json_object_get(ci, "half_width_pct"));
                    s->points[k].ci_stopped = !strcmp(why, "cap") ? "cap" : "ci reached";
                }
            }
        }
    }
    json_decref(doc);
    return 0;
}
