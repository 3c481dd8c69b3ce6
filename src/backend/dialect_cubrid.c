/*
 * dialect_cubrid.c - CUBRID's SQL dialect (dialect.h), for the ODBC backend through
 * CUBRID's ODBC driver: written from the CUBRID 11 manual and NOT yet verified against a
 * real server (docs/backends.md says how to run the ODBC tests against one). The
 * statements it renders for every built-in workload are in
 * tests/fixtures/dialect/cubrid.sql (test_dialect_golden).
 *
 * What differs from the ANSI default: LIMIT; STRING (VARCHAR of up to a billion
 * characters) for long text, kept in the row's pages where CLOB goes to external files;
 * DATETIME (milliseconds; TIMESTAMP has seconds and ends in 2038); UPDATE STATISTICS;
 * the catalog view db_class, with names folded to lower case. Stored procedures are Java,
 * which dbgauge does not write; the engine's statistics are read by its utilities, not in
 * SQL, so a run through ODBC records none. Transactions are the driver's (autocommit off,
 * SQL_ATTR_TXN_ISOLATION).
 */
#include "backend/dialect.h"

const dg_dialect dg_dialect_cubrid = {
    .name = "cubrid",
    .t_int = "INTEGER",
    .t_bigint = "BIGINT",
    .t_double = "DOUBLE",
    .t_text = "STRING",
    .t_timestamp = "DATETIME",
    .t_blob_text = "STRING",
    .xml_style = DG_XML_NONE,
    .proc_style = DG_PROC_NONE,
    .t_numeric = "NUMERIC",
    .t_char = "CHAR",
    .t_varchar = "VARCHAR",
    .sized_types = true,
    .now_expr = "SYS_DATETIME",
    .for_update = " FOR UPDATE", /* CUBRID 10.0 and later */
    .limit_style = DG_LIMIT_LIMIT,
    .update_returning = false,
    .delete_returning = false,
    .desc_index_columns = true,
    .drop_if_exists = true,
    .alter_add_pk = true,
    .analyze_prefix = "UPDATE STATISTICS ON ",
    .analyze_name = "update statistics",
    .parallel_ddl = true,
    .user_tables_sql = "SELECT class_name FROM db_class WHERE is_system_class = 'NO' AND "
                       "class_type = 'CLASS' ORDER BY 1",
    .octet_length_open = "OCTET_LENGTH(",
    .octet_length_close = ")",
    .max_params = 32767,
};
