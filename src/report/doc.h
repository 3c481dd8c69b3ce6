/*
 * doc.h - the report model (doc.c): what a report shows, format-neutral, built from
 * result documents only (never from a database or live state) and shared by every output
 * format.
 *
 * A report (dg_report) has a title, notes and sections; a section is an ordered list of
 * items, each a paragraph, a table or a chart. Tables hold typed cells (number or text);
 * charts hold axes and series of points (x, y and optional whiskers lo..hi). Text,
 * markdown, CSV and JSON render tables (and the data of charts whose numbers are not
 * already in a table), HTML renders both with inline SVG (render.h, html.h, svg.h).
 * model.c builds it for `report`, compare.c for `compare`.
 *
 * Ownership: a dg_report owns all its strings, tables and charts (dg_report_free).
 * Strings passed to the builder functions are copied. Not thread-safe; one report is
 * built by one thread.
 */
#ifndef DG_REPORT_DOC_H
#define DG_REPORT_DOC_H

#include <stdbool.h>

#define DG_PREC_AUTO (-1) /* decimals chosen from the column's magnitude (text formats) */
#define DG_PREC_EACH (-2) /* decimals chosen for each value on its own (mixed units) */

typedef struct dg_rep_cell {
    double num; /* NaN = missing */
    char *str;  /* non-NULL: a text cell */
} dg_rep_cell;

typedef struct dg_rep_col {
    char *name;
    char *unit; /* NULL or "ms", "tx/s", "%", ... */
    int prec;   /* decimals in text formats, or DG_PREC_AUTO / DG_PREC_EACH */
} dg_rep_col;

typedef enum dg_table_style {
    DG_TABLE_GRID,    /* rows and columns */
    DG_TABLE_FACTS,   /* two text columns: name, value */
    DG_TABLE_FIGURES, /* one row of headline figures (HTML shows them as cards) */
} dg_table_style;

typedef struct dg_rep_table {
    char *id, *title, *note;
    dg_table_style style;
    bool folded;      /* HTML: collapsed by default (long tables) */
    bool row_head;    /* the first column names the rows (a pivot's x values); HTML makes
                         its cells row headers */
    int ncols;
    dg_rep_col *cols;
    int nrows, cap;   /* cells[row * ncols + col] */
    dg_rep_cell *cells;
} dg_rep_table;

typedef enum dg_chart_kind {
    DG_CHART_LINE, /* numeric x: lines through points; categorical x: dodged points */
    DG_CHART_DOT,  /* categorical x, one mark per series (percentile dot plot) */
    DG_CHART_BAR,  /* categorical, horizontal bars, one series */
    DG_CHART_STACK, /* categorical, horizontal bars of several series stacked end to end
                       (shares of a whole: each category's y values add up to it) */
} dg_chart_kind;

typedef struct dg_rep_axis {
    char *label;
    char *unit;  /* NULL or unit text */
    bool log;    /* logarithmic (all values > 0) */
    bool zero;   /* linear range includes 0 */
    bool integer; /* the values are integers: no ticks between them */
    bool ordered; /* categorical values that have an order: line charts connect them */
    char **cats; /* categorical axis: x values are indices 0..ncats-1 */
    int ncats;
    double ref;  /* a reference line (e.g. ratio 1.0), NaN for none */
} dg_rep_axis;

typedef struct dg_rep_point {
    double x, y;
    double lo, hi; /* whisker (min..max or CI), NaN for none */
} dg_rep_point;

typedef struct dg_rep_series {
    char *name;
    int n, cap;
    dg_rep_point *pts;
    bool right; /* plotted against the chart's second y axis (y2) */
} dg_rep_series;

typedef struct dg_rep_chart {
    char *id, *title, *note;
    dg_chart_kind kind;
    dg_rep_axis x, y;
    dg_rep_axis y2; /* the right-hand axis of the series marked `right` (line charts; its
                       label NULL when no series uses it) */
    int nseries;
    dg_rep_series *series;
    char *lo_name, *hi_name; /* what whiskers mean in data tables ("min", "max") */
    bool tabled; /* its numbers are in a table of the same section: text formats skip it */
    int nmarks;  /* vertical marks across a line chart: a run's --event commands */
    struct dg_rep_mark {
        double x;
        char *label;
    } *marks;
} dg_rep_chart;

/* Adds a vertical mark at x labelled label (copied) to c. */
void dg_rep_mark_add(dg_rep_chart *c, double x, const char *label);

typedef enum dg_item_kind { DG_ITEM_TEXT, DG_ITEM_TABLE, DG_ITEM_CHART } dg_item_kind;

typedef struct dg_rep_item {
    dg_item_kind kind;
    char *text;
    dg_rep_table *table;
    dg_rep_chart *chart;
} dg_rep_item;

typedef struct dg_rep_section {
    char *id, *title;
    bool folded; /* HTML: a collapsed <details> (one of many runs) */
    int nitems, cap;
    dg_rep_item *items;
} dg_rep_section;

typedef struct dg_report {
    char *title;
    char *subtitle;
    char **sources;  /* the input paths */
    int nsources;
    char **notes;    /* warnings shown at the top */
    int nnotes;
    int nsections, cap;
    dg_rep_section *sections;
} dg_report;

/* Frees a report (NULL ok). */
void dg_report_free(dg_report *r);

/* Builders (strings are copied; the returned pointers are owned by the report and valid
 * until dg_report_free). */
dg_report *dg_report_new(const char *title);
void dg_report_note(dg_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dg_report_source(dg_report *r, const char *path);
dg_rep_section *dg_report_section(dg_report *r, const char *id, const char *title);
void dg_rep_text(dg_rep_section *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
dg_rep_table *dg_rep_table_add(dg_rep_section *s, const char *id, const char *title,
                               dg_table_style style);
void dg_rep_col_add(dg_rep_table *t, const char *name, const char *unit, int prec);
/* Appends an empty row (all cells missing); the setters below fill the last row. */
void dg_rep_row(dg_rep_table *t);
void dg_rep_num(dg_rep_table *t, int col, double v);
void dg_rep_str(dg_rep_table *t, int col, const char *s);
void dg_rep_strf(dg_rep_table *t, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A fact row of a DG_TABLE_FACTS table (skipped when value is NULL). */
void dg_rep_fact(dg_rep_table *t, const char *name, const char *value);
dg_rep_chart *dg_rep_chart_add(dg_rep_section *s, const char *id, const char *title,
                               dg_chart_kind kind);
void dg_rep_axis_set(dg_rep_axis *a, const char *label, const char *unit);
void dg_rep_axis_cat(dg_rep_axis *a, const char *cat);
dg_rep_series *dg_rep_series_add(dg_rep_chart *c, const char *name);
void dg_rep_point_add(dg_rep_series *s, double x, double y, double lo, double hi);
/* Number of points with a finite y over all series. */
int dg_rep_chart_points(const dg_rep_chart *c);
/* Sets the y axis (or x, for bar charts: the value axis) to log when all finite values
 * (and whiskers) are > 0 and span at least a factor of `span`. */
void dg_rep_chart_autolog(dg_rep_chart *c, bool x_axis, double span);

/* The data of a chart as a table (x, then each series' y and its whiskers), owned by the
 * caller (dg_rep_table_free). Used by the text formats for charts that are not tabled. */
dg_rep_table *dg_rep_chart_table(const dg_rep_chart *c);
void dg_rep_table_free(dg_rep_table *t);

#endif
