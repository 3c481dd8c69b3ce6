#!/usr/bin/env bash
# The backend conformance body against PostgreSQL (DG_TEST_POSTGRES_URL; scripts/check
# starts the server with scripts/servers/postgres.sh).
source "$(dirname "$0")/common.bash"
url=$(need_server postgres)
"$DG_CONFORMANCE" "$url"
