/*
 * nodes.c - one URL per host of a URL that lists several (see nodes.h).
 */
#include "backend/nodes.h"

#include "core/strbuf.h"
#include "core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *dg_url_host_end(const char *h, const char *end)
{
    int depth = 0;
    for (const char *p = h; p < end; p++) {
        depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
        if (*p == ',' && depth <= 0)
            return p;
    }
    return end;
}

/* Appends the query q (after '?', up to the end) without its place= parameters. */
static void add_query_without_place(dg_strbuf *sb, const char *q)
{
    bool first = true;
    while (*q) {
        size_t n = strcspn(q, "&");
        bool place = n >= 6 && !strncasecmp(q, "place=", 6);
        if (n > 0 && !place) {
            dg_sb_add(sb, first ? "?" : "&");
            dg_sb_addn(sb, q, n);
            first = false;
        }
        q += n;
        if (*q == '&')
            q++;
    }
}

int dg_url_nodes(const char *url, dg_nodelist *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    dg_url u;
    int rc = dg_url_parse(url, &u, err);
    if (rc)
        return rc;
    out->place = u.place;
    int n = u.nnodes > 1 ? u.nnodes : 1;
    dg_url_free(&u);
    out->urls = xcalloc((size_t)n, sizeof *out->urls);
    out->names = xcalloc((size_t)n, sizeof *out->names);
    out->n = n;

    /* the parts around the host list, in the URL's own spelling */
    const char *colon = strchr(url, ':');
    const char *q = NULL, *hosts = NULL, *hosts_end = NULL;
    if (colon && !strncmp(colon + 1, "//", 2)) {
        const char *auth = colon + 3;
        hosts_end = auth + strcspn(auth, "/?");
        hosts = auth;
        for (const char *p = auth; p < hosts_end; p++)
            if (*p == '@')
                hosts = p + 1;
        q = strchr(hosts_end, '?');
    } else {
        q = strchr(url, '?');
    }
    const char *tail_end = q ? q : url + strlen(url);
    const char *h = hosts;
    for (int i = 0; i < n; i++) {
        dg_strbuf sb = DG_STRBUF_INIT;
        const char *he = hosts ? dg_url_host_end(h, hosts_end) : NULL;
        if (hosts) {
            dg_sb_addn(&sb, url, (size_t)(hosts - url));
            dg_sb_addn(&sb, h, (size_t)(he - h));
            dg_sb_addn(&sb, hosts_end, (size_t)(tail_end - hosts_end));
            out->names[i] = xstrndup(h, (size_t)(he - h));
            h = he + 1;
        } else {
            dg_sb_addn(&sb, url, (size_t)(tail_end - url));
            out->names[i] = xstrdup("");
        }
        if (q)
            add_query_without_place(&sb, q + 1);
        out->urls[i] = dg_sb_take(&sb);
    }
    return 0;
}

void dg_nodelist_free(dg_nodelist *nl)
{
    if (!nl)
        return;
    for (int i = 0; i < nl->n; i++) {
        if (nl->urls[i])
            memset(nl->urls[i], 0, strlen(nl->urls[i])); /* a password: not left in freed memory */
        free(nl->urls[i]);
        free(nl->names[i]);
    }
    free(nl->urls);
    free(nl->names);
    memset(nl, 0, sizeof *nl);
}

int dg_connect_first(const dg_nodelist *nl, const dg_connopts *opts, dg_conn **out, dg_err *err)
{
    if (nl->n == 1)
        return dg_connect(nl->urls[0], opts, out, err);
    dg_strbuf why = DG_STRBUF_INIT;
    int rc = 0;
    dg_errclass cls = DG_EC_FATAL;
    bool lost = false;
    for (int i = 0; i < nl->n; i++) {
        dg_err e;
        dg_err_clear(&e);
        rc = dg_connect(nl->urls[i], opts, out, &e);
        if (rc == 0) {
            dg_sb_free(&why);
            return 0;
        }
        lost |= e.cls == DG_EC_CONN_LOST;
        cls = e.cls;
        dg_sb_printf(&why, "%s%s: %s", i ? "; " : "", nl->names[i], e.msg);
    }
    rc = dg_err_set(err, DG_E_DB, lost ? DG_EC_CONN_LOST : cls, 0, "08001",
                    "no host of the URL accepted a connection (%s)", dg_sb_str(&why));
    dg_sb_free(&why);
    return rc;
}

/* True when a URL (SCHEME://) starts at s. */
static bool url_here(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return false;
    while (isalnum((unsigned char)*s) || *s == '+' || *s == '-' || *s == '.')
        s++;
    return !strncmp(s, "://", 3);
}

int dg_url_nodes_list(const char *list, dg_nodelist *out, dg_err *err)
{
    memset(out, 0, sizeof *out);
    const char *p = list;
    while (*p) {
        const char *e = p;
        while (*e && !(*e == ',' && url_here(e + 1)))
            e++;
        char *one = xstrndup(p, (size_t)(e - p));
        dg_nodelist part;
        int rc = dg_url_nodes(one, &part, err);
        free(one);
        if (rc) {
            dg_nodelist_free(out);
            return rc;
        }
        if (out->n + part.n > DG_MAX_NODES) {
            dg_nodelist_free(&part);
            dg_nodelist_free(out);
            return dg_err_fail(err, DG_E_INVAL, "more than %d hosts in one list", DG_MAX_NODES);
        }
        out->urls = xrealloc(out->urls, (size_t)(out->n + part.n) * sizeof *out->urls);
        out->names = xrealloc(out->names, (size_t)(out->n + part.n) * sizeof *out->names);
        for (int i = 0; i < part.n; i++) {
            out->urls[out->n + i] = part.urls[i];
            out->names[out->n + i] = part.names[i];
        }
        out->n += part.n;
        free(part.urls);
        free(part.names);
        p = *e ? e + 1 : e;
    }
    if (out->n == 0)
        return dg_err_fail(err, DG_E_INVAL, "an empty list of URLs");
    return 0;
}
