/*
 * render.c - the table-shaped output formats of a report: plain text, markdown, long
 * CSV and JSON; the choice of a format; the atomic file write.
 *
 * Every format shows the same content: paragraphs, tables, and the data of each chart
 * whose numbers are not already in a table (dg_rep_chart_table). HTML is in html.c.
 */
#include "report/render.h"

#include "core/file.h"
#include "core/xalloc.h"
#include "report/html.h"
#include "report/numfmt.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dg_rep_format_parse(const char *name, dg_rep_format *out)
{
    static const struct {
        const char *name;
        dg_rep_format f;
    } fmts[] = {{"text", DG_FMT_TEXT}, {"markdown", DG_FMT_MARKDOWN}, {"md", DG_FMT_MARKDOWN},
                {"csv", DG_FMT_CSV},   {"json", DG_FMT_JSON},         {"html", DG_FMT_HTML}};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        if (name && !strcmp(name, fmts[i].name)) {
            *out = fmts[i].f;
            return 0;
        }
    return DG_E_INVAL;
}

/* Display width of UTF-8 text (code points; good enough for table alignment). */
static size_t width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void pad(dg_strbuf *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dg_sb_addc(out, ' ');
}

/* Cell text (numbers formatted per column); returns a malloc'ed string. */
static char *cell_text(const dg_rep_table *t, int row, int col)
{
    const dg_rep_cell *c = &t->cells[row * t->ncols + col];
    if (c->str)
        return xstrdup(c->str);
    char buf[64];
    return xstrdup(dg_rep_fmt_num(c->num, dg_rep_col_decimals(t, col), buf, sizeof buf));
}

/* Calls fn for each table to show: the item's table, or a chart's data table. */
typedef void (*table_fn)(dg_strbuf *out, const dg_rep_section *s, const dg_rep_table *t, void *arg);

static void each_table(dg_strbuf *out, const dg_rep_section *s, const dg_rep_item *it,
                       table_fn fn, void *arg)
{
    if (it->kind == DG_ITEM_TABLE) {
        fn(out, s, it->table, arg);
    } else if (it->kind == DG_ITEM_CHART && !it->chart->tabled &&
               dg_rep_chart_points(it->chart) > 0) {
        dg_rep_table *t = dg_rep_chart_table(it->chart);
        fn(out, s, t, arg);
        dg_rep_table_free(t);
    }
}

/* ---- text --------------------------------------------------------------------------------- */

static void text_table(dg_strbuf *out, const dg_rep_section *s, const dg_rep_table *t, void *arg)
{
    (void)s;
    (void)arg;
    dg_sb_printf(out, "\n%s\n", t->title);
    if (t->style == DG_TABLE_FACTS || t->style == DG_TABLE_FIGURES) {
        /* name: value lines */
        size_t w = 0;
        int n = t->style == DG_TABLE_FACTS ? t->nrows : t->ncols;
        for (int i = 0; i < n; i++) {
            const char *name = t->style == DG_TABLE_FACTS ? t->cells[i * 2].str : t->cols[i].name;
            if (name && width(name) > w)
                w = width(name);
        }
        for (int i = 0; i < n; i++) {
            const char *name = t->style == DG_TABLE_FACTS ? t->cells[i * 2].str : t->cols[i].name;
            char *v = t->style == DG_TABLE_FACTS ? cell_text(t, i, 1) : cell_text(t, 0, i);
            const char *unit = t->style == DG_TABLE_FIGURES && t->nrows ? t->cols[i].unit : NULL;
            dg_sb_printf(out, "  %s:", name ? name : "");
            pad(out, w - width(name ? name : "") + 1);
            dg_sb_printf(out, "%s%s%s\n", v, unit && strcmp(v, "-") ? " " : "",
                         unit && strcmp(v, "-") ? unit : "");
            free(v);
        }
    } else {
        size_t *w = xcalloc((size_t)t->ncols, sizeof *w);
        bool *left = xcalloc((size_t)t->ncols, sizeof *left);
        bool units = false;
        for (int c = 0; c < t->ncols; c++) {
            w[c] = width(t->cols[c].name);
            if (t->cols[c].unit) {
                units = true;
                size_t uw = width(t->cols[c].unit) + 2;
                if (uw > w[c])
                    w[c] = uw;
            }
            /* text columns (any text cell but "-") are left-aligned */
            for (int r = 0; r < t->nrows; r++) {
                const dg_rep_cell *cell = &t->cells[r * t->ncols + c];
                if (cell->str && strcmp(cell->str, "-"))
                    left[c] = true;
                char *v = cell_text(t, r, c);
                if (width(v) > w[c])
                    w[c] = width(v);
                free(v);
            }
        }
        for (int line = 0; line < (units ? 2 : 1); line++) {
            dg_sb_add(out, " ");
            for (int c = 0; c < t->ncols; c++) {
                char *h = line == 0 ? xstrdup(t->cols[c].name)
                          : t->cols[c].unit ? xasprintf("(%s)", t->cols[c].unit)
                                            : xstrdup("");
                dg_sb_add(out, " ");
                if (left[c]) {
                    dg_sb_add(out, h);
                    if (c + 1 < t->ncols)
                        pad(out, w[c] - width(h));
                } else {
                    pad(out, w[c] - width(h));
                    dg_sb_add(out, h);
                }
                free(h);
            }
            while (out->len && out->buf[out->len - 1] == ' ')
                out->buf[--out->len] = '\0';
            dg_sb_add(out, "\n");
        }
        for (int r = 0; r < t->nrows; r++) {
            dg_sb_add(out, " ");
            for (int c = 0; c < t->ncols; c++) {
                char *v = cell_text(t, r, c);
                dg_sb_add(out, " ");
                if (left[c]) {
                    dg_sb_add(out, v);
                    if (c + 1 < t->ncols)
                        pad(out, w[c] - width(v));
                } else {
                    pad(out, w[c] - width(v));
                    dg_sb_add(out, v);
                }
                free(v);
            }
            dg_sb_add(out, "\n");
        }
        free(w);
        free(left);
    }
    if (t->note)
        dg_sb_printf(out, "  (%s)\n", t->note);
}

