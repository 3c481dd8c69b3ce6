/*
 * study.h - the published studies' own summaries, drawn from a set of runs that answers
 * their question (study.c): the 40-table study's "CPU-bound vs I/O-bound throughput" —
 * per database, the insert test and the select tests whose results claim a regime
 * (`regime.claimed`: the hot key range cached, the whole range not), their medians, the
 * CPU-bound / I/O-bound ratio, the cache figures that show which regime each ran in, and
 * every database against the first. Pure functions of the documents.
 */
#ifndef DG_REPORT_STUDY_H
#define DG_REPORT_STUDY_H

#include "report/doc.h"
#include "report/inputs.h"

/* Adds the summaries the set answers (none when it answers no study's question). */
void dg_rep_study_sections(dg_report *rep, const dg_rep_set *s);

#endif
