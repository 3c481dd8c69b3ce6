/*
 * test_script_expr.c - the \set expression language, from a table.
 *
 * Each row is an expression and what debug() reports for it ("int 5", "double 1.5",
 * "boolean true", "null"), or "error: MESSAGE" for a runtime error, or "parse: MESSAGE"
 * for an error found when the script is added. Expressions run without a database
 * (a VM with no connection), with the -D variables of define_vars() and seed 5432.
 * Many rows are pgbench's own documented examples and regression expressions, so the
 * expected values are pgbench's. Random functions are checked for range with a fixed seed.
 */
#include "dgtest.h"
#include <limits.h>

#include "core/strbuf.h"
#include "workload/script/script.h"

static char debug_text[256];
static int debug_calls;

static void capture(void *arg, int script, int command, const char *text)
{
    (void)arg;
    (void)script;
    (void)command;
    snprintf(debug_text, sizeof debug_text, "%s", text);
    debug_calls++;
}

static const struct {
    const char *name, *value;
} defines[] = {
    {"foo", "bla"},        {"badtrue", "trueXXX"}, {"maxint", "9223372036854775807"},
    {"minint", "-9223372036854775808"}, {"zy", "0"}, {"n", "null"}, {"t", "true"},
    {"f", "false"},        {"one", "1"},           {"zero", "0.0"}, {"d", "1.5"},
    {"y", "Ye"},           {"no", "nO"},           {"on", "ON"},    {"of", "of"},
    {"sp", " 42"},         {"e3", "1e3"},          {"empty", ""},   {"big", "99999999999999999999"},
    {"word", "o"},
};

static void define_vars(dg_script_set *set)
{
    for (size_t i = 0; i < sizeof defines / sizeof defines[0]; i++) {
        dg_err err;
        if (dg_script_set_define(set, defines[i].name, defines[i].value, &err) != 0)
            fprintf(stderr, "define %s: %s\n", defines[i].name, err.msg);
    }
}

/* Runs "\set r debug(EXPR)" once; returns what debug() saw or the error. */
static const char *eval_script(const char *text, int runs)
{
    static char out[DG_ERR_MSG_MAX + 16];
    dg_script_set *set = dg_script_set_new();
    dg_script_vm *vm = NULL;
    dg_err err;
    dg_prng rng;
    dg_prng_seed(&rng, 42);
    define_vars(set);
    debug_text[0] = '\0';
    if (dg_script_set_add(set, "t.sql", text, strlen(text), 1, &err) != 0 ||
        dg_script_set_finish(set, &err) != 0) {
        /* "t.sql:1:12: error: MESSAGE\n..." -> "parse: MESSAGE" */
        const char *m = strstr(err.msg, "error: ");
        m = m ? m + 7 : err.msg;
        size_t n = strcspn(m, "\n");
        snprintf(out, sizeof out, "parse: %.*s", (int)n, m);
        goto done;
    }
    if (dg_script_vm_new(set, NULL, &rng, 1, 0, 5432, &vm, &err) != 0) {
        snprintf(out, sizeof out, "vm: %s", err.msg);
        goto done;
    }
    dg_script_vm_set_debug(vm, capture, NULL);
    for (int i = 0; i < runs; i++) {
        if (dg_script_vm_run(vm, 0, &err) != 0) {
            const char *m = strstr(err.msg, "command ");
            m = m ? strchr(m, ':') : NULL;
            snprintf(out, sizeof out, "error: %s", m ? m + 2 : err.msg);
            if (err.cls != DG_EC_USER)
                snprintf(out, sizeof out, "error of class %s", dg_errclass_name(err.cls));
            goto done;
        }
    }
    snprintf(out, sizeof out, "%s", debug_text);
done:
    dg_script_vm_free(vm);
    dg_script_set_free(set);
    return out;
}

static const char *eval(const char *expr)
{
    char text[2048];
    snprintf(text, sizeof text, "\\set r debug(%s)\n", expr);
    return eval_script(text, 1);
}

