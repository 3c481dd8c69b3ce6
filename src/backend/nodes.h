/*
 * nodes.h - a URL that names several hosts of one database (a cluster):
 * postgres://u@h1:p1,h2:p2/db, mysql://u@h1:p1,h2:p2,h3:p3/db, with ?place=.
 *
 * The URL parser (backend.c) accepts the host list and ?place=; this module turns such a
 * URL into one URL per host (each with the same user, password, database and parameters,
 * ?place= left out) for the terminals to connect to, and names each host for the result
 * ("h1:p1", as written: a host name holds no secret).
 *
 * dg_connect() itself, given such a URL, connects to the first host that answers (load,
 * check, the session's monitor connection); the runner places its terminals itself.
 */
#ifndef DG_BACKEND_NODES_H
#define DG_BACKEND_NODES_H

#include "backend/backend.h"

typedef struct dg_nodelist {
    int n;          /* hosts (1 for a URL with one host, or none) */
    dg_place place;
    char **urls;    /* [n] single-host URLs; owned; they hold the password */
    char **names;   /* [n] "host:port" as the URL writes it ("" when it names none) */
} dg_nodelist;

/* Splits url (any URL: one with a single host gives one entry, the URL itself less any
 * ?place=). Returns 0 or the parser's error. */
int dg_url_nodes(const char *url, dg_nodelist *out, dg_err *err);
void dg_nodelist_free(dg_nodelist *nl);

/* A list of URLs (URL,URL,...: a ',' followed by SCHEME:// starts the next; a ',' inside
 * a URL's host list separates its hosts) as one list of hosts, in order. */
int dg_url_nodes_list(const char *list, dg_nodelist *out, dg_err *err);

/* The end of one host of a host list starting at h: the ',' that ends it (outside an
 * IPv6 address's brackets) or end. */
const char *dg_url_host_end(const char *h, const char *end);

/* Connects to the first host of nl, in order, that accepts a connection. When none does,
 * the error names every host's reason (class CONN_LOST when any host was unreachable). */
int dg_connect_first(const dg_nodelist *nl, const dg_connopts *opts, dg_conn **out, dg_err *err);

#endif
