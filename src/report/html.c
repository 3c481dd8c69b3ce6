/*
 * html.c - one self-contained HTML page for a report: inline CSS, inline SVG charts
 * (svg.c), no scripts, no external resources, so the file can be mailed, archived and
 * opened offline. Every string that comes from the model (and so from result files) is
 * escaped with dg_svg_escape.
 *
 * Layout of the page: header (title, sources, notes, contents), one <section> per model
 * section (folded sections are a closed <details>), consecutive charts in a responsive
 * grid, tables after them, footer.
 */
#include "report/html.h"

#include "core/xalloc.h"
#include "report/numfmt.h"
#include "report/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
    ":root{--fg:#1a1a1a;--muted:#5b5f66;--line:#e2e4e8;--accent:#0072B2}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',"
    "Arial,sans-serif;color:var(--fg);background:#f5f6f8}\n"
    "header,main,footer{max-width:1320px;margin:0 auto;padding:0 24px}\n"
    "header{padding-top:22px}\n"
    "h1{font-size:24px;margin:0 0 6px}\n"
    "h2{font-size:19px;margin:0 0 6px;display:inline}\n"
    "h3{font-size:15px;margin:18px 0 8px}\n"
    "section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:16px 20px;"
    "margin:16px 0}\n"
    "section p{margin:8px 0;max-width:95ch}\n"
    ".sources{margin:4px 0;padding:0;list-style:none;color:var(--muted);font-size:13px}\n"
    "details.sources>summary{cursor:pointer}\n"
    ".note{background:#fff4e5;border-left:4px solid #E69F00;padding:8px 12px;margin:8px 0;"
    "border-radius:4px}\n"
    "nav ul{list-style:none;padding:0;margin:10px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px}\n"
    "nav a{color:var(--accent);text-decoration:none}nav a:hover{text-decoration:underline}\n"
    ".charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:14px;"
    "margin:14px 0}\n"
    "figure{margin:0;border:1px solid #eceef1;border-radius:6px;padding:6px;background:#fff}\n"
    "svg.chart{display:block;width:100%;height:auto}\n"
    ".scroll{overflow-x:auto;margin:6px 0 12px}\n"
    "table{border-collapse:collapse;font-size:13px}\n"
    "table.grid th,table.grid td{padding:4px 10px;border-bottom:1px solid #eceef1;"
    "text-align:left;white-space:nowrap;vertical-align:bottom}\n"
    "table.grid td.num,table.grid th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.grid td.wrap{white-space:normal;min-width:24ch}\n"
    "table.grid tbody tr:nth-child(even){background:#f9fafb}\n"
    "table.grid thead th{border-bottom:2px solid #d5d8dd}\n"
    "caption{text-align:left;font-weight:600;padding:4px 0 6px}\n"
    ".unit{font-weight:normal;color:var(--muted)}\n"
    ".tnote{color:var(--muted);font-size:12.5px;margin:2px 0 10px}\n"
    ".figures{display:flex;flex-wrap:wrap;gap:12px;margin:10px 0 14px}\n"
    ".fig{border:1px solid var(--line);border-radius:6px;padding:8px 16px;min-width:130px;"
    "background:#fbfcfd}\n"
    ".fig .v{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums}\n"
    ".fig .k{color:var(--muted);font-size:12px}\n"
    "table.facts th{text-align:left;color:var(--muted);font-weight:normal;padding:2px 18px 2px 0;"
    "vertical-align:top;white-space:nowrap}\n"
    "table.facts td{padding:2px 0;overflow-wrap:anywhere}\n"
    "details>summary{cursor:pointer}\n"
    "details.table>summary{font-weight:600;margin:12px 0 6px}\n"
    "code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}\n"
    "footer{color:var(--muted);font-size:12px;padding-bottom:28px}\n"
    "@media print{body{background:#fff}section{break-inside:avoid-page;border:none}}\n";

static void esc(dg_strbuf *o, const char *s)
{
    dg_svg_escape(o, s ? s : "");
}

static bool is_text_col(const dg_rep_table *t, int c)
{
    for (int r = 0; r < t->nrows; r++) {
        const dg_rep_cell *cell = &t->cells[r * t->ncols + c];
        if (cell->str && strcmp(cell->str, "-"))
            return true;
    }
    return false;
}