static const struct {
    const char *expr, *expect;
} cases[] = {
    /* constants and literals */
    {"1", "int 1"},
    {"-1", "int -1"},
    {"+5", "int 5"},
    {"1.5", "double 1.5"},
    {".5", "double 0.5"},
    {"1.", "double 1"},
    {"1e3", "double 1000"},
    {"1.5E-3", "double 0.0015"},
    {"-54.21E-2", "double -0.5421"},
    {"9223372036854775807", "int 9223372036854775807"},
    {"-9223372036854775808", "int -9223372036854775808"},
    {"true", "boolean true"},
    {"FALSE", "boolean false"},
    {"NuLl", "null"},
    {"+true", "boolean true"},
    {"(((7)))", "int 7"},
    {"1 + \\\n 2", "int 3"},
    /* arithmetic, precedence and type promotion */
    {"1 + 2 * 3", "int 7"},
    {"(1 + 2) * 3", "int 9"},
    {"7 - 2 - 1", "int 4"},
    {"2 * -3", "int -6"},
    {"2 - -3", "int 5"},
    {"-2 * 3", "int -6"},
    {"5 / 2", "int 2"},
    {"-5 / 2", "int -2"},
    {"5 % 3", "int 2"},
    {"-5 % 3", "int -2"},
    {"5 % -1", "int 0"},
    {"5 / -1", "int -5"},
    {"1 + 2.0", "double 3"},
    {"5.0 / 2", "double 2.5"},
    {"5 / 2.0", "double 2.5"},
    {"2.5 * 2", "double 5"},
    {"5.5 % 2", "int 0"},
    {"7.4 % 4", "int 3"},
    {"1.0 / 0", "double inf"},
    {"-1.0 / 0", "double -inf"},
    {"1 - 0.5", "double 0.5"},
    /* pgbench's regression expressions */
    {"abs(-4)", "int 4"},
    {"greatest(5, 4, 3, 2)", "int 5"},
    {"11 + least(-5, -4, -3, -2)", "int 6"},
    {"int(7.3)", "int 7"},
    {"17 / (4|1) + ( 4 + (7 >> 2))", "int 8"},
    {"- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1", "int 9"},
    {"10 + (0 + 0 * 0 - 0 / 1)", "int 10"},
    {"64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2)", "int 12"},
    {"sqrt(+1.5 * 2.0) * abs(-0.8E1)", "double 13.856406460551"},
    {"double(1 + 1) * (-75.0 / :one)", "double -150"},
    {"pi() * 4.9", "double 15.39380400259"},
    {"greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0))", "double 16"},
    {"least(-5.18, .0E0, 1.0/0) * -3.3", "double 17.094"},
    {"pow(-3,3)", "double -27"},
    {"pow(2.0,10)", "double 1024"},
    {"pow(0,0)", "double 1"},
    {"pow(0.0,0.0)", "double 1"},
    {"pow(-2,-3)", "double -0.125"},
    {"pow(-2.0,-3.0)", "double -0.125"},
    {"power(-5.0,-5.0)", "double -0.00032"},
    {"pow(9223372036854775807, 2)", "double 8.50705917302346e+37"},
    {"pow(10,30)", "double 1e+30"},
    {"1.0 = 0.0 and 1.0 != 0.0", "boolean false"},
    {"0 = 1 Or 1.0 = 1", "boolean true"},
    {"case when 0 < 1 then 32 else 0 end", "int 32"},
    {"case when true then 33 else 0 end", "int 33"},
    {"case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end ", "double 34"},
    {"case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and "
     "(0 <> 1) then 35 else 0 end",
     "int 35"},
    {"CASE \\\n WHEN (1.0 > 0.0) AND (1.0 >= 0.0) AND (0.0 < 1.0) AND (0.0 <= 1.0) AND \\\n"
     " (0.0 != 1.0) AND (0.0 = 0.0) AND (0.0 <> 1.0) AND (0.0 = 0.0) \\\n THEN 36 \\\n ELSE 0 "
     "\\\n END",
     "int 36"},
    {"CASE WHEN NOT FALSE THEN 3 * 12.3333334 END", "double 37.0000002"},
    {"case when false then 0 when 1-1 <> 0 then 1 else 38 end", "int 38"},
    {"10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19)", "int 39"},
    {"NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND NOT (false and true) AND "
     "(false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND NOT (NOT TRUE)",
     "boolean true"},
    {"NULL + NULL * exp(NULL)", "null"},
    {"NOT (:n IS NOT NULL OR :d IS NULL)", "boolean true"},
    {":n IS NULL AND :d IS NOT NULL AND :d NOTNULL", "boolean true"},
    {":n ISNULL AND NOT :n IS TRUE AND :n IS NOT FALSE", "boolean true"},
    {"CASE WHEN :n IS NULL THEN 46 ELSE NULL END", "int 46"},
    {":n IS NULL AND NOT :f AND :t", "boolean true"},
    {"CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL "
     "ELSE TRUE END",
     "boolean true"},
    {"hash(10, 5432)", "int -5817877081768721676"},
    {"hash(10, 5432) = hash_murmur2(10, 5432)", "boolean true"},
    {"hash_fnv1a(10, 5432)", "int -7793829335365542153"},
    {"hash(10) = hash(10, :default_seed)", "boolean true"},
    {"hash(10) = hash(10, 5432)", "boolean true"},
    {"case when :zy = 0 then -1 else (1 / :zy) end", "int -1"},
    {"case when :zy = 0 or (1 / :zy) < 0 then -1 else (1 / :zy) end", "int -1"},
    {"case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end", "int 1"},
    {":scale", "int 1"},
    {":client_id", "int 0"},
    {":random_seed", "int 5432"},
    {":default_seed", "int 5432"},
    {"-(:minint + 1)", "int 9223372036854775807"},
    {"permute(0, 2) + permute(1, 2) = 1", "boolean true"},
    {"permute(0, 3) + permute(1, 3) + permute(2, 3) = 3", "boolean true"},
    {"permute(0, 4) + permute(1, 4) + permute(2, 4) + permute(3, 4) = 6", "boolean true"},
    {"permute(0, 16) + permute(1, 16) + permute(2, 16) + permute(3, 16) + permute(4, 16) + "
     "permute(5, 16) + permute(6, 16) + permute(7, 16) + permute(8, 16) + permute(9, 16) + "
     "permute(10, 16) + permute(11, 16) + permute(12, 16) + permute(13, 16) + permute(14, 16) + "
     "permute(15, 16) = 120",
     "boolean true"},
    {"permute(7, 1) = 0", "boolean true"},
    {"permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and permute(0, 2, 5433) = 1 and "
     "permute(1, 2, 5433) = 0",
     "boolean true"},
    {"permute(:maxint - 11, :maxint - 10, 5432) = 520382784483822430 and "
     "permute(:maxint - 12, :maxint - 10, 5432) = 1143715004660802862 and "
     "permute(:maxint - 13, :maxint - 10, 5432) = 447293596416496998 and "
     "permute(:maxint - 14, :maxint - 10, 5432) = 916527772266572956 and "
     "permute(:maxint - 15, :maxint - 10, 5432) = 2763809008686028849 and "
     "permute(:maxint - 16, :maxint - 10, 5432) = 8648551549198294572 and "
     "permute(:maxint - 17, :maxint - 10, 5432) = 4542876852200565125",
     "boolean true"},
    {"permute(-1, 10) = permute(5, 10)", "boolean true"}, /* (uint64)-1 % 10 */
    /* comparisons */
    {"1 = 1.0", "boolean true"},
    {"2 > 1.5", "boolean true"},
    {"1 <> 1", "boolean false"},
    {"1 != 2", "boolean true"},
    {"3 >= 3", "boolean true"},
    {"2 <= 1", "boolean false"},
    {"1 < 2", "boolean true"},
    {"NULL = NULL", "null"},
    {"1 = NULL", "null"},
    /* bitwise */
    {"5 & 3", "int 1"},
    {"5 | 3", "int 7"},
    {"5 # 3", "int 6"},
    {"~5", "int -6"},
    {"~1 + 2", "int -4"},
    {"~1 | 2", "int -2"},
    {"1 << 3", "int 8"},
    {"-16 >> 2", "int -4"},
    {"1 << 63", "int -9223372036854775808"},
    {"1 << 64", "int 1"},
    {"3.6 & 7", "int 4"},
    /* logic, NULL and IS */
    {"NOT true", "boolean false"},
    {"NOT NULL", "null"},
    {"NOT 1 = 2", "boolean true"},
    {"NOT true AND false", "boolean false"},
    {"true AND NULL", "null"},
    {"NULL AND false", "null"},
    {"false AND NULL", "boolean false"},
    {"true OR NULL", "boolean true"},
    {"NULL OR true", "null"},
    {"false OR NULL", "null"},
    {"false OR false", "boolean false"},
    {"true AND true", "boolean true"},
    {"NULL IS NULL", "boolean true"},
    {"1 IS NULL", "boolean false"},
    {"NULL ISNULL", "boolean true"},
    {"1 NOTNULL", "boolean true"},
    {"1 IS NOT NULL", "boolean true"},
    {"true IS TRUE", "boolean true"},
    {"1 IS TRUE", "boolean false"},
    {"false IS FALSE", "boolean true"},
    {"NULL IS NOT FALSE", "boolean true"},
    {"1 = 1 IS TRUE", "boolean true"},
    {"NULL IS NULL IS TRUE", "boolean true"},
    {"1 = 2 IS NULL IS FALSE", "boolean true"},
    {"1 = 2 IS NULL = false", "error: cannot use a boolean as an int"},
    {"nUlL iS nUlL", "boolean true"},
    /* CASE */
    {"CASE WHEN NULL THEN 1 ELSE 2 END", "int 2"},
    {"CASE WHEN 0 THEN 1 END", "null"},
    {"CASE WHEN 1.5 THEN 1 END", "int 1"},
    {"CASE WHEN false THEN 1 WHEN false THEN 2 WHEN true THEN 3 ELSE 4 END", "int 3"},
    {"1 + CASE WHEN true THEN 1 END * 2", "int 3"},
    {"CASE WHEN TRUE THEN Abs(-1) END", "int 1"},
    /* functions */
    {"abs(-2.5)", "double 2.5"},
    {"abs(3)", "int 3"},
    {"abs(NULL)", "null"},
    {"double(3)", "double 3"},
    {"int(2.5)", "int 2"},
    {"int(3.5)", "int 4"},
    {"int(-2.5)", "int -2"},
    {"int(-7.6)", "int -8"},
    {"int(5)", "int 5"},
    {"sqrt(4)", "double 2"},
    {"exp(0)", "double 1"},
    {"ln(1)", "double 0"},
    {"mod(7, 3)", "int 1"},
    {"pi()", "double 3.14159265358979"},
    {"greatest(1, 2.5)", "double 2.5"},
    {"least(3, 2, 1)", "int 1"},
    {"least(1, NULL)", "null"},
    {"random(1, NULL)", "null"},
    {"greatest(7)", "int 7"},
    {"debug(debug(1) + 1)", "int 2"},
    {"hash(NULL)", "null"},
    /* variables of every kind */
    {":t", "boolean true"},
    {":f", "boolean false"},
    {":n", "null"},
    {":y", "boolean true"},
    {":no", "boolean false"},
    {":on", "boolean true"},
    {":of", "boolean false"},
    {":sp + 0", "int 42"},
    {":d * 2", "double 3"},
    {":e3", "double 1000"},
    {":one + :zero", "double 1"},
    /* runtime errors */
    {"1/0", "error: division by zero"},
    {"1 % 0", "error: division by zero"},
    {"mod(5, 0)", "error: division by zero"},
    {"(1<<62) + (1<<62)", "error: integer out of range in addition"},
    {"0 - (1<<62) - (1<<62) - (1<<62)", "error: integer out of range in subtraction"},
    {"2 * (1<<62)", "error: integer out of range in multiplication"},
    {":minint / -1", "error: integer out of range in division"},
    {"-:minint", "error: integer out of range in subtraction"},
    {"abs(:minint)", "error: integer out of range in abs()"},
    {":maxint + 1", "error: integer out of range in addition"},
    {"int(1E32)", "error: double 1e+32 is out of range for an int"},
    {"int(-1E19)", "error: double -1e+19 is out of range for an int"},
    {"int(9223372036854775807.0)", "error: double 9.22337e+18 is out of range for an int"},
    {"NOT 0.0", "error: cannot use a double as a boolean"},
    {"NOT 1", "error: cannot use an int as a boolean"},
    {"1 AND true", "error: cannot use an int as a boolean"},
    {"true OR 2", "boolean true"},
    {"false OR 2", "error: cannot use an int as a boolean"},
    {"TRUE + 2", "error: cannot use a boolean as an int"},
    {"1.5 + true", "error: cannot use a boolean as a double"},
    {"true = true", "error: cannot use a boolean as an int"},
    {"ln(TRUE)", "error: cannot use a boolean as a double"},
    {"abs(true)", "error: cannot use a boolean as a number"},
    {"int(false)", "error: cannot use a boolean as an int"},
    {"greatest(1, true)", "error: cannot use a boolean as an int"},
    {"least(1.5, true)", "error: cannot use a boolean as a double"},
    {"random(FALSE, TRUE)", "error: cannot use a boolean as an int"},
    {"random(5, 3)", "error: empty range given to random: 5 > 3"},
    {"random(:minint, :maxint)", "error: random range is too large"},
    {"random(-9223372036854775807, 0)", "error: random range is too large"},
    {"random_gaussian(0, 10, 1.0)", "error: gaussian parameter must be at least 2 (not 1)"},
    {"random_exponential(0, 10, 0.0)",
     "error: exponential parameter must be greater than 0 (not 0)"},
    {"random_zipfian(0, 10, 1)", "error: zipfian parameter must be between 1.001 and 1000 (not 1)"},
    {"random_zipfian(0, 10, 1000000)",
     "error: zipfian parameter must be between 1.001 and 1000 (not 1e+06)"},
    {"permute(0, 0)", "error: permute size must be greater than 0 (not 0)"},
    {"permute(0, -5, 1)", "error: permute size must be greater than 0 (not -5)"},
    {":foo + 1", "error: invalid value \"bla\" for variable \"foo\""},
    {":badtrue or true", "error: invalid value \"trueXXX\" for variable \"badtrue\""},
    {":empty", "error: variable \"empty\" is empty"},
    {":big", "error: value \"99999999999999999999\" of variable \"big\" is out of range for an int"},
    {":word", "error: invalid value \"o\" for variable \"word\""},
    {"random(NULL, 1/0)", "error: division by zero"},
    /* parse errors */
    {"1 +", "parse: syntax error at \")\""},
    {"noSuchFunction()", "parse: unknown function \"noSuchFunction\""},
    {";", "parse: unexpected character \";\" in expression"},
    {"least()", "parse: least() needs at least one argument"},
    {"greatest()", "parse: greatest() needs at least one argument"},
    {"hash(1, 2, 3)", "parse: hash() takes 1 or 2 arguments, not 3"},
    {"hash()", "parse: hash() takes 1 or 2 arguments, not 0"},
    {"permute(1)", "parse: permute() takes 2 or 3 arguments, not 1"},
    {"permute(1, 2, 3, 4)", "parse: permute() takes 2 or 3 arguments, not 4"},
    {"ln(1.0, 2.0)", "parse: ln() takes 1 argument, not 2"},
    {"random(1)", "parse: random() takes 2 arguments, not 1"},
    {"pi(1)", "parse: pi() takes 0 arguments, not 1"},
    {"9223372036854775808", "parse: syntax error at \"9223372036854775808\""},
    {"92233720368547758070", "parse: integer constant \"92233720368547758070\" is out of range"},
    {"1e400", "parse: double constant \"1e400\" is out of range"},
    {"1 < 2 < 3", "parse: syntax error at \"<\""},
    {"1 = 2 <> 3", "parse: syntax error at \"<>\""},
    {"CASE TRUE THEN 1 ELSE 0 END", "parse: syntax error at \"TRUE\", expected WHEN"},
    {"CASE WHEN 1 2 END", "parse: syntax error at \"2\", expected THEN"},
    {"CASE WHEN 1 THEN 2", "parse: syntax error at \")\", expected WHEN, ELSE or END"},
    {"1 IS 2", "parse: syntax error at \"2\", expected NULL, TRUE or FALSE"},
    {"aid + 1", "parse: syntax error at \"aid\" (a variable is written :aid)"},
    {"abs 1", "parse: syntax error at \"1\", expected \"(\""},
    {"abs(1 2)", "parse: syntax error at \"2\", expected \",\" or \")\""},
    {"1 2", "parse: syntax error at \"2\", expected \",\" or \")\""},
    {"@", "parse: unexpected character \"@\" in expression"},
    {"1 + é", "parse: syntax error at \"é\" (a variable is written :é)"},
    {"1 !! 2", "parse: unexpected character \"!\" in expression"},
    {":nosuchvariable", "parse: variable \"nosuchvariable\" is used but never set (by \\set, "
                        "\\gset, \\aset or -D)"},
};

