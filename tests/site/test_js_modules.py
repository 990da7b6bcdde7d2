"""The table's import map: every ES module its entry script reaches is mapped to its hashed
static URL (games/views/js_modules.py), so none is fetched by its plain, uncached URL."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from games import services
from games.views.js_modules import TABLE_ENTRY, _imports, module_graph

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_the_parser_reads_every_form_of_static_import():
    source = '\n'.join([
        'import { a } from "./a.js";',
        "import {\n  b,\n  c,\n} from '../b.js';",
        'import * as d from "./views/d.js";',
        'export { e } from "./e.js";',
        'import "./side_effect.js";',
        "/**",
        ' * @import { CardId } from "./protocol.js"',
        " */",
        'const x = "import { y } from \\"./not_a_line_start.js\\"";',
    ])
    assert _imports(source) == ["./a.js", "../b.js", "./views/d.js", "./e.js", "./side_effect.js"]


def test_the_graph_holds_the_modules_a_hand_kept_list_once_missed():
    graph = module_graph(TABLE_ENTRY)
    assert graph[0] == TABLE_ENTRY
    assert {"js/views/away.js", "js/views/rules.js", "js/views/hand.js", "js/net.js"} <= set(graph)
    assert "js/protocol.js" not in graph  # JSDoc types only, never fetched
    assert len(graph) == len(set(graph))


def test_every_relative_import_in_a_table_module_is_in_the_graph():
    # A looser reading than the parser's: any quoted relative .js path after `from` or a bare
    # `import`, outside comment lines, so an import written in a shape the parser misses fails.
    loose = re.compile(r"""(?:\bfrom|^\s*import)\s*["'](\.\.?/[^"']+\.js)["']""", re.MULTILINE)
    graph = set(module_graph(TABLE_ENTRY))
    for path in graph:
        source = (STATIC / path).read_text(encoding="utf-8")
        code = "\n".join(line for line in source.splitlines()
                         if not line.lstrip().startswith(("*", "//", "/*")))
        base = Path(path).parent
        for spec in loose.findall(code):
            target = (base / spec).as_posix()
            parts: list[str] = []
            for part in target.split("/"):
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            assert "/".join(parts) in graph, f"{path} imports {spec}"


@pytest.mark.django_db
def test_the_room_page_maps_every_module_to_its_hashed_url(owner, tmp_path):
    root = tmp_path / "static"
    manifest = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=manifest):
        call_command("collectstatic", interactive=False, verbosity=0)
        room = services.create_room(owner)
        client = Client()
        client.force_login(owner)
        html = client.get(reverse("games:room", kwargs={"code": room.code})).content.decode()
    found = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', html, re.DOTALL)
    assert found
    imports = json.loads(found.group(1))["imports"]
    preloads = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    graph = module_graph(TABLE_ENTRY)
    assert set(imports) == {f"/static/{path}" for path in graph}
    for path in graph:
        hashed = imports[f"/static/{path}"]
        stem = path.removesuffix(".js")
        assert re.fullmatch(rf"/static/{re.escape(stem)}\.[0-9a-f]{{12}}\.js", hashed), hashed
        assert (root / hashed.removeprefix("/static/")).is_file()
        assert hashed in preloads
