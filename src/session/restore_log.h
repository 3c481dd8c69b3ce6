/*
 * restore_log.h - reading a restore tool's verbose output into the steps of a restore
 * (`dbgauge restore`): a pure line parser, fed each line with the time it arrived, that
 * knows three formats and says so when it knows none.
 *
 *   gbak (Firebird)  `gbak -c -v -st tdrw` (or a subset of t, d, r, w): each line carries
 *                    gbak's own figures (elapsed, delta, page reads, page writes, in the
 *                    columns its header line names). A table's step runs from its
 *                    "restoring data for table T" line to its last "N records restored"
 *                    line (rows: the last N; reads and writes: the lines in between); an
 *                    index's step is its "activating and creating deferred index I" line,
 *                    with the figures exactly as gbak printed them. Without -st, the lines'
 *                    arrival times stand in for gbak's.
 *   pg_restore       `pg_restore --verbose`: each object it reports ("creating INDEX
 *                    \"public.x\"", "processing data for table \"public.t\"") is a step
 *                    from its line to the next line (pg_restore prints before it acts); with
 *                    -j, from "launching item" to "finished item".
 *   psql             `psql -f` of a plain dump: each command tag (COPY N, CREATE INDEX,
 *                    ALTER TABLE ...) ends a step that began at the previous line.
 *   anything else    no steps (the mariadb client prints nothing per statement).
 *
 * Times are seconds since the restore began. A step's elapsed time is where the restore
 * stood when the step ended (gbak's "time" column, else the arrival time).
 * Not thread-safe; one dg_rlog per restore.
 */
#ifndef DG_SESSION_RESTORE_LOG_H
#define DG_SESSION_RESTORE_LOG_H

#include <stdbool.h>
#include <stdint.h>

typedef enum dg_rlog_format {
    DG_RLOG_NONE = 0,   /* whole-run timing only */
    DG_RLOG_GBAK,
    DG_RLOG_PG_RESTORE,
    DG_RLOG_PSQL,
    DG_RLOG_MARIADB,    /* known, and has no per-object output: whole-run timing */
} dg_rlog_format;

typedef struct dg_rlog_step {
    char name[128];
    char kind[16];      /* "table", "index", "constraint", "ddl", "other" */
    double start_s;     /* since the restore began */
    double elapsed_s;   /* where the restore stood when the step ended */
    double seconds;     /* the step's own time (gbak: its delta, or the span of its lines) */
    int64_t rows;       /* -1: not told */
    int64_t page_reads, page_writes; /* -1: not told (gbak -st r, w) */
} dg_rlog_step;

typedef struct dg_rlog {
    dg_rlog_format format;
    /* gbak: the statistics columns in the order of its header (t, d, r, w); 0: none */
    int ncols;
    char cols[4];
    bool tool_times;    /* the steps' times are the tool's own (gbak -st t), not arrival */
    int nsteps, cap;
    dg_rlog_step *steps;
    int open;           /* the step still under way (-1: none) */
    double last_t;      /* the previous line's time */
    int64_t r_acc, w_acc; /* gbak: reads and writes since the open table step began */
    bool parallel;      /* pg_restore -j: inside its main parallel loop (the workers' own
                           "creating"/"processing" lines are not steps of their own) */
    int nlines;
} dg_rlog;

/* The format of argv[0]'s tool (its base name: gbak, pg_restore, psql, mariadb, mysql,
 * mariadb-import, mysqlimport); DG_RLOG_NONE for any other program. */
dg_rlog_format dg_rlog_detect(const char *const *argv);

/* The format's name as the result file records it ("gbak", "pg_restore", "psql",
 * "mariadb", "none"). */
const char *dg_rlog_format_name(dg_rlog_format f);

void dg_rlog_init(dg_rlog *l, dg_rlog_format f);
void dg_rlog_free(dg_rlog *l);

/* One line of the tool's output (no newline), arrived t_s seconds after the start. */
void dg_rlog_line(dg_rlog *l, const char *line, double t_s);

/* The tool has exited at t_s: the step under way ends there. */
void dg_rlog_end(dg_rlog *l, double t_s);

#endif
