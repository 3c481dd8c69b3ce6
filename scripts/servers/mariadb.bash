# mariadb.bash - the MariaDB programs the server scripts run (sourced by mysql.sh and
# galera.sh, which define die MESSAGE first): SERVER (mariadbd), INSTALL_DB
# (mariadb-install-db) and CLIENT (mariadb), or the MySQL names, from PATH or /usr/sbin.

find_bin() {
  local b
  for b in "$@"; do
    if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return; fi
    [ -x "/usr/sbin/$b" ] && { echo "/usr/sbin/$b"; return; }
  done
  die "none of $* found (scripts/deps.sh test installs mariadb-server)"
}
SERVER=$(find_bin mariadbd mysqld)
INSTALL_DB=$(find_bin mariadb-install-db mysql_install_db)
CLIENT=$(find_bin mariadb mysql)
