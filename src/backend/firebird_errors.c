/*
 * firebird_errors.c - Firebird's errors: the status vector walked, classified into dbgauge's
 * error classes and turned into one message (the ISC API has no single SQLSTATE to go by:
 * the gds codes say more, and several can be in one vector).
 *
 * A leaf of the Firebird backend: firebird.c, firebird_load.c and firebird_stats.c call it,
 * and it calls nothing of theirs (only the client library, through dg_fb).
 */
#include "backend/firebird_int.h"

#include <stdio.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------------------------ */

bool dg_firebird_sv_has(const ISC_STATUS *sv, ISC_STATUS code)
{
    for (const ISC_STATUS *p = sv; *p != isc_arg_end;) {
        if (*p == isc_arg_warning)
            break;
        if (*p == isc_arg_gds) {
            if (p[1] == code)
                return true;
            p += 2;
        } else if (*p == isc_arg_cstring) {
            p += 3;
        } else {
            p += 2;
        }
    }
    return false;
}

/* The server could not be reached or went away (as opposed to refusing us). */
static bool sv_unreachable(const ISC_STATUS *sv)
{
    static const ISC_STATUS codes[] = {isc_network_error, isc_net_read_err, isc_net_write_err,
                                       isc_net_connect_err, isc_net_server_shutdown,
                                       isc_lost_db_connection, isc_conn_lost, isc_shutdown,
                                       isc_att_shutdown, isc_unavailable};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (dg_firebird_sv_has(sv, codes[i]))
            return true;
    return false;
}

/* A failed attach: worth reconnecting to while the server is down, starting or stopping
 * (a server shutting down may also fail the login itself: "Error occurred during login",
 * SQLSTATE 08006), not when the password is wrong or the file missing or unusable (which
 * is SQLSTATE 08001 too). */
dg_errclass dg_firebird_classify_connect(const ISC_STATUS *sv, const char *state)
{
    static const ISC_STATUS config[] = {isc_login, isc_io_error, isc_bad_db_format, isc_wrong_ods,
                                        isc_no_priv, isc_read_only_database};
    for (size_t i = 0; i < sizeof config / sizeof config[0]; i++)
        if (dg_firebird_sv_has(sv, config[i]))
            return DG_EC_USER;
    if (sv_unreachable(sv) || !strncmp(state, "08", 2))
        return DG_EC_CONN_LOST;
    return DG_EC_USER;
}

dg_errclass dg_firebird_classify(const ISC_STATUS *sv, const char *state)
{
    bool lost = false, retry = false, constraint = false, user = false;
    for (const ISC_STATUS *p = sv; *p != isc_arg_end;) {
        if (*p == isc_arg_warning)
            break;
        if (*p == isc_arg_cstring) {
            p += 3;
            continue;
        }
        if (*p != isc_arg_gds) {
            p += 2;
            continue;
        }
        ISC_STATUS code = p[1];
        p += 2;
        /* Firebird 3 raises "cannot update erased record" (isc_random, message 188 of
         * vio.cpp's prepare_update) when a READ COMMITTED transaction updates or deletes a
         * row that a concurrent transaction deleted and committed: a lost race, like an
         * update conflict (Firebird 4 restarts the statement instead). */
        if (code == isc_random && p[0] == isc_arg_string && p[1] &&
            !strcmp((const char *)p[1], "cannot update erased record"))
            retry = true;
        switch (code) {
        case isc_network_error:
        case isc_net_read_err:
        case isc_net_write_err:
        case isc_net_connect_err:
        case isc_net_connect_listen_err:
        case isc_net_server_shutdown:
        case isc_lost_db_connection:
        case isc_conn_lost:
        case isc_shutdown:
        case isc_att_shutdown:
        case isc_unavailable:
        case isc_bad_db_handle:
            lost = true;
            break;
        case isc_deadlock:
        case isc_update_conflict:
        case isc_lock_conflict:
        case isc_lock_timeout:
        case isc_record_lock:
        case isc_concurrent_transaction:
        /* a locking read (WITH LOCK) whose record a concurrent transaction changed or
         * deleted between the read and the lock: a conflict like the ones above (seen in
         * tpcc on SuperClassic and Classic, where attachments interleave more) */
        case isc_no_cur_rec:
            retry = true;
            break;
        case isc_unique_key_violation:
        case isc_foreign_key:
        case isc_not_valid:
        case isc_no_dup:
        case isc_check_constraint:
        case isc_primary_key_notnull:
        case isc_foreign_key_target_doesnt_exist:
        case isc_foreign_key_references_present:
            constraint = true;
            break;
        case isc_login:
        case isc_login_error:
        case isc_no_priv:
        case isc_sqlerr:
        case isc_dsql_error:
        case isc_read_only_trans:
        case isc_string_truncation:
        case isc_convert_error:
        case isc_arith_except:
        case isc_sing_select_err:
            user = true;
            break;
        default:
            /* the DSQL facilities (336003xxx, 336397xxx): statement errors */
            if ((code >= 336003072L && code < 336003328L) || (code >= 336396800L && code < 336397312L))
                user = true;
            break;
        }
    }
    if (lost || !strncmp(state, "08", 2))
        return DG_EC_CONN_LOST;
    if (retry || !strcmp(state, "40001"))
        return DG_EC_RETRY;
    if (constraint || !strncmp(state, "23", 2))
        return DG_EC_CONSTRAINT;
    if (user || !strncmp(state, "42", 2) || !strncmp(state, "22", 2) || !strncmp(state, "07", 2) ||
        !strncmp(state, "21", 2) || !strncmp(state, "28", 2) || !strncmp(state, "0A", 2))
        return DG_EC_USER;
    return DG_EC_FATAL;
}

