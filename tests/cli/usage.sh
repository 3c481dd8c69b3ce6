#!/usr/bin/env bash
# Usage errors, from a table: arguments | expected exit status | expected text on stderr.
# None of these may touch a database: the --db given does not exist and must not be created.
source "$(dirname "$0")/common.bash"
export DBGAUGE_DB="sqlite:$TMP/never-created.db"

# Bad script files for the -f rows (none gets as far as the database): a flat expression
# of 14,687 terms (29 kB; it crashed once) ending in a variable that is never set, so the
# error shows how far parsing got; nesting far beyond the limit; a directory; a sparse
# file over the 16 MiB limit. /dev/zero is used as it is.
printf '\\set x %s:nosuch\n' "$(printf '1+%.0s' $(seq 14687))" >flat.sql
printf '\\set x %s1%s\n' "$(printf '(%.0s' $(seq 43593))" "$(printf ')%.0s' $(seq 43593))" >parens.sql
printf '\\set x %s1\n' "$(printf -- '- %.0s' $(seq 20000))" >unary.sql
printf '\\set x %s1%s\n' "$(printf 'abs(%.0s' $(seq 5000))" "$(printf ')%.0s' $(seq 5000))" >calls.sql
mkdir scripts.d
printf '\\sleep -5 s\n' >negsleep.sql
printf '\xef\xbb\xbf\\set x 1 +\n' >bom.sql # a byte order mark is skipped: columns count after it
truncate -s 17M huge.sql
# options files (@FILE): a bad value on line 3, another file named inside one, a password
# in a URL that must not show in the message
printf '# comment\n\n--terminals two\n' >badval.opts
printf -- '-T 1s\n@other.opts\n' >nested.opts
printf -- '--db postgres://u:Opt5ecretPw@127.0.0.1:1/x\n--bogus 1\n' >pw.opts

while IFS='|' read -r args code text; do
  args=$(echo "$args" | sed 's/ *$//'); code=$(echo "$code" | tr -d ' '); text=$(echo "$text" | sed 's/^ *//')
  [ -z "$args" ] && continue
  case "$args" in \#*) continue ;; esac
  checks=$((checks + 1))
  set +e
  eval "\"\$DBGAUGE\" $args" >"$TMP/out" 2>"$TMP/err"
  got=$?
  set -e
  if [ "$got" != "$code" ]; then
    fail "dbgauge $args: exit $got, expected $code; stderr: $(cat "$TMP/err")"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$TMP/err"; then
    fail "dbgauge $args: stderr lacks '$text': $(cat "$TMP/err")"
  fi
done <<'TABLE'
# arguments                                  | exit | stderr contains
                                             | 1    | usage: dbgauge COMMAND
