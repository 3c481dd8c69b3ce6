# mariadb.bash - what the MariaDB server scripts share (sourced by mysql.sh and galera.sh,
# which define die MESSAGE first): the programs SERVER (mariadbd), INSTALL_DB
# (mariadb-install-db) and CLIENT (mariadb), or the MySQL names, from PATH or /usr/sbin;
# and provision_sql, the SQL that makes the user dbgauge (password dbgauge) with every
# privilege on database dbgauge.

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

provision_sql() {
  cat <<'EOF'
CREATE USER IF NOT EXISTS 'dbgauge'@'127.0.0.1' IDENTIFIED BY 'dbgauge';
CREATE USER IF NOT EXISTS 'dbgauge'@'localhost' IDENTIFIED BY 'dbgauge';
CREATE DATABASE IF NOT EXISTS dbgauge;
GRANT ALL PRIVILEGES ON dbgauge.* TO 'dbgauge'@'127.0.0.1';
GRANT ALL PRIVILEGES ON dbgauge.* TO 'dbgauge'@'localhost';
-- what --wait-profile reads: InnoDB's transactions (PROCESS) and performance_schema
GRANT PROCESS ON *.* TO 'dbgauge'@'127.0.0.1';
GRANT PROCESS ON *.* TO 'dbgauge'@'localhost';
GRANT SELECT ON performance_schema.* TO 'dbgauge'@'127.0.0.1';
GRANT SELECT ON performance_schema.* TO 'dbgauge'@'localhost';
EOF
}