static void test_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = eval(cases[i].expr);
        if (strcmp(got, cases[i].expect) != 0)
            fprintf(stderr, "  expression: %s\n", cases[i].expr);
        DG_CHECK_STR(got, cases[i].expect);
    }
}

/* Parse errors name the right column even inside debug(). */
static void test_parse_columns(void)
{
    DG_CHECK_STR(eval_script("\\set x 1 + 2 * \n", 1),
                 "parse: syntax error: unexpected end of expression");
    DG_CHECK_STR(eval_script("\\set x\n", 1), "parse: missing expression");
    DG_CHECK_STR(eval_script("\\set\n", 1), "parse: \\set: missing variable name");
}

/* Variables written by \set are read by later commands, and keep their values across
 * runs. */
static void test_set_chain(void)
{
    DG_CHECK_STR(eval_script("\\set a 1\n\\set b :a + 1\n\\set c debug(:a * 10 + :b)\n", 1),
                 "int 12");
    DG_CHECK_STR(eval_script("\\set a 0\n\\set a :a + 1\n\\set c debug(:a)\n", 1), "int 1");
    DG_CHECK_STR(eval_script("\\set c debug(CASE WHEN :n IS NULL THEN 0 ELSE :c + 1 END)\n"
                             "\\set n 1\n",
                             5),
                 "int 4");
    /* a variable used before any \set in the run order is an error at run time */
    DG_CHECK_STR(eval_script("\\set c debug(:later)\n\\set later 1\n", 1),
                 "error: undefined variable \"later\"");
}

