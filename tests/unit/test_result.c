/*
 * test_result.c - unit tests of results/result.c: the result document (dg_result_new),
 * its atomic write and validated read (dg_result_write / dg_result_read), histograms and
 * latency summaries in documents (dg_result_hist / dg_result_hist_read /
 * dg_result_latency), and the dotted-path getters.
 *
 * Every test works in its own directory under a fresh mkdtemp() directory that main()
 * removes at the end. "Nothing left behind" is checked by listing a directory and
 * comparing the names with the expected ones.
 */
#include "dgtest.h"
#include "dgtest_fs.h"

#include "core/err.h"
#include "core/file.h"
#include "results/doc.h"
#include "results/result.h"
#include "stats/hist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

static char root[64];

/* ---- helpers ----------------------------------------------------------------------------- */

/* A new directory root/NAME; returns its path in buf. */
static const char *subdir(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", root, name);
    if (mkdir(buf, 0755) != 0)
        fprintf(stderr, "mkdir %s: %s\n", buf, strerror(errno));
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "fopen %s: %s\n", path, strerror(errno));
        return;
    }
    fputs(text, f);
    fclose(f);
}

/* The sorted names in dir (without . and ..), joined with ' '; "" if empty, "?" if
 * the directory cannot be read. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
static const char *listing(const char *dir)
{
    static char out[1024];
    char *names[64];
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return "?";
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < 64)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            names[n++] = strdup(de->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i)
            strncat(out, " ", sizeof out - strlen(out) - 1);
        strncat(out, names[i], sizeof out - strlen(out) - 1);
        free(names[i]);
    }
    return out;
}


static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- documents ------------------------------------------------------------------------- */

static void test_new(void)
{
    json_t *doc = dg_result_new();
    DG_CHECK(json_is_object(doc));
    DG_CHECK_INT(json_object_size(doc), 1);
    DG_CHECK_STR(dg_res_str(doc, "dbgauge.version"), DG_VERSION);
    DG_CHECK(json_is_integer(dg_res_get(doc, "dbgauge.format")));
    DG_CHECK_INT(json_integer_value(dg_res_get(doc, "dbgauge.format")), DG_RESULT_FORMAT);
    DG_CHECK_INT(DG_RESULT_FORMAT, 2);
    json_decref(doc);

    json_t *r = dg_json_real(1.5);
    DG_CHECK(json_is_real(r) && json_real_value(r) == 1.5);
    json_decref(r);
    r = dg_json_real(NAN);
    DG_CHECK(json_is_null(r));
    json_decref(r);
    r = dg_json_real(-INFINITY);
    DG_CHECK(json_is_null(r));
    json_decref(r);
}

static json_t *sample_doc(void)
{
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "run",
                        json_pack("{s:s, s:i, s:b, s:s}", "workload", "tpcc", "terminals", 8,
                                  "warmup", 1, "note", "quotes \" and \\ and \xc3\xa9"));
    json_object_set_new(doc, "totals",
                        json_pack("{s:o, s:o, s:o, s:I, s:o}", "tps", dg_json_real(1234.5),
                                  "small", dg_json_real(0.001), "ten_digits",
                                  dg_json_real(1234.567891), "big",
                                  (json_int_t)INT64_C(9007199254740993), "missing",
                                  dg_json_real(NAN)));
    json_object_set_new(doc, "transactions",
                        json_pack("[{s:s, s:i}, {s:s, s:i}]", "name", "new_order", "count", 1000,
                                  "name", "payment", "count", 950));
    json_object_set_new(doc, "empty", json_pack("{s:[], s:{}}", "list", "object"));
    return doc;
}

