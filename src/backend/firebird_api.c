/* firebird_api.c - the Firebird client library, opened on first use (firebird_api.h). */
#include "backend/firebird_api.h"

#include "core/dlib.h"

#include <stddef.h>

dg_fb_api dg_fb;

static const dg_dlib_sym fb_syms[] = {
#define DG_FB_SYM(f) {#f, offsetof(dg_fb_api, f)},
    DG_FB_FUNCTIONS(DG_FB_SYM)
#undef DG_FB_SYM
};

static dg_dlib fb_lib = {
    .what = "the Firebird client library",
    .soname = "libfbclient.so.2",
    .env = "DBGAUGE_FBCLIENT",
    .package = "libfbclient2",
    .syms = fb_syms,
    .nsyms = (int)(sizeof fb_syms / sizeof fb_syms[0]),
    .table = &dg_fb,
};

int dg_fb_api_load(dg_err *err)
{
    return dg_dlib_load(&fb_lib, err);
}
