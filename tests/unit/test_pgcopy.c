/*
 * test_pgcopy.c - unit tests of backend/pgcopy.c, PostgreSQL's binary COPY fields.
 *
 * One table of (value, column kind, expected bytes in hex, or the start of the refusal).
 * The expected bytes follow the server's send/recv functions: int2/4/8 and float4/8 big
 * endian; numeric as ndigits, weight, sign, dscale and base-10000 digits (no leading or
 * trailing zero digit); date as days and timestamp as microseconds from 2000-01-01. The
 * PostgreSQL conformance test loads the same kinds of values into a real server.
 */
#include "dgtest.h"

#include "backend/pgcopy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define T(str) {.type = DG_V_TEXT, .u.s = {str, sizeof(str) - 1}}

static const struct {
    const char *name;
    dg_value v;
    dg_pgcopy_kind k;
    const char *hex; /* NULL: refused */
} cases[] = {
    {"null", {.type = DG_V_NULL}, DG_PGC_INT4, "ffffffff"},
    {"int4", {.type = DG_V_INT, .u.i = 42}, DG_PGC_INT4, "000000040000002a"},
    {"int2 negative", {.type = DG_V_INT, .u.i = -2}, DG_PGC_INT2, "00000002fffe"},
    {"int2 out of range", {.type = DG_V_INT, .u.i = 40000}, DG_PGC_INT2, NULL},
    {"int4 out of range", {.type = DG_V_INT, .u.i = INT64_C(2147483648)}, DG_PGC_INT4, NULL},
    {"int8 from text", T(" -9007199254740993 "), DG_PGC_INT8, "00000008ffdfffffffffffff"},
    {"int4 from a fraction", T("12.5"), DG_PGC_INT4, NULL},
    {"int4 from numeric 5.00", {.type = DG_V_NUMERIC, .u.n = {500, 2}}, DG_PGC_INT4, NULL},
    {"int4 from numeric 5", {.type = DG_V_NUMERIC, .u.n = {5, 0}}, DG_PGC_INT4, "0000000400000005"},
    {"int4 from double 3", {.type = DG_V_DOUBLE, .u.d = 3.0}, DG_PGC_INT4, "0000000400000003"},
    {"int4 from double 3.5", {.type = DG_V_DOUBLE, .u.d = 3.5}, DG_PGC_INT4, NULL},
    {"int4 from empty text", T(""), DG_PGC_INT4, NULL},
    {"float8", {.type = DG_V_DOUBLE, .u.d = 2.5}, DG_PGC_FLOAT8, "000000084004000000000000"},
    {"float8 from int", {.type = DG_V_INT, .u.i = 7}, DG_PGC_FLOAT8, "00000008401c000000000000"},
    {"float4 from text", T("1.5"), DG_PGC_FLOAT4, "000000043fc00000"},
    {"float8 from numeric", {.type = DG_V_NUMERIC, .u.n = {-25, 1}}, DG_PGC_FLOAT8, "00000008c004000000000000"},
    {"float8 from words", T("2.5 kg"), DG_PGC_FLOAT8, NULL},
    {"numeric -1234.56", {.type = DG_V_NUMERIC, .u.n = {-123456, 2}}, DG_PGC_NUMERIC,
     "0000000c00020000400000020" "4d215e0"},
    {"numeric zero keeps its scale", {.type = DG_V_NUMERIC, .u.n = {0, 2}}, DG_PGC_NUMERIC,
     "0000000800000000" "00000002"},
    {"numeric 0.05 from text", T("0.05"), DG_PGC_NUMERIC, "0000000a0001ffff0000000201f4"},
    {"numeric 12e3 from text", T("12e3"), DG_PGC_NUMERIC, "0000000c000200010000000000010" "7d0"},
    {"numeric 1e-5 from text", T("1e-5"), DG_PGC_NUMERIC, "0000000a0001fffe0000000503e8"},
    {"numeric 10000 from int", {.type = DG_V_INT, .u.i = 10000}, DG_PGC_NUMERIC, "0000000a00010001000000000001"},
    {"numeric -0.000", T("-0.000"), DG_PGC_NUMERIC, "0000000800000000" "00000003"},
    {"numeric int64 min", {.type = DG_V_INT, .u.i = INT64_MIN}, DG_PGC_NUMERIC,
     "000000120005000440000000039a0d2c0170156516b0"},
    {"numeric from double", {.type = DG_V_DOUBLE, .u.d = 0.5}, DG_PGC_NUMERIC, "0000000a0001ffff000000011388"},
    {"numeric from words", T("abc"), DG_PGC_NUMERIC, NULL},
    {"numeric two points", T("1.2.3"), DG_PGC_NUMERIC, NULL},
    {"numeric nan", {.type = DG_V_DOUBLE, .u.d = NAN}, DG_PGC_NUMERIC, NULL},
    {"timestamp origin", T("2000-01-01 00:00:00"), DG_PGC_TIMESTAMP, "000000080000000000000000"},
    {"timestamp before the origin", T("1999-12-31 23:59:59"), DG_PGC_TIMESTAMP, "00000008fffffffffff0bdc0"},
    {"timestamp from a date", T("2000-01-02"), DG_PGC_TIMESTAMP, "0000000800000014" "1dd76000"},
    {"timestamp T and fraction", T("2024-02-29T13:45:01.5"), DG_PGC_TIMESTAMP, "000000080002b5843c115260"},
    {"timestamp rounded to the microsecond", T("1999-12-31 23:59:59.9999994"), DG_PGC_TIMESTAMP,
     "00000008ffffffffffffffff"},
    {"timestamp without seconds", T("2000-01-01 00:01"), DG_PGC_TIMESTAMP, "0000000800000000" "03938700"},
    {"timestamp 29 February of a common year", T("2023-02-29 00:00:00"), DG_PGC_TIMESTAMP, NULL},
    {"timestamp with a zone", T("2024-01-01 10:00:00+02"), DG_PGC_TIMESTAMP, NULL},
    {"timestamp hour 24", T("2024-01-01 24:00:00"), DG_PGC_TIMESTAMP, NULL},
    {"timestamp from int", {.type = DG_V_INT, .u.i = 0}, DG_PGC_TIMESTAMP, NULL},
    {"date origin", T("2000-01-01"), DG_PGC_DATE, "0000000400000000"},
    {"date 1970", T("1970-01-01"), DG_PGC_DATE, "00000004ffffd533"},
    {"date with a time", T("1970-01-01 10:00:00"), DG_PGC_DATE, NULL},
    {"text as it is", T("a\tb"), DG_PGC_TEXT, "00000003610962"},
    {"empty text is not null", T(""), DG_PGC_TEXT, "00000000"},
    {"text from int", {.type = DG_V_INT, .u.i = 12345}, DG_PGC_TEXT, "000000053132333435"},
    {"text from numeric", {.type = DG_V_NUMERIC, .u.n = {5, 2}}, DG_PGC_TEXT, "00000004302e3035"},
    {"bool from text", T(" TRUE "), DG_PGC_BOOL, "0000000101"},
    {"bool from int", {.type = DG_V_INT, .u.i = 0}, DG_PGC_BOOL, "0000000100"},
    {"bool from 2", {.type = DG_V_INT, .u.i = 2}, DG_PGC_BOOL, NULL},
    {"unsupported kind", {.type = DG_V_INT, .u.i = 1}, DG_PGC_UNSUPPORTED, NULL},
};

