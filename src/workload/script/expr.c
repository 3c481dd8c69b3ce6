/*
 * expr.c - the \set / \if expression language: lexer, parser and byte-code compiler.
 *
 * Layout: the lexer (next_token) turns the text of one meta-command line into tokens;
 * the parser builds a small tree in an array of nodes by precedence climbing; the
 * compiler walks the tree and emits byte code for eval.c, resolving variables to slots
 * of the script set and computing the stack depth the code needs.
 *
 * Depth: the parser recurses once per level of nesting (parentheses, prefix operators,
 * function arguments, CASE), and refuses more than SCR_MAX_NESTING levels with "expression
 * too deeply nested", so that no expression can exhaust the C stack. A flat chain of
 * binary operators is not nesting (the parser loops over it) but makes a tree as deep as
 * the chain is long, so the compiler walks the tree with an explicit stack, and the
 * evaluator is a loop over byte code. Every step is linear in the length of the text.
 *
 * The grammar, precedences and typing follow pgbench (PostgreSQL 15): from loosest to
 * tightest binding OR, AND, NOT (prefix), IS / ISNULL / NOTNULL (postfix), comparisons
 * (non-associative), bitwise | # & << >> and prefix ~, + -, * / %, prefix + and -.
 * "a > b" is evaluated as "b < a" and "-x" as "0 - x", as pgbench does, so that the
 * order in which random functions draw from the generator is the same.
 */
#include "workload/script/script_int.h"

#include "core/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- tokens ------------------------------------------------------------------------- */

typedef enum tokkind {
    T_EOF,
    T_INT,
    T_MAXINT1, /* 9223372036854775808: only valid right after unary minus */
    T_DOUBLE,
    T_BOOL,
    T_NULL,
    T_VAR,
    T_IDENT,
    T_AND,
    T_OR,
    T_NOT,
    T_IS,
    T_ISNULL,
    T_NOTNULL,
    T_CASE,
    T_WHEN,
    T_THEN,
    T_ELSE,
    T_END,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_PERCENT,
    T_EQ,
    T_NE,
    T_LT,
    T_LE,
    T_GT,
    T_GE,
    T_SHL,
    T_SHR,
    T_BAR,
    T_AMP,
    T_HASH,
    T_TILDE,
    T_LPAREN,
    T_RPAREN,
    T_COMMA,
} tokkind;

typedef struct token {
    tokkind kind;
    size_t pos; /* offset in the script text */
    size_t len;
    int64_t i;
    double d;
    bool b;
} token;

/* ---- tree --------------------------------------------------------------------------- */

typedef enum nodekind {
    N_CONST,
    N_VAR,
    N_CALL, /* op with children as arguments */
    N_AND,
    N_OR,
    N_CASE, /* children: cond, result, cond, result, ..., else */
} nodekind;

typedef struct node {
    nodekind kind;
    scr_opcode op;
    int isk;       /* OP_IS kind */
    scr_value val; /* N_CONST */
    int slot;      /* N_VAR */
    int first;     /* first child, -1 if none */
    int last;      /* last child, -1 if none (appending is O(1)) */
    int next;      /* next sibling, -1 if none */
    int nkids;
} node;

typedef struct parser {
    dg_script_set *set;
    const scr_src *src;
    size_t end;   /* end of the expression text */
    size_t pos;   /* lexer position */
    token tok;    /* current token */
    int nesting;  /* levels of nesting the parser is in (bounded by SCR_MAX_NESTING) */
    node *nodes;
    int nnodes, capnodes;
    dg_err *err;
    /* compiler */
    scr_op *code;
    int ncode, capcode;
    int depth, maxdepth;
} parser;

/* ---- functions ---------------------------------------------------------------------- */

enum { ARGS_HASH = -1, ARGS_PERMUTE = -2, ARGS_ONE_OR_MORE = -3 };

