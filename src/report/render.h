/*
 * render.h - output formats of a report model (model.h): text, markdown, CSV, JSON
 * (render.c) and self-contained HTML with inline SVG charts (html.c, svg.c), plus the
 * file write used by `report` and `compare`.
 *
 * Renderers append to a caller-owned dg_strbuf; they read the model only.
 */
#ifndef DG_REPORT_RENDER_H
#define DG_REPORT_RENDER_H

#include "core/err.h"
#include "core/strbuf.h"
#include "report/model.h"

#include <stddef.h>

typedef enum dg_rep_format {
    DG_FMT_TEXT,
    DG_FMT_MARKDOWN,
    DG_FMT_CSV,
    DG_FMT_JSON,
    DG_FMT_HTML,
} dg_rep_format;

/* "text", "markdown" (or "md"), "csv", "json", "html". 0 or DG_E_INVAL. */
int dg_rep_format_parse(const char *name, dg_rep_format *out);

/* A number as the text formats show it: "-" for NaN; `prec` decimals, or with
 * DG_PREC_AUTO integers without decimals and others with 3 significant-ish digits
 * (0.123, 1.23, 12.3, 123); DG_PREC_EACH like DG_PREC_AUTO but integers too get the
 * decimals of their magnitude (1.00 next to 0.850). Returns buf. */
const char *dg_rep_fmt_num(double v, int prec, char *buf, size_t len);

/* The decimals a table column shows: its prec, or for DG_PREC_AUTO 0 when all its values
 * are integers, else chosen from its largest magnitude (>= 100: 0, >= 10: 1, >= 1: 2,
 * else 3), so that a column's numbers line up; DG_PREC_EACH stays DG_PREC_EACH (each
 * value formatted on its own by dg_rep_fmt_num). */
int dg_rep_col_decimals(const dg_rep_table *t, int col);

/* Renders r in format f (HTML included). */
void dg_report_render(dg_strbuf *out, const dg_report *r, dg_rep_format f);

void dg_report_text(dg_strbuf *out, const dg_report *r);
void dg_report_markdown(dg_strbuf *out, const dg_report *r);
/* Long ("tidy") CSV: section,table,row,column,unit,value - one line per cell. */
void dg_report_csv(dg_strbuf *out, const dg_report *r);
/* The model as JSON (a new reference). */
json_t *dg_report_json(const dg_report *r);
/* One self-contained HTML page (html.c). */
void dg_report_html(dg_strbuf *out, const dg_report *r);

/* Writes len bytes of text to path with dg_file_write (core/file.h): atomically (temp
 * file in the target's directory, fsync, rename; symbolic links followed) for a regular or
 * new file, in place for a device or fifo, "-" to standard output. 0 or DG_E_IO with the
 * path and reason in err; on failure nothing is left. */
int dg_report_save(const char *path, const char *text, size_t len, dg_err *err);

/* Renders r in `format` (a name for dg_rep_format_parse; NULL: html when path ends in
 * ".html", else text) and writes it to path (dg_report_save), or to stdout when path is
 * NULL or "-".
 * 0, DG_E_INVAL (unknown format) or DG_E_IO, with a message in err. */
int dg_report_emit(const dg_report *r, const char *path, const char *format, dg_err *err);

#endif
