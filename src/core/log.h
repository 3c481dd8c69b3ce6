/*
 * log.h - user-facing messages on stderr: "dbgauge: error: ...", "dbgauge: warning: ...",
 * and progress notes. Message style (git's): lowercase, problem first, names quoted, no
 * trailing period. Thread-safe (one fprintf per message).
 */
#ifndef DG_CORE_LOG_H
#define DG_CORE_LOG_H

#include "core/err.h"

#include <stdbool.h>

void dg_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void dg_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Informational lines (suppressed by --quiet). */
void dg_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "dbgauge: error: <context>: <message> [SQLSTATE]" for a dg_err. */
void dg_log_dberr(const char *context, const dg_err *e);
void dg_log_set_quiet(bool quiet);

#endif
