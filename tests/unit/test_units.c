/*
 * test_units.c - unit tests of core/units.c: duration, size, integer and double parsing
 * with their error cases, and the human formatting of durations and sizes.
 *
 * Layout: one table per parser (input, default unit or range, expected return code,
 * expected value), each row checked for both the return code and - on success - the exact
 * value, or - on failure - that the output was left untouched. Then the two formatters,
 * also from tables. Cases where the code misbehaves today are at the end, under
 * DG_TEST_KNOWN_BUGS, so they document the bug without failing the suite.
 */
#include "dgtest.h"

#include "core/clock.h"
#include "core/err.h"
#include "core/units.h"

#include <stdint.h>

#define S DG_NS_PER_S
#define MS DG_NS_PER_MS
#define US DG_NS_PER_US
#define UNTOUCHED_I INT64_C(-777)
#define UNTOUCHED_U UINT64_C(777777)

/* ---- durations ------------------------------------------------------------------------ */

static const struct {
    const char *in;
    int64_t dflt; /* unit of a bare number */
    int rc;
    int64_t ns;
} durations[] = {
    /* every documented suffix */
    {"7ns", S, 0, 7},
    {"250us", S, 0, 250 * US},
    {"250\xc2\xb5s", S, 0, 250 * US}, /* "250µs" */
    {"500ms", S, 0, 500 * MS},
    {"30s", S, 0, 30 * S},
    {"30sec", S, 0, 30 * S},
    {"5m", S, 0, 300 * S},
    {"5min", S, 0, 300 * S},
    {"1h", S, 0, 3600 * S},
    {"2d", S, 0, 2 * 86400 * S},
    /* bare numbers take the caller's default unit */
    {"30", S, 0, 30 * S},
    {"30", MS, 0, 30 * MS},
    {"30", 1, 0, 30},
    {"0", S, 0, 0},
    {"0s", S, 0, 0},
    /* fractions */
    {"1.5s", S, 0, 1500 * MS},
    {".5s", S, 0, 500 * MS},
    {"0.25h", S, 0, 900 * S},
    {"1.5", MS, 0, 1500 * US},
    {"2.5ms", S, 0, 2500 * US},
    /* a space between number and unit */
    {"30 s", S, 0, 30 * S},
    {"250 ms", S, 0, 250 * MS},
    /* the largest accepted value (9e18 ns, just under INT64_MAX) and just above it */
    {"9000000000s", S, 0, INT64_C(9000000000000000000)},
    {"9000000001s", S, DG_E_INVAL, 0},
    {"300000000000s", S, DG_E_INVAL, 0},
    {"1e400s", S, DG_E_INVAL, 0}, /* strtod overflow */
    /* empty, signs, garbage, unknown or trailing units, surrounding whitespace */
    {"", S, DG_E_INVAL, 0},
    {"s", S, DG_E_INVAL, 0},
    {"ms", S, DG_E_INVAL, 0},
    {"-5s", S, DG_E_INVAL, 0},
    {"-0.5", S, DG_E_INVAL, 0},
    {"+5s", S, DG_E_INVAL, 0},
    {" 30s", S, DG_E_INVAL, 0},
    {"30s ", S, DG_E_INVAL, 0},
    {"30x", S, DG_E_INVAL, 0},
    {"30ss", S, DG_E_INVAL, 0},
    {"30s5", S, DG_E_INVAL, 0},
    {"30 s s", S, DG_E_INVAL, 0},
    {"1.5.2s", S, DG_E_INVAL, 0},
    {"5 minutes", S, DG_E_INVAL, 0},
    {"abc", S, DG_E_INVAL, 0},
    {"inf", S, DG_E_INVAL, 0},
    {"nan", S, DG_E_INVAL, 0},
    {".", S, DG_E_INVAL, 0},
    {"1w", S, DG_E_INVAL, 0},
};