static const struct {
    const char *name;
    int nargs;
    scr_opcode op;
} funcs[] = {
    {"abs", 1, OP_ABS},
    {"debug", 1, OP_DEBUG},
    {"double", 1, OP_DOUBLE},
    {"exp", 1, OP_EXP},
    {"greatest", ARGS_ONE_OR_MORE, OP_GREATEST},
    {"hash", ARGS_HASH, OP_HASH_MURMUR2},
    {"hash_fnv1a", ARGS_HASH, OP_HASH_FNV1A},
    {"hash_murmur2", ARGS_HASH, OP_HASH_MURMUR2},
    {"int", 1, OP_INT},
    {"least", ARGS_ONE_OR_MORE, OP_LEAST},
    {"ln", 1, OP_LN},
    {"mod", 2, OP_MOD},
    {"permute", ARGS_PERMUTE, OP_PERMUTE},
    {"pi", 0, OP_PI},
    {"pow", 2, OP_POW},
    {"power", 2, OP_POW},
    {"random", 2, OP_RANDOM},
    {"random_exponential", 3, OP_RANDOM_EXP},
    {"random_gaussian", 3, OP_RANDOM_GAUSS},
    {"random_zipfian", 3, OP_RANDOM_ZIPF},
    {"sqrt", 1, OP_SQRT},
};

/* ---- lexer -------------------------------------------------------------------------- */

static bool is_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool word_is(const char *p, size_t n, const char *kw)
{
    return strlen(kw) == n && strncasecmp(p, kw, n) == 0;
}

/* Reads the next token into ps->tok. */
static int next_token(parser *ps)
{
    const char *t = ps->src->text;
    size_t p = ps->pos;

    for (;;) {
        if (p >= ps->end)
            break;
        char c = t[p];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if (c == '\\' && p + 1 < ps->end && t[p + 1] == '\n') {
            p += 2;
        } else if (c == '\\' && p + 2 < ps->end && t[p + 1] == '\r' && t[p + 2] == '\n') {
            p += 3;
        } else {
            break;
        }
    }
    token *k = &ps->tok;
    memset(k, 0, sizeof *k);
    k->pos = p;
    if (p >= ps->end || t[p] == '\n') {
        k->kind = T_EOF;
        ps->pos = p;
        return 0;
    }
    unsigned char c = (unsigned char)t[p];
    unsigned char c1 = p + 1 < ps->end ? (unsigned char)t[p + 1] : 0;
    size_t q = p;

    if (is_digit(c) || (c == '.' && is_digit(c1))) {
        bool isdouble = false;
        while (q < ps->end && is_digit((unsigned char)t[q]))
            q++;
        if (q < ps->end && t[q] == '.') {
            isdouble = true;
            q++;
            while (q < ps->end && is_digit((unsigned char)t[q]))
                q++;
        }
        if (q < ps->end && (t[q] == 'e' || t[q] == 'E')) {
            size_t r = q + 1;
            if (r < ps->end && (t[r] == '+' || t[r] == '-'))
                r++;
            if (r < ps->end && is_digit((unsigned char)t[r])) {
                while (r < ps->end && is_digit((unsigned char)t[r]))
                    r++;
                q = r;
                isdouble = true;
            }
        }
        k->len = q - p;
        char num[64];
        if (k->len >= sizeof num)
            return dg_scr_syntax_error(ps->src, p, ps->err, "numeric constant \"%.*s\" is too long",
                                       (int)k->len, t + p);
        memcpy(num, t + p, k->len);
        num[k->len] = '\0';
        if (isdouble) {
            errno = 0;
            k->d = strtod(num, NULL);
            if (errno == ERANGE)
                return dg_scr_syntax_error(ps->src, p, ps->err,
                                           "double constant \"%.*s\" is out of range",
                                           (int)k->len, t + p);
            k->kind = T_DOUBLE;
        } else if (strcmp(num, "9223372036854775808") == 0) {
            k->kind = T_MAXINT1;
        } else {
            uint64_t v = 0;
            for (size_t i = 0; i < k->len; i++) {
                unsigned d = (unsigned)(num[i] - '0');
                if (v > (UINT64_C(9223372036854775807) - d) / 10)
                    return dg_scr_syntax_error(ps->src, p, ps->err,
                                               "integer constant \"%.*s\" is out of range",
                                               (int)k->len, t + p);
                v = v * 10 + d;
            }
            k->i = (int64_t)v;
            k->kind = T_INT;
        }
        ps->pos = q;
        return 0;
    }
    if (c == ':' && dg_scr_varchar(c1)) {
        q = p + 1;
        while (q < ps->end && dg_scr_varchar((unsigned char)t[q]))
            q++;
        k->kind = T_VAR;
        k->len = q - p;
        ps->pos = q;
        return 0;
    }
    if (is_alpha(c)) {
        q = p + 1;
        while (q < ps->end && dg_scr_varchar((unsigned char)t[q]))
            q++;
        size_t n = q - p;
        const char *w = t + p;
        static const struct {
            const char *kw;
            tokkind kind;
        } kws[] = {
            {"and", T_AND},   {"or", T_OR},       {"not", T_NOT},         {"is", T_IS},
            {"isnull", T_ISNULL}, {"notnull", T_NOTNULL}, {"case", T_CASE}, {"when", T_WHEN},
            {"then", T_THEN}, {"else", T_ELSE},   {"end", T_END},         {"null", T_NULL},
            {"true", T_BOOL}, {"false", T_BOOL},
        };
        k->kind = T_IDENT;
        for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++) {
            if (word_is(w, n, kws[i].kw)) {
                k->kind = kws[i].kind;
                k->b = kws[i].kw[0] == 't';
                break;
            }
        }
        k->len = n;
        ps->pos = q;
        return 0;
    }
    static const struct {
        const char *s;
        tokkind kind;
    } ops[] = {
        {"<>", T_NE}, {"!=", T_NE}, {"<=", T_LE}, {">=", T_GE}, {"<<", T_SHL}, {">>", T_SHR},
        {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH}, {"%", T_PERCENT},
        {"=", T_EQ},  {"<", T_LT},  {">", T_GT},  {"|", T_BAR},  {"&", T_AMP},  {"#", T_HASH},
        {"~", T_TILDE}, {"(", T_LPAREN}, {")", T_RPAREN}, {",", T_COMMA},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].s);
        if (p + n <= ps->end && memcmp(t + p, ops[i].s, n) == 0) {
            k->kind = ops[i].kind;
            k->len = n;
            ps->pos = p + n;
            return 0;
        }
    }
    /* show one whole UTF-8 character */
    size_t n = 1;
    while (c >= 0xC0 && p + n < ps->end && ((unsigned char)t[p + n] & 0xC0) == 0x80)
        n++;
    return dg_scr_syntax_error(ps->src, p, ps->err, "unexpected character \"%.*s\" in expression",
                               (int)n, t + p);
}

