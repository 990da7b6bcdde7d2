"""The ES modules a page loads, read from its entry script's `import ... from "./x.js"` lines.

The table's page gives the browser an import map that points each module at its hashed static
URL (cached forever, preloaded at once); a module missing from the map would be fetched by its
plain, unhashed URL. Deriving the list from the import graph keeps the two from drifting apart
when a module is added.
"""

from __future__ import annotations

import functools
import posixpath
import re

from django.contrib.staticfiles import finders

__all__ = ["module_graph", "TABLE_ENTRY"]

TABLE_ENTRY = "js/table.js"

# A static import or re-export at the start of a line (its names may span lines, hence [^;]),
# or a bare `import "./x.js"`. JSDoc's ` * @import {...} from "./protocol.js"` lines start with
# the comment's star: types only, never fetched, so they are not matched.
_IMPORT = re.compile(
    r"""^(?:import|export)\b[^;"'`]*?\bfrom\s*["'](\.\.?/[^"']+)["']"""
    r"""|^import\s*["'](\.\.?/[^"']+)["']""",
    re.MULTILINE,
)


def _imports(source: str) -> list[str]:
    return [a or b for a, b in _IMPORT.findall(source)]


def _read(path: str) -> str:
    found = finders.find(path)
    if not found:  # find() without find_all names one file or none
        raise LookupError(f"static module not found: {path}")
    with open(found, encoding="utf-8") as fh:
        return fh.read()


@functools.cache
def module_graph(entry: str) -> tuple[str, ...]:
    """Every static path (e.g. "js/views/hand.js") reachable from `entry` by relative static
    imports, the entry first, then in the order they are first met. Read once per process."""
    order = [entry]
    seen = {entry}
    for path in order:  # grows while it is walked: a breadth-first walk
        base = posixpath.dirname(path)
        for spec in _imports(_read(path)):
            target = posixpath.normpath(posixpath.join(base, spec))
            if target not in seen:
                seen.add(target)
                order.append(target)
    return tuple(order)
