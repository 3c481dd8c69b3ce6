/* buildinfo.c - see buildinfo.h; dg_commit.h is written at build time by cmake/commit.cmake. */
#include "core/buildinfo.h"

#include "dg_commit.h"

const char *dg_build_commit(void)
{
    return DG_COMMIT;
}