static void test_parse_duration(void)
{
    for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
        int64_t out = UNTOUCHED_I;
        int rc = dg_parse_duration(durations[i].in, durations[i].dflt, &out);
        if (rc != durations[i].rc)
            fprintf(stderr, "  input \"%s\"\n", durations[i].in);
        DG_CHECK_INT(rc, durations[i].rc);
        if (durations[i].rc == 0) {
            if (out != durations[i].ns)
                fprintf(stderr, "  input \"%s\"\n", durations[i].in);
            DG_CHECK_INT(out, durations[i].ns);
        } else {
            DG_CHECK_INT(out, UNTOUCHED_I); /* nothing written on error */
        }
    }
    int64_t out = UNTOUCHED_I;
    DG_CHECK_INT(dg_parse_duration(NULL, S, &out), DG_E_INVAL);
    DG_CHECK_INT(out, UNTOUCHED_I);
}

/* ---- sizes ----------------------------------------------------------------------------- */

static const struct {
    const char *in;
    int rc;
    uint64_t bytes;
} sizes[] = {
    {"0", 0, 0},
    {"512", 0, 512},
    {"512B", 0, 512},
    {"512b", 0, 512},
    /* decimal units */
    {"4k", 0, 4000},
    {"4kB", 0, 4000},
    {"4KB", 0, 4000},
    {"500MB", 0, UINT64_C(500000000)},
    {"500mb", 0, UINT64_C(500000000)},
    {"10m", 0, UINT64_C(10000000)},
    {"10GB", 0, UINT64_C(10000000000)},
    {"10g", 0, UINT64_C(10000000000)},
    {"2TB", 0, UINT64_C(2000000000000)},
    {"2t", 0, UINT64_C(2000000000000)},
    /* binary units */
    {"4KiB", 0, 4096},
    {"4kib", 0, 4096},
    {"512MiB", 0, UINT64_C(536870912)},
    {"1GiB", 0, UINT64_C(1073741824)},
    {"1TiB", 0, UINT64_C(1099511627776)},
    /* fractions and spacing */
    {"1.5GB", 0, UINT64_C(1500000000)},
    {"0.5KiB", 0, 512},
    {".5k", 0, 500},
    {"10 GB", 0, UINT64_C(10000000000)},
    {"9e18", 0, UINT64_C(9000000000000000000)},
    /* errors */
    {"", DG_E_INVAL, 0},
    {"GB", DG_E_INVAL, 0},
    {"-1GB", DG_E_INVAL, 0},
    {"+1GB", DG_E_INVAL, 0},
    {" 10GB", DG_E_INVAL, 0},
    {"10GB ", DG_E_INVAL, 0},
    {"10XB", DG_E_INVAL, 0},
    {"10GBs", DG_E_INVAL, 0},
    {"10PB", DG_E_INVAL, 0},
    {"10KIBB", DG_E_INVAL, 0},
    {"1.2.3MB", DG_E_INVAL, 0},
    {"abc", DG_E_INVAL, 0},
    {"nan", DG_E_INVAL, 0},
    {"20000000TB", DG_E_INVAL, 0}, /* 2e19 > UINT64_MAX */
    {"1e400", DG_E_INVAL, 0},
};

static void test_parse_size(void)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint64_t out = UNTOUCHED_U;
        int rc = dg_parse_size(sizes[i].in, &out);
        if (rc != sizes[i].rc || (rc == 0 && out != sizes[i].bytes))
            fprintf(stderr, "  input \"%s\"\n", sizes[i].in);
        DG_CHECK_INT(rc, sizes[i].rc);
        if (sizes[i].rc == 0)
            DG_CHECK(out == sizes[i].bytes);
        else
            DG_CHECK(out == UNTOUCHED_U);
    }
    uint64_t out = UNTOUCHED_U;
    DG_CHECK_INT(dg_parse_size(NULL, &out), DG_E_INVAL);
    DG_CHECK(out == UNTOUCHED_U);
}

/* ---- integers and doubles ----------------------------------------------------------------- */

