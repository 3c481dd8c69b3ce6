/*
 * dialect.h - renders portable SQL templates into one database's dialect.
 *
 * Workloads write their DDL and statements once, with markers in braces that the
 * connection's dg_dialect fills in:
 *
 *   {int} {bigint} {double} {text} {timestamp} {clob}   column types
 *   {xml}                                                the XML type if there is one, else {clob}
 *   {numeric P,S} {char N} {varchar N}                   sized types
 *   {now}                                                current timestamp expression
 *   {octet_length COL}                                   a text or XML column's bytes
 *   {xml_octet_length COL}                               the same, of a column of {xml}
 *   {for_update}                                         locking-read suffix (may be empty)
 *   {limit N}                                            row limit suffix (LIMIT N / ROWS N)
 *
 * Anything else in braces is an error (a bug in the workload, reported with the marker).
 */
#ifndef DG_BACKEND_DIALECT_H
#define DG_BACKEND_DIALECT_H

#include "backend/backend.h"
#include "core/strbuf.h"

/* The dialects of the engines dbgauge speaks natively, for any backend that reaches one
 * (the native backend, or ODBC to that engine). */
extern const dg_dialect dg_dialect_postgres, dg_dialect_mysql, dg_dialect_sqlite;
/* Engines dbgauge reaches through ODBC only, their dialects written from the engines'
 * manuals and not verified on a real server (the backend marks them so). */
extern const dg_dialect dg_dialect_db2, dg_dialect_cubrid;

/* Appends the rendering of tmpl to out. Returns 0 or DG_E_INVAL (unknown marker). */
int dg_sql_render(const dg_dialect *d, const char *tmpl, dg_strbuf *out, dg_err *err);

/* Renders into a new string (caller frees); aborts on an unknown marker, which is a
 * programming error in a built-in workload. */
char *dg_sql_renderx(const dg_dialect *d, const char *tmpl);

/* Appends "INSERT INTO table (c1, c2, ...) VALUES (?, ?, ...)", the statement of the
 * bulk paths that insert row by row. */
void dg_sql_insert(const char *table, const char *const *cols, int ncols, dg_strbuf *out);

/* The engine's page cache in bytes from its cache setting (dg_dialect.cache_setting) as the
 * server facts show it: PostgreSQL's shared_buffers ("128MB", "16GB", or a count of 8 kB
 * pages), MariaDB's innodb_buffer_pool_size (bytes), SQLite's cache_size (pages of
 * page_size, or KiB when negative), Firebird's page_buffers (pages of page_size).
 * page_size: the database page's size as text (NULL when not known). -1 when it cannot
 * be told. */
double dg_cache_bytes(const char *setting, const char *value, const char *page_size);

/* Renders the CREATE TABLE template (ending with its closing parenthesis) of a table a
 * loader fills. With pk_cols, where the primary key is the table's storage order (dialect
 * pk_at_create: InnoDB), the key is declared here, and loaders that write in key order skip
 * adding it after the load (dg_sql_pk_after_load). The dialect's load_table_options follow
 * (the loader's statistics step undoes them). Returns a new string (caller frees). */
char *dg_sql_create_table(const dg_dialect *d, const char *tmpl, const char *pk_cols);
/* False where dg_sql_create_table declared the primary key already. */
bool dg_sql_pk_after_load(const dg_dialect *d);

/* Appends the statement that adds primary key `name` on (cols) to a loaded table. */
void dg_sql_add_pk(const dg_dialect *d, const char *table, const char *name, const char *cols,
                   dg_strbuf *out);

#endif
