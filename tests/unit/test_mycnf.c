/*
 * test_mycnf.c - unit tests of backend/mysql_cnf.c: the settings read from a MySQL option
 * file (groups, keys, quotes, escapes, comments, later values winning, "password" alone)
 * and the files it will not read. Built with the MariaDB backend only (skipped otherwise).
 */
#include "dgtest.h"

#ifdef DG_HAVE_MYSQL
#include "backend/mysql_cnf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void parse(const char *text, dg_mycnf *cnf)
{
    *cnf = (dg_mycnf){0};
    dg_mycnf_parse(text, strlen(text), cnf);
}

static void test_groups_and_keys(void)
{
    dg_mycnf c;
    parse("# a comment\n"
          "[mysqld]\nuser = mysql\nport=3307\n"
          "[client]\n  user = alice \npassword=s3cret\nhost=db1\nport = 3310\n"
          "default-character-set=utf8mb4\n"
          "[mysql]\npassword=not-this\n"
          "[client-mariadb]\nsocket=/run/my.sock\n"
          "[client]\nDatabase=shop\n",
          &c);
    DG_CHECK_STR(c.user, "alice");
    DG_CHECK_STR(c.password, "s3cret");
    DG_CHECK_STR(c.host, "db1");
    DG_CHECK_STR(c.socket, "/run/my.sock");
    DG_CHECK_STR(c.database, "shop");
    DG_CHECK_INT(c.port, 3310);
    dg_mycnf_free(&c);
}

static void test_values(void)
{
    static const struct {
        const char *line, *password;
    } cases[] = {
        {"password=\"p w#d\"", "p w#d"},     /* quoted: # is text */
        {"password='it''s'", "it''s"},       /* only the outer quotes go */
        {"password=abc # note", "abc"},      /* an unquoted # begins a comment */
        {"password=a\\sb\\\\c", "a b\\c"},   /* \s is a space, \\ a backslash */
        {"password = \"x\\\"y\" ", "x\"y"},  /* an escaped quote inside quotes */
        {"password=a\\qb", "a\\qb"},         /* an unknown escape stays */
        {"pass_word=zzz\npassword=ok", "ok"}, /* another key is skipped */
        {"password=one\npassword=two", "two"}, /* a later value wins */
        {"password=one\npassword", NULL},    /* "password" alone: the client asks; none here */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "[client]\n%s\n", cases[i].line);
        dg_mycnf c;
        parse(text, &c);
        if (cases[i].password)
            DG_CHECK_STR(c.password, cases[i].password);
        else
            DG_CHECK(c.password == NULL);
        dg_mycnf_free(&c);
    }
}

static void test_ports(void)
{
    const char *bad[] = {"port=0", "port=65536", "port=33x", "port=", "port"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "[client]\n%s\n", bad[i]);
        dg_mycnf c;
        parse(text, &c);
        DG_CHECK_INT(c.port, 0);
        dg_mycnf_free(&c);
    }
    dg_mycnf c;
    parse("[client]\r\nport=3306\r\n", &c); /* CRLF lines */
    DG_CHECK_INT(c.port, 3306);
    dg_mycnf_free(&c);
}

static void test_files(void)
{
    char dir[] = "/tmp/dgmycnf.XXXXXX";
    DG_CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/my.cnf", dir);
    dg_mycnf c;
    const char *why = "x";
    DG_CHECK_INT(dg_mycnf_load(path, &c, &why), 1); /* none: no reason to tell */
    DG_CHECK(why == NULL);
    FILE *f = fopen(path, "w");
    fputs("[client]\npassword=pw\n", f);
    fclose(f);
    chmod(path, 0600);
    DG_CHECK_INT(dg_mycnf_load(path, &c, &why), 0);
    DG_CHECK_STR(c.password, "pw");
    dg_mycnf_free(&c);
    chmod(path, 0666); /* anyone may write it: skipped, as the client does */
    DG_CHECK_INT(dg_mycnf_load(path, &c, &why), 1);
    DG_CHECK(why && strstr(why, "anyone may write it"));
    DG_CHECK(c.password == NULL);
    unlink(path);
    DG_CHECK_INT(mkdir(path, 0700), 0); /* a directory */
    DG_CHECK_INT(dg_mycnf_load(path, &c, &why), 1);
    DG_CHECK(why && strstr(why, "not a regular file"));
    rmdir(path);
    rmdir(dir);
}

int main(void)
{
    DG_RUN(test_groups_and_keys);
    DG_RUN(test_values);
    DG_RUN(test_ports);
    DG_RUN(test_files);
    DG_TEST_END();
}
#else
static void skip(void)
{
    DG_SKIP("built without the MariaDB backend");
}

int main(void)
{
    DG_RUN_AS("mycnf", skip);
    DG_TEST_END();
}
#endif