static const struct {
    const char *in;
    int64_t min, max;
    int rc;
    int64_t v;
} ints[] = {
    {"42", 0, 100, 0, 42},
    {"0", 0, 100, 0, 0},
    {"100", 0, 100, 0, 100},
    {"-5", -10, 10, 0, -5},
    {"-10", -10, 10, 0, -10},
    {"9223372036854775807", INT64_MIN, INT64_MAX, 0, INT64_MAX},
    {"-9223372036854775808", INT64_MIN, INT64_MAX, 0, INT64_MIN},
    {"101", 0, 100, DG_E_INVAL, 0},
    {"-1", 0, 100, DG_E_INVAL, 0},
    {"-11", -10, 10, DG_E_INVAL, 0},
    {"9223372036854775808", INT64_MIN, INT64_MAX, DG_E_INVAL, 0}, /* overflow */
    {"", 0, 100, DG_E_INVAL, 0},
    {"12abc", 0, 100, DG_E_INVAL, 0},
    {"1.5", 0, 100, DG_E_INVAL, 0},
    {"0x10", 0, 100, DG_E_INVAL, 0}, /* decimal only */
    {"5 ", 0, 100, DG_E_INVAL, 0},
    {"abc", 0, 100, DG_E_INVAL, 0},
};

static void test_parse_int(void)
{
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int64_t out = UNTOUCHED_I;
        int rc = dg_parse_int(ints[i].in, ints[i].min, ints[i].max, &out);
        if (rc != ints[i].rc)
            fprintf(stderr, "  input \"%s\"\n", ints[i].in);
        DG_CHECK_INT(rc, ints[i].rc);
        DG_CHECK_INT(out, ints[i].rc == 0 ? ints[i].v : UNTOUCHED_I);
    }
    int64_t out = UNTOUCHED_I;
    DG_CHECK_INT(dg_parse_int(NULL, 0, 10, &out), DG_E_INVAL);
    DG_CHECK_INT(out, UNTOUCHED_I);
}

static const struct {
    const char *in;
    int64_t max;
    int rc;
    int64_t v;
} counts[] = {
    {"25M", INT64_C(100000000), 0, 25000000},
    {"1.6M", INT64_C(100000000), 0, 1600000},
    {"500k", INT64_C(100000000), 0, 500000},
    {"2G", INT64_C(10000000000), 0, 2000000000},
    {"40000", INT64_C(100000000), 0, 40000},
    {"1", 100, 0, 1},
    {"0", 100, DG_E_INVAL, 0},           /* below min (1) */
    {"1.5", 100, DG_E_INVAL, 0},         /* not whole */
    {"1.0005k", 10000, DG_E_INVAL, 0},   /* 1000.5 */
    {"101", 100, DG_E_INVAL, 0},
    {"2G", INT64_C(100000000), DG_E_INVAL, 0},
    {"25MB", INT64_C(100000000), DG_E_INVAL, 0},
    {"25 M", INT64_C(100000000), DG_E_INVAL, 0},
    {"-5", 100, DG_E_INVAL, 0},
    {"M", 100, DG_E_INVAL, 0},
    {"", 100, DG_E_INVAL, 0},
    {"nan", 100, DG_E_INVAL, 0},
    {"1e3", 10000, DG_E_INVAL, 0},       /* no exponents: digits and a suffix only */
};

static void test_parse_count(void)
{
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int64_t out = UNTOUCHED_I;
        int rc = dg_parse_count(counts[i].in, 1, counts[i].max, &out);
        if (rc != counts[i].rc)
            fprintf(stderr, "  input \"%s\"\n", counts[i].in);
        DG_CHECK_INT(rc, counts[i].rc);
        DG_CHECK_INT(out, counts[i].rc == 0 ? counts[i].v : UNTOUCHED_I);
    }
}

static const struct {
    const char *in;
    double min_exclusive;
    int rc;
    double v;
} doubles[] = {
    {"1.5", 0, 0, 1.5},
    {"0.001", 0, 0, 0.001},
    {"1e3", 0, 0, 1000},
    {"-1", -2, 0, -1},
    {"100", 99.5, 0, 100},
    {"0", 0, DG_E_INVAL, 0}, /* the minimum is exclusive */
    {"99.5", 99.5, DG_E_INVAL, 0},
    {"-1", 0, DG_E_INVAL, 0},
    {"nan", -1, DG_E_INVAL, 0},
    {"inf", 0, DG_E_INVAL, 0},
    {"1e400", 0, DG_E_INVAL, 0},
    {"1.5x", 0, DG_E_INVAL, 0},
    {"", 0, DG_E_INVAL, 0},
    {"abc", 0, DG_E_INVAL, 0},
    {"0x10", 0, DG_E_INVAL, 0},      /* decimal only */
    {" 5", 0, DG_E_INVAL, 0},
    {"infinity", 0, DG_E_INVAL, 0},
    {"+2.5e-1", 0, 0, 0.25},
};