/* ---- parser ------------------------------------------------------------------------- */

static int syntax(parser *ps, const char *expected)
{
    const token *k = &ps->tok;
    if (k->kind == T_EOF) {
        if (expected)
            return dg_scr_syntax_error(ps->src, k->pos, ps->err,
                                       "syntax error: unexpected end of expression, expected %s",
                                       expected);
        return dg_scr_syntax_error(ps->src, k->pos, ps->err,
                                   "syntax error: unexpected end of expression");
    }
    int n = (int)(k->len > 40 ? 40 : k->len);
    if (expected)
        return dg_scr_syntax_error(ps->src, k->pos, ps->err, "syntax error at \"%.*s\", expected %s",
                                   n, ps->src->text + k->pos, expected);
    return dg_scr_syntax_error(ps->src, k->pos, ps->err, "syntax error at \"%.*s\"", n,
                               ps->src->text + k->pos);
}

static int new_node(parser *ps, nodekind kind)
{
    if (ps->nnodes == ps->capnodes) {
        ps->capnodes = ps->capnodes ? ps->capnodes * 2 : 32;
        ps->nodes = xrealloc(ps->nodes, (size_t)ps->capnodes * sizeof *ps->nodes);
    }
    node *n = &ps->nodes[ps->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->first = -1;
    n->last = -1;
    n->next = -1;
    return ps->nnodes++;
}

static void add_kid(parser *ps, int parent, int kid)
{
    node *p = &ps->nodes[parent];
    p->nkids++;
    if (p->first < 0)
        p->first = kid;
    else
        ps->nodes[p->last].next = kid;
    p->last = kid;
}

static int const_int(parser *ps, int64_t v)
{
    int n = new_node(ps, N_CONST);
    ps->nodes[n].val.type = SV_INT;
    ps->nodes[n].val.u.i = v;
    return n;
}

static int call2(parser *ps, scr_opcode op, int a, int b)
{
    int n = new_node(ps, N_CALL);
    ps->nodes[n].op = op;
    add_kid(ps, n, a);
    add_kid(ps, n, b);
    return n;
}

static int call1(parser *ps, scr_opcode op, int a)
{
    int n = new_node(ps, N_CALL);
    ps->nodes[n].op = op;
    add_kid(ps, n, a);
    return n;
}

static int var_node(parser *ps, const char *name, size_t len, size_t pos)
{
    int slot = dg_scr_var_slot(ps->set, name, len);
    dg_scr_var_use(ps->set, slot, ps->src->script, pos);
    int n = new_node(ps, N_VAR);
    ps->nodes[n].slot = slot;
    return n;
}

static int parse_expr(parser *ps, int minlevel, int *out);

enum {
    L_OR = 1,
    L_AND = 2,
    L_NOT = 3,
    L_IS = 4,
    L_CMP = 5,
    L_BIT = 6,
    L_ADD = 7,
    L_MUL = 8,
};

static int binary_level(tokkind k)
{
    switch (k) {
    case T_OR: return L_OR;
    case T_AND: return L_AND;
    case T_IS: case T_ISNULL: case T_NOTNULL: return L_IS;
    case T_EQ: case T_NE: case T_LT: case T_LE: case T_GT: case T_GE: return L_CMP;
    case T_BAR: case T_AMP: case T_HASH: case T_SHL: case T_SHR: return L_BIT;
    case T_PLUS: case T_MINUS: return L_ADD;
    case T_STAR: case T_SLASH: case T_PERCENT: return L_MUL;
    default: return 0;
    }
}

static int parse_call(parser *ps, int *out)
{
    token name = ps->tok;
    const char *nm = ps->src->text + name.pos;
    int fi = -1;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        if (word_is(nm, name.len, funcs[i].name)) {
            fi = (int)i;
            break;
        }
    }
    int rc = next_token(ps);
    if (rc)
        return rc;
    if (ps->tok.kind != T_LPAREN) {
        if (fi < 0)
            return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                       "syntax error at \"%.*s\" (a variable is written :%.*s)",
                                       (int)name.len, nm, (int)name.len, nm);
        return syntax(ps, "\"(\"");
    }
    if (fi < 0)
        return dg_scr_syntax_error(ps->src, name.pos, ps->err, "unknown function \"%.*s\"",
                                   (int)name.len, nm);
    int n = new_node(ps, N_CALL);
    ps->nodes[n].op = funcs[fi].op;
    if ((rc = next_token(ps)))
        return rc;
    if (ps->tok.kind != T_RPAREN) {
        for (;;) {
            int arg;
            if ((rc = parse_expr(ps, 1, &arg)))
                return rc;
            add_kid(ps, n, arg);
            if (ps->tok.kind == T_COMMA) {
                if ((rc = next_token(ps)))
                    return rc;
                continue;
            }
            if (ps->tok.kind != T_RPAREN)
                return syntax(ps, "\",\" or \")\"");
            break;
        }
    }
    int got = ps->nodes[n].nkids, want = funcs[fi].nargs;
    const char *fname = funcs[fi].name;
    if (got > 255) /* the byte code stores the count in 8 bits */
        return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                   "%s(): too many arguments (at most 255)", fname);
    switch (want) {
    case ARGS_ONE_OR_MORE:
        if (got < 1)
            return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                       "%s() needs at least one argument", fname);
        break;
    case ARGS_HASH:
        if (got < 1 || got > 2)
            return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                       "%s() takes 1 or 2 arguments, not %d", fname, got);
        if (got == 1)
            add_kid(ps, n, var_node(ps, "default_seed", 12, name.pos));
        break;
    case ARGS_PERMUTE:
        if (got < 2 || got > 3)
            return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                       "%s() takes 2 or 3 arguments, not %d", fname, got);
        if (got == 2)
            add_kid(ps, n, var_node(ps, "default_seed", 12, name.pos));
        break;
    default:
        if (got != want)
            return dg_scr_syntax_error(ps->src, name.pos, ps->err,
                                       "%s() takes %d argument%s, not %d", fname, want,
                                       want == 1 ? "" : "s", got);
    }
    *out = n;
    return next_token(ps);
}