static void test_write_read_round_trip(void)
{
    char dir[256], path[512];
    subdir("roundtrip", dir, sizeof dir);
    /* the parent directories are created */
    snprintf(path, sizeof path, "%s/a/b/r.json", dir);
    json_t *doc = sample_doc();
    dg_err e = DG_ERR_INIT;
    int rc = dg_result_write(doc, path, &e);
    DG_CHECK_INT(rc, 0);
    if (rc)
        fprintf(stderr, "  %s\n", e.msg);
    char sub[512];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    DG_CHECK_STR(listing(sub), "r.json"); /* no temporary file left */
    DG_CHECK_STR(listing(dir), "a");

    /* the file is the document followed by a newline */
    FILE *f = fopen(path, "r");
    DG_CHECK(f != NULL);
    if (f) {
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        DG_CHECK(n > 2 && buf[0] == '{' && buf[n - 1] == '\n' && buf[n - 2] == '}');
    }

    json_t *back = NULL;
    rc = dg_result_read(path, &back, &e);
    DG_CHECK_INT(rc, 0);
    DG_CHECK(back != NULL);
    if (back) {
        DG_CHECK(json_equal(doc, back));
        DG_CHECK_STR(dg_res_str(back, "run.workload"), "tpcc");
        DG_CHECK_STR(dg_res_str(back, "run.note"), "quotes \" and \\ and \xc3\xa9");
        DG_CHECK_NEAR(dg_res_num(back, "run.terminals", -1), 8, 0);
        DG_CHECK(json_is_true(dg_res_get(back, "run.warmup")));
        DG_CHECK_NEAR(dg_res_num(back, "totals.tps", -1), 1234.5, 0);
        DG_CHECK_NEAR(dg_res_num(back, "totals.small", -1), 0.001, 0);
        DG_CHECK_NEAR(dg_res_num(back, "totals.ten_digits", -1), 1234.567891, 0);
        DG_CHECK_INT(json_integer_value(dg_res_get(back, "totals.big")),
                     INT64_C(9007199254740993));
        DG_CHECK(json_is_null(dg_res_get(back, "totals.missing")));
        DG_CHECK_STR(dg_res_str(back, "transactions.1.name"), "payment");
        DG_CHECK_INT(json_array_size(dg_res_get(back, "empty.list")), 0);
        DG_CHECK_STR(dg_res_str(back, "dbgauge.version"), DG_VERSION);
        json_decref(back);
    }
    json_decref(doc);
}

