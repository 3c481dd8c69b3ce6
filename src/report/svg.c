/*
 * svg.c - nice scales and inline SVG charts (see svg.h).
 *
 * Layout: number helpers and scales; text measuring and escaping; series styles and
 * markers; the frame shared by line and dot charts (title, grid, ticks, axis labels,
 * legend); line, dot and bar charts; dg_svg_chart.
 *
 * Geometry is in viewBox units: the chart is VIEW_W wide and as tall as its parts need;
 * the page scales it to its container. Text widths are estimated (no font metrics are
 * available to a static generator), generously, so labels do not collide.
 */
#include "report/svg.h"

#include "core/xalloc.h"
#include "report/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VIEW_W 640.0
#define PLOT_H 250.0
#define CHAR_W 6.4        /* estimated average glyph width at 11.5px */
#define MAX_LABEL 30      /* longest category label shown (chars) */
#define MARKERS_MAX 60    /* series longer than this are drawn without point markers */
#define FONT "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

/* Okabe-Ito, in an order that keeps neighbours distinct; yellow left out (too light). */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
                                      "#CC79A7", "#56B4E9", "#555555", "#999933"};
#define NCOLORS (int)(sizeof palette / sizeof palette[0])
static const char *const dashes[] = {NULL, "7 4", "2 3", "9 3 2 3"};
enum { MK_CIRCLE, MK_SQUARE, MK_TRIANGLE, MK_DIAMOND, MK_DOWN, NMARKERS };

/* ---- scales ------------------------------------------------------------------------------- */

double dg_svg_nice(double x, bool round)
{
    if (!(x > 0) || !isfinite(x))
        return 1;
    double e = floor(log10(x));
    double p = pow(10, e), f = x / p, nf;
    if (round)
        nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else
        nf = f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10;
    return nf * p;
}

static void scale_log(double lo, double hi, dg_svg_scale *s)
{
    static const double m125[] = {1, 2, 5};
    if (!(lo > 0) || !isfinite(lo))
        lo = hi > 0 && isfinite(hi) ? hi / 10 : 1;
    if (!(hi > lo) || !isfinite(hi))
        hi = lo * 10;
    s->log = true;
    s->step = 0;
    s->nticks = 0;
    double elo = floor(log10(lo)), ehi = floor(log10(hi));
    if (log10(hi / lo) <= 3) {
        /* the range ends at 1-2-5 values around the data; ticks at every 1-2-5 value */
        s->lo = pow(10, elo);
        for (int k = 2; k >= 0; k--)
            if (m125[k] * pow(10, elo) <= lo * (1 + 1e-9)) {
                s->lo = m125[k] * pow(10, elo);
                break;
            }
        s->hi = 10 * pow(10, ehi);
        for (int k = 0; k < 3; k++)
            if (m125[k] * pow(10, ehi) >= hi * (1 - 1e-9)) {
                s->hi = m125[k] * pow(10, ehi);
                break;
            }
        for (double e = elo; e <= ehi + 1 && s->nticks < DG_SVG_MAX_TICKS; e++)
            for (int k = 0; k < 3; k++) {
                double v = m125[k] * pow(10, e);
                if (v >= s->lo * (1 - 1e-9) && v <= s->hi * (1 + 1e-9) &&
                    s->nticks < DG_SVG_MAX_TICKS)
                    s->ticks[s->nticks++] = v;
            }
    } else {
        s->lo = pow(10, elo);
        s->hi = pow(10, ceil(log10(hi) - 1e-9));
        int every = (int)((log10(s->hi / s->lo) + 9) / 10); /* at most ~10 labels */
        if (every < 1)
            every = 1;
        for (double e = elo; e <= log10(s->hi) + 1e-9 && s->nticks < DG_SVG_MAX_TICKS; e += every)
            s->ticks[s->nticks++] = pow(10, e);
    }
}

void dg_svg_scale_make(double lo, double hi, int target, bool log, dg_svg_scale *out)
{
    memset(out, 0, sizeof *out);
    if (log) {
        scale_log(lo, hi, out);
        return;
    }
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = isfinite(lo) ? lo : isfinite(hi) ? hi : 0;
        hi = lo;
    }
    if (lo > hi) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (lo == hi) {
        double d = lo == 0 ? 1 : fabs(lo) * 0.1;
        lo = lo == 0 ? 0 : lo - d;
        hi += d;
    }
    if (target < 2)
        target = 2;
    double step = dg_svg_nice((hi - lo) / (target - 1), true);
    double glo, ghi;
    /* data may stick out of the nice range by a hair (an interval ending at 10.01 s
     * should not stretch the axis to 11 s) */
    double slack = (hi - lo) * 0.005;
    for (;;) {
        glo = floor((lo + slack) / step + 1e-9) * step;
        ghi = ceil((hi - slack) / step - 1e-9) * step;
        if ((ghi - glo) / step + 1 <= DG_SVG_MAX_TICKS)
            break;
        step = dg_svg_nice(step * 2, false);
    }
    out->lo = glo;
    out->hi = ghi;
    out->step = step;
    int n = (int)llround((ghi - glo) / step) + 1;
    for (int i = 0; i < n && i < DG_SVG_MAX_TICKS; i++) {
        double v = glo + i * step;
        v = llround(v / step) * step; /* no 0.30000000000000004 */
        out->ticks[out->nticks++] = v == 0 ? 0 : v;
    }
}

