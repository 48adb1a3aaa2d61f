# Shared helpers for the throwaway database servers of the test suite (sourced by
# tests/db/pg.sh and tests/db/mariadb.sh; nothing here starts a server).
#
#   db_user            the unprivileged OS user the servers run as: the current user,
#                      or (as root) DB_USER, default "hfgtest", created if missing
#   db_run CMD ARGS    runs CMD as that user (runuser when root)
#   db_free_port       prints a free TCP port on 127.0.0.1
#   db_workdir         prints a new temporary directory the server user owns
#
# Servers listen on 127.0.0.1 only, keep every file under their work directory and are
# stopped by their *_stop function (callers install a trap, see tests/db/dumps.sh).

db_user() {
  if [ "$(id -u)" -ne 0 ]; then
    id -un
    return
  fi
  local u="${DB_USER:-hfgtest}"
  if ! id "$u" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$u" >/dev/null 2>&1 ||
      id "$u" >/dev/null 2>&1 || { echo "db: cannot create user $u" >&2; return 1; }
  fi
  echo "$u"
}

db_run() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$(db_user)" -- "$@"
  else
    "$@"
  fi
}

db_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

db_workdir() {
  local d
  d=$(mktemp -d "${TMPDIR:-/tmp}/hfg-db.XXXXXX") || return 1
  chmod 755 "$d"
  if [ "$(id -u)" -eq 0 ]; then chown "$(db_user)" "$d" || return 1; fi
  echo "$d"
}