static void test_overwrite(void)
{
    char dir[256], path[512];
    subdir("overwrite", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/r.json", dir);
    json_t *a = dg_result_new();
    json_object_set_new(a, "which", json_string("a"));
    json_t *b = dg_result_new();
    json_object_set_new(b, "which", json_string("b"));
    DG_CHECK_INT(dg_result_write(a, path, NULL), 0);
    DG_CHECK_INT(dg_result_write(b, path, NULL), 0);
    DG_CHECK_STR(listing(dir), "r.json");
    json_t *back = NULL;
    DG_CHECK_INT(dg_result_read(path, &back, NULL), 0);
    DG_CHECK_STR(dg_res_str(back, "which"), "b");
    json_decref(back);
    json_decref(a);
    json_decref(b);
}

/* A write that fails leaves the previous file as it was and no temporary file. */
static void test_failed_write_keeps_old_file(void)
{
    char dir[256], path[512];
    subdir("atomic", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/r.json", dir);
    json_t *a = dg_result_new();
    json_object_set_new(a, "which", json_string("a"));
    DG_CHECK_INT(dg_result_write(a, path, NULL), 0);

    /* a bare integer cannot be serialised as a document */
    json_t *bad = json_integer(5);
    dg_err e = DG_ERR_INIT;
    int rc = dg_result_write(bad, path, &e);
    DG_CHECK(rc < 0);
    DG_CHECK_STR(e.msg, "cannot serialise the result document");
    DG_CHECK_STR(listing(dir), "r.json");
    json_t *back = NULL;
    DG_CHECK_INT(dg_result_read(path, &back, NULL), 0);
    DG_CHECK_STR(dg_res_str(back, "which"), "a");
    json_decref(back);
    json_decref(bad);
    json_decref(a);
}

static void test_write_errors(void)
{
    char dir[256], path[512], msg[1024];
    subdir("werr", dir, sizeof dir);
    char plain[300];
    snprintf(plain, sizeof plain, "%s/plain", dir);
    write_text(plain, "not a directory\n");
    json_t *doc = dg_result_new();

    /* the parent exists but is a file */
    snprintf(path, sizeof path, "%s/r.json", plain);
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_result_write(doc, path, &e), DG_E_IO);
    snprintf(msg, sizeof msg, "cannot write result file '%s': Not a directory", path);
    DG_CHECK_STR(e.msg, msg);
    DG_CHECK_STR(listing(dir), "plain");

    /* a parent to create lies under a file */
    snprintf(path, sizeof path, "%s/sub/r.json", plain);
    DG_CHECK_INT(dg_result_write(doc, path, &e), DG_E_IO);
    snprintf(msg, sizeof msg, "cannot create the directory for '%s': Not a directory", path);
    DG_CHECK_STR(e.msg, msg);
    DG_CHECK_STR(listing(dir), "plain");

    /* the target is a directory: refused before a temporary file is made */
    snprintf(path, sizeof path, "%s/adir", dir);
    mkdir(path, 0755);
    DG_CHECK_INT(dg_result_write(doc, path, &e), DG_E_IO);
    snprintf(msg, sizeof msg, "cannot write result file '%s': it is a directory", path);
    DG_CHECK_STR(e.msg, msg);
    DG_CHECK_STR(listing(dir), "adir plain");
    DG_CHECK_STR(listing(path), "");

    /* a NULL error record is allowed */
    snprintf(path, sizeof path, "%s/r.json", plain);
    DG_CHECK_INT(dg_result_write(doc, path, NULL), DG_E_IO);
    json_decref(doc);
}

/* ---- where a write goes (core/file.h) ------------------------------------------------------ */

/* The "which" field of the result file at path, or "?" when it does not read. */
static const char *which_of(const char *path)
{
    static char buf[64];
    json_t *doc = NULL;
    if (dg_result_read(path, &doc, NULL) != 0)
        return "?";
    const char *w = dg_res_str(doc, "which");
    snprintf(buf, sizeof buf, "%s", w ? w : "-");
    json_decref(doc);
    return buf;
}

static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* A symbolic link is followed: the target is replaced (keeping its mode), the link stays
 * a link; also through a chain of links, an absolute one, and a dangling one (the target
 * is created). */
static void test_write_links(void)
{
    char dir[256], path[512], target[512];
    subdir("links", dir, sizeof dir);
    snprintf(target, sizeof target, "%s/target.json", dir);
    write_text(target, "old\n");
    chmod(target, 0640);
    snprintf(path, sizeof path, "%s/link.json", dir);
    DG_CHECK_INT(symlink("target.json", path), 0);
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "which", json_string("one"));
    DG_CHECK_INT(dg_result_write(doc, path, NULL), 0);
    DG_CHECK(is_link(path));
    DG_CHECK_STR(which_of(target), "one");
    struct stat st;
    DG_CHECK_INT(stat(target, &st), 0);
    DG_CHECK_INT(st.st_mode & 07777, 0640);
    DG_CHECK_STR(listing(dir), "link.json target.json");

    /* link2 -> link.json -> target.json, link2 by its absolute path */
    char link2[512];
    snprintf(link2, sizeof link2, "%s/link2.json", dir);
    DG_CHECK_INT(symlink(path, link2), 0);
    json_object_set_new(doc, "which", json_string("two"));
    DG_CHECK_INT(dg_result_write(doc, link2, NULL), 0);
    DG_CHECK(is_link(link2) && is_link(path));
    DG_CHECK_STR(which_of(target), "two");

    /* a link into another directory whose target does not exist yet */
    char sub[300], dangling[512], made[512];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    snprintf(dangling, sizeof dangling, "%s/dangling.json", dir);
    DG_CHECK_INT(symlink("sub/new.json", dangling), 0);
    json_object_set_new(doc, "which", json_string("three"));
    DG_CHECK_INT(dg_result_write(doc, dangling, NULL), 0);
    DG_CHECK(is_link(dangling));
    snprintf(made, sizeof made, "%s/new.json", sub);
    DG_CHECK_STR(which_of(made), "three");
    DG_CHECK_STR(listing(sub), "new.json");

    /* a loop of links is refused and leaves nothing behind */
    char l1[512], l2[512];
    snprintf(l1, sizeof l1, "%s/loop1", dir);
    snprintf(l2, sizeof l2, "%s/loop2", dir);
    DG_CHECK_INT(symlink("loop2", l1), 0);
    DG_CHECK_INT(symlink("loop1", l2), 0);
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_result_write(doc, l1, &e), DG_E_IO);
    DG_CHECK(strstr(e.msg, "Too many levels of symbolic links") != NULL);
    DG_CHECK_STR(listing(dir), "dangling.json link.json link2.json loop1 loop2 sub target.json");
    json_decref(doc);
}

/* An existing fifo is written in place (the reader gets the document; no temporary file,
 * no rename), a socket is refused. */