double dg_svg_scale_pos(const dg_svg_scale *s, double v)
{
    if (s->log) {
        if (!(v > 0))
            return NAN;
        return (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
    }
    return (v - s->lo) / (s->hi - s->lo);
}

void dg_svg_tick_label(const dg_svg_scale *s, double v, char *buf, size_t len)
{
    double big = fmax(fabs(s->lo), fabs(s->hi));
    double div = 1;
    const char *suffix = "";
    if (big >= 1e7) {
        div = 1e6;
        suffix = "M";
    } else if (big >= 1e4) {
        div = 1e3;
        suffix = "k";
    }
    if (s->log) {
        /* each decade names itself: 0.001, 0.5, 20, 1k, 2M */
        if (v >= 1e6)
            snprintf(buf, len, "%gM", v / 1e6);
        else if (v >= 1e3)
            snprintf(buf, len, "%gk", v / 1e3);
        else
            snprintf(buf, len, "%g", v);
        return;
    }
    int dec = (int)-floor(log10(s->step / div) + 1e-9);
    if (dec < 0)
        dec = 0;
    snprintf(buf, len, "%.*f%s", dec, v / div, v == 0 ? "" : suffix);
    if (!strncmp(buf, "-0", 2) && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
}

/* ---- text ---------------------------------------------------------------------------------- */

void dg_svg_escape(dg_strbuf *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': dg_sb_add(out, "&amp;"); break;
        case '<': dg_sb_add(out, "&lt;"); break;
        case '>': dg_sb_add(out, "&gt;"); break;
        case '"': dg_sb_add(out, "&quot;"); break;
        case '\'': dg_sb_add(out, "&#39;"); break;
        default:
            /* control characters are not allowed in XML 1.0 */
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
                dg_sb_addc(out, ' ');
            else
                dg_sb_addc(out, *s);
        }
    }
}

static size_t chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static double text_w(const char *s, double size)
{
    return (double)chars(s) * CHAR_W * size / 11.5;
}

/* s cut to at most max characters (UTF-8 aware), with "..." when cut; caller frees. */
static char *shorten(const char *s, size_t max)
{
    if (chars(s) <= max)
        return xstrdup(s);
    size_t n = 0, i = 0;
    for (; s[i] && n < max - 1; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    while (s[i] && ((unsigned char)s[i] & 0xC0) == 0x80)
        i++;
    return xasprintf("%.*s...", (int)i, s);
}

static void text_el(dg_strbuf *o, double x, double y, const char *anchor, double size,
                    const char *fill, const char *extra, const char *s)
{
    dg_sb_printf(o, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s font-size=\"%.1f\" fill=\"%s\"%s%s>", x, y,
                 anchor ? " text-anchor=\"" : "", anchor ? anchor : "", anchor ? "\"" : "", size,
                 fill, extra ? " " : "", extra ? extra : "");
    dg_svg_escape(o, s);
    dg_sb_add(o, "</text>\n");
}

static char *axis_title(const dg_rep_axis *a)
{
    const char *l = a->label ? a->label : "";
    return a->unit ? xasprintf("%s (%s)%s", l, a->unit, a->log ? ", log scale" : "")
                   : xasprintf("%s%s", l, a->log ? " (log scale)" : "");
}

static void fmt_val(double v, char *buf, size_t len)
{
    dg_rep_fmt_num(v, DG_PREC_AUTO, buf, len);
}

/* ---- series styles ------------------------------------------------------------------------- */

typedef struct style {
    const char *color;
    int marker;
    const char *dash;
} style;

static style series_style(int i)
{
    /* color, marker and dash all change from one series to the next, so that lines stay
     * apart in grey print and for color-blind readers, and a line hidden under another
     * shows through the dash gaps */
    return (style){palette[i % NCOLORS], i % NMARKERS, dashes[i % 4]};
}

/* A point marker of shape st.marker; tip (escaped here) becomes its tooltip. */
static void marker(dg_strbuf *o, const style *st, double x, double y, double r, const char *tip)
{
    const char *tail = tip ? ">" : "/>";
    const char *common = "stroke=\"#fff\" stroke-width=\"1\"";
    switch (st->marker) {
    case MK_CIRCLE:
        dg_sb_printf(o, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" %s%s", x,
                     y, r, st->color, common, tail);
        break;
    case MK_SQUARE:
        dg_sb_printf(o, "<rect class=\"pt\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        "fill=\"%s\" %s%s",
                     x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8, st->color, common, tail);
        break;
    default: {
        double k = r * 1.25;
        if (st->marker == MK_TRIANGLE)
            dg_sb_printf(o, "<path class=\"pt\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - k,
                         x + k, y + k * 0.8, x - k, y + k * 0.8);
        else if (st->marker == MK_DOWN)
            dg_sb_printf(o, "<path class=\"pt\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y + k,
                         x + k, y - k * 0.8, x - k, y - k * 0.8);
        else
            dg_sb_printf(o, "<path class=\"pt\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x,
                         y - k, x + k, y, x, y + k, x - k, y);
        dg_sb_printf(o, " fill=\"%s\" %s%s", st->color, common, tail);
    }
    }
    if (tip) {
        dg_sb_add(o, "<title>");
        dg_svg_escape(o, tip);
        static const char *const ends[] = {"</circle>", "</rect>", "</path>", "</path>", "</path>"};
        dg_sb_printf(o, "</title>%s", ends[st->marker]);
    }
    dg_sb_add(o, "\n");
}

/* ---- frame: title, grid, ticks, axis titles, legend --------------------------------------- */

typedef struct frame {
    double x0, y0, w, h;    /* plot area */
    dg_svg_scale xs, ys;
    dg_svg_scale ys2;       /* the right-hand axis, when y2 */
    bool y2;
    int ncats;              /* > 0: categorical x axis with this many bands */
    bool rotate;            /* categorical labels rotated */
    double legend_y, height;
    int legend_rows;
} frame;

static double fx(const frame *f, double x)
{
    if (f->ncats > 0)
        return f->x0 + (x + 0.5) * f->w / f->ncats;
    return f->x0 + dg_svg_scale_pos(&f->xs, x) * f->w;
}

static double fy(const frame *f, double y)
{
    return f->y0 + f->h - dg_svg_scale_pos(&f->ys, y) * f->h;
}

/* y of a value of series s: on the right-hand axis when the series is plotted there */
static double fys(const frame *f, const dg_rep_series *s, double y)
{
    if (f->y2 && s->right)
        return f->y0 + f->h - dg_svg_scale_pos(&f->ys2, y) * f->h;
    return fy(f, y);
}

/* Legend entries wrap into rows; returns the number of rows. */
static int legend_layout(const dg_rep_chart *c, double width, double *xs, int *rows)
{
    double x = 0;
    int row = 0;
    for (int i = 0; i < c->nseries; i++) {
        char *name = shorten(c->series[i].name, 60);
        double w = 30 + text_w(name, 11.5) + 18;
        free(name);
        if (x > 0 && x + w > width) {
            row++;
            x = 0;
        }
        xs[i] = x;
        rows[i] = row;
        x += w;
    }
    return c->nseries ? row + 1 : 0;
}

static void legend_draw(dg_strbuf *o, const dg_rep_chart *c, const frame *f, bool lines)
{
    if (c->nseries < 2)
        return;
    double *xs = xcalloc((size_t)c->nseries, sizeof *xs);
    int *rows = xcalloc((size_t)c->nseries, sizeof *rows);
    legend_layout(c, VIEW_W - 2 * f->x0 / 3, xs, rows);
    dg_sb_add(o, "<g class=\"legend\">\n");
    for (int i = 0; i < c->nseries; i++) {
        style st = series_style(i);
        double x = 16 + xs[i], y = f->legend_y + rows[i] * 20;
        if (lines)
            dg_sb_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                            "stroke-width=\"2.5\"%s%s%s/>\n",
                         x, y, x + 24, y, st.color, st.dash ? " stroke-dasharray=\"" : "",
                         st.dash ? st.dash : "", st.dash ? "\"" : "");
        marker(o, &st, x + 12, y, 4, NULL);
        char *name = shorten(c->series[i].name, 60);
        text_el(o, x + 30, y + 4, NULL, 11.5, "#333", NULL, name);
        free(name);
    }
    dg_sb_add(o, "</g>\n");
    free(xs);
    free(rows);
}

