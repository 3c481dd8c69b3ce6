/* log.c - stderr messages. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

static bool quiet;

__attribute__((format(printf, 2, 0))) static void vlog(const char *level, const char *fmt,
                                                      va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (level)
        fprintf(stderr, "dbgauge: %s: %s\n", level, buf);
    else
        fprintf(stderr, "%s\n", buf);
}

void dg_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("error", fmt, ap);
    va_end(ap);
}

void dg_log_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog("warning", fmt, ap);
    va_end(ap);
}

void dg_log_info(const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(NULL, fmt, ap);
    va_end(ap);
}

void dg_log_dberr(const char *context, const dg_err *e)
{
    if (e->sqlstate[0])
        dg_log_error("%s%s%s [%s]", context ? context : "", context ? ": " : "", e->msg, e->sqlstate);
    else
        dg_log_error("%s%s%s", context ? context : "", context ? ": " : "", e->msg);
}

void dg_log_set_quiet(bool q)
{
    quiet = q;
}