/* random(LO, HI) with constants skips the stack machine (scr_expr.uniform_k): the same
 * values as the stack machine's path for the same generator, bounds included */
static void seq_of(const char *expr, long long *out, int n)
{
    dg_script_set *set = dg_script_set_new();
    dg_script_vm *vm = NULL;
    dg_err err;
    dg_prng rng;
    dg_prng_seed(&rng, 777);
    char text[128];
    snprintf(text, sizeof text, "\\set lo 1\n\\set n7 7\n\\set r %s\n", expr);
    DG_CHECK_INT(dg_script_set_add(set, "k.sql", text, strlen(text), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 99, &vm, &err), 0);
    for (int i = 0; vm && i < n; i++) {
        dg_value v;
        out[i] = LLONG_MIN;
        if (dg_script_vm_run(vm, 0, &err) == 0 && dg_script_vm_get(vm, "r", &v) == 0 &&
            v.type == DG_V_INT)
            out[i] = (long long)v.u.i;
    }
    dg_script_vm_free(vm);
    dg_script_set_free(set);
}

static void test_random_constant_bounds(void)
{
    static const char *const pairs[][2] = {
        /* a variable bound keeps the second on the stack machine (constants fold) */
        {"random(1, 100000)", "random(:lo, 100000)"},
        {"random(7, 7)", "random(:n7, 7)"},
        {"random(1, 9223372036854775806)", "random(:lo, 9223372036854775806)"},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        long long a[500], b[500];
        seq_of(pairs[k][0], a, 500);
        seq_of(pairs[k][1], b, 500);
        int same = 0;
        for (int i = 0; i < 500; i++)
            same += a[i] == b[i] && a[i] != LLONG_MIN;
        DG_CHECK_INT(same, 500);
    }
    /* constant bounds that are an error stay errors, worded as before */
    DG_CHECK_STR(eval_script("\\set r random(5, 3)\n", 1), "error: empty range given to random: 5 > 3");
}

