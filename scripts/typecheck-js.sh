#!/usr/bin/env bash
# Type-checks the browser's ES modules (static/js/**/*.js: JSDoc types, `// @ts-check`) with
# TypeScript's tsc, as configured in jsconfig.json. Nothing is emitted: the browser loads the
# files as they are. Exits non-zero on any type error.
#
# typescript is the version pinned in package-lock.json, installed by scripts/node-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=jsconfig.json

bash scripts/node-deps.sh

npx --no-install tsc --version
exec npx --no-install tsc --noEmit -p "$CONFIG"
