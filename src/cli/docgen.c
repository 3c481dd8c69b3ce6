/* docgen.c - man pages and shell completion from the option table: see docgen.h. */
#include "cli/docgen.h"

#include "backend/backend.h"
#include "workload/workload.h"

#include <ctype.h>
#include <string.h>

#ifndef DG_VERSION
#define DG_VERSION "0.0.0"
#endif

/* ---- roff ---------------------------------------------------------------------------------- */

/* Text for a roff line: backslashes doubled, '-' as \- (a real minus, what man users
 * search for), a leading '.' or '\'' protected. */
static void roff(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else
            fputc(*s, out);
    }
}

static void option_item(FILE *out, const dg_cli_optdoc *o)
{
    fputs(".TP\n", out);
    if (o->sname)
        fprintf(out, "\\fB\\-%c\\fR, ", o->sname);
    fputs("\\fB\\-\\-", out);
    roff(out, o->lname);
    fputs("\\fR", out);
    if (o->metavar) {
        fputs(" \\fI", out);
        roff(out, o->metavar);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    roff(out, o->help);
    fputc('\n', out);
}

static const char *const exit_text =
    "0: success. 1: a usage or configuration error, or input that cannot be read (nothing is "
    "written). 2: the run was aborted or is incomplete (interrupted with Ctrl-C, a host lost): "
    "the partial result file is still written, marked \"complete\": false.";

void dg_docgen_man(FILE *out, dg_command cmd, const char *date)
{
    size_t i = 0;
    dg_command c;
    const char *name, *summary, *usage, *this_summary = NULL, *this_usage = NULL;
    const char *this_name = "dbgauge";
    while (dg_cli_command_at(i++, &c, &name, &summary, &usage))
        if (c == cmd) {
            this_name = name;
            this_summary = summary;
            this_usage = usage;
        }
    bool top = cmd == DG_CMD_NONE;
    fprintf(out, ".\\\" generated from dbgauge's option table (tools/gendoc.c): do not edit\n");
    char title[64] = "DBGAUGE"; /* .TH's name: upper case, as man pages are titled */
    if (!top) {
        snprintf(title, sizeof title, "DBGAUGE-%s", this_name);
        for (char *t = title; *t; t++)
            *t = (char)toupper((unsigned char)*t);
    }
    fprintf(out, ".TH \"%s\" 1 \"%s\" \"dbgauge %s\" \"dbgauge manual\"\n", title, date, DG_VERSION);
    fputs(".SH NAME\n", out);
    if (top) {
        fputs("dbgauge \\- database performance test system\n", out);
    } else {
        fprintf(out, "dbgauge\\-%s \\- ", this_name);
        roff(out, this_summary);
        fputc('\n', out);
    }
    fputs(".SH SYNOPSIS\n", out);
    if (top) {
        fputs("\\fBdbgauge\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fB@\\fR\\fIFILE\\fR]\n", out);
    } else {
        roff(out, this_usage);
        fputc('\n', out);
    }
    fputs(".SH DESCRIPTION\n", out);
    if (top) {
        fputs("dbgauge loads a database to a chosen size, then runs N terminals (each with its own "
              "connection) executing a weighted random mix of business transactions, and reports "
              "throughput, latency percentiles, CPU, I/O and cache figures per interval and for "
              "the run, in a JSON result file that reports and comparisons are built from. It "
              "drives embedded SQLite (the default), PostgreSQL, MariaDB/MySQL and Firebird.\n",
              out);
        fputs(".SH COMMANDS\n", out);
        for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++) {
            fprintf(out, ".TP\n\\fBdbgauge\\-%s\\fR(1)\n", name);
            roff(out, summary);
            fputc('\n', out);
        }
        fputs(".PP\n\\fBdbgauge \\fICOMMAND\\fB \\-\\-help\\fR lists a command's options; "
              "\\fB@\\fR\\fIFILE\\fR reads options from \\fIFILE\\fR, one per line ('#' begins "
              "a comment).\n",
              out);
        fputs(".SH DATABASES\nThe \\fB\\-\\-db\\fR \\fIURL\\fR of each backend built in:\n", out);
        size_t n;
        const dg_backend_entry *cat = dg_backend_catalog(&n);
        for (size_t k = 0; k < n; k++) {
            if (!cat[k].be)
                continue;
            fputs(".TP\n", out);
            roff(out, cat[k].be->url_help);
            fputs("\nsettings:", out);
            for (const dg_backend_option *opt = cat[k].be->options; opt && opt->name; opt++) {
                fputc(' ', out);
                roff(out, opt->name);
            }
            fputs(" (\\fBdbgauge list\\fR shows each one's type, range and meaning)\n", out);
        }
        fputs(".SH ENVIRONMENT\n.TP\n\\fBDBGAUGE_DB\\fR\nthe database URL when \\fB\\-\\-db\\fR "
              "is not given\n.TP\n\\fBDBGAUGE_PASSWORD\\fR\nthe password for a URL without one\n",
              out);
    } else {
        roff(out, this_summary);
        fputs(".\n", out);
        fputs(".SH OPTIONS\n", out);
        dg_cli_optdoc o;
        for (size_t k = 0; dg_cli_option_at(cmd, k, &o); k++)
            option_item(out, &o);
        fputs(".PP\nDurations take units (500ms, 30s, 5m, 1h); sizes too (500MB, 10GB, 1GiB). "
              "\\fB@\\fR\\fIFILE\\fR reads options from a file, one per line.\n",
              out);
    }
    fputs(".SH EXIT STATUS\n", out);
    roff(out, exit_text);
    fputc('\n', out);
    fputs(".SH SEE ALSO\n", out);
    bool first = true;
    if (!top) {
        fputs("\\fBdbgauge\\fR(1)", out);
        first = false;
    }
    for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++)
        if (c != cmd) {
            fprintf(out, "%s\\fBdbgauge\\-%s\\fR(1)", first ? "" : ", ", name);
            first = false;
        }
    fputs("\n.PP\nThe documentation in /usr/share/doc/dbgauge (usage.md, file-formats.md, "
          "reports.md, backends.md).\n",
          out);
}