static void test_write_special(void)
{
    char dir[256], path[512];
    subdir("special", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fifo", dir);
    DG_CHECK_INT(mkfifo(path, 0644), 0);
    /* the reader is open before the write, so the writer's open does not wait; the small
     * document fits in the pipe's buffer */
    int rd = open(path, O_RDONLY | O_NONBLOCK);
    DG_CHECK(rd >= 0);
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "which", json_string("fifo"));
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_result_write(doc, path, &e), 0);
    char buf[4096];
    ssize_t n = read(rd, buf, sizeof buf - 1);
    DG_CHECK(n > 0);
    buf[n > 0 ? n : 0] = '\0';
    close(rd);
    json_t *back = json_loads(buf, 0, NULL);
    DG_CHECK_STR(dg_res_str(back, "which"), "fifo");
    json_decref(back);
    struct stat st;
    DG_CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    DG_CHECK_STR(listing(dir), "fifo");

    /* a socket: nothing to write into */
    char sock[512];
    snprintf(sock, sizeof sock, "%s/sock", dir);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
    if (s >= 0 && strlen(sock) < sizeof sa.sun_path &&
        bind(s, (struct sockaddr *)&sa, sizeof sa) == 0) {
        DG_CHECK_INT(dg_result_write(doc, sock, &e), DG_E_IO);
        char want[700];
        snprintf(want, sizeof want,
                 "cannot write result file '%s': it is a socket (write to a file, a fifo, a "
                 "device or '-')",
                 sock);
        DG_CHECK_STR(e.msg, want);
        DG_CHECK(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode));
        DG_CHECK_STR(listing(dir), "fifo sock");
    }
    if (s >= 0)
        close(s);

    /* a character device (root only: mknod), a private copy of /dev/null's numbers */
    char dev[512];
    snprintf(dev, sizeof dev, "%s/null", dir);
    if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
        DG_CHECK_INT(dg_result_write(doc, dev, NULL), 0);
        DG_CHECK(lstat(dev, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
    }
    json_decref(doc);
}

/* dg_file_same: one file by any name (hard link, symbolic link, ./), not two files with
 * equal contents, not a missing file. */