static void test_fields(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[2048], hex[4200], why[160] = "";
        DG_CHECK(dg_pgcopy_field_max(&cases[i].v) <= sizeof out);
        size_t n = dg_pgcopy_field(cases[i].k, &cases[i].v, out, why, sizeof why);
        DG_CHECK(n <= dg_pgcopy_field_max(&cases[i].v));
        for (size_t j = 0; j < n; j++)
            snprintf(hex + 2 * j, 3, "%02x", (unsigned char)out[j]);
        hex[2 * n] = '\0';
        if (!cases[i].hex) {
            if (n != 0 || !strstr(why, "is not a value of type"))
                fprintf(stderr, "  case '%s': expected a refusal, got %s / '%s'\n", cases[i].name, hex, why);
            DG_CHECK_INT(n, 0);
            DG_CHECK(strstr(why, "is not a value of type") != NULL);
        } else {
            if (strcmp(hex, cases[i].hex) != 0)
                fprintf(stderr, "  case '%s' (%s)\n", cases[i].name, why);
            DG_CHECK_STR(hex, cases[i].hex);
        }
    }
}

/* The refusal names the value, shortened. */
static void test_refusal_text(void)
{
    char out[2048], why[160];
    dg_value v = dg_vstr("this is a rather long piece of text that is no number at all");
    DG_CHECK_INT(dg_pgcopy_field(DG_PGC_INT8, &v, out, why, sizeof why), 0);
    DG_CHECK_STR(why, "'this is a rather long piece of text that...' is not a value of type bigint");
}

