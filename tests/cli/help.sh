#!/usr/bin/env bash
# --help output of every command equals the golden files in tests/fixtures/help/.
# After an intended change: DG_UPDATE_GOLDEN=1 ctest -R cli/help
source "$(dirname "$0")/common.bash"
for cmd in general run load restore check list sweep report compare merge; do
  checks=$((checks + 1))
  golden="$DG_FIXTURES/help/$cmd.txt"
  if [ "$cmd" = general ]; then "$DBGAUGE" --help > "$TMP/$cmd.txt"; else "$DBGAUGE" "$cmd" --help > "$TMP/$cmd.txt"; fi
  # the general help lists the backends this build has: keep only the stable part
  if [ "$cmd" = general ]; then sed -i '/^databases/,/^$/d' "$TMP/$cmd.txt"; fi
  if [ "${DG_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$TMP/$cmd.txt" "$golden"; continue; fi
  diff -u "$golden" "$TMP/$cmd.txt" >&2 || fail "$cmd --help differs from $golden"
done
finish