/* A body cell; the first column of a table with row headers is a <th scope="row">. */
static void cell(dg_strbuf *o, const dg_rep_table *t, int r, int c, bool text)
{
    const dg_rep_cell *x = &t->cells[r * t->ncols + c];
    char buf[64];
    const char *v = x->str ? x->str : dg_rep_fmt_num(x->num, dg_rep_col_decimals(t, c), buf,
                                                     sizeof buf);
    bool wrap = text && x->str && strlen(x->str) > 60;
    const char *tag = t->row_head && c == 0 ? "th" : "td";
    dg_sb_printf(o, "<%s%s%s>", tag, tag[1] == 'h' ? " scope=\"row\"" : "",
                 wrap ? " class=\"wrap\"" : text ? "" : " class=\"num\"");
    esc(o, v);
    dg_sb_printf(o, "</%s>", tag);
}

static void figures(dg_strbuf *o, const dg_rep_table *t)
{
    dg_sb_add(o, "<div class=\"figures\" role=\"list\" aria-label=\"");
    esc(o, t->title);
    dg_sb_add(o, "\">\n");
    for (int c = 0; c < t->ncols && t->nrows; c++) {
        const dg_rep_cell *x = &t->cells[c];
        char buf[64];
        const char *v = x->str ? x->str : dg_rep_fmt_num(x->num, t->cols[c].prec, buf, sizeof buf);
        dg_sb_add(o, "<div class=\"fig\" role=\"listitem\"><div class=\"v\">");
        esc(o, v);
        if (t->cols[c].unit && strcmp(v, "-")) {
            dg_sb_add(o, " <span class=\"unit\">");
            esc(o, t->cols[c].unit);
            dg_sb_add(o, "</span>");
        }
        dg_sb_add(o, "</div><div class=\"k\">");
        esc(o, t->cols[c].name);
        dg_sb_add(o, "</div></div>\n");
    }
    dg_sb_add(o, "</div>\n");
}

static void facts(dg_strbuf *o, const dg_rep_table *t)
{
    dg_sb_add(o, "<h3>");
    esc(o, t->title);
    dg_sb_add(o, "</h3>\n<table class=\"facts\">\n");
    for (int r = 0; r < t->nrows; r++) {
        dg_sb_add(o, "<tr><th scope=\"row\">");
        esc(o, t->cells[r * 2].str);
        dg_sb_add(o, "</th><td>");
        esc(o, t->cells[r * 2 + 1].str);
        dg_sb_add(o, "</td></tr>\n");
    }
    dg_sb_add(o, "</table>\n");
}

static void grid(dg_strbuf *o, const dg_rep_table *t)
{
    bool *text = xcalloc((size_t)t->ncols + 1, sizeof *text);
    for (int c = 0; c < t->ncols; c++)
        text[c] = is_text_col(t, c);
    if (t->folded) {
        dg_sb_add(o, "<details class=\"table\"><summary>");
        esc(o, t->title);
        dg_sb_printf(o, " (%d rows)</summary>\n", t->nrows);
    }
    dg_sb_add(o, "<div class=\"scroll\"><table class=\"grid\" id=\"t-");
    esc(o, t->id);
    dg_sb_add(o, "\">\n");
    if (!t->folded) {
        dg_sb_add(o, "<caption>");
        esc(o, t->title);
        dg_sb_add(o, "</caption>\n");
    }
    dg_sb_add(o, "<thead><tr>");
    for (int c = 0; c < t->ncols; c++) {
        dg_sb_printf(o, "<th scope=\"col\"%s>", text[c] ? "" : " class=\"num\"");
        esc(o, t->cols[c].name);
        if (t->cols[c].unit) {
            dg_sb_add(o, "<br><span class=\"unit\">");
            esc(o, t->cols[c].unit);
            dg_sb_add(o, "</span>");
        }
        dg_sb_add(o, "</th>");
    }
    dg_sb_add(o, "</tr></thead>\n<tbody>\n");
    for (int r = 0; r < t->nrows; r++) {
        dg_sb_add(o, "<tr>");
        for (int c = 0; c < t->ncols; c++)
            cell(o, t, r, c, text[c]);
        dg_sb_add(o, "</tr>\n");
    }
    dg_sb_add(o, "</tbody>\n</table></div>\n");
    if (t->note) {
        dg_sb_add(o, "<p class=\"tnote\">");
        esc(o, t->note);
        dg_sb_add(o, "</p>\n");
    }
    if (t->folded)
        dg_sb_add(o, "</details>\n");
    free(text);
}

