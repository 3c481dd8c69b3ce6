/*
 * vm.c - running scripts on one terminal's connection.
 *
 * Layout: the VM struct and its variables; creation (every SQL command prepared once);
 * SQL execution with parameter binding and \gset / \aset; the command loop of
 * dg_script_vm_run(); small public helpers.
 *
 * Steady state: after the first run of every command nothing is allocated. Variables
 * and staged \gset values keep string buffers that only grow; the \gset column-to-slot
 * map of a statement is made at its first execution. Values read by \gset / \aset are
 * staged while rows are fetched and stored into the variables only after the statement
 * is finished, so a variable bound as a parameter of that same statement never changes
 * under the database's feet, and a \gset that fails changes nothing.
 */
#include "workload/script/script.h"

#include "core/clock.h"
#include "core/xalloc.h"
#include "workload/script/script_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vstmt {
    dg_stmt *stmt;
    int ncols;       /* columns mapped in colslot; -1 = not mapped yet */
    int *colslot;    /* variable slot of each column; -1 = no variable is read by that name */
    int capcols;
    scr_vmvar *stage; /* values of the last row read, per column */
} vstmt;

struct dg_script_vm {
    const dg_script_set *set;
    dg_conn *conn;
    dg_prng *rng;
    scr_vmvar *vars;  /* one per slot of the set */
    scr_value *stack; /* expression stack */
    dg_value *params;
    vstmt *stmts;     /* one per SQL command of the set (sql_index) */
    char *namebuf;    /* prefix + column name while mapping columns */
    size_t namecap;
    int open_cmd;     /* command (1-based) whose BEGIN opened the current transaction */
    dg_script_debug_fn debug;
    void *debug_arg;
};

/* ---- variables ----------------------------------------------------------------------- */

/* Makes room for n bytes + NUL in v's string buffer. */
static int reserve(scr_vmvar *v, size_t n, dg_err *err)
{
    if (n + 1 <= v->scap)
        return 0;
    size_t cap = v->scap ? v->scap : 32;
    while (cap < n + 1)
        cap *= 2;
    char *s = xrealloc(v->s, cap);
    v->s = s;
    v->scap = cap;
    return 0;
}

static int set_string(scr_vmvar *v, const char *s, size_t n, dg_err *err)
{
    int rc = reserve(v, n, err);
    if (rc)
        return rc;
    memcpy(v->s, s, n);
    v->s[n] = '\0';
    v->slen = n;
    v->kind = VK_STRING;
    v->sparsed = false;
    return 0;
}

static void set_value(scr_vmvar *v, const scr_value *x)
{
    switch (x->type) {
    case SV_NULL: v->kind = VK_NULL; break;
    case SV_INT: v->kind = VK_INT; v->i = x->u.i; break;
    case SV_DOUBLE: v->kind = VK_DOUBLE; v->d = x->u.d; break;
    case SV_BOOL: v->kind = VK_BOOL; v->b = x->u.b; break;
    }
}

static void default_debug(void *arg, int script, int command, const char *text)
{
    (void)arg;
    fprintf(stderr, "debug(script=%d,command=%d): %s\n", script, command, text);
}

/* ---- creation ------------------------------------------------------------------------ */

void dg_script_vm_free(dg_script_vm *vm)
{
    if (!vm)
        return;
    if (vm->stmts) {
        for (int i = 0; i < vm->set->nsql; i++) {
            vstmt *vs = &vm->stmts[i];
            dg_stmt_free(vs->stmt);
            if (vs->stage) {
                for (int c = 0; c < vs->capcols; c++)
                    free(vs->stage[c].s);
                free(vs->stage);
            }
            free(vs->colslot);
        }
        free(vm->stmts);
    }
    if (vm->vars) {
        for (int i = 0; i < vm->set->nvars; i++)
            free(vm->vars[i].s);
        free(vm->vars);
    }
    free(vm->stack);
    free(vm->params);
    free(vm->namebuf);
    free(vm);
}

/* True if some command talks to the database: SQL, or transaction control (which the
 * VM runs through dg_begin / dg_commit / dg_rollback, not as a statement). */
static bool needs_conn(const dg_script_set *set)
{
    if (set->nsql > 0)
        return true;
    for (int s = 0; s < set->nscripts; s++)
        for (int c = 0; c < set->scripts[s].ncmds; c++) {
            scr_cmdkind k = set->scripts[s].cmds[c].kind;
            if (k == CMD_BEGIN || k == CMD_COMMIT || k == CMD_ROLLBACK)
                return true;
        }
    return false;
}

