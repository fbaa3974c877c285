#!/usr/bin/env bash
# Runs the PostgreSQL suites against a throwaway PostgreSQL cluster.
#   scripts/with-postgres.sh              store + REST/GraphQL suites on PostgreSQL, then the scale-out suites
#   scripts/with-postgres.sh -- CMD...    just CMD, with TEST_DATABASE_URL and TEST_PG_CONTROL set
# Installs Debian's `postgresql` when it is missing (needs root, e.g. in CI). The cluster lives in a
# temp dir on a free loopback port, trusts local connections, and is removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
PG_BIN="$(find_bin || true)"
if [ -z "$PG_BIN" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL is not installed and this is not root: install the 'postgresql' package first." >&2
    exit 1
  fi
  echo "== installing PostgreSQL (apt-get install postgresql)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  PG_BIN="$(find_bin)"
fi

WORK="$(mktemp -d /tmp/pg-test.XXXXXX)"
chmod 755 "$WORK"
if [ "$(id -u)" = 0 ]; then
  chown postgres "$WORK"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi
PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
DATA="$WORK/data"
START_CMD=("$PG_BIN/pg_ctl" -D "$DATA" -l "$WORK/server.log" -w -t 30 -o "-p $PORT -k $WORK -c listen_addresses=127.0.0.1 -c max_connections=200")

cleanup() {
  as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== starting PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT ($WORK)"
as_pg "$PG_BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --no-instructions >/dev/null
as_pg "${START_CMD[@]}" start >/dev/null
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres apitest

# The fault tests drive the server through this script: stop/start (clean), crash (immediate stop:
# no shutdown checkpoint, as after a power cut), pause/resume (SIGSTOP/SIGCONT of the postmaster and
# every backend: a frozen server, connections open but nothing answered; stopping the postmaster alone
# would leave existing backends running).
AS_PG=""; [ "$(id -u)" = 0 ] && AS_PG="runuser -u postgres --"
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  echo "postmaster() { head -n 1 $(printf '%q' "$DATA/postmaster.pid"); }"
  echo 'case "$1" in'
  echo "  stop) $AS_PG $(printf '%q ' "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop) >/dev/null ;;"
  echo "  crash) $AS_PG $(printf '%q ' "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w stop) >/dev/null ;;"
  echo "  start) $AS_PG $(printf '%q ' "${START_CMD[@]}") start >/dev/null ;;"
  echo '  pause) pid="$(postmaster)"; kill -STOP "$pid"; kill -STOP $(ps -o pid= --ppid "$pid") ;;'
  echo '  resume) pid="$(postmaster)"; kill -CONT $(ps -o pid= --ppid "$pid"); kill -CONT "$pid" ;;'
  echo '  *) echo "usage: $0 stop|start|crash|pause|resume" >&2; exit 2 ;;'
  echo 'esac'
} >"$WORK/control.sh"
chmod 755 "$WORK/control.sh"

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/apitest"
if [ "${1:-}" = "--" ]; then
  shift
  TEST_PG_CONTROL="$WORK/control.sh" "$@"
  exit $?
fi

echo "== build (the scale-out suites start dist/src/server.js)"
npm run build --silent

echo "== store, REST and GraphQL suites on PostgreSQL"
npx jest test/store test/rest test/graphql --testPathIgnorePatterns /test/store/scale/

echo "== scale-out suites: two services on one database, PostgreSQL stopped under load, bursts, killed workers"
TEST_PG_CONTROL="$WORK/control.sh" npx jest --runInBand test/store/scale