static void test_file_same(void)
{
    char dir[256], a[512], b[512], hard[512], soft[512], dotted[512], missing[512];
    subdir("same", dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    snprintf(hard, sizeof hard, "%s/hard.json", dir);
    snprintf(soft, sizeof soft, "%s/soft.json", dir);
    snprintf(dotted, sizeof dotted, "%s/./a.json", dir);
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    write_text(a, "{}\n");
    write_text(b, "{}\n");
    DG_CHECK_INT(link(a, hard), 0);
    DG_CHECK_INT(symlink("a.json", soft), 0);
    DG_CHECK(dg_file_same(a, a));
    DG_CHECK(dg_file_same(a, hard));
    DG_CHECK(dg_file_same(soft, a));
    DG_CHECK(dg_file_same(dotted, a));
    DG_CHECK(!dg_file_same(a, b));
    DG_CHECK(!dg_file_same(a, missing));
    DG_CHECK(!dg_file_same(missing, missing)); /* nothing to overwrite */
}

/* ---- reading ------------------------------------------------------------------------------ */

static const struct {
    const char *name, *text;
    int rc;
    const char *msg;  /* after "PATH"; the whole message when tail is NULL */
    const char *tail; /* the end of the message after msg and something variable; a
                         leading "COL" stands for a column number ("FILE:LINE:COL: ...") */
} reads[] = {
    {"ok.json", "{\"dbgauge\": {\"format\": 1}}", 0, NULL, NULL},
    {"ok2.json", "{\"dbgauge\": {\"format\": 2}}", 0, NULL, NULL},
    /* formats start at 1: 0 and below were never written, the document is not ours */
    {"zero.json", "{\"dbgauge\": {\"format\": 0, \"version\": \"0.0.1\"}}", DG_E_PARSE,
     ": dbgauge.format 0 is not a result format (this dbgauge reads formats 1 to 2, an integer)", NULL},
    {"minus.json", "{\"dbgauge\": {\"format\": -1}}", DG_E_PARSE,
     ": dbgauge.format -1 is not a result format (this dbgauge reads formats 1 to 2, an integer)", NULL},
    {"nullfmt.json", "{\"dbgauge\": {\"format\": null}}", DG_E_PARSE,
     ": dbgauge.format null is not a result format (this dbgauge reads formats 1 to 2, an integer)",
     NULL},
    {"longfmt.json", "{\"dbgauge\": {\"format\": \"0123456789012345678901234567890123456789\"}}",
     DG_E_PARSE,
     ": dbgauge.format \"012345678901234567890123456789012345678... is not a result format (this "
     "dbgauge reads formats 1 to 2, an integer)",
     NULL},
    /* the number in the message is checked in test_known_bugs */
    {"newer.json", "{\"dbgauge\": {\"format\": 3}}", DG_E_PARSE, ": result format ",
     " is newer than this dbgauge understands (2)"},
    {"much-newer.json", "{\"dbgauge\": {\"format\": 12345678901}}", DG_E_PARSE,
     ": result format ", " is newer than this dbgauge understands (2)"},
    {"plain.json", "{\"a\": 1}", DG_E_PARSE, ": not a dbgauge result file (no dbgauge.format)",
     NULL},
    {"array.json", "[1, 2]", DG_E_PARSE, ": not a dbgauge result file (no dbgauge.format)", NULL},
    {"strfmt.json", "{\"dbgauge\": {\"format\": \"1\"}}", DG_E_PARSE,
     ": dbgauge.format \"1\" is not a result format (this dbgauge reads formats 1 to 2, an integer)", NULL},
    {"realfmt.json", "{\"dbgauge\": {\"format\": 1.0}}", DG_E_PARSE,
     ": dbgauge.format 1.0 is not a result format (this dbgauge reads formats 1 to 2, an integer)", NULL},
    {"flat.json", "{\"dbgauge\": 1}", DG_E_PARSE,
     ": not a dbgauge result file (no dbgauge.format)", NULL},
    {"malformed.json", "{\"dbgauge\": {\"format\": 1},\n  \"x\": }\n", DG_E_PARSE, ":2:",
     "COL: error: unexpected token near '}'"},
    {"junk.json", "{\"dbgauge\": {\"format\": 1}} junk", DG_E_PARSE, ":1:",
     "COL: error: end of file expected near 'junk'"},
    {"truncated.json", "{\"dbgauge\": {\"format\": 1},\n \"run\": {\"tps\": 12", DG_E_PARSE,
     ":2:", "COL: error: '}' expected near end of file"},
    {"empty.json", "", DG_E_PARSE, ":1:", "COL: error: '[' or '{' expected near end of file"},
};

static void test_read(void)
{
    char dir[256], path[512], want[1024];
    subdir("read", dir, sizeof dir);
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, reads[i].name);
        write_text(path, reads[i].text);
        json_t *sentinel = json_string("untouched");
        json_t *out = sentinel;
        dg_err e = DG_ERR_INIT;
        int rc = dg_result_read(path, &out, &e);
        DG_CHECK_INT(rc, reads[i].rc);
        if (reads[i].rc == 0) {
            DG_CHECK(out != sentinel && json_is_object(out));
            if (out != sentinel)
                json_decref(out);
        } else {
            DG_CHECK(out == sentinel); /* *out written only on success */
            snprintf(want, sizeof want, "%s%s", path, reads[i].msg);
            if (reads[i].tail) {
                DG_CHECK(starts_with(e.msg, want));
                const char *rest = e.msg + strlen(want), *tail = reads[i].tail;
                if (starts_with(tail, "COL")) {
                    DG_CHECK(*rest >= '0' && *rest <= '9');
                    while (*rest >= '0' && *rest <= '9')
                        rest++;
                    tail += 3;
                    DG_CHECK_STR(rest, tail);
                } else {
                    size_t nr = strlen(rest), nt = strlen(tail);
                    DG_CHECK(nr > nt && strcmp(rest + nr - nt, tail) == 0);
                }
                if (!starts_with(e.msg, want) || !strstr(e.msg, tail))
                    fprintf(stderr, "  got \"%s\"\n", e.msg);
            } else {
                DG_CHECK_STR(e.msg, want);
            }
            DG_CHECK_INT(dg_result_read(path, &out, NULL), reads[i].rc);
        }
        json_decref(sentinel);
    }

    /* a missing file is an I/O error, not a parse error */
    snprintf(path, sizeof path, "%s/none.json", dir);
    json_t *out = NULL;
    dg_err e = DG_ERR_INIT;
    DG_CHECK_INT(dg_result_read(path, &out, &e), DG_E_IO);
    DG_CHECK(out == NULL);
    snprintf(want, sizeof want, "cannot read result file '%s': ", path);
    DG_CHECK(starts_with(e.msg, want));
    DG_CHECK(strstr(e.msg, "No such file or directory") != NULL);
}

/* ---- histograms and latency ---------------------------------------------------------------- */

static void check_same_hist(const dg_hist *a, const dg_hist *b)
{
    DG_CHECK_INT(a->total, b->total);
    DG_CHECK(a->sum_ns == b->sum_ns);
    DG_CHECK_INT(a->min_ns, b->min_ns);
    DG_CHECK_INT(a->max_ns, b->max_ns);
    DG_CHECK_INT(a->lo_idx, b->lo_idx);
    DG_CHECK_INT(a->hi_idx, b->hi_idx);
    int diff = 0, first = -1;
    for (int i = 0; i < DG_HIST_LEN; i++)
        if (a->counts[i] != b->counts[i] && diff++ == 0)
            first = i;
    if (diff)
        fprintf(stderr, "  %d counters differ, first at index %d\n", diff, first);
    DG_CHECK_INT(diff, 0);
    static const double pcts[] = {0, 1, 50, 90, 95, 99, 99.9, 100};
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
        DG_CHECK_INT(dg_hist_percentile(a, pcts[i]), dg_hist_percentile(b, pcts[i]));
}

