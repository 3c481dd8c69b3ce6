/*
 * fbconf.h - what a Firebird server's firebird.conf says about external files
 * (ExternalFileAccess), so that the Firebird backend's bulk=auto can choose the
 * external-table path when the server may read a directory dbgauge can write to.
 *
 * Firebird reads firebird.conf from its root directory: $FIREBIRD when the server's
 * environment sets it, else the directory it was built for (Debian:
 * /usr/lib/<arch>/firebird/<version>, whose firebird.conf links to /etc/firebird/<version>).
 * The file is "Key = Value" lines, '#' comments, keys in any case, a later line replacing
 * an earlier one; ExternalFileAccess is None (the default), Full, or Restrict followed by
 * ';'-separated directories, a relative one under the root. $(root) and $(this) in a value
 * are the root directory and the file's own directory.
 *
 * Parsing is pure (dg_fbconf_ext_parse, unit-tested); the rest reads files and /proc. What
 * the file says is a hint: the server's databases.conf may say otherwise for one database,
 * and a server in another mount namespace sees other directories, so the backend tries a
 * file there before it loads through that directory.
 */
#ifndef DG_BACKEND_FBCONF_H
#define DG_BACKEND_FBCONF_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { DG_FBCONF_EXT_NONE, DG_FBCONF_EXT_FULL, DG_FBCONF_EXT_RESTRICT } dg_fbconf_ext_kind;

#define DG_FBCONF_MAX_DIRS 8

typedef struct dg_fbconf_ext {
    dg_fbconf_ext_kind kind;
    int line;  /* the line that set it; 0: the file does not (Firebird's default, None) */
    int ndirs; /* Restrict: its directories (the first DG_FBCONF_MAX_DIRS), absolute */
    char dirs[DG_FBCONF_MAX_DIRS][256];
} dg_fbconf_ext;

/* ExternalFileAccess of the firebird.conf text (len bytes) whose root directory is root
 * and which lies in directory here (for $(this)). An unknown value is None, as the
 * server takes it. */
void dg_fbconf_ext_parse(const char *text, size_t len, const char *root, const char *here,
                         dg_fbconf_ext *out);

/* Reads root/firebird.conf into *out. 0 when read; -1 when it cannot be (why: the reason). */
int dg_fbconf_ext_load(const char *root, dg_fbconf_ext *out, char *why, size_t whylen);

/* The root directory of the Firebird engine in process pid (0: this process): its
 * FIREBIRD environment variable, else the first installed root that holds a
 * firebird.conf. False (why says why) when neither can be told, e.g. another user's
 * process whose environment this one may not read. */
bool dg_fbconf_root(int pid, char *root, size_t len, char *why, size_t whylen);

/* "Restrict DIR;DIR" / "Full" / "None" as the file says it, for messages. */
void dg_fbconf_ext_describe(const dg_fbconf_ext *e, char *buf, size_t len);

#endif
