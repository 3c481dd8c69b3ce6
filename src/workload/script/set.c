/*
 * set.c - the script set: adding scripts, -D definitions, the shared variable table,
 * and the checks of dg_script_set_finish().
 *
 * Layout: the variable table (one namespace for all scripts of the set; slots are
 * indices into set->vars, fixed once assigned, the built-ins first; found by name through
 * a hash index, so that a script with many variables loads in linear time), then the
 * public functions in the order of script.h.
 *
 * Parse-time code allocates with xalloc (exits on out-of-memory), as dg_script_set_new()
 * promises.
 */
#include "workload/script/script.h"

#include "core/xalloc.h"
#include "workload/script/script_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const builtin_names[SCR_NBUILTINS] = {"scale", "client_id", "random_seed",
                                                          "default_seed"};

/* ---- variable table ------------------------------------------------------------------ */

/* FNV-1a of name[0..len). */
static uint32_t name_hash(const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

static bool name_is(const char *n, const char *name, size_t len)
{
    return strncmp(n, name, len) == 0 && n[len] == '\0';
}

/* Rebuilds the hash index from set->vars[0..nvars), growing it to keep the load below
 * one half. */
static void reindex(dg_script_set *set)
{
    int cap = set->capidx ? set->capidx : 64;
    while (cap < 2 * (set->nvars + 1))
        cap *= 2;
    if (cap != set->capidx) {
        free(set->varidx);
        set->varidx = xmalloc((size_t)cap * sizeof *set->varidx);
        set->capidx = cap;
    }
    memset(set->varidx, 0, (size_t)cap * sizeof *set->varidx);
    uint32_t mask = (uint32_t)cap - 1;
    for (int i = 0; i < set->nvars; i++) {
        const char *n = set->vars[i].name;
        uint32_t h = name_hash(n, strlen(n)) & mask;
        while (set->varidx[h] != 0)
            h = (h + 1) & mask;
        set->varidx[h] = i + 1;
    }
}

int dg_scr_var_find(const dg_script_set *set, const char *name, size_t len)
{
    if (set->capidx == 0)
        return -1;
    uint32_t mask = (uint32_t)set->capidx - 1;
    for (uint32_t h = name_hash(name, len) & mask; set->varidx[h] != 0; h = (h + 1) & mask) {
        int i = set->varidx[h] - 1;
        if (name_is(set->vars[i].name, name, len))
            return i;
    }
    return -1;
}

int dg_scr_var_slot(dg_script_set *set, const char *name, size_t len)
{
    int i = dg_scr_var_find(set, name, len);
    if (i >= 0)
        return i;
    if (set->nvars == set->capvars) {
        set->capvars = set->capvars ? set->capvars * 2 : 16;
        set->vars = xrealloc(set->vars, (size_t)set->capvars * sizeof *set->vars);
    }
    scr_var *v = &set->vars[set->nvars];
    memset(v, 0, sizeof *v);
    v->name = xstrndup(name, len);
    i = set->nvars++;
    if (2 * (set->nvars + 1) > set->capidx) {
        reindex(set);
    } else {
        uint32_t mask = (uint32_t)set->capidx - 1;
        uint32_t h = name_hash(name, len) & mask;
        while (set->varidx[h] != 0)
            h = (h + 1) & mask;
        set->varidx[h] = i + 1;
    }
    return i;
}

void dg_scr_var_use(dg_script_set *set, int slot, int script, size_t offset)
{
    scr_var *v = &set->vars[slot];
    if (!v->used) {
        v->used = true;
        v->use_script = script;
        v->use_offset = offset;
    }
}

void dg_scr_var_assign(dg_script_set *set, int slot) { set->vars[slot].assigned = true; }

/* ---- the set ------------------------------------------------------------------------- */

dg_script_set *dg_script_set_new(void)
{
    dg_script_set *set = xcalloc(1, sizeof *set);
    for (int i = 0; i < SCR_NBUILTINS; i++) {
        int slot = dg_scr_var_slot(set, builtin_names[i], strlen(builtin_names[i]));
        set->vars[slot].assigned = true;
    }
    return set;
}

static void free_script(scr_script *sc)
{
    for (int i = 0; i < sc->ncmds; i++) {
        scr_cmd *c = &sc->cmds[i];
        free(c->sql);
        free(c->params);
        free(c->prefix);
        dg_scr_expr_free(&c->expr);
    }
    free(sc->cmds);
    free(sc->path);
    free(sc->txname);
    free(sc->text);
}

void dg_script_set_free(dg_script_set *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->nscripts; i++)
        free_script(&set->scripts[i]);
    free(set->scripts);
    for (int i = 0; i < set->nvars; i++) {
        free(set->vars[i].name);
        free(set->vars[i].def_s);
    }
    free(set->vars);
    free(set->varidx);
    free(set);
}