frobnicate                                   | 1    | unknown command 'frobnicate'
run --no-such-option                         | 1    | unknown option '--no-such-option'
run -x                                       | 1    | unknown option '-x'
run --terminals                              | 1    | option '--terminals' needs a value (N)
run --terminals 0                            | 1    | --terminals 0 is out of range (1 to 10000)
sweep --vary terminals=1,2 --server-ctl ./no-ctl.sh -T 1s | 1 | --server-ctl './no-ctl.sh' cannot be run: No such file or directory (a relative path is taken from the current directory)
run @badval.opts                             | 1    | badval.opts:3: invalid value 'two' for --terminals
run @nested.opts                             | 1    | nested.opts:2: an options file cannot name another ('@other.opts')
run @no-such.opts                            | 1    | cannot read options file 'no-such.opts': No such file or directory
run @pw.opts                                 | 1    | pw.opts:2: unknown option '--bogus'
run -c 2 @badval.opts                        | 1    | badval.opts:3: --terminals given twice ('2' and 'two')
run -c abc                                   | 1    | invalid value 'abc' for -c
run --duration 10parsecs                     | 1    | invalid duration '10parsecs' for --duration
run --duration 0                             | 1    | --duration 0 is out of range (1ms to 365d)
run --duration 5s --transactions 10          | 1    | --duration and --transactions exclude each other
run --report-interval 1ms                    | 1    | --report-interval 1ms is out of range (0 for none, or 100ms to 1d)
run --rate 100 --think-time 5                | 1    | --rate and --think-time exclude each other
run --rate -5                                | 1    | --rate -5 is out of range (0.001 to 1000000000)
run --rate 0.0000001                         | 1    | --rate 0.0000001 is out of range (0.001 to 1000000000)
run -w tpcc --wl-opt nonsense=1              | 1    | unknown --wl-opt 'nonsense' for workload 'tpcc' (known: check, gen_only, procedures)
run -w tpcb --wl-opt check=full              | 1    | unknown --wl-opt 'check' for workload 'tpcb' (it takes none)
run --db sqlite:u.db?cahce_size=1 -T 1s      | 1    | unknown SQLite setting 'cahce_size'
run --db sqlite:u.db?synchronous=bogus -T 1s | 1    | invalid value 'bogus' for sqlite setting 'synchronous'
run --db 'sqlite:u.db?cache_size=abc' -T 1s  | 1    | invalid value 'abc' for sqlite setting 'cache_size': expected an integer from -2147483648 to 2147483647
run --db 'sqlite:u.db?page_size=100' -T 1s   | 1    | invalid value '100' for sqlite setting 'page_size': expected an integer from 512 to 65536
run --conn temp_store=disk -T 1s             | 1    | invalid value 'disk' for sqlite setting 'temp_store'
run --db 'sqlite:b%zz.db' -T 1s              | 1    | invalid database URL 'sqlite:b%zz.db': bad %-escape in the path
run --db 'postgres://h/db?sslmode' -T 1s     | 1    | invalid database URL 'postgres://h/db?sslmode': a parameter without '='
run --db 'postgres://h/db?=x' -T 1s          | 1    | invalid database URL 'postgres://h/db?=x': a parameter without a name
run --db 'postgres://h/db#frag' -T 1s        | 1    | invalid database URL 'postgres://h/db#frag': a '#'
sweep --vary terminals=1,,2 -T 1s            | 1    | --vary terminals=1,,2 has an empty value
sweep --vary json=a.json,b.json -T 1s        | 1    | --vary json: 'json' says where results go
run --max-tries 0                            | 1    | --max-tries 0 is out of range (1 to 1000000)
run --duraton 5s                             | 1    | unknown option '--duraton': did you mean '--duration'?
run --term 4                                 | 1    | unknown option '--term': did you mean '--terminals'?
run --client 0                               | 1    | --client 0 is out of range (1 to 10000)
run --progress x                             | 1    | invalid duration 'x' for --progress
run --time 0                                 | 1    | --time 0 is out of range (1ms to 365d)
run --workload nosuch                        | 1    | unknown workload 'nosuch'
run --workload tpcb:fast                     | 1    | unknown variant 'fast' of workload 'tpcb'
run --mix nosuch=1                           | 1    | --mix names unknown transaction 'nosuch'
run -w tpcb --mix tpcb                       | 1    | invalid --mix entry 'tpcb': expected NAME=WEIGHT
run -w tpcb --mix tpcb=0                     | 1    | --mix leaves every transaction with weight 0
run --mix new_order=0,payment=0,order_status=0,delivery=0,stock_level=0 | 1 | --mix leaves every transaction with weight 0
run -f missing.sql                           | 1    | missing.sql
run -f x.sql@abc                             | 1    | invalid weight in 'x.sql@abc'
run --workload tpcb -f x.sql                 | 1    | -f goes with --workload script
run -f flat.sql                              | 1    | flat.sql:1:29382: error: variable "nosuch" is used but never set
run -f parens.sql                            | 1    | parens.sql:1:1008: error: expression too deeply nested (limit 1000)
run -f unary.sql                             | 1    | unary.sql:1:2008: error: expression too deeply nested (limit 1000)
run -f calls.sql                             | 1    | calls.sql:1:4008: error: expression too deeply nested (limit 1000)
run -f /dev/zero                             | 1    | script "/dev/zero" is a character device, not a regular file
run -f scripts.d                             | 1    | script "scripts.d" is a directory, not a regular file
run -f huge.sql                              | 1    | script "huge.sql" is too large (17825792 bytes; the limit is 16 MiB)
run -f negsleep.sql                          | 1    | negsleep.sql:1:8: error: \sleep: time "-5" is negative, must be from 0 to 2147483647 (or a :variable)
run -f bom.sql                               | 1    | bom.sql:1:11: error: syntax error: unexpected end of expression
run -D x=1                                   | 1    | -D defines script variables: it needs -f scripts
run --conn novalue                           | 1    | invalid value 'novalue' for --conn: expected NAME=VALUE
run --json out.json --no-results             | 1    | --json and --no-results exclude each other
load --drop=yes                              | 1    | option '--drop' takes no value
load --terminals 2                           | 1    | option '--terminals' does not apply to 'load'
load --size 10parsecs                        | 1    | invalid size '10parsecs' for --size
load --size 1GB --scale 2                    | 1    | --size and --scale exclude each other
load -w tables --rows 2.5                    | 1    | invalid value '2.5' for --rows: expected a whole number
load -w tables --rows 25MB                   | 1    | invalid value '25MB' for --rows
load -w tables --rows 1M --scale 5           | 1    | --rows excludes --scale and --size
load -w tables --tables 0                    | 1    | --tables 0 is out of range (1 to 1000)
load -w tpcb --rows 1000                     | 1    | --rows applies to workload 'tables' only, not 'tpcb'
load -w tpcc --scale 0.5                     | 1    | --scale 0.5: workload 'tpcc' takes a whole number
load -w docs --scale 0.000001                | 1    | --scale 1e-06 is 0.1 customers: docs needs from 1 customer
load --scale 0                               | 1    | --scale 0 is out of range (more than 0, up to 100000000)
run -w docs:update                           | 1    | unknown variant 'update' of workload 'docs' (known: insert-only)
load -w docs --wl-opt storage=xml            | 1    | invalid --wl-opt storage=xml: native
load -w docs --wl-opt nope=1                 | 1    | unknown --wl-opt 'nope' for workload 'docs' (known: securities, storage, validate, schemas)
run -w tpcc --key-range hot                  | 1    | --key-range applies to workload 'tables' only, not 'tpcc'
run -w tables --key-range 0%                 | 1    | invalid --key-range '0%': expected hot
run -w tables --key-range 101%               | 1    | invalid --key-range '101%'
run -w tables:update                         | 1    | unknown variant 'update' of workload 'tables' (known: insert, select)
run -w tables --mix insert=1,delete=2        | 1    | delete
load --key-range hot                         | 1    | option '--key-range' does not apply to 'load'
run --db nosuchdb://x/y                      | 1    | unknown database type 'nosuchdb'
run --db 'postgres://u:s3cret@127.0.0.1:1/x?connect_timeout=1' | 1 | u:***@
run --db sqlite:/nonexistent-dir/x.db -T 1s  | 1    | cannot open SQLite database '/nonexistent-dir/x.db'
run --db 'postgres://[::1/db'                | 1    | invalid database URL 'postgres://[::1/db': unclosed '[' in the host
run --db 'postgres://[::1]x/db'              | 1    | unexpected text after ']'
run --db 'sqlite:?mode=ro'                   | 1    | invalid database URL 'sqlite:?mode=ro': missing path
run --db 'postgres://h/db%zz'                | 1    | bad %-escape in the path
run --db 'postgres://u:a/b@h/db'             | 1    | invalid database URL 'postgres://u:***@h/db': '@' after the host
sweep --vary 'db=sqlite:a.db,postgres://h/%00' | 1  | p002: invalid database URL 'postgres://h/%00': bad %-escape
run --password-file missing.txt              | 1    | cannot read password file 'missing.txt'
run 'postgres://u:s3cret@h/db'               | 1    | unexpected argument 'postgres://u:***@h/db'
run -c 'postgres://u:s3cret@h/db'            | 1    | invalid value 'postgres://u:***@h/db' for -c
check --password-file missing.txt            | 1    | cannot read password file 'missing.txt'
check --db sqlite:/nonexistent-dir/x.db      | 1    | cannot open SQLite database
# ranges: every bounded option refuses values outside the range the option table declares
# (tests/unit/test_options.c walks the table; these rows check the messages as printed)
load --scale 99999999999                     | 1    | --scale 99999999999 is out of range (more than 0, up to 100000000)
load -s 0x10                                 | 1    | invalid value '0x10' for -s: expected a number (more than 0, up to 100000000)
load --scale inf                             | 1    | invalid value 'inf' for --scale: expected a number
run -T 0.0001ms                              | 1    | -T 0.0001ms is out of range (1ms to 365d)
run -T 0.5ms                                 | 1    | -T 0.5ms is out of range (1ms to 365d)
run -T 366d                                  | 1    | -T 366d is out of range (1ms to 365d)
run -T -5s                                   | 1    | invalid duration '-5s' for -T: expected e.g. 30s, 500ms, 2m, 1h (1ms to 365d)
run --warmup 400d                            | 1    | --warmup 400d is out of range (0 to 365d)
run -P 2d                                    | 1    | -P 2d is out of range (0 for none, or 100ms to 1d)
run --think-time 2h                          | 1    | --think-time 2h is out of range (0 to 1h)
run --think-time exp:90m                     | 1    | --think-time exp:90m is out of range (0 to 1h)
run --rate 1000000001                        | 1    | --rate 1000000001 is out of range (0.001 to 1000000000)
run -t 0                                     | 1    | -t 0 is out of range (1 to 1000000000000)
run -c 10001                                 | 1    | -c 10001 is out of range (1 to 10000)
run -c 99999999999999999999                  | 1    | invalid value '99999999999999999999' for -c: expected an integer (1 to 10000)
run --workers 257                            | 1    | --workers 257 is out of range (0 to 256)
sweep --vary terminals=1,2 --repeat 1001     | 1    | --repeat 1001 is out of range (1 to 1000)
load -j 0                                    | 1    | -j 0 is out of range (1 to 1024)
load -w tables --rows 100000001              | 1    | --rows 100000001 is out of range (1 to 100000000)
load --size 0                                | 1    | --size 0 is out of range (1B to 1000TB)
load --size 1001TB                           | 1    | --size 1001TB is out of range (1B to 1000TB)
run -f x.sql@0x10                            | 1    | invalid weight in 'x.sql@0x10' for -f: expected FILE@WEIGHT, WEIGHT a whole number in decimal digits (0 to 2147483647)
run -f x.sql@1.5                             | 1    | invalid weight in 'x.sql@1.5' for -f
run -f x.sql@1e3                             | 1    | invalid weight in 'x.sql@1e3' for -f
run -f x.sql@+3                              | 1    | invalid weight in 'x.sql@+3' for -f
run -f 'x.sql@ 3'                            | 1    | invalid weight in 'x.sql@ 3' for -f
run -f x.sql@                                | 1    | invalid weight in 'x.sql@' for -f
run -f x.sql@-1                              | 1    | weight -1 in 'x.sql@-1' for -f is out of range (0 to 2147483647)
run -f x.sql@2147483648                      | 1    | weight 2147483648 in 'x.sql@2147483648' for -f is out of range (0 to 2147483647)
run -w tpcc --mix new_order=0x10             | 1    | invalid --mix entry 'new_order=0x10': expected NAME=WEIGHT
run --db 'sqlite:u.db?busy_timeout=-1'       | 1    | invalid value '-1' for sqlite setting 'busy_timeout': expected an integer from 0 to 2147483647
run --db 'sqlite:u.db?busy_timeout=2147483648' | 1  | invalid value '2147483648' for sqlite setting 'busy_timeout': expected an integer from 0 to 2147483647
load -w docs --scale 0.01 --wl-opt securities=0       | 1 | invalid --wl-opt securities=0: a count from 1 to 1000000
load -w docs --scale 0.01 --wl-opt securities=1000001 | 1 | invalid --wl-opt securities=1000001: a count from 1 to 1000000
# an option that is not repeatable may be given once (the later value used to win silently)
run --duration 10s --duration 20s            | 1    | --duration given twice ('10s' and '20s')
run -T 10s --duration 20s                    | 1    | --duration given twice ('10s' and '20s')
run -c 4 -c 4                                | 1    | --terminals given twice ('4' and '4')
run --db sqlite:a.db --db 'postgres://u:s3cret@h/db' | 1 | --db given twice ('sqlite:a.db' and 'postgres://u:***@h/db')
load --drop --drop                           | 1    | --drop given twice
report -o a.txt -o b.txt x.json              | 1    | --output given twice ('a.txt' and 'b.txt')
TABLE

