/*
 * doc.c - the containers of the report model (doc.h): report, sections, items,
 * tables, charts; their builders, the chart-to-table conversion, and freeing.
 */
#include "report/doc.h"

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "report/numfmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

/* Grows *arr (element size sz) so that index n fits. */
static void *grow(void *arr, int n, int *cap, size_t sz)
{
    if (n < *cap)
        return arr;
    *cap = *cap ? *cap * 2 : 8;
    while (*cap <= n)
        *cap *= 2;
    return xrealloc(arr, (size_t)*cap * sz);
}

dg_report *dg_report_new(const char *title)
{
    dg_report *r = xcalloc(1, sizeof *r);
    r->title = xstrdup(title);
    return r;
}

void dg_report_note(dg_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    r->notes = xrealloc(r->notes, (size_t)(r->nnotes + 1) * sizeof *r->notes);
    r->notes[r->nnotes++] = dg_sb_take(&sb);
}

void dg_report_source(dg_report *r, const char *path)
{
    r->sources = xrealloc(r->sources, (size_t)(r->nsources + 1) * sizeof *r->sources);
    r->sources[r->nsources++] = xstrdup(path);
}

dg_rep_section *dg_report_section(dg_report *r, const char *id, const char *title)
{
    r->sections = grow(r->sections, r->nsections, &r->cap, sizeof *r->sections);
    dg_rep_section *s = &r->sections[r->nsections++];
    memset(s, 0, sizeof *s);
    s->id = xstrdup(id);
    s->title = xstrdup(title);
    return s;
}

static dg_rep_item *add_item(dg_rep_section *s, dg_item_kind kind)
{
    s->items = grow(s->items, s->nitems, &s->cap, sizeof *s->items);
    dg_rep_item *it = &s->items[s->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

void dg_rep_text(dg_rep_section *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    add_item(s, DG_ITEM_TEXT)->text = dg_sb_take(&sb);
}

static dg_rep_table *table_new(const char *id, const char *title, dg_table_style style)
{
    dg_rep_table *t = xcalloc(1, sizeof *t);
    t->id = xstrdup(id);
    t->title = xstrdup(title);
    t->style = style;
    if (style == DG_TABLE_FACTS) {
        dg_rep_col_add(t, "item", NULL, DG_PREC_AUTO);
        dg_rep_col_add(t, "value", NULL, DG_PREC_AUTO);
    }
    return t;
}

dg_rep_table *dg_rep_table_add(dg_rep_section *s, const char *id, const char *title,
                               dg_table_style style)
{
    dg_rep_table *t = table_new(id, title, style);
    add_item(s, DG_ITEM_TABLE)->table = t;
    return t;
}

void dg_rep_col_add(dg_rep_table *t, const char *name, const char *unit, int prec)
{
    /* columns are declared before the first row */
    t->cols = xrealloc(t->cols, (size_t)(t->ncols + 1) * sizeof *t->cols);
    t->cols[t->ncols].name = xstrdup(name);
    t->cols[t->ncols].unit = dup_or_null(unit);
    t->cols[t->ncols].prec = prec;
    t->ncols++;
}

void dg_rep_row(dg_rep_table *t)
{
    int need = (t->nrows + 1) * t->ncols;
    if (need > t->cap) {
        int cap = t->cap ? t->cap * 2 : 16 * t->ncols;
        while (cap < need)
            cap *= 2;
        t->cells = xrealloc(t->cells, (size_t)cap * sizeof *t->cells);
        t->cap = cap;
    }
    for (int c = 0; c < t->ncols; c++) {
        t->cells[t->nrows * t->ncols + c].num = NAN;
        t->cells[t->nrows * t->ncols + c].str = NULL;
    }
    t->nrows++;
}

static dg_rep_cell *last_cell(dg_rep_table *t, int col)
{
    return &t->cells[(t->nrows - 1) * t->ncols + col];
}

void dg_rep_num(dg_rep_table *t, int col, double v)
{
    dg_rep_cell *c = last_cell(t, col);
    free(c->str);
    c->str = NULL;
    c->num = v;
}

void dg_rep_str(dg_rep_table *t, int col, const char *s)
{
    dg_rep_cell *c = last_cell(t, col);
    free(c->str);
    c->str = xstrdup(s ? s : "");
}

void dg_rep_strf(dg_rep_table *t, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    dg_rep_cell *c = last_cell(t, col);
    free(c->str);
    c->str = dg_sb_take(&sb);
}

void dg_rep_fact(dg_rep_table *t, const char *name, const char *value)
{
    if (!value)
        return;
    dg_rep_row(t);
    dg_rep_str(t, 0, name);
    dg_rep_str(t, 1, value);
}

dg_rep_chart *dg_rep_chart_add(dg_rep_section *s, const char *id, const char *title,
                               dg_chart_kind kind)
{
    dg_rep_chart *c = xcalloc(1, sizeof *c);
    c->id = xstrdup(id);
    c->title = xstrdup(title);
    c->kind = kind;
    c->x.ref = c->y.ref = c->y2.ref = NAN;
    add_item(s, DG_ITEM_CHART)->chart = c;
    return c;
}

void dg_rep_axis_set(dg_rep_axis *a, const char *label, const char *unit)
{
    free(a->label);
    free(a->unit);
    a->label = xstrdup(label);
    a->unit = dup_or_null(unit);
}

void dg_rep_axis_cat(dg_rep_axis *a, const char *cat)
{
    a->cats = xrealloc(a->cats, (size_t)(a->ncats + 1) * sizeof *a->cats);
    a->cats[a->ncats++] = xstrdup(cat);
}

dg_rep_series *dg_rep_series_add(dg_rep_chart *c, const char *name)
{
    c->series = xrealloc(c->series, (size_t)(c->nseries + 1) * sizeof *c->series);
    dg_rep_series *s = &c->series[c->nseries++];
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name);
    return s;
}

void dg_rep_point_add(dg_rep_series *s, double x, double y, double lo, double hi)
{
    s->pts = grow(s->pts, s->n, &s->cap, sizeof *s->pts);
    s->pts[s->n++] = (dg_rep_point){x, y, lo, hi};
}

int dg_rep_chart_points(const dg_rep_chart *c)
{
    int n = 0;
    for (int i = 0; i < c->nseries; i++)
        for (int j = 0; j < c->series[i].n; j++)
            n += isfinite(c->series[i].pts[j].y);
    return n;
}

void dg_rep_chart_autolog(dg_rep_chart *c, bool x_axis, double span)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (int j = 0; j < c->series[i].n; j++) {
            const dg_rep_point *p = &c->series[i].pts[j];
            double v[3] = {x_axis ? p->x : p->y, p->lo, p->hi};
            for (int k = 0; k < (x_axis ? 1 : 3); k++) {
                if (!isfinite(v[k]))
                    continue;
                if (v[k] <= 0)
                    return;
                lo = fmin(lo, v[k]);
                hi = fmax(hi, v[k]);
            }
        }
    if (lo < hi && hi / lo >= span)
        (x_axis ? &c->x : &c->y)->log = true;
}