/* random functions: ranges with a fixed seed, and every value of a small range occurs */
static void test_random_ranges(void)
{
    static const struct {
        const char *expr;
        long long lo, hi;
        bool all;
    } r[] = {
        {"random(1, 10)", 1, 10, true},
        {"random(-5, 5)", -5, 5, true},
        {"random(7, 7)", 7, 7, true},
        {"random(1.4, 3.6)", 1, 4, true},
        {"random(0, 9223372036854775806)", 0, 9223372036854775806LL, false},
        {"random(-9223372036854775806, 0)", -9223372036854775806LL, 0, false},
        {"random_exponential(1, 100, 5.0)", 1, 100, false},
        {"random_exponential(1, 10, 0.001)", 1, 10, true},
        {"random_gaussian(1, 100, 2.0)", 1, 100, false},
        {"random_gaussian(1, 10, 2.5)", 1, 10, true},
        {"random_zipfian(1, 100, 1.5)", 1, 100, false},
        {"random_zipfian(1, 5, 1.001)", 1, 5, true},
        {"random_zipfian(-10, -5, 2.0)", -10, -5, false},
        {"permute(random(0, 99), 100)", 0, 99, true},
    };
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++) {
        dg_script_set *set = dg_script_set_new();
        dg_script_vm *vm = NULL;
        dg_err err;
        dg_prng rng;
        dg_prng_seed(&rng, 12345);
        char text[256];
        snprintf(text, sizeof text, "\\set r %s\n", r[k].expr);
        DG_CHECK_INT(dg_script_set_add(set, "r.sql", text, strlen(text), 1, &err), 0);
        DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
        DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 99, &vm, &err), 0);
        bool seen[12] = {false};
        long long minv = 0, maxv = 0;
        int bad = 0;
        for (int i = 0; vm && i < 2000; i++) {
            dg_value v;
            if (dg_script_vm_run(vm, 0, &err) != 0 || dg_script_vm_get(vm, "r", &v) != 0 ||
                v.type != DG_V_INT) {
                bad++;
                continue;
            }
            long long x = (long long)v.u.i;
            if (i == 0 || x < minv)
                minv = x;
            if (i == 0 || x > maxv)
                maxv = x;
            if (x < r[k].lo || x > r[k].hi)
                bad++;
            else if (r[k].hi - r[k].lo < 12)
                seen[x - r[k].lo] = true;
        }
        if (bad)
            fprintf(stderr, "  %s: %d bad values (min %lld, max %lld)\n", r[k].expr, bad, minv,
                    maxv);
        DG_CHECK_INT(bad, 0);
        if (r[k].all && r[k].hi - r[k].lo < 12) {
            int missing = 0;
            for (long long x = r[k].lo; x <= r[k].hi; x++)
                missing += !seen[x - r[k].lo];
            if (missing)
                fprintf(stderr, "  %s: %d values never drawn\n", r[k].expr, missing);
            DG_CHECK_INT(missing, 0);
        }
        dg_script_vm_free(vm);
        dg_script_set_free(set);
    }
}

