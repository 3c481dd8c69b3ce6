/*
 * script_int.h - internal data structures of the script engine, shared by its files.
 *
 * Files of the engine and what each owns:
 *   set.c     the dg_script_set API, the variable table, -D definitions, finish checks
 *   parse.c   the script scanner: splits a script into SQL and meta-commands, checks
 *             \if structure, formats FILE:LINE:COL errors with a caret line
 *   sql.c     scanning of one SQL command: quotes, comments, :name -> '?', transaction
 *             control statements and write detection
 *   expr.c    the \set expression language: lexer, parser (to a small tree) and the
 *             compiler from tree to byte code
 *   eval.c    the byte-code evaluator (no allocation) and value coercions
 *   vm.c      the per-terminal VM: prepared statements, variables, dg_script_vm_run
 *
 * Everything here is private to src/workload/script/. Cross-file functions carry the
 * dg_scr_ prefix; static helpers have none.
 */
#ifndef DG_WORKLOAD_SCRIPT_SCRIPT_INT_H
#define DG_WORKLOAD_SCRIPT_SCRIPT_INT_H

#include "backend/backend.h"
#include "core/err.h"
#include "core/prng.h"
#include "core/strbuf.h"
#include "workload/script/script.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- limits -------------------------------------------------------------------------- */

/* Levels of nesting (parentheses, prefix operators, function calls, CASE) one expression
 * may have: the parser recurses once per level, and this keeps it far from the end of
 * the C stack, sanitizers included. Real scripts nest a handful of levels. Deeper
 * expressions are refused with "expression too deeply nested (limit N)". Documented in
 * docs/workloads.md. */
#define SCR_MAX_NESTING 1000

/* ---- values of the expression language ------------------------------------------- */

typedef enum scr_vtype {
    SV_NULL = 0,
    SV_INT,
    SV_DOUBLE,
    SV_BOOL,
} scr_vtype;

typedef struct scr_value {
    scr_vtype type;
    union {
        int64_t i;
        double d;
        bool b;
    } u;
} scr_value;

/* ---- compiled expressions ------------------------------------------------------------ */

/* Byte-code operations of the stack machine. Binary operators pop two values (left
 * pushed first) and push one; functions pop their arguments likewise. */
typedef enum scr_opcode {
    OP_CONST,      /* push k (type in n) */
    OP_VAR,        /* push variable slot a */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_EQ, OP_NE, OP_LT, OP_LE,
    OP_BITAND, OP_BITOR, OP_BITXOR, OP_SHL, OP_SHR,
    OP_NOT,
    OP_IS,         /* n: 0 = IS NULL, 1 = IS TRUE, 2 = IS FALSE */
    OP_ABS, OP_INT, OP_DOUBLE, OP_SQRT, OP_LN, OP_EXP, OP_PI, OP_POW,
    OP_LEAST, OP_GREATEST, /* n arguments */
    OP_RANDOM, OP_RANDOM_EXP, OP_RANDOM_GAUSS, OP_RANDOM_ZIPF,
    OP_HASH_MURMUR2, OP_HASH_FNV1A, OP_PERMUTE,
    OP_DEBUG,
    OP_AND1,       /* top = left operand: NULL or false -> result, jump to a */
    OP_AND2,       /* top = right operand: coerce to boolean */
    OP_OR1,        /* top = left operand: NULL or true -> result, jump to a */
    OP_OR2,
    OP_JFALSE,     /* pop; jump to a unless the value is true (CASE WHEN) */
    OP_JMP,        /* jump to a */
    OP_COUNT
} scr_opcode;

typedef struct scr_op {
    uint8_t op;  /* scr_opcode */
    uint8_t n;   /* argument count, IS kind, or constant type */
    int32_t a;   /* variable slot or jump target */
    union {
        int64_t i;
        double d;
        bool b;
    } k;         /* constant */
} scr_op;

typedef struct scr_expr {
    scr_op *code;
    int ncode;
    int maxstack; /* values on the stack at most while evaluating */
    /* random(LO, HI) with integer constants, the usual \set (pgbench's scripts and
     * ours): evaluated as one call to the generator, without the stack machine */
    bool uniform_k;
    int64_t lo, hi;
} scr_expr;

/* ---- commands ------------------------------------------------------------------------ */

