#!/usr/bin/env bash
# HTML reports render in a real browser: headless Chromium takes screenshots of a run
# report, a sweep report and a comparison, and scripts/screenshot-report checks that the
# pictures are not blank. Skipped (77) without /usr/bin/chromium (apt-get install chromium).
source "$(dirname "$0")/common.bash"
[ -x /usr/bin/chromium ] || { echo "skipped: /usr/bin/chromium is not installed"; exit 77; }
RES="$DG_FIXTURES/results"
shot() { # NAME DBGAUGE-ARGS...
  local name=$1; shift
  checks=$((checks + 1))
  if ! (cd "$RES" && "$DBGAUGE" "$@" -o "$TMP/$name.html") 2>"$TMP/$name.err"; then
    fail "dbgauge $*: $(cat "$TMP/$name.err")"
    return
  fi
  CHROMIUM=/usr/bin/chromium "$DG_SRC/scripts/screenshot-report" "$TMP/$name.html" "$TMP/$name.png" \
    || fail "screenshot of $name"
  # keep the pictures for a look when asked: DG_SCREENSHOT_DIR=/some/dir ctest -R screenshot
  if [ -n "${DG_SCREENSHOT_DIR:-}" ]; then mkdir -p "$DG_SCREENSHOT_DIR"; cp "$TMP/$name.png" "$DG_SCREENSHOT_DIR/"; fi
}
shot run report small.json
shot sweep report sweep
shot compare compare compare/a1.json compare/b1.json
finish