static int parse_case(parser *ps, int *out)
{
    int rc, n = new_node(ps, N_CASE);
    if ((rc = next_token(ps)))
        return rc;
    if (ps->tok.kind != T_WHEN)
        return syntax(ps, "WHEN");
    while (ps->tok.kind == T_WHEN) {
        int c, r;
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, 1, &c)))
            return rc;
        if (ps->tok.kind != T_THEN)
            return syntax(ps, "THEN");
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, 1, &r)))
            return rc;
        add_kid(ps, n, c);
        add_kid(ps, n, r);
    }
    int e;
    bool has_else = ps->tok.kind == T_ELSE;
    if (has_else) {
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, 1, &e)))
            return rc;
    } else {
        e = new_node(ps, N_CONST);
        ps->nodes[e].val.type = SV_NULL;
    }
    add_kid(ps, n, e);
    if (ps->tok.kind != T_END)
        return syntax(ps, has_else ? "END" : "WHEN, ELSE or END");
    *out = n;
    return next_token(ps);
}

static int parse_prefix_nested(parser *ps, int *out);

/* A primary expression, possibly behind prefix operators. Every construct that nests
 * (parentheses, prefix operators, function calls, CASE) passes through here, so this is
 * where the depth of the recursion is counted and bounded. */
static int parse_prefix(parser *ps, int *out)
{
    if (ps->nesting >= SCR_MAX_NESTING)
        return dg_scr_syntax_error(ps->src, ps->tok.pos, ps->err,
                                   "expression too deeply nested (limit %d)", SCR_MAX_NESTING);
    ps->nesting++;
    int rc = parse_prefix_nested(ps, out);
    ps->nesting--;
    return rc;
}

