/*
 * workload.c - the workload registry and what all workloads share: opening by name,
 * --mix, the definition hash, table existence checks and dropping.
 */
#include "workload/workload.h"

#include "core/strbuf.h"
#include "core/units.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const dg_workload_def dg_workload_tpcb;
extern const dg_workload_def dg_workload_tpcc;
extern const dg_workload_def dg_workload_script;
extern const dg_workload_def dg_workload_tables;
extern const dg_workload_def dg_workload_docs;

static const dg_workload_def *const defs[] = {
    &dg_workload_tpcb,
    &dg_workload_tpcc,
    &dg_workload_tables,
    &dg_workload_docs,
    &dg_workload_script,
    NULL,
};

const dg_workload_def *const *dg_workload_defs(void)
{
    return defs;
}

int dg_workload_open(const dg_wl_config *cfg, dg_workload **out, dg_err *err)
{
    const char *name = cfg->name;
    if (!name || !*name)
        name = cfg->nscripts > 0 ? "script" : "tpcc";
    if (cfg->nscripts > 0 && strcmp(name, "script") != 0)
        return dg_err_fail(err, DG_E_INVAL,
                           "-f script files go with the 'script' workload, not '%s' (drop --workload "
                           "or say --workload script)",
                           name);
    const char *colon = strchr(name, ':');
    size_t base_len = colon ? (size_t)(colon - name) : strlen(name);
    for (const dg_workload_def *const *d = defs; *d; d++) {
        if (strlen((*d)->name) != base_len || strncmp((*d)->name, name, base_len) != 0)
            continue;
        if (colon) {
            bool ok = false;
            for (const char *const *v = (*d)->variants; v && *v; v++)
                if (!strcmp(*v, colon + 1))
                    ok = true;
            if (!ok) {
                dg_strbuf sb = DG_STRBUF_INIT;
                for (const char *const *v = (*d)->variants; v && *v; v++)
                    dg_sb_printf(&sb, "%s%s", sb.len ? ", " : "", *v);
                dg_err_fail(err, DG_E_INVAL, "unknown variant '%s' of workload '%s'%s%s%s", colon + 1,
                            (*d)->name, sb.len ? " (known: " : " (it has none",
                            dg_sb_str(&sb), ")");
                dg_sb_free(&sb);
                return DG_E_INVAL;
            }
        }
        if (cfg->scale_factor > 0 && !(*d)->fractional_scale &&
            (cfg->scale_factor != (double)(int64_t)cfg->scale_factor || cfg->scale_factor > 1e12))
            return dg_err_fail(err, DG_E_INVAL, "--scale %g: workload '%s' takes a whole number",
                               cfg->scale_factor, (*d)->name);
        if ((cfg->tables > 0 || cfg->key_range) && strcmp((*d)->name, "tables") != 0)
            return dg_err_fail(err, DG_E_INVAL, "%s applies to workload 'tables' only, not '%s'",
                               cfg->tables > 0 ? "--tables" : "--key-range", (*d)->name);
        /* --wl-opt names the definition does not declare are refused, not ignored */
        for (int i = 0; i < cfg->noptions; i++) {
            bool known = false;
            for (const char *const *o = (*d)->options; o && *o; o++)
                known |= !strcmp(*o, cfg->options[i].name);
            if (!known) {
                dg_strbuf sb = DG_STRBUF_INIT;
                for (const char *const *o = (*d)->options; o && *o; o++)
                    dg_sb_printf(&sb, "%s%s", sb.len ? ", " : "", *o);
                dg_err_fail(err, DG_E_INVAL, "unknown --wl-opt '%s' for workload '%s' (%s%s)",
                            cfg->options[i].name, (*d)->name, sb.len ? "known: " : "it takes none",
                            dg_sb_str(&sb));
                dg_sb_free(&sb);
                return DG_E_INVAL;
            }
        }
        dg_workload *wl = NULL;
        int rc = (*d)->open(*d, cfg, &wl, err);
        if (rc)
            return rc;
        wl->part = cfg->part;
        wl->nparts = cfg->nparts;
        if (cfg->mix && (rc = dg_workload_apply_mix(wl, cfg->mix, err)) != 0) {
            dg_workload_free(wl);
            return rc;
        }
        *out = wl;
        return 0;
    }
    dg_strbuf sb = DG_STRBUF_INIT;
    for (const dg_workload_def *const *d = defs; *d; d++)
        dg_sb_printf(&sb, "%s%s", sb.len ? ", " : "", (*d)->name);
    dg_err_fail(err, DG_E_INVAL, "unknown workload '%s' (known: %s; see 'dbgauge list')", name,
                dg_sb_str(&sb));
    dg_sb_free(&sb);
    return DG_E_INVAL;
}

