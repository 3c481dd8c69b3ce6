/*
 * test_fbext.c - unit tests of backend/fbext.c, the records of Firebird external tables.
 *
 * The golden records were written by a Firebird 3.0 server itself (INSERT INTO an external
 * table declared as dg_fbx_plan and dg_fbx_sql_type declare it, then the file's bytes in
 * hex), so the plan's offsets and the encoder's values are the server's own layout. Then a
 * table of single values: conversions, rounding and refusals. The Firebird conformance
 * test (tests/integration/firebird_load.sh) loads the same kinds of values into a server.
 */
#include "dgtest.h"

#include "backend/fbext.h"

#include <stdio.h>
#include <string.h>

#define T(str) {.type = DG_V_TEXT, .u.s = {str, sizeof(str) - 1}}

static void to_hex(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", p[i]);
    out[2 * n] = '\0';
}

/* id BIGINT, amount NUMERIC(18,2), t TIMESTAMP, d DATE, tm TIME, s VARCHAR(5) UTF8,
 * dbl DOUBLE PRECISION, flag BOOLEAN: declared by falling alignment as
 * C0 BIGINT, C1 NUMERIC(18,2), C2 TIMESTAMP, C6 DOUBLE PRECISION, C3 DATE, C4 TIME,
 * C5 VARCHAR(5) CHARACTER SET UTF8, C7 BOOLEAN, then N0 N1 N2 N6 N3 N4 N5 N7 BOOLEAN. */
static void make_cols(dg_fbx_col *c)
{
    memset(c, 0, 8 * sizeof *c);
    static const char *const names[] = {"id", "amount", "t", "d", "tm", "s", "dbl", "flag"};
    static const dg_fbx_kind kinds[] = {DG_FBX_INT64, DG_FBX_INT64, DG_FBX_TIMESTAMP, DG_FBX_DATE,
                                        DG_FBX_TIME,  DG_FBX_VARCHAR, DG_FBX_DOUBLE, DG_FBX_BOOL};
    for (int i = 0; i < 8; i++) {
        snprintf(c[i].name, sizeof c[i].name, "%s", names[i]);
        c[i].kind = kinds[i];
    }
    c[1].scale = 2;
    c[5].chars = 5;
    c[5].bytes = 20;
    c[5].utf8 = true;
}

static void test_server_layout(void)
{
    dg_fbx_col c[8];
    make_cols(c);
    int order[8];
    size_t rec_bytes = 0;
    DG_CHECK_INT(dg_fbx_plan(c, 8, order, &rec_bytes, NULL), 0);
    DG_CHECK_INT(rec_bytes, 71);
    static const int want_order[8] = {0, 1, 2, 6, 3, 4, 5, 7};
    for (int i = 0; i < 8; i++)
        DG_CHECK_INT(order[i], want_order[i]);
    char decl[512] = "", t[96];
    for (int j = 0; j < 8; j++) {
        dg_fbx_sql_type(&c[order[j]], "UTF8", t, sizeof t);
        snprintf(decl + strlen(decl), sizeof decl - strlen(decl), "%s%s", j ? ", " : "", t);
    }
    DG_CHECK_STR(decl, "BIGINT, NUMERIC(18,2), TIMESTAMP, DOUBLE PRECISION, DATE, TIME, "
                       "VARCHAR(5) CHARACTER SET UTF8, BOOLEAN");

    unsigned char rec[71];
    char hex[200];
    dg_value r1[8] = {dg_vint(-2), dg_vnumeric(1234, 2), T("2024-02-29 13:45:01.5"),
                      T("1858-11-16"), T("23:59:59.9999"), T("\xc3\xa9\xe2\x82\xacx"),
                      dg_vdouble(2.5), dg_vint(1)};
    DG_CHECK_INT(dg_fbx_encode(c, 8, r1, rec, sizeof rec, NULL), 0);
    to_hex(rec, sizeof rec, hex);
    DG_CHECK_STR(hex, "feffffffffffffffd204000000000000d1eb00005854811d0000000000000440ffffffff"
                      "ff977f330600c3a9e282ac7800000000000000000000000000000100000000000000"
                      "00");
    for (int i = 0; i < 8; i++)
        DG_CHECK(!c[i].saw_null);
    /* the server wrote '' with its indicator set; dbgauge writes NULL as zeros and the flag */
    dg_value r2[8] = {dg_vint(7),       T("-0.05"), T("1858-11-17 00:00:00"), T("2000-01-01"),
                      T("00:00:00"),    dg_vnull(), dg_vdouble(-0.125),       T("false")};
    DG_CHECK_INT(dg_fbx_encode(c, 8, r2, rec, sizeof rec, NULL), 0);
    to_hex(rec, sizeof rec, hex);
    DG_CHECK_STR(hex, "0700000000000000fbffffffffffffff0000000000000000000000000000c0bf58c90000"
                      "00000000000000000000000000000000000000000000000000000000000000000001"
                      "00");
    DG_CHECK(c[5].saw_null);
    DG_CHECK_INT(rec[c[5].null_off], 1);
    DG_CHECK_INT(c[5].null_off, 69);
}

