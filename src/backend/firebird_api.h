/*
 * firebird_api.h - the Firebird client functions the backend calls, through a table
 * filled when the first connection opens the client library (core/dlib.h): a run on
 * another engine never maps libfbclient and what it pulls in (libstdc++, libtommath),
 * and dbgauge starts where Firebird's client is not installed.
 *
 * The backend calls dg_fb.isc_attach_database(...) where it would call
 * isc_attach_database(...); the prototypes are ibase.h's own.
 */
#ifndef DG_BACKEND_FIREBIRD_API_H
#define DG_BACKEND_FIREBIRD_API_H

#include "core/err.h"

#include <ibase.h>

#define DG_FB_FUNCTIONS(X) \
    X(fb_cancel_operation) \
    X(fb_disconnect_transaction) \
    X(fb_interpret) \
    X(fb_sqlstate) \
    X(isc_attach_database) \
    X(isc_cancel_blob) \
    X(isc_close_blob) \
    X(isc_commit_transaction) \
    X(isc_create_blob2) \
    X(isc_database_info) \
    X(isc_decode_sql_date) \
    X(isc_decode_sql_time) \
    X(isc_decode_timestamp) \
    X(isc_detach_database) \
    X(isc_dsql_allocate_statement) \
    X(isc_dsql_describe) \
    X(isc_dsql_describe_bind) \
    X(isc_dsql_execute) \
    X(isc_dsql_execute2) \
    X(isc_dsql_execute_immediate) \
    X(isc_dsql_fetch) \
    X(isc_dsql_free_statement) \
    X(isc_dsql_prepare) \
    X(isc_dsql_sql_info) \
    X(isc_get_segment) \
    X(isc_open_blob2) \
    X(isc_put_segment) \
    X(isc_rollback_transaction) \
    X(isc_service_attach) \
    X(isc_service_detach) \
    X(isc_service_query) \
    X(isc_service_start) \
    X(isc_start_transaction) \
    X(isc_vax_integer)

typedef struct dg_fb_api {
#define DG_FB_POINTER(f) __typeof__(f) *f;
    DG_FB_FUNCTIONS(DG_FB_POINTER)
#undef DG_FB_POINTER
} dg_fb_api;

extern dg_fb_api dg_fb;

/* Opens the client library (libfbclient.so.2, or the file $DBGAUGE_FBCLIENT names) and
 * fills dg_fb, once. 0, or DG_E_UNSUPPORTED with why it cannot be loaded. */
int dg_fb_api_load(dg_err *err);

#endif
