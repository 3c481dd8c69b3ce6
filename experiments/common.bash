# common.bash - shared by the experiment recipes (sourced): finds or builds dbgauge and
# picks the output directory. Every recipe takes its knobs from environment variables and
# prints where its report is.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DBGAUGE=${DBGAUGE:-$root/build/dbgauge}
if [ ! -x "$DBGAUGE" ]; then
  "$root/scripts/deps.sh" build
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$root/build" >/dev/null
fi
name=$(basename "$0")
OUT=${OUT:-results/$name-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
report() {
  "$DBGAUGE" report "$OUT" -o "$OUT/report.html"
  "$DBGAUGE" report "$OUT" --format text
  echo "report: $OUT/report.html"
}
