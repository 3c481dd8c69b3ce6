/*
 * dlib.h - a client library opened the first time it is needed, not when dbgauge starts.
 *
 * A library the program links is mapped, relocated and initialised at every start, used
 * or not: the Firebird client (C++ static constructors, libstdc++, libtommath) and
 * libxml2 (ICU) cost a run on PostgreSQL some 3 MB of resident memory, and a missing one
 * stopped dbgauge from starting at all, even for the embedded SQLite default. A library
 * loaded through here is opened (dlopen) by the first connection or document that needs
 * it, and its functions are looked up into a table the caller declares.
 *
 * Thread-safety: dg_dlib_load may be called from many threads at once (terminals
 * connecting); one opens the library, the others wait for it and see the same result.
 */
#ifndef DG_CORE_DLIB_H
#define DG_CORE_DLIB_H

#include "core/err.h"

#include <stdatomic.h>
#include <stddef.h>

typedef struct dg_dlib_sym {
    const char *name;
    size_t offset; /* of its function pointer in the caller's table */
} dg_dlib_sym;

typedef struct dg_dlib {
    const char *what;    /* "the Firebird client library" */
    const char *soname;  /* "libfbclient.so.2" */
    const char *env;     /* a variable naming another file to open instead, or NULL */
    const char *package; /* the Debian package that has it, for the error message */
    const dg_dlib_sym *syms;
    int nsyms;
    void *table; /* the caller's struct of function pointers */
    /* state, zero-initialised */
    atomic_int state; /* 0 not tried, 1 loaded, -1 failed */
    void *handle;
    char fail[DG_ERR_MSG_MAX];
} dg_dlib;

/* Opens the library and fills its table, once; later calls return the first call's
 * result (0, or DG_E_UNSUPPORTED with the reason: file not found, a function missing). */
int dg_dlib_load(dg_dlib *lib, dg_err *err);

#endif