# a password never appears in any output
checks=$((checks + 1))
set +e; "$DBGAUGE" run --db 'postgres://u:s3cret@127.0.0.1:1/x?connect_timeout=1' >"$TMP/out" 2>"$TMP/err"; set -e
if grep -q s3cret "$TMP/out" "$TMP/err"; then fail "password printed"; fi
# nothing was created by the failing commands
checks=$((checks + 1))
[ ! -e "$TMP/never-created.db" ] || fail "a usage error created the database"
[ ! -e "$TMP/results" ] || fail "a usage error wrote results"

# an options file's password never reaches a message
checks=$((checks + 1))
set +e; "$DBGAUGE" run @pw.opts >"$TMP/out" 2>"$TMP/err"; set -e
! grep -q Opt5ecretPw "$TMP/out" "$TMP/err" || fail "@FILE: the password is in the message: $(cat "$TMP/err")"

# --version: the version and the commit on one line (run --drivers compares the version)
checks=$((checks + 1))
$DBGAUGE --version | grep -Ex >/dev/null 'dbgauge [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)' \
  || fail "--version: $($DBGAUGE --version)"
# a tree with git history or from git archive knows its commit
if [ -e "$DG_SRC/.git" ] || ! grep -q 'Format' "$DG_SRC/src/core/commit.txt"; then
  checks=$((checks + 1))
  $DBGAUGE --version | grep "(commit unknown)" >/dev/null && fail "--version: the commit is unknown in a tree that has it"
fi
# --version and help exit 0
for a in --version "--help" "help run" "run --help" "load -h" "check --help" "list --help"; do
  checks=$((checks + 1))
  $DBGAUGE $a >/dev/null 2>&1 || fail "dbgauge $a exited non-zero"
done
finish
