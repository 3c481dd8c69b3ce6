/* file.c - see file.h. */
#include "core/file.h"

#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int dg_write_atomic(const char *path, const char *data, size_t len, const char *what, dg_err *err)
{
    char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
    int rc = 0;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
        free(tmp);
        return rc;
    }
    size_t off = 0;
    while (off < len && rc == 0) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
        else
            off += (size_t)w;
    }
    if (rc == 0 && fsync(fd) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    if (close(fd) != 0 && rc == 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': %s", what, path, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': renaming '%s': %s", what, path, tmp,
                         strerror(errno));
    if (rc == 0 && sync_dir(path) != 0)
        rc = dg_err_fail(err, DG_E_IO, "cannot write %s '%s': syncing its directory: %s", what,
                         path, strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}
