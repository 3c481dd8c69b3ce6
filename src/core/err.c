/* err.c - the dg_err record: formatting and class names. */
#include "core/err.h"

#include <stdio.h>
#include <string.h>

void dg_err_clear(dg_err *e)
{
    if (!e)
        return;
    e->cls = DG_EC_NONE;
    e->code = 0;
    e->sqlstate[0] = '\0';
    e->msg[0] = '\0';
    e->outcome_unknown = false;
}

int dg_err_vset(dg_err *e, int rc, dg_errclass cls, int code, const char *sqlstate,
                const char *fmt, va_list ap)
{
    if (!e)
        return rc;
    e->cls = cls;
    e->code = code;
    e->outcome_unknown = false;
    if (sqlstate) {
        snprintf(e->sqlstate, sizeof e->sqlstate, "%s", sqlstate);
    } else {
        e->sqlstate[0] = '\0';
    }
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    /* strip trailing newlines servers like to add */
    size_t n = strlen(e->msg);
    while (n > 0 && (e->msg[n - 1] == '\n' || e->msg[n - 1] == '\r' || e->msg[n - 1] == ' '))
        e->msg[--n] = '\0';
    return rc;
}

int dg_err_set(dg_err *e, int rc, dg_errclass cls, int code, const char *sqlstate,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_err_vset(e, rc, cls, code, sqlstate, fmt, ap);
    va_end(ap);
    return rc;
}

void dg_err_prefix(dg_err *e, const char *fmt, ...)
{
    if (!e)
        return;
    char pre[DG_ERR_MSG_MAX];
    char old[DG_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    snprintf(e->msg, sizeof e->msg, "%s: %s", pre, old);
}

const char *dg_errclass_name(dg_errclass cls)
{
    switch (cls) {
    case DG_EC_NONE: return "none";
    case DG_EC_RETRY: return "retry";
    case DG_EC_CONN_LOST: return "conn_lost";
    case DG_EC_CONSTRAINT: return "constraint";
    case DG_EC_USER: return "user";
    case DG_EC_FATAL: return "fatal";
    case DG_EC_COUNT: break;
    }
    return "unknown";
}
