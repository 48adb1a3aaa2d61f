# A throwaway MariaDB server for tests (source this file; bash).
#
#   mariadb_available        0 when mariadbd/mariadb-install-db/mariadb are installed
#                            (Debian: mariadb-server)
#   mariadb_start            mariadb-install-db + mariadbd in a new work directory, as an
#                            unprivileged user, on 127.0.0.1:$MY_PORT only
#   mariadb_sql [ARGS]       the mariadb client as $MY_USER over TCP to database $MY_DB,
#                            batch mode without column names; SQL on stdin or with -e "..."
#   mariadb_stop             stops the server and removes its work directory (idempotent)
#
# After mariadb_start: MY_HOST (127.0.0.1), MY_PORT, MY_USER (hfg, no password, all
# privileges incl. FILE), MY_DB (hfgtest), MY_SOCKET, MY_DIR (work directory; $MY_DIR/out
# is the server's --secure-file-priv directory, for SELECT ... INTO OUTFILE). A libmariadb
# client connects with host $MY_HOST, port $MY_PORT, user $MY_USER, empty password.
# Server log: $MY_DIR/server.log.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mariadb_available() {
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || return 1
  command -v mariadb-install-db >/dev/null 2>&1 && command -v mariadb >/dev/null 2>&1
}

mariadb_start() {
  local mysqld
  mysqld=$(command -v mariadbd 2>/dev/null || echo /usr/sbin/mariadbd)
  MY_DIR=$(db_workdir) || return 1
  MY_HOST=127.0.0.1
  MY_USER=hfg
  MY_DB=hfgtest
  MY_SOCKET="$MY_DIR/mysqld.sock"
  db_run mkdir -p "$MY_DIR/data" "$MY_DIR/out" || return 1
  if ! db_run mariadb-install-db --no-defaults --datadir="$MY_DIR/data" \
         --auth-root-authentication-method=normal --skip-test-db >"$MY_DIR/install.log" 2>&1; then
    echo "mariadb: mariadb-install-db failed:" >&2; tail -20 "$MY_DIR/install.log" >&2; return 1
  fi
  local try i
  for try in 1 2 3; do
    MY_PORT=$(db_free_port) || return 1
    db_run "$mysqld" --no-defaults --datadir="$MY_DIR/data" --socket="$MY_SOCKET" \
      --pid-file="$MY_DIR/mysqld.pid" --log-error="$MY_DIR/server.log" \
      --skip-networking=0 --bind-address=127.0.0.1 --port="$MY_PORT" \
      --secure-file-priv="$MY_DIR/out" --innodb-buffer-pool-size=16M \
      --skip-log-bin --character-set-server=utf8mb4 >/dev/null 2>&1 &
    for i in $(seq 1 120); do
      if mariadb-admin --no-defaults --socket="$MY_SOCKET" -u root ping >/dev/null 2>&1; then
        mariadb --no-defaults --socket="$MY_SOCKET" -u root -e "
          CREATE DATABASE $MY_DB CHARACTER SET utf8mb4;
          CREATE USER '$MY_USER'@'127.0.0.1'; CREATE USER '$MY_USER'@'localhost';
          GRANT ALL ON *.* TO '$MY_USER'@'127.0.0.1'; GRANT ALL ON *.* TO '$MY_USER'@'localhost';" ||
          return 1
        export MY_HOST MY_PORT MY_USER MY_DB MY_SOCKET MY_DIR
        return 0
      fi
      [ -f "$MY_DIR/mysqld.pid" ] || ! grep -q "ERROR" "$MY_DIR/server.log" 2>/dev/null || break
      sleep 0.5
    done
    mariadb_kill
  done
  echo "mariadb: server did not start:" >&2; tail -20 "$MY_DIR/server.log" >&2
  return 1
}

mariadb_sql() {
  mariadb --no-defaults -h "$MY_HOST" -P "$MY_PORT" --protocol=tcp -u "$MY_USER" -D "$MY_DB" \
    --batch --skip-column-names --default-character-set=utf8mb4 "$@"
}

# Stops the server of this work directory only (by its pid file).
mariadb_kill() {
  local pid
  pid=$(cat "$MY_DIR/mysqld.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] || return 0
  mariadb-admin --no-defaults --socket="$MY_SOCKET" -u root shutdown >/dev/null 2>&1 || kill "$pid" 2>/dev/null
  local i
  for i in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
}

mariadb_stop() {
  [ -n "${MY_DIR:-}" ] || return 0
  mariadb_kill
  rm -rf "$MY_DIR"
  MY_DIR=
}