static void test_hist_round_trip(void)
{
    dg_hist h, h2;
    if (dg_hist_init(&h) || dg_hist_init(&h2)) {
        DG_CHECK(0);
        return;
    }
    static const int64_t values[] = {
        0, 1, 100, 2047, 2048, 2049, 2050, 5000, 5001, 123456, 999999, 1000000, 1000001,
        INT64_C(3000000000), DG_HIST_MAX_NS,
        DG_HIST_MAX_NS + 12345, /* clamped into the top bucket */
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        dg_hist_record(&h, values[i]);
    dg_hist_record_n(&h, 250000, 1000);
    dg_hist_record_n(&h, 7, 3);

    json_t *j = dg_result_hist(&h);
    DG_CHECK_STR(json_string_value(json_object_get(j, "unit")), "ns");
    DG_CHECK_INT(json_integer_value(json_object_get(j, "min_ns")), 0);
    DG_CHECK_INT(json_integer_value(json_object_get(j, "max_ns")), DG_HIST_MAX_NS + 12345);
    DG_CHECK(json_integer_value(json_object_get(j, "sum_ns")) == (json_int_t)h.sum_ns);
    json_t *buckets = json_object_get(j, "buckets");
    /* one [low, count] pair per non-empty bucket, in increasing order; 7 ns is exact */
    int nonempty = 0;
    for (int i = 0; i < DG_HIST_LEN; i++)
        nonempty += h.counts[i] != 0;
    DG_CHECK_INT(json_array_size(buckets), nonempty);
    DG_CHECK_INT(json_integer_value(json_array_get(json_array_get(buckets, 0), 0)), 0);
    DG_CHECK_INT(json_integer_value(json_array_get(json_array_get(buckets, 0), 1)), 1);
    DG_CHECK_INT(json_integer_value(json_array_get(json_array_get(buckets, 2), 0)), 7);
    DG_CHECK_INT(json_integer_value(json_array_get(json_array_get(buckets, 2), 1)), 3);

    /* through a file and back */
    char dir[256], path[512];
    subdir("hist", dir, sizeof dir);
    snprintf(path, sizeof path, "%s/h.json", dir);
    json_t *doc = dg_result_new();
    json_object_set_new(doc, "hist", j);
    DG_CHECK_INT(dg_result_write(doc, path, NULL), 0);
    json_t *back = NULL;
    DG_CHECK_INT(dg_result_read(path, &back, NULL), 0);
    DG_CHECK_INT(dg_result_hist_read(dg_res_get(back, "hist"), &h2), 0);
    check_same_hist(&h, &h2);

    json_decref(back);
    json_decref(doc);
    dg_hist_destroy(&h);
    dg_hist_destroy(&h2);
}

static void test_hist_empty(void)
{
    dg_hist h, h2;
    if (dg_hist_init(&h) || dg_hist_init(&h2)) {
        DG_CHECK(0);
        return;
    }
    json_t *j = dg_result_hist(&h);
    char *text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
    DG_CHECK_STR(text, "{\"buckets\":[],\"max_ns\":0,\"min_ns\":0,\"sum_ns\":0,\"unit\":\"ns\"}");
    free(text);
    DG_CHECK_INT(dg_result_hist_read(j, &h2), 0);
    DG_CHECK_INT(h2.total, 0);
    DG_CHECK_INT(h2.min_ns, INT64_MAX);
    DG_CHECK_INT(h2.max_ns, 0);
    DG_CHECK(h2.sum_ns == 0);
    json_decref(j);

    /* buckets alone: min, max and sum come from the buckets */
    json_t *only = json_loads("{\"buckets\": [[1000, 3]]}", 0, NULL);
    DG_CHECK_INT(dg_result_hist_read(only, &h2), 0);
    DG_CHECK_INT(h2.total, 3);
    DG_CHECK_INT(h2.min_ns, 1000);
    DG_CHECK_INT(h2.max_ns, 1000);
    DG_CHECK(h2.sum_ns == 3000);
    json_decref(only);
    dg_hist_destroy(&h);
    dg_hist_destroy(&h2);
}

static void test_hist_read_errors(void)
{
    static const char *const bad[] = {
        "{}",
        "{\"unit\": \"ns\"}",
        "{\"buckets\": 5}",
        "{\"buckets\": {}}",
        "{\"buckets\": [5]}",
        "{\"buckets\": [[1]]}",
        "{\"buckets\": [[]]}",
        "{\"buckets\": [[1, -1]]}",
        "{\"buckets\": [[\"a\", 1]]}",
        "{\"buckets\": [[1, \"2\"]]}",
        "{\"buckets\": [[1.5, 2]]}",
        "{\"buckets\": [[1, 2.0]]}",
        "{\"buckets\": [[1, null]]}",
    };
    dg_hist h;
    if (dg_hist_init(&h)) {
        DG_CHECK(0);
        return;
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i], 0, NULL);
        DG_CHECK(j != NULL);
        int rc = dg_result_hist_read(j, &h);
        if (rc != DG_E_PARSE)
            fprintf(stderr, "  input %s\n", bad[i]);
        DG_CHECK_INT(rc, DG_E_PARSE);
        json_decref(j);
        dg_hist_reset(&h);
    }
    DG_CHECK_INT(dg_result_hist_read(NULL, &h), DG_E_PARSE);
    dg_hist_destroy(&h);
}

