#!/usr/bin/env bash
# Fuzzes every harness of a -DDG_FUZZ=ON build tree for a while (scripts/check runs this).
#
#   tests/fuzz/run.sh BUILD_DIR [TARGET...]      targets: script url result report rlog (default: all)
#
# For each target: replays the checked-in corpus tests/fuzz/corpus/TARGET (and the seeds
# kept elsewhere in the tree, see seeds_for) once, then
# fuzzes for DG_FUZZ_SECONDS seconds (default 60) with inputs up to 64 kB. The targets run
# side by side. New interesting inputs go to BUILD_DIR/fuzz/TARGET/corpus (kept, so the
# next run starts from there; the checked-in corpus is only read). A crash, leak, timeout
# or out-of-memory fails the run: the input is saved under BUILD_DIR/fuzz/TARGET/ and its
# path printed with the command that reproduces it. Exits 0 when no target failed.
#
# To add what a run found to the checked-in corpus (keeping it small):
#   BUILD_DIR/tests/fuzz/fuzz_TARGET -merge=1 tests/fuzz/corpus/TARGET BUILD_DIR/fuzz/TARGET/corpus
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR [TARGET...]}
shift
build=$(cd "$build" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(script url result report rlog)
seconds=${DG_FUZZ_SECONDS:-60}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: error: DG_FUZZ_SECONDS must be a positive count of seconds, not '$seconds'" >&2; exit 1; }
# the harnesses are built with ASan+UBSan: stop at the first report of either
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

opts=(-max_len=65536 -timeout=30 -rss_limit_mb=2048)
# seeds_for TARGET: read-only seed directories kept elsewhere in the tree (the script
# fixtures and example workloads, the report tests' result files), beside corpus/TARGET
seeds_for() {
  case "$1" in
    script) echo "$src/../fixtures/scripts $src/../../workloads" ;;
    result | report) echo "$src/../fixtures/results" ;;
  esac
}
pids=()
for t in "${targets[@]}"; do
  bin=$build/tests/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "run.sh: error: no $bin (configure with CC=clang -DDG_FUZZ=ON and build)" >&2; exit 1; }
  work=$build/fuzz/$t
  mkdir -p "$work/corpus" "$work/found"
  read -r -a seeds <<< "$(seeds_for "$t")"
  rm -f "$work/replay.log" "$work/fuzz.log"
  (
    "$bin" "${opts[@]}" -runs=0 -artifact_prefix="$work/found/" "$src/corpus/$t" ${seeds[@]+"${seeds[@]}"} \
      >"$work/replay.log" 2>&1 &&
    "$bin" "${opts[@]}" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$work/found/" "$work/corpus" "$src/corpus/$t" ${seeds[@]+"${seeds[@]}"} \
      >"$work/fuzz.log" 2>&1
  ) &
  pids+=($!)
done

failed=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  work=$build/fuzz/$t
  if wait "${pids[$i]}"; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
    echo "fuzz_$t: ok, ${execs:-?} inputs in ${seconds}s ($(ls "$work/corpus" | wc -l) in its corpus)"
    continue
  fi
  failed=1
  log=$work/fuzz.log
  [ -s "$log" ] || log=$work/replay.log
  echo "fuzz_$t: FAILED; the end of $log:"
  tail -n 60 "$log" | sed 's/^/  | /'
  input=$(sed -n "s/.*Test unit written to \(.*\)$/\1/p" "$log" | tail -n 1)
  if [ -n "$input" ]; then
    echo "fuzz_$t: the failing input is $input"
    echo "fuzz_$t: to reproduce: $build/tests/fuzz/fuzz_$t $input"
  fi
done
exit $failed
