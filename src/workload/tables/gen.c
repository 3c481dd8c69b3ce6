/*
 * gen.c - the data of the tables workload (see tables.h for the layout): keys, table
 * shapes and the row generator.
 *
 * Long text columns (col6 0..1000 characters, col7 and col8 50..300, col14 5..20) are
 * slices of one pool of letters and digits built once from a fixed generator, at offsets
 * and lengths drawn per row: rows of about 1 KB as in the study, generated without
 * writing a kilobyte per row. Short key columns are written per row.
 */
#include "workload/tables/tables.h"

#include "core/prng.h"

#include <pthread.h>
#include <string.h>

#define POOL_LEN 8192
#define POOL_MAX_SLICE 1000

static char pool[POOL_LEN + 1];
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static void pool_init(void)
{
    dg_prng g;
    dg_prng_seed(&g, UINT64_C(0x706f6f6c)); /* "pool": the same on every run */
    for (int i = 0; i < POOL_LEN; i++)
        pool[i] = alnum[dg_prng_range(&g, 0, 61)];
    pool[POOL_LEN] = '\0';
}

const char *const dg_tables_cols[14] = {"id",    "seq",   "col3",  "col4",  "col5",
                                        "col6",  "col7",  "col8",  "col9",  "col10",
                                        "col11", "col12", "col13", "col14"};

static uint64_t mix(uint64_t seed, uint64_t stream, int table, int64_t i, int64_t seq)
{
    uint64_t x = seed ^ stream;
    uint64_t h = dg_splitmix64(&x);
    x = h ^ ((uint64_t)table << 52) ^ ((uint64_t)i << 5) ^ (uint64_t)seq;
    return dg_splitmix64(&x);
}

#define S_NSEQ UINT64_C(0x6e73657100000000)   /* "nseq" */
#define S_JITTER UINT64_C(0x6a69747400000000) /* "jitt" */
#define S_ROW UINT64_C(0x726f770000000000)    /* "row" */

int dg_tables_nseq(uint64_t seed, int table, int64_t i)
{
    return 1 + (int)(mix(seed, S_NSEQ, table, i, 0) % TABLES_MAX_SEQ);
}

void dg_tables_shape_of(uint64_t seed, int table, int64_t rows, dg_tables_shape *out)
{
    out->rows = rows;
    out->ids = 0;
    out->last_nseq = 0;
    int64_t have = 0;
    while (have < rows) {
        int n = dg_tables_nseq(seed, table, out->ids);
        if (have + n > rows)
            n = (int)(rows - have);
        have += n;
        out->last_nseq = n;
        out->ids++;
    }
}

int dg_tables_rows_of_id(uint64_t seed, int table, const dg_tables_shape *s, int64_t i)
{
    if (i < 0 || i >= s->ids)
        return 0;
    return i == s->ids - 1 ? s->last_nseq : dg_tables_nseq(seed, table, i);
}

int64_t dg_tables_rows_share(int64_t total, int n, int table)
{
    return total / n + (table < total % n ? 1 : 0);
}

static void digits(char *out, uint64_t v, int n)
{
    for (int k = n - 1; k >= 0; k--) {
        out[k] = (char)('0' + v % 10);
        v /= 10;
    }
}

void dg_tables_key(uint64_t seed, int table, int64_t i, char out[14])
{
    uint64_t jitter = mix(seed, S_JITTER, table, i, 0) % TABLES_KEY_STRIDE;
    out[0] = 'U';
    digits(out + 1, (uint64_t)i * TABLES_KEY_STRIDE + jitter, 12);
    out[13] = '\0';
}

int64_t dg_tables_key_index(const char *key, size_t len)
{
    if (len != 13 || key[0] != 'U')
        return -1;
    uint64_t v = 0;
    for (size_t k = 1; k < 13; k++) {
        if (key[k] < '0' || key[k] > '9')
            return -1;
        v = v * 10 + (uint64_t)(key[k] - '0');
    }
    return (int64_t)(v / TABLES_KEY_STRIDE);
}

static void word(dg_prng *g, char *out, int n, const char *set, int setlen)
{
    for (int k = 0; k < n; k++)
        out[k] = set[dg_prng_range(g, 0, setlen - 1)];
    out[n] = '\0';
}