/* Data ranges of a chart over finite points (whiskers and the reference line included);
 * y over the series of one axis (right: those plotted against y2). */
static void ranges_of(const dg_rep_chart *c, bool right, double *xlo, double *xhi, double *ylo,
                      double *yhi)
{
    *xlo = *ylo = INFINITY;
    *xhi = *yhi = -INFINITY;
    for (int i = 0; i < c->nseries; i++)
        for (int j = 0; j < c->series[i].n; j++) {
            const dg_rep_point *p = &c->series[i].pts[j];
            if (!isfinite(p->y) || !isfinite(p->x))
                continue;
            *xlo = fmin(*xlo, p->x);
            *xhi = fmax(*xhi, p->x);
            if (c->series[i].right != right)
                continue;
            double v[3] = {p->y, p->lo, p->hi};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k]) && (!c->y.log || v[k] > 0)) {
                    *ylo = fmin(*ylo, v[k]);
                    *yhi = fmax(*yhi, v[k]);
                }
        }
    if (isfinite(c->y.ref)) {
        *ylo = fmin(*ylo, c->y.ref);
        *yhi = fmax(*yhi, c->y.ref);
    }
    if (c->y.zero && !c->y.log) {
        *ylo = fmin(*ylo, 0);
        *yhi = fmax(*yhi, 0);
    }
    if (c->x.zero && !c->x.log && c->x.ncats == 0) {
        *xlo = fmin(*xlo, 0);
        *xhi = fmax(*xhi, 0);
    }
}

static void ranges(const dg_rep_chart *c, double *xlo, double *xhi, double *ylo, double *yhi)
{
    ranges_of(c, false, xlo, xhi, ylo, yhi);
}

/* True when some series of c is plotted against its second y axis. */
static bool has_y2(const dg_rep_chart *c)
{
    for (int i = 0; c->y2.label && i < c->nseries; i++)
        if (c->series[i].right)
            return true;
    return false;
}

