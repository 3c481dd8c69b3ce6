/*
 * dgtest_fs.h - file-system helpers of the unit tests that work in a scratch directory.
 */
#ifndef DG_TEST_FS_H
#define DG_TEST_FS_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* rm -rf path (no error when it does not exist). */
static inline void dgt_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *de;
            while ((de = readdir(d)) != NULL) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                    continue;
                char child[1024];
                snprintf(child, sizeof child, "%s/%s", path, de->d_name);
                dgt_remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

#endif
