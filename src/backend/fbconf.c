/*
 * fbconf.c - ExternalFileAccess of a Firebird root directory's firebird.conf (see fbconf.h).
 *
 * Layout: the pure parser; reading the file; finding the root directory of an engine.
 */
#include "backend/fbconf.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- parsing ----------------------------------------------------------------------------- */

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The value [v, e) with $(root) and $(this) replaced, into out (cut at its size). */
static void expand(const char *v, const char *e, const char *root, const char *here, char *out,
                   size_t cap)
{
    size_t n = 0;
    while (v < e && n + 1 < cap) {
        const char *with = NULL;
        size_t skip = 0;
        if ((size_t)(e - v) >= 7 && !strncasecmp(v, "$(root)", 7))
            with = root, skip = 7;
        else if ((size_t)(e - v) >= 7 && !strncasecmp(v, "$(this)", 7))
            with = here, skip = 7;
        if (with) {
            for (const char *w = with; *w && n + 1 < cap; w++)
                out[n++] = *w;
            v += skip;
        } else {
            out[n++] = *v++;
        }
    }
    out[n] = '\0';
}

/* One directory of Restrict's list, [d, e) trimmed, made absolute under root. */
static void add_dir(dg_fbconf_ext *out, const char *d, const char *e, const char *root)
{
    d = skip_blank(d, e);
    while (e > d && isspace((unsigned char)e[-1]))
        e--;
    if (e == d || out->ndirs == DG_FBCONF_MAX_DIRS)
        return;
    char *dst = out->dirs[out->ndirs];
    size_t cap = sizeof out->dirs[0];
    if (*d == '/')
        snprintf(dst, cap, "%.*s", (int)(e - d), d);
    else
        snprintf(dst, cap, "%s/%.*s", root, (int)(e - d), d);
    size_t n = strlen(dst);
    while (n > 1 && dst[n - 1] == '/') /* "ext/" and "ext" are one directory */
        dst[--n] = '\0';
    out->ndirs++;
}

static void set_access(dg_fbconf_ext *out, const char *val, int line, const char *root)
{
    memset(out, 0, sizeof *out);
    out->line = line;
    const char *end = val + strlen(val);
    const char *w = skip_blank(val, end);
    if (!strncasecmp(w, "full", 4) && !w[4 + strspn(w + 4, " \t")]) {
        out->kind = DG_FBCONF_EXT_FULL;
    } else if (!strncasecmp(w, "restrict", 8) && (w[8] == ' ' || w[8] == '\t')) {
        out->kind = DG_FBCONF_EXT_RESTRICT;
        const char *d = w + 8;
        for (const char *p = d;; p++)
            if (p == end || *p == ';') {
                add_dir(out, d, p, root);
                if (p == end)
                    break;
                d = p + 1;
            }
        if (out->ndirs == 0) /* "Restrict" with no directory allows none */
            out->kind = DG_FBCONF_EXT_NONE;
    } else {
        out->kind = DG_FBCONF_EXT_NONE; /* "None", and what the server does not understand */
    }
}

void dg_fbconf_ext_parse(const char *text, size_t len, const char *root, const char *here,
                         dg_fbconf_ext *out)
{
    memset(out, 0, sizeof *out);
    const char *end = text + len;
    int line = 0;
    for (const char *p = text; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        line++;
        const char *k = skip_blank(p, eol);
        const char *hash = memchr(k, '#', (size_t)(eol - k));
        const char *e = hash ? hash : eol;
        const char *eq = memchr(k, '=', (size_t)(e - k));
        if (eq) {
            const char *ke = eq;
            while (ke > k && isspace((unsigned char)ke[-1]))
                ke--;
            const char *v = skip_blank(eq + 1, e);
            const char *ve = e;
            while (ve > v && isspace((unsigned char)ve[-1]))
                ve--;
            if (ve - v >= 2 && *v == '"' && ve[-1] == '"')
                v++, ve--;
            if (ke - k == 18 && !strncasecmp(k, "ExternalFileAccess", 18)) {
                char val[4096];
                expand(v, ve, root, here, val, sizeof val);
                set_access(out, val, line, root);
            }
        }
        p = eol < end ? eol + 1 : end;
    }
}

