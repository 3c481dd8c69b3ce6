/*
 * firebird_bulkpath.c - bulk=auto, the Firebird backend's default: which bulk path a load
 * takes, decided once per process and database by its first loader connection.
 *
 * External tables (firebird_load.c) copy records where EXECUTE BLOCK makes the server
 * parse a message and run PSQL per row: a tpcc load takes about half the time. They need
 * the engine that reads the files to be on this machine and to be allowed a directory
 * this process can write to. So:
 *   - a server on another host: EXECUTE BLOCK (it cannot read files written here);
 *   - else the engine's firebird.conf (backend/fbconf.h: the server process's FIREBIRD,
 *     from MON$SERVER_PID and /proc, else the installed root; this process's for an
 *     embedded database) says what ExternalFileAccess allows: None, the default, means
 *     EXECUTE BLOCK; Restrict DIR;... the first directory this process may write to;
 *     Full a private directory made under /var/tmp;
 *   - then a probe: a one-byte file in that directory read through an external table
 *     (databases.conf may forbid what firebird.conf allows, a server in a container sees
 *     other directories, its user may not read there). It reads its byte: external
 *     tables; it does not: EXECUTE BLOCK, with the server's message.
 * Every outcome has its reason, in the result (server.settings.bulk_why, load.bulk_path)
 * and in the load's summary. bulk=block|insert|external and external_dir=DIR decide
 * without any of this.
 */
#include "backend/fbconf.h"
#include "backend/firebird_int.h"

#include "core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
    pthread_mutex_t mu;
    bool decided;
    char target[1024];
    int bulk;                                  /* BULK_EXTERNAL or BULK_BLOCK */
    char dir[sizeof ((fb_opts *)0)->external_dir];
    char why[sizeof ((fb_conn *)0)->bulk_why];
} choice = {.mu = PTHREAD_MUTEX_INITIALIZER};

static char made_dir[256]; /* Full: the directory made for this process, removed at exit */

static void remove_made_dir(void)
{
    if (made_dir[0])
        rmdir(made_dir);
}

/* One statement in a transaction of its own, committed. -1 with c->sv holding the error. */
static int run_ddl(fb_conn *c, const char *sql)
{
    static const char tpb[] = {isc_tpb_version3, isc_tpb_write, isc_tpb_concurrency, isc_tpb_wait};
    isc_tr_handle t = 0;
    if (dg_fb.isc_start_transaction(c->sv, &t, 1, &c->db, (unsigned short)sizeof tpb, tpb))
        return -1;
    int rc = 0;
    if (dg_fb.isc_dsql_execute_immediate(c->sv, &c->db, &t, 0, sql, SQL_DIALECT, NULL) ||
        dg_fb.isc_commit_transaction(c->sv, &t))
        rc = -1;
    ISC_STATUS_ARRAY keep;
    memcpy(keep, c->sv, sizeof keep);
    dg_firebird_tx_abandon(&t);
    memcpy(c->sv, keep, sizeof keep);
    return rc;
}

/* Whether the engine reads a file of dir through an external table; why (when not) says
 * what it answered. */