static void test_latency(void)
{
    dg_hist h;
    if (dg_hist_init(&h)) {
        DG_CHECK(0);
        return;
    }
    static const char *const keys[] = {"avg", "min", "max", "p50", "p90", "p95", "p99", "p999"};
    json_t *j = dg_result_latency(&h);
    DG_CHECK_INT(json_object_size(j), 8);
    for (size_t i = 0; i < 8; i++)
        DG_CHECK(json_is_null(json_object_get(j, keys[i])));
    json_decref(j);

    dg_hist_record(&h, 1000000); /* 1 ms */
    dg_hist_record(&h, 2000000);
    dg_hist_record(&h, 3000000);
    j = dg_result_latency(&h);
    DG_CHECK_INT(json_object_size(j), 8);
    DG_CHECK_NEAR(dg_res_num(j, "avg", -1), 2.0, 0);
    DG_CHECK_NEAR(dg_res_num(j, "min", -1), 1.0, 0);
    DG_CHECK_NEAR(dg_res_num(j, "max", -1), 3.0, 0);
    /* percentiles are bucket midpoints: within 1/1024 of the value, in ms */
    DG_CHECK_NEAR(dg_res_num(j, "p50", -1), 2.0, 2.0 / 1024);
    DG_CHECK_NEAR(dg_res_num(j, "p90", -1), 3.0, 3.0 / 1024);
    DG_CHECK_NEAR(dg_res_num(j, "p999", -1), 3.0, 3.0 / 1024);
    json_decref(j);
    dg_hist_destroy(&h);
}

/* ---- getters ------------------------------------------------------------------------------ */

static void test_getters(void)
{
    json_t *doc = sample_doc();
    static const struct {
        const char *path;
        const char *str; /* expected dg_res_str, NULL = none */
        double num;      /* expected dg_res_num with default -1 */
    } rows[] = {
        {"run.workload", "tpcc", -1},
        {"run.terminals", NULL, 8},
        {"totals.tps", NULL, 1234.5},
        {"transactions.0.name", "new_order", -1},
        {"transactions.1.count", NULL, 950},
        {"transactions.2.name", NULL, -1},
        {"transactions.-1.name", NULL, -1},
        {"transactions.x.name", NULL, -1},
        {"transactions.name", NULL, -1},
        {"run.workload.x", NULL, -1},
        {"missing", NULL, -1},
        {"run.missing", NULL, -1},
        {"totals.missing", NULL, -1}, /* null is not a number */
        {"run.warmup", NULL, -1},     /* nor is true */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *s = dg_res_str(doc, rows[i].path);
        if (rows[i].str)
            DG_CHECK_STR(s, rows[i].str);
        else
            DG_CHECK(s == NULL);
        DG_CHECK_NEAR(dg_res_num(doc, rows[i].path, -1), rows[i].num, 0);
    }
    DG_CHECK(dg_res_get(doc, "") == doc);
    DG_CHECK(dg_res_get(NULL, "run") == NULL);
    char longkey[200];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    DG_CHECK(dg_res_get(doc, longkey) == NULL);
    json_decref(doc);
}

/* Regression (src/results/result.c, dg_result_read): for a newer format, the document was
 * freed (json_decref) before the message read the format number from it, a read after
 * free inside jansson (so ASan did not see it; valgrind does). The message showed
 * whatever the freed memory held: "result format 0 is newer ..." for a file with format 2
 * (then the first newer than this dbgauge's). */