static void test_parse_double(void)
{
    for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++) {
        double out = -777.0;
        int rc = dg_parse_double(doubles[i].in, doubles[i].min_exclusive, &out);
        if (rc != doubles[i].rc)
            fprintf(stderr, "  input \"%s\"\n", doubles[i].in);
        DG_CHECK_INT(rc, doubles[i].rc);
        DG_CHECK_NEAR(out, doubles[i].rc == 0 ? doubles[i].v : -777.0, 0);
    }
    double out = -777.0;
    DG_CHECK_INT(dg_parse_double(NULL, 0, &out), DG_E_INVAL);
    DG_CHECK_NEAR(out, -777.0, 0);
}

/* ---- formatting ------------------------------------------------------------------------- */

static const struct {
    int64_t ns;
    const char *text;
} fmt_durations[] = {
    {0, "0 us"},
    {250 * US, "250 us"},
    {999 * US, "999 us"},
    {1 * MS, "1 ms"},
    {250 * MS, "250 ms"},
    {999 * MS, "999 ms"},
    {1 * S, "1 s"},
    {1500 * MS, "1.5 s"},
    {30 * S, "30 s"},
    {119 * S, "119 s"},
    {120 * S, "2 min 0 s"},
    {150 * S, "2 min 30 s"},
    {7199 * S, "119 min 59 s"},
    {7200 * S, "2 h 0 min"},
    {9000 * S, "2 h 30 min"},
    {90061 * S, "25 h 1 min"},
};

static const struct {
    uint64_t bytes;
    const char *text;
} fmt_sizes[] = {
    {0, "0 B"},
    {999, "999 B"},
    {1000, "1.0 kB"},
    {1536, "1.5 kB"},
    {UINT64_C(250000000), "250.0 MB"},
    {UINT64_C(1500000000), "1.50 GB"},
    {UINT64_C(2000000000000), "2.00 TB"},
    {UINT64_MAX, "18446744.07 TB"},
};

static void test_format(void)
{
    char buf[64];
    for (size_t i = 0; i < sizeof fmt_durations / sizeof fmt_durations[0]; i++) {
        dg_format_duration(fmt_durations[i].ns, buf, sizeof buf);
        DG_CHECK_STR(buf, fmt_durations[i].text);
    }
    for (size_t i = 0; i < sizeof fmt_sizes / sizeof fmt_sizes[0]; i++) {
        dg_format_size(fmt_sizes[i].bytes, buf, sizeof buf);
        DG_CHECK_STR(buf, fmt_sizes[i].text);
    }
    /* a short buffer truncates and stays terminated */
    char small[5];
    memset(small, 'x', sizeof small);
    dg_format_duration(150 * S, small, sizeof small);
    DG_CHECK_STR(small, "2 mi");
    dg_format_size(UINT64_C(1500000000), small, sizeof small);
    DG_CHECK_STR(small, "1.50");
}

/* Formatting then parsing gives back the value, for values the format shows exactly. */
static void test_format_parse_round_trip(void)
{
    static const int64_t ns[] = {250 * US, 250 * MS, 1500 * MS, 30 * S};
    char buf[64];
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        dg_format_duration(ns[i], buf, sizeof buf);
        int64_t back = UNTOUCHED_I;
        DG_CHECK_INT(dg_parse_duration(buf, S, &back), 0);
        DG_CHECK_INT(back, ns[i]);
    }
    uint64_t b = 0;
    dg_format_size(UINT64_C(1500000000), buf, sizeof buf);
    DG_CHECK_INT(dg_parse_size(buf, &b), 0);
    DG_CHECK(b == UINT64_C(1500000000));
}

