/*
 * fbext.h - records of a Firebird external table, as the Firebird backend's external bulk
 * path (?external_dir=) writes them: one fixed-length binary record per row, which the
 * server reads with INSERT INTO t SELECT ... FROM <external table>.
 *
 * How Firebird lays the file out (checked against files a Firebird 3 server wrote itself):
 * a record is the table's in-memory record without its leading NULL flags, fields in
 * declaration order, each aligned on its type's boundary counted from the record's start
 * (BIGINT, DOUBLE PRECISION and TIMESTAMP 8, DATE and TIME 4, VARCHAR 2, BOOLEAN and CHAR
 * 1), no padding after the last field and none between records. The flags take a multiple
 * of 4 bytes, so declaring the fields by falling alignment (dg_fbx_plan) makes every
 * offset independent of how many there are. Values are in the machine's byte order (the
 * server's: external tables only work on the same machine). A VARCHAR is a 2-byte length
 * and its bytes, in the declared character set, the rest of its room zeroed: text keeps
 * every byte, trailing spaces and NULs included, with no fixed-width padding to trim.
 * A TIMESTAMP is ISC_DATE (days from 1858-11-17) and ISC_TIME (1/10000 s after midnight).
 *
 * External tables have no NULL: every column has a BOOLEAN indicator declared after the
 * values (TRUE = NULL), and the INSERT ... SELECT reads it only for the columns where a
 * NULL was written (CASE WHEN n THEN NULL ELSE c END), so columns without NULLs cost
 * nothing.
 *
 * Values convert as the server converts a parameter: an INT or NUMERIC to a scaled
 * integer (NUMERIC(18,s), rounding half away from zero to the column's scale), to a
 * double or to text; TEXT to a number when it spells one, to a TIMESTAMP / DATE / TIME
 * when it reads 'YYYY-MM-DD[ HH:MM:SS[.ffff]]' / 'HH:MM:SS[.ffff]'. Text longer than its
 * column (in bytes, and in characters for UTF8) or malformed UTF8 is refused here, where
 * the server would refuse the parameter. Range checks of narrower integer columns
 * (SMALLINT, INTEGER, NUMERIC(4,2) ...) are left to the server's assignment.
 *
 * Pure encoding, no libfbclient: compiled into every build, unit-tested without a server.
 */
#ifndef DG_BACKEND_FBEXT_H
#define DG_BACKEND_FBEXT_H

#include "backend/backend.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum dg_fbx_kind {
    DG_FBX_UNSUPPORTED = 0, /* blobs, arrays, Firebird 4 types: the table takes another path */
    DG_FBX_INT64,           /* BIGINT or NUMERIC(18, scale): every integer and exact column */
    DG_FBX_DOUBLE,          /* DOUBLE PRECISION (FLOAT columns too) */
    DG_FBX_TIMESTAMP,
    DG_FBX_DATE,
    DG_FBX_TIME,
    DG_FBX_VARCHAR,         /* VARCHAR(chars) in the connection's character set */
    DG_FBX_BOOL,
} dg_fbx_kind;

/* One column of the external table. The caller fills name, kind, scale, chars, bytes and
 * utf8; dg_fbx_plan fills the offsets; dg_fbx_encode sets saw_null. */
typedef struct dg_fbx_col {
    char name[64];   /* the target column (for messages and the INSERT) */
    dg_fbx_kind kind;
    int scale;       /* INT64: digits after the point */
    int chars;       /* VARCHAR: declared length in characters */
    int bytes;       /* VARCHAR: room in bytes (chars x bytes per character) */
    bool utf8;       /* VARCHAR: the text must be UTF8 of at most `chars` characters */
    bool octets;     /* VARCHAR: binary (CHARACTER SET OCTETS), no character checks */
    size_t off;      /* the value in the file record */
    size_t null_off; /* its NULL indicator */
    bool saw_null;   /* a NULL was written (the SELECT must read the indicator) */
} dg_fbx_col;

/* Assigns offsets (values by falling alignment, then the indicators) and writes the
 * record length to *rec_bytes (OUT). order (OUT, n entries) receives the column indexes in
 * declaration order. Returns 0, or DG_E_INVAL when a kind is unsupported or a VARCHAR's
 * room is outside 1..32765 bytes. */
int dg_fbx_plan(dg_fbx_col *cols, int n, int *order, size_t *rec_bytes, dg_err *err);

/* The SQL type of a column in the CREATE TABLE ... EXTERNAL FILE ("BIGINT",
 * "NUMERIC(18,2)", "VARCHAR(24) CHARACTER SET UTF8" ...) into buf. charset: the
 * connection's character set name. */
void dg_fbx_sql_type(const dg_fbx_col *col, const char *charset, char *buf, size_t len);

/* Writes one row (vals[n], in column order) into rec (rec_bytes as planned; zeroed here
 * first). Returns 0, or DG_E_INVAL with a message naming the column and the value when a
 * value does not convert. */
int dg_fbx_encode(dg_fbx_col *cols, int n, const dg_value *vals, unsigned char *rec,
                  size_t rec_bytes, dg_err *err);

/* Text 'YYYY-MM-DD[( |T)HH:MM:SS[.f{1,9}]]' (time part optional for a TIMESTAMP, absent
 * for a DATE) or 'HH:MM:SS[.f]' (TIME) to Firebird's day number and 1/10000-second time.
 * False when the text is not one of those or names no real day or time. */
bool dg_fbx_parse_timestamp(const char *p, size_t n, dg_fbx_kind kind, int32_t *date,
                            uint32_t *time);

#endif
