/*
 * eval.c - evaluation of compiled expressions (expr.c) on a terminal's variables.
 *
 * Layout: value coercions and the string-variable conversion first, then the byte-code
 * interpreter dg_scr_eval(), a loop over the ops with a value stack provided by the VM.
 * Nothing here allocates: messages go into the caller's dg_err, the stack is the VM's.
 *
 * Typing follows pgbench: integer arithmetic with overflow errors; if either operand of
 * + - * / or a comparison is a double, both are doubles (and / by zero gives inf/nan);
 * % is always integer; doubles become integers by rounding to nearest (rint); booleans
 * are never numbers; any NULL argument of an operator or function (except IS and
 * debug) makes the result NULL; AND, OR and CASE evaluate lazily.
 */
#include "workload/script/script_int.h"

#include "gen/random.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *type_name(const scr_value *v)
{
    switch (v->type) {
    case SV_NULL: return "null";
    case SV_INT: return "an int";
    case SV_DOUBLE: return "a double";
    case SV_BOOL: return "a boolean";
    }
    return "?";
}

/* An evaluation error: fills err and is DG_E_INVAL. A macro, not a function: a variadic
 * function is never inlined, so the compiler could not see that every failure is non-zero,
 * and warned (Release, -O3) that the callers' outputs "may be used uninitialized". */
#define fail(err, ...) (dg_err_set((err), DG_E_INVAL, DG_EC_USER, 0, NULL, __VA_ARGS__), DG_E_INVAL)

