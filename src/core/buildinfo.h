/*
 * buildinfo.h - what this binary was built from: the commit (12 hex digits, "-dirty" when
 * the checkout had changes, "unknown" when the tree had no git history and no commit file),
 * shown by --version and recorded in every result file (dbgauge.commit).
 */
#ifndef DG_CORE_BUILDINFO_H
#define DG_CORE_BUILDINFO_H

const char *dg_build_commit(void);

#endif