/* ---- completion ---------------------------------------------------------------------------- */

/* What a value is completed with: file names, workload names, report formats, nothing. */
typedef enum { V_NONE, V_FILE, V_WORKLOAD, V_FORMAT } value_kind;

static value_kind value_of(const dg_cli_optdoc *o)
{
    if (!o->metavar)
        return V_NONE;
    if (!strcmp(o->lname, "workload"))
        return V_WORKLOAD;
    if (!strcmp(o->lname, "format"))
        return V_FORMAT;
    if (strstr(o->metavar, "FILE") || strstr(o->metavar, "DIR") || strstr(o->metavar, "PATH"))
        return V_FILE;
    return V_NONE;
}

static void workload_words(FILE *out)
{
    bool first = true;
    for (const dg_workload_def *const *d = dg_workload_defs(); *d; d++) {
        fprintf(out, "%s%s", first ? "" : " ", (*d)->name);
        first = false;
        for (const char *const *v = (*d)->variants; v && *v; v++)
            fprintf(out, " %s:%s", (*d)->name, *v);
    }
}

static const char *const formats = "html text markdown csv json";

/* Every option of every command that takes a value of kind k, as "-c|--terminals|..." */
static bool value_options(FILE *out, value_kind k)
{
    bool any = false;
    dg_cli_optdoc o;
    for (size_t i = 0; dg_cli_option_at(~0u, i, &o); i++) {
        if (!o.metavar || value_of(&o) != k)
            continue;
        if (o.sname)
            fprintf(out, "%s-%c", any ? "|" : "", o.sname), any = true;
        fprintf(out, "%s--%s", any ? "|" : "", o.lname);
        any = true;
    }
    return any;
}