int dg_script_vm_new(const dg_script_set *set, dg_conn *conn, dg_prng *rng, int64_t scale,
                     int client_id, uint64_t seed, dg_script_vm **out, dg_err *err)
{
    int rc = 0;
    if (!set->finished)
        return dg_err_set(err, DG_E_INVAL, DG_EC_FATAL, 0, NULL,
                          "script set used before dg_script_set_finish()");
    if (!conn && needs_conn(set))
        return dg_err_set(err, DG_E_INVAL, DG_EC_FATAL, 0, NULL,
                          "scripts with SQL commands need a connection");
    dg_script_vm *vm = calloc(1, sizeof *vm);
    if (!vm)
        return dg_err_set(err, DG_E_NOMEM, DG_EC_FATAL, 0, NULL, "out of memory");
    vm->set = set;
    vm->conn = conn;
    vm->rng = rng;
    vm->debug = default_debug;
    vm->vars = calloc((size_t)set->nvars, sizeof *vm->vars);
    vm->stack = calloc((size_t)(set->maxstack > 0 ? set->maxstack : 1), sizeof *vm->stack);
    vm->params = calloc((size_t)(set->maxparams > 0 ? set->maxparams : 1), sizeof *vm->params);
    vm->stmts = calloc((size_t)(set->nsql > 0 ? set->nsql : 1), sizeof *vm->stmts);
    if (!vm->vars || !vm->stack || !vm->params || !vm->stmts) {
        rc = dg_err_set(err, DG_E_NOMEM, DG_EC_FATAL, 0, NULL, "out of memory");
        goto fail;
    }
    for (int i = 0; i < set->nsql; i++)
        vm->stmts[i].ncols = -1;

    /* built-ins, unless -D gave them a value */
    const int64_t builtin[SCR_NBUILTINS] = {scale, client_id, (int64_t)seed, (int64_t)seed};
    for (int i = 0; i < set->nvars; i++) {
        const scr_var *v = &set->vars[i];
        scr_vmvar *x = &vm->vars[i];
        if (v->defined) {
            if (v->def_type == DEF_INT) {
                x->kind = VK_INT;
                x->i = v->def_i;
            } else if (v->def_type == DEF_DOUBLE) {
                x->kind = VK_DOUBLE;
                x->d = v->def_d;
            } else if ((rc = set_string(x, v->def_s, strlen(v->def_s), err))) {
                goto fail;
            }
        } else if (i < SCR_NBUILTINS) {
            x->kind = VK_INT;
            x->i = builtin[i];
        }
    }

    for (int s = 0; s < set->nscripts; s++) {
        const scr_script *sc = &set->scripts[s];
        for (int c = 0; c < sc->ncmds; c++) {
            const scr_cmd *cmd = &sc->cmds[c];
            if (cmd->kind != CMD_SQL)
                continue;
            if ((rc = dg_prepare(conn, cmd->sql, &vm->stmts[cmd->sql_index].stmt, err))) {
                dg_err_prefix(err, "%s command %d", sc->path, c + 1);
                goto fail;
            }
        }
    }
    *out = vm;
    return 0;
fail:
    dg_script_vm_free(vm);
    return rc;
}

void dg_script_vm_set_debug(dg_script_vm *vm, dg_script_debug_fn fn, void *arg)
{
    vm->debug = fn;
    vm->debug_arg = arg;
}

/* ---- SQL ----------------------------------------------------------------------------- */

