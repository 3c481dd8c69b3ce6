#!/usr/bin/env bash
# The workload body (workloads.bash) against firebird: tpcc load + run + check with exact row
# counts, and a script workload with \gset and \if.
source "$(dirname "$0")/common.bash"
url=$(need_server firebird)
source "$(dirname "$0")/workloads.bash"