/* permute() is a permutation; the same seed gives the same sequence of random() values */
static void test_permute_and_determinism(void)
{
    dg_script_set *set = dg_script_set_new();
    dg_script_vm *vm = NULL;
    dg_err err;
    dg_prng rng;
    dg_prng_seed(&rng, 1);
    const char *text = "\\set i :i + 1\n\\set p permute(:i, 1000, 77)\n";
    DG_CHECK_INT(dg_script_set_define(set, "i", "-1", &err), 0);
    DG_CHECK_INT(dg_script_set_add(set, "p.sql", text, strlen(text), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 1, &vm, &err), 0);
    static bool hit[1000];
    int dup = 0;
    for (int i = 0; vm && i < 1000; i++) {
        dg_value v;
        DG_CHECK_INT(dg_script_vm_run(vm, 0, &err), 0);
        DG_CHECK_INT(dg_script_vm_get(vm, "p", &v), 0);
        if (v.u.i < 0 || v.u.i >= 1000 || hit[v.u.i])
            dup++;
        else
            hit[v.u.i] = true;
    }
    DG_CHECK_INT(dup, 0);
    dg_script_vm_free(vm);
    dg_script_set_free(set);

    /* two VMs on equally seeded generators draw the same values */
    int64_t a[50], b[50];
    for (int round = 0; round < 2; round++) {
        set = dg_script_set_new();
        vm = NULL;
        dg_prng_seed(&rng, 2024);
        text = "\\set r random(1, 1000000) + random_gaussian(1, 100, 3) + "
               "random_exponential(1, 100, 2) + random_zipfian(1, 100, 1.2)\n";
        DG_CHECK_INT(dg_script_set_add(set, "d.sql", text, strlen(text), 1, &err), 0);
        DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
        DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 1, &vm, &err), 0);
        for (int i = 0; vm && i < 50; i++) {
            dg_value v = {0};
            DG_CHECK_INT(dg_script_vm_run(vm, 0, &err), 0);
            dg_script_vm_get(vm, "r", &v);
            (round == 0 ? a : b)[i] = v.u.i;
        }
        dg_script_vm_free(vm);
        dg_script_set_free(set);
    }
    DG_CHECK(memcmp(a, b, sizeof a) == 0);
}

