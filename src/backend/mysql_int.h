/*
 * mysql_int.h - private to the MariaDB/MySQL backend (mysql.c, mysql_load.c,
 * mysql_stats.c): the connection and bulk load types and the functions one of those files
 * calls in another, all named dg_mysql_*. mysql.c holds errors, connection, statements and
 * transactions and calls into the other two only through the descriptor
 * (dg_backend_mysql); they call into mysql.c, never into each other.
 *
 * Layout: the types; the functions of mysql.c, then the entry points of mysql_load.c and
 * mysql_stats.c that the descriptor names.
 */
#ifndef DG_BACKEND_MYSQL_INT_H
#define DG_BACKEND_MYSQL_INT_H

#include "backend/backend.h"
#include "backend/mysql_api.h"

#include "core/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


typedef struct my_conn {
    dg_conn base; /* must be first */
    MYSQL *my;
    /* what mysql_real_connect got, kept to reconnect the monitor (see ensure_connected) */
    char *host, *user, *pass, *db, *socket, *charset;
    unsigned port, connect_timeout;
    unsigned read_timeout, write_timeout; /* seconds a call may wait on the socket; 0 none */
    char **init_cmds; /* SET SESSION ..., NULL-terminated */
    char *password;   /* scrubbed from messages; NULL when none or public (= user name) */
    unsigned generation; /* bumped by a reconnect: statements prepare themselves again */
    int local_infile;    /* server's local_infile: -1 not asked yet, 0 off, 1 on */
    bool client_infile;  /* LOAD DATA LOCAL allowed by the URL (?local_infile=0: no) */
    unsigned long max_packet;
    struct my_bulk *infile; /* the bulk load the local-infile handler serves */
    bool nonblock;          /* opened by a fiber: every call through _start/_cont (below) */
    bool from_cnf;          /* a connection setting came from ~/.my.cnf (said in errors) */
} my_conn;

typedef struct my_bulk {
    dg_bulk base; /* must be first */
    const char *table;
    char *cols;         /* "(a, b, c)" */
    int ncols;
    bool infile;        /* LOAD DATA LOCAL path, else multi-row INSERT */
    bool wide_cols;     /* infile: a column's charset does not take ASCII bytes as they are
                           (ucs2, utf16, utf32): every chunk is sent as utf8mb4 */
    unsigned char high; /* infile: the OR of the chunk's text bytes (>= 0x80: not ASCII) */
    dg_strbuf buf;      /* tab-separated rows (infile) or the INSERT being built */
    size_t sent;        /* infile: bytes of buf already handed to the server */
    size_t flush_at;
    int rows_in_insert;
    char *esc;          /* INSERT path: escaped text (grow-only) */
    size_t esccap;
} my_bulk;

extern const dg_backend dg_backend_mysql;


/* ---- mysql.c -------------------------------------------------------------------------- */

/* Runs text SQL (possibly several statements), discarding result sets; see its definition
 * for may_commit. 0 or DG_E_DB. */
int dg_mysql_exec_sql(my_conn *c, const char *sql, bool may_commit, dg_err *err);
/* Runs a query whose result *out the caller reads (mysql_free_result). 0 or DG_E_DB. */
int dg_mysql_query_result(my_conn *c, const char *sql, MYSQL_RES **out, dg_err *err);
/* Opens a session with the saved settings into *out (blocking or not, as c was opened). */
int dg_mysql_open_session(my_conn *c, MYSQL **out, dg_err *err);
/* Closes a session handle (nonblock: as it was opened). */
void dg_mysql_nb_close(bool nonblock, MYSQL *my);

/* ---- mysql_load.c --------------------------------------------------------------------- */

int dg_mysql_bulk_begin(dg_conn *conn, const char *table, const char *const *cols, int ncols,
                        dg_bulk **out, dg_err *err);
int dg_mysql_bulk_row(dg_bulk *bulk, const dg_value *vals, dg_err *err);
int dg_mysql_bulk_end(dg_bulk *bulk, bool commit, dg_err *err);

/* ---- mysql_stats.c -------------------------------------------------------------------- */

int dg_mysql_stats(dg_conn *conn, dg_dbstats *out, dg_err *err);
int dg_mysql_server_info(dg_conn *conn, dg_server_info *out, dg_err *err);
int dg_mysql_table_exists(dg_conn *conn, const char *table, bool *out, dg_err *err);

#endif
