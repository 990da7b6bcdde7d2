#!/usr/bin/env bash
# Type-checks the browser's ES modules (static/js/**/*.js: JSDoc types, `// @ts-check`) with
# TypeScript's tsc, as configured in jsconfig.json. Nothing is emitted: the browser loads the
# files as they are. Exits non-zero on any type error.
#
# node and npm come from Debian when missing (as root, or through sudo); typescript is the
# version pinned in package-lock.json, installed with `npm ci` when node_modules is missing or
# older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=jsconfig.json

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "typecheck-js: node or npm is missing; installing Debian's nodejs and npm" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y nodejs npm
fi

if [ ! -d node_modules ] || [ ! -x node_modules/.bin/tsc ] \
    || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund
  touch node_modules  # newer than the lock file it was installed from
fi

npx --no-install tsc --version
exec npx --no-install tsc --noEmit -p "$CONFIG"
