/*
 * cmd_report.c - `dbgauge report FILE|DIR... [-o FILE] [--format FMT]`: read result files
 * and sweep directories, build the report model (report/model.h) and write it as text,
 * markdown, CSV, JSON or HTML. Every input is read before anything is written, an output
 * that is one of the inputs is refused, and -o is written atomically (core/file.h; "-" is
 * standard output, a device or fifo is written in place), so a bad input leaves no output
 * behind.
 */
#include "cli/commands.h"

#include "core/file.h"
#include "core/log.h"
#include "core/stop.h"
#include "report/inputs.h"
#include "report/model.h"
#include "report/render.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* An input of the set that is the file `output` names, or NULL. */
static const char *same_input(const char *output, const dg_rep_set *s)
{
    for (int i = 0; i < s->nruns; i++)
        if (dg_file_same(output, s->runs[i].path))
            return s->runs[i].path;
    if (s->experiment_path && dg_file_same(output, s->experiment_path))
        return s->experiment_path;
    return NULL;
}

int dg_cli_check_output(const char *output, const dg_rep_set *sets, int nsets)
{
    for (int k = 0; k < nsets; k++) {
        const char *in = same_input(output ? output : "-", &sets[k]);
        if (!in)
            continue;
        if (!output || strcmp(output, "-") == 0)
            dg_log_error("standard output is the input '%s': the report would overwrite it "
                         "(nothing was written)",
                         in);
        else
            dg_log_error("output '%s' is the input '%s': the report would overwrite it "
                         "(nothing was written; choose another -o)",
                         output, in);
        return 1;
    }
    return 0;
}

void dg_cli_input_error(const dg_err *err)
{
    if (strstr(err->msg, ": error: "))
        fprintf(stderr, "%s\n", err->msg);
    else
        dg_log_error("%s", err->msg);
}

int dg_cmd_report(dg_options *o)
{
    dg_rep_set set = {0};
    dg_report *rep = NULL;
    dg_err err;
    dg_err_clear(&err);
    int status = 1;
    /* SIGINT and SIGTERM end the reading of the inputs (between two files, or a read they
     * cut short) or the building of the report with exit 2 and no output; the output
     * itself is written atomically */
    dg_sigsave saved;
    dg_stop_clear();
    dg_stop_catch(&saved);
    for (int i = 0; i < o->nargs; i++)
        if (dg_rep_set_add(&set, o->args[i], &err)) {
            if (dg_stop_signal()) {
                dg_log_error("report stopped: %s (%s): no output written", err.msg,
                             dg_stop_signal() == SIGINT ? "SIGINT" : "SIGTERM");
                status = 2;
            } else {
                dg_cli_input_error(&err);
            }
            goto out;
        }
    if (set.nruns == 0) {
        dg_log_error("no result files to report on (the sweep has no finished points)");
        goto out;
    }
    dg_rep_set_label(&set);
    for (int i = 0; i < set.nnotes; i++)
        dg_log_warn("%s", set.notes[i]);
    if (dg_cli_check_output(o->output, &set, 1))
        goto out;
    rep = dg_report_build(&set);
    if (dg_stop_signal()) {
        dg_log_error("report stopped while it was being built (%s): no output written",
                     dg_stop_signal() == SIGINT ? "SIGINT" : "SIGTERM");
        status = 2;
        goto out;
    }
    if (dg_report_emit(rep, o->output, o->format, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    if (o->output && !dg_file_is_stdout(o->output))
        dg_log_info("report: %s (%d result file%s)", o->output, set.nruns, set.nruns == 1 ? "" : "s");
    status = 0;
out:
    dg_signals_restore(&saved);
    dg_report_free(rep);
    dg_rep_set_free(&set);
    return status;
}