static int parse_prefix_nested(parser *ps, int *out)
{
    int rc, operand, n;
    token k = ps->tok;
    switch (k.kind) {
    case T_LPAREN:
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, 1, out)))
            return rc;
        if (ps->tok.kind != T_RPAREN)
            return syntax(ps, "\")\"");
        return next_token(ps);
    case T_PLUS:
        if ((rc = next_token(ps)))
            return rc;
        return parse_prefix(ps, out);
    case T_MINUS:
        if ((rc = next_token(ps)))
            return rc;
        if (ps->tok.kind == T_MAXINT1) {
            *out = const_int(ps, INT64_MIN);
            return next_token(ps);
        }
        if ((rc = parse_prefix(ps, &operand)))
            return rc;
        *out = call2(ps, OP_SUB, const_int(ps, 0), operand);
        return 0;
    case T_TILDE:
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, L_ADD, &operand)))
            return rc;
        *out = call2(ps, OP_BITXOR, const_int(ps, ~INT64_C(0)), operand);
        return 0;
    case T_NOT:
        if ((rc = next_token(ps)) || (rc = parse_expr(ps, L_IS, &operand)))
            return rc;
        *out = call1(ps, OP_NOT, operand);
        return 0;
    case T_NULL:
    case T_BOOL:
    case T_INT:
    case T_DOUBLE:
        n = new_node(ps, N_CONST);
        ps->nodes[n].val.type = k.kind == T_NULL ? SV_NULL
                                : k.kind == T_BOOL ? SV_BOOL
                                : k.kind == T_INT  ? SV_INT
                                                   : SV_DOUBLE;
        if (k.kind == T_BOOL)
            ps->nodes[n].val.u.b = k.b;
        else if (k.kind == T_INT)
            ps->nodes[n].val.u.i = k.i;
        else if (k.kind == T_DOUBLE)
            ps->nodes[n].val.u.d = k.d;
        *out = n;
        return next_token(ps);
    case T_VAR:
        *out = var_node(ps, ps->src->text + k.pos + 1, k.len - 1, k.pos);
        return next_token(ps);
    case T_IDENT:
        return parse_call(ps, out);
    case T_CASE:
        return parse_case(ps, out);
    default:
        return syntax(ps, NULL);
    }
}

