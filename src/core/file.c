/* file.c - see file.h. */
#include "core/file.h"

#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed before giving up (Linux's own limit for a path lookup). */
#define MAX_LINKS 40

/* fsync of the directory holding path, so that a rename in it survives a crash. */
static int sync_dir(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, strlen(dir) + 1, ".");
    else if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* Writes all of data to fd (short writes and EINTR repeated). 0 or -1 with errno. */
static int write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        off += (size_t)w;
    }
    return 0;
}

/* stat of a descriptor and of a path name the same file. */
static bool same_fd(int fd, const struct stat *st)
{
    struct stat fs;
    return fstat(fd, &fs) == 0 && fs.st_dev == st->st_dev && fs.st_ino == st->st_ino;
}

/* The final target of path with every symbolic link of its last component followed, also
 * when the target does not exist yet (a dangling link names the file to create). A relative
 * link is read from the link's directory. Returns a new string, or NULL with errno (ELOOP,
 * or the error of lstat/readlink other than ENOENT). */
static char *link_target(const char *path)
{
    char *cur = xstrdup(path);
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT)
                return cur;
            free(cur);
            return NULL;
        }
        if (!S_ISLNK(st.st_mode))
            return cur;
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        buf[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (buf[0] == '/' || !slash)
            next = xstrdup(buf);
        else
            next = xasprintf("%.*s/%s", (int)(slash - cur), cur, buf);
        free(cur);
        cur = next;
    }
}

/* Writes to an open descriptor that is not ours to replace (standard output or error). */
static int write_fd(int fd, const char *path, const char *data, size_t len, const char *what,
                    dg_err *err)
{
    if (fd == STDOUT_FILENO && fflush(stdout) != 0)
        return dg_err_fail(err, DG_E_IO, "cannot write %s to standard output: %s", what,
                           strerror(errno));
    if (fd == STDERR_FILENO)
        fflush(stderr);
    if (write_all(fd, data, len) != 0)
        return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    return 0;
}

/* Writes into an existing device or fifo where it is (path as given: the kernel follows
 * its links, /proc/self/fd's included). *regular is set when the path turned out to name a
 * regular file by the time it was opened (replaced since the stat): nothing was written
 * and the caller writes it atomically instead. */
static int write_in_place(const char *path, const char *data, size_t len, const char *what,
                          bool *regular, dg_err *err)
{
    *regular = false;
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': no device or reader behind it",
                               what, path);
        return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    } else if (S_ISREG(st.st_mode)) {
        *regular = true;
    } else if (write_all(fd, data, len) != 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    } else if (S_ISBLK(st.st_mode) && fsync(fd) != 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    }
    if (close(fd) != 0 && rc == 0 && !*regular)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    return rc;
}

/* The temporary file + fsync + rename of a regular file at target (no links left to
 * follow; `shown` is the path the user gave, for messages). durable false: no fsync (a
 * reader still sees the old file or the new one, but a crash may lose the new one). */
static int write_atomic(const char *target, const char *shown, const char *data, size_t len,
                        const char *what, bool durable, dg_err *err)
{
    struct stat old;
    bool had = stat(target, &old) == 0 && S_ISREG(old.st_mode);
    char *tmp = xasprintf("%s.tmp.%ld", target, (long)getpid());
    int rc = 0;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, shown, strerror(errno));
        free(tmp);
        return rc;
    }
    if (write_all(fd, data, len) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, shown, strerror(errno));
    /* the replacement keeps the file's permissions (a report made readable to a group) */
    if (rc == 0 && had && fchmod(fd, old.st_mode & 07777) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, shown, strerror(errno));
    if (rc == 0 && durable && fsync(fd) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, shown, strerror(errno));
    if (close(fd) != 0 && rc == 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, shown, strerror(errno));
    if (rc == 0 && rename(tmp, target) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': renaming '%s': %s", what, shown, tmp,
                         strerror(errno));
    if (rc == 0 && durable && sync_dir(target) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': syncing its directory: %s", what,
                         shown, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

static int file_write(const char *path, const char *data, size_t len, const char *what,
                      bool durable, dg_err *err)
{
    if (strcmp(path, "-") == 0)
        return write_fd(STDOUT_FILENO, "standard output", data, len, what, err);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (same_fd(STDOUT_FILENO, &st))
            return write_fd(STDOUT_FILENO, path, data, len, what, err);
        if (same_fd(STDERR_FILENO, &st))
            return write_fd(STDERR_FILENO, path, data, len, what, err);
        if (S_ISDIR(st.st_mode))
            return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': it is a directory", what, path);
        if (S_ISSOCK(st.st_mode))
            return dg_err_fail(err, DG_E_IO,
                               "cannot write %s '%s': it is a socket (write to a file, a fifo, a "
                               "device or '-')",
                               what, path);
        if (!S_ISREG(st.st_mode)) {
            bool regular;
            int rc = write_in_place(path, data, len, what, &regular, err);
            if (rc || !regular)
                return rc;
        }
    } else if (errno != ENOENT) {
        return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    }
    char *target = link_target(path);
    if (!target)
        return dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    int rc = write_atomic(target, path, data, len, what, durable, err);
    free(target);
    return rc;
}

int dg_file_write(const char *path, const char *data, size_t len, const char *what, dg_err *err)
{
    return file_write(path, data, len, what, true, err);
}

int dg_file_replace(const char *path, const char *data, size_t len, const char *what, dg_err *err)
{
    return file_write(path, data, len, what, false, err);
}

bool dg_file_is_stdout(const char *path)
{
    if (strcmp(path, "-") == 0)
        return true;
    struct stat st;
    return stat(path, &st) == 0 && same_fd(STDOUT_FILENO, &st);
}

bool dg_file_same(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ha = strcmp(a, "-") == 0 ? fstat(STDOUT_FILENO, &sa) == 0 : stat(a, &sa) == 0;
    bool hb = strcmp(b, "-") == 0 ? fstat(STDOUT_FILENO, &sb) == 0 : stat(b, &sb) == 0;
    if (ha && hb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    bool same = ra && rb && strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

FILE *dg_file_open_stream(const char *path, const char *what, dg_err *err)
{
    int fd = -1;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
        return NULL;
    }
    if (strcmp(path, "-") == 0 || (exists && same_fd(STDOUT_FILENO, &st))) {
        fflush(stdout);
        fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    } else if (exists && S_ISDIR(st.st_mode)) {
        dg_err_fail(err, DG_E_IO, "cannot write %s '%s': it is a directory", what, path);
        return NULL;
    } else if (exists && S_ISSOCK(st.st_mode)) {
        dg_err_fail(err, DG_E_IO, "cannot write %s '%s': it is a socket (write to a file, a fifo, a device or '-')",
                    what, path);
        return NULL;
    } else if (exists && !S_ISREG(st.st_mode)) {
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY); /* a device or fifo: in place */
    } else {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
    }
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}
