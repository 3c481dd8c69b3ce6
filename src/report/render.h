/*
 * render.h - output formats of a report model (doc.h): text, markdown, CSV, JSON
 * (render.c), the choice among them and HTML (html.h), plus the file write used by
 * `report` and `compare`.
 *
 * Renderers append to a caller-owned dg_strbuf; they read the model only.
 */
#ifndef DG_REPORT_RENDER_H
#define DG_REPORT_RENDER_H

#include "core/err.h"
#include "core/strbuf.h"
#include "report/doc.h"

#include <jansson.h>
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

/* Renders r in format f (HTML included). */
void dg_report_render(dg_strbuf *out, const dg_report *r, dg_rep_format f);

void dg_report_text(dg_strbuf *out, const dg_report *r);
void dg_report_markdown(dg_strbuf *out, const dg_report *r);
/* Long ("tidy") CSV: section,table,row,column,unit,value - one line per cell. */
void dg_report_csv(dg_strbuf *out, const dg_report *r);
/* The model as JSON (a new reference). */
json_t *dg_report_json(const dg_report *r);

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