static int parse_expr(parser *ps, int minlevel, int *out)
{
    int lhs, rc;
    if ((rc = parse_prefix(ps, &lhs)))
        return rc;
    bool after_cmp = false; /* comparisons do not chain */
    for (;;) {
        tokkind op = ps->tok.kind;
        int level = binary_level(op);
        if (level == 0 || level < minlevel)
            break;
        if (level == L_IS) {
            int isk = 0;
            bool negate = op == T_NOTNULL;
            if (op == T_IS) {
                if ((rc = next_token(ps)))
                    return rc;
                if (ps->tok.kind == T_NOT) {
                    negate = true;
                    if ((rc = next_token(ps)))
                        return rc;
                }
                if (ps->tok.kind == T_BOOL)
                    isk = ps->tok.b ? 1 : 2;
                else if (ps->tok.kind != T_NULL)
                    return syntax(ps, "NULL, TRUE or FALSE");
            }
            int n = call1(ps, OP_IS, lhs);
            ps->nodes[n].isk = isk;
            lhs = negate ? call1(ps, OP_NOT, n) : n;
            after_cmp = false;
            if ((rc = next_token(ps)))
                return rc;
            continue;
        }
        if (level == L_CMP && after_cmp)
            return syntax(ps, NULL);
        if ((rc = next_token(ps)))
            return rc;
        int rhs;
        if ((rc = parse_expr(ps, level + 1, &rhs)))
            return rc;
        switch (op) {
        case T_OR:
        case T_AND: {
            int n = new_node(ps, op == T_OR ? N_OR : N_AND);
            add_kid(ps, n, lhs);
            add_kid(ps, n, rhs);
            lhs = n;
            break;
        }
        case T_EQ: lhs = call2(ps, OP_EQ, lhs, rhs); break;
        case T_NE: lhs = call2(ps, OP_NE, lhs, rhs); break;
        case T_LT: lhs = call2(ps, OP_LT, lhs, rhs); break;
        case T_LE: lhs = call2(ps, OP_LE, lhs, rhs); break;
        case T_GT: lhs = call2(ps, OP_LT, rhs, lhs); break;
        case T_GE: lhs = call2(ps, OP_LE, rhs, lhs); break;
        case T_BAR: lhs = call2(ps, OP_BITOR, lhs, rhs); break;
        case T_AMP: lhs = call2(ps, OP_BITAND, lhs, rhs); break;
        case T_HASH: lhs = call2(ps, OP_BITXOR, lhs, rhs); break;
        case T_SHL: lhs = call2(ps, OP_SHL, lhs, rhs); break;
        case T_SHR: lhs = call2(ps, OP_SHR, lhs, rhs); break;
        case T_PLUS: lhs = call2(ps, OP_ADD, lhs, rhs); break;
        case T_MINUS: lhs = call2(ps, OP_SUB, lhs, rhs); break;
        case T_STAR: lhs = call2(ps, OP_MUL, lhs, rhs); break;
        case T_SLASH: lhs = call2(ps, OP_DIV, lhs, rhs); break;
        case T_PERCENT: lhs = call2(ps, OP_MOD, lhs, rhs); break;
        default: break;
        }
        after_cmp = level == L_CMP;
    }
    *out = lhs;
    return 0;
}

/* ---- compiler ----------------------------------------------------------------------- */

static int emit(parser *ps, scr_opcode op, int delta)
{
    if (ps->ncode == ps->capcode) {
        ps->capcode = ps->capcode ? ps->capcode * 2 : 16;
        ps->code = xrealloc(ps->code, (size_t)ps->capcode * sizeof *ps->code);
    }
    scr_op *o = &ps->code[ps->ncode];
    memset(o, 0, sizeof *o);
    o->op = (uint8_t)op;
    ps->depth += delta;
    if (ps->depth > ps->maxdepth)
        ps->maxdepth = ps->depth;
    return ps->ncode++;
}

/* A node being compiled: the explicit stack of compile(). */
typedef struct cframe {
    int node;
    int state; /* what to do next; see compile() */
    int kid;   /* N_CALL: next child to compile; N_CASE: current WHEN condition or ELSE */
    int jump;  /* N_AND / N_OR: the AND1 / OR1 op; N_CASE: its JFALSE op */
    int ends;  /* N_CASE: the JMP ops to the end, chained through their targets, -1 ends */
} cframe;

/* Emits the byte code of node root. The tree can be as deep as the expression is long (a
 * flat chain of N binary operators is a left-deep tree of depth N), so the walk keeps its
 * own stack of frames instead of recursing. */
