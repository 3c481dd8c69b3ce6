/* dlib.c - client libraries opened on first use (see dlib.h). */
#include "core/dlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static int open_locked(dg_dlib *lib)
{
    const char *file = lib->env ? getenv(lib->env) : NULL;
    bool overridden = file && *file;
    if (!overridden)
        file = lib->soname;
    /* RTLD_LOCAL: its symbols serve only the table; RTLD_NOW: a library that cannot
     * resolve its own dependencies fails here, not in the middle of a run */
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        if (overridden)
            snprintf(lib->fail, sizeof lib->fail, "cannot load %s from %s (set by %s): %s",
                     lib->what, file, lib->env, why ? why : "unknown error");
        else
            snprintf(lib->fail, sizeof lib->fail, "cannot load %s (%s): %s; install %s%s%s",
                     lib->what, file, why ? why : "unknown error", lib->package,
                     lib->env ? " or name the file in " : "", lib->env ? lib->env : "");
        return -1;
    }
    for (int i = 0; i < lib->nsyms; i++) {
        dlerror();
        void *p = dlsym(h, lib->syms[i].name);
        if (!p) {
            snprintf(lib->fail, sizeof lib->fail, "%s (%s) has no function %s: too old a version?",
                     lib->what, file, lib->syms[i].name);
            dlclose(h);
            return -1;
        }
        memcpy((char *)lib->table + lib->syms[i].offset, &p, sizeof p); /* POSIX: a function's address */
    }
    lib->handle = h; /* kept open to the end of the process */
    return 1;
}

int dg_dlib_load(dg_dlib *lib, dg_err *err)
{
    int st = atomic_load_explicit(&lib->state, memory_order_acquire);
    if (st == 0) {
        pthread_mutex_lock(&g_lock);
        st = atomic_load_explicit(&lib->state, memory_order_relaxed);
        if (st == 0) {
            st = open_locked(lib);
            atomic_store_explicit(&lib->state, st, memory_order_release);
        }
        pthread_mutex_unlock(&g_lock);
    }
    if (st > 0)
        return 0;
    return dg_err_fail(err, DG_E_UNSUPPORTED, "%s", lib->fail);
}
