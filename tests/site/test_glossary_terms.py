"""The clubs' and tournaments' words of GLOSSARY.md hold in every catalog (issue #26 item 8):
wherever an English message uses one of them, its Romansh, German and French translations use
the glossary's term — the proposed Romansh ones included, until a better-attested form replaces
them (then here and in docs/decisions.md). Read from the compiled catalogs, plural forms too."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# English pattern -> the pattern its translation must hold, per language.
TERMS: dict[str, dict[str, str]] = {
    r"\bbyes?\b": {"rm": r"pausa", "de": r"freilos", "fr": r"exempt"},
    r"\bcheck(ed|s)?[- ]in\b": {"rm": r"annunzi", "de": r"check-in|eincheck|checkt",
                                 "fr": r"point"},
    r"\bpairings?\b": {"rm": r"accumpignament", "de": r"paarung", "fr": r"appariement"},
    r"\bmatch points?\b": {"rm": r"puncts? da partida", "de": r"partiepunkt",
                           "fr": r"points? de partie"},
    r"\bduplicate\b": {"rm": r"duplicad", "de": r"duplikat", "fr": r"duplicate"},
    r"\bdirectors?\b": {"rm": r"directur|directura", "de": r"leiter|leitung",
                        "fr": r"direct"},
    r"\bRangliste\b|\bstandings\b": {"rm": r"rangaziun", "de": r"rangliste|stand|tabelle",
                                     "fr": r"classement"},
    r"\bmembers?\b": {"rm": r"commember", "de": r"mitglied", "fr": r"membre"},
    r"\bstages?\b": {"rm": r"fasa", "de": r"phase", "fr": r"phase"},
    r"\bratings?\b": {"rm": r"punctaziun|valitaziun", "de": r"wertung",
                      "fr": r"cote|classement"},
}


def _catalog(language: str) -> dict[str, list[str]]:
    path = ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as f:
        raw = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    out: dict[str, list[str]] = {}
    for key, value in raw.items():
        english = key[0] if isinstance(key, tuple) else key
        if english:
            out.setdefault(english, []).append(value)
    return out


@pytest.mark.parametrize("language", ["rm", "de", "fr"])
def test_the_glossary_terms_are_used(language: str) -> None:
    wrong = [f"{english!r} -> {value!r}"
             for english, values in _catalog(language).items()
             for term, wanted in TERMS.items() if re.search(term, english, re.I)
             for value in values if not re.search(wanted[language], value, re.I)]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_wrong_word(tmp_path: Path) -> None:
    """The scan is not vacuous: each term is found in messages of every catalog."""
    for language in ("rm", "de", "fr"):
        catalog = _catalog(language)
        for term in TERMS:
            assert any(re.search(term, english, re.I) for english in catalog), (language, term)
