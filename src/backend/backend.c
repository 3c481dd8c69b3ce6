/*
 * backend.c - what all backends share: the registry, URL parsing and redaction, value
 * conversions, small query helpers, and the helpers backends use alike (option tables,
 * password scrubbing, the monitor's reconnect). Nothing here knows a particular database.
 *
 * Layout: registry, URLs, values, helpers for callers, helpers for backends.
 */
#include "backend/backend.h"
#include "backend/nodes.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The registry: every backend dbgauge knows, built or not. DG_HAVE_<NAME> comes from the
 * build (CMakeLists.txt adds a backend's sources only when its client library is found);
 * this is the one place that reads it. */
extern const dg_backend dg_backend_sqlite;
#ifdef DG_HAVE_POSTGRES
extern const dg_backend dg_backend_postgres;
#define PG_BE (&dg_backend_postgres)
#else
#define PG_BE NULL
#endif
#ifdef DG_HAVE_MYSQL
extern const dg_backend dg_backend_mysql;
#define MY_BE (&dg_backend_mysql)
#else
#define MY_BE NULL
#endif
#ifdef DG_HAVE_FIREBIRD
extern const dg_backend dg_backend_firebird;
#define FB_BE (&dg_backend_firebird)
#else
#define FB_BE NULL
#endif

#ifdef DG_HAVE_ODBC
extern const dg_backend dg_backend_odbc;
#define ODBC_BE (&dg_backend_odbc)
#else
#define ODBC_BE NULL
#endif

static const dg_backend_entry catalog[] = {
    {"sqlite", "libsqlite3-dev", &dg_backend_sqlite},
    {"postgres", "libpq-dev", PG_BE},
    {"mysql", "libmariadb-dev", MY_BE},
    {"firebird", "firebird-dev", FB_BE},
    {"odbc", "unixodbc-dev", ODBC_BE},
};
#define NCATALOG (sizeof catalog / sizeof catalog[0])

const dg_backend_entry *dg_backend_catalog(size_t *n)
{
    *n = NCATALOG;
    return catalog;
}

int dg_backend_names_where(bool (*keep)(const dg_backend *be, const void *arg), const void *arg,
                           char *buf, size_t len)
{
    const char *names[NCATALOG];
    size_t k = 0;
    for (size_t i = 0; i < NCATALOG; i++)
        if (catalog[i].be && keep(catalog[i].be, arg))
            names[k++] = catalog[i].name;
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < k && at < len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == k ? " and " : ", ";
        int w = snprintf(buf + at, len - at, "%s%s", sep, names[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    return (int)k;
}

static bool has_caps(const dg_backend *be, const void *caps)
{
    unsigned want = *(const unsigned *)caps;
    return (be->caps & want) == want;
}

int dg_backend_names_with(unsigned caps, char *buf, size_t len)
{
    return dg_backend_names_where(has_caps, &caps, buf, len);
}

/* Scheme aliases users type. */
static const char *canonical_scheme(const char *s)
{
    static const struct {
        const char *alias, *name;
    } aliases[] = {
        {"sqlite3", "sqlite"},     {"postgresql", "postgres"}, {"pg", "postgres"},
        {"mariadb", "mysql"},      {"fb", "firebird"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(s, aliases[i].alias))
            return aliases[i].name;
    return s;
}

const dg_backend_entry *dg_backend_lookup(const char *scheme)
{
    const char *name = canonical_scheme(scheme);
    for (size_t i = 0; i < NCATALOG; i++)
        if (!strcmp(catalog[i].name, name))
            return &catalog[i];
    return NULL;
}

const dg_backend *dg_backend_for_scheme(const char *scheme)
{
    const dg_backend_entry *e = dg_backend_lookup(scheme);
    return e ? e->be : NULL;
}

void dg_conn_base_free(dg_conn *c)
{
    free(c->url_redacted);
    free(c->data_path);
    free(c->server_dir);
    free(c->server_pid_file);
    c->url_redacted = c->data_path = c->server_dir = c->server_pid_file = NULL;
}

/* ---- URLs ------------------------------------------------------------------------------ */

/*
 * Redaction works on byte ranges ("spans") of the text as given. The parser records where
 * each secret is (the user-info password, the value of every parameter whose decoded name
 * is "password"), and the redacted form is the text with those ranges replaced by "***",
 * every other byte kept, so a URL without a password comes back unchanged. A text that does
 * not parse gets conservative spans on top (mask_conservatively): then anything that looks
 * like a password is masked, at the price of masking too much.
 */
typedef struct span {
    size_t off, len; /* into the text being redacted */
} span;

typedef struct spans {
    span *v;
    int n;
} spans;

static void spans_add(spans *s, size_t off, size_t len)
{
    s->v = xrealloc(s->v, sizeof *s->v * (size_t)(s->n + 1));
    s->v[s->n].off = off;
    s->v[s->n].len = len;
    s->n++;
}

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Appends text[0..n) to sb with every span replaced by "***"; spans that overlap or touch
 * become one "***". Sorts s. */
static void add_masked(dg_strbuf *sb, const char *text, size_t n, spans *s)
{
    if (s->n > 1)
        qsort(s->v, (size_t)s->n, sizeof *s->v, span_cmp);
    size_t pos = 0;
    for (int i = 0; i < s->n; i++) {
        size_t off = s->v[i].off, end = off + s->v[i].len;
        if (end > n)
            end = n;
        if (i > 0 && off <= pos) {
            if (end > pos)
                pos = end;
            continue;
        }
        dg_sb_addn(sb, text + pos, off - pos);
        dg_sb_add(sb, "***");
        pos = end;
    }
    dg_sb_addn(sb, text + pos, n - pos);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes the %XX escapes of s[0..n) (user names, passwords, hosts, paths and parameters
 * may hold them) into *out (caller frees). Returns false, *out untouched, when a '%' is not
 * followed by two hex digits or escapes the NUL byte (which would cut the value short).
 * With lenient set, such a '%' is kept as it is and the call always succeeds. */
static bool pct_decode_mode(const char *s, size_t n, bool lenient, char **out)
{
    char *d = xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            d[j++] = s[i];
            continue;
        }
        int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
        int lo = i + 2 < n ? hexval(s[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            if (!lenient) {
                free(d);
                return false;
            }
            d[j++] = s[i];
            continue;
        }
        d[j++] = (char)(hi * 16 + lo);
        i += 2;
    }
    d[j] = '\0';
    *out = d;
    return true;
}

static bool pct_decode(const char *s, size_t n, char **out)
{
    return pct_decode_mode(s, n, false, out);
}

/* Decoded names of the URL parameters that carry a password. Compared without case: a
 * backend that does not know "PASSWORD" may still pass it on (as a SET, a PRAGMA ...). */
static bool is_password_param(const char *decoded_name)
{
    return !strcasecmp(decoded_name, "password");
}

/* What a text that did not parse may hide, as spans of text[0..n): a "user:pass@" user
 * info (up to the LAST '@', wherever it is, after "://" or from the start), and the value
 * of any parameter-like NAME=VALUE after '?', '&' or ';' whose name (decoded where it can
 * be) contains "pass" or "pwd". */
static void mask_conservatively(const char *text, size_t n, spans *sp)
{
    const char *sep = NULL;
    for (size_t i = 0; i + 3 <= n && !sep; i++)
        if (!memcmp(text + i, "://", 3))
            sep = text + i;
    size_t a = sep ? (size_t)(sep - text) + 3 : 0;
    size_t at = n;
    for (size_t i = a; i < n; i++)
        if (text[i] == '@')
            at = i;
    if (at < n) {
        const char *colon = memchr(text + a, ':', at - a);
        if (colon)
            spans_add(sp, (size_t)(colon + 1 - text), at - (size_t)(colon + 1 - text));
    }
    for (size_t i = 0; i < n; i++) {
        if (text[i] != '?' && text[i] != '&' && text[i] != ';')
            continue;
        size_t name = i + 1, e = name;
        while (e < n && !strchr("=&;?", text[e]))
            e++;
        if (e >= n || text[e] != '=')
            continue;
        size_t v = e + 1, ve = v;
        while (ve < n && text[ve] != '&' && text[ve] != ';')
            ve++;
        char *dn;
        pct_decode_mode(text + name, e - name, true, &dn);
        for (char *c = dn; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strstr(dn, "pass") || strstr(dn, "pwd"))
            spans_add(sp, v, ve - v);
        free(dn);
    }
}

/* Parses ?k=v&... (q points after the '?') into u->params; the values of password
 * parameters become spans (offsets from base). Returns NULL or why the query is refused. */
static const char *parse_query(dg_url *u, const char *base, const char *q, spans *sp)
{
    while (*q) {
        size_t n = strcspn(q, "&");
        if (n > 0) {
            const char *eq = memchr(q, '=', n);
            if (!eq)
                return "a parameter without '=' (expected ?NAME=VALUE&NAME=VALUE)";
            if (eq == q)
                return "a parameter without a name (expected ?NAME=VALUE&NAME=VALUE)";
            size_t nlen = (size_t)(eq - q);
            char *name, *value;
            if (!pct_decode(q, nlen, &name))
                return "bad %-escape in a parameter name (expected %XX with two hex digits, "
                       "not %00)";
            if (is_password_param(name))
                spans_add(sp, (size_t)(eq + 1 - base), n - nlen - 1);
            if (!pct_decode(eq + 1, n - nlen - 1, &value)) {
                free(name);
                return "bad %-escape in a parameter value (expected %XX with two hex digits, "
                       "not %00)";
            }
            u->params = xrealloc(u->params, sizeof *u->params * (size_t)(u->nparams + 1));
            u->params[u->nparams].name = name;
            u->params[u->nparams].value = value;
            u->nparams++;
        }
        q += n;
        if (*q == '&')
            q++;
    }
    return NULL;
}

static size_t url_start(const char *text, size_t i);

/* An ODBC connection string's secrets (rest[0..n), inside url): the value of PWD= or
 * Password= (any case; a {braced} value's inside, "}}" standing for '}') becomes a span
 * and u->password, UID= or User= u->user. */
static const char *odbc_secrets(const char *url, const char *rest, size_t n, dg_url *u, spans *sp)
{
    const char *why = NULL;
    size_t i = 0;
    while (i < n) {
        while (i < n && (rest[i] == ';' || rest[i] == ' '))
            i++;
        size_t name = i;
        while (i < n && rest[i] != '=' && rest[i] != ';')
            i++;
        if (i >= n || rest[i] != '=')
            continue;
        size_t name_len = i - name;
        while (name_len && rest[name + name_len - 1] == ' ')
            name_len--;
        size_t v = ++i, vlen;
        if (i < n && rest[i] == '{') { /* {value}: up to the '}' that is not "}}" */
            v = ++i;
            while (i < n && !(rest[i] == '}' && (i + 1 >= n || rest[i + 1] != '}')))
                i += rest[i] == '}' ? 2 : 1;
            vlen = (i < n ? i : n) - v;
            if (i < n) {
                i++;
            } else if (!why) { /* no closing '}': the rest of the string is the value */
                why = "a '{' without its '}' in the connection string (a '}' inside braces is "
                      "written '}}')";
                spans_add(sp, (size_t)(rest + v - url), n - v); /* whatever it holds */
            }
            while (i < n && rest[i] != ';')
                i++;
        } else {
            while (i < n && rest[i] != ';')
                i++;
            vlen = i - v;
        }
        bool pw = (name_len == 3 && !strncasecmp(rest + name, "PWD", 3)) ||
                  (name_len == 8 && !strncasecmp(rest + name, "PASSWORD", 8));
        bool user = (name_len == 3 && !strncasecmp(rest + name, "UID", 3)) ||
                    (name_len == 4 && !strncasecmp(rest + name, "USER", 4));
        if (!pw && !user)
            continue;
        char *val = NULL;
        if (!pct_decode(rest + v, vlen, &val))
            val = xstrndup(rest + v, vlen);
        size_t w = 0; /* "}}" -> '}' */
        for (size_t r = 0; val[r]; r++) {
            val[w++] = val[r];
            if (val[r] == '}' && val[r + 1] == '}')
                r++;
        }
        val[w] = '\0';
        if (pw) {
            spans_add(sp, (size_t)(rest + v - url), vlen);
            free(u->password);
            u->password = val;
        } else {
            free(u->user);
            u->user = val;
        }
    }
    return why;
}

/* One host[:port] or [v6][:port] in [h, end): *host (NULL when empty) and *port (0 when
 * absent). Returns NULL or why it is refused. */
static const char *parse_host(const char *h, const char *end, char **host, int *port)
{
    const char *port_colon = NULL;
    if (h < end && *h == '[') { /* [::1]:5432 */
        const char *rb = memchr(h, ']', (size_t)(end - h));
        if (!rb)
            return "unclosed '[' in the host (an IPv6 address is written [::1])";
        if (rb == h + 1)
            return "empty IPv6 address '[]'";
        if (rb + 1 < end && rb[1] != ':')
            return "unexpected text after ']' (expected :PORT, '/' or '?')";
        *host = xstrndup(h + 1, (size_t)(rb - h - 1));
        if (rb + 1 < end)
            port_colon = rb + 1;
    } else {
        port_colon = end > h ? memchr(h, ':', (size_t)(end - h)) : NULL;
        const char *h_end = port_colon ? port_colon : end;
        if (h_end > h && !pct_decode(h, (size_t)(h_end - h), host))
            return "bad %-escape in the host (expected %XX with two hex digits, not %00)";
    }
    if (port_colon) {
        const char *ps = port_colon + 1;
        size_t plen = (size_t)(end - ps);
        long p = 0;
        bool bad = plen == 0 || plen > 5;
        for (size_t i = 0; i < plen && !bad; i++) {
            bad = !isdigit((unsigned char)ps[i]);
            p = p * 10 + (ps[i] - '0');
        }
        if (bad || p < 1 || p > 65535)
            return "bad port";
        *port = (int)p;
    }
    return NULL;
}

/* Takes ?place= (where the terminals of a URL with several hosts go) out of u's
 * parameters into u->place: it is dbgauge's, not the backend's. */
static const char *take_place(dg_url *u)
{
    int k = 0;
    const char *why = NULL;
    for (int i = 0; i < u->nparams; i++) {
        dg_setting *p = &u->params[i];
        if (strcasecmp(p->name, "place") != 0) {
            u->params[k++] = *p;
            continue;
        }
        if (!strcasecmp(p->value, "terminal"))
            u->place = DG_PLACE_TERMINAL;
        else if (!strcasecmp(p->value, "first"))
            u->place = DG_PLACE_FIRST;
        else if (!strcasecmp(p->value, "random"))
            u->place = DG_PLACE_RANDOM;
        else
            why = "?place= takes terminal (terminal t on host t mod n, the default), first "
                  "(the first host that answers, the next on failure) or random";
        free((char *)p->name);
        free((char *)p->value);
    }
    u->nparams = k;
    return why;
}

#define NO_SCHEME                                                                          \
    "expected SCHEME:..., e.g. sqlite:bench.db or postgres://user@localhost/db"

/* Parses url into u's fields (not u->redacted) and records the spans of its secrets.
 * Returns NULL, or why the URL is refused: a fixed text that never quotes the URL. On
 * failure u holds what was parsed so far (dg_url_free frees it). */
static const char *parse_url(const char *url, dg_url *u, spans *sp)
{
    const char *colon = strchr(url, ':');
    if (!colon || colon == url)
        return NO_SCHEME;
    char *scheme = xstrndup(url, (size_t)(colon - url));
    for (char *p = scheme; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    u->scheme = xstrdup(canonical_scheme(scheme));
    free(scheme);
    const char *rest = colon + 1;

    if (strncmp(rest, "//", 2) != 0) {
        /* sqlite:PATH, sqlite::memory:, firebird:PATH, firebird:HOST/PORT:PATH */
        size_t plen = strcspn(rest, "?");
        if (plen == 0)
            return "missing path";
        /* "pg:postgres://u:pw@h/db" is a label glued to a URL, not a path: taken as one,
         * libpq would reach the local socket instead of h, and nothing in it is a password
         * to the parser */
        const char *inner = strstr(rest, "://");
        if (url_start(rest, 0) || (inner && (size_t)(inner - rest) < plen))
            return "a URL after the scheme: a label (NAME:URL) belongs in a --vary list, and "
                   "no label may be a scheme name; write the URL alone";
        if (!strcmp(u->scheme, "odbc")) { /* odbc:CONNECTION-STRING */
            const char *why = odbc_secrets(url, rest, plen, u, sp);
            if (why)
                return why;
            if (!pct_decode(rest, plen, &u->path))
                return "bad %-escape in the connection string (expected %XX with two hex digits, "
                       "not %00; write a '%' as %25)";
            return rest[plen] == '?' ? parse_query(u, url, rest + plen + 1, sp) : NULL;
        }
        const char *at = memchr(rest, '@', plen);
        if (at && memchr(rest, ':', (size_t)(at - rest)) && !memchr(rest, '/', (size_t)(at - rest)))
            return "user info (user:password@) in a path form: write the password with "
                   "?password=, --password-file or DBGAUGE_PASSWORD";
        if (!pct_decode(rest, plen, &u->path))
            return "bad %-escape in the path (expected %XX with two hex digits, not %00; "
                   "write a '%' as %25)";
        return rest[plen] == '?' ? parse_query(u, url, rest + plen + 1, sp) : NULL;
    }
    if (strchr(rest, '#'))
        return "a '#' (URLs to a database have no fragment): write a '#' in a password, "
               "name or value as %23";

    /* scheme://[user[:password]@][host][:port][/path][?query] */
    const char *auth = rest + 2;
    const char *auth_end = auth + strcspn(auth, "/?");
    const char *at = NULL;
    for (const char *p = auth; p < auth_end; p++)
        if (*p == '@')
            at = p; /* the last '@' ends the user info: a password may hold an '@' */
    const char *hostpart = at ? at + 1 : auth;
    if (!at && strchr(auth_end, '@')) {
        /* "u:se/cret@h": a '/' or '?' in the password ended the host part early, and the
         * password would be read as a port (or a path). Refuse rather than guess. */
        bool colon_out = false;
        int depth = 0;
        for (const char *p = auth; p < auth_end; p++) {
            depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
            colon_out |= *p == ':' && depth == 0;
        }
        if (colon_out)
            return "'@' after the host: write a '/' or '?' in a password as %2F or %3F, and "
                   "an '@' in a path or parameter as %40";
    }
    if (at) {
        const char *pc = memchr(auth, ':', (size_t)(at - auth));
        const char *uend = pc ? pc : at;
        if (!pct_decode(auth, (size_t)(uend - auth), &u->user))
            return "bad %-escape in the user name (expected %XX with two hex digits, not %00)";
        if (pc) {
            spans_add(sp, (size_t)(pc + 1 - url), (size_t)(at - pc - 1));
            if (!pct_decode(pc + 1, (size_t)(at - pc - 1), &u->password))
                return "bad %-escape in the password (expected %XX with two hex digits, not "
                       "%00)";
        }
    }
    /* host[:port] or h1:p1,h2:p2,... (a cluster: PostgreSQL and MySQL only) */
    const char *h = hostpart;
    for (;;) {
        const char *h_end = dg_url_host_end(h, auth_end);
        char *host = NULL;
        int port = 0;
        const char *why = parse_host(h, h_end, &host, &port);
        if (why) {
            free(host);
            return why;
        }
        if (u->nnodes++ == 0) {
            u->host = host;
            u->port = port;
        } else {
            bool empty = !host || !*host;
            free(host);
            if (empty)
                return "an empty host in the host list (expected h1:p1,h2:p2)";
        }
        if (h_end == auth_end)
            break;
        h = h_end + 1;
    }
    if (u->nnodes > 1) {
        if (!u->host || !*u->host)
            return "an empty host in the host list (expected h1:p1,h2:p2)";
        if (strcmp(u->scheme, "postgres") && strcmp(u->scheme, "mysql"))
            return "several hosts in one URL (a cluster) are for postgres: and mysql: URLs";
        if (u->nnodes > DG_MAX_NODES)
            return "more than 16 hosts in one URL";
    }
    const char *path = auth_end;
    size_t plen = strcspn(path, "?");
    if (*path == '/' && plen > 1) {
        /* postgres://h/db -> "db"; firebird://h//abs/x.fdb -> "/abs/x.fdb" */
        if (!pct_decode(path + 1, plen - 1, &u->path))
            return "bad %-escape in the path (expected %XX with two hex digits, not %00)";
    }
    const char *why = path[plen] == '?' ? parse_query(u, url, path + plen + 1, sp) : NULL;
    return why ? why : take_place(u);
}

/* Parses url into *u and records the spans of its secrets in *sp (offsets from url): exact
 * when the URL parses, conservative when it does not or when its form is one no backend
 * reads (an unknown scheme without "//"). Returns NULL or why the URL is refused. */
static const char *url_spans(const char *url, dg_url *u, spans *sp)
{
    memset(u, 0, sizeof *u);
    const char *why = parse_url(url, u, sp);
    const char *colon = strchr(url, ':');
    bool path_form = colon && strncmp(colon + 1, "//", 2) != 0;
    if (why || (path_form && !dg_backend_lookup(u->scheme)))
        mask_conservatively(url, strlen(url), sp);
    return why;
}

/* url_spans() and u->redacted. */
static const char *scan_url(const char *url, dg_url *u)
{
    spans sp = {NULL, 0};
    const char *why = url_spans(url, u, &sp);
    dg_strbuf sb = DG_STRBUF_INIT;
    add_masked(&sb, url, strlen(url), &sp);
    u->redacted = dg_sb_take(&sb);
    free(sp.v);
    return why;
}

char *dg_url_redact(const char *url)
{
    dg_url u;
    scan_url(url, &u);
    char *r = u.redacted;
    u.redacted = NULL;
    dg_url_free(&u);
    return r;
}

/* Overwrites every byte of every span of text with '*' (the length stays). */
static void fill_spans(char *text, const spans *sp)
{
    size_t n = strlen(text);
    for (int i = 0; i < sp->n; i++)
        for (size_t k = sp->v[i].off; k < sp->v[i].off + sp->v[i].len && k < n; k++)
            text[k] = '*';
}

void dg_url_scrub(char *url)
{
    dg_url u;
    spans sp = {NULL, 0};
    url_spans(url, &u, &sp);
    dg_url_free(&u);
    fill_spans(url, &sp);
    free(sp.v);
}

static bool is_scheme_char(char c)
{
    return isalnum((unsigned char)c) || c == '+' || c == '-' || c == '.';
}

/* Length of "SCHEME:" when a URL starts at text[i] (a scheme followed by "://", or a known
 * scheme followed by ':', not inside a longer word), else 0. */
static size_t url_start(const char *text, size_t i)
{
    if (!isalpha((unsigned char)text[i]) || (i > 0 && is_scheme_char(text[i - 1])))
        return 0;
    size_t j = i;
    while (is_scheme_char(text[j]))
        j++;
    if (text[j] != ':')
        return 0;
    if (strncmp(text + j + 1, "//", 2) == 0)
        return j + 1 - i;
    char *scheme = xstrndup(text + i, j - i);
    for (char *p = scheme; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    bool known = dg_backend_lookup(scheme) != NULL;
    free(scheme);
    return known ? j + 1 - i : 0;
}

/* True when a labelled URL, LABEL:URL as in --vary db=a:URL1,b:URL2, starts at text[i]
 * (LABEL a letter, then letters, digits, '_', '-' or '.'). */
static bool labelled_url_start(const char *text, size_t i)
{
    if (!isalpha((unsigned char)text[i]))
        return false;
    size_t j = i;
    while (isalnum((unsigned char)text[j]) || (text[j] && strchr("_-.", text[j])))
        j++;
    return text[j] == ':' && j > i && url_start(text, j + 1);
}

static bool is_secret_name(const char *lowered)
{
    size_t len = strlen(lowered);
    return (len >= 8 && !strcmp(lowered + len - 8, "password")) ||
           (len >= 6 && !strcmp(lowered + len - 6, "passwd")) ||
           (len >= 3 && !strcmp(lowered + len - 3, "pwd"));
}

/* The spans of text[from..to), which holds no URL: the VALUE of any NAME=VALUE whose name
 * ends in "password", "passwd" or "pwd" (PGPASSWORD=..., --conn password=..., PWD=...), and
 * the password of a "user:pass@" inside a word (a URL's user info without its scheme). */
static void free_text_spans(const char *text, size_t from, size_t to, spans *sp)
{
    for (size_t e = from; e < to; e++) {
        if (text[e] != '=')
            continue;
        size_t b = e;
        while (b > from && (isalnum((unsigned char)text[b - 1]) || strchr("_.-", text[b - 1])))
            b--;
        char *name = xstrndup(text + b, e - b);
        for (char *p = name; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        bool secret = is_secret_name(name);
        free(name);
        if (!secret)
            continue;
        size_t ve = e + 1;
        while (ve < to && !isspace((unsigned char)text[ve]) && !strchr("'\"`&;", text[ve]))
            ve++;
        spans_add(sp, e + 1, ve - e - 1);
        e = ve > e ? ve - 1 : e;
    }
    /* words: runs of bytes that are not white space or quotes */
    for (size_t w = from; w < to;) {
        while (w < to && (isspace((unsigned char)text[w]) || strchr("'\"`", text[w])))
            w++;
        size_t we = w;
        while (we < to && !isspace((unsigned char)text[we]) && !strchr("'\"`", text[we]))
            we++;
        size_t at = we;
        for (size_t k = w; k < we; k++)
            if (text[k] == '@')
                at = k;
        if (at < we) {
            /* the user name: after the last '/', '=' or ',' before the first ':' */
            size_t c = w;
            while (c < at && text[c] != ':')
                c++;
            if (c < at)
                spans_add(sp, c + 1, at - c - 1);
        }
        w = we;
    }
}

/* The spans of every secret of text: its URLs (SCHEME://..., or a known scheme followed by
 * ':') as url_spans() finds them, and free_text_spans() between them. A URL ends at white
 * space, a quote, or a ',' that starts another URL or LABEL:URL (--vary db=A,b:B). */
static void text_spans(const char *text, spans *sp)
{
    size_t n = strlen(text), done = 0, i = 0;
    while (i < n) {
        size_t sl = url_start(text, i);
        if (!sl) {
            i++;
            continue;
        }
        size_t e = i + sl;
        while (e < n && !isspace((unsigned char)text[e]) && !strchr("'\"`", text[e]) &&
               !(text[e] == ',' && (url_start(text, e + 1) || labelled_url_start(text, e + 1))))
            e++;
        free_text_spans(text, done, i, sp);
        char *url = xstrndup(text + i, e - i);
        dg_url u;
        spans us = {NULL, 0};
        url_spans(url, &u, &us);
        for (int k = 0; k < us.n; k++)
            spans_add(sp, i + us.v[k].off, us.v[k].len);
        free(us.v);
        dg_url_free(&u);
        free(url);
        done = i = e;
    }
    free_text_spans(text, done, n, sp);
}

char *dg_url_redact_text(const char *text)
{
    spans sp = {NULL, 0};
    text_spans(text, &sp);
    dg_strbuf sb = DG_STRBUF_INIT;
    add_masked(&sb, text, strlen(text), &sp);
    free(sp.v);
    return dg_sb_take(&sb);
}

void dg_url_scrub_text(char *text)
{
    spans sp = {NULL, 0};
    text_spans(text, &sp);
    fill_spans(text, &sp);
    free(sp.v);
}

/* The password of URLs that carry none (--password-file, DBGAUGE_PASSWORD); owned here. */
static char *default_password;

void dg_url_set_default_password(const char *password)
{
    free(default_password);
    default_password = password ? xstrdup(password) : NULL;
}

void dg_url_free(dg_url *u)
{
    if (!u)
        return;
    free(u->scheme);
    free(u->user);
    free(u->password);
    free(u->host);
    free(u->path);
    for (int i = 0; i < u->nparams; i++) {
        free((char *)u->params[i].name);
        free((char *)u->params[i].value);
    }
    free(u->params);
    free(u->redacted);
    memset(u, 0, sizeof *u);
}

int dg_url_parse(const char *url, dg_url *out, dg_err *err)
{
    dg_url u;
    const char *why = scan_url(url, &u);
    if (why) {
        dg_err_fail(err, DG_E_INVAL, "invalid database URL '%s': %s", u.redacted, why);
        dg_url_free(&u);
        return DG_E_INVAL;
    }
    bool has_password = u.password != NULL;
    for (int i = 0; i < u.nparams && !has_password; i++)
        has_password = is_password_param(u.params[i].name);
    const dg_backend *be = dg_backend_for_scheme(u.scheme);
    if (!has_password && default_password && !(be && (be->caps & DG_CAP_NO_LOGIN)))
        u.password = xstrdup(default_password);
    *out = u;
    return 0;
}

int dg_connect(const char *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    dg_url u;
    int rc = dg_url_parse(url, &u, err);
    if (rc)
        return rc;
    if (u.nnodes > 1) { /* a cluster: the first host that answers */
        dg_url_free(&u);
        dg_nodelist nl;
        if ((rc = dg_url_nodes(url, &nl, err)) == 0)
            rc = dg_connect_first(&nl, opts, out, err);
        dg_nodelist_free(&nl);
        return rc;
    }
    const dg_backend_entry *entry = dg_backend_lookup(u.scheme);
    const dg_backend *be = entry ? entry->be : NULL;
    if (!be) {
        if (entry)
            rc = dg_err_fail(err, DG_E_UNSUPPORTED,
                             "this dbgauge was built without the %s backend: install %s "
                             "(apt-get install %s) and rebuild",
                             entry->name, entry->package, entry->package);
        else
            rc = dg_err_fail(err, DG_E_INVAL,
                             "unknown database type '%s' in '%s' (known: sqlite, postgres, mysql, "
                             "firebird, odbc)",
                             u.scheme, u.redacted);
        dg_url_free(&u);
        return rc;
    }
    static const dg_connopts none;
    dg_conn *c = NULL;
    rc = be->connect(&u, opts ? opts : &none, &c, err);
    if (rc == 0) {
        c->be = be;
        if (!c->dialect) /* a backend may speak the dialect of the engine it reached (ODBC) */
            c->dialect = be->dialect;
        c->url_redacted = xstrdup(u.redacted);
        c->caps |= be->caps;
        c->in_tx = false;
        *out = c;
    }
    dg_url_free(&u);
    return rc;
}

/* ---- values ---------------------------------------------------------------------------- */

dg_value dg_vstr(const char *s)
{
    return dg_vtext(s, strlen(s));
}

const int64_t dg_pow10[19] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
    INT64_C(10000000000), INT64_C(100000000000), INT64_C(1000000000000),
    INT64_C(10000000000000), INT64_C(100000000000000), INT64_C(1000000000000000),
    INT64_C(10000000000000000), INT64_C(100000000000000000), INT64_C(1000000000000000000)};

static int64_t pow10i(int n)
{
    return dg_pow10[n < 0 ? 0 : n > 18 ? 18 : n];
}

bool dg_value_as_int(const dg_value *v, int64_t *out)
{
    switch (v->type) {
    case DG_V_INT:
        *out = v->u.i;
        return true;
    case DG_V_DOUBLE:
        *out = (int64_t)v->u.d;
        return true;
    case DG_V_NUMERIC:
        *out = v->u.n.unscaled / pow10i(v->u.n.scale);
        return true;
    case DG_V_TEXT: {
        char buf[64];
        size_t n = v->u.s.len < sizeof buf - 1 ? v->u.s.len : sizeof buf - 1;
        memcpy(buf, v->u.s.ptr, n);
        buf[n] = '\0';
        char *e;
        errno = 0;
        long long x = strtoll(buf, &e, 10);
        if (e == buf || errno)
            return false;
        if (*e == '.' || *e == 'e' || *e == 'E') {
            double d = strtod(buf, &e);
            if (*e)
                return false;
            x = (long long)d;
        } else if (*e) {
            return false;
        }
        *out = x;
        return true;
    }
    case DG_V_NULL:
        break;
    }
    return false;
}

bool dg_value_as_double(const dg_value *v, double *out)
{
    switch (v->type) {
    case DG_V_INT:
        *out = (double)v->u.i;
        return true;
    case DG_V_DOUBLE:
        *out = v->u.d;
        return true;
    case DG_V_NUMERIC:
        *out = (double)v->u.n.unscaled / (double)pow10i(v->u.n.scale);
        return true;
    case DG_V_TEXT: {
        char buf[64];
        size_t n = v->u.s.len < sizeof buf - 1 ? v->u.s.len : sizeof buf - 1;
        memcpy(buf, v->u.s.ptr, n);
        buf[n] = '\0';
        char *e;
        errno = 0;
        double d = strtod(buf, &e);
        if (e == buf || *e || errno)
            return false;
        *out = d;
        return true;
    }
    case DG_V_NULL:
        break;
    }
    return false;
}

uint64_t dg_value_bytes(const dg_value *v)
{
    switch (v->type) {
    case DG_V_TEXT:
        return v->u.s.len + 1;
    case DG_V_NULL:
        return 1;
    default:
        return 8;
    }
}

size_t dg_format_numeric(int64_t unscaled, int scale, char out[DG_NUMERIC_BUF])
{
    if (scale < 0)
        scale = 0;
    if (scale > 18)
        scale = 18;
    uint64_t a = unscaled < 0 ? (uint64_t)0 - (uint64_t)unscaled : (uint64_t)unscaled;
    char rev[20]; /* digits, least significant first: at least scale + 1 of them */
    int n = 0;
    do {
        rev[n++] = (char)('0' + a % 10);
        a /= 10;
    } while (a != 0 || n <= scale);
    size_t k = 0;
    if (unscaled < 0)
        out[k++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        out[k++] = rev[i];
        if (i == scale && scale > 0)
            out[k++] = '.';
    }
    out[k] = '\0';
    return k;
}

void dg_value_format(const dg_value *v, char *buf, size_t len)
{
    switch (v->type) {
    case DG_V_NULL:
        snprintf(buf, len, "NULL");
        break;
    case DG_V_INT:
        snprintf(buf, len, "%" PRId64, v->u.i);
        break;
    case DG_V_DOUBLE:
        snprintf(buf, len, "%.17g", v->u.d);
        break;
    case DG_V_NUMERIC: {
        char num[DG_NUMERIC_BUF];
        dg_format_numeric(v->u.n.unscaled, v->u.n.scale, num);
        snprintf(buf, len, "%s", num);
        break;
    }
    case DG_V_TEXT:
        snprintf(buf, len, "%.*s", (int)(v->u.s.len < len ? v->u.s.len : len - 1), v->u.s.ptr);
        break;
    }
}

void dg_server_info_add(dg_server_info *si, const char *name, const char *value)
{
    if (si->nsettings >= DG_MAX_SETTINGS)
        return;
    snprintf(si->settings[si->nsettings].name, sizeof si->settings[0].name, "%s", name);
    snprintf(si->settings[si->nsettings].value, sizeof si->settings[0].value, "%s",
             value ? value : "");
    si->nsettings++;
}

/* ---- helpers --------------------------------------------------------------------------- */

int dg_query_ints(dg_conn *c, const char *sql, const dg_value *params, int n, int64_t *out,
                  int ncols, bool *found, dg_err *err)
{
    dg_stmt *s = NULL;
    int rc = dg_prepare(c, sql, &s, err);
    if (rc)
        return rc;
    bool got = false;
    rc = dg_execute(s, params, n, err);
    if (rc == 0) {
        int r = dg_fetch(s, err);
        if (r < 0) {
            rc = r;
        } else if (r == 1) {
            got = true;
            for (int i = 0; i < ncols; i++) {
                dg_value v;
                dg_column(s, i, &v);
                got &= dg_value_as_int(&v, &out[i]);
            }
            dg_stmt_reset(s);
        }
    }
    dg_stmt_free(s);
    if (rc == 0 && found)
        *found = got;
    return rc;
}

int dg_query_int(dg_conn *c, const char *sql, const dg_value *params, int n, int64_t *out,
                 bool *found, dg_err *err)
{
    return dg_query_ints(c, sql, params, n, out, 1, found, err);
}

bool dg_host_is_local(const char *host)
{
    if (!host || !*host || host[0] == '/' || !strcmp(host, "localhost") || !strcmp(host, "::1") ||
        !strcmp(host, "[::1]"))
        return true;
    return !strncmp(host, "127.", 4);
}

void dg_conn_set_local_data(dg_conn *c, const char *dir)
{
    if (!dir || !*dir || access(dir, F_OK) != 0)
        return;
    free(c->data_path);
    c->data_path = xstrdup(dir);
}

void dg_conn_set_server_facts(dg_conn *c, const char *host, const char *dir, int pid)
{
    c->server_local = dg_host_is_local(host);
    c->server_pid = pid > 0 ? pid : 0;
    if (dir && *dir) {
        free(c->server_dir);
        c->server_dir = xstrdup(dir);
        if (c->server_local)
            dg_conn_set_local_data(c, dir);
    }
}

int dg_table_bytes(dg_conn *c, const char *table, int64_t *data_bytes, int64_t *index_bytes,
                   dg_err *err)
{
    *data_bytes = *index_bytes = -1;
    const char *sql = c->dialect->table_bytes_sql;
    if (!sql)
        return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                          "%s tells no table sizes in SQL", c->be->name);
    if (c->dialect->table_bytes_refresh) {
        char *refresh = xasprintf("%s%s", c->dialect->table_bytes_refresh, table);
        int rc = dg_exec(c, refresh, err);
        free(refresh);
        if (rc)
            return rc;
    }
    int n = dg_sql_count_params(sql);
    dg_value v[4];
    for (int i = 0; i < n && i < 4; i++)
        v[i] = dg_vstr(table);
    int64_t out[2];
    bool found = false;
    int rc = dg_query_ints(c, sql, v, n < 4 ? n : 4, out, 2, &found, err);
    if (rc == 0 && found) {
        *data_bytes = out[0];
        *index_bytes = out[1];
    }
    return rc;
}

int dg_object_stats(dg_conn *c, const char *const *tables, dg_objstat **out, int *n, dg_err *err)
{
    *out = NULL;
    *n = 0;
    const char *sql = c->dialect->object_stats_sql;
    if (!sql) {
        if (!c->be->object_stats)
            return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                              "%s tells no table and index statistics", c->be->name);
        int rc = c->be->object_stats(c, tables, out, n, err);
        if (rc) {
            free(*out);
            *out = NULL;
            *n = 0;
        }
        return rc;
    }
    dg_stmt *s = NULL;
    int rc = dg_prepare(c, sql, &s, err);
    if (rc)
        return rc;
    int np = dg_sql_count_params(sql);
    dg_value v[4];
    for (const char *const *t = tables; *t && rc == 0; t++) {
        for (int i = 0; i < np && i < 4; i++)
            v[i] = dg_vstr(*t);
        if ((rc = dg_execute(s, v, np < 4 ? np : 4, err)) != 0)
            break;
        int r;
        while ((r = dg_fetch(s, err)) == 1) {
            *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
            dg_objstat *o = &(*out)[(*n)++];
            memset(o, 0, sizeof *o);
            snprintf(o->table, sizeof o->table, "%s", *t);
            dg_value x;
            dg_column(s, 0, &x);
            dg_value_format(&x, o->name, sizeof o->name);
            char kind[16];
            dg_column(s, 1, &x);
            dg_value_format(&x, kind, sizeof kind);
            o->index = !strcmp(kind, "index");
            int64_t iv;
            dg_column(s, 2, &x);
            o->rows = dg_value_as_int(&x, &iv) && iv >= 0 ? iv : -1;
            dg_column(s, 3, &x);
            o->bytes = dg_value_as_int(&x, &iv) && iv >= 0 ? iv : -1;
            dg_column(s, 4, &x);
            o->depth = dg_value_as_int(&x, &iv) && iv > 0 ? (int)iv : -1;
        }
        if (r < 0)
            rc = r;
    }
    dg_stmt_free(s);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

int dg_user_tables(dg_conn *c, char ***out, dg_err *err)
{
    *out = NULL;
    const char *sql = c->dialect->user_tables_sql;
    if (!sql)
        return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                          "%s cannot list its tables", c->be->name);
    dg_stmt *s = NULL;
    int rc = dg_prepare(c, sql, &s, err);
    if (rc)
        return rc;
    char **names = xcalloc(1, sizeof *names);
    size_t n = 0;
    if ((rc = dg_execute(s, NULL, 0, err)) == 0) {
        int r;
        while ((r = dg_fetch(s, err)) == 1) {
            dg_value x;
            dg_column(s, 0, &x);
            char name[256];
            dg_value_format(&x, name, sizeof name);
            names = xrealloc(names, (n + 2) * sizeof *names);
            names[n++] = xstrdup(name);
            names[n] = NULL;
        }
        if (r < 0)
            rc = r;
    }
    dg_stmt_free(s);
    if (rc)
        dg_user_tables_free(names);
    else
        *out = names;
    return rc;
}

void dg_user_tables_free(char **tables)
{
    if (!tables)
        return;
    for (char **t = tables; *t; t++)
        free(*t);
    free(tables);
}

int dg_server_setting(dg_conn *c, const dg_server_info *si, const char *name, char *out,
                      size_t outlen, dg_err *err)
{
    out[0] = '\0';
    const dg_dialect *d = c->dialect;
    if (d->server_setting_sql) {
        dg_stmt *s = NULL;
        int rc = dg_prepare(c, d->server_setting_sql, &s, err);
        if (rc)
            return rc;
        dg_value p = dg_vstr(name);
        if ((rc = dg_execute(s, &p, 1, err)) == 0) {
            int r = dg_fetch(s, err);
            if (r < 0) {
                rc = r;
            } else if (r == 0) {
                rc = dg_err_fail(err, DG_E_NOTFOUND, "%s has no setting '%s'", c->be->name, name);
            } else {
                dg_value v;
                dg_column(s, 0, &v);
                dg_value_format(&v, out, outlen);
                dg_stmt_reset(s);
            }
        }
        dg_stmt_free(s);
        return rc;
    }
    for (const char *const *m = d->server_setting_info; m && m[0]; m += 2) {
        if (strcasecmp(m[0], name))
            continue;
        for (int i = 0; si && i < si->nsettings; i++)
            if (!strcmp(si->settings[i].name, m[1])) {
                snprintf(out, outlen, "%s", si->settings[i].value);
                return 0;
            }
    }
    return dg_err_set(err, DG_E_UNSUPPORTED, DG_EC_USER, 0, NULL,
                      "%s does not tell the value of '%s' to a client", c->be->name, name);
}

int dg_sql_count_params(const char *sql)
{
    int n = 0;
    for (const char *p = sql; *p; p++) {
        if (*p == '\'' || *p == '"') {
            char q = *p++;
            while (*p && *p != q)
                p++;
            if (!*p)
                break;
        } else if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            if (!*p)
                break;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                break;
            p = e + 1;
        } else if (*p == '?') {
            n++;
        }
    }
    return n;
}

/* ---- helpers for backends -------------------------------------------------------------- */

const dg_backend_option *dg_backend_option_find(const dg_backend *be, const char *name)
{
    for (const dg_backend_option *o = be->options; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

int dg_backend_option_enum(const dg_backend_option *opt, const char *value)
{
    int i = 0;
    for (const char *p = opt->values; p && *p; i++) {
        size_t n = strcspn(p, "|");
        if (n == strlen(value) && !strncasecmp(p, value, n))
            return i;
        p += n;
        if (*p == '|')
            p++;
    }
    return -1;
}

static int bool_index(const char *value)
{
    static const char *const words[] = {"1", "on", "true", "yes", "0", "off", "false", "no"};
    for (int i = 0; i < 8; i++)
        if (!strcasecmp(value, words[i]))
            return i;
    return -1;
}

bool dg_backend_option_bool(const char *value)
{
    int i = bool_index(value);
    return i >= 0 && i < 4;
}

int dg_backend_option_check(const dg_backend *be, const char *name, const char *value,
                            dg_err *err)
{
    const dg_backend_option *o = dg_backend_option_find(be, name);
    if (!o) {
        if (be->other_options)
            return 0;
        dg_strbuf known = DG_STRBUF_INIT;
        for (const dg_backend_option *k = be->options; k && k->name; k++)
            dg_sb_printf(&known, "%s%s", k == be->options ? "" : ", ", k->name);
        dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "unknown %s setting '%s' (known: %s)",
                   be->name, name, known.len ? dg_sb_str(&known) : "none");
        dg_sb_free(&known);
        return DG_E_INVAL;
    }
    if (!strcmp(o->type, "int")) {
        char *e;
        errno = 0;
        long long v = strtoll(value, &e, 10);
        if (!*value || *e || errno || v < o->min || v > o->max)
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                              "invalid value '%s' for %s setting '%s': expected an integer from "
                              "%lld to %lld",
                              value, be->name, name, o->min, o->max);
    } else if (!strcmp(o->type, "bool")) {
        if (bool_index(value) < 0)
            return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                              "invalid value '%s' for %s setting '%s': expected 1 or 0 (on/off, "
                              "true/false, yes/no)",
                              value, be->name, name);
    } else if (!strcmp(o->type, "enum")) {
        if (dg_backend_option_enum(o, value) < 0) {
            dg_strbuf list = DG_STRBUF_INIT;
            for (const char *p = o->values ? o->values : ""; *p; p++)
                if (*p == '|')
                    dg_sb_add(&list, ", ");
                else
                    dg_sb_addc(&list, *p);
            dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                       "invalid value '%s' for %s setting '%s': expected one of %s", value,
                       be->name, name, list.len ? dg_sb_str(&list) : "");
            dg_sb_free(&list);
            return DG_E_INVAL;
        }
    } else if (o->max > 0 && strlen(value) > (size_t)o->max) { /* text */
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "%s setting '%s' is too long (at most %lld bytes)", be->name, name,
                          o->max);
    }
    return 0;
}

