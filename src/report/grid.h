/*
 * grid.h - the sweep section of a report (grid.c): the runs of a set grouped by the
 * values of their varied sweep parameters (a group is a point of the grid, its runs the
 * repeats), one chart per varied parameter and metric (medians, whiskers min..max), the
 * pivot tables of the medians, and the table of the points.
 *
 * Not thread-safe; a grid is built and used by one thread.
 */
#ifndef DG_REPORT_GRID_H
#define DG_REPORT_GRID_H

#include "report/doc.h"
#include "report/inputs.h"
#include "report/summary.h"

typedef struct dg_rep_grid dg_rep_grid;

/* Groups the runs of s by their sweep parameters; sums[i] are the figures of run i. s and
 * sums are borrowed and must outlive the grid. The caller frees it (dg_rep_grid_free). */
dg_rep_grid *dg_rep_grid_new(const dg_rep_set *s, const dg_rep_summary *sums);

/* How many sweep parameters the grid has (0: the runs are no sweep). */
int dg_rep_grid_nparams(const dg_rep_grid *g);

/* Adds the section "sweep" to rep (call only when dg_rep_grid_nparams() > 0). */
void dg_rep_grid_section(dg_report *rep, const dg_rep_grid *g);

/* Frees a grid (NULL ok). */
void dg_rep_grid_free(dg_rep_grid *g);

#endif
