/*
 * units.h - parsing and formatting of durations ("30s", "250ms", "2m", "1h") and sizes
 * ("10GB", "512MiB", "4k").
 */
#ifndef DG_CORE_UNITS_H
#define DG_CORE_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Parses a duration. A bare number means `default_unit_ns` units (e.g. DG_NS_PER_S for
 * seconds, DG_NS_PER_MS for milliseconds). Suffixes: ns us ms s m min h d. Fractions are
 * allowed ("1.5s"). Returns 0 and writes *out_ns, or DG_E_INVAL (nothing written). */
int dg_parse_duration(const char *s, int64_t default_unit_ns, int64_t *out_ns);

/* Parses a byte size: B, k/kB/KB (1000), KiB (1024), MB/MiB, GB/GiB, TB/TiB; a bare number
 * means bytes. Case-insensitive except that "b" is accepted for bytes. Returns 0 or
 * DG_E_INVAL. */
int dg_parse_size(const char *s, uint64_t *out_bytes);

/* Parses a decimal integer in [min, max]; 0 or DG_E_INVAL. */
int dg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);
/* A count with an optional decimal suffix: "25M" = 25,000,000, "1.6M", "500k", "2G";
 * the result must be a whole number within [min, max]. 0 or DG_E_INVAL. */
int dg_parse_count(const char *s, int64_t min, int64_t max, int64_t *out);

/* Parses a finite decimal double > min_exclusive (digits, sign, point, exponent; no hex,
 * spaces or words); 0 or DG_E_INVAL. */
int dg_parse_double(const char *s, double min_exclusive, double *out);

/* Formats a duration for humans ("1.5 s", "250 ms", "2 min 30 s") into buf. */
void dg_format_duration(int64_t ns, char *buf, size_t len);

/* Formats bytes for humans ("1.50 GB", decimal units) into buf. */
void dg_format_size(uint64_t bytes, char *buf, size_t len);

#endif
