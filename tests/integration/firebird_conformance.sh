#!/usr/bin/env bash
# The backend conformance body against Firebird (DG_TEST_FIREBIRD_URL; scripts/check starts
# the server with scripts/servers/firebird.sh). The deadlock check takes about 10 s: Firebird
# picks its victim after DeadlockTimeout.
source "$(dirname "$0")/common.bash"
url=$(need_server firebird)
"$DG_CONFORMANCE" "$url"
