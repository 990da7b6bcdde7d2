#!/usr/bin/env bash
# Type-check the engine and the bots (strict) and the services (every function annotated, through the
# django-stubs plugin), as configured in pyproject.toml's [tool.mypy]. Exits non-zero on any
# error. Run from anywhere; it checks the repository it lives in.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/mypy games/engine games/bots games/services games/live "$@"
