#!/usr/bin/env bash
# Type-check the engine and the bots (strict), the services (every function annotated), and the
# doors (views, admin, forms, tasks, commands, template tags, app wiring) and accounts (strict),
# through the django-stubs plugin, as configured in pyproject.toml's [tool.mypy]. Exits non-zero
# on any error. Run from anywhere; it checks the repository it lives in.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/mypy games/engine games/bots games/services \
    games/views games/admin.py games/forms.py games/tasks.py games/management games/templatetags \
    games/apps.py games/urls.py games/translation.py accounts "$@"
