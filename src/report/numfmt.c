/*
 * numfmt.c - numbers as the report formats show them (numfmt.h).
 */
#include "report/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *dg_rep_fmt_num(double v, int prec, char *buf, size_t len)
{
    if (!isfinite(v))
        snprintf(buf, len, "-");
    else if (prec >= 0)
        snprintf(buf, len, "%.*f", prec, v);
    else if (prec == DG_PREC_AUTO && v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (fabs(v) >= 10)
        snprintf(buf, len, "%.1f", v);
    else if (fabs(v) >= 1)
        snprintf(buf, len, "%.2f", v);
    else
        snprintf(buf, len, "%.3f", v);
    /* "-0" and "-0.00" read as sign errors */
    if (buf[0] == '-' && buf[1] && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
    return buf;
}

int dg_rep_col_decimals(const dg_rep_table *t, int col)
{
    if (t->cols[col].prec >= 0 || t->cols[col].prec == DG_PREC_EACH)
        return t->cols[col].prec;
    double big = 0;
    bool ints = true;
    for (int r = 0; r < t->nrows; r++) {
        const dg_rep_cell *c = &t->cells[r * t->ncols + col];
        if (c->str || !isfinite(c->num))
            continue;
        big = fmax(big, fabs(c->num));
        ints = ints && c->num == floor(c->num);
    }
    if (ints || big >= 100)
        return 0;
    return big >= 10 ? 1 : big >= 1 ? 2 : 3;
}

const char *dg_rep_size_unit(double max_bytes, double *div)
{
    static const struct {
        const char *name;
        double div;
    } u[] = {{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (max_bytes >= u[i].div) {
            *div = u[i].div;
            return u[i].name;
        }
    *div = 1;
    return "B";
}