int dg_backend_check_settings(const dg_backend *be, const dg_url *url, const dg_connopts *opts,
                              dg_err *err)
{
    int rc;
    for (int i = 0; i < url->nparams; i++)
        if ((rc = dg_backend_option_check(be, url->params[i].name, url->params[i].value, err)))
            return rc;
    for (int i = 0; opts && i < opts->nsettings; i++)
        if ((rc = dg_backend_option_check(be, opts->settings[i].name, opts->settings[i].value,
                                          err)))
            return rc;
    return 0;
}

char *dg_backend_secret(const char *password, const char *user, const char *db)
{
    if (!password || strlen(password) < 3 || (user && !strcmp(password, user)) ||
        (db && !strcmp(password, db)))
        return NULL;
    return xstrdup(password);
}

void dg_backend_scrub(dg_err *e, const char *secret)
{
    if (!e || !secret || !*secret)
        return;
    size_t n = strlen(secret);
    char *p;
    while ((p = strstr(e->msg, secret)) != NULL) {
        memmove(p + 3, p + n, strlen(p + n) + 1);
        memcpy(p, "***", 3);
    }
}

int dg_backend_with_reconnect(dg_conn *c, bool alive, int (*reopen)(dg_conn *c, dg_err *err),
                              int (*fn)(dg_conn *c, void *arg, dg_err *err), void *arg,
                              dg_err *err)
{
    int rc;
    if (!alive) {
        if (c->in_tx)
            return dg_err_set(err, DG_E_DB, DG_EC_CONN_LOST, 0, "08003",
                              "the connection was lost");
        if ((rc = reopen(c, err)) != 0)
            return rc;
    }
    dg_err e;
    dg_err_clear(&e);
    rc = fn(c, arg, &e);
    if (rc == 0)
        return 0;
    if (e.cls != DG_EC_CONN_LOST || c->in_tx) {
        if (err)
            *err = e;
        return rc;
    }
    if ((rc = reopen(c, err)) != 0)
        return rc;
    return fn(c, arg, err);
}
