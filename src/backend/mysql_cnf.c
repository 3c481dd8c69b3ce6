/*
 * mysql_cnf.c - the user's ~/.my.cnf: see mysql_cnf.h. The syntax is the client's: a line
 * is "[group]", "key", or "key = value"; "#" or ";" at the start of a line, and "#"
 * outside quotes anywhere, begin a comment; a value may be in single or double quotes;
 * \b \t \n \r \s \\ \" \' are escapes in a value.
 */
#include "backend/mysql_cnf.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILE (1 << 20) /* an option file is a few lines; a bigger one is not read whole */

static bool key_is(const char *k, size_t n, const char *name)
{
    if (strlen(name) != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        char a = k[i] == '-' ? '_' : (char)tolower((unsigned char)k[i]);
        if (a != name[i])
            return false;
    }
    return true;
}

/* The value text v[0..n) with its comment cut, its quotes removed and its escapes read. */
static char *value_of(const char *v, size_t n)
{
    char quote = 0;
    size_t end = 0;
    for (; end < n; end++) { /* a comment outside quotes ends it */
        if (quote) {
            if (v[end] == '\\' && end + 1 < n)
                end++;
            else if (v[end] == quote)
                quote = 0;
        } else if (v[end] == '\'' || v[end] == '"') {
            quote = v[end];
        } else if (v[end] == '#') {
            break;
        } else if (v[end] == '\\' && end + 1 < n) {
            end++;
        }
    }
    while (end > 0 && isspace((unsigned char)v[end - 1]))
        end--;
    if (end >= 2 && (v[0] == '\'' || v[0] == '"') && v[end - 1] == v[0]) {
        v++;
        end -= 2;
    }
    char *out = xmalloc(end + 1), *o = out;
    for (size_t i = 0; i < end; i++) {
        if (v[i] != '\\' || i + 1 == end) {
            *o++ = v[i];
            continue;
        }
        switch (v[++i]) {
        case 'b': *o++ = '\b'; break;
        case 't': *o++ = '\t'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 's': *o++ = ' '; break;
        case '\\': case '"': case '\'': *o++ = v[i]; break;
        default: *o++ = '\\'; *o++ = v[i]; break;
        }
    }
    *o = '\0';
    return out;
}

static void set(char **dst, char *v)
{
    free(*dst);
    *dst = v;
}

static void setting(dg_mycnf *cnf, const char *k, size_t kn, const char *v, size_t vn, bool has_value)
{
    char **dst = key_is(k, kn, "user")       ? &cnf->user
                 : key_is(k, kn, "password") ? &cnf->password
                 : key_is(k, kn, "host")     ? &cnf->host
                 : key_is(k, kn, "socket")   ? &cnf->socket
                 : key_is(k, kn, "database") ? &cnf->database
                                             : NULL;
    if (key_is(k, kn, "port")) {
        char *s = has_value ? value_of(v, vn) : NULL, *e = NULL;
        long p = s ? strtol(s, &e, 10) : 0;
        if (s && e != s && *e == '\0' && p > 0 && p < 65536)
            cnf->port = (int)p;
        free(s);
        return;
    }
    if (!dst)
        return;
    if (!has_value) { /* "password" alone: the client asks for it; here, no password */
        set(dst, NULL);
        return;
    }
    set(dst, value_of(v, vn));
}

void dg_mycnf_parse(const char *text, size_t len, dg_mycnf *cnf)
{
    bool ours = false; /* in [client] or [client-mariadb] */
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        const char *l = text + i;
        size_t n = e - i;
        i = e + 1;
        while (n && isspace((unsigned char)*l))
            l++, n--;
        while (n && isspace((unsigned char)l[n - 1]))
            n--;
        if (!n || *l == '#' || *l == ';' || *l == '!')
            continue;
        if (*l == '[') {
            const char *close = memchr(l, ']', n);
            size_t gn = close ? (size_t)(close - l - 1) : 0;
            const char *g = l + 1;
            while (gn && isspace((unsigned char)*g))
                g++, gn--;
            while (gn && isspace((unsigned char)g[gn - 1]))
                gn--;
            ours = close && (key_is(g, gn, "client") || key_is(g, gn, "client_mariadb"));
            continue;
        }
        if (!ours)
            continue;
        const char *eq = memchr(l, '=', n);
        size_t kn = eq ? (size_t)(eq - l) : n;
        while (kn && isspace((unsigned char)l[kn - 1]))
            kn--;
        if (!eq) {
            setting(cnf, l, kn, NULL, 0, false);
            continue;
        }
        const char *v = eq + 1;
        size_t vn = n - (size_t)(v - l);
        while (vn && isspace((unsigned char)*v))
            v++, vn--;
        setting(cnf, l, kn, v, vn, true);
    }
}

int dg_mycnf_load(const char *path, dg_mycnf *cnf, const char **why)
{
    *cnf = (dg_mycnf){0};
    *why = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        *why = "not a regular file";
        return 1;
    }
    if (st.st_mode & S_IWOTH) { /* the client ignores such a file too */
        fclose(f);
        *why = "anyone may write it (the mysql client ignores it too; chmod o-w)";
        return 1;
    }
    char *buf = xmalloc(MAX_FILE);
    size_t len = fread(buf, 1, MAX_FILE, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(buf);
        *why = "it could not be read";
        return 1;
    }
    dg_mycnf_parse(buf, len, cnf);
    memset(buf, 0, len); /* it may hold a password */
    free(buf);
    return 0;
}

const char *dg_mycnf_path(char *buf, size_t len)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    snprintf(buf, len, "%s/.my.cnf", home);
    return buf;
}

void dg_mycnf_free(dg_mycnf *cnf)
{
    if (cnf->password)
        memset(cnf->password, 0, strlen(cnf->password));
    free(cnf->user);
    free(cnf->password);
    free(cnf->host);
    free(cnf->socket);
    free(cnf->database);
    *cnf = (dg_mycnf){0};
}
