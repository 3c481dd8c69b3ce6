# settings.bash - the recorded server settings of the test server scripts (sourced by
# postgres.sh, mysql.sh and firebird.sh): the server-control contract of
# `dbgauge sweep --server-ctl CMD`, which runs `CMD set NAME VALUE` per setting, then
# `CMD restart`.
#
# The sourcing script sets SETTINGS (the file of NAME=VALUE lines), DIR, SETTINGS_FOLD
# (1: names compare ignoring case, as PostgreSQL's and Firebird's do; 0: exactly, as
# MariaDB's) and defines die MESSAGE and owned_setting NAME VALUE AT, which dies (with
# the prefix AT) for a setting the script itself controls or a value it knows is wrong.
#
#   set NAME VALUE   records NAME=VALUE (replacing an earlier NAME) for the next start;
#                    NAME must match ^[A-Za-z_][A-Za-z0-9_.]*$ and VALUE
#                    ^[A-Za-z0-9_.:+-]+$ (ASCII, no spaces or quotes: they reach a server
#                    command line or configuration file)
#   unset NAME       forgets NAME;  reset  forgets all;  settings  prints them

# The character classes list their letters: ranges such as A-Z may match non-ASCII
# letters in some locales.
AZ=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz
NAME_RE="^[${AZ}_][${AZ}0123456789_.]*\$"
VALUE_RE="^[${AZ}0123456789_.:+-]+\$"

# check_setting NAME VALUE [WHERE]: dies unless the script may record NAME = VALUE
check_setting() {
  local at=${3:+$3: }
  [[ $1 =~ $NAME_RE ]] ||
    die "${at}bad setting name '$1' (it must match ^[A-Za-z_][A-Za-z0-9_.]*\$)"
  [[ $2 =~ $VALUE_RE ]] ||
    die "${at}bad value '$2' for $1 (it must match ^[A-Za-z0-9_.:+-]+\$: ASCII, no spaces or quotes)"
  owned_setting "$1" "$2" "$at"
}

# recorded_settings: the recorded NAME=VALUE lines, checked again (the file may have
# been edited by hand, and start passes them on to the server)
recorded_settings() {
  [ -f "$SETTINGS" ] || return 0
  local line n=0
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    [ -n "$line" ] || continue
    [[ $line == *=* ]] || die "$SETTINGS line $n is not NAME=VALUE: $line"
    check_setting "${line%%=*}" "${line#*=}" "$SETTINGS line $n"
    printf '%s\n' "$line"
  done <"$SETTINGS"
}

# recorded_value NAME: the recorded value of NAME; fails when there is none
recorded_value() {
  [ -f "$SETTINGS" ] || return 1
  awk -F= -v n="$1" -v fold="$SETTINGS_FOLD" '
    (fold ? tolower($1) == tolower(n) : $1 == n) { v = $2; f = 1 }
    END { if (f) print v; exit !f }' "$SETTINGS"
}

set_setting() { # set_setting NAME VALUE
  check_setting "$1" "$2"
  mkdir -p "$DIR"
  [ -f "$SETTINGS" ] || : >"$SETTINGS"
  awk -F= -v n="$1" -v v="$2" -v fold="$SETTINGS_FOLD" '
    (fold ? tolower($1) == tolower(n) : $1 == n) { if (!done) print n "=" v; done = 1; next }
    { print }
    END { if (!done) print n "=" v }' "$SETTINGS" >"$SETTINGS.tmp"
  mv "$SETTINGS.tmp" "$SETTINGS"
}

unset_setting() { # unset_setting NAME
  [[ $1 =~ $NAME_RE ]] ||
    die "bad setting name '$1' (it must match ^[A-Za-z_][A-Za-z0-9_.]*\$)"
  [ -f "$SETTINGS" ] || return 0
  awk -F= -v n="$1" -v fold="$SETTINGS_FOLD" '
    !(fold ? tolower($1) == tolower(n) : $1 == n)' "$SETTINGS" >"$SETTINGS.tmp"
  mv "$SETTINGS.tmp" "$SETTINGS"
}

# settings_command ARGS...: runs set/unset/reset/settings; 1 when ARGS is none of them
settings_command() {
  case "${1:-}" in
    set) [ $# -eq 3 ] || die "usage: $0 set NAME VALUE"; set_setting "$2" "$3" ;;
    unset) [ $# -eq 2 ] || die "usage: $0 unset NAME"; unset_setting "$2" ;;
    reset) rm -f "$SETTINGS" ;;
    settings) recorded_settings ;;
    *) return 1 ;;
  esac
}