/* The longest numeric text taken (1000 digits) fits the bound; one more digit is refused. */
static void test_numeric_limits(void)
{
    static char digits[1002], out[4096], why[160];
    memset(digits, '7', 1000);
    dg_value v = dg_vtext(digits, 1000);
    size_t n = dg_pgcopy_field(DG_PGC_NUMERIC, &v, out, why, sizeof why);
    DG_CHECK(n > 0 && n <= dg_pgcopy_field_max(&v));
    DG_CHECK_INT(n, 4 + 8 + 2 * 250);
    digits[1000] = '7';
    v = dg_vtext(digits, 1001);
    DG_CHECK_INT(dg_pgcopy_field(DG_PGC_NUMERIC, &v, out, why, sizeof why), 0);
    v = dg_vstr("1e1001");
    DG_CHECK_INT(dg_pgcopy_field(DG_PGC_NUMERIC, &v, out, why, sizeof why), 0);
}

/* The integer reader the PostgreSQL backend also reads the server's text with. */
static void test_parse_int(void)
{
    static const struct {
        const char *in;
        bool ok;
        int64_t v;
    } c[] = {{"0", true, 0},
             {"+5", true, 5},
             {"-9223372036854775808", true, INT64_MIN},
             {"9223372036854775807", true, INT64_MAX},
             {"9223372036854775808", false, 0},
             {"-9223372036854775809", false, 0},
             {"99999999999999999999", false, 0},
             {"", false, 0},
             {"-", false, 0},
             {" 1", false, 0},
             {"1.0", false, 0}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int64_t v = -7;
        DG_CHECK_INT(dg_pgcopy_parse_int(c[i].in, strlen(c[i].in), &v), c[i].ok);
        DG_CHECK_INT(v, c[i].ok ? c[i].v : -7);
    }
    int64_t v;
    DG_CHECK(dg_pgcopy_parse_int("12345", 3, &v) && v == 123); /* n bytes, no terminator needed */
}

static void test_kinds(void)
{
    DG_CHECK_INT(dg_pgcopy_kind_of(23), DG_PGC_INT4);
    DG_CHECK_INT(dg_pgcopy_kind_of(1043), DG_PGC_TEXT);
    DG_CHECK_INT(dg_pgcopy_kind_of(1042), DG_PGC_TEXT);
    DG_CHECK_INT(dg_pgcopy_kind_of(1700), DG_PGC_NUMERIC);
    DG_CHECK_INT(dg_pgcopy_kind_of(1114), DG_PGC_TIMESTAMP);
    DG_CHECK_INT(dg_pgcopy_kind_of(1184), DG_PGC_UNSUPPORTED); /* timestamptz */
    DG_CHECK_INT(dg_pgcopy_kind_of(114), DG_PGC_UNSUPPORTED);  /* json */
    DG_CHECK_INT((unsigned char)dg_pgcopy_header[7], 0xff);
    DG_CHECK_INT(memcmp(dg_pgcopy_header, "PGCOPY\n", 7), 0);
}

int main(void)
{
    DG_RUN(test_fields);
    DG_RUN(test_refusal_text);
    DG_RUN(test_numeric_limits);
    DG_RUN(test_parse_int);
    DG_RUN(test_kinds);
    DG_TEST_END();
}
