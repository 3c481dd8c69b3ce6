/* xml_api.c - libxml2, opened when the docs workload needs it (xml_api.h). */
#include "workload/docs/xml_api.h"

#include "core/dlib.h"

#include <pthread.h>
#include <stddef.h>

dg_xml_api dg_xml;

static const dg_dlib_sym xml_syms[] = {
#define DG_XML_SYM(f) {#f, offsetof(dg_xml_api, f)},
    DG_XML_FUNCTIONS(DG_XML_SYM)
#undef DG_XML_SYM
};

static dg_dlib xml_lib = {
    .what = "libxml2",
    .soname = "libxml2.so.2",
    .package = "libxml2",
    .syms = xml_syms,
    .nsyms = (int)(sizeof xml_syms / sizeof xml_syms[0]),
    .table = &dg_xml,
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_parser(void)
{
    dg_xml.xmlInitParser();
}

int docs_xml_load(dg_err *err)
{
    int rc = dg_dlib_load(&xml_lib, err);
    if (rc == 0)
        pthread_once(&init_once, init_parser);
    return rc;
}
