#!/usr/bin/env bash
# Installs a Debian package when the program it brings is missing, so `npm test` and `npm run bench`
# run on a fresh machine: `scripts/debian-package.sh /usr/bin/chromium chromium "the browser tests"`.
# As root apt-get runs as it is, otherwise through sudo. Prints what it installs on stderr.
set -euo pipefail
program=${1:?program path}; package=${2:?package}; purpose=${3:-$package}
[ -x "$program" ] && exit 0
echo "Installing Debian's $package for $purpose" >&2
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
[ -x "$program" ] || { echo "error: $package installed, but $program is still missing" >&2; exit 1; }