/* debug() reports the script and command number; the default hook can be silenced */
static void test_debug_hook(void)
{
    dg_script_set *set = dg_script_set_new();
    dg_script_vm *vm = NULL;
    dg_err err;
    dg_prng rng;
    dg_prng_seed(&rng, 1);
    const char *t0 = "\\set a 1\n";
    const char *t1 = "\\set a 2\n\\if debug(:a) = 2\n\\set b debug(3.5)\n\\endif\n";
    DG_CHECK_INT(dg_script_set_add(set, "a.sql", t0, strlen(t0), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_add(set, "b.sql", t1, strlen(t1), 1, &err), 0);
    DG_CHECK_INT(dg_script_set_finish(set, &err), 0);
    DG_CHECK_INT(dg_script_vm_new(set, NULL, &rng, 1, 0, 1, &vm, &err), 0);
    dg_script_vm_set_debug(vm, capture, NULL);
    debug_calls = 0;
    DG_CHECK_INT(dg_script_vm_run(vm, 1, &err), 0);
    DG_CHECK_INT(debug_calls, 2);
    DG_CHECK_STR(debug_text, "double 3.5");
    dg_script_vm_set_debug(vm, NULL, NULL);
    DG_CHECK_INT(dg_script_vm_run(vm, 1, &err), 0);
    DG_CHECK_INT(debug_calls, 2);
    dg_script_vm_free(vm);
    dg_script_set_free(set);
}

/* ---- depth ------------------------------------------------------------------------- */

/* "\set r debug(" + pre x n + mid + post x n + ")": the expression built by repetition. */
static const char *eval_repeated(const char *pre, const char *mid, const char *post, int n)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "\\set r debug(");
    for (int i = 0; i < n; i++)
        dg_sb_add(&sb, pre);
    dg_sb_add(&sb, mid);
    for (int i = 0; i < n; i++)
        dg_sb_add(&sb, post);
    dg_sb_add(&sb, ")\n");
    const char *got = eval_script(dg_sb_str(&sb), 1);
    dg_sb_free(&sb);
    return got;
}