void dg_docgen_bash(FILE *out)
{
    fputs("# bash completion for dbgauge: generated from its option table (tools/gendoc.c)\n"
          "_dbgauge() {\n"
          "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts=\n"
          "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "    COMPREPLY=($(compgen -W \"",
          out);
    size_t i;
    dg_command c;
    const char *name, *summary, *usage;
    for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++)
        fprintf(out, "%s ", name);
    fputs("help --help --version\" -- \"$cur\"))\n    return\n  fi\n  case \"$prev\" in\n", out);
    static const value_kind kinds[] = {V_WORKLOAD, V_FORMAT, V_FILE};
    for (size_t k = 0; k < 3; k++) {
        fputs("    ", out);
        if (!value_options(out, kinds[k]))
            continue;
        fputs(")\n      COMPREPLY=($(compgen ", out);
        if (kinds[k] == V_WORKLOAD) {
            fputs("-W \"", out);
            workload_words(out);
            fputs("\"", out);
        } else if (kinds[k] == V_FORMAT) {
            fprintf(out, "-W \"%s\"", formats);
        } else {
            fputs("-f", out);
        }
        fputs(" -- \"$cur\"))\n      return ;;\n", out);
    }
    fputs("    ", out);
    if (value_options(out, V_NONE))
        fputs(")\n      return ;; # a value: nothing to offer\n", out);
    else
        fputs("--)\n      return ;;\n", out);
    fputs("  esac\n  case \"${COMP_WORDS[1]}\" in\n", out);
    for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++) {
        fprintf(out, "    %s) opts=\"", name);
        dg_cli_optdoc o;
        for (size_t k = 0; dg_cli_option_at(c, k, &o); k++)
            fprintf(out, "%s--%s", k ? " " : "", o.lname);
        fputs(" --help\" ;;\n", out);
    }
    fputs("  esac\n"
          "  if [[ $cur == -* ]]; then\n"
          "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "  else\n"
          "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "  fi\n"
          "}\n"
          "complete -F _dbgauge dbgauge\n",
          out);
}

/* zsh: a description in _arguments' brackets, with ], :, \ and ' made harmless */
static void zsh_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == ']' || *s == '[' || *s == ':' || *s == '\\')
            fputc('\\', out);
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
}

void dg_docgen_zsh(FILE *out)
{
    fputs("#compdef dbgauge\n"
          "# zsh completion for dbgauge: generated from its option table (tools/gendoc.c)\n"
          "_dbgauge() {\n"
          "  local -a commands\n"
          "  commands=(\n",
          out);
    size_t i;
    dg_command c;
    const char *name, *summary, *usage;
    for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++) {
        fprintf(out, "    '%s:", name);
        zsh_text(out, summary);
        fputs("'\n", out);
    }
    fputs("  )\n"
          "  if (( CURRENT == 2 )); then\n"
          "    _describe -t commands 'dbgauge command' commands\n"
          "    return\n"
          "  fi\n"
          "  local cmd=${words[2]}\n"
          "  shift words; (( CURRENT-- ))\n"
          "  case $cmd in\n",
          out);
    for (i = 0; dg_cli_command_at(i, &c, &name, &summary, &usage); i++) {
        fprintf(out, "    %s)\n      _arguments -s \\\n", name);
        dg_cli_optdoc o;
        for (size_t k = 0; dg_cli_option_at(c, k, &o); k++) {
            fputs("        '", out);
            if (o.sname)
                fprintf(out, "(-%c --%s)'{-%c,--%s}'", o.sname, o.lname, o.sname, o.lname);
            else
                fprintf(out, "--%s", o.lname);
            fputc('[', out);
            zsh_text(out, o.help);
            fputc(']', out);
            if (o.metavar) {
                fputc(':', out);
                zsh_text(out, o.metavar);
                fputc(':', out);
                switch (value_of(&o)) {
                case V_FILE: fputs("_files", out); break;
                case V_WORKLOAD:
                    fputs("(", out);
                    workload_words(out);
                    fputs(")", out);
                    break;
                case V_FORMAT: fprintf(out, "(%s)", formats); break;
                case V_NONE: fputs(" ", out); break;
                }
            }
            fputs("' \\\n", out);
        }
        fputs("        '*:file:_files' ;;\n", out);
    }
    fputs("  esac\n}\n_dbgauge \"$@\"\n", out);
}
