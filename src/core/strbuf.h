/*
 * strbuf.h - a growable NUL-terminated string buffer for building SQL, messages and
 * output off the measured path. Uses xalloc (exits on out-of-memory).
 */
#ifndef DG_CORE_STRBUF_H
#define DG_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct dg_strbuf {
    char *buf; /* always NUL-terminated once anything was added; NULL when empty/new */
    size_t len;
    size_t cap;
} dg_strbuf;

#define DG_STRBUF_INIT {NULL, 0, 0}

void dg_sb_add(dg_strbuf *sb, const char *s);
void dg_sb_addn(dg_strbuf *sb, const char *s, size_t n);
void dg_sb_addc(dg_strbuf *sb, char c);
void dg_sb_printf(dg_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dg_sb_vprintf(dg_strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Empties the buffer, keeping its memory. */
void dg_sb_reset(dg_strbuf *sb);
/* The contents ("" when empty); borrowed until the next change. */
const char *dg_sb_str(const dg_strbuf *sb);
/* Hands the string to the caller (never NULL) and leaves the buffer empty. */
char *dg_sb_take(dg_strbuf *sb);
void dg_sb_free(dg_strbuf *sb);

#endif