static char *col_name(const char *a, const char *b)
{
    return b ? xasprintf("%s %s", a, b) : xstrdup(a);
}

dg_rep_table *dg_rep_chart_table(const dg_rep_chart *c)
{
    dg_rep_table *t = table_new(c->id, c->title, DG_TABLE_GRID);
    bool cat = c->x.ncats > 0;
    dg_rep_col_add(t, c->x.label ? c->x.label : "x", cat ? NULL : c->x.unit, DG_PREC_AUTO);
    /* whisker columns only for series that have whiskers */
    bool *wh = xcalloc((size_t)c->nseries + 1, sizeof *wh);
    for (int i = 0; i < c->nseries; i++) {
        const dg_rep_series *s = &c->series[i];
        for (int j = 0; j < s->n; j++)
            if (isfinite(s->pts[j].lo) || isfinite(s->pts[j].hi))
                wh[i] = true;
        const char *yname = c->nseries == 1 && c->y.label ? c->y.label : s->name;
        const char *yunit = s->right ? c->y2.unit : c->y.unit;
        /* y values may span orders of magnitude: each keeps its own digits */
        dg_rep_col_add(t, yname, yunit, DG_PREC_EACH);
        if (wh[i]) {
            char *a = col_name(yname, c->lo_name ? c->lo_name : "low");
            char *b = col_name(yname, c->hi_name ? c->hi_name : "high");
            dg_rep_col_add(t, a, yunit, DG_PREC_EACH);
            dg_rep_col_add(t, b, yunit, DG_PREC_EACH);
            free(a);
            free(b);
        }
    }
    /* rows: the distinct x values in order of first appearance (categorical: by index) */
    int nx = 0, capx = 0;
    double *xs = NULL;
    if (cat) {
        nx = c->x.ncats;
        xs = xmalloc((size_t)(nx ? nx : 1) * sizeof *xs);
        for (int k = 0; k < nx; k++)
            xs[k] = k;
    } else {
        for (int i = 0; i < c->nseries; i++)
            for (int j = 0; j < c->series[i].n; j++) {
                double x = c->series[i].pts[j].x;
                int k = 0;
                while (k < nx && xs[k] != x)
                    k++;
                if (k == nx) {
                    xs = grow(xs, nx, &capx, sizeof *xs);
                    xs[nx++] = x;
                }
            }
        /* numeric axes read best in increasing order (insertion sort: few values) */
        for (int a = 1; a < nx; a++)
            for (int b = a; b > 0 && xs[b - 1] > xs[b]; b--) {
                double tmp = xs[b];
                xs[b] = xs[b - 1];
                xs[b - 1] = tmp;
            }
    }
    for (int k = 0; k < nx; k++) {
        dg_rep_row(t);
        if (cat)
            dg_rep_str(t, 0, c->x.cats[k]);
        else
            dg_rep_num(t, 0, xs[k]);
        int col = 1;
        for (int i = 0; i < c->nseries; i++) {
            const dg_rep_series *s = &c->series[i];
            for (int j = 0; j < s->n; j++)
                if (s->pts[j].x == xs[k]) {
                    dg_rep_num(t, col, s->pts[j].y);
                    if (wh[i]) {
                        dg_rep_num(t, col + 1, s->pts[j].lo);
                        dg_rep_num(t, col + 2, s->pts[j].hi);
                    }
                    break;
                }
            col += wh[i] ? 3 : 1;
        }
    }
    free(xs);
    free(wh);
    /* what the chart says beside its lines: its note, and its marks (events, the cache and
       RAM on a size axis), at their x */
    dg_strbuf note = DG_STRBUF_INIT;
    if (c->note)
        dg_sb_add(&note, c->note);
    for (int i = 0; i < c->nmarks; i++) {
        char x[64];
        const char *sep = i ? "; "
                          : !note.len                             ? "Marked: "
                          : dg_sb_str(&note)[note.len - 1] == '.' ? " Marked: "
                                                                  : ". Marked: ";
        dg_sb_printf(&note, "%s%s at %s %s", sep,
                     c->marks[i].label, c->x.label ? c->x.label : "x",
                     dg_rep_fmt_num(c->marks[i].x, 2, x, sizeof x));
        if (c->x.unit)
            dg_sb_printf(&note, " %s", c->x.unit);
    }
    if (note.len)
        t->note = dg_sb_take(&note);
    dg_sb_free(&note);
    return t;
}

