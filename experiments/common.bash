# common.bash - shared by the experiment recipes (sourced): finds or builds dbgauge and
# picks the output directory. Every recipe takes its knobs from environment variables and
# prints where its report is.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.bash"
root=$DG_ROOT
dg_ensure_built
name=$(basename "$0")
OUT=${OUT:-results/$name-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
report() {
  "$DBGAUGE" report "$OUT" -o "$OUT/report.html"
  "$DBGAUGE" report "$OUT" --format text
  echo "report: $OUT/report.html"
}