typedef enum scr_cmdkind {
    CMD_SQL,
    CMD_BEGIN,    /* BEGIN / START TRANSACTION: dg_begin with txopts */
    CMD_COMMIT,   /* COMMIT / END */
    CMD_ROLLBACK, /* ROLLBACK / ABORT */
    CMD_SET,
    CMD_SLEEP,
    CMD_IF,
    CMD_ELIF,
    CMD_ELSE,
    CMD_ENDIF,
} scr_cmdkind;

typedef enum scr_fetchmode {
    FETCH_DISCARD = 0,
    FETCH_GSET, /* exactly one row; columns become variables */
    FETCH_ASET, /* every row; the last row's columns win; no rows: no change */
} scr_fetchmode;

typedef struct scr_cmd {
    scr_cmdkind kind;
    int line;      /* 1-based line of the command's first character */
    size_t offset; /* byte offset of the command in the script text */

    /* CMD_SQL */
    char *sql;        /* text with '?' placeholders, owned */
    int *params;      /* variable slot of each '?', in order, owned */
    int nparams;
    int sql_index;    /* index into the set's list of SQL commands (VM statement array) */
    scr_fetchmode fetch;
    char *prefix;     /* \gset / \aset prefix ("" if none), owned */
    bool writes;      /* contains INSERT/UPDATE/DELETE/REPLACE/MERGE */

    /* CMD_BEGIN */
    dg_txopts tx;
    bool tx_write_explicit; /* SQLite's BEGIN IMMEDIATE / EXCLUSIVE */

    /* CMD_SET (slot, expr), CMD_IF / CMD_ELIF (expr) */
    int slot;
    scr_expr expr;

    /* CMD_SLEEP: either a constant or a variable, times unit_us */
    int64_t sleep_value;
    int sleep_slot; /* -1 = constant */
    int64_t sleep_unit_us;

    /* CMD_IF / CMD_ELIF: index of the next \elif, \else or \endif of the chain;
     * CMD_IF / CMD_ELIF / CMD_ELSE: index of the chain's \endif */
    int next;
    int endif;
} scr_cmd;

typedef struct scr_script {
    char *path;    /* name given to dg_script_set_add (shown in messages) */
    char *txname;  /* transaction name: basename without extension, made unique */
    double weight;
    char *text;    /* the script text, NUL-terminated copy */
    size_t len;
    scr_cmd *cmds;
    int ncmds;
    bool readonly; /* \readonly: it only reads (--db-read sends it to a replica) */
} scr_script;

/* ---- variables ----------------------------------------------------------------------- */

/* How a -D value or a built-in is typed. */
typedef enum scr_deftype {
    DEF_INT,
    DEF_DOUBLE,
    DEF_STRING,
} scr_deftype;

typedef struct scr_var {
    char *name;
    bool assigned; /* by \set, -D, or a built-in */
    bool used;     /* read by an expression, a SQL command or \sleep */
    int use_script; /* first use (for the "never set" error) */
    size_t use_offset;
    bool defined;  /* -D value present */
    scr_deftype def_type;
    int64_t def_i;
    double def_d;
    char *def_s;   /* owned */
} scr_var;

enum {
    SCR_BUILTIN_SCALE = 0,
    SCR_BUILTIN_CLIENT_ID,
    SCR_BUILTIN_RANDOM_SEED,
    SCR_BUILTIN_DEFAULT_SEED,
    SCR_NBUILTINS,
};

struct dg_script_set {
    scr_script *scripts;
    int nscripts;
    scr_var *vars; /* slots 0..SCR_NBUILTINS-1 are the built-ins */
    int nvars;
    int capvars;
    /* hash index of vars by name: open addressing, slot + 1 per entry, 0 = empty; capidx
     * is a power of two at least twice nvars */
    int *varidx;
    int capidx;
    int nsql;      /* SQL commands over all scripts (statements a VM prepares) */
    int maxstack;  /* deepest expression stack over all scripts */
    int maxparams; /* most '?' in one SQL command */
    bool finished;
};

/* ---- cross-file functions ------------------------------------------------------------ */

/* Source being parsed: for locating errors. */
typedef struct scr_src {
    const char *name;
    const char *text;
    size_t len;
    int script; /* index of the script in the set */
} scr_src;

