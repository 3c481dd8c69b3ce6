/* strbuf.c - growable string buffer. */
#include "core/strbuf.h"

#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(dg_strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    sb->buf = xrealloc(sb->buf, cap);
    sb->cap = cap;
}

void dg_sb_addn(dg_strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void dg_sb_add(dg_strbuf *sb, const char *s)
{
    dg_sb_addn(sb, s, strlen(s));
}

void dg_sb_addc(dg_strbuf *sb, char c)
{
    dg_sb_addn(sb, &c, 1);
}

void dg_sb_vprintf(dg_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0)
        return;
    reserve(sb, (size_t)n);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void dg_sb_printf(dg_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg_sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void dg_sb_reset(dg_strbuf *sb)
{
    sb->len = 0;
    if (sb->buf)
        sb->buf[0] = '\0';
}

const char *dg_sb_str(const dg_strbuf *sb)
{
    return sb->buf ? sb->buf : "";
}

char *dg_sb_take(dg_strbuf *sb)
{
    char *s = sb->buf ? sb->buf : xstrdup("");
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void dg_sb_free(dg_strbuf *sb)
{
    if (!sb)
        return;
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}
