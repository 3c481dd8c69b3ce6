/*
 * sql.c - scanning one SQL command of a script.
 *
 * Layout: dg_scr_sql_scan() walks the script text from a position to the end of one SQL
 * command (an unquoted ';' outside parentheses, a backslash that starts a meta-command,
 * or the end of the text), copying it into the command's SQL text with every :name
 * variable replaced by a '?' placeholder and its slot recorded. It understands '...'
 * (and E'...' with backslash escapes), "...", $tag$...$tag$, "--" comments, nested
 * block comments and :: casts, as PostgreSQL's psql does. Then classify() looks at the first
 * words to recognise BEGIN / START TRANSACTION / COMMIT / END / ROLLBACK / ABORT, which
 * the VM runs through dg_begin/dg_commit/dg_rollback instead of as statements.
 *
 * "--" comments are dropped from the text sent to the database (MySQL needs a space after
 * "--"); block comments are kept, since optimizer hints live in them.
 */
#include "workload/script/script_int.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool ident_cont(unsigned char c)
{
    return dg_scr_varchar(c) || c == '$';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static const char *const write_words[] = {"INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE"};

static bool is_write_word(const char *w, size_t n)
{
    for (size_t i = 0; i < sizeof write_words / sizeof write_words[0]; i++)
        if (strlen(write_words[i]) == n && strncasecmp(w, write_words[i], n) == 0)
            return true;
    return false;
}

/* ---- classification of transaction control ------------------------------------------ */

/* Reads the next word of s (skipping spaces and block comments) uppercased into w;
 * returns its length, 0 at the end, or -1 for something that is not a word (then
 * w[0] holds that character). */
static int next_word(const char *s, size_t *i, char *w, size_t cap)
{
    size_t p = *i;
    for (;;) {
        while (s[p] && is_space(s[p]))
            p++;
        if (s[p] == '/' && s[p + 1] == '*') {
            int depth = 0;
            do {
                if (s[p] == '/' && s[p + 1] == '*') {
                    depth++;
                    p += 2;
                } else if (s[p] == '*' && s[p + 1] == '/') {
                    depth--;
                    p += 2;
                } else {
                    p++;
                }
            } while (depth > 0 && s[p]);
            continue;
        }
        break;
    }
    if (!s[p]) {
        *i = p;
        return 0;
    }
    if (!ident_start((unsigned char)s[p])) {
        w[0] = s[p];
        w[1] = '\0';
        *i = p + 1;
        return -1;
    }
    size_t n = 0;
    while (ident_cont((unsigned char)s[p])) {
        if (n + 1 < cap)
            w[n++] = (char)toupper((unsigned char)s[p]);
        p++;
    }
    w[n] = '\0';
    *i = p;
    return (int)n;
}

/* Parses transaction modes after BEGIN [WORK|TRANSACTION] / START TRANSACTION. */
static int tx_modes(const char *s, size_t i, scr_cmd *cmd, const scr_src *src, size_t at,
                    dg_err *err)
{
    char w[32];
    int n;
    while ((n = next_word(s, &i, w, sizeof w)) != 0) {
        if (n < 0 && w[0] == ',')
            continue;
        if (n > 0 && strcmp(w, "ISOLATION") == 0) {
            char a[32], b[32];
            if (next_word(s, &i, a, sizeof a) <= 0 || strcmp(a, "LEVEL") != 0 ||
                next_word(s, &i, a, sizeof a) <= 0)
                goto bad;
            if (strcmp(a, "SERIALIZABLE") == 0) {
                cmd->tx.isolation = DG_ISO_SERIALIZABLE;
            } else if (strcmp(a, "REPEATABLE") == 0) {
                if (next_word(s, &i, b, sizeof b) <= 0 || strcmp(b, "READ") != 0)
                    goto bad;
                cmd->tx.isolation = DG_ISO_REPEATABLE_READ;
            } else if (strcmp(a, "READ") == 0) {
                if (next_word(s, &i, b, sizeof b) <= 0)
                    goto bad;
                /* READ UNCOMMITTED is READ COMMITTED on PostgreSQL; likewise here */
                if (strcmp(b, "COMMITTED") != 0 && strcmp(b, "UNCOMMITTED") != 0)
                    goto bad;
                cmd->tx.isolation = DG_ISO_READ_COMMITTED;
            } else {
                goto bad;
            }
        } else if (n > 0 && strcmp(w, "READ") == 0) {
            char a[32];
            if (next_word(s, &i, a, sizeof a) <= 0)
                goto bad;
            if (strcmp(a, "ONLY") == 0)
                cmd->tx.read_only = true;
            else if (strcmp(a, "WRITE") == 0)
                cmd->tx.read_only = false;
            else
                goto bad;
        } else if (n > 0 && strcmp(w, "NOT") == 0) {
            char a[32];
            if (next_word(s, &i, a, sizeof a) <= 0 || strcmp(a, "DEFERRABLE") != 0)
                goto bad;
        } else if (n > 0 && strcmp(w, "DEFERRABLE") == 0) {
            /* only meaningful for serializable read-only transactions; ignored */
        } else {
            goto bad;
        }
    }
    return 0;
bad:
    return dg_scr_syntax_error(src, at, err, "unsupported transaction mode in \"%.60s\"", s);
}

/* Recognises transaction control statements; leaves cmd->kind = CMD_SQL otherwise. */
static int classify(scr_cmd *cmd, const scr_src *src, size_t at, dg_err *err)
{
    const char *s = cmd->sql;
    size_t i = 0;
    char w[32], w2[32];
    if (next_word(s, &i, w, sizeof w) <= 0)
        return 0;
    size_t after1 = i;
    int n2 = next_word(s, &i, w2, sizeof w2);
    size_t after2 = i;
    int rc = 0;

    if (strcmp(w, "BEGIN") == 0) {
        cmd->kind = CMD_BEGIN;
        size_t j = after1;
        if (n2 > 0 && (strcmp(w2, "DEFERRED") == 0 || strcmp(w2, "IMMEDIATE") == 0 ||
                       strcmp(w2, "EXCLUSIVE") == 0)) {
            /* SQLite's lock modes: IMMEDIATE and EXCLUSIVE take the write lock now */
            cmd->tx_write_explicit = strcmp(w2, "DEFERRED") != 0;
            j = after2;
            size_t k = j;
            if (next_word(s, &k, w2, sizeof w2) > 0 && strcmp(w2, "TRANSACTION") == 0)
                j = k;
        } else if (n2 > 0 && (strcmp(w2, "WORK") == 0 || strcmp(w2, "TRANSACTION") == 0)) {
            j = after2;
        }
        rc = tx_modes(s, j, cmd, src, at, err);
    } else if (strcmp(w, "START") == 0 && n2 > 0 && strcmp(w2, "TRANSACTION") == 0) {
        cmd->kind = CMD_BEGIN;
        rc = tx_modes(s, after2, cmd, src, at, err);
    } else if (strcmp(w, "COMMIT") == 0 || strcmp(w, "END") == 0 ||
               strcmp(w, "ROLLBACK") == 0 || strcmp(w, "ABORT") == 0) {
        bool commit = w[0] == 'C' || w[0] == 'E';
        if (n2 > 0 && (strcmp(w2, "PREPARED") == 0 || strcmp(w2, "TO") == 0))
            return 0; /* two-phase commit or ROLLBACK TO SAVEPOINT: ordinary SQL */
        size_t j = after1;
        if (n2 > 0 && (strcmp(w2, "WORK") == 0 || strcmp(w2, "TRANSACTION") == 0))
            j = after2;
        char w3[32];
        int n3 = next_word(s, &j, w3, sizeof w3);
        if (n3 > 0 && !commit && strcmp(w3, "TO") == 0)
            return 0;
        if (n3 != 0)
            return dg_scr_syntax_error(src, at, err, "unsupported form of %s: \"%.60s\"", w, s);
        cmd->kind = commit ? CMD_COMMIT : CMD_ROLLBACK;
    }
    if (rc == 0 && cmd->kind != CMD_SQL && cmd->nparams > 0)
        return dg_scr_syntax_error(src, at, err,
                                   "variables are not allowed in transaction control commands");
    return rc;
}

/* ---- the scanner -------------------------------------------------------------------- */

typedef struct scan {
    const scr_src *src;
    dg_strbuf out;
    int *params;
    int nparams, capparams;
} scan;

static void add_param(scan *s, int slot)
{
    if (s->nparams == s->capparams) {
        s->capparams = s->capparams ? s->capparams * 2 : 8;
        s->params = xrealloc(s->params, (size_t)s->capparams * sizeof *s->params);
    }
    s->params[s->nparams++] = slot;
}

/* Length of a dollar-quote tag ("$tag$" or "$$") at t[p], 0 if none. */
static size_t dollar_tag(const char *t, size_t p, size_t len)
{
    size_t q = p + 1;
    if (q < len && ident_start((unsigned char)t[q])) {
        q++;
        while (q < len && dg_scr_varchar((unsigned char)t[q]))
            q++;
    }
    if (q < len && t[q] == '$')
        return q + 1 - p;
    return 0;
}

int dg_scr_sql_scan(dg_script_set *set, const scr_src *src, size_t pos, scr_cmd *cmd,
                    scr_sqlscan *out, dg_err *err)
{
    const char *t = src->text;
    size_t len = src->len, p = pos;
    scan s = {.src = src};
    bool started = false;
    size_t start = pos;
    int depth = 0, rc = 0;
    int stop = 0;
    bool writes = false, pending_write = false;
    size_t last_word_end = (size_t)-1, last_word_len = 0;

    while (p < len) {
        char c = t[p];
        size_t q;
        if (is_space(c)) {
            if (started)
                dg_sb_addc(&s.out, c);
            p++;
            continue;
        }
        if (c == '-' && p + 1 < len && t[p + 1] == '-') {
            while (p < len && t[p] != '\n')
                p++;
            continue;
        }
        if (c == '/' && p + 1 < len && t[p + 1] == '*') {
            int d = 0;
            q = p;
            while (q < len) {
                if (t[q] == '/' && q + 1 < len && t[q + 1] == '*') {
                    d++;
                    q += 2;
                } else if (t[q] == '*' && q + 1 < len && t[q + 1] == '/') {
                    q += 2;
                    if (--d == 0)
                        break;
                } else {
                    q++;
                }
            }
            if (d > 0) {
                rc = dg_scr_syntax_error(src, p, err, "unterminated /* comment");
                goto done;
            }
            if (started)
                dg_sb_addn(&s.out, t + p, q - p);
            p = q;
            continue;
        }
        /* anything else is a token */
        if (!started) {
            started = true;
            start = p;
        }
        if (c == '\\') {
            if (p + 1 < len && t[p + 1] == ':') {
                dg_sb_addc(&s.out, ':'); /* a literal colon */
                p += 2;
                continue;
            }
            if (p + 1 < len && t[p + 1] == ';') {
                rc = dg_scr_syntax_error(src, p, err,
                                         "compound statements (\\;) are not supported");
                goto done;
            }
            stop = '\\';
            break;
        }
        if (pending_write && c != '(')
            writes = true;
        pending_write = false;
        if (c == ';' && depth == 0) {
            stop = ';';
            p++;
            break;
        }
        if (c == '\'') {
            bool escapes = last_word_end == p && last_word_len == 1 &&
                           (t[p - 1] == 'e' || t[p - 1] == 'E');
            q = p + 1;
            for (;;) {
                if (q >= len) {
                    rc = dg_scr_syntax_error(src, p, err, "unterminated quoted string");
                    goto done;
                }
                if (escapes && t[q] == '\\' && q + 1 < len) {
                    q += 2;
                } else if (t[q] == '\'') {
                    if (q + 1 < len && t[q + 1] == '\'') {
                        q += 2;
                    } else {
                        q++;
                        break;
                    }
                } else {
                    q++;
                }
            }
            dg_sb_addn(&s.out, t + p, q - p);
            p = q;
            continue;
        }
        if (c == '"') {
            q = p + 1;
            for (;;) {
                if (q >= len) {
                    rc = dg_scr_syntax_error(src, p, err, "unterminated quoted identifier");
                    goto done;
                }
                if (t[q] == '"') {
                    if (q + 1 < len && t[q + 1] == '"') {
                        q += 2;
                    } else {
                        q++;
                        break;
                    }
                } else {
                    q++;
                }
            }
            dg_sb_addn(&s.out, t + p, q - p);
            p = q;
            continue;
        }
        if (c == '$' && last_word_end != p) {
            size_t tag = dollar_tag(t, p, len);
            if (tag > 0) {
                q = p + tag;
                for (;;) {
                    if (q >= len) {
                        rc = dg_scr_syntax_error(src, p, err, "unterminated dollar-quoted string");
                        goto done;
                    }
                    if (t[q] == '$' && q + tag <= len && memcmp(t + q, t + p, tag) == 0) {
                        q += tag;
                        break;
                    }
                    q++;
                }
                dg_sb_addn(&s.out, t + p, q - p);
                p = q;
                continue;
            }
        }
        if (c == ':') {
            unsigned char n1 = p + 1 < len ? (unsigned char)t[p + 1] : 0;
            if (n1 == ':') {
                q = p;
                while (q < len && t[q] == ':')
                    q++;
                dg_sb_addn(&s.out, t + p, q - p);
                p = q;
                continue;
            }
            if ((n1 == '\'' || n1 == '"') && p + 2 < len && dg_scr_varchar((unsigned char)t[p + 2])) {
                rc = dg_scr_syntax_error(src, p, err,
                                         "quoted variable references (:'name', :\"name\") are not "
                                         "supported; use :name, which is sent as a parameter");
                goto done;
            }
            if (ident_start(n1)) {
                q = p + 1;
                while (q < len && dg_scr_varchar((unsigned char)t[q]))
                    q++;
                int slot = dg_scr_var_slot(set, t + p + 1, q - p - 1);
                dg_scr_var_use(set, slot, src->script, p);
                add_param(&s, slot);
                dg_sb_addc(&s.out, '?');
                p = q;
                continue;
            }
            dg_sb_addc(&s.out, ':');
            p++;
            continue;
        }
        if (c == '?') {
            rc = dg_scr_syntax_error(src, p, err,
                                     "\"?\" is reserved for parameters; use :name variables");
            goto done;
        }
        if (ident_start((unsigned char)c)) {
            q = p + 1;
            while (q < len && ident_cont((unsigned char)t[q]))
                q++;
            if (is_write_word(t + p, q - p))
                pending_write = true;
            dg_sb_addn(&s.out, t + p, q - p);
            last_word_end = q;
            last_word_len = q - p;
            p = q;
            continue;
        }
        if (c == '(')
            depth++;
        else if (c == ')' && depth > 0)
            depth--;
        dg_sb_addc(&s.out, c);
        p++;
    }
    if (pending_write)
        writes = true;

    out->start = started ? start : p;
    out->end = p;
    out->stop = stop;
    out->empty = !started || (stop == ';' && s.out.len == 0);
    if (out->empty)
        goto done;
    /* trailing whitespace */
    while (s.out.len > 0 && is_space(s.out.buf[s.out.len - 1]))
        s.out.buf[--s.out.len] = '\0';
    if (s.out.len == 0) {
        out->empty = true;
        goto done;
    }
    cmd->kind = CMD_SQL;
    cmd->sql = dg_sb_take(&s.out);
    cmd->params = s.params;
    cmd->nparams = s.nparams;
    cmd->writes = writes;
    s.params = NULL;
    rc = classify(cmd, src, start, err);
done:
    dg_sb_free(&s.out);
    free(s.params);
    return rc;
}
