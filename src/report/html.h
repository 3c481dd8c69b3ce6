/*
 * html.h - one self-contained HTML page for a report (html.c): inline CSS and SVG charts
 * (svg.h), no scripts, no external resources. Appends to a caller-owned buffer and reads
 * the model only.
 */
#ifndef DG_REPORT_HTML_H
#define DG_REPORT_HTML_H

#include "core/strbuf.h"
#include "report/doc.h"

void dg_report_html(dg_strbuf *out, const dg_report *r);

#endif