/* Formats "NAME:LINE:COL: error: MSG" + the line + a caret under COL into err (class
 * USER) and returns DG_E_PARSE. */
int dg_scr_syntax_error(const scr_src *src, size_t offset, dg_err *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* 1-based line of a byte offset. */
int dg_scr_line_of(const char *text, size_t offset);

/* True if name[0..len) is a valid variable name: letters, digits, '_' and non-ASCII
 * bytes, not starting with a digit. */
bool dg_scr_valid_varname(const char *name, size_t len);
/* True if c can be part of a variable name. */
static inline bool dg_scr_varchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c >= 0x80;
}

/* Finds or creates the slot of a variable. */
int dg_scr_var_slot(dg_script_set *set, const char *name, size_t len);
/* Finds a slot by name; -1 if none. */
int dg_scr_var_find(const dg_script_set *set, const char *name, size_t len);
/* Records a read of slot at (script, offset) / an assignment. */
void dg_scr_var_use(dg_script_set *set, int slot, int script, size_t offset);
void dg_scr_var_assign(dg_script_set *set, int slot);

/* Parses a script into *sc (commands appended). Returns 0 or DG_E_PARSE. */
int dg_scr_parse(dg_script_set *set, const scr_src *src, scr_script *sc, dg_err *err);

/* Result of scanning one SQL command. */
typedef struct scr_sqlscan {
    size_t start;   /* offset of the first token; == end when there is none */
    size_t end;     /* offset just after the command (after ';' if any) */
    int stop;       /* 0 = end of text, ';' = semicolon, '\\' = backslash at end */
    bool empty;     /* only whitespace and comments */
} scr_sqlscan;

/* Scans SQL at src->text[pos]; fills *cmd (kind, sql, params, writes, tx) unless the
 * command is empty. Returns 0 or DG_E_PARSE. */
int dg_scr_sql_scan(dg_script_set *set, const scr_src *src, size_t pos, scr_cmd *cmd,
                    scr_sqlscan *out, dg_err *err);

/* Parses an expression in src->text[pos..end) and compiles it into *out. Returns 0 or
 * DG_E_PARSE. */
int dg_scr_expr_compile(dg_script_set *set, const scr_src *src, size_t pos, size_t end,
                        scr_expr *out, dg_err *err);
void dg_scr_expr_free(scr_expr *e);

/* ---- evaluation ---------------------------------------------------------------------- */

/* A variable's value in a VM. Strings (from \gset text columns and -D) keep their text
 * for binding and are converted on first use in an expression (pgbench's rules). */
typedef enum scr_vkind {
    VK_UNSET = 0,
    VK_NULL,
    VK_INT,
    VK_DOUBLE,
    VK_BOOL,
    VK_STRING,
} scr_vkind;

typedef struct scr_vmvar {
    scr_vkind kind;
    int64_t i;
    double d;
    bool b;
    char *s;       /* VK_STRING: NUL-terminated; buffer only grows */
    size_t slen;
    size_t scap;
    bool sparsed;  /* sval holds the string's converted value */
    scr_value sval;
} scr_vmvar;


/* Everything the evaluator needs. */
typedef struct scr_evalctx {
    const dg_script_set *set;
    scr_vmvar *vars;
    scr_value *stack; /* set->maxstack entries */
    dg_prng *rng;
    int script;       /* for debug() */
    int command;      /* 1-based, for debug() */
    dg_script_debug_fn debug;
    void *debug_arg;
} scr_evalctx;

/* Evaluates e. Returns 0, or DG_E_INVAL with the message (no prefix) in err->msg. */
int dg_scr_eval(scr_evalctx *cx, const scr_expr *e, scr_value *out, dg_err *err);
/* The value of a variable for an expression (converting a string). 0 or DG_E_INVAL. */
int dg_scr_var_value(const dg_script_set *set, scr_vmvar *v, int slot, scr_value *out,
                     dg_err *err);
/* pgbench's truth of a condition: NULL false, numbers non-zero. */
bool dg_scr_truth(const scr_value *v);
/* Formats a value as debug() does ("int 5", "double 1.5", "boolean true", "null"). */
void dg_scr_value_describe(const scr_value *v, char *buf, size_t len);

#endif