static int to_int(const scr_value *v, int64_t *out, dg_err *err)
{
    if (v->type == SV_INT) {
        *out = v->u.i;
        return 0;
    }
    if (v->type == SV_DOUBLE) {
        double d = rint(v->u.d);
        /* the largest double below 2^63 is exact; 2^63 itself does not fit */
        if (isnan(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
            return fail(err, "double %g is out of range for an int", v->u.d);
        *out = (int64_t)d;
        return 0;
    }
    return fail(err, "cannot use %s as an int", type_name(v));
}

static int to_double(const scr_value *v, double *out, dg_err *err)
{
    if (v->type == SV_DOUBLE) {
        *out = v->u.d;
        return 0;
    }
    if (v->type == SV_INT) {
        *out = (double)v->u.i;
        return 0;
    }
    return fail(err, "cannot use %s as a double", type_name(v));
}

static int to_bool(const scr_value *v, bool *out, dg_err *err)
{
    if (v->type == SV_BOOL) {
        *out = v->u.b;
        return 0;
    }
    return fail(err, "cannot use %s as a boolean", type_name(v));
}

bool dg_scr_truth(const scr_value *v)
{
    switch (v->type) {
    case SV_NULL: return false;
    case SV_BOOL: return v->u.b;
    case SV_INT: return v->u.i != 0;
    case SV_DOUBLE: return v->u.d != 0.0;
    }
    return false;
}

void dg_scr_value_describe(const scr_value *v, char *buf, size_t len)
{
    switch (v->type) {
    case SV_NULL: snprintf(buf, len, "null"); break;
    case SV_BOOL: snprintf(buf, len, "boolean %s", v->u.b ? "true" : "false"); break;
    case SV_INT: snprintf(buf, len, "int %" PRId64, v->u.i); break;
    case SV_DOUBLE: snprintf(buf, len, "double %.15g", v->u.d); break;
    }
}

/* s[0..n) is a prefix of word (case-insensitive), n >= 1. */
static bool prefix_of(const char *s, size_t n, const char *word)
{
    return n <= strlen(word) && strncasecmp(s, word, n) == 0;
}

/* Converts a string variable as pgbench does: null, boolean words (and their prefixes),
 * integers (which must fit), then doubles. */
static int parse_string(const char *name, const char *s, size_t n, scr_value *out, dg_err *err)
{
    if (n == 0)
        return fail(err, "variable \"%s\" is empty", name);
    if (strcasecmp(s, "null") == 0) {
        out->type = SV_NULL;
        return 0;
    }
    if (prefix_of(s, n, "true") || prefix_of(s, n, "yes") || strcasecmp(s, "on") == 0) {
        out->type = SV_BOOL;
        out->u.b = true;
        return 0;
    }
    if (prefix_of(s, n, "false") || prefix_of(s, n, "no") || strcasecmp(s, "off") == 0 ||
        strcasecmp(s, "of") == 0) {
        out->type = SV_BOOL;
        out->u.b = false;
        return 0;
    }
    /* an integer: optional spaces, sign, at least one digit, nothing else */
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    const char *num = p;
    if (*p == '+' || *p == '-')
        p++;
    const char *digits = p;
    while (isdigit((unsigned char)*p))
        p++;
    if (p > digits && *p == '\0') {
        errno = 0;
        char *end;
        long long v = strtoll(num, &end, 10);
        if (errno == ERANGE)
            return fail(err, "value \"%s\" of variable \"%s\" is out of range for an int", s, name);
        out->type = SV_INT;
        out->u.i = (int64_t)v;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0')
        return fail(err, "invalid value \"%s\" for variable \"%s\"", s, name);
    out->type = SV_DOUBLE;
    out->u.d = d;
    return 0;
}

int dg_scr_var_value(const dg_script_set *set, scr_vmvar *v, int slot, scr_value *out,
                     dg_err *err)
{
    switch (v->kind) {
    case VK_UNSET:
        return fail(err, "undefined variable \"%s\"", set->vars[slot].name);
    case VK_NULL:
        out->type = SV_NULL;
        return 0;
    case VK_INT:
        out->type = SV_INT;
        out->u.i = v->i;
        return 0;
    case VK_DOUBLE:
        out->type = SV_DOUBLE;
        out->u.d = v->d;
        return 0;
    case VK_BOOL:
        out->type = SV_BOOL;
        out->u.b = v->b;
        return 0;
    case VK_STRING:
        if (!v->sparsed) {
            int rc = parse_string(set->vars[slot].name, v->s, v->slen, &v->sval, err);
            if (rc)
                return rc;
            v->sparsed = true;
        }
        *out = v->sval;
        return 0;
    }
    return fail(err, "undefined variable \"%s\"", set->vars[slot].name);
}

static void set_int(scr_value *v, int64_t i)
{
    v->type = SV_INT;
    v->u.i = i;
}

static void set_double(scr_value *v, double d)
{
    v->type = SV_DOUBLE;
    v->u.d = d;
}

static void set_bool(scr_value *v, bool b)
{
    v->type = SV_BOOL;
    v->u.b = b;
}

/* + - * / % = <> < <= on two values; result in *l. */
static int arith(int op, scr_value *l, const scr_value *r, dg_err *err)
{
    if ((l->type == SV_DOUBLE || r->type == SV_DOUBLE) && op != OP_MOD) {
        double a, b;
        if (to_double(l, &a, err) || to_double(r, &b, err))
            return DG_E_INVAL;
        switch (op) {
        case OP_ADD: set_double(l, a + b); break;
        case OP_SUB: set_double(l, a - b); break;
        case OP_MUL: set_double(l, a * b); break;
        case OP_DIV: set_double(l, a / b); break;
        case OP_EQ: set_bool(l, a == b); break;
        case OP_NE: set_bool(l, a != b); break;
        case OP_LT: set_bool(l, a < b); break;
        case OP_LE: set_bool(l, a <= b); break;
        }
        return 0;
    }
    int64_t a, b, res;
    if (to_int(l, &a, err) || to_int(r, &b, err))
        return DG_E_INVAL;
    switch (op) {
    case OP_ADD:
        if (__builtin_add_overflow(a, b, &res))
            return fail(err, "integer out of range in addition");
        set_int(l, res);
        break;
    case OP_SUB:
        if (__builtin_sub_overflow(a, b, &res))
            return fail(err, "integer out of range in subtraction");
        set_int(l, res);
        break;
    case OP_MUL:
        if (__builtin_mul_overflow(a, b, &res))
            return fail(err, "integer out of range in multiplication");
        set_int(l, res);
        break;
    case OP_DIV:
    case OP_MOD:
        if (b == 0)
            return fail(err, "division by zero");
        if (b == -1) {
            if (op == OP_MOD) {
                set_int(l, 0);
            } else {
                if (a == INT64_MIN)
                    return fail(err, "integer out of range in division");
                set_int(l, -a);
            }
        } else {
            set_int(l, op == OP_DIV ? a / b : a % b);
        }
        break;
    case OP_EQ: set_bool(l, a == b); break;
    case OP_NE: set_bool(l, a != b); break;
    case OP_LT: set_bool(l, a < b); break;
    case OP_LE: set_bool(l, a <= b); break;
    }
    return 0;
}

/* random(lb, ub) and the skewed variants; args points at lb, ub[, param]. */
static int eval_random(scr_evalctx *cx, int op, const scr_value *args, scr_value *out,
                       dg_err *err)
{
    int64_t lb, ub, r = 0, span;
    double param = 0;
    if (to_int(&args[0], &lb, err) || to_int(&args[1], &ub, err))
        return DG_E_INVAL;
    if (lb > ub)
        return fail(err, "empty range given to random: %" PRId64 " > %" PRId64, lb, ub);
    if (__builtin_sub_overflow(ub, lb, &span) || __builtin_add_overflow(span, 1, &span))
        return fail(err, "random range is too large");
    if (op != OP_RANDOM && to_double(&args[2], &param, err))
        return DG_E_INVAL;
    int rc = 0;
    switch (op) {
    case OP_RANDOM:
        rc = dg_rand_uniform(cx->rng, lb, ub, &r, err);
        break;
    case OP_RANDOM_EXP:
        if (!(param > 0.0))
            return fail(err, "exponential parameter must be greater than 0 (not %g)", param);
        rc = dg_rand_exponential(cx->rng, lb, ub, param, &r, err);
        break;
    case OP_RANDOM_GAUSS:
        if (!(param >= DG_MIN_GAUSSIAN_PARAM))
            return fail(err, "gaussian parameter must be at least %g (not %g)",
                        DG_MIN_GAUSSIAN_PARAM, param);
        rc = dg_rand_gaussian(cx->rng, lb, ub, param, &r, err);
        break;
    case OP_RANDOM_ZIPF:
        if (!(param >= DG_MIN_ZIPFIAN_PARAM && param <= DG_MAX_ZIPFIAN_PARAM))
            return fail(err, "zipfian parameter must be between %g and %g (not %g)",
                        DG_MIN_ZIPFIAN_PARAM, DG_MAX_ZIPFIAN_PARAM, param);
        rc = dg_rand_zipfian(cx->rng, lb, ub, param, &r, err);
        break;
    }
    if (rc) {
        if (err)
            err->cls = DG_EC_USER;
        return DG_E_INVAL;
    }
    set_int(out, r);
    return 0;
}

/* The values an operator or function takes from the stack, for NULL in, NULL out; 0 for
 * those that see NULL themselves (IS, the jumps, DEBUG) or take none. LEAST and GREATEST
 * take n (their op's count). A table, not a switch: it is read once per operation. */
#define NARGS_N 255
static const uint8_t op_nargs[OP_COUNT] = {
    [OP_ADD] = 2, [OP_SUB] = 2, [OP_MUL] = 2, [OP_DIV] = 2, [OP_MOD] = 2,
    [OP_EQ] = 2, [OP_NE] = 2, [OP_LT] = 2, [OP_LE] = 2,
    [OP_BITAND] = 2, [OP_BITOR] = 2, [OP_BITXOR] = 2, [OP_SHL] = 2, [OP_SHR] = 2,
    [OP_POW] = 2, [OP_RANDOM] = 2, [OP_HASH_MURMUR2] = 2, [OP_HASH_FNV1A] = 2,
    [OP_NOT] = 1, [OP_ABS] = 1, [OP_INT] = 1, [OP_DOUBLE] = 1, [OP_SQRT] = 1, [OP_LN] = 1,
    [OP_EXP] = 1,
    [OP_RANDOM_EXP] = 3, [OP_RANDOM_GAUSS] = 3, [OP_RANDOM_ZIPF] = 3, [OP_PERMUTE] = 3,
    [OP_LEAST] = NARGS_N, [OP_GREATEST] = NARGS_N,
};

int dg_scr_eval(scr_evalctx *cx, const scr_expr *e, scr_value *out, dg_err *err)
{
    if (e->uniform_k) { /* random(LO, HI): what the OP_RANDOM integer path below does;
                           the bounds passed its range check when compiled */
        set_int(out, dg_prng_range(cx->rng, e->lo, e->hi));
        return 0;
    }
    scr_value *st = cx->stack;
    int sp = 0; /* number of values on the stack */
    const scr_op *code = e->code;
    int pc = 0;

    while (pc < e->ncode) {
        const scr_op *o = &code[pc++];
        scr_value *top = sp > 0 ? &st[sp - 1] : NULL;

        /* operators and functions: NULL in, NULL out (except IS and debug) */
        int nargs = op_nargs[o->op];
        if (nargs == NARGS_N)
            nargs = o->n;
        if (nargs > 0) {
            bool isnull = false;
            for (int i = sp - nargs; i < sp; i++)
                isnull |= st[i].type == SV_NULL;
            if (isnull) {
                sp -= nargs - 1;
                st[sp - 1].type = SV_NULL;
                continue;
            }
        }

        switch (o->op) {
        case OP_CONST:
            st[sp].type = (scr_vtype)o->n;
            if (o->n == SV_INT)
                st[sp].u.i = o->k.i;
            else if (o->n == SV_DOUBLE)
                st[sp].u.d = o->k.d;
            else if (o->n == SV_BOOL)
                st[sp].u.b = o->k.b;
            sp++;
            break;
        case OP_VAR:
            if (dg_scr_var_value(cx->set, &cx->vars[o->a], o->a, &st[sp], err))
                return DG_E_INVAL;
            sp++;
            break;
        case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE:
            if (arith(o->op, &st[sp - 2], &st[sp - 1], err))
                return DG_E_INVAL;
            sp--;
            break;
        case OP_BITAND: case OP_BITOR: case OP_BITXOR: case OP_SHL: case OP_SHR: {
            int64_t a, b;
            if (to_int(&st[sp - 2], &a, err) || to_int(&st[sp - 1], &b, err))
                return DG_E_INVAL;
            int64_t r;
            switch (o->op) {
            case OP_BITAND: r = a & b; break;
            case OP_BITOR: r = a | b; break;
            case OP_BITXOR: r = a ^ b; break;
            /* shift counts are taken modulo 64, as the hardware pgbench runs on does */
            case OP_SHL: r = (int64_t)((uint64_t)a << (b & 63)); break;
            default: r = a >> (b & 63); break;
            }
            sp--;
            set_int(&st[sp - 1], r);
            break;
        }
        case OP_NOT: {
            bool b = false;
            if (to_bool(top, &b, err))
                return DG_E_INVAL;
            set_bool(top, !b);
            break;
        }
        case OP_IS: {
            bool r;
            if (o->n == 0)
                r = top->type == SV_NULL;
            else
                r = top->type == SV_BOOL && top->u.b == (o->n == 1);
            set_bool(top, r);
            break;
        }
        case OP_ABS:
            if (top->type == SV_INT) {
                if (top->u.i == INT64_MIN)
                    return fail(err, "integer out of range in abs()");
                top->u.i = top->u.i < 0 ? -top->u.i : top->u.i;
            } else if (top->type == SV_DOUBLE) {
                top->u.d = top->u.d < 0.0 ? -top->u.d : top->u.d;
            } else {
                return fail(err, "cannot use %s as a number", type_name(top));
            }
            break;
        case OP_INT: {
            int64_t i;
            if (to_int(top, &i, err))
                return DG_E_INVAL;
            set_int(top, i);
            break;
        }
        case OP_DOUBLE: case OP_SQRT: case OP_LN: case OP_EXP: {
            double d;
            if (to_double(top, &d, err))
                return DG_E_INVAL;
            if (o->op == OP_SQRT)
                d = sqrt(d);
            else if (o->op == OP_LN)
                d = log(d);
            else if (o->op == OP_EXP)
                d = exp(d);
            set_double(top, d);
            break;
        }
        case OP_PI:
            set_double(&st[sp++], M_PI);
            break;
        case OP_POW: {
            double a, b;
            if (to_double(&st[sp - 2], &a, err) || to_double(&st[sp - 1], &b, err))
                return DG_E_INVAL;
            sp--;
            set_double(&st[sp - 1], pow(a, b));
            break;
        }
        case OP_LEAST: case OP_GREATEST: {
            int n = o->n;
            scr_value *args = &st[sp - n];
            bool anydouble = false;
            for (int i = 0; i < n; i++)
                anydouble |= args[i].type == SV_DOUBLE;
            if (anydouble) {
                double best, d;
                if (to_double(&args[0], &best, err))
                    return DG_E_INVAL;
                for (int i = 1; i < n; i++) {
                    if (to_double(&args[i], &d, err))
                        return DG_E_INVAL;
                    if (o->op == OP_LEAST ? d < best : d > best)
                        best = d;
                }
                set_double(&args[0], best);
            } else {
                int64_t best, v;
                if (to_int(&args[0], &best, err))
                    return DG_E_INVAL;
                for (int i = 1; i < n; i++) {
                    if (to_int(&args[i], &v, err))
                        return DG_E_INVAL;
                    if (o->op == OP_LEAST ? v < best : v > best)
                        best = v;
                }
                set_int(&args[0], best);
            }
            sp -= n - 1;
            break;
        }
        case OP_RANDOM:
            /* integer bounds, the usual case: straight to the generator (the checks are
             * eval_random's, which takes every other case and words the errors) */
            if (st[sp - 2].type == SV_INT && st[sp - 1].type == SV_INT &&
                st[sp - 2].u.i <= st[sp - 1].u.i &&
                st[sp - 1].u.i - (uint64_t)st[sp - 2].u.i < (uint64_t)INT64_MAX) {
                int64_t r;
                if (dg_rand_uniform(cx->rng, st[sp - 2].u.i, st[sp - 1].u.i, &r, err)) {
                    if (err)
                        err->cls = DG_EC_USER;
                    return DG_E_INVAL;
                }
                sp--;
                set_int(&st[sp - 1], r);
                break;
            }
            /* fall through */
        case OP_RANDOM_EXP: case OP_RANDOM_GAUSS: case OP_RANDOM_ZIPF: {
            int n = o->op == OP_RANDOM ? 2 : 3;
            scr_value r;
            if (eval_random(cx, o->op, &st[sp - n], &r, err))
                return DG_E_INVAL;
            sp -= n - 1;
            st[sp - 1] = r;
            break;
        }
        case OP_HASH_MURMUR2: case OP_HASH_FNV1A: {
            int64_t v, seed;
            if (to_int(&st[sp - 2], &v, err) || to_int(&st[sp - 1], &seed, err))
                return DG_E_INVAL;
            sp--;
            set_int(&st[sp - 1], o->op == OP_HASH_MURMUR2 ? dg_hash_murmur2(v, seed)
                                                          : dg_hash_fnv1a(v, seed));
            break;
        }
        case OP_PERMUTE: {
            int64_t v, size, seed, r;
            if (to_int(&st[sp - 3], &v, err) || to_int(&st[sp - 2], &size, err) ||
                to_int(&st[sp - 1], &seed, err))
                return DG_E_INVAL;
            if (size <= 0)
                return fail(err, "permute size must be greater than 0 (not %" PRId64 ")", size);
            if (dg_permute(v, size, seed, &r, err)) {
                if (err)
                    err->cls = DG_EC_USER;
                return DG_E_INVAL;
            }
            sp -= 2;
            set_int(&st[sp - 1], r);
            break;
        }
        case OP_DEBUG:
            if (cx->debug) {
                char buf[64];
                dg_scr_value_describe(top, buf, sizeof buf);
                cx->debug(cx->debug_arg, cx->script, cx->command, buf);
            }
            break;
        case OP_AND1: case OP_OR1: {
            if (top->type == SV_NULL) {
                pc = o->a;
                break;
            }
            bool b = false;
            if (to_bool(top, &b, err))
                return DG_E_INVAL;
            if (b == (o->op == OP_OR1)) {
                pc = o->a; /* false AND ..., true OR ... */
                break;
            }
            sp--;
            break;
        }
        case OP_AND2: case OP_OR2:
            if (top->type != SV_NULL) {
                bool b = false;
                if (to_bool(top, &b, err))
                    return DG_E_INVAL;
            }
            break;
        case OP_JFALSE:
            sp--;
            if (!dg_scr_truth(&st[sp]))
                pc = o->a;
            break;
        case OP_JMP:
            pc = o->a;
            break;
        }
    }
    *out = st[0];
    return 0;
}
