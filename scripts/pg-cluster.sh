#!/usr/bin/env bash
# Starts a throw-away PostgreSQL 15 cluster for the tests and prints its URL on stdout.
#   scripts/pg-cluster.sh start DIR   → prints postgres://… (cluster files in DIR)
#   scripts/pg-cluster.sh stop DIR
# PostgreSQL refuses to run as root, so as root the cluster belongs to the postgres user.
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?directory}
bin=/usr/lib/postgresql/15/bin
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ "$cmd" = stop ]; then
  [ -f "$dir/data/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi

"$(dirname "$0")/debian-package.sh" "$bin/initdb" postgresql-15 "the PostgreSQL cluster" >&2
mkdir -p "$dir"
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; chmod o+x "$(dirname "$dir")"; fi
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres"