/* Nesting is bounded with a parse error, never a crash; flat chains of binary operators
 * are not nesting: any length parses and evaluates (they were a stack overflow once). */
static void test_depth(void)
{
    const char *deep = "parse: expression too deeply nested (limit 1000)";
    /* debug( is one level: 998 more parentheses and the 1 make 1000 */
    DG_CHECK_STR(eval_repeated("(", "1", ")", 998), "int 1");
    DG_CHECK_STR(eval_repeated("(", "1", ")", 999), deep);
    DG_CHECK_STR(eval_repeated("(", "1", ")", 43593), deep);
    DG_CHECK_STR(eval_repeated("- ", "1", "", 998), "int 1");
    DG_CHECK_STR(eval_repeated("- ", "1", "", 20000), deep);
    DG_CHECK_STR(eval_repeated("+", "1", "", 20000), deep);
    DG_CHECK_STR(eval_repeated("~", "1", "", 20000), deep);
    DG_CHECK_STR(eval_repeated("NOT ", "true", "", 20000), deep);
    DG_CHECK_STR(eval_repeated("abs(", "-7", ")", 20000), deep);
    DG_CHECK_STR(eval_repeated("least(1, ", "2", ")", 20000), deep);
    DG_CHECK_STR(eval_repeated("CASE WHEN true THEN ", "1", " END", 20000), deep);
    DG_CHECK_STR(eval_repeated("1 + (", "1", ")", 20000), deep);
    DG_CHECK_STR(eval_repeated("true AND (", "true", ")", 20000), deep);

    /* flat: 14,687 terms crashed the release build; ten times more must work */
    DG_CHECK_STR(eval_repeated("1+", "1", "", 146870), "int 146871");
    DG_CHECK_STR(eval_repeated("1 - ", "1", "", 20000), "int -19999");
    DG_CHECK_STR(eval_repeated("3 * ", "1", " / 3", 30), "int 1");
    DG_CHECK_STR(eval_repeated("1 * ", "5", " / 1", 20000), "int 5");
    DG_CHECK_STR(eval_repeated("true AND ", "true", "", 20000), "boolean true");
    DG_CHECK_STR(eval_repeated("false OR ", "true", "", 20000), "boolean true");
    DG_CHECK_STR(eval_repeated("1 | ", "2", "", 20000), "int 3");
    DG_CHECK_STR(eval_repeated("(", "1", ") + 1", 500), "int 501"); /* 500 left-deep levels */
    /* a CASE with many WHEN branches, only the last one true */
    DG_CHECK_STR(eval_repeated("", "CASE", " WHEN false THEN 1", 20000), /* no END */
                 "parse: syntax error at \")\", expected WHEN, ELSE or END");
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_sb_add(&sb, "\\set r debug(CASE");
    for (int i = 0; i < 20000; i++)
        dg_sb_printf(&sb, " WHEN %d = 19999 THEN %d", i, i);
    dg_sb_add(&sb, " ELSE -1 END)\n");
    DG_CHECK_STR(eval_script(dg_sb_str(&sb), 1), "int 19999");
    dg_sb_free(&sb);
}

int main(void)
{
    DG_RUN(test_table);
    DG_RUN(test_parse_columns);
    DG_RUN(test_set_chain);
    DG_RUN(test_random_ranges);
    DG_RUN(test_random_constant_bounds);
    DG_RUN(test_permute_and_determinism);
    DG_RUN(test_debug_hook);
    DG_RUN(test_depth);
    DG_TEST_END();
}
