/*
 * mysql_cnf.h - the connection settings of the user's MySQL option file (~/.my.cnf), the
 * file the mysql client reads, so that a URL without a password connects as the client
 * does. Only the groups [client] and [client-mariadb] and only the keys that say where and
 * as whom to connect are read: user, password, host, port, socket, database (a dash and
 * an underscore are alike in key names). A later value wins, as in the client. The URL
 * (and --conn) always win over the file: mysql.c takes a value from here only where they
 * gave none.
 *
 * Parsing is pure (dg_mycnf_parse, unit-tested); dg_mycnf_load reads the file, and skips a
 * file that others may write (world-writable), as the client does, with a warning.
 */
#ifndef DG_BACKEND_MYSQL_CNF_H
#define DG_BACKEND_MYSQL_CNF_H

#include <stddef.h>

typedef struct dg_mycnf {
    char *user, *password, *host, *socket, *database;
    int port; /* 0: none */
} dg_mycnf;

/* Adds the settings of the option-file text (len bytes) to *cnf, later values replacing
 * earlier ones. Lines it does not understand (other groups, other keys, !include) are
 * skipped. A password given with no value (the client's "ask me") is no password. */
void dg_mycnf_parse(const char *text, size_t len, dg_mycnf *cnf);

/* Reads path into *cnf (zeroed first). 0 when it was read, 1 when there is none or it was
 * skipped (*why says why it was skipped, NULL when it does not exist). */
int dg_mycnf_load(const char *path, dg_mycnf *cnf, const char **why);

/* The user's option file: $HOME/.my.cnf into buf; NULL without HOME. */
const char *dg_mycnf_path(char *buf, size_t len);

void dg_mycnf_free(dg_mycnf *cnf);

#endif
