#!/usr/bin/env bash
# The backend conformance body against SQLite (a file database, WAL mode).
source "$(dirname "$0")/common.bash"
"$DG_CONFORMANCE" "sqlite:$TMP/conf.db"
