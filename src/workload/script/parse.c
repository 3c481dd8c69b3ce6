/*
 * parse.c - splitting a script into commands, and parse-error formatting.
 *
 * Layout: error formatting (dg_scr_syntax_error and helpers) first; then the reading of
 * meta-command words; then one function per meta-command; then dg_scr_parse(), the
 * main loop, which alternates between SQL (sql.c) and meta-commands as pgbench does:
 * SQL runs to an unquoted ';' or to a backslash, which starts a meta-command that runs
 * to the end of its line (a backslash right before the newline continues it). A
 * meta-command also ends a SQL command that has no ';' yet, and so does the end of the
 * script. \gset and \aset attach to the SQL command before them.
 *
 * The \if / \elif / \else / \endif structure is checked here and linked into jumps: each
 * \if and \elif points to the next branch of its chain (next) and every member to the
 * chain's \endif (endif).
 *
 * Parsing is linear in the length of the script: commands are appended to an array that
 * grows geometrically, and the line number of each command is counted on from the
 * previous command's rather than from the start of the text.
 */
#include "workload/script/script_int.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- errors ------------------------------------------------------------------------- */

int dg_scr_line_of(const char *text, size_t offset)
{
    int line = 1;
    for (size_t i = 0; i < offset && text[i]; i++)
        if (text[i] == '\n')
            line++;
    return line;
}

static bool utf8_cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* The longest stretch of a line shown under an error; longer lines are cut around the
 * column with "...". */
#define SHOW_MAX 120