void dg_fbconf_ext_describe(const dg_fbconf_ext *e, char *buf, size_t len)
{
    if (e->kind == DG_FBCONF_EXT_FULL) {
        snprintf(buf, len, "Full");
        return;
    }
    if (e->kind == DG_FBCONF_EXT_NONE) {
        snprintf(buf, len, "None");
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "Restrict ");
    for (int i = 0; i < e->ndirs && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ";" : "", e->dirs[i]);
}

/* ---- the file ---------------------------------------------------------------------------- */

int dg_fbconf_ext_load(const char *root, dg_fbconf_ext *out, char *why, size_t whylen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/firebird.conf", root);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            char *bigger = cap < (1u << 24) ? realloc(text, cap * 2) : NULL;
            if (!bigger)
                break; /* a firebird.conf of 16 MB: read what fits */
            text = bigger;
            cap *= 2;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!text || bad) {
        free(text);
        snprintf(why, whylen, "cannot read %s", path);
        return -1;
    }
    /* $(this): the directory the file really lies in (Debian links it from /etc) */
    char here[4096];
    char *real = realpath(path, NULL);
    snprintf(here, sizeof here, "%s", real ? real : path);
    free(real);
    char *slash = strrchr(here, '/');
    if (slash)
        *slash = '\0';
    dg_fbconf_ext_parse(text, n, root, here, out);
    free(text);
    return 0;
}

/* ---- the root directory ------------------------------------------------------------------ */

/* FIREBIRD in the environment of process pid (0: this one). 1 found, 0 not set, -1 the
 * environment cannot be read. */
static int env_root(int pid, char *root, size_t len)
{
    if (pid == 0) {
        const char *v = getenv("FIREBIRD");
        if (!v || !*v)
            return 0;
        snprintf(root, len, "%s", v);
        return 1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char var[4200];
    int found = 0;
    size_t n = 0;
    int ch;
    while ((ch = getc(f)) != EOF && !found) {
        if (ch != '\0') {
            if (n + 1 < sizeof var)
                var[n++] = (char)ch;
            continue;
        }
        var[n] = '\0';
        n = 0;
        if (!strncmp(var, "FIREBIRD=", 9) && var[9]) {
            snprintf(root, len, "%s", var + 9);
            found = 1;
        }
    }
    bool ok = !ferror(f);
    fclose(f);
    return ok ? found : -1;
}

/* The installed root: the newest .../firebird/VERSION directory with a firebird.conf. */
static bool installed_root(char *root, size_t len)
{
    static const char *const patterns[] = {"/usr/lib/*/firebird/*/firebird.conf",
                                           "/usr/lib/firebird/*/firebird.conf",
                                           "/opt/firebird/firebird.conf"};
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        glob_t g;
        if (glob(patterns[p], 0, NULL, &g) == 0 && g.gl_pathc > 0) {
            const char *conf = g.gl_pathv[g.gl_pathc - 1]; /* sorted: the newest version last */
            snprintf(root, len, "%.*s", (int)(strrchr(conf, '/') - conf), conf);
            globfree(&g);
            return true;
        }
        globfree(&g);
    }
    return false;
}

bool dg_fbconf_root(int pid, char *root, size_t len, char *why, size_t whylen)
{
    int e = env_root(pid, root, len);
    if (e == 1)
        return true;
    if (e < 0) {
        snprintf(why, whylen, "cannot read the environment of the server's process %d (its "
                 "FIREBIRD says where its firebird.conf is)", pid);
        return false;
    }
    if (installed_root(root, len))
        return true;
    snprintf(why, whylen, "no FIREBIRD in the %s's environment and no installed Firebird root "
             "directory found", pid ? "server" : "process");
    return false;
}