void dg_rep_table_free(dg_rep_table *t)
{
    if (!t)
        return;
    for (int c = 0; c < t->ncols; c++) {
        free(t->cols[c].name);
        free(t->cols[c].unit);
    }
    for (int i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i].str);
    free(t->cols);
    free(t->cells);
    free(t->id);
    free(t->title);
    free(t->note);
    free(t);
}

static void axis_free(dg_rep_axis *a)
{
    free(a->label);
    free(a->unit);
    for (int i = 0; i < a->ncats; i++)
        free(a->cats[i]);
    free(a->cats);
}

void dg_rep_mark_add(dg_rep_chart *c, double x, const char *label)
{
    c->marks = xrealloc(c->marks, (size_t)(c->nmarks + 1) * sizeof *c->marks);
    c->marks[c->nmarks].x = x;
    c->marks[c->nmarks].label = xstrdup(label);
    c->nmarks++;
}

static void chart_free(dg_rep_chart *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nseries; i++) {
        free(c->series[i].name);
        free(c->series[i].pts);
    }
    free(c->series);
    for (int i = 0; i < c->nmarks; i++)
        free(c->marks[i].label);
    free(c->marks);
    axis_free(&c->x);
    axis_free(&c->y);
    axis_free(&c->y2);
    free(c->id);
    free(c->title);
    free(c->note);
    free(c->lo_name);
    free(c->hi_name);
    free(c);
}

void dg_report_free(dg_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nsections; i++) {
        dg_rep_section *s = &r->sections[i];
        for (int j = 0; j < s->nitems; j++) {
            free(s->items[j].text);
            dg_rep_table_free(s->items[j].table);
            chart_free(s->items[j].chart);
        }
        free(s->items);
        free(s->id);
        free(s->title);
    }
    for (int i = 0; i < r->nsources; i++)
        free(r->sources[i]);
    for (int i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    free(r->sources);
    free(r->notes);
    free(r->sections);
    free(r->title);
    free(r->subtitle);
    free(r);
}
