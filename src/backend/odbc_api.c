/* odbc_api.c - the ODBC driver manager, opened on first use (odbc_api.h). */
#include "backend/odbc_api.h"

#include "core/dlib.h"

#include <stddef.h>

dg_odbc_api dg_odbc;

static const dg_dlib_sym odbc_syms[] = {
#define DG_ODBC_SYM(f) {#f, offsetof(dg_odbc_api, f)},
    DG_ODBC_FUNCTIONS(DG_ODBC_SYM)
#undef DG_ODBC_SYM
};

static dg_dlib odbc_lib = {
    .what = "the ODBC driver manager",
    .soname = "libodbc.so.2",
    .env = "DBGAUGE_ODBC_LIB",
    .package = "libodbc2",
    .syms = odbc_syms,
    .nsyms = (int)(sizeof odbc_syms / sizeof odbc_syms[0]),
    .table = &dg_odbc,
};

int dg_odbc_api_load(dg_err *err)
{
    return dg_dlib_load(&odbc_lib, err);
}
