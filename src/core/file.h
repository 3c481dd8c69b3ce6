/*
 * file.h - writing a whole output file (result files, reports) so that readers see either
 * the old file or the new one, never half of it, even across a crash; and never replacing
 * what is not a file of ours: a device, a fifo, the link that names the file.
 *
 * Where the bytes go, by what the path names when the write starts:
 *   "-", or the file open as standard output (/dev/stdout, /proc/self/fd/1, the file the
 *   shell redirected stdout to) - written to file descriptor 1 (stdout's stdio buffer is
 *   flushed first); the file open as standard error likewise to descriptor 2;
 *   an existing character or block device or fifo - opened for writing and written in
 *   place (no temporary file, no rename, no truncation; a fifo's open waits for a reader);
 *   an existing socket or directory - refused;
 *   a regular file or a new name - atomically: a temporary file beside it (NAME.tmp.PID)
 *   is written, fsync'ed and renamed over it, then the directory is fsync'ed. A symbolic
 *   link is followed to its final target first (also when that does not exist yet), so
 *   the rename replaces the target and the link stays; an existing target keeps its mode.
 */
#ifndef DG_CORE_FILE_H
#define DG_CORE_FILE_H

#include "core/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes data[0..len) to path as described above. `what` names the file in messages
 * ("result file", "report"); err (NULL allowed) gets "cannot write WHAT 'path': reason".
 * On failure of an atomic write the temporary file is removed and the target untouched.
 * 0 or DG_E_IO. */
int dg_file_write(const char *path, const char *data, size_t len, const char *what, dg_err *err);

/* As dg_file_write, without the fsyncs: for a file rewritten again and again (the
 * metrics file, each interval) whose readers must see a whole file but which a crash may
 * leave old. */
int dg_file_replace(const char *path, const char *data, size_t len, const char *what, dg_err *err);

/* Opens path for an output written as it goes (a log of lines; not atomic: a reader may
 * see the lines written so far): "-" or the file open as standard output - a duplicate of
 * descriptor 1; a character or block device or fifo - in place (a fifo's open waits for a
 * reader); a socket or directory - refused; a regular file (a symbolic link followed) -
 * truncated; a new name - created (0644 before the umask). Line-buffered. NULL and err
 * ("cannot write WHAT 'path': reason") on failure. */
FILE *dg_file_open_stream(const char *path, const char *what, dg_err *err);

/* True when path is "-" or names the file open as standard output (same device and
 * inode as descriptor 1): dg_file_write sends it there. */
bool dg_file_is_stdout(const char *path);

/* True when a and b name the same existing file: the same device and inode (hard links and
 * symbolic links included), or the same path after realpath(). "-" stands for standard
 * output. Used to refuse an output that is one of the inputs. */
bool dg_file_same(const char *a, const char *b);

#endif