/* Lays out the frame (scales, margins, height) and draws its parts into o. */
static void frame_draw(dg_strbuf *o, const dg_rep_chart *c, frame *f)
{
    double xlo, xhi, ylo, yhi;
    ranges(c, &xlo, &xhi, &ylo, &yhi);
    memset(f, 0, sizeof *f);
    f->ncats = c->x.ncats;
    if (f->ncats == 0)
        dg_svg_scale_make(xlo, xhi, 8, c->x.log, &f->xs);
    if (f->ncats == 0 && c->x.integer && !c->x.log && f->xs.step < 1)
        dg_svg_scale_make(xlo, xhi, (int)(xhi - xlo) + 1, false, &f->xs);
    dg_svg_scale_make(ylo, yhi, 6, c->y.log, &f->ys);
    if (c->y.unit && !strcmp(c->y.unit, "%") && !c->y.log && yhi <= 100 && f->ys.hi > 100) {
        /* a share never goes past 100%: neither does its axis */
        while (f->ys.nticks > 0 && f->ys.ticks[f->ys.nticks - 1] > 100)
            f->ys.nticks--;
        f->ys.hi = 100;
    }
    /* y tick label width sets the left margin */
    double lw = 0, rw = 0;
    char buf[64];
    for (int i = 0; i < f->ys.nticks; i++) {
        dg_svg_tick_label(&f->ys, f->ys.ticks[i], buf, sizeof buf);
        lw = fmax(lw, text_w(buf, 11));
    }
    f->y2 = has_y2(c);
    if (f->y2) { /* the right-hand axis: its own range from 0 (a share stops at 100%) */
        double a, b, lo2, hi2;
        ranges_of(c, true, &a, &b, &lo2, &hi2);
        if (!c->y2.log)
            lo2 = fmin(lo2, 0);
        dg_svg_scale_make(lo2, hi2, 6, c->y2.log, &f->ys2);
        if (c->y2.unit && !strcmp(c->y2.unit, "%") && !c->y2.log && hi2 <= 100 && f->ys2.hi > 100) {
            while (f->ys2.nticks > 0 && f->ys2.ticks[f->ys2.nticks - 1] > 100)
                f->ys2.nticks--;
            f->ys2.hi = 100;
        }
        for (int i = 0; i < f->ys2.nticks; i++) {
            dg_svg_tick_label(&f->ys2, f->ys2.ticks[i], buf, sizeof buf);
            rw = fmax(rw, text_w(buf, 11));
        }
    }
    f->x0 = 34 + lw;
    f->y0 = c->note ? 56 : 42;
    f->w = VIEW_W - f->x0 - 22 - (f->y2 ? rw + 30 : 0);
    f->h = PLOT_H;
    double bottom = 44;
    if (f->ncats) {
        double band = f->w / f->ncats, cw = 0;
        for (int i = 0; i < f->ncats; i++) {
            char *l = shorten(c->x.cats[i], MAX_LABEL);
            cw = fmax(cw, text_w(l, 11));
            free(l);
        }
        f->rotate = cw > band - 8;
        if (f->rotate)
            bottom = 30 + cw * 0.6;
    }
    double *lx = xcalloc((size_t)c->nseries + 1, sizeof *lx);
    int *lr = xcalloc((size_t)c->nseries + 1, sizeof *lr);
    f->legend_rows = c->nseries > 1 ? legend_layout(c, VIEW_W - 2 * f->x0 / 3, lx, lr) : 0;
    free(lx);
    free(lr);
    f->legend_y = f->y0 + f->h + bottom + 14;
    f->height = f->legend_y + (f->legend_rows ? f->legend_rows * 20 : 0) - (f->legend_rows ? 4 : 14);

    /* grid and y ticks */
    dg_sb_add(o, "<g class=\"axis y\">\n");
    for (int i = 0; i < f->ys.nticks; i++) {
        double y = fy(f, f->ys.ticks[i]);
        dg_sb_printf(o, "<line class=\"tick y\" data-v=\"%.10g\" x1=\"%.1f\" y1=\"%.2f\" "
                        "x2=\"%.1f\" y2=\"%.2f\" stroke=\"#e3e3e3\"/>\n",
                     f->ys.ticks[i], f->x0, y, f->x0 + f->w, y);
        dg_svg_tick_label(&f->ys, f->ys.ticks[i], buf, sizeof buf);
        text_el(o, f->x0 - 7, y + 4, "end", 11, "#555", NULL, buf);
    }
    if (f->y2) {
        dg_sb_add(o, "</g>\n<g class=\"axis y2\">\n");
        for (int i = 0; i < f->ys2.nticks; i++) {
            double y = f->y0 + f->h - dg_svg_scale_pos(&f->ys2, f->ys2.ticks[i]) * f->h;
            dg_sb_printf(o, "<line class=\"tick y2\" data-v=\"%.10g\" x1=\"%.1f\" y1=\"%.2f\" "
                            "x2=\"%.1f\" y2=\"%.2f\" stroke=\"#888\"/>\n",
                         f->ys2.ticks[i], f->x0 + f->w, y, f->x0 + f->w + 5, y);
            dg_svg_tick_label(&f->ys2, f->ys2.ticks[i], buf, sizeof buf);
            text_el(o, f->x0 + f->w + 8, y + 4, "start", 11, "#555", NULL, buf);
        }
        dg_sb_printf(o, "<path d=\"M%.1f %.1fV%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
                     f->x0 + f->w, f->y0, f->y0 + f->h);
        char *t2 = axis_title(&c->y2);
        char tr2[96];
        double xr = VIEW_W - 10;
        snprintf(tr2, sizeof tr2, "transform=\"rotate(90 %.1f %.1f)\"", xr, f->y0 + f->h / 2);
        text_el(o, xr, f->y0 + f->h / 2, "middle", 12, "#333", tr2, t2);
        free(t2);
    }
    dg_sb_add(o, "</g>\n<g class=\"axis x\">\n");
    if (f->ncats) {
        for (int i = 0; i < f->ncats; i++) {
            double x = fx(f, i);
            dg_sb_printf(o, "<line class=\"tick x\" data-v=\"%d\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
                            "y2=\"%.1f\" stroke=\"#888\"/>\n",
                         i, x, f->y0 + f->h, x, f->y0 + f->h + 5);
            char *l = shorten(c->x.cats[i], MAX_LABEL);
            if (f->rotate) {
                char tr[96];
                snprintf(tr, sizeof tr, "transform=\"rotate(-35 %.1f %.1f)\"", x,
                         f->y0 + f->h + 16);
                text_el(o, x, f->y0 + f->h + 16, "end", 11, "#444", tr, l);
            } else {
                text_el(o, x, f->y0 + f->h + 18, "middle", 11, "#444", NULL, l);
            }
            free(l);
        }
    } else {
        for (int i = 0; i < f->xs.nticks; i++) {
            double x = fx(f, f->xs.ticks[i]);
            dg_sb_printf(o, "<line class=\"tick x\" data-v=\"%.10g\" x1=\"%.2f\" y1=\"%.1f\" "
                            "x2=\"%.2f\" y2=\"%.1f\" stroke=\"#888\"/>\n",
                         f->xs.ticks[i], x, f->y0 + f->h, x, f->y0 + f->h + 5);
            dg_svg_tick_label(&f->xs, f->xs.ticks[i], buf, sizeof buf);
            text_el(o, x, f->y0 + f->h + 18, "middle", 11, "#555", NULL, buf);
        }
    }
    dg_sb_add(o, "</g>\n");
    /* axis lines, reference line, axis titles */
    dg_sb_printf(o, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#888\"/>\n", f->x0, f->y0,
                 f->y0 + f->h, f->x0 + f->w);
    if (isfinite(c->y.ref)) {
        double y = fy(f, c->y.ref);
        dg_sb_printf(o, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" "
                        "stroke=\"#333\" stroke-dasharray=\"5 4\"/>\n",
                     f->x0, y, f->x0 + f->w, y);
    }
    char *xt = axis_title(&c->x), *yt = axis_title(&c->y);
    text_el(o, f->x0 + f->w / 2, f->y0 + f->h + bottom - 6, "middle", 12, "#333", NULL, xt);
    char tr[96];
    snprintf(tr, sizeof tr, "transform=\"rotate(-90 14 %.1f)\"", f->y0 + f->h / 2);
    text_el(o, 14, f->y0 + f->h / 2, "middle", 12, "#333", tr, yt);
    free(xt);
    free(yt);
}

