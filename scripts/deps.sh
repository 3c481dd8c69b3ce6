#!/usr/bin/env bash
# Installs what dbgauge needs on Debian 12 (as root; uses sudo otherwise), skipping
# packages that are already installed. Usage:
#   scripts/deps.sh build     compiler, CMake, SQLite, JSON and XML libraries (enough for the demo)
#   scripts/deps.sh test      build + database servers and client libraries for the test suite
#   scripts/deps.sh bench     test + peer tools for side-by-side benchmarks (sysbench)
#   scripts/deps.sh package   build + what the Debian package's build needs (scripts/package-check)
set -euo pipefail
source "$(dirname "$0")/lib.bash"

level=${1:-build}
build_pkgs=(build-essential cmake ninja-build pkg-config libsqlite3-dev sqlite3 libjansson-dev
            libxml2-dev zlib1g-dev)
server_pkgs=(libpq-dev postgresql postgresql-contrib
             libmariadb-dev mariadb-server mariadb-client
             galera-4 rsync # a 3-node Galera cluster on loopback (scripts/servers/galera.sh)
             firebird-dev firebird3.0-server firebird3.0-utils
             unixodbc-dev odbc-postgresql odbc-mariadb libsqliteodbc # the ODBC backend's tests
             libclang-rt-14-dev clang python3 python3-html5lib chromium
             openssh-server openssh-client # a private sshd: --server-host tests
             default-jre-headless libhdrhistogram-java # --hlog read by HdrHistogram's own tools
             man-db # groff: the generated man pages are rendered in the tests
             llvm valgrind) # llvm: llvm-symbolizer for ASan/libFuzzer stack traces
bench_pkgs=(sysbench)
package_pkgs=(debhelper dpkg-dev man-db libpq-dev libmariadb-dev firebird-dev unixodbc-dev)

pkgs=("${build_pkgs[@]}")
case "$level" in
  build) ;;
  test) pkgs+=("${server_pkgs[@]}") ;;
  bench) pkgs+=("${server_pkgs[@]}" "${bench_pkgs[@]}") ;;
  package) pkgs+=("${package_pkgs[@]}") ;;
  *) dg_die "usage: $0 build|test|bench|package" ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# The Firebird server package asks for a SYSDBA password; answer it up front. The test
# servers set their own passwords, so this one only has to exist.
if printf '%s\n' "${missing[@]}" | grep -q '^firebird3.0-server$'; then
  echo "firebird3.0-server shared/firebird/sysdba_password/first_install password masterkey" \
    | $SUDO debconf-set-selections
fi
# Package scripts try to start services; there is no init system to do it here.
if [ ! -e /usr/sbin/policy-rc.d ] && [ "$(id -u)" -eq 0 ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
# a mirror that hiccups once should not fail the whole run: one retry for each step
dg_quiet "apt-get update" $SUDO apt-get update -qq \
  || { sleep 5; dg_quiet "apt-get update (again)" $SUDO apt-get update -qq; }
dg_quiet "apt-get install ${missing[*]}" \
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
  || { sleep 5; dg_quiet "apt-get install (again)" \
         $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; }