/* Basename without extension, made unique among the set's scripts. */
static char *make_txname(const dg_script_set *set, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n == 0) {
        base = "script";
        n = 6;
    }
    char *name = xstrndup(base, n);
    for (int k = 2;; k++) {
        bool taken = false;
        for (int i = 0; i < set->nscripts && !taken; i++)
            taken = strcmp(set->scripts[i].txname, name) == 0;
        if (!taken)
            return name;
        free(name);
        name = xasprintf("%.*s#%d", (int)n, base, k);
    }
}

int dg_script_set_add(dg_script_set *set, const char *name, const char *text, size_t len,
                      double weight, dg_err *err)
{
    if (set->finished)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "%s: cannot add a script to a finished script set", name);
    if (!(weight >= 0) || isinf(weight))
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "%s: invalid weight %g", name,
                          weight);

    scr_script sc = {0};
    sc.path = xstrdup(name);
    sc.weight = weight;
    sc.text = xmalloc(len + 1);
    memcpy(sc.text, text, len);
    sc.text[len] = '\0';
    sc.len = len;
    scr_src src = {.name = sc.path, .text = sc.text, .len = len, .script = set->nscripts};

    /* keep the variable table as it was, to restore it if the script is rejected */
    int old_nvars = set->nvars;
    scr_var *saved = xmalloc((size_t)(old_nvars ? old_nvars : 1) * sizeof *saved);
    memcpy(saved, set->vars, (size_t)old_nvars * sizeof *saved);

    int rc;
    const char *nul = memchr(text, '\0', len);
    if (nul)
        rc = dg_scr_syntax_error(&src, (size_t)(nul - text), err, "NUL byte in script");
    else
        rc = dg_scr_parse(set, &src, &sc, err);
    if (rc) {
        for (int i = old_nvars; i < set->nvars; i++)
            free(set->vars[i].name);
        set->nvars = old_nvars;
        memcpy(set->vars, saved, (size_t)old_nvars * sizeof *saved);
        reindex(set);
        free(saved);
        free_script(&sc);
        return rc;
    }
    free(saved);

    for (int i = 0; i < sc.ncmds; i++) {
        scr_cmd *c = &sc.cmds[i];
        if (c->kind == CMD_SQL) {
            c->sql_index = set->nsql++;
            if (c->nparams > set->maxparams)
                set->maxparams = c->nparams;
        }
        if (c->expr.maxstack > set->maxstack)
            set->maxstack = c->expr.maxstack;
    }
    /* a transaction block writes if a statement in it does */
    for (int i = 0; i < sc.ncmds; i++) {
        scr_cmd *c = &sc.cmds[i];
        if (c->kind != CMD_BEGIN)
            continue;
        c->tx.write = c->tx_write_explicit;
        for (int j = i + 1; j < sc.ncmds; j++) {
            const scr_cmd *d = &sc.cmds[j];
            if (d->kind == CMD_BEGIN || d->kind == CMD_COMMIT || d->kind == CMD_ROLLBACK)
                break;
            if (d->kind == CMD_SQL && d->writes)
                c->tx.write = true;
        }
        if (c->tx.read_only)
            c->tx.write = false;
    }
    sc.txname = make_txname(set, name);
    set->scripts = xrealloc(set->scripts, (size_t)(set->nscripts + 1) * sizeof *set->scripts);
    set->scripts[set->nscripts++] = sc;
    return 0;
}

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a pipe";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

