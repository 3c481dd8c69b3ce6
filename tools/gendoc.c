/*
 * gendoc.c - writes what is generated from dbgauge's option table (cli/docgen.h) at build
 * time:  gendoc man DIR DATE   dbgauge.1 and dbgauge-COMMAND.1 into DIR
 *        gendoc bash FILE      the bash completion script
 *        gendoc zsh FILE       the zsh completion function
 */
#include "cli/docgen.h"

#include <stdio.h>
#include <string.h>

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        perror(path);
    return f;
}

static int done(FILE *f, const char *path)
{
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "man")) {
        char path[4096];
        size_t i = 0;
        dg_command c = DG_CMD_NONE;
        const char *name = NULL, *summary, *usage;
        do {
            if (c == DG_CMD_NONE)
                snprintf(path, sizeof path, "%s/dbgauge.1", argv[2]);
            else
                snprintf(path, sizeof path, "%s/dbgauge-%s.1", argv[2], name);
            FILE *f = open_out(path);
            if (!f)
                return 1;
            dg_docgen_man(f, c, argv[3]);
            if (done(f, path))
                return 1;
        } while (dg_cli_command_at(i++, &c, &name, &summary, &usage));
        return 0;
    }
    if (argc == 3 && (!strcmp(argv[1], "bash") || !strcmp(argv[1], "zsh"))) {
        FILE *f = open_out(argv[2]);
        if (!f)
            return 1;
        if (argv[1][0] == 'b')
            dg_docgen_bash(f);
        else
            dg_docgen_zsh(f);
        return done(f, argv[2]);
    }
    fprintf(stderr, "usage: gendoc man DIR DATE | gendoc bash FILE | gendoc zsh FILE\n");
    return 1;
}
