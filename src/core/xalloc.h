/*
 * xalloc.h - allocation wrappers for application code: they never return NULL; on
 * out-of-memory they print "dbgauge: error: out of memory" and exit(2). The modules
 * meant for reuse outside the application (stats, gen) return DG_E_NOMEM instead of
 * calling these; the workloads, the script engine included, are application code.
 */
#ifndef DG_CORE_XALLOC_H
#define DG_CORE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* malloc'ed printf; the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Memory aligned to `align` (a power of two, multiple of sizeof(void *)), zeroed; free with free(). */
void *xaligned_zalloc(size_t align, size_t n);
/* Zeroed memory of its own pages (an anonymous mapping), for large arrays of which much
 * may stay unused: untouched pages cost nothing, where a malloc'ed array is zeroed and
 * so resident at once. Page-aligned. Free with xpages_free(p, n). */
void *xpages_zalloc(size_t n);
void xpages_free(void *p, size_t n);

#endif
