/*
 * svg.h - inline SVG charts for HTML reports: axis scales with "nice" ticks, and line,
 * dot and bar charts drawn from the report model's charts (doc.h).
 *
 * The SVG is static and readable without JavaScript or CSS: every presentation value is
 * an attribute, each data point carries a <title> (the browser shows it as a tooltip),
 * and the <svg> has role="img" with a <title> and <desc> for screen readers. Series are
 * told apart by color (Okabe-Ito palette, safe for color-blind readers), marker shape
 * and, past eight series, dash pattern.
 *
 * Machine-checkable geometry (used by the tests): every tick is a
 * <line class="tick x|y" data-v="VALUE"> at the tick's position, and every series is a
 * <path class="series" data-series="NAME" d="M x y L x y ..."> (a gap in the data starts
 * a new "M"). Categorical ticks carry data-v="INDEX".
 *
 * All functions only append to the caller's buffer; strings are escaped here.
 */
#ifndef DG_REPORT_SVG_H
#define DG_REPORT_SVG_H

#include "core/strbuf.h"
#include "report/doc.h"

#include <stdbool.h>
#include <stddef.h>

#define DG_SVG_MAX_TICKS 40

/* An axis scale: the shown range [lo, hi] and its ticks. */
typedef struct dg_svg_scale {
    double lo, hi;
    bool log;
    double step;                    /* linear tick step (0 for log scales) */
    double ticks[DG_SVG_MAX_TICKS];
    int nticks;
} dg_svg_scale;

/* The "nice" number (1, 2 or 5 times a power of ten) closest to x (round) or the
 * smallest one >= x (!round); x > 0. */
double dg_svg_nice(double x, bool round);

/* A scale covering [lo, hi] with about `target` ticks at nice values; a log scale
 * (requires lo > 0) ticks 1-2-5 multiples over up to three decades, else whole decades.
 * Degenerate input (lo == hi, NaN) gets a sensible non-empty range. */
void dg_svg_scale_make(double lo, double hi, int target, bool log, dg_svg_scale *out);

/* Position of v along the scale: 0 at lo, 1 at hi (may fall outside for outliers). */
double dg_svg_scale_pos(const dg_svg_scale *s, double v);

/* A tick label ("0", "2.5", "250", "20k", "1.5M", "0.01"), decimals from the step. */
void dg_svg_tick_label(const dg_svg_scale *s, double v, char *buf, size_t len);

/* Appends s with & < > " ' escaped (safe in HTML/XML text and attribute values). */
void dg_svg_escape(dg_strbuf *out, const char *s);

/* Appends one <svg> element drawing chart c. uid (letters, digits, '-') prefixes element
 * ids so that several charts can share a page. */
void dg_svg_chart(dg_strbuf *out, const dg_rep_chart *c, const char *uid);

#endif
