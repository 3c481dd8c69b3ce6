/*
 * cmd_merge.c - `dbgauge merge PART.json... [-o FILE]`: the result files of the parts of one
 * run (run --part K/N --start-at T) as one result file (results/merge.h). Exit 0, 1 when the
 * parts do not belong together or cannot be read (nothing written), 2 when the merged run
 * is incomplete because a part's was.
 */
#include "cli/commands.h"

#include "core/file.h"
#include "core/log.h"
#include "core/parallel.h"
#include "core/xalloc.h"
#include "results/merge.h"
#include "results/result.h"

#include <stdio.h>
#include <stdlib.h>

/* The parts are read side by side (parsing is most of a big merge's time). */
typedef struct reading {
    const char **paths;
    json_t **docs;
    dg_err *errs;
    int *rcs;
} reading;

static void read_one(void *ctx, int worker, int i)
{
    (void)worker;
    reading *r = ctx;
    r->rcs[i] = dg_result_read(r->paths[i], &r->docs[i], &r->errs[i]);
}

int dg_cmd_merge(dg_options *o)
{
    int n = o->nargs;
    json_t **docs = xcalloc((size_t)n, sizeof *docs);
    const char **paths = xcalloc((size_t)n, sizeof *paths);
    json_t *merged = NULL;
    dg_err err;
    dg_err_clear(&err);
    int status = 1;
    for (int i = 0; i < n; i++) {
        paths[i] = o->args[i];
        if (o->output && dg_file_same(o->output, paths[i])) {
            dg_log_error("output '%s' is the input '%s': the merge would overwrite it (nothing "
                         "was written; choose another -o)",
                         o->output, paths[i]);
            goto out;
        }
    }
    json_object_seed(0); /* before threads make objects (it is set once, at the first) */
    reading r = {.paths = paths, .docs = docs, .errs = xcalloc((size_t)n, sizeof(dg_err)),
                 .rcs = xcalloc((size_t)n, sizeof(int))};
    dg_parallel_for(n, 0, read_one, &r);
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (r.rcs[i])
            bad = i;
    if (bad >= 0)
        dg_cli_input_error(&r.errs[bad]);
    free(r.errs);
    free(r.rcs);
    if (bad >= 0)
        goto out;
    bool complete = true;
    if (dg_result_merge(docs, paths, n, (double)o->max_skew_ns / 1e6, &merged, &complete, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    const char *to = o->output ? o->output : "-";
    if (dg_result_write(merged, to, &err)) {
        dg_log_error("%s", err.msg);
        goto out;
    }
    if (!dg_file_is_stdout(to))
        dg_log_info("merged %d parts: %s", n, to);
    if (!complete) {
        dg_log_error("the merged run is incomplete: %s", dg_res_str(merged, "run.stop_reason"));
        status = 2;
        goto out;
    }
    status = 0;
out:
    json_decref(merged);
    for (int i = 0; i < n; i++)
        json_decref(docs[i]);
    free(docs);
    free(paths);
    return status;
}