int dg_script_set_add_file(dg_script_set *set, const char *path, double weight, dg_err *err)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before it is refused */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return dg_err_set(err, DG_E_IO, DG_EC_USER, errno, NULL, "cannot open \"%s\": %s", path,
                          strerror(errno));
    dg_strbuf sb = DG_STRBUF_INIT;
    struct stat st;
    int rc;
    if (fstat(fd, &st) != 0) {
        rc = dg_err_set(err, DG_E_IO, DG_EC_USER, errno, NULL, "cannot read \"%s\": %s", path,
                        strerror(errno));
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                        "script \"%s\" is %s, not a regular file", path, file_kind(st.st_mode));
        goto done;
    }
    if (st.st_size > DG_SCRIPT_MAX_BYTES) {
        rc = dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                        "script \"%s\" is too large (%lld bytes; the limit is %d MiB)", path,
                        (long long)st.st_size, DG_SCRIPT_MAX_BYTES >> 20);
        goto done;
    }
    /* the size may change while we read: never read more than the limit allows */
    char buf[8192];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = dg_err_set(err, DG_E_IO, DG_EC_USER, errno, NULL, "cannot read \"%s\": %s", path,
                            strerror(errno));
            goto done;
        }
        if (n == 0)
            break;
        if (sb.len + (size_t)n > DG_SCRIPT_MAX_BYTES) {
            rc = dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                            "script \"%s\" is too large (over %d MiB, the limit)", path,
                            DG_SCRIPT_MAX_BYTES >> 20);
            goto done;
        }
        dg_sb_addn(&sb, buf, (size_t)n);
    }
    /* a UTF-8 byte order mark, as editors on Windows save, is no part of the script: left
       in, it made the first meta-command SQL text. Lines and columns count after it. */
    const char *text = sb.buf ? sb.buf : "";
    size_t len = sb.len;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
        text += 3;
        len -= 3;
    }
    rc = dg_script_set_add(set, path, text, len, weight, err);
done:
    close(fd);
    dg_sb_free(&sb);
    return rc;
}

int dg_script_set_define(dg_script_set *set, const char *name, const char *value, dg_err *err)
{
    if (set->finished)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL,
                          "cannot define \"%s\" in a finished script set", name);
    if (!dg_scr_valid_varname(name, strlen(name)))
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "invalid variable name \"%s\"",
                          name);
    int slot = dg_scr_var_slot(set, name, strlen(name));
    scr_var *v = &set->vars[slot];
    free(v->def_s);
    v->def_s = NULL;
    v->defined = true;
    v->assigned = true;

    /* an integer (that fits), a plain decimal number, or else a string */
    const char *p = value;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = *p != '\0';
    for (const char *q = p; *q; q++)
        digits &= isdigit((unsigned char)*q) != 0;
    char *end;
    if (digits) {
        errno = 0;
        long long i = strtoll(value, &end, 10);
        if (errno == 0 && *end == '\0') {
            v->def_type = DEF_INT;
            v->def_i = i;
            return 0;
        }
        /* too big for an int: kept as text, an error where an expression uses it */
        v->def_type = DEF_STRING;
        v->def_s = xstrdup(value);
        return 0;
    }
    bool numeric = *p != '\0' && (isdigit((unsigned char)*p) || *p == '.');
    if (numeric) {
        errno = 0;
        double d = strtod(value, &end);
        if (errno == 0 && *end == '\0' && isfinite(d)) {
            v->def_type = DEF_DOUBLE;
            v->def_d = d;
            return 0;
        }
    }
    v->def_type = DEF_STRING;
    v->def_s = xstrdup(value);
    return 0;
}

/* The prefixes of the set's \gset and \aset commands: a hash set, with the lengths that
 * occur, so that "can some \gset set this name" costs one pass over the name rather than
 * one comparison per \gset (a script with many of both would load in quadratic time). */
typedef struct prefixes {
    const char **tab; /* open addressing; NULL = empty; cap is a power of two */
    size_t cap;
    bool *haslen;     /* haslen[n]: some prefix is n bytes long, n <= maxlen */
    size_t maxlen;
} prefixes;

