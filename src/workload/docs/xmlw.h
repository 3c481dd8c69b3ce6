/*
 * xmlw.h - the writer the docs workload's XML files share (internal to
 * src/workload/docs/): thin wrappers over libxml2's xmlTextWriter that remember the first
 * failure, so that a generator is a straight list of elements with one check at the end;
 * in tree mode they add the same elements to a parsed document instead (U1's new account
 * is built by the generator's own code). All static inline: gen.c writes documents with
 * them, xml.c edits and projections.
 */
#ifndef DG_WORKLOAD_DOCS_XMLW_H
#define DG_WORKLOAD_DOCS_XMLW_H

#include "workload/docs/docs.h"
#include "workload/docs/xml_api.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Where elements go: a document or fragment written to memory with the xmlTextWriter, or
 * (node set: the edits) new children of an element of a parsed tree, so that U1's new
 * account is built by the same code as the generated ones. After the first failed libxml2
 * call (out of memory) the others do nothing and wr_done() reports it. */
typedef struct wr {
    xmlBufferPtr buf;
    xmlTextWriterPtr w;
    xmlNode *node; /* tree mode: the element being filled */
    bool document; /* an XML declaration first */
    bool bad;
} wr;

static inline int wr_open(wr *o, bool document, const char *what, dg_err *err)
{
    memset(o, 0, sizeof *o);
    o->document = document;
    o->buf = dg_xml.xmlBufferCreateSize(4096);
    if (o->buf)
        o->w = dg_xml.xmlNewTextWriterMemory(o->buf, 0);
    if (!o->w) {
        dg_xml.xmlBufferFree(o->buf);
        return dg_err_fail(err, DG_E_NOMEM, "%s: out of memory in libxml2", what);
    }
    if (document && dg_xml.xmlTextWriterStartDocument(o->w, NULL, "UTF-8", NULL) < 0)
        o->bad = true;
    return 0;
}

/* Ends the document, copies it to out (reset first) unless something failed, and frees
 * the writer. 0 or DG_E_NOMEM. */
static inline int wr_done(wr *o, const char *what, dg_strbuf *out, dg_err *err)
{
    if (o->document && !o->bad && dg_xml.xmlTextWriterEndDocument(o->w) < 0)
        o->bad = true;
    if (!o->bad && dg_xml.xmlTextWriterFlush(o->w) < 0)
        o->bad = true;
    dg_xml.xmlFreeTextWriter(o->w);
    int rc = 0;
    if (o->bad) {
        rc = dg_err_fail(err, DG_E_NOMEM, "%s: writing failed in libxml2 (out of memory)", what);
    } else {
        dg_sb_reset(out);
        dg_sb_addn(out, (const char *)dg_xml.xmlBufferContent(o->buf), (size_t)dg_xml.xmlBufferLength(o->buf));
    }
    dg_xml.xmlBufferFree(o->buf);
    return rc;
}

/* Frees the writer when what was being written is not wanted. */
static inline void wr_abort(wr *o)
{
    dg_xml.xmlFreeTextWriter(o->w);
    dg_xml.xmlBufferFree(o->buf);
}

static inline void w_check(wr *o, int rc)
{
    if (rc < 0)
        o->bad = true;
}

/* Tree mode: n is the new child of o->node (NULL: out of memory). */
static inline void w_added(wr *o, xmlNode *n)
{
    if (!n)
        o->bad = true;
}

static inline void w_start(wr *o, const char *name)
{
    if (o->bad)
        return;
    if (!o->node) {
        w_check(o, dg_xml.xmlTextWriterStartElement(o->w, BAD_CAST name));
        return;
    }
    xmlNode *n = dg_xml.xmlNewChild(o->node, o->node->ns, BAD_CAST name, NULL);
    w_added(o, n);
    if (n)
        o->node = n;
}

/* The root: name in the default namespace ns. */
static inline void w_start_ns(wr *o, const char *name, const char *ns)
{
    if (!o->bad)
        w_check(o, dg_xml.xmlTextWriterStartElementNS(o->w, NULL, BAD_CAST name, BAD_CAST ns));
}

static inline void w_end(wr *o)
{
    if (o->bad)
        return;
    if (o->node)
        o->node = o->node->parent;
    else
        w_check(o, dg_xml.xmlTextWriterEndElement(o->w));
}

static inline void w_attr(wr *o, const char *name, const char *value)
{
    if (o->bad)
        return;
    if (o->node)
        w_added(o, (xmlNode *)dg_xml.xmlNewProp(o->node, BAD_CAST name, BAD_CAST value));
    else
        w_check(o, dg_xml.xmlTextWriterWriteAttribute(o->w, BAD_CAST name, BAD_CAST value));
}

/* Text content of the current element. */
static inline void w_text(wr *o, const char *text)
{
    if (o->bad)
        return;
    if (o->node)
        w_added(o, dg_xml.xmlAddChild(o->node, dg_xml.xmlNewDocText(o->node->doc, BAD_CAST text)));
    else
        w_check(o, dg_xml.xmlTextWriterWriteString(o->w, BAD_CAST text));
}

static inline void w_elem(wr *o, const char *name, const char *text)
{
    if (o->bad)
        return;
    if (o->node)
        w_added(o, dg_xml.xmlNewTextChild(o->node, o->node->ns, BAD_CAST name, BAD_CAST text));
    else
        w_check(o, dg_xml.xmlTextWriterWriteElement(o->w, BAD_CAST name, BAD_CAST text));
}

__attribute__((format(printf, 3, 4))) static inline void w_attrf(wr *o, const char *name,
                                                          const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    w_attr(o, name, buf);
}

__attribute__((format(printf, 3, 4))) static inline void w_elemf(wr *o, const char *name,
                                                          const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    w_elem(o, name, buf);
}

/* "-12.30": exactly two decimals. */
static inline void fmt_cents(char out[32], int64_t cents)
{
    uint64_t m = cents < 0 ? 0 - (uint64_t)cents : (uint64_t)cents;
    snprintf(out, 32, "%s%" PRIu64 ".%02u", cents < 0 ? "-" : "", m / 100, (unsigned)(m % 100));
}

static inline void w_money(wr *o, const char *name, int64_t cents)
{
    char buf[32];
    fmt_cents(buf, cents);
    w_elem(o, name, buf);
}

static inline void w_money_attr(wr *o, const char *name, int64_t cents)
{
    char buf[32];
    fmt_cents(buf, cents);
    w_attr(o, name, buf);
}

/* U1: a new Account (acct_id, balance, an empty Holdings) with the generator's children,
 * drawn from a generator seeded by the account id (gen.c). */
void docs_write_new_account(wr *o, int64_t acct_id, int64_t balance_cents);

#endif
