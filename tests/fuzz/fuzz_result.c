/*
 * fuzz_result.c - libFuzzer harness of the result-file reader (src/results/result.c:
 * dg_result_read, and dg_result_hist_read and the dotted-path getters that reports use on
 * what it returns).
 *
 * The input is written to a scratch file (one per process, removed at exit) that
 * dg_result_read() reads, as report and compare read result files. What must hold: no
 * crash, no sanitizer report, no leak; a refused file gives DG_E_PARSE or DG_E_IO with a
 * message that names the file and leaves *out untouched; an accepted one is a JSON object
 * whose dbgauge.format is an integer from 1 to DG_RESULT_FORMAT.
 */
#include "core/err.h"
#include "results/result.h"
#include "stats/hist.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

static void remove_scratch(void)
{
    if (path[0])
        unlink(path);
}

/* The scratch file, made on first use. */
static int scratch_fd(void)
{
    static int fd = -1;
    if (fd >= 0)
        return fd;
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/dg-fuzz-result-XXXXXX.json", dir && *dir ? dir : "/tmp");
    fd = mkstemps(path, 5);
    if (fd < 0) {
        perror("mkstemps");
        abort();
    }
    atexit(remove_scratch);
    return fd;
}

/* What reports read from an accepted document. */
static void use_document(json_t *doc)
{
    static const char *const paths[] = {"dbgauge.format", "run.workload", "run.scale",
                                        "totals.tps", "transactions.0.name",
                                        "transactions.0.latency_ms.p95", "monitor.cpu_pct",
                                        "intervals.1.t_s", "", "."};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        (void)dg_res_num(doc, paths[i], 0);
        (void)dg_res_str(doc, paths[i]);
    }
    json_t *txs = dg_res_get(doc, "transactions");
    size_t i;
    json_t *tx;
    json_array_foreach(txs, i, tx)
    {
        json_t *hj = json_object_get(tx, "histogram");
        dg_hist h;
        if (!hj || dg_hist_init(&h) != 0)
            continue;
        if (dg_result_hist_read(hj, &h) == 0 && h.total > 0) {
            (void)dg_hist_percentile(&h, 50);
            (void)dg_hist_percentile(&h, 99.9);
            (void)dg_hist_mean(&h);
        }
        dg_hist_destroy(&h);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = scratch_fd();
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
        perror("writing the scratch file");
        abort();
    }
    json_t *sentinel = json_null(), *out = sentinel;
    dg_err err = DG_ERR_INIT;
    int rc = dg_result_read(path, &out, &err);
    if (rc == 0) {
        json_t *fmt = dg_res_get(out, "dbgauge.format");
        if (out == sentinel || !json_is_object(out) || !json_is_integer(fmt) ||
            json_integer_value(fmt) < 1 || json_integer_value(fmt) > DG_RESULT_FORMAT)
            abort();
        use_document(out);
        json_decref(out);
    } else {
        if (out != sentinel || (rc != DG_E_PARSE && rc != DG_E_IO) || !strstr(err.msg, path)) {
            fprintf(stderr, "unexpected result %d: %s\n", rc, err.msg);
            abort();
        }
    }
    return 0;
}
