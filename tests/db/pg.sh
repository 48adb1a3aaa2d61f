# A throwaway PostgreSQL server for tests (source this file; bash).
#
#   pg_available          0 when initdb/pg_ctl/psql are installed (Debian: postgresql)
#   pg_start              initdb + pg_ctl start in a new work directory, as an
#                         unprivileged user, listening on 127.0.0.1:$PG_PORT only
#   pg_sql [PSQL ARGS]    psql as superuser $PG_USER to database $PG_DB over TCP,
#                         unaligned, tuples only, stop on the first error; SQL on stdin
#                         or with -c "..."
#   pg_stop               stops the server and removes its work directory (idempotent)
#
# After pg_start: PG_HOST (127.0.0.1), PG_PORT, PG_USER (hfg, trust auth), PG_DB
# (postgres), PG_DIR (work directory; $PG_DIR/out is writable by the server, for
# COPY ... TO), PG_BIN, PG_DATA. A libpq client connects with
# "host=$PG_HOST port=$PG_PORT user=$PG_USER dbname=$PG_DB".
# Server log: $PG_DIR/server.log.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

pg_bin_dir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -n "$d" ] && [ -x "$d/initdb" ]; then echo "$d"; return; fi
  d=$(dirname "$(command -v initdb 2>/dev/null)" 2>/dev/null)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

pg_available() {
  [ -n "$(pg_bin_dir)" ] && command -v psql >/dev/null 2>&1
}

pg_start() {
  PG_BIN=$(pg_bin_dir) || return 1
  [ -n "$PG_BIN" ] || { echo "pg: initdb not found" >&2; return 1; }
  PG_DIR=$(db_workdir) || return 1
  PG_DATA="$PG_DIR/data"
  PG_HOST=127.0.0.1
  PG_USER=hfg
  PG_DB=postgres
  db_run mkdir -p "$PG_DIR/out" || return 1
  if ! db_run "$PG_BIN/initdb" -D "$PG_DATA" -U "$PG_USER" --auth=trust -E UTF8 \
         --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1; then
    echo "pg: initdb failed:" >&2; cat "$PG_DIR/initdb.log" >&2; return 1
  fi
  local try
  for try in 1 2 3; do
    PG_PORT=$(db_free_port) || return 1
    if db_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_DIR/server.log" -w -t 60 \
         -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start \
         >/dev/null 2>&1; then
      export PG_HOST PG_PORT PG_USER PG_DB PG_DIR PG_BIN PG_DATA
      return 0
    fi
  done
  echo "pg: server did not start:" >&2; tail -20 "$PG_DIR/server.log" >&2
  return 1
}

pg_sql() {
  psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d "$PG_DB" -X -q -A -t -v ON_ERROR_STOP=1 "$@"
}

pg_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  if [ -f "$PG_DATA/postmaster.pid" ]; then
    db_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_DIR"
  PG_DIR=
}