static void prefixes_init(const dg_script_set *set, prefixes *px)
{
    size_t n = 0;
    memset(px, 0, sizeof *px);
    for (int s = 0; s < set->nscripts; s++)
        for (int i = 0; i < set->scripts[s].ncmds; i++) {
            const scr_cmd *c = &set->scripts[s].cmds[i];
            if (c->kind == CMD_SQL && c->fetch != FETCH_DISCARD) {
                n++;
                if (strlen(c->prefix) > px->maxlen)
                    px->maxlen = strlen(c->prefix);
            }
        }
    if (n == 0)
        return;
    px->cap = 16;
    while (px->cap < 2 * n)
        px->cap *= 2;
    px->tab = xcalloc(px->cap, sizeof *px->tab);
    px->haslen = xcalloc(px->maxlen + 1, sizeof *px->haslen);
    for (int s = 0; s < set->nscripts; s++)
        for (int i = 0; i < set->scripts[s].ncmds; i++) {
            const scr_cmd *c = &set->scripts[s].cmds[i];
            if (c->kind != CMD_SQL || c->fetch == FETCH_DISCARD)
                continue;
            size_t len = strlen(c->prefix);
            px->haslen[len] = true;
            size_t h = name_hash(c->prefix, len) & (px->cap - 1);
            while (px->tab[h] && strcmp(px->tab[h], c->prefix) != 0)
                h = (h + 1) & (px->cap - 1);
            px->tab[h] = c->prefix;
        }
}

static void prefixes_free(prefixes *px)
{
    free(px->tab);
    free(px->haslen);
}

/* True if some \gset or \aset of the set can produce variable `name`: one of the
 * prefixes is a proper prefix of it. */
static bool gset_may_set(const prefixes *px, const char *name)
{
    if (!px->tab)
        return false;
    uint32_t h = 2166136261u; /* name_hash() of name[0..n), kept up to date below */
    for (size_t n = 0; name[n] != '\0' && n <= px->maxlen; n++) {
        if (px->haslen[n]) {
            for (size_t k = h & (px->cap - 1); px->tab[k]; k = (k + 1) & (px->cap - 1))
                if (strncmp(px->tab[k], name, n) == 0 && px->tab[k][n] == '\0')
                    return true;
        }
        h = (h ^ (unsigned char)name[n]) * 16777619u;
    }
    return false;
}

int dg_script_set_finish(dg_script_set *set, dg_err *err)
{
    if (set->finished)
        return 0;
    if (set->nscripts == 0)
        return dg_err_set(err, DG_E_INVAL, DG_EC_USER, 0, NULL, "no scripts given");
    const scr_var *worst = NULL;
    prefixes px;
    prefixes_init(set, &px);
    for (int i = SCR_NBUILTINS; i < set->nvars; i++) {
        const scr_var *v = &set->vars[i];
        if (!v->used || v->assigned || gset_may_set(&px, v->name))
            continue;
        if (!worst || v->use_script < worst->use_script ||
            (v->use_script == worst->use_script && v->use_offset < worst->use_offset))
            worst = v;
    }
    prefixes_free(&px);
    if (worst) {
        const scr_script *sc = &set->scripts[worst->use_script];
        scr_src src = {.name = sc->path, .text = sc->text, .len = sc->len,
                       .script = worst->use_script};
        return dg_scr_syntax_error(&src, worst->use_offset, err,
                                   "variable \"%s\" is used but never set (by \\set, \\gset, "
                                   "\\aset or -D)",
                                   worst->name);
    }
    set->finished = true;
    return 0;
}

int dg_script_set_count(const dg_script_set *set) { return set->nscripts; }

bool dg_script_set_readonly(const dg_script_set *set, int i) { return set->scripts[i].readonly; }

bool dg_script_set_pipelinable(const dg_script_set *set)
{
    bool begins = false;
    for (int s = 0; s < set->nscripts; s++) {
        for (int c = 0; c < set->scripts[s].ncmds; c++) {
            const scr_cmd *cmd = &set->scripts[s].cmds[c];
            if (cmd->kind == CMD_SQL && cmd->fetch != FETCH_DISCARD)
                return false;
            begins |= cmd->kind == CMD_BEGIN;
        }
    }
    return begins;
}

const char *dg_script_set_name(const dg_script_set *set, int i) { return set->scripts[i].txname; }

double dg_script_set_weight(const dg_script_set *set, int i) { return set->scripts[i].weight; }

void dg_script_set_hash_text(const dg_script_set *set, void (*fn)(void *arg, const char *p, size_t n),
                             void *arg)
{
    for (int i = 0; i < set->nscripts; i++)
        fn(arg, set->scripts[i].text, set->scripts[i].len);
}
