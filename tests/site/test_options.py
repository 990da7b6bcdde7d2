"""The house rules in words (games/text/options.py): one table says how every value of every
room option reads (`value_words`), for the pages and for the table's script, which redraws the
rules from `room.options` on every state. The script's `describe` (static/js/views/rules.js),
run here in node on that table, says every value as the server does, in every language — it
holds no copy of how an option reads (issue #23 item 5)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.engine.options import (
    BOCK_TRIGGERS,
    BUOB_CALLER,
    MATCH_DEALS,
    REGAME_BY,
    SCART_FORBIDDEN,
    TABLE_TALK,
    Options,
)
from games.text.options import LABELS, describe, house_rules, rule_words

ROOT = Path(__file__).resolve().parents[2]
RULES_JS = ROOT / "static" / "js" / "views" / "rules.js"

# Values a room may hold (RULES.md §14, games/engine/options.py), the edges of each range too.
VALUES: dict[str, list[Any]] = {
    "reveal_seconds": [2, 5, 30],
    "reveal_persist": [False, True],
    "scart_forbidden": list(SCART_FORBIDDEN),
    "buob_caller": list(BUOB_CALLER),
    "regame_by": list(REGAME_BY),
    "match_deals": list(MATCH_DEALS),
    "bock": [False, True],
    "bock_triggers": [[], ["tie"], ["all_tricks"], list(BOCK_TRIGGERS)],
    "turn_seconds": [0, 15, 120],
    "stand_in_seconds": [0, 1, 60, 600],
    "table_talk": list(TABLE_TALK),
}


def test_every_option_has_its_values() -> None:
    assert set(VALUES) == set(LABELS) == set(Options().to_json())


@pytest.mark.parametrize("language", ["en", "rm", "de", "fr"])
def test_python_words(language: str) -> None:
    with translation.override(language):
        said = {key: [describe(key, v) for v in values] for key, values in VALUES.items()}
        rows = house_rules(Options(turn_seconds=15, match_deals=0))
    for key, texts in said.items():
        assert all(texts) and "%(" not in "".join(texts), (language, key, texts)
        assert len(set(texts)) == len(texts), (language, key, texts)
    by_key = {row.key: row for row in rows}
    assert by_key["turn_seconds"].differs and by_key["turn_seconds"].value == said[
        "turn_seconds"][1]
    assert by_key["match_deals"].value == said["match_deals"][1]
    with pytest.raises(KeyError):
        describe("scart_forbidden", "kings")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "rm", "de", "fr"])
def test_the_script_says_every_value_as_the_server_does(language: str) -> None:
    with translation.override(language):
        words = rule_words()
        expected = {key: [describe(key, v) for v in values] for key, values in VALUES.items()}
    script = (
        "globalThis.window = { matchMedia: () => ({ matches: false,"
        " addEventListener() {} }) };"
        f"const m = await import({json.dumps(RULES_JS.as_uri())});"
        f"const w = {json.dumps(words)}; const values = {json.dumps(VALUES)};"
        "const out = {};"
        "for (const [k, vs] of Object.entries(values)) out[k] = vs.map((v) => m.describe(w, k, v));"
        "console.log(JSON.stringify(out));"
    )
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=30, check=True)
    assert json.loads(done.stdout) == expected


def test_the_script_holds_no_option_of_its_own() -> None:
    source = RULES_JS.read_text()
    for key in LABELS:
        assert f'"{key}"' not in source, key
