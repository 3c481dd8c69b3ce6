/*
 * err.h - error values and the caller-owned error record.
 *
 * Every fallible function returns 0 on success or a negative DG_E* code, and fills a
 * caller-owned dg_err (which may be NULL) with a class, vendor code, SQLSTATE-like code
 * and a copied message. The runner decides policy from the class alone.
 */
#ifndef DG_CORE_ERR_H
#define DG_CORE_ERR_H

#include <stdarg.h>
#include <stdbool.h>

enum {
    DG_OK = 0,
    DG_E_INVAL = -1,       /* bad argument or input */
    DG_E_NOMEM = -2,
    DG_E_IO = -3,          /* file or system call failed */
    DG_E_DB = -4,          /* the database returned an error (see dg_err.cls) */
    DG_E_PARSE = -5,       /* workload file could not be parsed */
    DG_E_NOTFOUND = -6,
    DG_E_UNSUPPORTED = -7, /* the backend or build lacks the feature */
    DG_E_STOPPED = -8,     /* interrupted by a stop request */
    DG_E_EXISTS = -9,
    DG_E_CHECK = -10,      /* a consistency check failed */
};

/* How the runner should react to a failure; never derived from vendor codes outside backends. */
typedef enum dg_errclass {
    DG_EC_NONE = 0,
    DG_EC_RETRY,      /* deadlock, serialization failure, lock conflict, busy: roll back, try again */
    DG_EC_CONN_LOST,  /* the connection is gone: reconnect */
    DG_EC_CONSTRAINT, /* unique/foreign-key/check violation */
    DG_EC_USER,       /* bad SQL, missing table, wrong types: the workload is wrong */
    DG_EC_FATAL,      /* anything else: stop */
    DG_EC_COUNT       /* the number of classes (for per-class counters) */
} dg_errclass;

#define DG_ERR_MSG_MAX 512

typedef struct dg_err {
    dg_errclass cls;
    int code;                 /* vendor code (errno, sqlite rc, gds code ...), 0 if none */
    char sqlstate[6];         /* five characters + NUL, "" if none */
    char msg[DG_ERR_MSG_MAX]; /* copied, NUL-terminated */
    bool outcome_unknown;     /* the connection was lost while something that commits on
                                 its own (a COMMIT, an autocommit statement) was in flight:
                                 the database may or may not have committed it (the
                                 backend decides; SQLSTATE 08007 where it has one) */
} dg_err;

/* A cleared record, for initialising one: dg_err e = DG_ERR_INIT; */
#define DG_ERR_INIT {.cls = DG_EC_NONE}

/* Clears *e (NULL allowed). */
void dg_err_clear(dg_err *e);

/* Fills *e (NULL allowed) and returns rc, so callers can write `return dg_err_set(...)`.
 * sqlstate may be NULL. The message is formatted with vsnprintf and truncated.
 * outcome_unknown is cleared: a backend sets it after the call where it applies. */
int dg_err_set(dg_err *e, int rc, dg_errclass cls, int code, const char *sqlstate,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int dg_err_vset(dg_err *e, int rc, dg_errclass cls, int code, const char *sqlstate,
                const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Shorthand for errors that are not database errors (class FATAL, no codes). */
#define dg_err_fail(e, rc, ...) dg_err_set((e), (rc), DG_EC_FATAL, 0, NULL, __VA_ARGS__)

/* Prepends "prefix: " to an existing message (for adding context as an error travels up). */
void dg_err_prefix(dg_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Lowercase class name: "retry", "conn_lost", ... */
const char *dg_errclass_name(dg_errclass cls);

#endif
