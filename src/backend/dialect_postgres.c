/*
 * dialect_postgres.c - PostgreSQL's SQL dialect (dialect.h): its types, procedure style,
 * statistics queries. Built always, apart from the native backend, so the ODBC backend
 * speaks it to a PostgreSQL server through the psqlODBC driver too.
 */
#include "backend/dialect.h"

const dg_dialect dg_dialect_postgres = {
    .name = "postgres",
    .t_int = "int",
    .t_bigint = "bigint",
    .t_double = "double precision",
    .t_text = "text",
    .t_timestamp = "timestamp",
    .t_blob_text = "text",
    .t_xml = "xml",
    .xml_style = DG_XML_SQLXML,
    .t_numeric = "numeric",
    .t_char = "char",
    .t_varchar = "varchar",
    .sized_types = true,
    .proc_style = DG_PROC_PLPGSQL,
    .now_expr = "now()",
    .for_update = " FOR UPDATE",
    .limit_style = DG_LIMIT_LIMIT,
    .update_returning = true,
    .delete_returning = true,
    .desc_index_columns = true,
    .drop_if_exists = true,
    .alter_add_pk = true,
    /* per loaded table, as pgbench -i does: sets hint bits and the visibility map and
     * gathers statistics in one pass (dg_exec runs it outside a transaction block); a
     * database-wide VACUUM would also vacuum every other table of the database */
    .analyze_prefix = "VACUUM ANALYZE ",
    .parallel_ddl = true,
    .parallel_ddl_setup = "SET max_parallel_maintenance_workers = 0",
    .analyze_frozen_prefix = "ANALYZE ", /* COPY FREEZE left VACUUM nothing to do */
    .analyze_columns = true,
    .post_load_sql = NULL,
    /* pg_table_size: the heap, its TOAST table (compressed large values) and their maps */
    /* pg_settings: NOTFOUND for an unknown name (current_setting() alone would fail) */
    .server_setting_sql = "SELECT current_setting(name) FROM pg_settings WHERE name = lower(?)",
    /* reltuples as the load's ANALYZE left it; the depth of a B-tree is pageinspect's */
    .object_stats_sql =
        "SELECT c.relname, 'table', c.reltuples::bigint, pg_table_size(c.oid), NULL::int "
        "FROM pg_class c WHERE c.relname = ? AND c.relkind IN ('r', 'p') AND pg_table_is_visible(c.oid) "
        "UNION ALL SELECT i.relname, 'index', i.reltuples::bigint, pg_relation_size(i.oid), NULL::int "
        "FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid "
        "WHERE t.relname = ? AND pg_table_is_visible(t.oid) ORDER BY 2 DESC, 1",
    .cache_setting = "shared_buffers",
    .user_tables_sql = "SELECT c.relname FROM pg_class c WHERE c.relkind IN ('r', 'p') "
                       "AND pg_table_is_visible(c.oid) AND c.relnamespace NOT IN "
                       "('pg_catalog'::regnamespace, 'information_schema'::regnamespace) ORDER BY 1",
    .table_bytes_sql = "SELECT pg_table_size(c.oid), pg_indexes_size(c.oid) FROM pg_class c "
                       "JOIN pg_namespace n ON n.oid = c.relnamespace "
                       "WHERE n.nspname = current_schema() AND c.relname = ?",
    .octet_length_open = "octet_length(CAST(",
    .octet_length_close = " AS text))",
    .max_params = 65535,
    .begin = {
        {{"BEGIN"}, {"BEGIN READ ONLY"}},
        {{"BEGIN ISOLATION LEVEL READ COMMITTED"}, {"BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY"}},
        {{"BEGIN ISOLATION LEVEL REPEATABLE READ"}, {"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"}},
        {{"BEGIN ISOLATION LEVEL SERIALIZABLE"}, {"BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY"}},
    },
};