/* ---- charts -------------------------------------------------------------------------------- */

static void tip_text(const dg_rep_chart *c, const dg_rep_series *s, const dg_rep_point *p,
                     char *buf, size_t len)
{
    char xv[64], yv[64], lo[64], hi[64];
    bool cat = c->x.ncats > 0;
    if (cat && p->x >= 0 && p->x < c->x.ncats)
        snprintf(xv, sizeof xv, "%.60s", c->x.cats[(int)p->x]);
    else
        fmt_val(p->x, xv, sizeof xv);
    fmt_val(p->y, yv, sizeof yv);
    const dg_rep_axis *ya = s->right && c->y2.label ? &c->y2 : &c->y;
    const char *xu = !cat && c->x.unit ? c->x.unit : "", *yu = ya->unit ? ya->unit : "";
    int n = snprintf(buf, len, "%s, %s%s%s: %s%s%s", s->name, xv, *xu ? " " : "", xu, yv,
                     *yu ? " " : "", yu);
    if (isfinite(p->lo) && isfinite(p->hi) && n > 0 && (size_t)n < len) {
        fmt_val(p->lo, lo, sizeof lo);
        fmt_val(p->hi, hi, sizeof hi);
        snprintf(buf + n, len - (size_t)n, " (%s %s, %s %s)", c->lo_name ? c->lo_name : "low", lo,
                 c->hi_name ? c->hi_name : "high", hi);
    }
}

static void whisker(dg_strbuf *o, const frame *f, const dg_rep_series *s, double x,
                    const dg_rep_point *p, const char *color)
{
    if (!isfinite(p->lo) || !isfinite(p->hi))
        return;
    double y1 = fys(f, s, p->lo), y2 = fys(f, s, p->hi);
    if (!isfinite(y1) || !isfinite(y2))
        return;
    dg_sb_printf(o, "<path class=\"whisker\" d=\"M%.1f %.2fV%.2fM%.1f %.2fH%.1fM%.1f %.2fH%.1f\" "
                    "stroke=\"%s\" stroke-width=\"1.3\" fill=\"none\"/>\n",
                 x, y1, y2, x - 4, y1, x + 4, x - 4, y2, x + 4, color);
}