static int cmd_fail(dg_err *err, const scr_script *sc, int n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int cmd_fail(dg_err *err, const scr_script *sc, int n, const char *fmt, ...)
{
    char msg[DG_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "%s command %d: %s", sc->path, n, msg);
}

/* Maps the columns of a \gset / \aset statement to variable slots. */
static int map_columns(dg_script_vm *vm, const scr_cmd *cmd, vstmt *vs, const scr_script *sc,
                       int n, dg_err *err)
{
    int ncols = dg_ncols(vs->stmt);
    if (ncols > vs->capcols) {
        int *cs = xrealloc(vs->colslot, (size_t)ncols * sizeof *cs);
        vs->colslot = cs;
        scr_vmvar *st = xrealloc(vs->stage, (size_t)ncols * sizeof *st);
        memset(st + vs->capcols, 0, (size_t)(ncols - vs->capcols) * sizeof *st);
        vs->stage = st;
        vs->capcols = ncols;
    }
    size_t plen = strlen(cmd->prefix);
    for (int c = 0; c < ncols; c++) {
        const char *col = dg_colname(vs->stmt, c);
        if (!col)
            col = "";
        size_t clen = strlen(col);
        if (plen + clen + 1 > vm->namecap) {
            size_t cap = (plen + clen + 1) * 2;
            char *b = xrealloc(vm->namebuf, cap);
            vm->namebuf = b;
            vm->namecap = cap;
        }
        memcpy(vm->namebuf, cmd->prefix, plen);
        memcpy(vm->namebuf + plen, col, clen + 1);
        if (!dg_scr_valid_varname(vm->namebuf, plen + clen))
            return cmd_fail(err, sc, n, "%s: column \"%s\" does not make a valid variable name",
                            cmd->fetch == FETCH_GSET ? "\\gset" : "\\aset", vm->namebuf);
        vs->colslot[c] = dg_scr_var_find(vm->set, vm->namebuf, plen + clen);
    }
    vs->ncols = ncols;
    return 0;
}

/* Copies the current row's columns that feed variables into the stage. */
static int stage_row(vstmt *vs, dg_err *err)
{
    for (int c = 0; c < vs->ncols; c++) {
        if (vs->colslot[c] < 0)
            continue;
        scr_vmvar *x = &vs->stage[c];
        dg_value v;
        dg_column(vs->stmt, c, &v);
        int rc = 0;
        switch (v.type) {
        case DG_V_NULL: x->kind = VK_NULL; break;
        case DG_V_INT: x->kind = VK_INT; x->i = v.u.i; break;
        case DG_V_DOUBLE: x->kind = VK_DOUBLE; x->d = v.u.d; break;
        case DG_V_TEXT: rc = set_string(x, v.u.s.ptr, v.u.s.len, err); break;
        case DG_V_NUMERIC:
            if (v.u.n.scale == 0) {
                x->kind = VK_INT;
                x->i = v.u.n.unscaled;
            } else {
                char buf[48];
                dg_value_format(&v, buf, sizeof buf);
                rc = set_string(x, buf, strlen(buf), err);
            }
            break;
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Moves the staged values into the variables (string buffers are swapped, not copied). */
static void commit_stage(dg_script_vm *vm, vstmt *vs)
{
    for (int c = 0; c < vs->ncols; c++) {
        int slot = vs->colslot[c];
        if (slot < 0)
            continue;
        scr_vmvar *x = &vs->stage[c], *v = &vm->vars[slot];
        if (x->kind == VK_STRING) {
            char *s = v->s;
            size_t cap = v->scap;
            v->s = x->s;
            v->scap = x->scap;
            v->slen = x->slen;
            x->s = s;
            x->scap = cap;
            v->sparsed = false;
        } else {
            v->i = x->i;
            v->d = x->d;
        }
        v->kind = x->kind;
    }
}

static int bind(dg_script_vm *vm, const scr_cmd *cmd, const scr_script *sc, int n, dg_err *err)
{
    for (int i = 0; i < cmd->nparams; i++) {
        int slot = cmd->params[i];
        const scr_vmvar *v = &vm->vars[slot];
        dg_value *p = &vm->params[i];
        switch (v->kind) {
        case VK_UNSET:
            return cmd_fail(err, sc, n, "undefined variable \"%s\"", vm->set->vars[slot].name);
        /* field by field: a whole dg_value built and copied costs twice the stores */
        case VK_NULL: p->type = DG_V_NULL; break;
        case VK_INT: p->type = DG_V_INT; p->u.i = v->i; break;
        case VK_DOUBLE: p->type = DG_V_DOUBLE; p->u.d = v->d; break;
        case VK_BOOL: p->type = DG_V_INT; p->u.i = v->b ? 1 : 0; break;
        case VK_STRING:
            p->type = DG_V_TEXT;
            p->u.s.ptr = v->s;
            p->u.s.len = v->slen;
            break;
        }
    }
    return 0;
}

static int run_sql(dg_script_vm *vm, const scr_script *sc, const scr_cmd *cmd, int n, dg_err *err)
{
    vstmt *vs = &vm->stmts[cmd->sql_index];
    int rc = bind(vm, cmd, sc, n, err);
    if (rc)
        return rc;
    if ((rc = dg_execute(vs->stmt, vm->params, cmd->nparams, err)))
        goto db_error;
    if (cmd->fetch == FETCH_DISCARD) { /* rows read by no one: one call for them all */
        if ((rc = dg_discard(vs->stmt, err)))
            goto db_error;
        dg_stmt_reset(vs->stmt);
        return 0;
    }
    int64_t rows = 0;
    for (;;) {
        int r = dg_fetch(vs->stmt, err);
        if (r < 0) {
            rc = r;
            goto db_error;
        }
        if (r == 0)
            break;
        rows++;
        if (cmd->fetch == FETCH_GSET && rows > 1)
            continue;
        if (vs->ncols < 0 && (rc = map_columns(vm, cmd, vs, sc, n, err)))
            goto fail;
        if ((rc = stage_row(vs, err)))
            goto fail;
    }
    dg_stmt_reset(vs->stmt);
    if (cmd->fetch == FETCH_GSET && rows != 1)
        return cmd_fail(err, sc, n, "\\gset expects one row, got %" PRId64, rows);
    if (rows > 0)
        commit_stage(vm, vs);
    return 0;
db_error:
    dg_err_prefix(err, "%s command %d", sc->path, n);
fail:
    dg_stmt_reset(vs->stmt);
    return rc;
}

static int run_tx(dg_script_vm *vm, const scr_script *sc, const scr_cmd *cmd, int n, dg_err *err)
{
    int rc = 0;
    dg_conn *c = vm->conn;
    switch (cmd->kind) {
    case CMD_BEGIN:
        if (c->in_tx)
            return cmd_fail(err, sc, n, "BEGIN inside a transaction begun by command %d",
                            vm->open_cmd);
        rc = dg_begin(c, &cmd->tx, err);
        vm->open_cmd = n;
        break;
    case CMD_COMMIT:
        /* as on PostgreSQL, ending no transaction is harmless */
        if (c->in_tx)
            rc = dg_commit(c, err);
        break;
    case CMD_ROLLBACK:
        if (c->in_tx)
            rc = dg_rollback(c, err);
        break;
    default:
        break;
    }
    if (rc)
        dg_err_prefix(err, "%s command %d", sc->path, n);
    return rc;
}

/* ---- the command loop ---------------------------------------------------------------- */

/* A constant time was checked when the script was parsed (0 to 2^31 - 1); a variable's
 * value is checked here, and a negative or non-finite one stops the terminal with the
 * script, the line and the value: sleeping not at all would measure a different script. */
static int sleep_cmd(dg_script_vm *vm, const scr_script *sc, const scr_cmd *cmd, int n, dg_err *err)
{
    int64_t v = cmd->sleep_value;
    if (cmd->sleep_slot >= 0) {
        const scr_vmvar *x = &vm->vars[cmd->sleep_slot];
        const char *name = vm->set->vars[cmd->sleep_slot].name;
        if (x->kind == VK_INT) {
            v = x->i;
        } else if (x->kind == VK_DOUBLE && isfinite(x->d)) {
            v = x->d < 0 ? -1 : x->d < 9e15 ? (int64_t)x->d : INT64_MAX;
        } else if (x->kind == VK_DOUBLE) {
            return cmd_fail(err, sc, n,
                            "\\sleep at line %d: variable \"%s\" holds %g, not a time (must be "
                            "a finite number, 0 or more)",
                            cmd->line, name, x->d);
        } else if (x->kind == VK_STRING) {
            char *end;
            long long ll = strtoll(x->s, &end, 10);
            if (end == x->s)
                return cmd_fail(err, sc, n,
                                "\\sleep at line %d: invalid time \"%s\" in variable \"%s\"",
                                cmd->line, x->s, name);
            v = ll;
        } else if (x->kind == VK_UNSET) {
            return cmd_fail(err, sc, n, "\\sleep: undefined variable \"%s\"", name);
        } else {
            return cmd_fail(err, sc, n, "\\sleep: variable \"%s\" is not a number", name);
        }
        if (v < 0) {
            char shown[64];
            if (x->kind == VK_DOUBLE)
                snprintf(shown, sizeof shown, "%g", x->d);
            else
                snprintf(shown, sizeof shown, "%" PRId64, v);
            return cmd_fail(err, sc, n,
                            "\\sleep at line %d: variable \"%s\" holds %s, a negative time "
                            "(must be 0 or more)",
                            cmd->line, name, shown);
        }
    }
    if (v == 0)
        return 0;
    int64_t us;
    if (__builtin_mul_overflow(v, cmd->sleep_unit_us, &us) || us > INT64_MAX / 1000)
        us = INT64_MAX / 1000;
    dg_sleep_ns(us * 1000);
    return 0;
}

static int eval_cmd(dg_script_vm *vm, int script, const scr_script *sc, const scr_cmd *cmd, int n,
                    scr_value *out, dg_err *err)
{
    scr_evalctx cx = {
        .set = vm->set,
        .vars = vm->vars,
        .stack = vm->stack,
        .rng = vm->rng,
        .script = script,
        .command = n,
        .debug = vm->debug,
        .debug_arg = vm->debug_arg,
    };
    int rc = dg_scr_eval(&cx, &cmd->expr, out, err);
    if (rc)
        dg_err_prefix(err, "%s command %d", sc->path, n);
    return rc;
}

int dg_script_vm_run(dg_script_vm *vm, int script, dg_err *err)
{
    const scr_script *sc = &vm->set->scripts[script];
    int pc = 0, rc = 0;
    scr_value v;

    while (pc < sc->ncmds) {
        const scr_cmd *cmd = &sc->cmds[pc];
        int n = pc + 1;
        switch (cmd->kind) {
        case CMD_SQL:
            if ((rc = run_sql(vm, sc, cmd, n, err)))
                return rc;
            pc++;
            break;
        case CMD_BEGIN:
        case CMD_COMMIT:
        case CMD_ROLLBACK:
            if ((rc = run_tx(vm, sc, cmd, n, err)))
                return rc;
            pc++;
            break;
        case CMD_SET:
            if (cmd->expr.uniform_k) {
                /* random(LO, HI) with valid constant bounds (checked when compiled):
                 * the generator's draw, as dg_scr_eval would make it, with no
                 * evaluation context to build and no error to expect */
                scr_vmvar *x = &vm->vars[cmd->slot];
                x->kind = VK_INT;
                x->i = dg_prng_range(vm->rng, cmd->expr.lo, cmd->expr.hi);
                pc++;
                break;
            }
            if ((rc = eval_cmd(vm, script, sc, cmd, n, &v, err)))
                return rc;
            set_value(&vm->vars[cmd->slot], &v);
            pc++;
            break;
        case CMD_SLEEP:
            if ((rc = sleep_cmd(vm, sc, cmd, n, err)))
                return rc;
            pc++;
            break;
        case CMD_IF:
            /* try the chain's conditions until one holds; \else and \endif always do */
            for (;;) {
                const scr_cmd *b = &sc->cmds[pc];
                if (b->kind == CMD_ELSE || b->kind == CMD_ENDIF) {
                    pc++;
                    break;
                }
                if ((rc = eval_cmd(vm, script, sc, b, pc + 1, &v, err)))
                    return rc;
                if (dg_scr_truth(&v)) {
                    pc++;
                    break;
                }
                pc = b->next;
            }
            break;
        case CMD_ELIF:
        case CMD_ELSE:
            /* reached at the end of a branch that ran: leave the chain */
            pc = cmd->endif + 1;
            break;
        case CMD_ENDIF:
            pc++;
            break;
        }
    }
    if (vm->conn && vm->conn->in_tx)
        return cmd_fail(err, sc, vm->open_cmd,
                        "the transaction begun here is still open at the end of the script");
    return 0;
}

/* ---- helpers ------------------------------------------------------------------------- */

int dg_script_vm_get(const dg_script_vm *vm, const char *name, dg_value *out)
{
    int slot = dg_scr_var_find(vm->set, name, strlen(name));
    if (slot < 0)
        return DG_E_NOTFOUND;
    const scr_vmvar *v = &vm->vars[slot];
    switch (v->kind) {
    case VK_UNSET: return DG_E_NOTFOUND;
    case VK_NULL: *out = dg_vnull(); break;
    case VK_INT: *out = dg_vint(v->i); break;
    case VK_DOUBLE: *out = dg_vdouble(v->d); break;
    case VK_BOOL: *out = dg_vint(v->b ? 1 : 0); break;
    case VK_STRING: *out = dg_vtext(v->s, v->slen); break;
    }
    return 0;
}
