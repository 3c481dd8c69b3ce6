/*
 * backend.c - what all backends share: the registry, URL parsing and redaction, value
 * conversions, small query helpers, and the helpers backends use alike (option tables,
 * password scrubbing, the monitor's reconnect). Nothing here knows a particular database.
 *
 * Layout: registry, URLs, values, helpers for callers, helpers for backends.
 */
#include "backend/backend.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static const dg_backend_entry catalog[] = {
    {"sqlite", "libsqlite3-dev", &dg_backend_sqlite},
    {"postgres", "libpq-dev", PG_BE},
    {"mysql", "libmariadb-dev", MY_BE},
    {"firebird", "firebird-dev", FB_BE},
};
#define NCATALOG (sizeof catalog / sizeof catalog[0])

const dg_backend_entry *dg_backend_catalog(size_t *n)
{
    *n = NCATALOG;
    return catalog;
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
    c->url_redacted = c->data_path = NULL;
}

/* ---- URLs ------------------------------------------------------------------------------ */

/* Decodes %XX escapes (user names, passwords and parameters may contain them). */
static char *pct_decode(const char *s, size_t n)
{
    char *out = xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
            isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            out[j++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            out[j++] = s[i];
        }
    }
    out[j] = '\0';
    return out;
}

char *dg_url_redact(const char *url)
{
    /* scheme://user:PASSWORD@host... -> scheme://user:***@host... */
    const char *p = strstr(url, "://");
    if (!p)
        return xstrdup(url);
    const char *auth = p + 3;
    const char *end = auth + strcspn(auth, "/?");
    const char *at = NULL;
    for (const char *q = auth; q < end; q++)
        if (*q == '@')
            at = q; /* the last '@' before the path ends the user info */
    dg_strbuf sb = DG_STRBUF_INIT;
    if (at) {
        const char *colon = memchr(auth, ':', (size_t)(at - auth));
        if (colon) {
            dg_sb_addn(&sb, url, (size_t)(colon + 1 - url));
            dg_sb_add(&sb, "***");
            dg_sb_add(&sb, at);
        } else {
            dg_sb_add(&sb, url);
        }
    } else {
        dg_sb_add(&sb, url);
    }
    /* password=... in the query string */
    char *s = dg_sb_take(&sb);
    char *pw = strstr(s, "password=");
    if (pw && (pw[-1] == '?' || pw[-1] == '&')) {
        char *vend = pw + 9 + strcspn(pw + 9, "&");
        dg_strbuf r = DG_STRBUF_INIT;
        dg_sb_addn(&r, s, (size_t)(pw + 9 - s));
        dg_sb_add(&r, "***");
        dg_sb_add(&r, vend);
        free(s);
        s = dg_sb_take(&r);
    }
    return s;
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

static void parse_query(dg_url *u, const char *q)
{
    while (*q) {
        size_t n = strcspn(q, "&");
        const char *eq = memchr(q, '=', n);
        if (n > 0) {
            u->params = xrealloc(u->params, sizeof *u->params * (size_t)(u->nparams + 1));
            dg_setting *st = &u->params[u->nparams++];
            if (eq) {
                st->name = pct_decode(q, (size_t)(eq - q));
                st->value = pct_decode(eq + 1, n - (size_t)(eq + 1 - q));
            } else {
                st->name = pct_decode(q, n);
                st->value = xstrdup("");
            }
        }
        q += n;
        if (*q == '&')
            q++;
    }
}

int dg_url_parse(const char *url, dg_url *out, dg_err *err)
{
    dg_url u;
    memset(&u, 0, sizeof u);
    u.redacted = dg_url_redact(url);
    const char *colon = strchr(url, ':');
    if (!colon || colon == url) {
        dg_err_fail(err, DG_E_INVAL,
                    "invalid database URL '%s': expected SCHEME:..., e.g. sqlite:bench.db or "
                    "postgres://user@localhost/db",
                    u.redacted);
        dg_url_free(&u);
        return DG_E_INVAL;
    }
    char *scheme = xstrndup(url, (size_t)(colon - url));
    for (char *p = scheme; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    u.scheme = xstrdup(canonical_scheme(scheme));
    free(scheme);
    const char *rest = colon + 1;

    if (strncmp(rest, "//", 2) != 0) {
        /* sqlite:PATH, sqlite::memory:, firebird:PATH (embedded) */
        if (!*rest) {
            dg_err_fail(err, DG_E_INVAL, "invalid database URL '%s': missing path", u.redacted);
            dg_url_free(&u);
            return DG_E_INVAL;
        }
        const char *q = strchr(rest, '?');
        if (q && strcmp(rest, ":memory:") != 0) {
            u.path = xstrndup(rest, (size_t)(q - rest));
            parse_query(&u, q + 1);
        } else {
            u.path = xstrdup(rest);
        }
        *out = u;
        return 0;
    }

    /* scheme://[user[:password]@][host][:port][/path][?query] */
    const char *auth = rest + 2;
    const char *auth_end = auth + strcspn(auth, "/?");
    const char *at = NULL;
    for (const char *p = auth; p < auth_end; p++)
        if (*p == '@')
            at = p;
    const char *hostpart = auth;
    if (at) {
        const char *pc = memchr(auth, ':', (size_t)(at - auth));
        if (pc) {
            u.user = pct_decode(auth, (size_t)(pc - auth));
            u.password = pct_decode(pc + 1, (size_t)(at - pc - 1));
        } else {
            u.user = pct_decode(auth, (size_t)(at - auth));
        }
        hostpart = at + 1;
    }
    const char *hp_end = auth_end;
    const char *port_colon = NULL;
    if (*hostpart == '[') { /* [::1]:5432 */
        const char *rb = memchr(hostpart, ']', (size_t)(hp_end - hostpart));
        if (rb) {
            u.host = xstrndup(hostpart + 1, (size_t)(rb - hostpart - 1));
            if (rb + 1 < hp_end && rb[1] == ':')
                port_colon = rb + 1;
        }
    } else {
        port_colon = memchr(hostpart, ':', (size_t)(hp_end - hostpart));
        const char *h_end = port_colon ? port_colon : hp_end;
        if (h_end > hostpart)
            u.host = pct_decode(hostpart, (size_t)(h_end - hostpart));
    }
    if (port_colon) {
        char *ps = xstrndup(port_colon + 1, (size_t)(hp_end - port_colon - 1));
        char *e;
        errno = 0;
        long port = strtol(ps, &e, 10);
        bool bad = !*ps || *e || errno || port < 1 || port > 65535;
        free(ps);
        if (bad) {
            dg_err_fail(err, DG_E_INVAL, "invalid database URL '%s': bad port", u.redacted);
            dg_url_free(&u);
            return DG_E_INVAL;
        }
        u.port = (int)port;
    }
    const char *path = auth_end;
    const char *q = strchr(path, '?');
    const char *path_end = q ? q : path + strlen(path);
    if (*path == '/') {
        /* postgres://h/db -> "db"; firebird://h//abs/x.fdb -> "/abs/x.fdb" */
        if (path_end - path > 1)
            u.path = pct_decode(path + 1, (size_t)(path_end - path - 1));
    }
    if (q)
        parse_query(&u, q + 1);
    *out = u;
    return 0;
}

int dg_connect(const char *url, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    dg_url u;
    int rc = dg_url_parse(url, &u, err);
    if (rc)
        return rc;
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
                             "firebird)",
                             u.scheme, u.redacted);
        dg_url_free(&u);
        return rc;
    }
    static const dg_connopts none;
    dg_conn *c = NULL;
    rc = be->connect(&u, opts ? opts : &none, &c, err);
    if (rc == 0) {
        c->be = be;
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

static int64_t pow10i(int n)
{
    int64_t p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
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
        int64_t p = pow10i(v->u.n.scale);
        int64_t u = v->u.n.unscaled;
        const char *sign = u < 0 ? "-" : "";
        uint64_t a = u < 0 ? (uint64_t)0 - (uint64_t)u : (uint64_t)u;
        if (v->u.n.scale > 0) {
            char frac[24];
            snprintf(frac, sizeof frac, "%019" PRIu64, a % (uint64_t)p);
            snprintf(buf, len, "%s%" PRIu64 ".%s", sign, a / (uint64_t)p,
                     frac + 19 - (v->u.n.scale > 18 ? 18 : v->u.n.scale));
        }
        else
            snprintf(buf, len, "%s%" PRIu64, sign, a);
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

int dg_query_int(dg_conn *c, const char *sql, const dg_value *params, int n, int64_t *out,
                 bool *found, dg_err *err)
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
            dg_value v;
            dg_column(s, 0, &v);
            got = dg_value_as_int(&v, out);
            dg_stmt_reset(s);
        }
    }
    dg_stmt_free(s);
    if (rc == 0 && found)
        *found = got;
    return rc;
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