static void line_series(dg_strbuf *o, const dg_rep_chart *c, const frame *f)
{
    for (int i = 0; i < c->nseries; i++) {
        const dg_rep_series *s = &c->series[i];
        style st = series_style(i);
        double dodge = 0;
        if (f->ncats && c->nseries > 1) {
            double band = f->w / f->ncats;
            double step = fmin(12, band * 0.6 / c->nseries);
            dodge = (i - (c->nseries - 1) / 2.0) * step;
        }
        dg_sb_add(o, "<g class=\"series-group\">\n");
        if (!f->ncats || c->x.ordered) {
            dg_sb_add(o, "<path class=\"series\" data-series=\"");
            dg_svg_escape(o, s->name);
            dg_sb_add(o, "\" d=\"");
            bool pen = false;
            for (int j = 0; j < s->n; j++) {
                double x = fx(f, s->pts[j].x) + dodge, y = fys(f, s, s->pts[j].y);
                if (!isfinite(x) || !isfinite(y)) {
                    pen = false;
                    continue;
                }
                dg_sb_printf(o, "%s%.2f %.2f", pen ? "L" : j ? "M" : "M", x, y);
                pen = true;
            }
            dg_sb_printf(o, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                            "stroke-linejoin=\"round\" stroke-linecap=\"round\"%s%s%s>",
                         st.color, st.dash ? " stroke-dasharray=\"" : "", st.dash ? st.dash : "",
                         st.dash ? "\"" : "");
            dg_sb_add(o, "<title>");
            dg_svg_escape(o, s->name);
            dg_sb_add(o, "</title></path>\n");
        }
        bool marks = f->ncats || s->n <= MARKERS_MAX;
        for (int j = 0; j < s->n; j++) {
            const dg_rep_point *p = &s->pts[j];
            double x = fx(f, p->x) + dodge, y = fys(f, s, p->y);
            if (!isfinite(x) || !isfinite(y))
                continue;
            whisker(o, f, s, x, p, st.color);
            bool lone = (j == 0 || !isfinite(s->pts[j - 1].y)) &&
                        (j + 1 == s->n || !isfinite(s->pts[j + 1].y));
            if (marks || lone) {
                char tip[512];
                tip_text(c, s, p, tip, sizeof tip);
                marker(o, &st, x, y, marks ? 3.6 : 2.5, tip);
            }
        }
        dg_sb_add(o, "</g>\n");
    }
}

/* The chart's marks (a run's events): a dashed vertical line across the plot area at each,
 * its label shortened at the top and whole as the tooltip. */
static void marks_draw(dg_strbuf *o, const dg_rep_chart *c, const frame *f)
{
    for (int i = 0; i < c->nmarks && !f->ncats; i++) {
        double v = c->marks[i].x;
        if (!(v >= f->xs.lo && v <= f->xs.hi))
            continue;
        double x = fx(f, v);
        dg_sb_printf(o, "<g class=\"mark\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                        "stroke=\"#444\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"><title>",
                     x, f->y0, x, f->y0 + f->h);
        dg_svg_escape(o, c->marks[i].label);
        dg_sb_add(o, "</title></line>");
        char *shown = shorten(c->marks[i].label, 36);
        bool right = x > f->x0 + f->w * 0.7; /* near the right edge: the label on the left */
        text_el(o, right ? x - 4 : x + 4, f->y0 + 12 + 12 * (i % 3), right ? "end" : NULL, 10.5,
                "#333", NULL, shown);
        free(shown);
        dg_sb_add(o, "</g>\n");
    }
}

static void dot_series(dg_strbuf *o, const dg_rep_chart *c, const frame *f)
{
    double band = f->ncats ? f->w / f->ncats : f->w;
    double step = fmin(8, band * 0.5 / (c->nseries ? c->nseries : 1));
    /* per category, a thin grey line through the series in order (p50 ... p99.9 rising
     * left to right), so that each category reads as one profile */
    for (int k = 0; k < f->ncats; k++) {
        dg_strbuf d = DG_STRBUF_INIT;
        int n = 0;
        for (int i = 0; i < c->nseries; i++)
            for (int j = 0; j < c->series[i].n; j++) {
                double y = fy(f, c->series[i].pts[j].y);
                if (c->series[i].pts[j].x != k || !isfinite(y))
                    continue;
                double x = fx(f, k) + (i - (c->nseries - 1) / 2.0) * step;
                dg_sb_printf(&d, "%s%.1f %.2f", n++ ? "L" : "M", x, y);
            }
        if (n > 1)
            dg_sb_printf(o, "<path class=\"profile\" d=\"%s\" fill=\"none\" stroke=\"#c4c4c4\" "
                            "stroke-width=\"1.5\"/>\n",
                         dg_sb_str(&d));
        dg_sb_free(&d);
    }
    for (int i = 0; i < c->nseries; i++) {
        const dg_rep_series *s = &c->series[i];
        style st = series_style(i);
        /* side by side, so that equal values (p99 == p99.9) stay visible */
        double dodge = (i - (c->nseries - 1) / 2.0) * step;
        dg_sb_add(o, "<g class=\"series-group\" data-series=\"");
        dg_svg_escape(o, s->name);
        dg_sb_add(o, "\">\n");
        for (int j = 0; j < s->n; j++) {
            double x = fx(f, s->pts[j].x) + dodge, y = fy(f, s->pts[j].y);
            if (!isfinite(x) || !isfinite(y))
                continue;
            whisker(o, f, s, x, &s->pts[j], st.color);
            char tip[512];
            tip_text(c, s, &s->pts[j], tip, sizeof tip);
            marker(o, &st, x, y, 4.5, tip);
        }
        dg_sb_add(o, "</g>\n");
    }
}