static void underline(dg_strbuf *out, const char *s, char c)
{
    for (size_t i = width(s); i > 0; i--)
        dg_sb_addc(out, c);
    dg_sb_addc(out, '\n');
}

void dg_report_text(dg_strbuf *out, const dg_report *r)
{
    dg_sb_printf(out, "%s\n", r->title);
    underline(out, r->title, '=');
    if (r->subtitle)
        dg_sb_printf(out, "%s\n", r->subtitle);
    for (int i = 0; i < r->nsources; i++)
        dg_sb_printf(out, "source: %s\n", r->sources[i]);
    for (int i = 0; i < r->nnotes; i++)
        dg_sb_printf(out, "note: %s\n", r->notes[i]);
    for (int i = 0; i < r->nsections; i++) {
        const dg_rep_section *s = &r->sections[i];
        dg_sb_printf(out, "\n\n%s\n", s->title);
        underline(out, s->title, '-');
        for (int j = 0; j < s->nitems; j++) {
            const dg_rep_item *it = &s->items[j];
            if (it->kind == DG_ITEM_TEXT)
                dg_sb_printf(out, "\n%s\n", it->text);
            else
                each_table(out, s, it, text_table, NULL);
        }
    }
}

/* ---- markdown ----------------------------------------------------------------------------- */

static void md_escape(dg_strbuf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': dg_sb_add(out, "&lt;"); break;
        case '>': dg_sb_add(out, "&gt;"); break;
        case '&': dg_sb_add(out, "&amp;"); break;
        case '\n':
        case '\r': dg_sb_addc(out, ' '); break;
        case '\\': case '`': case '*': case '_': case '|': case '[': case ']': case '#':
            dg_sb_addc(out, '\\');
            dg_sb_addc(out, *s);
            break;
        default: dg_sb_addc(out, *s);
        }
    }
}

