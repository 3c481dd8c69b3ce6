/*
 * fuzz_rlog.c - libFuzzer harness of the restore tools' output parser
 * (src/session/restore_log.c) and of the recorded restore command's redaction
 * (src/session/restore.c: dg_restore_argv_redact), and of the other tool output dbgauge
 * reads, Firebird's lock table header (src/monitor/locktab.c: fb_lock_print's).
 *
 * The input's first byte picks the format (gbak, pg_restore, psql, mariadb, none); the
 * rest is the tool's output, split into lines at '\n', each arriving 0.5 s after the one
 * before. What must hold: no crash, no sanitizer report, no leak; every step's name is a
 * NUL-terminated string inside its buffer, its kind one of the documented ones, its
 * times finite and its own time never negative; the same bytes as an argument vector are
 * redacted into as many arguments, none of which holds the password given; the text read
 * as fb_lock_print's output gives counters that are -1 or not negative, a NUL-terminated
 * creation time, and a delta of a reading with itself that is all zeros.
 */
#include "monitor/locktab.h"
#include "session/restore.h"
#include "session/restore_log.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_steps(const dg_rlog *l)
{
    static const char *const kinds[] = {"table", "index", "constraint", "ddl", "drop"};
    for (int i = 0; i < l->nsteps; i++) {
        const dg_rlog_step *s = &l->steps[i];
        if (!memchr(s->name, '\0', sizeof s->name) || !memchr(s->kind, '\0', sizeof s->kind))
            abort();
        bool known = false;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            known |= !strcmp(s->kind, kinds[k]);
        if (!known || !isfinite(s->seconds) || !isfinite(s->elapsed_s) || !isfinite(s->start_s) ||
            s->seconds < 0) {
            fprintf(stderr, "step %d '%s': kind '%s', start %g, elapsed %g, seconds %g\n", i,
                    s->name, s->kind, s->start_s, s->elapsed_s, s->seconds);
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    dg_rlog_format f = (dg_rlog_format)(data[0] % (DG_RLOG_MARIADB + 1));
    char *text = malloc(size);
    if (!text)
        abort();
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';

    dg_locktab lt;
    bool got = dg_locktab_parse(text, &lt);
    const int64_t *counts[] = {&lt.length, &lt.used, &lt.owners, &lt.enqueues, &lt.converts,
                               &lt.rejects, &lt.blocks, &lt.deadlock_scans, &lt.deadlocks,
                               &lt.acquires, &lt.acquire_blocks, &lt.hash_slots, &lt.hash_max};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (*counts[i] < -1)
            abort();
    if (!memchr(lt.created, '\0', sizeof lt.created))
        abort();
    dg_locktab_delta d;
    if (got && (!dg_locktab_delta_of(&lt, &lt, &d) || d.enqueues != 0 || d.acquires != 0))
        abort();

    dg_rlog l;
    dg_rlog_init(&l, f);
    double t = 0;
    char *line = text;
    for (;;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        dg_rlog_line(&l, line, t);
        t += 0.5;
        if (!nl)
            break;
        line = nl + 1;
    }
    dg_rlog_end(&l, t);
    check_steps(&l);
    dg_rlog_free(&l);

    /* the same text as an argument vector (split at the NULs the lines left) of the tool
       the first byte names */
    static const char *const tools[] = {"true", "gbak", "pg_restore", "psql", "mariadb"};
    const char *argv[66] = {tools[f]};
    int n = 1;
    for (char *p = text; p < text + size - 1 && n < 64; p += strlen(p) + 1)
        argv[n++] = p;
    argv[n] = NULL;
    /* the password: the last argument when it could be one that redaction's own words
       cannot hold (letters and digits, not part of "--password=") */
    const char *pw = "s3cret", *last = argv[n - 1];
    bool alnum = n > 1 && strlen(last) >= 3;
    for (const char *c = last; alnum && *c; c++)
        alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
    if (alnum && !strstr("--password=", last))
        pw = last;
    char **r = dg_restore_argv_redact((char *const *)argv, pw);
    int m = 0;
    for (; r[m]; m++)
        if (m > 0 && strstr(r[m], pw)) {
            fprintf(stderr, "argument %d '%s' holds the password '%s'\n", m, r[m], pw);
            abort();
        }
    if (m != n)
        abort();
    dg_restore_argv_free(r);
    free(text);
    return 0;
}
