/*
 * dialect_mysql.c - MariaDB's and MySQL's SQL dialect (dialect.h): its types, procedure
 * style, statistics queries. Built always, apart from the native backend, so the ODBC
 * backend speaks it to a MariaDB server through Connector/ODBC too.
 */
#include "backend/dialect.h"

const dg_dialect dg_dialect_mysql = {
    .name = "mysql",
    .t_int = "INT",
    .t_bigint = "BIGINT",
    .t_double = "DOUBLE",
    .t_text = "TEXT",
    .t_timestamp = "DATETIME(6)",
    .t_blob_text = "MEDIUMTEXT",
    .xml_style = DG_XML_EXTRACTVALUE,
    .t_numeric = "DECIMAL",
    .t_char = "CHAR",
    .t_varchar = "VARCHAR",
    .sized_types = true,
    .proc_style = DG_PROC_SQLPSM,
    .now_expr = "NOW(6)",
    .for_update = " FOR UPDATE",
    .limit_style = DG_LIMIT_LIMIT,
    .update_returning = false,
    /* MariaDB has DELETE ... RETURNING, MySQL has not; the dialect is one per backend */
    .delete_returning = false,
    /* honoured from MySQL 8.0 / MariaDB 10.8; older servers parse and ignore it */
    .desc_index_columns = true,
    .drop_if_exists = true,
    .alter_add_pk = true,
    .analyze_prefix = "ANALYZE TABLE ",
    .parallel_ddl = true,
    .pk_at_create = true, /* InnoDB tables are clustered on their primary key */
    /* InnoDB recomputes a table's persistent statistics in the background each time a
     * tenth of its rows are new: during a load that runs all along, on every table (a
     * quarter of the server's CPU loading tables). Off while loading; back to the server's
     * default (a change of metadata only: INSTANT on MariaDB, INPLACE on MySQL, each
     * server's own choice) just before the load's ANALYZE TABLE. */
    .load_table_options = " STATS_AUTO_RECALC=0",
    .after_load_alter = " STATS_AUTO_RECALC=DEFAULT",
    .post_load_sql = NULL,
    /* InnoDB's figures: the clustered index with its off-page values, and the secondary
     * indexes, as of the table's last statistics update */
    .server_setting_sql = "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES "
                          "WHERE VARIABLE_NAME = UPPER(?)",
    /* InnoDB's clustered index is the table; per secondary index sizes are in
     * mysql.innodb_index_stats, which a plain user may not read: their total */
    .object_stats_sql =
        "SELECT table_name, 'table', table_rows, data_length, NULL FROM information_schema.TABLES "
        "WHERE table_schema = DATABASE() AND table_name = ? "
        "UNION ALL SELECT '(secondary indexes)', 'index', NULL, index_length, NULL "
        "FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name = ? "
        "AND index_length > 0",
    .cache_setting = "innodb_buffer_pool_size",
    .user_tables_sql = "SELECT table_name FROM information_schema.TABLES WHERE table_schema = "
                       "DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1",
    .table_bytes_sql = "SELECT data_length, index_length FROM information_schema.tables "
                       "WHERE table_schema = DATABASE() AND table_name = ?",
    .table_bytes_refresh = "ANALYZE TABLE ",
    .octet_length_open = "OCTET_LENGTH(",
    .octet_length_close = ")",
    .max_params = 65535,
    /* the level applies to the next transaction only, so it goes before each */
    .begin = {
        {{"START TRANSACTION"}, {"START TRANSACTION READ ONLY"}},
        {{"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "START TRANSACTION"},
         {"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "START TRANSACTION READ ONLY"}},
        {{"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "START TRANSACTION"},
         {"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "START TRANSACTION READ ONLY"}},
        {{"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "START TRANSACTION"},
         {"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "START TRANSACTION READ ONLY"}},
    },
};
