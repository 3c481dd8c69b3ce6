/*
 * mysql_api.h - the MariaDB Connector/C functions the backend calls, through a table
 * filled when the first connection opens the client library (core/dlib.h): a run on
 * another engine never maps, relocates or initialises libmariadb, and dbgauge starts
 * where MariaDB's client is not installed.
 *
 * The backend calls dg_my.mysql_real_connect(...) where it would call
 * mysql_real_connect(...); the prototypes are mysql.h's own (mysql_library_init is a
 * macro there for mysql_server_init, which is what the library exports).
 */
#ifndef DG_BACKEND_MYSQL_API_H
#define DG_BACKEND_MYSQL_API_H

#include "core/err.h"

#include <mysql.h>

#define DG_MY_FUNCTIONS(X) \
    X(mysql_close) \
    X(mysql_close_cont) \
    X(mysql_close_start) \
    X(mysql_errno) \
    X(mysql_error) \
    X(mysql_fetch_fields) \
    X(mysql_fetch_row) \
    X(mysql_field_count) \
    X(mysql_free_result) \
    X(mysql_get_server_info) \
    X(mysql_get_socket) \
    X(mysql_get_timeout_value_ms) \
    X(mysql_init) \
    X(mysql_next_result) \
    X(mysql_next_result_cont) \
    X(mysql_next_result_start) \
    X(mysql_num_fields) \
    X(mysql_optionsv) \
    X(mysql_real_connect) \
    X(mysql_real_connect_cont) \
    X(mysql_real_connect_start) \
    X(mysql_real_escape_string) \
    X(mysql_real_query) \
    X(mysql_real_query_cont) \
    X(mysql_real_query_start) \
    X(mysql_server_init) \
    X(mysql_set_local_infile_handler) \
    X(mysql_sqlstate) \
    X(mysql_stmt_affected_rows) \
    X(mysql_stmt_bind_param) \
    X(mysql_stmt_close) \
    X(mysql_stmt_close_cont) \
    X(mysql_stmt_close_start) \
    X(mysql_stmt_data_seek) \
    X(mysql_stmt_errno) \
    X(mysql_stmt_error) \
    X(mysql_stmt_execute) \
    X(mysql_stmt_execute_cont) \
    X(mysql_stmt_execute_start) \
    X(mysql_stmt_fetch) \
    X(mysql_stmt_fetch_column) \
    X(mysql_stmt_fetch_cont) \
    X(mysql_stmt_fetch_start) \
    X(mysql_stmt_field_count) \
    X(mysql_stmt_free_result) \
    X(mysql_stmt_free_result_cont) \
    X(mysql_stmt_free_result_start) \
    X(mysql_stmt_init) \
    X(mysql_stmt_more_results) \
    X(mysql_stmt_next_result) \
    X(mysql_stmt_next_result_cont) \
    X(mysql_stmt_next_result_start) \
    X(mysql_stmt_num_rows) \
    X(mysql_stmt_param_count) \
    X(mysql_stmt_prepare) \
    X(mysql_stmt_prepare_cont) \
    X(mysql_stmt_prepare_start) \
    X(mysql_stmt_result_metadata) \
    X(mysql_stmt_sqlstate) \
    X(mysql_stmt_store_result) \
    X(mysql_stmt_store_result_cont) \
    X(mysql_stmt_store_result_start) \
    X(mysql_store_result) \
    X(mysql_store_result_cont) \
    X(mysql_store_result_start) \
    X(mysql_thread_id) \
    X(mysql_warning_count)

typedef struct dg_my_api {
#define DG_MY_POINTER(f) __typeof__(f) *f;
    DG_MY_FUNCTIONS(DG_MY_POINTER)
#undef DG_MY_POINTER
} dg_my_api;

extern dg_my_api dg_my;

/* Opens the client library (libmariadb.so.3, or the file $DBGAUGE_MARIADB_CLIENT names)
 * and fills dg_my, once. 0, or DG_E_UNSUPPORTED with why it cannot be loaded. */
int dg_my_api_load(dg_err *err);

#endif
