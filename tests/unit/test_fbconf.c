/*
 * test_fbconf.c - unit tests of backend/fbconf.c: ExternalFileAccess as a firebird.conf
 * says it (comments, case, the last line winning, Restrict's list with relative
 * directories and macros, values the server takes as None), the file read from a root
 * directory, and the root found from the FIREBIRD environment variable. What bulk=auto
 * makes of it against real engines is tests/integration/firebird_load.sh.
 */
#include "dgtest.h"

#include "backend/fbconf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static dg_fbconf_ext parse(const char *text)
{
    dg_fbconf_ext e;
    dg_fbconf_ext_parse(text, strlen(text), "/opt/fb", "/etc/fb", &e);
    return e;
}

static const char *described(const dg_fbconf_ext *e)
{
    static char buf[2048];
    dg_fbconf_ext_describe(e, buf, sizeof buf);
    return buf;
}

static void test_kinds(void)
{
    dg_fbconf_ext e = parse("");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    DG_CHECK_INT(e.line, 0);
    DG_CHECK_STR(described(&e), "None");

    e = parse("# ExternalFileAccess may be None, Full or Restrict\n#ExternalFileAccess = Full\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    DG_CHECK_INT(e.line, 0);

    e = parse("DefaultDbCachePages = 2048\n  externalfileaccess=FULL   # all of it\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_FULL);
    DG_CHECK_INT(e.line, 2);
    DG_CHECK_STR(described(&e), "Full");

    /* the last line wins, as the server reads it */
    e = parse("ExternalFileAccess = Full\nExternalFileAccess = None\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    DG_CHECK_INT(e.line, 2);

    /* a longer key, and a value the server does not know, are not Full */
    e = parse("ExternalFileAccessX = Full\n");
    DG_CHECK_INT(e.line, 0);
    e = parse("ExternalFileAccess = Fullest\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    DG_CHECK_INT(e.line, 1);
    e = parse("ExternalFileAccess = Restricted /x\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    /* Restrict with no directory allows none */
    e = parse("ExternalFileAccess = Restrict\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    e = parse("ExternalFileAccess = Restrict  ; ;\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_NONE);
    DG_CHECK_INT(e.ndirs, 0);
}

static void test_restrict(void)
{
    dg_fbconf_ext e = parse("ExternalFileAccess = Restrict /srv/load; ext/ ;$(root)/more;$(this)/here\r\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_RESTRICT);
    DG_CHECK_INT(e.ndirs, 4);
    DG_CHECK_STR(e.dirs[0], "/srv/load");
    DG_CHECK_STR(e.dirs[1], "/opt/fb/ext");
    DG_CHECK_STR(e.dirs[2], "/opt/fb/more");
    DG_CHECK_STR(e.dirs[3], "/etc/fb/here");
    DG_CHECK_STR(described(&e), "Restrict /srv/load;/opt/fb/ext;/opt/fb/more;/etc/fb/here");

    e = parse("ExternalFileAccess = \"Restrict /a;/b\"\n");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_RESTRICT);
    DG_CHECK_INT(e.ndirs, 2);
    DG_CHECK_STR(e.dirs[1], "/b");

    /* at most DG_FBCONF_MAX_DIRS are kept */
    e = parse("ExternalFileAccess = Restrict /1;/2;/3;/4;/5;/6;/7;/8;/9;/10\n");
    DG_CHECK_INT(e.ndirs, DG_FBCONF_MAX_DIRS);
    DG_CHECK_STR(e.dirs[DG_FBCONF_MAX_DIRS - 1], "/8");

    /* no newline at the end, a tab before the list */
    e = parse("ExternalFileAccess=Restrict\t/last");
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_RESTRICT);
    DG_CHECK_STR(e.dirs[0], "/last");
}

static void test_files(void)
{
    char root[] = "/tmp/dgtest-fbconf-XXXXXX";
    DG_CHECK(mkdtemp(root) != NULL);
    dg_fbconf_ext e;
    char why[512];
    DG_CHECK_INT(dg_fbconf_ext_load(root, &e, why, sizeof why), -1);
    DG_CHECK(strstr(why, "firebird.conf") != NULL);

    char path[256];
    snprintf(path, sizeof path, "%s/firebird.conf", root);
    FILE *f = fopen(path, "w");
    DG_CHECK(f != NULL);
    fputs("# test\nExternalFileAccess = Restrict ext\n", f);
    fclose(f);
    DG_CHECK_INT(dg_fbconf_ext_load(root, &e, why, sizeof why), 0);
    DG_CHECK_INT(e.kind, DG_FBCONF_EXT_RESTRICT);
    char want[256];
    snprintf(want, sizeof want, "%s/ext", root);
    DG_CHECK_STR(e.dirs[0], want);

    /* this process's root: its FIREBIRD */
    char got[512];
    char *old = getenv("FIREBIRD") ? strdup(getenv("FIREBIRD")) : NULL;
    setenv("FIREBIRD", root, 1);
    DG_CHECK(dg_fbconf_root(0, got, sizeof got, why, sizeof why));
    DG_CHECK_STR(got, root);
    /* and a process's own, through /proc (this one's environment at its start) */
    if (old) {
        DG_CHECK(dg_fbconf_root(getpid(), got, sizeof got, why, sizeof why));
        DG_CHECK_STR(got, old);
        setenv("FIREBIRD", old, 1);
    } else {
        unsetenv("FIREBIRD");
    }
    free(old);
    /* a process that does not exist: no environment to read */
    DG_CHECK(!dg_fbconf_root(999999999, got, sizeof got, why, sizeof why));
    DG_CHECK(strstr(why, "999999999") != NULL);
    unlink(path);
    rmdir(root);
}

int main(void)
{
    DG_RUN(test_kinds);
    DG_RUN(test_restrict);
    DG_RUN(test_files);
    DG_TEST_END();
}
