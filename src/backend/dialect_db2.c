/*
 * dialect_db2.c - IBM Db2's SQL dialect (dialect.h), for the ODBC backend through IBM's
 * Data Server Driver for ODBC and CLI: written from the Db2 11.5 (LUW) SQL reference and
 * NOT yet verified against a real server (docs/backends.md says how to run the ODBC tests
 * against one). The statements it renders for every built-in workload are in
 * tests/fixtures/dialect/db2.sql (test_dialect_golden).
 *
 * What differs from the ANSI default: documents in pureXML's XML type, queried with
 * XQuery inside SQL (XMLQUERY, XMLTABLE: the docs workload's xml-type storage); a locking read is an isolation clause (WITH RS USE
 * AND KEEP UPDATE LOCKS: the update locks held to the commit, where FOR UPDATE under the
 * default cursor stability lets go of a row when the cursor moves on); statistics are
 * RUNSTATS, an administrative command run through SYSPROC.ADMIN_CMD; the catalog
 * (SYSCAT.*), the monitoring table functions and the configuration views (SYSIBMADM.*)
 * give sizes, statistics and settings, with names folded to upper case. Transactions are
 * the driver's (autocommit off, SQL_ATTR_TXN_ISOLATION): Db2 has no BEGIN statement.
 */
#include "backend/dialect.h"

const dg_dialect dg_dialect_db2 = {
    .name = "db2",
    .t_int = "INTEGER",
    .t_bigint = "BIGINT",
    .t_double = "DOUBLE",
    .t_text = "VARCHAR(4000)",
    .t_timestamp = "TIMESTAMP",
    .t_blob_text = "CLOB(16M)", /* documents up to 16 MB (shredded-keys) */
    .t_xml = "XML",             /* pureXML: the docs workload's xml-type storage */
    .xml_style = DG_XML_XQUERY,
    .proc_style = DG_PROC_SQLPL, /* tpcc's procedures (workload/tpcc/procs.c) */
    .t_numeric = "DECIMAL",
    .t_char = "CHAR",
    .t_varchar = "VARCHAR",
    .sized_types = true,
    .now_expr = "CURRENT TIMESTAMP",
    .for_update = " WITH RS USE AND KEEP UPDATE LOCKS",
    .limit_style = DG_LIMIT_FETCH_FIRST,
    .update_returning = false, /* SELECT FROM FINAL TABLE (UPDATE ...) is the Db2 way */
    .delete_returning = false,
    .desc_index_columns = true,
    .drop_if_exists = false, /* the workloads look in the catalog first */
    .alter_add_pk = true,    /* on NOT NULL columns, as every workload declares its keys */
    /* RUNSTATS on the table in the connection's schema, with its indexes */
    .analyze_prefix = "CALL SYSPROC.ADMIN_CMD('RUNSTATS ON TABLE ' || RTRIM(CURRENT SCHEMA) || '.",
    .analyze_suffix = " WITH DISTRIBUTION AND SAMPLED DETAILED INDEXES ALL')",
    .analyze_name = "runstats",
    .parallel_ddl = true,
    .server_setting_sql =
        "SELECT VALUE FROM (SELECT NAME, VALUE FROM SYSIBMADM.DBCFG UNION ALL "
        "SELECT NAME, VALUE FROM SYSIBMADM.DBMCFG) AS c WHERE NAME = LOWER(?) "
        "FETCH FIRST 1 ROWS ONLY",
    /* the catalog's figures as of the last RUNSTATS (the load runs it): pages of the
     * table's (or its indexes') table space */
    .object_stats_sql =
        "SELECT LOWER(t.TABNAME), 'table', t.CARD, t.FPAGES * s.PAGESIZE, CAST(NULL AS INTEGER) "
        "FROM SYSCAT.TABLES t JOIN SYSCAT.TABLESPACES s ON s.TBSPACE = t.TBSPACE "
        "WHERE t.TABSCHEMA = CURRENT SCHEMA AND t.TABNAME = UPPER(?) "
        "UNION ALL SELECT LOWER(i.INDNAME), 'index', t.CARD, i.NLEAF * s.PAGESIZE, i.NLEVELS "
        "FROM SYSCAT.INDEXES i JOIN SYSCAT.TABLES t ON t.TABSCHEMA = i.TABSCHEMA AND "
        "t.TABNAME = i.TABNAME JOIN SYSCAT.TABLESPACES s ON s.TBSPACE = "
        "COALESCE(t.INDEX_TBSPACE, t.TBSPACE) WHERE i.TABSCHEMA = CURRENT SCHEMA AND "
        "i.TABNAME = UPPER(?)",
    .user_tables_sql = "SELECT LOWER(TABNAME) FROM SYSCAT.TABLES WHERE TABSCHEMA = CURRENT "
                       "SCHEMA AND TYPE = 'T' ORDER BY 1",
    /* the storage objects' physical sizes (KiB), current without statistics */
    .table_bytes_sql = "SELECT (DATA_OBJECT_P_SIZE + LONG_OBJECT_P_SIZE + LOB_OBJECT_P_SIZE + "
                       "XML_OBJECT_P_SIZE) * 1024, INDEX_OBJECT_P_SIZE * 1024 FROM "
                       "SYSIBMADM.ADMINTABINFO WHERE TABSCHEMA = CURRENT SCHEMA AND "
                       "TABNAME = UPPER(?)",
    .octet_length_open = "OCTET_LENGTH(",
    .octet_length_close = ")",
    .xml_octet_length_open = "OCTET_LENGTH(XMLSERIALIZE(",
    .xml_octet_length_close = " AS CLOB(16M)))",
    .max_params = 32767,
};
