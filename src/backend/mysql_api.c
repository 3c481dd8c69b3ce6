/* mysql_api.c - the MariaDB client library, opened on first use (mysql_api.h). */
#include "backend/mysql_api.h"

#include "core/dlib.h"

#include <stddef.h>

dg_my_api dg_my;

static const dg_dlib_sym my_syms[] = {
#define DG_MY_SYM(f) {#f, offsetof(dg_my_api, f)},
    DG_MY_FUNCTIONS(DG_MY_SYM)
#undef DG_MY_SYM
};

static dg_dlib my_lib = {
    .what = "the MariaDB client library",
    .soname = "libmariadb.so.3",
    .env = "DBGAUGE_MARIADB_CLIENT",
    .package = "libmariadb3",
    .syms = my_syms,
    .nsyms = (int)(sizeof my_syms / sizeof my_syms[0]),
    .table = &dg_my,
};

int dg_my_api_load(dg_err *err)
{
    return dg_dlib_load(&my_lib, err);
}
