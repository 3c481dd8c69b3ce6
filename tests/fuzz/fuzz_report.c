/*
 * fuzz_report.c - libFuzzer harness of everything that renders accepted result documents:
 * `dbgauge report` (src/report/model.c: the model, then render.c and html.c/svg.c in
 * every output format: text, markdown, CSV, JSON, HTML), `dbgauge compare`
 * (src/report/compare.c, ci.c; every format), and the end-of-run and load summaries
 * (src/report/text.c).
 *
 * The input is one or two result documents: split at the first 0xFF byte (never part of
 * valid JSON text) into A and B, else A alone. Each is written to a scratch file (one
 * directory per process, removed at exit) and read with dg_rep_set_add, as the commands
 * read them; a refused document ends the input (fuzz_result covers the reader's
 * refusals). Then:
 *   - report of A, and of A and B together, in every format;
 *   - the summaries of A;
 *   - compare of B against A (A against itself without B), in every format, with the
 *     default metrics, or every run metric by name when the input's length is odd.
 * What must hold: no crash, no sanitizer report, no leak; every rendering non-empty, and
 * the JSON format one JSON document.
 */
#include "core/err.h"
#include "core/strbuf.h"
#include "report/compare.h"
#include "report/inputs.h"
#include "report/model.h"
#include "report/render.h"
#include "report/text.h"
#include "results/result.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], path_a[300], path_b[300];

static void remove_scratch(void)
{
    unlink(path_a);
    unlink(path_b);
    rmdir(dir);
}

/* The scratch directory and its two file names, made on first use. */
static void scratch(void)
{
    if (dir[0])
        return;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/dg-fuzz-report-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        abort();
    }
    snprintf(path_a, sizeof path_a, "%s/a.json", dir);
    snprintf(path_b, sizeof path_b, "%s/b.json", dir);
    atexit(remove_scratch);
}

static void put(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* Renders r in every format and checks what each must be. */
static void render_all(const dg_report *r)
{
    static const dg_rep_format formats[] = {DG_FMT_TEXT, DG_FMT_MARKDOWN, DG_FMT_CSV,
                                            DG_FMT_JSON, DG_FMT_HTML};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        dg_strbuf sb = DG_STRBUF_INIT;
        dg_report_render(&sb, r, formats[i]);
        if (sb.len == 0) {
            fprintf(stderr, "format %d rendered nothing\n", (int)formats[i]);
            abort();
        }
        if (formats[i] == DG_FMT_JSON) {
            json_error_t je;
            json_t *j = json_loadb(dg_sb_str(&sb), sb.len, 0, &je);
            if (!j) {
                fprintf(stderr, "the JSON report does not parse: %s (line %d)\n", je.text, je.line);
                abort();
            }
            json_decref(j);
        }
        dg_sb_free(&sb);
    }
}

/* The end-of-run summary, and the load summary when the document has a load. */
static void summaries(const json_t *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    dg_report_text_run(f, doc);
    json_t *load = dg_res_get(doc, "load");
    if (json_is_object(load))
        dg_report_text_load(f, load);
    fclose(f);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scratch();
    const uint8_t *sep = memchr(data, 0xFF, size);
    size_t na = sep ? (size_t)(sep - data) : size;
    put(path_a, data, na);
    if (sep)
        put(path_b, sep + 1, size - na - 1);

    dg_rep_set a = {0}, b = {0}, ab = {0};
    dg_err err = DG_ERR_INIT;
    if (dg_rep_set_add(&a, path_a, &err) != 0)
        goto out;
    dg_rep_set_label(&a);
    dg_report *rep = dg_report_build(&a);
    render_all(rep);
    dg_report_free(rep);
    summaries(a.runs[0].doc);

    const char *b_path = path_a;
    if (sep && dg_rep_set_add(&ab, path_b, &err) == 0)
        b_path = path_b;
    dg_rep_set_free(&ab);
    if (dg_rep_set_add(&b, b_path, &err) != 0)
        goto out;
    dg_rep_set_label(&b);
    if (b_path == path_b) {
        /* both in one report: the multi-run tables and charts */
        if (dg_rep_set_add(&ab, path_a, &err) != 0 || dg_rep_set_add(&ab, path_b, &err) != 0)
            abort(); /* each was read a moment ago */
        dg_rep_set_label(&ab);
        rep = dg_report_build(&ab);
        render_all(rep);
        dg_report_free(rep);
    }
    const char *metrics = size % 2 ? "tps,p50,p95,p99,cpu,load_speed,load_seconds,tx_p95" : NULL;
    if (dg_compare_check(&a, &b, metrics, &err) == 0) {
        rep = dg_compare_build(&a, &b, "A", "B", metrics);
        render_all(rep);
        dg_report_free(rep);
    }
out:
    dg_rep_set_free(&a);
    dg_rep_set_free(&b);
    dg_rep_set_free(&ab);
    return 0;
}
