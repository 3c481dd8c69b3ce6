/*
 * restore_log.c - a restore tool's verbose output read into steps (restore_log.h says
 * which formats and how each is read).
 *
 * Layout: detection, the step list, gbak, pg_restore, psql, the entry points.
 */
#include "session/restore_log.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- detection ------------------------------------------------------------------------------ */

dg_rlog_format dg_rlog_detect(const char *const *argv)
{
    if (!argv || !argv[0])
        return DG_RLOG_NONE;
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    static const struct {
        const char *name;
        dg_rlog_format f;
    } tools[] = {
        {"gbak", DG_RLOG_GBAK},         {"pg_restore", DG_RLOG_PG_RESTORE},
        {"psql", DG_RLOG_PSQL},         {"mariadb", DG_RLOG_MARIADB},
        {"mysql", DG_RLOG_MARIADB},     {"mariadb-import", DG_RLOG_MARIADB},
        {"mysqlimport", DG_RLOG_MARIADB},
    };
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (!strcmp(base, tools[i].name))
            return tools[i].f;
    return DG_RLOG_NONE;
}

const char *dg_rlog_format_name(dg_rlog_format f)
{
    switch (f) {
    case DG_RLOG_GBAK: return "gbak";
    case DG_RLOG_PG_RESTORE: return "pg_restore";
    case DG_RLOG_PSQL: return "psql";
    case DG_RLOG_MARIADB: return "mariadb";
    case DG_RLOG_NONE: break;
    }
    return "none";
}

/* ---- the step list -------------------------------------------------------------------------- */

static dg_rlog_step *add_step(dg_rlog *l, const char *kind, const char *name, size_t name_len,
                              double start_s)
{
    if (l->nsteps == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->steps = xrealloc(l->steps, (size_t)l->cap * sizeof *l->steps);
    }
    dg_rlog_step *s = &l->steps[l->nsteps++];
    memset(s, 0, sizeof *s);
    if (name_len >= sizeof s->name)
        name_len = sizeof s->name - 1;
    memcpy(s->name, name, name_len);
    s->name[name_len] = '\0';
    snprintf(s->kind, sizeof s->kind, "%s", kind);
    s->start_s = s->elapsed_s = start_s;
    s->rows = s->page_reads = s->page_writes = -1;
    return s;
}

/* Ends the open step at t_s (its time: from its start). */
static void close_open(dg_rlog *l, double t_s)
{
    if (l->open < 0)
        return;
    dg_rlog_step *s = &l->steps[l->open];
    s->elapsed_s = t_s;
    s->seconds = t_s > s->start_s ? t_s - s->start_s : 0;
    l->open = -1;
}

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The length of s without trailing blanks. */
static size_t trimmed_len(const char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return n;
}

/* ---- gbak ----------------------------------------------------------------------------------- */

/* "gbak: time     delta  reads  writes": the statistics columns, in order. */
static bool gbak_header(dg_rlog *l, const char *p)
{
    char cols[4];
    int n = 0;
    for (;;) {
        p = skip_space(p);
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ' && *e != '\t')
            e++;
        size_t len = (size_t)(e - p);
        char c = len == 4 && !strncmp(p, "time", 4)     ? 't'
                 : len == 5 && !strncmp(p, "delta", 5)  ? 'd'
                 : len == 5 && !strncmp(p, "reads", 5)  ? 'r'
                 : len == 6 && !strncmp(p, "writes", 6) ? 'w'
                                                        : 0;
        if (!c || n == 4)
            return false;
        cols[n++] = c;
        p = e;
    }
    if (n == 0)
        return false;
    memcpy(l->cols, cols, sizeof cols);
    l->ncols = n;
    l->tool_times = memchr(cols, 't', (size_t)n) != NULL;
    return true;
}

/* The figures of one gbak line; false when the line does not carry them all (a message
 * such as "gbak:adjusting the ONLINE and FORCED WRITES flags"). */
typedef struct gbak_figs {
    double t, d;
    int64_t r, w;
    bool has_t, has_d;
} gbak_figs;

static bool gbak_figures(const dg_rlog *l, const char **pp, gbak_figs *f)
{
    const char *p = *pp;
    memset(f, 0, sizeof *f);
    for (int i = 0; i < l->ncols; i++) {
        p = skip_space(p);
        if (!isdigit((unsigned char)*p))
            return false;
        char *end;
        double v = strtod(p, &end);
        /* a figure gbak could print: finite, and within what a count or a time can be */
        if (end == p || (*end != ' ' && *end != '\t') || !(v >= 0 && v < 1e15))
            return false;
        switch (l->cols[i]) {
        case 't': f->t = v; f->has_t = true; break;
        case 'd': f->d = v; f->has_d = true; break;
        case 'r': f->r = (int64_t)v; break;
        case 'w': f->w = (int64_t)v; break;
        }
        p = end;
    }
    *pp = skip_space(p);
    return true;
}

static bool has_col(const dg_rlog *l, char c)
{
    return l->ncols && memchr(l->cols, c, (size_t)l->ncols) != NULL;
}