/* Horizontal bars: categories down the left, values along the bottom. */
/* The value axis of a horizontal bar chart: a grid line and a label per tick, below bars
 * that span [x0, x0 + w] x [y0, y0 + h]. */
static void value_axis(dg_strbuf *o, const dg_svg_scale *xs, double x0, double y0, double w,
                       double h)
{
    char buf[64];
    dg_sb_add(o, "<g class=\"axis x\">\n");
    for (int i = 0; i < xs->nticks; i++) {
        double x = x0 + dg_svg_scale_pos(xs, xs->ticks[i]) * w;
        dg_sb_printf(o, "<line class=\"tick x\" data-v=\"%.10g\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
                        "y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
                     xs->ticks[i], x, y0, x, y0 + h + 5);
        dg_svg_tick_label(xs, xs->ticks[i], buf, sizeof buf);
        text_el(o, x, y0 + h + 18, "middle", 11, "#555", NULL, buf);
    }
    dg_sb_add(o, "</g>\n");
}

/* The widest category label of a horizontal bar chart, in px. */
static double cat_label_w(const dg_rep_chart *c)
{
    double lw = 0;
    for (int k = 0; k < c->x.ncats; k++) {
        char *l = shorten(c->x.cats[k], MAX_LABEL + 6);
        lw = fmax(lw, text_w(l, 11));
        free(l);
    }
    return lw;
}