/* Fills err (NULL allowed) from c's status vector: all messages joined with "; " (without
 * the ever-changing "concurrent transaction number is N", so that error kinds stay
 * countable), the primary gds code, the SQLSTATE and the class; `what` (NULL: none)
 * prefixes the message. `inflight`: non-NULL ("COMMIT", "statement") when a commit was
 * in flight: a connection lost then leaves the outcome unknown (SQLSTATE 08007). The
 * password is scrubbed. Returns DG_E_DB. */
int dg_firebird_fill_error(fb_conn *c, const char *what, const char *inflight, dg_err *err)
{
    int rc = dg_firebird_status_error(c->sv, what, inflight, err);
    if (err)
        dg_backend_scrub(err, c->secret);
    return rc;
}

int dg_firebird_status_error(const ISC_STATUS *sv, const char *what, const char *inflight,
                             dg_err *err)
{
    if (!err)
        return DG_E_DB;
    char msg[DG_ERR_MSG_MAX];
    size_t n = 0;
    msg[0] = '\0';
    const ISC_STATUS *pv = sv;
    char part[512];
    for (;;) {
        bool skip = pv[0] == isc_arg_gds && pv[1] == isc_concurrent_transaction;
        if (dg_fb.fb_interpret(part, sizeof part, &pv) <= 0)
            break;
        size_t pl = strlen(part);
        while (pl > 0 && (part[pl - 1] == '.' || part[pl - 1] == ' '))
            part[--pl] = '\0'; /* messages end without a period here */
        if (skip || !part[0])
            continue;
        int w = snprintf(msg + n, sizeof msg - n, "%s%s", n ? "; " : "", part);
        if (w < 0 || (size_t)w >= sizeof msg - n)
            break;
        n += (size_t)w;
    }
    if (!msg[0])
        snprintf(msg, sizeof msg, "unknown Firebird error");
    char state[6] = "";
    dg_fb.fb_sqlstate(state, sv);
    int code = (int)sv[1];
    dg_errclass cls = dg_firebird_classify(sv, state);
    if (cls == DG_EC_CONN_LOST && inflight) {
        /* the server's own SQLSTATE stays in the message */
        dg_err_set(err, DG_E_DB, cls, code, "08007",
                   "connection lost during %s, its outcome is unknown: %s%s%s%s", inflight, msg,
                   state[0] ? " (" : "", state, state[0] ? ")" : "");
        err->outcome_unknown = true;
    } else if (what) {
        dg_err_set(err, DG_E_DB, cls, code, state, "%s: %s", what, msg);
    } else {
        dg_err_set(err, DG_E_DB, cls, code, state, "%s", msg);
    }
    return DG_E_DB;
}