/* Alignment never depends on where the record starts: 4-byte values first when there is
 * no 8-byte one, text and booleans after. */
static void test_plan_orders(void)
{
    dg_fbx_col c[3];
    memset(c, 0, sizeof c);
    c[0].kind = DG_FBX_BOOL;
    c[1].kind = DG_FBX_VARCHAR;
    c[1].bytes = c[1].chars = 3;
    c[2].kind = DG_FBX_DATE;
    int order[3];
    size_t n;
    DG_CHECK_INT(dg_fbx_plan(c, 3, order, &n, NULL), 0);
    DG_CHECK_INT(order[0], 2);
    DG_CHECK_INT(order[1], 1);
    DG_CHECK_INT(order[2], 0);
    DG_CHECK_INT(c[2].off, 0);
    DG_CHECK_INT(c[1].off, 4);
    DG_CHECK_INT(c[0].off, 9);
    DG_CHECK_INT(n, 13); /* 4 + 5 + 1 + three indicators */
    c[1].bytes = 40000;
    dg_err e;
    DG_CHECK_INT(dg_fbx_plan(c, 3, order, &n, &e), DG_E_INVAL);
    c[1].kind = DG_FBX_UNSUPPORTED;
    DG_CHECK_INT(dg_fbx_plan(c, 3, order, &n, &e), DG_E_INVAL);
}

/* One value into one column: the bytes written at the value's offset (hex), or NULL for a
 * refusal whose message contains `why`. */
static const struct {
    const char *name;
    dg_fbx_kind kind;
    int scale, chars, bytes;
    bool utf8;
    dg_value v;
    const char *hex, *why;
} cases[] = {
    {"int", DG_FBX_INT64, 0, 0, 0, false, {.type = DG_V_INT, .u.i = 258}, "0201000000000000", NULL},
    {"int into numeric(.,2)", DG_FBX_INT64, 2, 0, 0, false, {.type = DG_V_INT, .u.i = 3}, "2c01000000000000", NULL},
    {"numeric rescaled up", DG_FBX_INT64, 4, 0, 0, false, {.type = DG_V_NUMERIC, .u.n = {5, 1}}, "8813000000000000", NULL},
    {"numeric rounds half away from zero", DG_FBX_INT64, 1, 0, 0, false, {.type = DG_V_NUMERIC, .u.n = {-125, 2}}, "f3ffffffffffffff", NULL},
    {"numeric rounds down", DG_FBX_INT64, 0, 0, 0, false, {.type = DG_V_NUMERIC, .u.n = {149, 2}}, "0100000000000000", NULL},
    {"text decimal", DG_FBX_INT64, 2, 0, 0, false, T(" -12.345 "), "2dfbffffffffffff", NULL},
    {"text exponent", DG_FBX_INT64, 0, 0, 0, false, T("1.5e3"), "dc05000000000000", NULL},
    {"double into numeric", DG_FBX_INT64, 2, 0, 0, false, {.type = DG_V_DOUBLE, .u.d = 0.125}, "0d00000000000000", NULL},
    {"int overflow at scale", DG_FBX_INT64, 2, 0, 0, false, {.type = DG_V_INT, .u.i = INT64_MAX / 10}, NULL, "out of range"},
    {"words into int", DG_FBX_INT64, 0, 0, 0, false, T("abc"), NULL, "not a number"},
    {"empty into int", DG_FBX_INT64, 0, 0, 0, false, T(""), NULL, "not a number"},
    {"double from text", DG_FBX_DOUBLE, 0, 0, 0, false, T("-0.125"), "000000000000c0bf", NULL},
    {"double from numeric", DG_FBX_DOUBLE, 0, 0, 0, false, {.type = DG_V_NUMERIC, .u.n = {25, 1}}, "0000000000000440", NULL},
    {"text keeps trailing spaces", DG_FBX_VARCHAR, 0, 4, 16, true, T("a  "), "030061202000000000000000000000000000", NULL},
    {"text with a NUL and controls", DG_FBX_VARCHAR, 0, 4, 4, false, {.type = DG_V_TEXT, .u.s = {"\0\t\n", 3}}, "030000090a00", NULL},
    {"text from numeric", DG_FBX_VARCHAR, 0, 8, 8, false, {.type = DG_V_NUMERIC, .u.n = {-5, 2}}, "05002d302e3035000000", NULL},
    {"text too many bytes", DG_FBX_VARCHAR, 0, 2, 2, false, T("abc"), NULL, "3 bytes, room for 2"},
    {"text too many characters", DG_FBX_VARCHAR, 0, 2, 8, true, T("\xc3\xa9\xc3\xa9\xc3\xa9"), NULL, "3 characters, room for 2"},
    {"text malformed UTF8", DG_FBX_VARCHAR, 0, 4, 16, true, T("\xc3("), NULL, "malformed UTF8"},
    {"text overlong UTF8", DG_FBX_VARCHAR, 0, 4, 16, true, T("\xe0\x80\xaf"), NULL, "malformed UTF8"},
    {"timestamp T and fraction", DG_FBX_TIMESTAMP, 0, 0, 0, false, T("2024-02-29T13:45:01.123456"), "d1eb0000a245811d", NULL},
    {"timestamp date only", DG_FBX_TIMESTAMP, 0, 0, 0, false, T("2000-01-01"), "58c90000 00000000", NULL},
    {"timestamp 29 February of a common year", DG_FBX_TIMESTAMP, 0, 0, 0, false, T("2023-02-29 00:00:00"), NULL, "not a timestamp"},
    {"timestamp hour 24", DG_FBX_TIMESTAMP, 0, 0, 0, false, T("2024-01-01 24:00:00"), NULL, "not a timestamp"},
    {"timestamp with a zone", DG_FBX_TIMESTAMP, 0, 0, 0, false, T("2024-01-01 10:00:00+02"), NULL, "not a timestamp"},
    {"timestamp from int", DG_FBX_TIMESTAMP, 0, 0, 0, false, {.type = DG_V_INT, .u.i = 0}, NULL, "not a date or time"},
    {"date with a time", DG_FBX_DATE, 0, 0, 0, false, T("2000-01-01 10:00:00"), NULL, "not a date"},
    {"date before 1858", DG_FBX_DATE, 0, 0, 0, false, T("0001-01-01"), "51a5f5ff", NULL},
    {"time", DG_FBX_TIME, 0, 0, 0, false, T("12:00:00"), "00ccbf19", NULL},
    {"bool from text", DG_FBX_BOOL, 0, 0, 0, false, T("TRUE"), "01", NULL},
    {"bool from int", DG_FBX_BOOL, 0, 0, 0, false, {.type = DG_V_INT, .u.i = 0}, "00", NULL},
    {"bool from words", DG_FBX_BOOL, 0, 0, 0, false, T("maybe"), NULL, "not a boolean"},
};

