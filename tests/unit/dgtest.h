/*
 * dgtest.h - the tiny test harness of dbgauge's unit tests.
 *
 * One executable per module; each test is a function registered in main() with
 * DG_RUN(fn). Checks report file:line and the values, count failures, and never abort,
 * so one run shows every failure. The last line is "N passed, N failed" (checks), and the
 * exit status is 0 only when nothing failed, 77 (skipped) when nothing failed but a test
 * called DG_SKIP because this machine cannot run it.
 */
#ifndef DG_TEST_H
#define DG_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dgt_pass, dgt_fail;
static int dgt_skipped; /* a test could not run here: the executable exits 77 (ctest: skipped)
                           unless a check failed */
static const char *dgt_current = "";

#define DG_CHECK(cond)                                                                      \
    do {                                                                                    \
        if (cond) {                                                                         \
            dgt_pass++;                                                                     \
        } else {                                                                            \
            dgt_fail++;                                                                     \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, dgt_current,\
                    #cond);                                                                 \
        }                                                                                   \
    } while (0)

#define DG_CHECK_INT(a, b)                                                                  \
    do {                                                                                    \
        long long dgt_a = (long long)(a), dgt_b = (long long)(b);                           \
        if (dgt_a == dgt_b) {                                                               \
            dgt_pass++;                                                                     \
        } else {                                                                            \
            dgt_fail++;                                                                     \
            fprintf(stderr, "%s:%d: %s: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, \
                    dgt_current, #a, #b, dgt_a, dgt_b);                                     \
        }                                                                                   \
    } while (0)

#define DG_CHECK_NEAR(a, b, tol)                                                            \
    do {                                                                                    \
        double dgt_a = (double)(a), dgt_b = (double)(b), dgt_t = (double)(tol);             \
        if (fabs(dgt_a - dgt_b) <= dgt_t) {                                                 \
            dgt_pass++;                                                                     \
        } else {                                                                            \
            dgt_fail++;                                                                     \
            fprintf(stderr, "%s:%d: %s: |%s - %s| <= %g failed: %.10g vs %.10g\n", __FILE__, \
                    __LINE__, dgt_current, #a, #b, dgt_t, dgt_a, dgt_b);                    \
        }                                                                                   \
    } while (0)

#define DG_CHECK_STR(a, b)                                                                  \
    do {                                                                                    \
        const char *dgt_a = (a), *dgt_b = (b);                                              \
        if (dgt_a && dgt_b && strcmp(dgt_a, dgt_b) == 0) {                                  \
            dgt_pass++;                                                                     \
        } else {                                                                            \
            dgt_fail++;                                                                     \
            fprintf(stderr, "%s:%d: %s: %s == %s failed:\n  got:      \"%s\"\n  expected: \"%s\"\n", \
                    __FILE__, __LINE__, dgt_current, #a, #b, dgt_a ? dgt_a : "(null)",      \
                    dgt_b ? dgt_b : "(null)");                                              \
        }                                                                                   \
    } while (0)

/* Marks the current test as not runnable here (say why); the caller then returns. */
#define DG_SKIP(why)                                                                        \
    do {                                                                                    \
        fprintf(stderr, "%s: skipped: %s\n", dgt_current, (why));                           \
        dgt_skipped = 1;                                                                    \
    } while (0)

#define DG_RUN(fn) DG_RUN_AS(#fn, fn)
/* Runs fn (a void (*)(void)) under the given name. */
#define DG_RUN_AS(name, fn)                                                                 \
    do {                                                                                    \
        dgt_current = (name);                                                               \
        int dgt_before = dgt_fail;                                                          \
        (fn)();                                                                             \
        fprintf(stderr, "%s %s\n", dgt_fail == dgt_before ? "ok  " : "FAIL", dgt_current);  \
    } while (0)

#define DG_TEST_END()                                                                       \
    do {                                                                                    \
        if (dgt_skipped && !dgt_fail) {                                                     \
            printf("%d passed, %d failed, 1 skipped\n", dgt_pass, dgt_fail);                  \
            return 77;                                                                      \
        }                                                                                   \
        printf("%d passed, %d failed\n", dgt_pass, dgt_fail);                               \
        return dgt_fail ? 1 : 0;                                                            \
    } while (0)

#endif
