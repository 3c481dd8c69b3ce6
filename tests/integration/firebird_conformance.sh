#!/usr/bin/env bash
# The backend conformance body against Firebird (DG_TEST_FIREBIRD_URL; scripts/check starts
# the server with scripts/servers/firebird.sh), its bulk tests through EXECUTE BLOCK
# (bulk=block: the default, bulk=auto, takes external tables on the test server, whose
# conformance run is in firebird_load.sh). The deadlock check takes about 10 s: Firebird
# picks its victim after DeadlockTimeout.
source "$(dirname "$0")/common.bash"
url=$(need_server firebird)
sep='?'
[[ $url == *\?* ]] && sep='&'
"$DG_CONFORMANCE" "$url${sep}bulk=block"