static double bar_chart(dg_strbuf *o, const dg_rep_chart *c)
{
    const dg_rep_series *s = c->nseries ? &c->series[0] : NULL;
    int n = c->x.ncats;
    double vmax = 0;
    for (int j = 0; s && j < s->n; j++)
        if (isfinite(s->pts[j].y))
            vmax = fmax(vmax, s->pts[j].y);
    dg_svg_scale xs;
    dg_svg_scale_make(0, vmax, 7, false, &xs);
    double lw = cat_label_w(c);
    double x0 = 16 + lw + 10, y0 = c->note ? 56 : 42, band = 24;
    double w = VIEW_W - x0 - 70, h = band * (n ? n : 1);
    char buf[64];
    value_axis(o, &xs, x0, y0, w, h);
    const char *color = palette[0];
    /* one number of decimals for all bar labels, from the largest */
    bool ints = true;
    for (int j = 0; s && j < s->n; j++)
        ints = ints && (!isfinite(s->pts[j].y) || s->pts[j].y == floor(s->pts[j].y));
    int dec = ints || vmax >= 100 ? 0 : vmax >= 10 ? 1 : vmax >= 1 ? 2 : 3;
    for (int j = 0; s && j < s->n; j++) {
        int k = (int)s->pts[j].x;
        if (k < 0 || k >= n)
            continue;
        double y = y0 + k * band;
        char *l = shorten(c->x.cats[k], MAX_LABEL + 6);
        text_el(o, x0 - 8, y + band / 2 + 4, "end", 11, "#333", NULL, l);
        free(l);
        double v = s->pts[j].y;
        if (!isfinite(v))
            continue;
        double bw = dg_svg_scale_pos(&xs, v) * w;
        dg_sb_printf(o, "<rect class=\"bar\" data-v=\"%.10g\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" "
                        "height=\"%.1f\" fill=\"%s\"><title>",
                     v, x0, y + 4, bw < 0.5 && v > 0 ? 0.5 : bw, band - 8, color);
        dg_svg_escape(o, c->x.cats[k]);
        dg_rep_fmt_num(v, dec, buf, sizeof buf);
        dg_sb_printf(o, ": %s %s</title></rect>\n", buf, c->y.unit ? c->y.unit : "");
        text_el(o, x0 + bw + 5, y + band / 2 + 4, NULL, 11, "#333", NULL, buf);
    }
    dg_sb_printf(o, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#888\"/>\n", x0, y0, y0 + h);
    char *t = axis_title(&c->y);
    text_el(o, x0 + w / 2, y0 + h + 38, "middle", 12, "#333", NULL, t);
    free(t);
    return y0 + h + 50;
}

/* Horizontal bars, one per category, each made of the series' values end to end (shares of
 * a whole), a legend of the series below. */
static double stack_chart(dg_strbuf *o, const dg_rep_chart *c)
{
    int n = c->x.ncats;
    double vmax = 0;
    for (int k = 0; k < n; k++) {
        double sum = 0;
        for (int i = 0; i < c->nseries; i++)
            for (int j = 0; j < c->series[i].n; j++)
                if ((int)c->series[i].pts[j].x == k && isfinite(c->series[i].pts[j].y))
                    sum += c->series[i].pts[j].y;
        vmax = fmax(vmax, sum);
    }
    dg_svg_scale xs;
    dg_svg_scale_make(0, vmax, 6, false, &xs);
    double lw = cat_label_w(c);
    double x0 = 16 + lw + 10, y0 = c->note ? 56 : 42, band = 28;
    double w = VIEW_W - x0 - 30, h = band * (n ? n : 1);
    char buf[64];
    value_axis(o, &xs, x0, y0, w, h);
    for (int k = 0; k < n; k++) {
        double y = y0 + k * band, at = 0;
        char *l = shorten(c->x.cats[k], MAX_LABEL + 6);
        text_el(o, x0 - 8, y + band / 2 + 4, "end", 11, "#333", NULL, l);
        free(l);
        for (int i = 0; i < c->nseries; i++) {
            const dg_rep_series *s = &c->series[i];
            for (int j = 0; j < s->n; j++) {
                double v = s->pts[j].y;
                if ((int)s->pts[j].x != k || !isfinite(v) || v <= 0)
                    continue;
                double bx = x0 + dg_svg_scale_pos(&xs, at) * w;
                double bw = dg_svg_scale_pos(&xs, at + v) * w + x0 - bx;
                at += v;
                dg_sb_printf(o, "<rect class=\"bar\" data-v=\"%.10g\" x=\"%.2f\" y=\"%.1f\" "
                                "width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>",
                             v, bx, y + 4, bw < 0.5 ? 0.5 : bw, band - 8, palette[i % NCOLORS]);
                dg_svg_escape(o, c->x.cats[k]);
                dg_sb_add(o, ", ");
                dg_svg_escape(o, s->name);
                dg_rep_fmt_num(v, vmax >= 10 ? 1 : 3, buf, sizeof buf);
                dg_sb_printf(o, ": %s %s</title></rect>\n", buf, c->y.unit ? c->y.unit : "");
                if (bw >= 34) /* the value inside the segment when it fits */
                    text_el(o, bx + bw / 2, y + band / 2 + 4, "middle", 10.5, "#fff", NULL, buf);
            }
        }
    }
    dg_sb_printf(o, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#888\"/>\n", x0, y0, y0 + h);
    char *t = axis_title(&c->y);
    text_el(o, x0 + w / 2, y0 + h + 38, "middle", 12, "#333", NULL, t);
    free(t);
    /* the legend: a swatch and a name per series */
    double *lx = xcalloc((size_t)c->nseries + 1, sizeof *lx);
    int *rows = xcalloc((size_t)c->nseries + 1, sizeof *rows);
    int nrows = legend_layout(c, VIEW_W - 32, lx, rows);
    double ly = y0 + h + 60;
    dg_sb_add(o, "<g class=\"legend\">\n");
    for (int i = 0; i < c->nseries; i++) {
        double x = 16 + lx[i], y = ly + rows[i] * 20;
        dg_sb_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" fill=\"%s\"/>\n", x + 2,
                     y - 5, palette[i % NCOLORS]);
        char *name = shorten(c->series[i].name, 60);
        text_el(o, x + 30, y + 4, NULL, 11.5, "#333", NULL, name);
        free(name);
    }
    dg_sb_add(o, "</g>\n");
    free(lx);
    free(rows);
    return ly + nrows * 20 + 6;
}

static void desc_text(dg_strbuf *o, const dg_rep_chart *c)
{
    static const char *const kinds[] = {"Line chart", "Dot chart", "Bar chart", "Stacked bar chart"};
    char *xt = axis_title(&c->x), *yt = axis_title(&c->y);
    dg_sb_printf(o, "%s of %s against %s; %d series", kinds[c->kind], yt, xt, c->nseries);
    for (int i = 0; i < c->nseries && i < 12; i++) {
        dg_sb_add(o, i ? ", " : ": ");
        dg_sb_add(o, c->series[i].name);
    }
    dg_sb_add(o, ".");
    free(xt);
    free(yt);
}

void dg_svg_chart(dg_strbuf *out, const dg_rep_chart *c, const char *uid)
{
    dg_strbuf body = DG_STRBUF_INIT;
    double height;
    if (dg_rep_chart_points(c) == 0) {
        text_el(&body, VIEW_W / 2, 100, "middle", 13, "#777", NULL, "no data");
        height = 140;
    } else if (c->kind == DG_CHART_BAR) {
        height = bar_chart(&body, c);
    } else if (c->kind == DG_CHART_STACK) {
        height = stack_chart(&body, c);
    } else {
        frame f;
        frame_draw(&body, c, &f);
        if (c->kind == DG_CHART_DOT)
            dot_series(&body, c, &f);
        else
            line_series(&body, c, &f);
        marks_draw(&body, c, &f);
        legend_draw(&body, c, &f, c->kind == DG_CHART_LINE && (c->x.ncats == 0 || c->x.ordered));
        height = f.height;
    }
    dg_sb_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 %.0f "
                      "%.0f\" width=\"100%%\" role=\"img\" aria-labelledby=\"%s-t %s-d\" "
                      "font-family=\"%s\" data-chart=\"",
                 VIEW_W, ceil(height), uid, uid, FONT);
    dg_svg_escape(out, c->id);
    dg_sb_printf(out, "\">\n<title id=\"%s-t\">", uid);
    dg_svg_escape(out, c->title);
    dg_sb_printf(out, "</title>\n<desc id=\"%s-d\">", uid);
    dg_strbuf d = DG_STRBUF_INIT;
    desc_text(&d, c);
    dg_svg_escape(out, dg_sb_str(&d));
    dg_sb_free(&d);
    dg_sb_printf(out, "</desc>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", VIEW_W,
                 ceil(height));
    text_el(out, 16, 24, NULL, 15, "#1a1a1a", "font-weight=\"600\"", c->title);
    if (c->note)
        text_el(out, 16, 42, NULL, 11.5, "#555", NULL, c->note);
    dg_sb_add(out, dg_sb_str(&body));
    dg_sb_add(out, "</svg>\n");
    dg_sb_free(&body);
}