static void md_table(dg_strbuf *out, const dg_rep_section *s, const dg_rep_table *t, void *arg)
{
    (void)s;
    (void)arg;
    dg_sb_add(out, "\n### ");
    md_escape(out, t->title);
    dg_sb_add(out, "\n\n");
    bool figures = t->style == DG_TABLE_FIGURES;
    dg_sb_add(out, "|");
    for (int c = 0; c < (figures ? 2 : t->ncols); c++) {
        dg_sb_add(out, " ");
        if (figures) {
            md_escape(out, c ? "value" : "figure");
        } else {
            md_escape(out, t->cols[c].name);
            if (t->cols[c].unit) {
                dg_sb_add(out, " (");
                md_escape(out, t->cols[c].unit);
                dg_sb_add(out, ")");
            }
        }
        dg_sb_add(out, " |");
    }
    dg_sb_add(out, "\n|");
    for (int c = 0; c < (figures ? 2 : t->ncols); c++) {
        bool num = false;
        for (int row = 0; !figures && row < t->nrows; row++)
            num |= !t->cells[row * t->ncols + c].str;
        dg_sb_add(out, num || (figures && c) ? "---:|" : "---|");
    }
    dg_sb_add(out, "\n");
    if (figures) {
        for (int c = 0; c < t->ncols && t->nrows; c++) {
            char *v = cell_text(t, 0, c);
            dg_sb_add(out, "| ");
            md_escape(out, t->cols[c].name);
            dg_sb_add(out, " | ");
            md_escape(out, v);
            if (t->cols[c].unit && strcmp(v, "-")) {
                dg_sb_add(out, " ");
                md_escape(out, t->cols[c].unit);
            }
            dg_sb_add(out, " |\n");
            free(v);
        }
    } else {
        for (int row = 0; row < t->nrows; row++) {
            dg_sb_add(out, "|");
            for (int c = 0; c < t->ncols; c++) {
                char *v = cell_text(t, row, c);
                dg_sb_add(out, " ");
                md_escape(out, v);
                dg_sb_add(out, " |");
                free(v);
            }
            dg_sb_add(out, "\n");
        }
    }
    if (t->note) {
        dg_sb_add(out, "\n_");
        md_escape(out, t->note);
        dg_sb_add(out, "_\n");
    }
}

void dg_report_markdown(dg_strbuf *out, const dg_report *r)
{
    dg_sb_add(out, "# ");
    md_escape(out, r->title);
    dg_sb_add(out, "\n\n");
    if (r->subtitle) {
        md_escape(out, r->subtitle);
        dg_sb_add(out, "\n\n");
    }
    for (int i = 0; i < r->nsources; i++) {
        dg_sb_add(out, "- source: ");
        md_escape(out, r->sources[i]);
        dg_sb_add(out, "\n");
    }
    for (int i = 0; i < r->nnotes; i++) {
        dg_sb_add(out, i ? "" : "\n");
        dg_sb_add(out, "> **Note:** ");
        md_escape(out, r->notes[i]);
        dg_sb_add(out, "\n>\n");
    }
    for (int i = 0; i < r->nsections; i++) {
        const dg_rep_section *s = &r->sections[i];
        dg_sb_add(out, "\n## ");
        md_escape(out, s->title);
        dg_sb_add(out, "\n");
        for (int j = 0; j < s->nitems; j++) {
            const dg_rep_item *it = &s->items[j];
            if (it->kind == DG_ITEM_TEXT) {
                dg_sb_add(out, "\n");
                md_escape(out, it->text);
                dg_sb_add(out, "\n");
            } else {
                each_table(out, s, it, md_table, NULL);
            }
        }
    }
}

/* ---- CSV ---------------------------------------------------------------------------------- */

/* Text that a spreadsheet would run as a formula (=, +, -, @, or a tab or CR in front,
 * from a workload or error message written by someone else) gets a leading apostrophe. */
static void csv_field(dg_strbuf *out, const char *s, bool text)
{
    if (!s)
        return;
    bool formula = text && strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0';
    if (formula) {
        dg_sb_add(out, "\"'");
        for (; *s; s++) {
            if (*s == '"')
                dg_sb_addc(out, '"');
            dg_sb_addc(out, *s);
        }
        dg_sb_addc(out, '"');
        return;
    }
    if (!strpbrk(s, ",\"\r\n")) {
        dg_sb_add(out, s);
        return;
    }
    dg_sb_addc(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            dg_sb_addc(out, '"');
        dg_sb_addc(out, *s);
    }
    dg_sb_addc(out, '"');
}

static void csv_line(dg_strbuf *out, const char *sec, const char *table, int row, const char *col,
                     const char *unit, const char *value, bool text)
{
    csv_field(out, sec, true);
    dg_sb_addc(out, ',');
    csv_field(out, table, true);
    dg_sb_printf(out, ",%d,", row);
    csv_field(out, col, true);
    dg_sb_addc(out, ',');
    csv_field(out, unit, true);
    dg_sb_addc(out, ',');
    csv_field(out, value, text);
    dg_sb_add(out, "\r\n");
}

