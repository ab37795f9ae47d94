#!/usr/bin/env bash
# The PostgreSQL backup and restore of docs/operating.md "Backups and restore", as one drill:
#   scripts/pg-restore-drill.sh SOURCE_URL TARGET_URL DUMP_FILE
# dumps SOURCE with pg_dump -Fc into DUMP_FILE and restores it with pg_restore into TARGET (an empty
# database). tests/api/pg-restore.test.ts runs it against the throw-away cluster of `npm test` and
# checks the restored data. Uses PostgreSQL 15's binaries when installed where Debian puts them.
set -euo pipefail
src=${1:?source database URL}; target=${2:?target database URL}; dump=${3:?dump file}
bin=/usr/lib/postgresql/15/bin
[ -x "$bin/pg_dump" ] && PATH="$bin:$PATH"
pg_dump --format=custom --no-owner --file="$dump" "$src"
pg_restore --no-owner --exit-on-error --single-transaction --dbname="$target" "$dump"
