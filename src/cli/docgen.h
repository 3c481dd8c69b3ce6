/*
 * docgen.h - what is generated from the option table at build time, so that it never
 * drifts from what the binary accepts: the man pages (dbgauge(1), one dbgauge-COMMAND(1)
 * per command) and the bash and zsh completion scripts. tools/gendoc.c writes them; the
 * install rules and the Debian package ship them.
 */
#ifndef DG_CLI_DOCGEN_H
#define DG_CLI_DOCGEN_H

#include "cli/options.h"

#include <stdio.h>

/* The man page of cmd in roff (man(7) macros); DG_CMD_NONE: dbgauge(1), the overview.
 * date: the page's date (e.g. "2026-12-06"). */
void dg_docgen_man(FILE *out, dg_command cmd, const char *date);

/* The bash completion script (complete -F _dbgauge dbgauge). */
void dg_docgen_bash(FILE *out);

/* The zsh completion function (#compdef dbgauge). */
void dg_docgen_zsh(FILE *out);

#endif
