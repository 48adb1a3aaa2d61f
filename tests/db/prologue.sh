# The start of every real-server test script (dumps.sh, direct.sh), sourced with the
# script's own arguments: HFILEGEN SOURCE_DIR. Loads both servers' helpers, makes the
# scratch directory $T and stops both servers and removes $T on any exit.
set -uo pipefail
H=$1
SRC=$2
. "$SRC/tests/db/pg.sh"
. "$SRC/tests/db/mariadb.sh"
ORDERS="$SRC/tests/db/orders.py"
T=$(mktemp -d)
cleanup() {
  pg_stop
  mariadb_stop
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fails=0
# fail WHAT: one failed check, counted in $fails
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# skip_loudly WHY: a part that cannot run here, said so that nobody misses it
skip_loudly() {
  echo "########################################################################"
  echo "## SKIPPED: $1"
  echo "########################################################################"
}

COLS=id,user_id,created_at,amount,status,note,payload
