/* dialect.c - template markers -> dialect SQL (see dialect.h). */
#include "backend/dialect.h"

#include "core/log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dg_sql_render(const dg_dialect *d, const char *tmpl, dg_strbuf *out, dg_err *err)
{
    const char *p = tmpl;
    while (*p) {
        const char *open = strchr(p, '{');
        if (!open) {
            dg_sb_add(out, p);
            break;
        }
        dg_sb_addn(out, p, (size_t)(open - p));
        const char *close = strchr(open, '}');
        if (!close)
            return dg_err_fail(err, DG_E_INVAL, "unterminated '{' in SQL template: %s", open);
        char m[64];
        size_t n = (size_t)(close - open - 1);
        if (n >= sizeof m)
            return dg_err_fail(err, DG_E_INVAL, "bad SQL template marker: %.*s", (int)n + 2, open);
        memcpy(m, open + 1, n);
        m[n] = '\0';
        int a = 0, b = 0;
        if (!strcmp(m, "int"))
            dg_sb_add(out, d->t_int);
        else if (!strcmp(m, "bigint"))
            dg_sb_add(out, d->t_bigint);
        else if (!strcmp(m, "double"))
            dg_sb_add(out, d->t_double);
        else if (!strcmp(m, "text"))
            dg_sb_add(out, d->t_text);
        else if (!strcmp(m, "timestamp"))
            dg_sb_add(out, d->t_timestamp);
        else if (!strcmp(m, "clob"))
            dg_sb_add(out, d->t_blob_text);
        else if (!strcmp(m, "xml"))
            dg_sb_add(out, d->t_xml ? d->t_xml : d->t_blob_text);
        else if (!strncmp(m, "octet_length ", 13) && m[13])
            dg_sb_printf(out, "%s%s%s", d->octet_length_open, m + 13, d->octet_length_close);
        else if (!strncmp(m, "xml_octet_length ", 17) && m[17])
            dg_sb_printf(out, "%s%s%s",
                         d->xml_octet_length_open ? d->xml_octet_length_open
                                                  : d->octet_length_open,
                         m + 17,
                         d->xml_octet_length_open ? d->xml_octet_length_close
                                                  : d->octet_length_close);
        else if (!strcmp(m, "now"))
            dg_sb_add(out, d->now_expr);
        else if (!strcmp(m, "for_update"))
            dg_sb_add(out, d->for_update);
        else if (sscanf(m, "numeric %d,%d", &a, &b) == 2) {
            dg_sb_add(out, d->t_numeric);
            if (d->sized_types)
                dg_sb_printf(out, "(%d,%d)", a, b);
        } else if (sscanf(m, "char %d", &a) == 1) {
            dg_sb_add(out, d->t_char);
            if (d->sized_types)
                dg_sb_printf(out, "(%d)", a);
        } else if (sscanf(m, "varchar %d", &a) == 1) {
            dg_sb_add(out, d->t_varchar);
            if (d->sized_types)
                dg_sb_printf(out, "(%d)", a);
        }
        else if (sscanf(m, "limit %d", &a) == 1)
            dg_sb_printf(out,
                         d->limit_style == DG_LIMIT_ROWS          ? " ROWS %d"
                         : d->limit_style == DG_LIMIT_FETCH_FIRST ? " FETCH FIRST %d ROWS ONLY"
                                                                  : " LIMIT %d",
                         a);
        else
            return dg_err_fail(err, DG_E_INVAL, "unknown SQL template marker '{%s}'", m);
        p = close + 1;
    }
    return 0;
}

char *dg_sql_renderx(const dg_dialect *d, const char *tmpl)
{
    dg_strbuf sb = DG_STRBUF_INIT;
    dg_err e;
    if (dg_sql_render(d, tmpl, &sb, &e)) {
        dg_log_error("internal: %s", e.msg);
        abort();
    }
    return dg_sb_take(&sb);
}

void dg_sql_insert(const char *table, const char *const *cols, int ncols, dg_strbuf *out)
{
    dg_sb_printf(out, "INSERT INTO %s (", table);
    for (int i = 0; i < ncols; i++)
        dg_sb_printf(out, "%s%s", i ? ", " : "", cols[i]);
    dg_sb_add(out, ") VALUES (");
    for (int i = 0; i < ncols; i++)
        dg_sb_add(out, i ? ", ?" : "?");
    dg_sb_add(out, ")");
}

char *dg_sql_create_table(const dg_dialect *d, const char *tmpl, const char *pk_cols)
{
    char *sql = dg_sql_renderx(d, tmpl);
    char *close = strrchr(sql, ')');
    bool pk = d->pk_at_create && pk_cols && close;
    if (!pk && !d->load_table_options)
        return sql;
    dg_strbuf sb = DG_STRBUF_INIT;
    if (pk) {
        dg_sb_addn(&sb, sql, (size_t)(close - sql));
        dg_sb_printf(&sb, ", PRIMARY KEY (%s)%s", pk_cols, close);
    } else {
        dg_sb_add(&sb, sql);
    }
    if (d->load_table_options)
        dg_sb_add(&sb, d->load_table_options);
    free(sql);
    return dg_sb_take(&sb);
}

bool dg_sql_pk_after_load(const dg_dialect *d)
{
    return !d->pk_at_create;
}

void dg_sql_add_pk(const dg_dialect *d, const char *table, const char *name, const char *cols,
                   dg_strbuf *out)
{
    if (d->alter_add_pk)
        dg_sb_printf(out, "ALTER TABLE %s ADD CONSTRAINT %s PRIMARY KEY (%s)", table, name, cols);
    else
        dg_sb_printf(out, "CREATE UNIQUE INDEX %s ON %s (%s)", name, table, cols);
}

double dg_cache_bytes(const char *setting, const char *value, const char *page_size)
{
    if (!setting || !value || !*value)
        return -1;
    char *end;
    double v = strtod(value, &end);
    if (end == value || !isfinite(v))
        return -1;
    double page = page_size ? strtod(page_size, NULL) : 0;
    if (!strcmp(setting, "shared_buffers")) { /* PostgreSQL: binary units; none = 8 kB pages */
        while (*end == ' ')
            end++;
        static const struct {
            const char *unit;
            double mult;
        } units[] = {{"kB", 1024.0}, {"MB", 1048576.0}, {"GB", 1073741824.0}, {"TB", 1099511627776.0}};
        if (!*end)
            return v * 8192;
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (!strcmp(end, units[i].unit))
                return v * units[i].mult;
        return -1;
    }
    if (*end)
        return -1;
    if (!strcmp(setting, "innodb_buffer_pool_size"))
        return v;
    if (!strcmp(setting, "cache_size")) /* SQLite */
        return v < 0 ? -v * 1024 : page > 0 ? v * page : -1;
    if (!strcmp(setting, "page_buffers")) /* Firebird */
        return page > 0 ? v * page : -1;
    return -1;
}