static void csv_table(dg_strbuf *out, const dg_rep_section *s, const dg_rep_table *t, void *arg)
{
    (void)arg;
    for (int row = 0; row < t->nrows; row++)
        for (int c = 0; c < t->ncols; c++) {
            const dg_rep_cell *cell = &t->cells[row * t->ncols + c];
            char buf[64];
            const char *v = cell->str;
            if (!v) {
                if (!isfinite(cell->num))
                    continue; /* missing values have no line */
                snprintf(buf, sizeof buf, "%.10g", cell->num);
                v = buf;
            }
            csv_line(out, s->id, t->id, row + 1, t->cols[c].name, t->cols[c].unit, v, cell->str != NULL);
        }
}

void dg_report_csv(dg_strbuf *out, const dg_report *r)
{
    dg_sb_add(out, "section,table,row,column,unit,value\r\n");
    csv_line(out, "report", "report", 1, "title", NULL, r->title, true);
    for (int i = 0; i < r->nsources; i++)
        csv_line(out, "report", "sources", i + 1, "path", NULL, r->sources[i], true);
    for (int i = 0; i < r->nnotes; i++)
        csv_line(out, "report", "notes", i + 1, "note", NULL, r->notes[i], true);
    for (int i = 0; i < r->nsections; i++) {
        const dg_rep_section *s = &r->sections[i];
        int ntext = 0;
        for (int j = 0; j < s->nitems; j++) {
            const dg_rep_item *it = &s->items[j];
            if (it->kind == DG_ITEM_TEXT)
                csv_line(out, s->id, "text", ++ntext, "text", NULL, it->text, true);
            else
                each_table(out, s, it, csv_table, NULL);
        }
    }
}

/* ---- JSON --------------------------------------------------------------------------------- */

static json_t *jstr(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *table_json(const dg_rep_table *t)
{
    static const char *const styles[] = {"grid", "facts", "figures"};
    json_t *cols = json_array(), *rows = json_array();
    for (int c = 0; c < t->ncols; c++)
        json_array_append_new(cols, json_pack("{s:o, s:o}", "name", jstr(t->cols[c].name), "unit",
                                              jstr(t->cols[c].unit)));
    for (int row = 0; row < t->nrows; row++) {
        json_t *a = json_array();
        for (int c = 0; c < t->ncols; c++) {
            const dg_rep_cell *cell = &t->cells[row * t->ncols + c];
            json_array_append_new(a, cell->str ? json_string(cell->str) : jnum(cell->num));
        }
        json_array_append_new(rows, a);
    }
    return json_pack("{s:s, s:o, s:o, s:o, s:s, s:o, s:o}", "type", "table", "id", jstr(t->id),
                     "title", jstr(t->title), "note", jstr(t->note), "style", styles[t->style],
                     "columns", cols, "rows", rows);
}

static json_t *axis_json(const dg_rep_axis *a)
{
    json_t *o = json_pack("{s:o, s:o, s:b}", "label", jstr(a->label), "unit", jstr(a->unit), "log",
                          a->log);
    if (a->ncats) {
        json_t *c = json_array();
        for (int i = 0; i < a->ncats; i++)
            json_array_append_new(c, json_string(a->cats[i]));
        json_object_set_new(o, "categories", c);
    }
    if (isfinite(a->ref))
        json_object_set_new(o, "reference", json_real(a->ref));
    return o;
}

static json_t *chart_json(const dg_rep_chart *c)
{
    static const char *const kinds[] = {"line", "dot", "bar", "stack"};
    json_t *series = json_array();
    for (int i = 0; i < c->nseries; i++) {
        json_t *pts = json_array();
        for (int j = 0; j < c->series[i].n; j++) {
            const dg_rep_point *p = &c->series[i].pts[j];
            json_t *o = json_pack("{s:o, s:o}", "x", jnum(p->x), "y", jnum(p->y));
            if (isfinite(p->lo) || isfinite(p->hi)) {
                json_object_set_new(o, "lo", jnum(p->lo));
                json_object_set_new(o, "hi", jnum(p->hi));
            }
            json_array_append_new(pts, o);
        }
        json_t *js = json_pack("{s:o, s:o}", "name", jstr(c->series[i].name), "points", pts);
        if (c->series[i].right)
            json_object_set_new(js, "axis", json_string("y2"));
        json_array_append_new(series, js);
    }
    json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:s, s:o, s:o, s:o}", "type", "chart", "id",
                          jstr(c->id), "title", jstr(c->title), "note", jstr(c->note), "kind",
                          kinds[c->kind], "x", axis_json(&c->x), "y", axis_json(&c->y), "series",
                          series);
    if (c->y2.label)
        json_object_set_new(o, "y2", axis_json(&c->y2));
    if (c->nmarks) { /* vertical marks: events, the cache and RAM on a size axis */
        json_t *marks = json_array();
        for (int i = 0; i < c->nmarks; i++)
            json_array_append_new(marks, json_pack("{s:o, s:s}", "x", jnum(c->marks[i].x),
                                                   "label", c->marks[i].label));
        json_object_set_new(o, "marks", marks);
    }
    return o;
}

