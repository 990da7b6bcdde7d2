"""axe-core in the browser tests: inject the pinned npm package (package.json) into a page, run
it, and fail on any critical or serious violation with the rule, the elements and what is
wrong with each. Minor and moderate findings are returned for the report, not failed.

The page's context needs `bypass_csp=True`: the script is injected inline, which the site's
Content-Security-Policy refuses (test_csp.py checks the policy itself)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
FAILING = ("critical", "serious")
# The rules of WCAG 2.0/2.1/2.2 A and AA plus axe's best practices (landmarks, headings,
# empty table headers): every rule axe runs by default.
RUN_OPTIONS = {"resultTypes": ["violations"]}


def ensure_axe() -> Path:
    """The axe-core script, installed by `npm ci` (make node-deps) from package-lock.json."""
    assert AXE_JS.exists(), (
        f"{AXE_JS} is missing: run `make node-deps` (npm ci installs the pinned axe-core)")
    return AXE_JS


def violations(page: Any, include: str | None = None) -> list[dict[str, Any]]:
    """Every violation axe finds in the page as it is now (or in the element `include`)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(ensure_axe()))
    found: list[dict[str, Any]] = page.evaluate(
        """([include, options]) => window.axe.run(include || document, options)
            .then(r => r.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(' '),
                                          summary: n.failureSummary || ''}))})))""",
        [include, RUN_OPTIONS])
    return found


def describe(found: list[dict[str, Any]]) -> str:
    """Rule ids, impacts, targets and summaries, one block per rule."""
    lines = []
    for v in found:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} elements)")
        for node in v["nodes"][:8]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}\n        {summary}")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str, include: str | None = None) -> list[dict[str, Any]]:
    """Fail on any critical or serious violation; the minor ones are returned (and printed)."""
    found = violations(page, include)
    bad = [v for v in found if v["impact"] in FAILING]
    minor = [v for v in found if v["impact"] not in FAILING]
    if minor:
        print(f"axe, {where}: {json.dumps([(v['id'], v['impact']) for v in minor])}")
    assert not bad, f"axe, {where} ({page.url}):\n{describe(bad)}"
    return minor
