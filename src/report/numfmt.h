/*
 * numfmt.h - numbers as the report formats show them (numfmt.c): a cell's text, the
 * decimals of a table column, the unit for a range of sizes. Shared by the text formats
 * (render.c), HTML (html.c), SVG charts (svg.c) and the size columns of model.c and grid.c.
 * Pure functions; thread-safe.
 */
#ifndef DG_REPORT_NUMFMT_H
#define DG_REPORT_NUMFMT_H

#include "report/doc.h"

#include <stddef.h>

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

/* A unit for sizes up to max_bytes ("TB", "GB", "MB", "kB" or "B"; a static string) and
 * its divisor in *div. */
const char *dg_rep_size_unit(double max_bytes, double *div);

#endif
