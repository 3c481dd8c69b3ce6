/*
 * file.h - writing a whole file so that readers see either the old file or the new one,
 * never half of it, even across a crash: result files and reports.
 */
#ifndef DG_CORE_FILE_H
#define DG_CORE_FILE_H

#include "core/err.h"

#include <stddef.h>

/* Writes data[0..len) to path atomically: a temporary file beside it (path.tmp.PID) is
 * written, fsync'ed and renamed over path, then the directory is fsync'ed so the rename
 * itself is durable. `what` names the file in messages ("result file", "report"); err
 * (NULL allowed) gets "cannot write WHAT 'path': reason". On failure the temporary file
 * is removed and path is untouched. 0 or DG_E_IO. */
int dg_write_atomic(const char *path, const char *data, size_t len, const char *what, dg_err *err);

#endif
