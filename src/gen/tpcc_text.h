/*
 * tpcc_text.h - TPC-C value generators (Clause 2.1.6, 4.3.2, 4.3.3.1): a-strings,
 * n-strings, zip codes, states, data fields with "ORIGINAL", customer last names, and
 * the rule that ties the run-time C constant of C_LAST to the load-time one.
 *
 * Every generator writes into a caller-supplied buffer, draws only from the caller's
 * dg_prng (core/prng.h) and allocates nothing, so the loader can call them millions of
 * times per second from several threads on separate generators. Buffers receive a NUL
 * terminator after the returned length; sizes are stated per function.
 *
 * Alphabet: a-strings use the 62 alphanumerics (a-z, A-Z, 0-9). The specification asks
 * for "random alphanumeric characters" and for a character *set* able to represent 128
 * characters and containing these 62; the generated strings stay ASCII so their length
 * in bytes equals their length in characters on every database.
 */
#ifndef DG_GEN_TPCC_TEXT_H
#define DG_GEN_TPCC_TEXT_H

#include "core/prng.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest last name: three syllables of at most 5 letters. */
#define DG_TPCC_LAST_MAX 15
/* The 62 characters of an a-string. */
#define DG_TPCC_ALNUM "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/* Fills out[0..len) with random alphanumerics (no terminator). */
void dg_tpcc_fill_alnum(dg_prng *st, char *out, size_t len);

/* a-string [min_len..max_len]: random length uniform in the range, random alphanumerics.
 * out holds max_len + 1 bytes. Returns the length. */
size_t dg_tpcc_astring(dg_prng *st, int min_len, int max_len, char *out);

/* n-string [min_len..max_len]: random length, random digits. out holds max_len + 1 bytes. */
size_t dg_tpcc_nstring(dg_prng *st, int min_len, int max_len, char *out);

/* Zip code (4.3.2.7): 4 random digits followed by "11111". out holds 10 bytes; returns 9. */
size_t dg_tpcc_zip(dg_prng *st, char *out);

/* State: 2 random upper-case letters. out holds 3 bytes; returns 2. */
size_t dg_tpcc_state(dg_prng *st, char *out);

/* I_DATA / S_DATA: an a-string [min_len..max_len] (min_len >= 8) in which, for 10% of the
 * calls chosen at random, "ORIGINAL" replaces 8 characters at a random position.
 * *original (NULL allowed) tells which. out holds max_len + 1 bytes. Returns the length. */
size_t dg_tpcc_data(dg_prng *st, int min_len, int max_len, char *out, bool *original);

/* Customer last name of number num in 0..999 (4.3.2.3): the syllables of its three
 * decimal digits, e.g. 371 -> "PRICALLYOUGHT". out holds DG_TPCC_LAST_MAX + 1 bytes.
 * Returns the length; num outside 0..999 is reduced modulo 1000. */
size_t dg_tpcc_last_name(int num, char *out);

/* True when c_run may be used at run time with the load-time constant c_load for C_LAST
 * (2.1.6.1): |c_run - c_load| in [65, 119] and neither 96 nor 112. */
bool dg_tpcc_c_run_valid(int64_t c_load, int64_t c_run);

/* Draws a run-time C for C_LAST in [0, 255] that satisfies dg_tpcc_c_run_valid() for
 * c_load (0..255; a valid value always exists). */
int64_t dg_tpcc_c_run(dg_prng *st, int64_t c_load);

#endif
