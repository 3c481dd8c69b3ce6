#!/usr/bin/env bash
# `dbgauge list` names every known backend, built or not; a URL for a backend this binary
# was built without fails with exit 1 and names the Debian package that brings it (the
# minimal build of scripts/check has none of the server backends), without the password.
source "$(dirname "$0")/common.bash"
"$DBGAUGE" list > "$TMP/list"
declare -A url=([postgres]='postgres://u:s3cret@127.0.0.1:1/db' [mysql]='mysql://u:s3cret@127.0.0.1:1/db'
                [firebird]='firebird://u:s3cret@127.0.0.1:1//tmp/x.fdb' [sqlite]='sqlite::memory:')
declare -A pkg=([postgres]=libpq-dev [mysql]=libmariadb-dev [firebird]=firebird-dev [sqlite]=libsqlite3-dev)
for be in sqlite postgres mysql firebird; do
  checks=$((checks + 1))
  line=$(sed -n '/^databases:/,$p' "$TMP/list" | grep -E "^  $be " || true)
  [ -n "$line" ] || { fail "list does not name $be"; continue; }
  case "$line" in
    *"not built"*)
      checks=$((checks + 1))
      [[ $line == *"install ${pkg[$be]}"* ]] || fail "list: '$line' does not name ${pkg[$be]}"
      checks=$((checks + 1))
      set +e; "$DBGAUGE" run --db "${url[$be]}" -T 1s > "$TMP/out" 2> "$TMP/err"; rc=$?; set -e
      [ $rc = 1 ] || fail "$be not built: exit $rc, expected 1"
      grep -q "built without the $be backend: install ${pkg[$be]}" "$TMP/err" \
        || fail "$be not built: message does not name ${pkg[$be]}: $(cat "$TMP/err")"
      ! grep -q s3cret "$TMP/out" "$TMP/err" || fail "$be not built: the password was printed"
      echo "# $be: not built, names ${pkg[$be]}" >&2 ;;
    *) echo "# $be: built" >&2 ;;
  esac
done
# sqlite is always built
checks=$((checks + 1))
grep -qE '^  sqlite +sqlite:' "$TMP/list" || fail "sqlite is not listed as built"
finish