static void gbak_line(dg_rlog *l, const char *line, double arrival)
{
    if (!starts(line, "gbak:"))
        return;
    const char *p = line + 5;
    if (l->nlines == 1 || (l->ncols == 0 && l->nsteps == 0)) {
        if (gbak_header(l, p))
            return;
    }
    gbak_figs f;
    bool figs = l->ncols > 0 && gbak_figures(l, &p, &f);
    if (!figs) {
        memset(&f, 0, sizeof f);
        p = skip_space(p);
    }
    double t = figs && f.has_t ? f.t : arrival;
    double delta = figs && f.has_d ? f.d : t - l->last_t;
    if (delta < 0)
        delta = 0;
    if (figs || l->ncols == 0)
        l->last_t = t;
    bool reads = figs && has_col(l, 'r'), writes = figs && has_col(l, 'w');
    if (l->open >= 0) { /* a table's data: its reads and writes until its last records line */
        l->r_acc += f.r;
        l->w_acc += f.w;
    }
    static const char data[] = "restoring data for table ", index[] = "activating and creating deferred index ";
    if (starts(p, data)) {
        l->open = -1;
        const char *name = p + sizeof data - 1;
        add_step(l, "table", name, trimmed_len(name), t);
        l->open = l->nsteps - 1;
        l->r_acc = l->w_acc = 0;
        return;
    }
    if (starts(p, index)) {
        l->open = -1;
        const char *name = p + sizeof index - 1;
        dg_rlog_step *s = add_step(l, "index", name, trimmed_len(name), t - delta);
        s->elapsed_s = t;
        s->seconds = delta;
        s->page_reads = reads ? f.r : -1;
        s->page_writes = writes ? f.w : -1;
        return;
    }
    char *end;
    long long n = strtoll(p, &end, 10);
    if (l->open >= 0 && end != p && starts(skip_space(end), "records restored")) {
        dg_rlog_step *s = &l->steps[l->open];
        s->rows = n;
        s->elapsed_s = t;
        s->seconds = t > s->start_s ? t - s->start_s : 0;
        s->page_reads = reads ? l->r_acc : -1;
        s->page_writes = writes ? l->w_acc : -1;
    }
}

/* ---- pg_restore ----------------------------------------------------------------------------- */

/* The kind of a pg_restore archive entry's description ("TABLE DATA", "INDEX",
 * "FK CONSTRAINT", "SEQUENCE SET", ...). */
static const char *pg_kind(const char *desc, size_t n)
{
    if (n == 10 && !strncmp(desc, "TABLE DATA", 10))
        return "table";
    if (n == 5 && !strncmp(desc, "INDEX", 5))
        return "index";
    if ((n == 10 && !strncmp(desc, "CONSTRAINT", 10)) ||
        (n == 13 && !strncmp(desc, "FK CONSTRAINT", 13)))
        return "constraint";
    return "ddl";
}

/* The description words of "INDEX public.x" / "FK CONSTRAINT public.t t_fk": the
 * upper-case words before the name. */
static size_t pg_desc_len(const char *p)
{
    size_t n = 0, last = 0;
    while (p[n]) {
        size_t w = n;
        while (p[w] && (isupper((unsigned char)p[w]) || p[w] == '_'))
            w++;
        if (w == n || (p[w] && p[w] != ' '))
            break;
        last = w;
        n = p[w] ? w + 1 : w;
    }
    return last;
}

/* A name in quotes ("\"public.t\"") without them. */
static void unquoted(const char *p, const char **name, size_t *len)
{
    size_t n = trimmed_len(p);
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
        *name = p + 1;
        *len = n - 2;
    } else {
        *name = p;
        *len = n;
    }
}

