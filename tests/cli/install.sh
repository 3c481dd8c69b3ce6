#!/usr/bin/env bash
# What the build generates from the option table and what `cmake --install` puts where
# (Debian's paths under a private prefix): a man page per command that groff renders
# without a warning and that lists every option `--help` lists; bash completion that
# completes commands, options and workload names; zsh completion that zsh parses (when
# zsh is there); the binary, docs, workloads and the experiments (still executable).
source "$(dirname "$0")/common.bash"
: "${DG_BUILD:?run through ctest}"
gen="$DG_BUILD/generated"

# ---- man pages ---------------------------------------------------------------------------
commands=$("$DBGAUGE" --help | sed -n '/^commands:/,/^$/p' | awk 'NF >= 2 && $1 != "commands:" {print $1}')
[ -n "$commands" ] || fail "no commands in --help"
for page in dbgauge $(printf 'dbgauge-%s ' $commands); do
  checks=$((checks + 1))
  f="$gen/man/$page.1"
  [ -s "$f" ] || { fail "no man page $page.1"; continue; }
  if command -v groff >/dev/null; then
    warn=$(groff -man -ww -z "$f" 2>&1) || fail "groff failed on $page.1: $warn"
    [ -z "$warn" ] || fail "groff warns about $page.1: $warn"
  fi
done
for c in $commands; do
  checks=$((checks + 1))
  # every option line of the command's --help is in its page (as \fB\-\-name\fR)
  for opt in $("$DBGAUGE" "$c" --help | sed -nE 's/^ +(-[a-zA-Z], )?(--[a-z][a-z-]*).*/\2/p'); do
    grep -qF -- "\\fB$(echo "$opt" | sed 's/-/\\-/g')\\fR" "$gen/man/dbgauge-$c.1" \
      || fail "dbgauge-$c.1 lacks $opt"
  done
done

# ---- completion ----------------------------------------------------------------------------
checks=$((checks + 1))
bash -n "$gen/completion/dbgauge" || fail "the bash completion does not parse"
# (grep reads all of it, never -q: with pipefail, a writer cut short by grep -q fails)
complete_words() { # WORD...: what the bash completion offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dbgauge; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$gen/completion/dbgauge" "$@"
}
checks=$((checks + 1))
[ "$(complete_words dbgauge run --termi)" = "--terminals" ] || fail "bash: --termi -> $(complete_words dbgauge run --termi)"
complete_words dbgauge run -w tp | grep -x >/dev/null 'tpcb:select-only' || fail "bash: -w tp -> $(complete_words dbgauge run -w tp)"
[ "$(complete_words dbgauge mer)" = merge ] || fail "bash: mer -> $(complete_words dbgauge mer)"
complete_words dbgauge report --format "" | grep -x >/dev/null html || fail "bash: --format"
complete_words dbgauge merge --max | grep -x >/dev/null -- --max-skew || fail "bash: merge --max"
complete_words dbgauge merge --termi | grep . >/dev/null && fail "bash: merge offers run's options"
if command -v zsh >/dev/null; then
  checks=$((checks + 1))
  zsh -n "$gen/completion/_dbgauge" || fail "the zsh completion does not parse"
fi
grep -q '^#compdef dbgauge$' "$gen/completion/_dbgauge" || fail "zsh completion: no #compdef line"

# ---- cmake --install: Debian's paths -----------------------------------------------------
checks=$((checks + 1))
cmake --install "$DG_BUILD" --prefix "$TMP/inst" > "$TMP/install.out" 2>&1 || fail "cmake --install: $(tail -5 "$TMP/install.out")"
for f in bin/dbgauge share/man/man1/dbgauge.1 share/man/man1/dbgauge-run.1 \
         share/bash-completion/completions/dbgauge share/zsh/vendor-completions/_dbgauge \
         share/doc/dbgauge/README.md share/doc/dbgauge/LICENSE share/doc/dbgauge/usage.md \
         share/dbgauge/workloads/read-mostly/read.sql share/dbgauge/experiments/growth; do
  [ -e "$TMP/inst/$f" ] || fail "not installed: $f"
done
[ -x "$TMP/inst/share/dbgauge/experiments/growth" ] || fail "an experiment is installed without its x bit"
"$TMP/inst/bin/dbgauge" --version | grep '^dbgauge ' >/dev/null || fail "the installed binary does not run"
# the Debian package's version is the project's
checks=$((checks + 1))
deb_version=$(sed -n '1s/^dbgauge (\([^)]*\)).*/\1/p' "$DG_SRC/debian/changelog")
[ "$deb_version" = "$("$DBGAUGE" --version | awk '{print $2}')" ] \
  || fail "debian/changelog says $deb_version, dbgauge --version $("$DBGAUGE" --version)"
finish