json_t *dg_report_json(const dg_report *r)
{
    json_t *sources = json_array(), *notes = json_array(), *sections = json_array();
    for (int i = 0; i < r->nsources; i++)
        json_array_append_new(sources, json_string(r->sources[i]));
    for (int i = 0; i < r->nnotes; i++)
        json_array_append_new(notes, json_string(r->notes[i]));
    for (int i = 0; i < r->nsections; i++) {
        const dg_rep_section *s = &r->sections[i];
        json_t *items = json_array();
        for (int j = 0; j < s->nitems; j++) {
            const dg_rep_item *it = &s->items[j];
            if (it->kind == DG_ITEM_TEXT)
                json_array_append_new(items, json_pack("{s:s, s:s}", "type", "text", "text",
                                                       it->text));
            else if (it->kind == DG_ITEM_TABLE)
                json_array_append_new(items, table_json(it->table));
            else
                json_array_append_new(items, chart_json(it->chart));
        }
        json_array_append_new(sections, json_pack("{s:s, s:s, s:o}", "id", s->id, "title",
                                                  s->title, "items", items));
    }
    return json_pack("{s:{s:s, s:i}, s:s, s:o, s:o, s:o, s:o}", "dbgauge_report", "version",
                     DG_VERSION, "format", 1, "title", r->title, "subtitle", jstr(r->subtitle),
                     "sources", sources, "notes", notes, "sections", sections);
}

void dg_report_render(dg_strbuf *out, const dg_report *r, dg_rep_format f)
{
    switch (f) {
    case DG_FMT_TEXT: dg_report_text(out, r); break;
    case DG_FMT_MARKDOWN: dg_report_markdown(out, r); break;
    case DG_FMT_CSV: dg_report_csv(out, r); break;
    case DG_FMT_HTML: dg_report_html(out, r); break;
    case DG_FMT_JSON: {
        json_t *j = dg_report_json(r);
        char *s = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
        dg_sb_add(out, s ? s : "null");
        dg_sb_add(out, "\n");
        free(s);
        json_decref(j);
        break;
    }
    }
}

/* ---- writing ------------------------------------------------------------------------- */

int dg_report_save(const char *path, const char *text, size_t len, dg_err *err)
{
    return dg_file_write(path, text, len, "report", err);
}

int dg_report_emit(const dg_report *r, const char *path, const char *format, dg_err *err)
{
    dg_rep_format f = DG_FMT_TEXT;
    if (path && strcmp(path, "-") == 0)
        path = NULL;
    size_t n = path ? strlen(path) : 0;
    if (format) {
        if (dg_rep_format_parse(format, &f) != 0)
            return dg_err_fail(err, DG_E_INVAL, "unknown report format '%s'", format);
    } else if (n > 5 && (!strcmp(path + n - 5, ".html") || !strcmp(path + n - 4, ".htm"))) {
        f = DG_FMT_HTML;
    }
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_report_render(&sb, r, f);
    int rc = 0;
    if (path) {
        rc = dg_report_save(path, dg_sb_str(&sb), sb.len, err);
    } else if (fwrite(dg_sb_str(&sb), 1, sb.len, stdout) != sb.len || fflush(stdout) != 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write to standard output: %s", strerror(errno));
    }
    dg_sb_free(&sb);
    return rc;
}
