/*
 * dgtest.h - the tiny test harness of dbgauge's unit tests.
 *
 * One executable per module; each test is a function registered in main() with
 * DG_RUN(fn). Checks report file:line and the values, count failures, and never abort,
 * so one run shows every failure. The last line is "N passed, N failed" (checks), and the
 * exit status is 0 only when nothing failed.
 */
#ifndef DG_TEST_H
#define DG_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dgt_pass, dgt_fail;
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

#define DG_RUN(fn)                                                                          \
    do {                                                                                    \
        dgt_current = #fn;                                                                  \
        int dgt_before = dgt_fail;                                                          \
        fn();                                                                               \
        fprintf(stderr, "%s %s\n", dgt_fail == dgt_before ? "ok  " : "FAIL", #fn);          \
    } while (0)

#define DG_TEST_END()                                                                       \
    do {                                                                                    \
        printf("%d passed, %d failed\n", dgt_pass, dgt_fail);                               \
        return dgt_fail ? 1 : 0;                                                            \
    } while (0)

#endif