static void compile(parser *ps, int root)
{
    cframe *fs = NULL;
    int nfs = 0, capfs = 0;
    int push = root; /* node to start next, -1 when resuming the frame on top */

    for (;;) {
        if (push >= 0) {
            const node *n = &ps->nodes[push];
            int at;
            if (n->kind == N_CONST) {
                at = emit(ps, OP_CONST, 1);
                ps->code[at].n = (uint8_t)n->val.type;
                if (n->val.type == SV_INT)
                    ps->code[at].k.i = n->val.u.i;
                else if (n->val.type == SV_DOUBLE)
                    ps->code[at].k.d = n->val.u.d;
                else if (n->val.type == SV_BOOL)
                    ps->code[at].k.b = n->val.u.b;
                push = -1;
            } else if (n->kind == N_VAR) {
                at = emit(ps, OP_VAR, 1);
                ps->code[at].a = n->slot;
                push = -1;
            } else {
                if (nfs == capfs) {
                    capfs = capfs ? capfs * 2 : 32;
                    fs = xrealloc(fs, (size_t)capfs * sizeof *fs);
                }
                fs[nfs++] = (cframe){.node = push, .state = 0, .kid = n->first, .jump = -1,
                                     .ends = -1};
                push = -1;
            }
        }
        if (nfs == 0)
            break;
        cframe *f = &fs[nfs - 1];
        const node *n = &ps->nodes[f->node];
        switch (n->kind) {
        case N_CALL: /* the arguments in order, then the op */
            if (f->kid >= 0) {
                push = f->kid;
                f->kid = ps->nodes[f->kid].next;
                continue;
            }
            {
                int at = emit(ps, n->op, 1 - n->nkids);
                ps->code[at].n = (uint8_t)(n->op == OP_IS ? n->isk : n->nkids);
            }
            nfs--;
            break;
        case N_AND:
        case N_OR: /* left, AND1/OR1 (jumps past the right on a decided value), right, AND2/OR2 */
            if (f->state == 0) {
                f->state = 1;
                push = n->first;
            } else if (f->state == 1) {
                f->state = 2;
                f->jump = emit(ps, n->kind == N_AND ? OP_AND1 : OP_OR1, -1);
                push = ps->nodes[n->first].next;
            } else {
                emit(ps, n->kind == N_AND ? OP_AND2 : OP_OR2, 0);
                ps->code[f->jump].a = ps->ncode;
                nfs--;
            }
            break;
        case N_CASE: /* per WHEN: cond, JFALSE next, result, JMP end; then ELSE */
            if (f->state == 0) {
                if (ps->nodes[f->kid].next >= 0) {
                    f->state = 1;
                    push = f->kid; /* a condition */
                } else {
                    f->state = 3;
                    push = f->kid; /* the ELSE */
                }
            } else if (f->state == 1) {
                f->state = 2;
                f->jump = emit(ps, OP_JFALSE, -1);
                push = ps->nodes[f->kid].next; /* its result */
            } else if (f->state == 2) {
                int j = emit(ps, OP_JMP, 0);
                ps->code[j].a = f->ends;
                f->ends = j;
                ps->depth -= 1; /* the value left by this branch is counted once, by ELSE */
                ps->code[f->jump].a = ps->ncode;
                f->kid = ps->nodes[ps->nodes[f->kid].next].next;
                f->state = 0;
            } else {
                for (int j = f->ends; j >= 0;) {
                    int up = ps->code[j].a;
                    ps->code[j].a = ps->ncode;
                    j = up;
                }
                nfs--;
            }
            break;
        default:
            nfs--;
            break;
        }
    }
    free(fs);
}

int dg_scr_expr_compile(dg_script_set *set, const scr_src *src, size_t pos, size_t end,
                        scr_expr *out, dg_err *err)
{
    parser ps = {.set = set, .src = src, .end = end, .pos = pos, .err = err};
    int root, rc = next_token(&ps);
    if (rc)
        goto done;
    if (ps.tok.kind == T_EOF) {
        rc = dg_scr_syntax_error(src, ps.tok.pos, err, "missing expression");
        goto done;
    }
    if ((rc = parse_expr(&ps, 1, &root)))
        goto done;
    if (ps.tok.kind != T_EOF) {
        rc = syntax(&ps, NULL);
        goto done;
    }
    compile(&ps, root);
    out->code = ps.code;
    out->ncode = ps.ncode;
    out->maxstack = ps.maxdepth;
    /* the same conditions as the evaluator's integer path for OP_RANDOM */
    const scr_op *c = out->code;
    out->uniform_k = out->ncode == 3 && c[0].op == OP_CONST && c[0].n == SV_INT &&
                     c[1].op == OP_CONST && c[1].n == SV_INT && c[2].op == OP_RANDOM &&
                     c[0].k.i <= c[1].k.i &&
                     c[1].k.i - (uint64_t)c[0].k.i < (uint64_t)INT64_MAX;
    if (out->uniform_k) {
        out->lo = c[0].k.i;
        out->hi = c[1].k.i;
    }
    ps.code = NULL;
done:
    free(ps.nodes);
    free(ps.code);
    return rc;
}

void dg_scr_expr_free(scr_expr *e)
{
    if (!e)
        return;
    free(e->code);
    e->code = NULL;
    e->ncode = 0;
    e->uniform_k = false;
}
