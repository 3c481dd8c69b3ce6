# lib.bash - what the scripts, benchmarks and experiment recipes share (sourced).
#
# Quiet on success, loud on failure: every step that hides its output (apt, CMake, the
# compiler, a server start) runs through dg_quiet, which on failure prints the step's last
# lines and the command that reproduces it, then returns the step's exit status (callers
# run under `set -e`, so the script stops there with that status).
#
#   DG_ROOT               the source tree
#   dg_die MSG            prints "NAME: error: MSG" and exits 1
#   dg_quiet WHAT CMD...  runs CMD with its output kept aside; see above
#   dg_build DIR ARGS...  configures (CMake + Ninja, ARGS added) and builds DIR
#   dg_ensure_built       sets DBGAUGE (default build/dbgauge) and builds it if missing
#   dg_server NAME        makes DG_TEST_<NAME>_URL point at a running server: when unset,
#                         starts scripts/servers/NAME.sh (a running one is left alone)

DG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DG_SCRIPT_NAME=$(basename "$0")

dg_die() {
  echo "$DG_SCRIPT_NAME: error: $*" >&2
  exit 1
}

# dg_quiet WHAT CMD...: runs CMD (from the current directory) with stdout and stderr in a
# log; on success prints nothing and removes the log, on failure shows its tail.
dg_quiet() {
  local what=$1; shift
  local log rc=0
  log=$(mktemp "${TMPDIR:-/tmp}/dg-step.XXXXXX")
  "$@" >"$log" 2>&1 </dev/null || rc=$?
  if [ $rc != 0 ]; then
    {
      echo "$DG_SCRIPT_NAME: error: $what failed (exit $rc); its last lines:"
      tail -n 40 "$log" | sed 's/^/  | /'
      printf '%s: to reproduce: (cd %q &&' "$DG_SCRIPT_NAME" "$PWD"
      printf ' %q' "$@"
      printf ')\n'
    } >&2
  fi
  rm -f "$log"
  return $rc
}

# dg_build DIR [CMAKE-ARGS...]: a Ninja build tree of the source tree in DIR.
dg_build() {
  local dir=$1; shift
  dg_quiet "configuring $dir" cmake -S "$DG_ROOT" -B "$dir" -G Ninja "$@"
  dg_quiet "building $dir" cmake --build "$dir" -j "$(nproc)"
}

dg_ensure_built() {
  DBGAUGE=${DBGAUGE:-$DG_ROOT/build/dbgauge}
  if [ ! -x "$DBGAUGE" ]; then
    "$DG_ROOT/scripts/deps.sh" build
    dg_build "$DG_ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  fi
  [ -x "$DBGAUGE" ] || dg_die "no dbgauge binary at $DBGAUGE"
}

dg_server() {
  local name=$1 var
  var="DG_TEST_$(echo "$name" | tr a-z A-Z)_URL"
  [ -n "${!var:-}" ] && return 0
  dg_quiet "starting the $name test server" "$DG_ROOT/scripts/servers/$name.sh" start
  eval "$("$DG_ROOT/scripts/servers/$name.sh" env)"
}