static void test_newer_format_message(void)
{
    char dir[256], path[512], want[1024];
    subdir("kb", dir, sizeof dir);
    static const struct {
        const char *text, *number;
    } cases[] = {{"{\"dbgauge\": {\"format\": 3}}", "3"},
                 {"{\"dbgauge\": {\"format\": 12345678901}}", "12345678901"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, "%s/newer%zu.json", dir, i);
        write_text(path, cases[i].text);
        json_t *out = NULL;
        dg_err e = DG_ERR_INIT;
        DG_CHECK_INT(dg_result_read(path, &out, &e), DG_E_PARSE);
        snprintf(want, sizeof want,
                 "%s: result format %s is newer than this dbgauge understands (2)", path,
                 cases[i].number);
        DG_CHECK_STR(e.msg, want);
    }
}

/* dg_res_ranked: numbers largest first, ties in the object's order, the rest skipped, at
 * most max (a larger one arriving late still takes its place). */
static void test_ranked(void)
{
    json_t *o = json_loads("{\"a\": 0.1, \"b\": 0.5, \"c\": \"x\", \"d\": 0.5, \"e\": 0.05, \"f\": 0.9}",
                           JSON_PRESERVE_ORDER, NULL);
    DG_CHECK(o != NULL);
    const char *r[8];
    DG_CHECK_INT(dg_res_ranked(o, r, 8), 5);
    DG_CHECK_STR(r[0], "f");
    DG_CHECK_STR(r[1], "b");
    DG_CHECK_STR(r[2], "d");
    DG_CHECK_STR(r[3], "a");
    DG_CHECK_STR(r[4], "e");
    DG_CHECK_INT(dg_res_ranked(o, r, 2), 2);
    DG_CHECK_STR(r[0], "f");
    DG_CHECK_STR(r[1], "b");
    DG_CHECK_INT(dg_res_ranked(NULL, r, 2), 0);
    json_decref(o);
}

/* The cache's parts between two readings: matched by name whatever their order, a part
 * only one reading has or whose counters went back (a restart) left out, none: NULL. */
static void test_cache_parts(void)
{
    dg_dbstats a, b;
    memset(&a, 0xff, sizeof a); /* as dg_stats leaves what a backend does not set */
    memset(&b, 0xff, sizeof b);
    DG_CHECK(dg_doc_cache_parts_json(&a, &b) == NULL);
    a.ncache_parts = 3;
    a.cache_parts[0] = (dg_cachepart){"tables", 100, 10};
    a.cache_parts[1] = (dg_cachepart){"indexes", 50, 5};
    a.cache_parts[2] = (dg_cachepart){"toast", 7, 7};
    DG_CHECK(dg_doc_cache_parts_json(&a, &b) == NULL);
    b.ncache_parts = 4;
    b.cache_parts[0] = (dg_cachepart){"indexes", 50, 5};
    b.cache_parts[1] = (dg_cachepart){"tables", 190, 20};
    b.cache_parts[2] = (dg_cachepart){"toast", 1, 1};
    b.cache_parts[3] = (dg_cachepart){"xml", 9, 9};
    json_t *j = dg_doc_cache_parts_json(&a, &b);
    DG_CHECK(j != NULL);
    DG_CHECK_INT(json_object_size(j), 2);
    json_t *t = json_object_get(j, "tables");
    DG_CHECK_INT(json_integer_value(json_object_get(t, "hits")), 90);
    DG_CHECK_INT(json_integer_value(json_object_get(t, "reads")), 10);
    DG_CHECK_NEAR(json_real_value(json_object_get(t, "hit_pct")), 90.0, 1e-9);
    DG_CHECK(json_is_null(json_object_get(json_object_get(j, "indexes"), "hit_pct")));
    DG_CHECK(json_object_get(j, "toast") == NULL);
    DG_CHECK(json_object_get(j, "xml") == NULL);
    DG_CHECK_STR(json_object_iter_key(json_object_iter(j)), "indexes"); /* b's order */
    json_decref(j);
    DG_CHECK(dg_doc_cache_parts_json(NULL, &b) == NULL);
}

int main(void)
{
    DG_RUN(test_ranked);
    DG_RUN(test_cache_parts);
    snprintf(root, sizeof root, "/tmp/dg-test-result-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    DG_RUN(test_new);
    DG_RUN(test_write_read_round_trip);
    DG_RUN(test_overwrite);
    DG_RUN(test_failed_write_keeps_old_file);
    DG_RUN(test_write_errors);
    DG_RUN(test_write_links);
    DG_RUN(test_write_special);
    DG_RUN(test_file_same);
    DG_RUN(test_read);
    DG_RUN(test_hist_round_trip);
    DG_RUN(test_hist_empty);
    DG_RUN(test_hist_read_errors);
    DG_RUN(test_latency);
    DG_RUN(test_getters);
    DG_RUN(test_newer_format_message);
    dgt_remove_tree(root);
    DG_TEST_END();
}