void dg_workload_free(dg_workload *wl)
{
    if (!wl)
        return;
    if (wl->ops && wl->ops->free)
        wl->ops->free(wl);
    free(wl->name);
    free(wl->tx);
    free(wl);
}

int dg_workload_apply_mix(dg_workload *wl, const char *mix, dg_err *err)
{
    /* name=weight,name=weight; types not named keep their weight */
    char *copy = xstrdup(mix);
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        double w;
        if (!eq || dg_parse_double(eq + 1, -1e-300, &w) != 0 || w < 0) {
            rc = dg_err_fail(err, DG_E_INVAL, "invalid --mix entry '%s': expected NAME=WEIGHT", tok);
            break;
        }
        *eq = '\0';
        int i;
        for (i = 0; i < wl->ntx; i++)
            if (!strcmp(wl->tx[i].name, tok))
                break;
        if (i == wl->ntx) {
            dg_strbuf sb = DG_STRBUF_INIT;
            for (int k = 0; k < wl->ntx; k++)
                dg_sb_printf(&sb, "%s%s", k ? ", " : "", wl->tx[k].name);
            rc = dg_err_fail(err, DG_E_INVAL, "--mix names unknown transaction '%s' (workload %s has: %s)",
                             tok, wl->name, dg_sb_str(&sb));
            dg_sb_free(&sb);
            break;
        }
        wl->tx[i].weight = w;
    }
    free(copy);
    if (rc == 0) {
        double total = 0;
        for (int i = 0; i < wl->ntx; i++)
            total += wl->tx[i].weight;
        if (!(total > 0))
            rc = dg_err_fail(err, DG_E_INVAL, "--mix leaves every transaction with weight 0");
    }
    return rc;
}

void dg_workload_set_hash(dg_workload *wl, const char *text, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ULL;
    }
    snprintf(wl->hash, sizeof wl->hash, "%016llx", (unsigned long long)h);
}

int dg_workload_tables_exist(dg_workload *wl, dg_conn *conn, bool *all, bool *some, dg_err *err)
{
    bool a = true, s = false;
    for (const char *const *t = wl->tables; t && *t; t++) {
        bool e = false;
        int rc = dg_table_exists(conn, *t, &e, err);
        if (rc)
            return rc;
        a = a && e;
        s = s || e;
    }
    *all = a && wl->tables && wl->tables[0];
    *some = s;
    return 0;
}

int dg_workload_drop_tables(dg_workload *wl, dg_conn *conn, dg_err *err)
{
    for (const char *const *t = wl->tables; t && *t; t++) {
        bool e = false;
        int rc = dg_table_exists(conn, *t, &e, err);
        if (rc)
            return rc;
        if (!e)
            continue;
        char sql[160];
        snprintf(sql, sizeof sql, "DROP TABLE %s", *t);
        rc = dg_exec(conn, sql, err);
        if (rc) {
            dg_err_prefix(err, "dropping table %s", *t);
            return rc;
        }
    }
    return 0;
}

const char *dg_wl_option(const dg_wl_config *cfg, const char *name)
{
    for (int i = 0; i < cfg->noptions; i++)
        if (!strcmp(cfg->options[i].name, name))
            return cfg->options[i].value;
    return NULL;
}