#ifdef DG_TEST_KNOWN_BUGS
/* Known bugs (src/core/units.c), kept out of the default suite:
 *  - sizes between 2^63 and the 1.8e19 cap pass the range check but go through llround(),
 *    whose long long result overflows: "10000000TB" (1e19 bytes, which fits a uint64) gives
 *    9223372036854775808 instead of 10000000000000000000 (or an error);
 *  - strtod() accepts hexadecimal, so "0x10s" parses as 16 s and "0x1p4" as 16 bytes. */
static void test_known_bugs(void)
{
    uint64_t b = UNTOUCHED_U;
    int rc = dg_parse_size("10000000TB", &b);
    DG_CHECK(rc == DG_E_INVAL || b == UINT64_C(10000000000000000000));
    b = UNTOUCHED_U;
    rc = dg_parse_size("10000000000000000000", &b);
    DG_CHECK(rc == DG_E_INVAL || b == UINT64_C(10000000000000000000));

    int64_t ns = UNTOUCHED_I;
    DG_CHECK_INT(dg_parse_duration("0x10s", S, &ns), DG_E_INVAL);
    b = UNTOUCHED_U;
    DG_CHECK_INT(dg_parse_size("0x1p4", &b), DG_E_INVAL);
}
#endif

static void test_rfc3339(void)
{
    int64_t t = 0;
    DG_CHECK_INT(dg_parse_rfc3339("1970-01-01T00:00:00Z", &t), 0);
    DG_CHECK_INT(t, 0);
    DG_CHECK_INT(dg_parse_rfc3339("2026-12-06T01:00:00Z", &t), 0);
    DG_CHECK_INT(t, INT64_C(1796518800) * DG_NS_PER_S);
    char buf[32];
    dg_format_iso8601(t, buf, sizeof buf);
    DG_CHECK_STR(buf, "2026-12-06T01:00:00Z");
    int64_t u = 0; /* the same instant with an offset, lower case, a fraction */
    DG_CHECK_INT(dg_parse_rfc3339("2026-12-06t02:30:00.25+01:30", &u), 0);
    DG_CHECK_INT(u, t + 250 * DG_NS_PER_MS);
    DG_CHECK_INT(dg_parse_rfc3339("2026-12-05T19:00:00.000000001-06:00z", &u), -1);
    DG_CHECK_INT(dg_parse_rfc3339("2026-12-05T19:00:00.000000001-06:00", &u), 0);
    DG_CHECK_INT(u, t + 1);
    DG_CHECK_INT(dg_parse_rfc3339("2024-02-29T12:00:00Z", &u), 0); /* leap day */
    DG_CHECK_INT(dg_parse_rfc3339("2000-03-01T00:00:00Z", &u), 0);
    DG_CHECK_INT(u, INT64_C(951868800) * DG_NS_PER_S);
    static const char *const bad[] = {
        "", "2026-12-06", "2026-12-06T01:00:00", "2026-12-06 01:00:00Z", "2026-13-06T01:00:00Z",
        "2026-02-29T01:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T01:00:00Z", "2026-12-06T24:00:00Z",
        "2026-12-06T01:60:00Z", "2026-12-06T01:00:60Z", "2026-12-06T01:00:00.Z",
        "2026-12-06T01:00:00.0000000001Z", "2026-12-06T01:00:00+1:00", "2026-12-06T01:00:00+01",
        "2026-12-06T01:00:00Z ", "+2026-12-06T01:00:00Z", "26-12-06T01:00:00Z", "now"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        DG_CHECK_INT(dg_parse_rfc3339(bad[i], &u), -1);
}

int main(void)
{
    DG_RUN(test_rfc3339);
    DG_RUN(test_parse_duration);
    DG_RUN(test_parse_size);
    DG_RUN(test_parse_int);
    DG_RUN(test_parse_count);
    DG_RUN(test_parse_double);
    DG_RUN(test_format);
    DG_RUN(test_format_parse_round_trip);
#ifdef DG_TEST_KNOWN_BUGS
    DG_RUN(test_known_bugs);
#endif
    DG_TEST_END();
}