int dg_scr_syntax_error(const scr_src *src, size_t offset, dg_err *err, const char *fmt, ...)
{
    if (!err)
        return DG_E_PARSE;
    const char *t = src->text;
    if (offset > src->len)
        offset = src->len;
    size_t ls = offset, le = offset;
    while (ls > 0 && t[ls - 1] != '\n')
        ls--;
    while (le < src->len && t[le] != '\n')
        le++;
    if (le > ls && t[le - 1] == '\r')
        le--;
    int col = 1;
    for (size_t i = ls; i < offset; i++)
        if (!utf8_cont(t[i]))
            col++;

    char msg[DG_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    /* the window of the line to show */
    size_t ws = ls, we = le;
    if (we - ws > SHOW_MAX) {
        if (offset > ls + SHOW_MAX / 2)
            ws = offset - SHOW_MAX / 2;
        while (ws > ls && utf8_cont(t[ws]))
            ws--;
        we = ws + SHOW_MAX < le ? ws + SHOW_MAX : le;
        while (we < le && utf8_cont(t[we]))
            we++;
    }
    char caret[SHOW_MAX * 2 + 8];
    size_t cn = 0;
    if (ws > ls) {
        memcpy(caret, "   ", 3);
        cn = 3;
    }
    for (size_t i = ws; i < offset && i < we && cn + 2 < sizeof caret; i++) {
        if (t[i] == '\t')
            caret[cn++] = '\t';
        else if (!utf8_cont(t[i]))
            caret[cn++] = ' ';
    }
    caret[cn++] = '^';
    caret[cn] = '\0';

    if (le == ls) {
        dg_err_set(err, DG_E_PARSE, DG_EC_USER, 0, NULL, "%s:%d:%d: error: %s", src->name,
                   dg_scr_line_of(t, offset), col, msg);
    } else {
        dg_err_set(err, DG_E_PARSE, DG_EC_USER, 0, NULL, "%s:%d:%d: error: %s\n    %s%.*s%s\n    %s",
                   src->name, dg_scr_line_of(t, offset), col, msg, ws > ls ? "..." : "",
                   (int)(we - ws), t + ws, we < le ? "..." : "", caret);
    }
    return DG_E_PARSE;
}

bool dg_scr_valid_varname(const char *name, size_t len)
{
    if (len == 0 || (name[0] >= '0' && name[0] <= '9'))
        return false;
    for (size_t i = 0; i < len; i++)
        if (!dg_scr_varchar((unsigned char)name[i]))
            return false;
    return true;
}

/* ---- meta-command words ------------------------------------------------------------- */

typedef struct parsectx {
    dg_script_set *set;
    const scr_src *src;
    scr_script *sc;
    dg_err *err;
    struct ifframe {
        int if_idx;   /* the \if */
        int last;     /* the latest member of the chain */
        bool has_else;
    } *ifs;
    int nifs, capifs;
    int capcmds;     /* allocated entries of sc->cmds */
    size_t line_off; /* line_no is the line of text[line_off] */
    int line_no;
} parsectx;

static bool hspace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Length of a line continuation (backslash, optional CR, newline) at t[p], 0 if none. */
static size_t continuation(const char *t, size_t p, size_t len)
{
    if (t[p] != '\\')
        return 0;
    if (p + 1 < len && t[p + 1] == '\n')
        return 2;
    if (p + 2 < len && t[p + 1] == '\r' && t[p + 2] == '\n')
        return 3;
    return 0;
}

/* The end of the meta-command's logical line starting at p (offset of its newline, or the
 * end of the text). */
static size_t line_end(const char *t, size_t p, size_t len)
{
    while (p < len && t[p] != '\n') {
        size_t c = continuation(t, p, len);
        p += c ? c : 1;
    }
    return p;
}

typedef struct word {
    size_t pos, len;
} word;

/* Reads the next whitespace-separated word before `end`; false when there is none. */
static bool read_word(const char *t, size_t *p, size_t end, word *w)
{
    size_t q = *p;
    for (;;) {
        if (q < end && hspace(t[q])) {
            q++;
            continue;
        }
        size_t c = q < end ? continuation(t, q, end + 1) : 0;
        if (c) {
            q += c;
            continue;
        }
        break;
    }
    if (q >= end) {
        *p = q;
        return false;
    }
    w->pos = q;
    while (q < end && !hspace(t[q]) && t[q] != '\n' && !continuation(t, q, end + 1))
        q++;
    w->len = q - w->pos;
    *p = q;
    return true;
}

static bool word_eq(const char *t, const word *w, const char *s)
{
    return strlen(s) == w->len && strncasecmp(t + w->pos, s, w->len) == 0;
}

/* ---- commands ----------------------------------------------------------------------- */

static int add_cmd(parsectx *cx, const scr_cmd *cmd)
{
    scr_script *sc = cx->sc;
    if (sc->ncmds == cx->capcmds) {
        cx->capcmds = cx->capcmds ? cx->capcmds * 2 : 16;
        sc->cmds = xrealloc(sc->cmds, (size_t)cx->capcmds * sizeof *sc->cmds);
    }
    sc->cmds[sc->ncmds] = *cmd;
    return sc->ncmds++;
}

/* 1-based line of a byte offset, counted on from the previous call: commands come in
 * text order, so the whole script is scanned once (an earlier offset starts over). */
static int line_at(parsectx *cx, size_t offset)
{
    const char *t = cx->src->text;
    if (offset < cx->line_off || cx->line_no == 0) {
        cx->line_off = 0;
        cx->line_no = 1;
    }
    for (size_t i = cx->line_off; i < offset && t[i]; i++)
        if (t[i] == '\n')
            cx->line_no++;
    cx->line_off = offset;
    return cx->line_no;
}

static void init_cmd(parsectx *cx, scr_cmd *cmd, scr_cmdkind kind, size_t offset)
{
    memset(cmd, 0, sizeof *cmd);
    cmd->kind = kind;
    cmd->offset = offset;
    cmd->line = line_at(cx, offset);
    cmd->slot = -1;
    cmd->sleep_slot = -1;
    cmd->next = -1;
    cmd->endif = -1;
}

static int meta_set(parsectx *cx, size_t bs, size_t p, size_t end)
{
    const char *t = cx->src->text;
    word name;
    if (!read_word(t, &p, end, &name))
        return dg_scr_syntax_error(cx->src, end, cx->err, "\\set: missing variable name");
    if (!dg_scr_valid_varname(t + name.pos, name.len))
        return dg_scr_syntax_error(cx->src, name.pos, cx->err, "invalid variable name \"%.*s\"",
                                   (int)name.len, t + name.pos);
    scr_cmd cmd;
    init_cmd(cx, &cmd, CMD_SET, bs);
    cmd.slot = dg_scr_var_slot(cx->set, t + name.pos, name.len);
    int rc = dg_scr_expr_compile(cx->set, cx->src, p, end, &cmd.expr, cx->err);
    if (rc)
        return rc;
    dg_scr_var_assign(cx->set, cmd.slot);
    add_cmd(cx, &cmd);
    return 0;
}

static int meta_sleep(parsectx *cx, size_t bs, size_t p, size_t end)
{
    const char *t = cx->src->text;
    word w[3];
    int n = 0;
    while (n < 3 && read_word(t, &p, end, &w[n]))
        n++;
    if (n == 0)
        return dg_scr_syntax_error(cx->src, end, cx->err, "\\sleep: missing argument");
    if (n == 3)
        return dg_scr_syntax_error(cx->src, w[2].pos, cx->err, "\\sleep: too many arguments");
    scr_cmd cmd;
    init_cmd(cx, &cmd, CMD_SLEEP, bs);
    const char *a = t + w[0].pos;
    word unit = {0, 0};
    bool have_unit = n == 2;
    if (have_unit)
        unit = w[1];
    if (a[0] == ':') {
        if (!dg_scr_valid_varname(a + 1, w[0].len - 1))
            return dg_scr_syntax_error(cx->src, w[0].pos, cx->err, "invalid variable name \"%.*s\"",
                                       (int)w[0].len - 1, a + 1);
        cmd.sleep_slot = dg_scr_var_slot(cx->set, a + 1, w[0].len - 1);
        dg_scr_var_use(cx->set, cmd.sleep_slot, cx->src->script, w[0].pos + 1);
    } else {
        size_t i = 0;
        bool neg = false;
        if (a[0] == '+' || a[0] == '-') {
            neg = a[0] == '-';
            i++;
        }
        size_t d0 = i;
        uint64_t v = 0;
        while (i < w[0].len && isdigit((unsigned char)a[i])) {
            v = v * 10 + (uint64_t)(a[i] - '0');
            if (v > (uint64_t)INT32_MAX)
                return dg_scr_syntax_error(cx->src, w[0].pos, cx->err,
                                           "\\sleep: time \"%.*s\" is out of range", (int)w[0].len, a);
            i++;
        }
        if (i < w[0].len) {
            if (n == 1 && i > d0) {
                unit.pos = w[0].pos + i;
                unit.len = w[0].len - i;
                have_unit = true;
            } else {
                return dg_scr_syntax_error(cx->src, w[0].pos, cx->err,
                                           "\\sleep: invalid time \"%.*s\", must be an integer or "
                                           ":variable",
                                           (int)w[0].len, a);
            }
        } else if (i == d0) {
            return dg_scr_syntax_error(cx->src, w[0].pos, cx->err,
                                       "\\sleep: invalid time \"%.*s\", must be an integer or "
                                       ":variable",
                                       (int)w[0].len, a);
        }
        /* pgbench sleeps not at all for a negative time; a script that says one has a
           mistake in it (it turned a sleeping script into millions of "transactions") */
        if (neg && v > 0)
            return dg_scr_syntax_error(cx->src, w[0].pos, cx->err,
                                       "\\sleep: time \"%.*s\" is negative, must be from 0 to "
                                       "2147483647 (or a :variable)",
                                       (int)w[0].len, a);
        cmd.sleep_value = (int64_t)v;
    }
    cmd.sleep_unit_us = 1000000;
    if (have_unit) {
        if (word_eq(t, &unit, "us"))
            cmd.sleep_unit_us = 1;
        else if (word_eq(t, &unit, "ms"))
            cmd.sleep_unit_us = 1000;
        else if (word_eq(t, &unit, "s"))
            cmd.sleep_unit_us = 1000000;
        else
            return dg_scr_syntax_error(cx->src, unit.pos, cx->err,
                                       "\\sleep: unknown time unit \"%.*s\", must be us, ms or s",
                                       (int)unit.len, t + unit.pos);
    }
    add_cmd(cx, &cmd);
    return 0;
}

static int meta_gset(parsectx *cx, size_t bs, size_t p, size_t end, bool aset)
{
    const char *t = cx->src->text;
    const char *what = aset ? "\\aset" : "\\gset";
    word w[2];
    int n = 0;
    while (n < 2 && read_word(t, &p, end, &w[n]))
        n++;
    if (n == 2)
        return dg_scr_syntax_error(cx->src, w[1].pos, cx->err, "%s: too many arguments", what);
    scr_script *sc = cx->sc;
    scr_cmd *last = sc->ncmds > 0 ? &sc->cmds[sc->ncmds - 1] : NULL;
    if (!last || last->kind != CMD_SQL || last->fetch != FETCH_DISCARD) {
        if (last && (last->kind == CMD_BEGIN || last->kind == CMD_COMMIT ||
                     last->kind == CMD_ROLLBACK))
            return dg_scr_syntax_error(cx->src, bs, cx->err,
                                       "%s cannot follow a transaction control command", what);
        return dg_scr_syntax_error(cx->src, bs, cx->err, "%s must follow an SQL command", what);
    }
    if (n == 1) {
        for (size_t i = 0; i < w[0].len; i++) {
            if (!dg_scr_varchar((unsigned char)t[w[0].pos + i]) || isdigit((unsigned char)t[w[0].pos]))
                return dg_scr_syntax_error(cx->src, w[0].pos, cx->err,
                                           "%s: invalid variable prefix \"%.*s\"", what,
                                           (int)w[0].len, t + w[0].pos);
        }
        last->prefix = xstrndup(t + w[0].pos, w[0].len);
    } else {
        last->prefix = xstrdup("");
    }
    last->fetch = aset ? FETCH_ASET : FETCH_GSET;
    return 0;
}

static struct ifframe *if_top(parsectx *cx) { return cx->nifs > 0 ? &cx->ifs[cx->nifs - 1] : NULL; }

static int meta_cond(parsectx *cx, scr_cmdkind kind, size_t bs, size_t p, size_t end,
                     const char *name)
{
    const char *t = cx->src->text;
    struct ifframe *top = if_top(cx);
    if (kind != CMD_IF) {
        if (!top)
            return dg_scr_syntax_error(cx->src, bs, cx->err, "\\%s without matching \\if", name);
        if (top->has_else && kind != CMD_ENDIF)
            return dg_scr_syntax_error(cx->src, bs, cx->err, "\\%s after \\else", name);
    }
    scr_cmd cmd;
    init_cmd(cx, &cmd, kind, bs);
    if (kind == CMD_IF || kind == CMD_ELIF) {
        int rc = dg_scr_expr_compile(cx->set, cx->src, p, end, &cmd.expr, cx->err);
        if (rc)
            return rc;
    } else {
        word w;
        if (read_word(t, &p, end, &w))
            return dg_scr_syntax_error(cx->src, w.pos, cx->err, "\\%s: unexpected argument", name);
    }
    int idx = add_cmd(cx, &cmd);
    scr_cmd *cmds = cx->sc->cmds;
    if (kind == CMD_IF) {
        if (cx->nifs == cx->capifs) {
            cx->capifs = cx->capifs ? cx->capifs * 2 : 8;
            cx->ifs = xrealloc(cx->ifs, (size_t)cx->capifs * sizeof *cx->ifs);
        }
        cx->ifs[cx->nifs++] = (struct ifframe){idx, idx, false};
        return 0;
    }
    cmds[top->last].next = idx;
    top->last = idx;
    if (kind == CMD_ELSE)
        top->has_else = true;
    if (kind == CMD_ENDIF) {
        int i = top->if_idx;
        while (i != idx) {
            cmds[i].endif = idx;
            i = cmds[i].next;
        }
        cmds[idx].endif = idx;
        cx->nifs--;
    }
    return 0;
}

/* Parses the meta-command whose backslash is at bs; *pos is left after its line. */
static int parse_meta(parsectx *cx, size_t bs, size_t *pos)
{
    const char *t = cx->src->text;
    size_t len = cx->src->len;
    size_t end = line_end(t, bs, len);
    size_t p = bs + 1;
    *pos = end < len ? end + 1 : end;

    word name;
    if (p >= end || hspace(t[p]) || continuation(t, p, len) ||
        !read_word(t, &p, end, &name))
        return dg_scr_syntax_error(cx->src, bs, cx->err, "missing meta-command name after \"\\\"");

    if (word_eq(t, &name, "set"))
        return meta_set(cx, bs, p, end);
    if (word_eq(t, &name, "sleep"))
        return meta_sleep(cx, bs, p, end);
    if (word_eq(t, &name, "gset"))
        return meta_gset(cx, bs, p, end, false);
    if (word_eq(t, &name, "aset"))
        return meta_gset(cx, bs, p, end, true);
    if (word_eq(t, &name, "readonly")) {
        word extra;
        if (read_word(t, &p, end, &extra))
            return dg_scr_syntax_error(cx->src, extra.pos, cx->err, "\\readonly: unexpected argument");
        cx->sc->readonly = true;
        return 0;
    }
    if (word_eq(t, &name, "if"))
        return meta_cond(cx, CMD_IF, bs, p, end, "if");
    if (word_eq(t, &name, "elif"))
        return meta_cond(cx, CMD_ELIF, bs, p, end, "elif");
    if (word_eq(t, &name, "else"))
        return meta_cond(cx, CMD_ELSE, bs, p, end, "else");
    if (word_eq(t, &name, "endif"))
        return meta_cond(cx, CMD_ENDIF, bs, p, end, "endif");
    static const char *const unsupported[] = {"shell", "setshell", "startpipeline",
                                              "endpipeline", "syncpipeline"};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (word_eq(t, &name, unsupported[i]))
            return dg_scr_syntax_error(cx->src, bs, cx->err,
                                       "meta-command \"\\%.*s\" is not supported", (int)name.len,
                                       t + name.pos);
    int n = (int)(name.len > 40 ? 40 : name.len);
    return dg_scr_syntax_error(cx->src, bs, cx->err, "unknown meta-command \"\\%.*s\"", n,
                               t + name.pos);
}

static void free_cmd_parts(scr_cmd *cmd)
{
    free(cmd->sql);
    free(cmd->params);
    free(cmd->prefix);
    dg_scr_expr_free(&cmd->expr);
}

int dg_scr_parse(dg_script_set *set, const scr_src *src, scr_script *sc, dg_err *err)
{
    parsectx cx = {.set = set, .src = src, .sc = sc, .err = err};
    size_t pos = 0;
    int rc = 0;

    for (;;) {
        scr_cmd cmd;
        scr_sqlscan sr;
        init_cmd(&cx, &cmd, CMD_SQL, pos);
        rc = dg_scr_sql_scan(set, src, pos, &cmd, &sr, err);
        if (rc) {
            free_cmd_parts(&cmd);
            goto done;
        }
        if (!sr.empty) {
            cmd.offset = sr.start;
            cmd.line = line_at(&cx, sr.start);
            add_cmd(&cx, &cmd);
        }
        pos = sr.end;
        if (sr.stop == '\\') {
            if ((rc = parse_meta(&cx, pos, &pos)))
                goto done;
        } else if (sr.stop == 0) {
            break;
        }
    }
    if (cx.nifs > 0) {
        rc = dg_scr_syntax_error(src, sc->cmds[cx.ifs[cx.nifs - 1].if_idx].offset, err,
                                 "\\if without matching \\endif");
        goto done;
    }
    if (sc->ncmds == 0) {
        rc = dg_scr_syntax_error(src, 0, err, "script has no commands");
        goto done;
    }
done:
    free(cx.ifs);
    return rc;
}