static void section(dg_strbuf *o, const dg_rep_section *s, int *chart_no)
{
    dg_sb_add(o, "<section id=\"");
    esc(o, s->id);
    dg_sb_add(o, "\">\n");
    if (s->folded)
        dg_sb_add(o, "<details>\n<summary>");
    dg_sb_add(o, "<h2>");
    esc(o, s->title);
    dg_sb_add(o, "</h2>");
    dg_sb_add(o, s->folded ? "</summary>\n" : "\n");
    bool in_charts = false;
    for (int j = 0; j < s->nitems; j++) {
        const dg_rep_item *it = &s->items[j];
        bool chart = it->kind == DG_ITEM_CHART;
        if (chart && !in_charts)
            dg_sb_add(o, "<div class=\"charts\">\n");
        if (!chart && in_charts)
            dg_sb_add(o, "</div>\n");
        in_charts = chart;
        if (it->kind == DG_ITEM_TEXT) {
            dg_sb_add(o, "<p>");
            esc(o, it->text);
            dg_sb_add(o, "</p>\n");
        } else if (it->kind == DG_ITEM_TABLE) {
            if (it->table->style == DG_TABLE_FIGURES)
                figures(o, it->table);
            else if (it->table->style == DG_TABLE_FACTS)
                facts(o, it->table);
            else
                grid(o, it->table);
        } else {
            char uid[32];
            snprintf(uid, sizeof uid, "c%d", ++*chart_no);
            dg_sb_add(o, "<figure>\n");
            dg_svg_chart(o, it->chart, uid);
            dg_sb_add(o, "</figure>\n");
        }
    }
    if (in_charts)
        dg_sb_add(o, "</div>\n");
    if (s->folded)
        dg_sb_add(o, "</details>\n");
    dg_sb_add(o, "</section>\n");
}

void dg_report_html(dg_strbuf *o, const dg_report *r)
{
    dg_sb_add(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    dg_sb_printf(o, "<meta name=\"generator\" content=\"dbgauge %s\">\n<title>", DG_VERSION);
    esc(o, r->title);
    dg_sb_printf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>", css);
    esc(o, r->title);
    dg_sb_add(o, "</h1>\n");
    if (r->subtitle) {
        dg_sb_add(o, "<p>");
        esc(o, r->subtitle);
        dg_sb_add(o, "</p>\n");
    }
    if (r->nsources) {
        /* a long list of files is folded: the charts matter more */
        bool fold = r->nsources > 4;
        if (fold)
            dg_sb_printf(o, "<details class=\"sources\"><summary>%d result files</summary>\n",
                         r->nsources);
        dg_sb_add(o, "<ul class=\"sources\">\n");
        for (int i = 0; i < r->nsources; i++) {
            dg_sb_add(o, "<li>source: <code>");
            esc(o, r->sources[i]);
            dg_sb_add(o, "</code></li>\n");
        }
        dg_sb_add(o, fold ? "</ul></details>\n" : "</ul>\n");
    }
    for (int i = 0; i < r->nnotes; i++) {
        dg_sb_add(o, "<div class=\"note\" role=\"note\">");
        esc(o, r->notes[i]);
        dg_sb_add(o, "</div>\n");
    }
    if (r->nsections > 1) {
        /* contents: the open sections, and one entry for the folded per-run sections */
        dg_sb_add(o, "<nav aria-label=\"contents\"><ul>\n");
        int folded = 0, first_folded = -1;
        for (int i = 0; i < r->nsections; i++) {
            if (r->sections[i].folded) {
                folded++;
                first_folded = first_folded < 0 ? i : first_folded;
                continue;
            }
            dg_sb_add(o, "<li><a href=\"#");
            esc(o, r->sections[i].id);
            dg_sb_add(o, "\">");
            esc(o, r->sections[i].title);
            dg_sb_add(o, "</a></li>\n");
        }
        if (folded) {
            dg_sb_add(o, "<li><a href=\"#");
            esc(o, r->sections[first_folded].id);
            dg_sb_printf(o, "\">Each run (%d, folded)</a></li>\n", folded);
        }
        dg_sb_add(o, "</ul></nav>\n");
    }
    dg_sb_add(o, "</header>\n<main>\n");
    int chart_no = 0;
    for (int i = 0; i < r->nsections; i++)
        section(o, &r->sections[i], &chart_no);
    dg_sb_printf(o, "</main>\n<footer><p>Made by dbgauge %s from the result files listed above; "
                    "every figure can be rebuilt from them with <code>dbgauge report</code>. "
                    "Hover over a point for its value.</p></footer>\n</body>\n</html>\n",
                 DG_VERSION);
}