static void pg_restore_line(dg_rlog *l, const char *line, double t)
{
    static const char tool[] = "pg_restore: ";
    if (!starts(line, tool))
        return; /* a continuation (a statement quoted under an error) */
    const char *p = line + sizeof tool - 1;
    static const char launching[] = "launching item ", finished[] = "finished item ",
                      creating[] = "creating ",
                      data[] = "processing data for table ", executing[] = "executing ";
    if (starts(p, launching) || starts(p, finished)) { /* -j: items run side by side */
        bool launch = starts(p, launching);
        char *end;
        long long id = strtoll(p + (launch ? sizeof launching : sizeof finished) - 1, &end, 10);
        const char *rest = skip_space(end);
        size_t dl = pg_desc_len(rest);
        if (launch) {
            const char *name = skip_space(rest + dl);
            char full[128];
            int k = snprintf(full, sizeof full, "%.*s %.*s", (int)dl, rest, (int)trimmed_len(name), name);
            dg_rlog_step *s = add_step(l, pg_kind(rest, dl), full, k < 0 ? 0 : (size_t)k, t);
            s->rows = id; /* the item id until it finishes (rows are not told) */
            s->seconds = -1;
            return;
        }
        for (int i = l->nsteps - 1; i >= 0; i--) {
            dg_rlog_step *s = &l->steps[i];
            if (s->seconds < 0 && s->rows == id) {
                s->elapsed_s = t;
                s->seconds = t > s->start_s ? t - s->start_s : 0;
                s->rows = -1;
                break;
            }
        }
        return;
    }
    if (starts(p, "entering main parallel loop")) {
        close_open(l, t);
        l->parallel = true;
        return;
    }
    if (starts(p, "finished main parallel loop")) {
        l->parallel = false;
        return;
    }
    if (l->parallel)
        return; /* a worker's own line about the item it was launched for */
    close_open(l, t); /* a serial step ends where pg_restore reports the next thing */
    static const char dropping[] = "dropping ";
    if (starts(p, dropping)) {
        const char *rest = p + sizeof dropping - 1;
        char full[128];
        int k = snprintf(full, sizeof full, "DROP %.*s", (int)trimmed_len(rest), rest);
        add_step(l, "drop", full, k < 0 ? 0 : (size_t)k, t);
        l->open = l->nsteps - 1;
    } else if (starts(p, data)) {
        const char *name;
        size_t n;
        unquoted(p + sizeof data - 1, &name, &n);
        add_step(l, "table", name, n, t);
        l->open = l->nsteps - 1;
    } else if (starts(p, creating) || starts(p, executing)) {
        /* "processing item 215 TABLE t" (-j, before its loop) is followed by "creating TABLE
           \"public.t\"": the step is that one */
        const char *rest = p + (starts(p, creating) ? sizeof creating : sizeof executing) - 1;
        size_t dl = pg_desc_len(rest);
        const char *name;
        size_t n;
        unquoted(skip_space(rest + dl), &name, &n);
        char full[128];
        int k = snprintf(full, sizeof full, "%.*s %.*s", (int)dl, rest, (int)n, name);
        add_step(l, pg_kind(rest, dl), full, k < 0 ? 0 : (size_t)k, t);
        l->open = l->nsteps - 1;
    }
}

/* ---- psql ----------------------------------------------------------------------------------- */

static void psql_line(dg_rlog *l, const char *line, double t)
{
    static const struct {
        const char *tag, *kind;
    } tags[] = {
        {"COPY ", "table"},         {"CREATE INDEX", "index"},    {"ALTER TABLE", "constraint"},
        {"CREATE TABLE", "ddl"},    {"CREATE SEQUENCE", "ddl"},   {"CREATE VIEW", "ddl"},
        {"CREATE FUNCTION", "ddl"}, {"INSERT 0 ", "table"},
    };
    size_t n = trimmed_len(line);
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        size_t tl = strlen(tags[i].tag);
        if (n < tl || strncmp(line, tags[i].tag, tl))
            continue;
        const char *rest = line + tl;
        if (tags[i].tag[tl - 1] == ' ') { /* a count must follow */
            char *end;
            long long rows = strtoll(rest, &end, 10);
            if (end == rest || (size_t)(end - line) != n)
                break;
            int k = 0;
            for (int s = 0; s < l->nsteps; s++)
                k += !strcmp(l->steps[s].kind, tags[i].kind);
            char name[64];
            int len = snprintf(name, sizeof name, "%.*s#%d", (int)tl, tags[i].tag, k + 1);
            dg_rlog_step *s = add_step(l, tags[i].kind, name, (size_t)len, l->last_t);
            s->rows = rows;
            s->elapsed_s = t;
            s->seconds = t - s->start_s;
        } else if (n == tl) {
            int k = 0;
            for (int s = 0; s < l->nsteps; s++)
                k += !strncmp(l->steps[s].name, tags[i].tag, tl);
            char name[64];
            int len = snprintf(name, sizeof name, "%s #%d", tags[i].tag, k + 1);
            dg_rlog_step *s = add_step(l, tags[i].kind, name, (size_t)len, l->last_t);
            s->elapsed_s = t;
            s->seconds = t - s->start_s;
        }
        break;
    }
    l->last_t = t; /* every line: the next statement began after this one's answer */
}

/* ---- the entry points ----------------------------------------------------------------------- */

void dg_rlog_init(dg_rlog *l, dg_rlog_format f)
{
    memset(l, 0, sizeof *l);
    l->format = f;
    l->open = -1;
}

void dg_rlog_free(dg_rlog *l)
{
    if (!l)
        return;
    free(l->steps);
    l->steps = NULL;
    l->nsteps = l->cap = 0;
}

void dg_rlog_line(dg_rlog *l, const char *line, double t_s)
{
    l->nlines++;
    switch (l->format) {
    case DG_RLOG_GBAK: gbak_line(l, line, t_s); break;
    case DG_RLOG_PG_RESTORE: pg_restore_line(l, line, t_s); break;
    case DG_RLOG_PSQL: psql_line(l, line, t_s); break;
    case DG_RLOG_MARIADB:
    case DG_RLOG_NONE: break;
    }
}

void dg_rlog_end(dg_rlog *l, double t_s)
{
    if (l->format == DG_RLOG_PG_RESTORE)
        close_open(l, t_s);
    l->open = -1;
    for (int i = 0; i < l->nsteps; i++) { /* a -j item that never finished */
        dg_rlog_step *s = &l->steps[i];
        if (s->seconds < 0) {
            s->elapsed_s = t_s;
            s->seconds = t_s > s->start_s ? t_s - s->start_s : 0;
            s->rows = -1;
        }
    }
}
