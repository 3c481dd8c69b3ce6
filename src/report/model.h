/*
 * model.h - the report of `dbgauge report` (model.c), built from an input set
 * (inputs.h) into the report model (doc.h): one section per run (facts, headline figures,
 * time series, transactions, load, errors), the overview of several runs, and for a sweep
 * its section (grid.h).
 */
#ifndef DG_REPORT_MODEL_H
#define DG_REPORT_MODEL_H

#include "report/doc.h"
#include "report/inputs.h"

/* Builds the report for `dbgauge report` from a labelled set (at least one run); the
 * caller frees it (dg_report_free). */
dg_report *dg_report_build(const dg_rep_set *s);

#endif
