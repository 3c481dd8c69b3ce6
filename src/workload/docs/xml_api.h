/*
 * xml_api.h - the libxml2 functions the docs workload calls, through a table filled when
 * the workload is opened (core/dlib.h): runs of the other workloads never map libxml2 and
 * what it pulls in (ICU, libstdc++, liblzma).
 *
 * The workload calls dg_xml.xmlNewDoc(...) where it would call xmlNewDoc(...); the
 * prototypes are libxml2's own. xmlFree is a variable holding a function in libxml2: its
 * entry is that variable's address, called as (*dg_xml.xmlFree)(p).
 */
#ifndef DG_WORKLOAD_DOCS_XML_API_H
#define DG_WORKLOAD_DOCS_XML_API_H

#include "core/err.h"

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>

#define DG_XML_FUNCTIONS(X) \
    X(xmlFree) \
    X(xmlAddChild) \
    X(xmlAllocOutputBuffer) \
    X(xmlBufferContent) \
    X(xmlBufferCreateSize) \
    X(xmlBufferFree) \
    X(xmlBufferLength) \
    X(xmlCtxtGetLastError) \
    X(xmlCtxtReadMemory) \
    X(xmlDocCopyNode) \
    X(xmlDocDumpMemory) \
    X(xmlDocGetRootElement) \
    X(xmlDocSetRootElement) \
    X(xmlFreeDoc) \
    X(xmlFreeNode) \
    X(xmlFreeParserCtxt) \
    X(xmlFreeTextWriter) \
    X(xmlGetNoNsProp) \
    X(xmlHasNsProp) \
    X(xmlInitParser) \
    X(xmlNewChild) \
    X(xmlNewDoc) \
    X(xmlNewDocNode) \
    X(xmlNewDocText) \
    X(xmlNewParserCtxt) \
    X(xmlNewProp) \
    X(xmlNewTextChild) \
    X(xmlNewTextWriterMemory) \
    X(xmlNodeDumpOutput) \
    X(xmlNodeGetContent) \
    X(xmlOutputBufferClose) \
    X(xmlOutputBufferFlush) \
    X(xmlOutputBufferGetContent) \
    X(xmlOutputBufferGetSize) \
    X(xmlSchemaFree) \
    X(xmlSchemaFreeParserCtxt) \
    X(xmlSchemaFreeValidCtxt) \
    X(xmlSchemaNewMemParserCtxt) \
    X(xmlSchemaNewParserCtxt) \
    X(xmlSchemaNewValidCtxt) \
    X(xmlSchemaParse) \
    X(xmlSchemaSetParserStructuredErrors) \
    X(xmlSchemaSetValidStructuredErrors) \
    X(xmlSchemaValidateDoc) \
    X(xmlSetProp) \
    X(xmlTextWriterEndDocument) \
    X(xmlTextWriterEndElement) \
    X(xmlTextWriterFlush) \
    X(xmlTextWriterStartDocument) \
    X(xmlTextWriterStartElement) \
    X(xmlTextWriterStartElementNS) \
    X(xmlTextWriterWriteAttribute) \
    X(xmlTextWriterWriteElement) \
    X(xmlTextWriterWriteString) \
    X(xmlUnlinkNode)

typedef struct dg_xml_api {
#define DG_XML_POINTER(f) __typeof__(f) *f;
    DG_XML_FUNCTIONS(DG_XML_POINTER)
#undef DG_XML_POINTER
} dg_xml_api;

extern dg_xml_api dg_xml;

/* Opens libxml2 (libxml2.so.2) and fills dg_xml, once, then initialises its parser.
 * 0, or DG_E_UNSUPPORTED with why it cannot be loaded. */
int docs_xml_load(dg_err *err);

#endif
