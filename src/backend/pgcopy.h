/*
 * pgcopy.h - PostgreSQL's binary COPY format, as the PostgreSQL backend's bulk loader
 * writes it: the file header and trailer, and one field (a 4-byte big-endian length, -1
 * for NULL, then the type's binary "send" form) for a dg_value going to a column of a
 * given type.
 *
 * The server then skips what dominates a text COPY of wide rows: finding line and field
 * boundaries, undoing escapes and parsing every number and timestamp. Values convert the
 * way a text COPY would convert them: an INT goes to a numeric, double or text column,
 * TEXT to a number or timestamp column when it spells one; what does not convert is an
 * error that names the value (a text COPY would have sent it and failed on the server).
 *
 * Pure encoding, no libpq: compiled into every build and unit-tested without a server.
 */
#ifndef DG_BACKEND_PGCOPY_H
#define DG_BACKEND_PGCOPY_H

#include "backend/backend.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dg_pgcopy_kind {
    DG_PGC_UNSUPPORTED = 0,
    DG_PGC_BOOL,
    DG_PGC_INT2,
    DG_PGC_INT4,
    DG_PGC_INT8,
    DG_PGC_FLOAT4,
    DG_PGC_FLOAT8,
    DG_PGC_NUMERIC,
    DG_PGC_TEXT, /* text, varchar, bpchar: the bytes as they are */
    DG_PGC_DATE,
    DG_PGC_TIMESTAMP, /* without time zone */
} dg_pgcopy_kind;

/* The kind for a column's type OID (PQftype); DG_PGC_UNSUPPORTED for any type the binary
 * path does not write (timestamptz, json, arrays, domains ...): the loader then uses the
 * text format for that COPY. */
dg_pgcopy_kind dg_pgcopy_kind_of(unsigned oid);

/* The 19-byte header (signature, flags, extension length) and the 2-byte trailer. */
#define DG_PGCOPY_HEADER_LEN 19
extern const char dg_pgcopy_header[DG_PGCOPY_HEADER_LEN];
#define DG_PGCOPY_TRAILER_LEN 2
extern const char dg_pgcopy_trailer[DG_PGCOPY_TRAILER_LEN];

/* A decimal integer ([+-]digits, nothing else) of n bytes into *out; false when it is not
 * one or does not fit 64 bits. (The backend reads the server's integer text with it too.) */
bool dg_pgcopy_parse_int(const char *p, size_t n, int64_t *out);

/* The most bytes dg_pgcopy_field writes for v (length word included). */
size_t dg_pgcopy_field_max(const dg_value *v);

/* Writes the field for v as a column of kind k at out (dg_pgcopy_field_max(v) bytes
 * available) and returns the bytes written; 0 when v cannot be that kind, with the reason
 * in why (the value shown, shortened). */
size_t dg_pgcopy_field(dg_pgcopy_kind k, const dg_value *v, char *out, char *why, size_t whylen);

#endif