static void test_values(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dg_fbx_col c;
        memset(&c, 0, sizeof c);
        snprintf(c.name, sizeof c.name, "col");
        c.kind = cases[i].kind;
        c.scale = cases[i].scale;
        c.chars = cases[i].chars;
        c.bytes = cases[i].bytes;
        c.utf8 = cases[i].utf8;
        int order;
        size_t n;
        DG_CHECK_INT(dg_fbx_plan(&c, 1, &order, &n, NULL), 0);
        unsigned char rec[64];
        char hex[200], want[200];
        dg_err e;
        dg_err_clear(&e);
        int rc = dg_fbx_encode(&c, 1, &cases[i].v, rec, n, &e);
        if (!cases[i].hex) {
            if (rc == 0 || !strstr(e.msg, cases[i].why))
                fprintf(stderr, "  case '%s': expected a refusal with '%s', got '%s'\n", cases[i].name,
                        cases[i].why, e.msg);
            DG_CHECK_INT(rc, DG_E_INVAL);
            DG_CHECK(strstr(e.msg, cases[i].why) != NULL);
            DG_CHECK(strstr(e.msg, "column col") != NULL);
            continue;
        }
        if (rc)
            fprintf(stderr, "  case '%s': %s\n", cases[i].name, e.msg);
        DG_CHECK_INT(rc, 0);
        size_t k = 0; /* the expected hex, spaces dropped */
        for (const char *p = cases[i].hex; *p; p++)
            if (*p != ' ')
                want[k++] = *p;
        want[k] = '\0';
        to_hex(rec + c.off, k / 2, hex);
        if (strcmp(hex, want) != 0)
            fprintf(stderr, "  case '%s'\n", cases[i].name);
        DG_CHECK_STR(hex, want);
        DG_CHECK_INT(rec[c.null_off], 0);
    }
}

int main(void)
{
    DG_RUN(test_server_layout);
    DG_RUN(test_plan_orders);
    DG_RUN(test_values);
    DG_TEST_END();
}
