#!/usr/bin/env bash
# The result files the report and compare tests read (tests/fixtures/results) are made by
# dg_make_fixtures with the writers real runs use (results/doc.h, the sweep index): made
# again here, they must equal the checked-in files, so a change of the file format shows
# up in the fixtures (and the report goldens) instead of drifting past them.
# After an intended format change: DG_UPDATE_GOLDEN=1 ctest -R cli/fixtures
source "$(dirname "$0")/common.bash"
: "${DG_MAKE_FIXTURES:?run through ctest}"
checks=1
if [ "${DG_UPDATE_GOLDEN:-0}" = 1 ]; then
  rm -rf "$DG_FIXTURES/results/small.json" "$DG_FIXTURES/results/hostile.json" \
         "$DG_FIXTURES/results/sweep" "$DG_FIXTURES/results/compare"
  "$DG_MAKE_FIXTURES" "$DG_FIXTURES/results" || fail "dg_make_fixtures failed"
else
  "$DG_MAKE_FIXTURES" "$TMP/results" || fail "dg_make_fixtures failed"
  diff -r "$DG_FIXTURES/results" "$TMP/results" >&2 \
    || fail "the fixtures differ from what the writers make now (DG_UPDATE_GOLDEN=1 to remake them)"
fi
finish
