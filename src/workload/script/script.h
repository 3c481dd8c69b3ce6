/*
 * script.h - pgbench-compatible script workloads: parse, compile, execute.
 *
 * A script set holds one or more scripts (each becomes one transaction type) that share a
 * variable namespace, as pgbench's scripts of one client do. Parsing happens once, before
 * any connection is made; parse errors are reported as
 *
 *     FILE:LINE:COL: error: MESSAGE
 *         the offending line
 *         ^ (caret under COL)
 *
 * in dg_err.msg (class USER, rc DG_E_PARSE).
 *
 * Execution: each terminal creates a dg_script_vm on its own connection; the VM prepares
 * every SQL command once, then runs scripts with no allocation in the steady state
 * (variable string buffers only grow). SQL commands use :name for variables; they are
 * bound as parameters, never pasted into the SQL text. BEGIN / START TRANSACTION /
 * COMMIT / END / ROLLBACK commands are executed through dg_begin/dg_commit/dg_rollback;
 * a transaction block that contains INSERT/UPDATE/DELETE/REPLACE/MERGE is begun with
 * dg_txopts.write = true (SQLite then takes the write lock up front).
 *
 * Meta-commands: \set NAME EXPR, \sleep N [us|ms|s], \if/\elif/\else/\endif, \gset [PREFIX]
 * and \aset [PREFIX] (ending a SQL command). Built-in variables: scale, client_id,
 * random_seed, default_seed (the seed of hash()), plus -D NAME=VALUE variables.
 *
 * Threading: a dg_script_set is immutable after dg_script_set_finish() and shared by all
 * terminals; a dg_script_vm belongs to one terminal thread.
 */
#ifndef DG_WORKLOAD_SCRIPT_SCRIPT_H
#define DG_WORKLOAD_SCRIPT_SCRIPT_H

#include "backend/backend.h"
#include "core/err.h"
#include "core/prng.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct dg_script_set dg_script_set;
typedef struct dg_script_vm dg_script_vm;

/* A new empty set. Never NULL (exits on out-of-memory). */
dg_script_set *dg_script_set_new(void);
void dg_script_set_free(dg_script_set *set);

/* Parses `text` (len bytes; need not be NUL-terminated) as a script named `name` (the path
 * shown in messages, and with directory and extension removed, the transaction name) and
 * adds it with `weight`. Returns 0 or DG_E_PARSE with a FILE:LINE:COL message. */
int dg_script_set_add(dg_script_set *set, const char *name, const char *text, size_t len,
                      double weight, dg_err *err);

/* The largest script file dg_script_set_add_file() reads (16 MiB). */
#define DG_SCRIPT_MAX_BYTES (16 * 1024 * 1024)

/* Reads the file at path and adds it. Returns 0, DG_E_IO if it cannot be read, DG_E_INVAL
 * if it is not a regular file (a directory, /dev/zero, a pipe: refused before reading) or
 * is larger than DG_SCRIPT_MAX_BYTES, or what dg_script_set_add() returns. */
int dg_script_set_add_file(dg_script_set *set, const char *path, double weight, dg_err *err);

/* Defines a variable given with -D NAME=VALUE: an integer if VALUE is one that fits in 64
 * bits, a double if it is a decimal number, else a string (bound to SQL as text; converted
 * when an expression reads it, as pgbench does: "null", true/yes/on, false/no/off and
 * their prefixes, integers, doubles, else an error). Overrides the built-ins of the same
 * name. Must be called before dg_script_set_finish(). Returns 0 or DG_E_INVAL (bad name,
 * or the set is finished). */
int dg_script_set_define(dg_script_set *set, const char *name, const char *value, dg_err *err);

/* Resolves variables across scripts and freezes the set. Errors (e.g. a variable that is
 * used but never set nor defined) name file:line:col. A variable counts as set if a \set,
 * a -D, a built-in, or a \gset / \aset whose prefix it starts with may set it; one read
 * before any of those ran is a run-time error ("undefined variable"). Returns 0,
 * DG_E_PARSE, or DG_E_INVAL for an empty set. */
int dg_script_set_finish(dg_script_set *set, dg_err *err);

int dg_script_set_count(const dg_script_set *set);
/* True when the set's transactions can be pipelined: some script opens a transaction
 * (BEGIN), and no SQL command keeps its rows (\gset, \aset), so no command needs the
 * answer of one before it. */
bool dg_script_set_pipelinable(const dg_script_set *set);
/* Script i says \readonly: its transactions only read. */
bool dg_script_set_readonly(const dg_script_set *set, int i);
/* Transaction name of script i (basename without extension; made unique with "#2" ...). */
const char *dg_script_set_name(const dg_script_set *set, int i);
double dg_script_set_weight(const dg_script_set *set, int i);
/* The text of every script, concatenated, for hashing the workload definition. */
void dg_script_set_hash_text(const dg_script_set *set, void (*fn)(void *arg, const char *p, size_t n),
                             void *arg);

/* A VM for one terminal: prepares every SQL command of the set on conn (which may be NULL
 * when the set has no SQL command, transaction control included: expressions only; else
 * DG_E_INVAL). Built-in variables: scale,
 * client_id (= client_id), random_seed and default_seed (= seed), unless -D gave them a
 * value. random() and friends draw from rng (borrowed; must outlive the VM). Returns 0,
 * DG_E_NOMEM, or the backend's error from preparing ("tpcb.sql command 3: ..."). *out
 * written only on success. */
int dg_script_vm_new(const dg_script_set *set, dg_conn *conn, dg_prng *rng, int64_t scale,
                     int client_id, uint64_t seed, dg_script_vm **out, dg_err *err);
void dg_script_vm_free(dg_script_vm *vm);

/* Runs script i once. Returns 0, or an error whose message names the script and command
 * ("tpcb.sql command 3: ..."), with the backend's class (RETRY, CONN_LOST, ...) or USER for
 * script runtime errors (division by zero, \gset without exactly one row, unfinished
 * transaction at the end of the script). Commands are numbered from 1 in the order of the
 * script, counting every SQL and meta-command (\gset and \aset are part of their SQL
 * command). Script errors have rc DG_E_INVAL; database errors keep the backend's rc, code
 * and SQLSTATE. On error, statements are reset; an open transaction is left for the caller
 * to roll back. Variables keep their values from one run to the next, as in pgbench. */
int dg_script_vm_run(dg_script_vm *vm, int script, dg_err *err);

/* Receives the output of the debug() function: script index, 1-based command number and
 * the value as "int 5", "double 1.5", "boolean true" or "null". */
typedef void (*dg_script_debug_fn)(void *arg, int script, int command, const char *text);
/* Redirects debug() output (by default written to stderr as pgbench does:
 * "debug(script=0,command=3): int 5"); fn NULL discards it. */
void dg_script_vm_set_debug(dg_script_vm *vm, dg_script_debug_fn fn, void *arg);

/* Reads variable `name` of the VM into *out: int, double, text (borrowed until the next
 * dg_script_vm_run) or NULL; booleans read as int 0/1. Returns 0, or DG_E_NOTFOUND when the
 * set has no such variable or it has no value yet. For tests and diagnostics. */
int dg_script_vm_get(const dg_script_vm *vm, const char *name, dg_value *out);

#endif