static bool probe(fb_conn *c, const char *dir, const char *who, char *why, size_t len)
{
    char path[EXT_MAX_PATH + 1], table[48];
    int n = snprintf(path, sizeof path, "%s/dg_probe_%ld.dat", dir, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof path) {
        snprintf(why, len, "%s is too long a directory for an external file (at most %d bytes "
                 "with the file's name)", dir, EXT_MAX_PATH);
        return false;
    }
    snprintf(table, sizeof table, "DG_PROBE_%ld", (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1) {
        snprintf(why, len, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        unlink(path);
        return false;
    }
    close(fd);
    fchmodat(AT_FDCWD, path, 0644, 0); /* whatever the umask: the server's user reads it */
    char sql[EXT_MAX_PATH * 2 + 128];
    size_t k = (size_t)snprintf(sql, sizeof sql, "CREATE TABLE %s EXTERNAL FILE '", table);
    for (const char *p = path; *p && k + 3 < sizeof sql; p++) { /* quotes doubled */
        if (*p == '\'')
            sql[k++] = '\'';
        sql[k++] = *p;
    }
    snprintf(sql + k, sizeof sql - k, "' (C CHAR(1) CHARACTER SET OCTETS)");
    bool ok = false;
    dg_err err;
    dg_err_clear(&err);
    if (run_ddl(c, sql) != 0) {
        dg_firebird_fill_error(c, NULL, NULL, &err);
        snprintf(why, len, "cannot make an external table to try it: %s", err.msg);
        unlink(path);
        return false;
    }
    char q[96];
    snprintf(q, sizeof q, "SELECT COUNT(*) FROM %s", table);
    fb_stmt *s = NULL;
    if (dg_firebird_query_row(c, &s, q, NULL, &err) == 0) {
        int64_t rows = dg_firebird_col_int(s, 0);
        ok = rows == 1;
        if (!ok)
            snprintf(why, len, "the server read %lld records from %s, which holds one (it sees "
                     "another file there)", (long long)rows, path);
    } else {
        snprintf(why, len, "the %s cannot read %s: %s", who, path, err.msg);
    }
    dg_firebird_stmt_destroy(s);
    snprintf(sql, sizeof sql, "DROP TABLE %s", table);
    if (run_ddl(c, sql) != 0) {
        dg_firebird_fill_error(c, NULL, NULL, &err);
        dg_log_warn("firebird: cannot drop the probe table %s: %s", table, err.msg);
    }
    unlink(path);
    return ok;
}

/* The engine's root directory: the server process's or this one's. */
static bool engine_root(fb_conn *c, bool embedded, char *root, size_t len, char *why, size_t wlen)
{
    int pid = 0;
    if (!embedded) {
        fb_stmt *s = NULL;
        dg_err err;
        dg_err_clear(&err);
        if (dg_firebird_query_row(c, &s, dg_backend_firebird.server_pid_sql, NULL, &err) == 0)
            pid = (int)dg_firebird_col_int(s, 0);
        dg_firebird_stmt_destroy(s);
        if (pid <= 0) {
            snprintf(why, wlen, "cannot tell the server's process (MON$SERVER_PID: %s)",
                     err.msg[0] ? err.msg : "none");
            return false;
        }
        char exe[64];
        snprintf(exe, sizeof exe, "/proc/%d", pid);
        if (access(exe, F_OK) != 0) {
            snprintf(why, wlen, "the server's process %d is not on this machine (in another "
                     "container?): it cannot read files written here", pid);
            return false;
        }
    }
    return dg_fbconf_root(pid, root, len, why, wlen);
}

/* The directory the configuration allows, or false with why. */
static bool allowed_dir(const dg_fbconf_ext *e, const char *root, char *dir, size_t len,
                        char *why, size_t wlen)
{
    char said[1200];
    dg_fbconf_ext_describe(e, said, sizeof said);
    if (e->kind == DG_FBCONF_EXT_NONE) {
        if (e->line)
            snprintf(why, wlen, "ExternalFileAccess = %s in %s/firebird.conf (line %d)", said,
                     root, e->line);
        else
            snprintf(why, wlen, "ExternalFileAccess is not set in %s/firebird.conf (None: no "
                     "external files)", root);
        return false;
    }
    if (e->kind == DG_FBCONF_EXT_RESTRICT) {
        for (int i = 0; i < e->ndirs; i++)
            if (access(e->dirs[i], W_OK | X_OK) == 0) {
                snprintf(dir, len, "%s", e->dirs[i]);
                return true;
            }
        snprintf(why, wlen, "ExternalFileAccess = %s in %s/firebird.conf, and dbgauge cannot "
                 "write to %s", said, root, e->ndirs == 1 ? "it" : "any of them");
        return false;
    }
    if (!made_dir[0]) { /* Full: a directory of this process's own, readable by the server */
        char tmpl[] = "/var/tmp/dbgauge-fbext-XXXXXX";
        if (!mkdtemp(tmpl) || chmod(tmpl, 0755) != 0) {
            snprintf(why, wlen, "ExternalFileAccess = Full in %s/firebird.conf, but dbgauge "
                     "cannot make a directory under /var/tmp: %s", root, strerror(errno));
            return false;
        }
        snprintf(made_dir, sizeof made_dir, "%s", tmpl);
        atexit(remove_made_dir);
    }
    snprintf(dir, len, "%s", made_dir);
    return true;
}

static void decide(fb_conn *c)
{
    bool embedded = (c->base.caps & DG_CAP_EMBEDDED) != 0;
    char root[1024], dir[sizeof choice.dir], why[sizeof choice.why], more[sizeof choice.why];
    dg_fbconf_ext e;
    choice.bulk = BULK_BLOCK;
    if (!embedded && !c->base.server_local) {
        snprintf(choice.why, sizeof choice.why,
                 "the server is on another host: it cannot read load files written on this one "
                 "(external_dir=DIR names a directory both share)");
        return;
    }
    if (!engine_root(c, embedded, root, sizeof root, why, sizeof why) ||
        dg_fbconf_ext_load(root, &e, why, sizeof why) != 0 ||
        !allowed_dir(&e, root, dir, sizeof dir, why, sizeof why)) {
        snprintf(choice.why, sizeof choice.why, "%s", why);
        return;
    }
    if (!probe(c, dir, embedded ? "engine" : "server", more, sizeof more)) {
        snprintf(choice.why, sizeof choice.why, "ExternalFileAccess in %s/firebird.conf allows %s, "
                 "but %s", root, dir, more);
        return;
    }
    choice.bulk = BULK_EXTERNAL;
    snprintf(choice.dir, sizeof choice.dir, "%s", dir);
    snprintf(choice.why, sizeof choice.why, "ExternalFileAccess in %s/firebird.conf allows it, "
             "and the %s read a test file there", root, embedded ? "engine" : "server");
}

void dg_firebird_bulk_auto(fb_conn *c)
{
    pthread_mutex_lock(&choice.mu);
    if (!choice.decided || strcmp(choice.target, c->target) != 0) {
        choice.decided = true;
        snprintf(choice.target, sizeof choice.target, "%s", c->target);
        choice.dir[0] = '\0';
        decide(c);
        if (choice.bulk == BULK_EXTERNAL)
            dg_log_info("firebird: loading through external tables in %s: %s", choice.dir,
                        choice.why);
        else
            dg_log_info("firebird: loading through EXECUTE BLOCK, not external tables: %s (a "
                        "directory the engine may read and dbgauge may write, allowed with "
                        "ExternalFileAccess = Restrict DIR, makes loads faster)",
                        choice.why);
    }
    c->o.bulk = choice.bulk;
    if (choice.bulk == BULK_EXTERNAL)
        snprintf(c->o.external_dir, sizeof c->o.external_dir, "%s", choice.dir);
    snprintf(c->bulk_why, sizeof c->bulk_why, "%s", choice.why);
    pthread_mutex_unlock(&choice.mu);
}

const char *dg_firebird_bulk_why(fb_conn *c)
{
    if (c->bulk_why[0] || c->o.bulk != BULK_AUTO)
        return c->bulk_why;
    /* a connection that loads nothing (a run's): what this process's loads chose */
    pthread_mutex_lock(&choice.mu);
    if (choice.decided && !strcmp(choice.target, c->target)) {
        c->o.bulk = choice.bulk;
        if (choice.bulk == BULK_EXTERNAL)
            snprintf(c->o.external_dir, sizeof c->o.external_dir, "%s", choice.dir);
        snprintf(c->bulk_why, sizeof c->bulk_why, "%s", choice.why);
    }
    pthread_mutex_unlock(&choice.mu);
    return c->bulk_why;
}

void dg_firebird_bulk_path(dg_conn *conn, char *path, size_t plen, char *why, size_t wlen)
{
    fb_conn *c = (fb_conn *)conn;
    snprintf(why, wlen, "%s", dg_firebird_bulk_why(c));
    if (c->o.bulk == BULK_EXTERNAL)
        snprintf(path, plen, "external tables in %s", c->o.external_dir);
    else
        snprintf(path, plen, "%s", c->o.bulk == BULK_BLOCK    ? "EXECUTE BLOCK"
                                   : c->o.bulk == BULK_INSERT ? "prepared INSERT"
                                                              : "");
}
