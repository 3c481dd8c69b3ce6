/*
 * fuzz_script.c - libFuzzer harness of the script engine: scanner, SQL scanner,
 * expression parser and compiler, evaluator and VM, without a database.
 *
 * The input is one script. It is added to a set that has a few -D variables (strings
 * included, so that string conversion runs), then:
 *   1. every \set / \if / \elif expression is evaluated once, in the order of the script,
 *      on variables that \set commands assign as they go (errors are expected: the next
 *      command goes on), whether or not dg_script_set_finish() accepts the set;
 *   2. when the set is finished and has neither SQL nor transaction control (no
 *      connection here) nor \sleep (no waiting here), each script runs once in a real
 *      VM, \if chains included.
 * Scripts have no loops, so the work per input is bounded by its length. What must hold:
 * no crash, no sanitizer report, no leak; a parse error is a "FILE:LINE:COL: error: ..."
 * message.
 */
#include "core/err.h"
#include "core/prng.h"
#include "workload/script/script.h"
#include "workload/script/script_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void no_debug(void *arg, int script, int command, const char *text)
{
    (void)arg;
    (void)script;
    (void)command;
    (void)text;
}

/* Step 1: each expression once, in text order, on a private copy of the variables. */
static void eval_all(const dg_script_set *set, dg_prng *rng)
{
    scr_vmvar *vars = calloc((size_t)set->nvars, sizeof *vars);
    scr_value *stack = calloc((size_t)(set->maxstack > 0 ? set->maxstack : 1), sizeof *stack);
    if (!vars || !stack)
        abort();
    for (int i = 0; i < set->nvars; i++) {
        const scr_var *v = &set->vars[i];
        if (v->defined && v->def_type == DEF_INT) {
            vars[i].kind = VK_INT;
            vars[i].i = v->def_i;
        } else if (v->defined && v->def_type == DEF_DOUBLE) {
            vars[i].kind = VK_DOUBLE;
            vars[i].d = v->def_d;
        } else if (v->defined) {
            vars[i].kind = VK_STRING;
            vars[i].s = v->def_s; /* borrowed: the set outlives this pass */
            vars[i].slen = strlen(v->def_s);
        } else if (i < SCR_NBUILTINS) {
            vars[i].kind = VK_INT;
            vars[i].i = i + 1;
        }
    }
    for (int s = 0; s < set->nscripts; s++) {
        const scr_script *sc = &set->scripts[s];
        for (int c = 0; c < sc->ncmds; c++) {
            const scr_cmd *cmd = &sc->cmds[c];
            if (cmd->kind != CMD_SET && cmd->kind != CMD_IF && cmd->kind != CMD_ELIF)
                continue;
            if (cmd->expr.maxstack > set->maxstack)
                abort(); /* the set's stack would be too small for this expression */
            scr_evalctx cx = {.set = set, .vars = vars, .stack = stack, .rng = rng,
                              .script = s, .command = c + 1, .debug = no_debug};
            scr_value out;
            dg_err err = DG_ERR_INIT;
            if (dg_scr_eval(&cx, &cmd->expr, &out, &err) != 0) {
                if (err.msg[0] == '\0')
                    abort(); /* an error without a message */
                continue;
            }
            if (cmd->kind == CMD_SET) {
                scr_vmvar *x = &vars[cmd->slot];
                x->s = NULL;
                x->sparsed = false;
                switch (out.type) {
                case SV_NULL: x->kind = VK_NULL; break;
                case SV_INT: x->kind = VK_INT; x->i = out.u.i; break;
                case SV_DOUBLE: x->kind = VK_DOUBLE; x->d = out.u.d; break;
                case SV_BOOL: x->kind = VK_BOOL; x->b = out.u.b; break;
                }
            }
        }
    }
    free(stack);
    free(vars);
}

/* Step 2: a real VM, when the set needs no connection and never sleeps. */
static void run_vm(const dg_script_set *set, dg_prng *rng)
{
    if (set->nsql > 0)
        return;
    for (int s = 0; s < set->nscripts; s++)
        for (int c = 0; c < set->scripts[s].ncmds; c++)
            if (set->scripts[s].cmds[c].kind == CMD_SLEEP)
                return;
    dg_script_vm *vm = NULL;
    dg_err err = DG_ERR_INIT;
    /* refused without a connection when BEGIN / COMMIT / ROLLBACK are there */
    if (dg_script_vm_new(set, NULL, rng, 1, 0, 42, &vm, &err) != 0) {
        if (!strstr(err.msg, "need a connection"))
            abort();
        return;
    }
    dg_script_vm_set_debug(vm, no_debug, NULL);
    for (int s = 0; s < dg_script_set_count(set); s++) {
        dg_err_clear(&err);
        if (dg_script_vm_run(vm, s, &err) != 0 && err.msg[0] == '\0')
            abort();
    }
    dg_value v;
    (void)dg_script_vm_get(vm, "x", &v);
    dg_script_vm_free(vm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const defines[][2] = {
        {"foo", "bla"}, {"t", "true"}, {"n", "null"}, {"big", "99999999999999999999"},
        {"d", "1.5"},   {"i", "-7"},   {"sp", " 42"}, {"empty", ""},
    };
    dg_script_set *set = dg_script_set_new();
    dg_err err = DG_ERR_INIT;
    dg_prng rng;
    dg_prng_seed(&rng, 1234);
    for (size_t i = 0; i < sizeof defines / sizeof defines[0]; i++)
        if (dg_script_set_define(set, defines[i][0], defines[i][1], &err) != 0)
            abort();
    int rc = dg_script_set_add(set, "fuzz.sql", (const char *)data, size, 1, &err);
    if (rc == 0) {
        eval_all(set, &rng);
        dg_err_clear(&err);
        if (dg_script_set_finish(set, &err) == 0)
            run_vm(set, &rng);
        else if (strncmp(err.msg, "fuzz.sql:", 9) != 0)
            abort(); /* finish errors point into the script */
    } else if (rc != DG_E_PARSE || strncmp(err.msg, "fuzz.sql:", 9) != 0 ||
               !strstr(err.msg, ": error: ")) {
        fprintf(stderr, "unexpected error %d: %s\n", rc, err.msg);
        abort();
    }
    dg_script_set_free(set);
    return 0;
}
