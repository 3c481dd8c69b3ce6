/*
 * odbc_api.h - the ODBC driver manager's functions (unixODBC's libodbc) the backend calls,
 * through a table filled when the first ODBC connection opens the library (core/dlib.h):
 * dbgauge starts, and runs on every other engine, where no driver manager is installed.
 *
 * The backend calls dg_odbc.SQLExecute(...) where it would call SQLExecute(...); the
 * prototypes are sql.h's and sqlext.h's own.
 */
#ifndef DG_BACKEND_ODBC_API_H
#define DG_BACKEND_ODBC_API_H

#include "core/err.h"

#include <sql.h>
#include <sqlext.h>

#define DG_ODBC_FUNCTIONS(X) \
    X(SQLAllocHandle) \
    X(SQLBindParameter) \
    X(SQLCancel) \
    X(SQLCloseCursor) \
    X(SQLColAttribute) \
    X(SQLDescribeCol) \
    X(SQLDisconnect) \
    X(SQLDriverConnect) \
    X(SQLDrivers) \
    X(SQLDataSources) \
    X(SQLEndTran) \
    X(SQLExecDirect) \
    X(SQLExecute) \
    X(SQLFetch) \
    X(SQLFreeHandle) \
    X(SQLFreeStmt) \
    X(SQLGetData) \
    X(SQLGetConnectAttr) \
    X(SQLGetDiagRec) \
    X(SQLGetInfo) \
    X(SQLGetStmtAttr) \
    X(SQLMoreResults) \
    X(SQLNumResultCols) \
    X(SQLPrepare) \
    X(SQLRowCount) \
    X(SQLSetConnectAttr) \
    X(SQLSetEnvAttr) \
    X(SQLSetStmtAttr) \
    X(SQLTables)

typedef struct dg_odbc_api {
#define DG_ODBC_POINTER(f) __typeof__(f) *f;
    DG_ODBC_FUNCTIONS(DG_ODBC_POINTER)
#undef DG_ODBC_POINTER
} dg_odbc_api;

extern dg_odbc_api dg_odbc;

/* Opens the driver manager (libodbc.so.2, or the file $DBGAUGE_ODBC_LIB names) and fills
 * dg_odbc, once. 0, or DG_E_UNSUPPORTED with why it cannot be loaded. */
int dg_odbc_api_load(dg_err *err);

#endif
