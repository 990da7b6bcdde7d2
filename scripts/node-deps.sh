#!/usr/bin/env bash
# Installs the npm devDependencies pinned in package-lock.json (TypeScript for
# scripts/typecheck-js.sh, axe-core for the browser tests' accessibility checks) with `npm ci`
# when node_modules is missing, lacks one of them, or is older than the lock file.
#
# node and npm come from Debian when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node-deps: node or npm is missing; installing Debian's nodejs and npm" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y nodejs npm
fi

if [ ! -d node_modules ] || [ ! -x node_modules/.bin/tsc ] \
    || [ ! -f node_modules/axe-core/axe.min.js ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund
  touch node_modules  # newer than the lock file it was installed from
fi