/* A slice of the pool of lo..hi characters. */
static const char *slice(dg_prng *g, int lo, int hi, int *len)
{
    *len = (int)dg_prng_range(g, lo, hi);
    return pool + dg_prng_range(g, 0, POOL_LEN - POOL_MAX_SLICE);
}

/* 'YYYY-MM-DD HH:MM:SS' of a second in 2010 (days from the civil calendar, no libc). */
static void stamp_2010(int64_t sec, char out[20])
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t day = sec / 86400, rem = sec % 86400;
    int m = 0;
    while (m < 11 && day >= mdays[m])
        day -= mdays[m++];
    memcpy(out, "2010-", 5);
    digits(out + 5, (uint64_t)(m + 1), 2);
    out[7] = '-';
    digits(out + 8, (uint64_t)(day + 1), 2);
    out[10] = ' ';
    digits(out + 11, (uint64_t)(rem / 3600), 2);
    out[13] = ':';
    digits(out + 14, (uint64_t)(rem / 60 % 60), 2);
    out[16] = ':';
    digits(out + 17, (uint64_t)(rem % 60), 2);
    out[19] = '\0';
}

void dg_tables_row_gen(uint64_t seed, int table, int64_t i, int64_t seq, bool full,
                       dg_tables_row *r)
{
    pthread_once(&pool_once, pool_init);
    dg_prng g;
    dg_prng_seed(&g, mix(seed, S_ROW, table, i, seq));
    dg_tables_key(seed, table, i, r->id);
    r->seq = seq;
    r->n3 = (int)dg_prng_range(&g, 8, 16);
    word(&g, r->col3, r->n3, alnum, 26);
    r->n4 = (int)dg_prng_range(&g, 1, 5);
    word(&g, r->col4, r->n4, alnum + 26, 36);
    /* col5: 10..40 characters, '-', the seq: unique per id, so iuk_tbl is unique */
    int n = (int)dg_prng_range(&g, 10, 40);
    word(&g, r->col5, n, alnum, 62);
    r->col5[n++] = '-';
    int nd = seq >= 10 ? 2 : 1;
    digits(r->col5 + n, (uint64_t)seq, nd);
    r->n5 = n + nd;
    r->col5[r->n5] = '\0';
    if (!full)
        return;
    if (dg_prng_range(&g, 0, 9) == 0) { /* 10% NULL */
        r->col6 = NULL;
        r->n6 = -1;
    } else {
        r->col6 = slice(&g, 0, 1000, &r->n6);
    }
    r->col7 = slice(&g, 50, 300, &r->n7);
    r->col8 = slice(&g, 50, 300, &r->n8);
    stamp_2010(dg_prng_range(&g, 0, 365 * 86400 - 1), r->col9);
    r->col10 = dg_prng_range(&g, 0, 999999);
    r->col11 = dg_prng_range(&g, 0, INT64_C(999999999999));
    r->col12_cents = dg_prng_range(&g, 0, INT64_C(9999999999));
    r->col13[0] = dg_prng_range(&g, 0, 1) ? 'Y' : 'N';
    r->col13[1] = '\0';
    r->col14 = slice(&g, 5, 20, &r->n14);
}

static dg_value text_or_null(const char *p, int n)
{
    return n < 0 ? dg_vnull() : dg_vtext(p, (size_t)n);
}

void dg_tables_row_values(const dg_tables_row *r, dg_value v[14])
{
    v[0] = dg_vtext(r->id, 13);
    v[1] = dg_vint(r->seq);
    v[2] = dg_vtext(r->col3, (size_t)r->n3);
    v[3] = dg_vtext(r->col4, (size_t)r->n4);
    v[4] = dg_vtext(r->col5, (size_t)r->n5);
    v[5] = text_or_null(r->col6, r->n6);
    v[6] = dg_vtext(r->col7, (size_t)r->n7);
    v[7] = dg_vtext(r->col8, (size_t)r->n8);
    v[8] = dg_vtext(r->col9, 19);
    v[9] = dg_vint(r->col10);
    v[10] = dg_vint(r->col11);
    v[11] = dg_vnumeric(r->col12_cents, 2);
    v[12] = dg_vtext(r->col13, 1);
    v[13] = dg_vtext(r->col14, (size_t)r->n14);
}
