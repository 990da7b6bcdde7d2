#!/usr/bin/env bash
# Type-check games, accounts and troccas_site, strict, through the django-stubs plugin, as
# configured in pyproject.toml's [tool.mypy] (whose list of modules still ignored shrinks to
# nothing). Exits non-zero on any error. Run from anywhere; it checks the repository it lives in.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/mypy games accounts troccas_site "$@"
