/*
 * cmd_compare.c - `dbgauge compare A B [-o FILE] [--format FMT]`: B against the baseline
 * A with 95% confidence intervals and a verdict per metric (report/compare.h). A and B
 * are result files or directories. Informational: exit 0 whatever the verdicts, 1 on bad
 * input.
 */
#include "cli/commands.h"

#include "core/log.h"
#include "report/compare.h"
#include "report/inputs.h"
#include "report/render.h"

#include <stdio.h>

int dg_cmd_compare(dg_options *o)
{
    dg_rep_set sides[2] = {{0}, {0}};
    dg_report *rep = NULL;
    dg_err err;
    dg_err_clear(&err);
    int status = 1;
    for (int k = 0; k < 2; k++) {
        if (dg_rep_set_add(&sides[k], o->args[k], &err)) {
            dg_cli_input_error(&err);
            goto out;
        }
        if (sides[k].nruns == 0) {
            dg_log_error("'%s' holds no result files", o->args[k]);
            goto out;
        }
        dg_rep_set_label(&sides[k]);
    }
    if (dg_compare_check(&sides[0], &sides[1], o->metric, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    if (dg_cli_check_output(o->output, sides, 2))
        goto out;
    rep = dg_compare_build(&sides[0], &sides[1], o->args[0], o->args[1], o->metric);
    if (dg_report_emit(rep, o->output, o->format, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    status = 0;
out:
    dg_report_free(rep);
    dg_rep_set_free(&sides[0]);
    dg_rep_set_free(&sides[1]);
    return status;
}
