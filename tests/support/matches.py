"""Whole matches played through games.services, and the check that a match's exported
transcript replays (through `python -m games.engine replay`) to exactly what the database holds.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from games import services
from games.engine import legal_actions
from games.history import replay as history
from games.models import Match, Room, Round
from tests import personas
from tests.support.tables import expire_deadline, must, seat_table, state, submit

ROOT = Path(__file__).resolve().parents[2]


def play_match(owner: Any, players: list[Any], rng: random.Random,
               options: dict[str, Any] | None = None, timeouts: float = 0.05,
               end_after: int = 1) -> Match:
    """Seat a table and play one whole match with random legal moves: BUOB calls whenever a
    seat may make one (often), a timer fired now and then (turn_timeout, when the room has a
    turn timer), the reveal window closed by the timer, regame by a random seat. With
    `match_deals` 0 the owner ends the match (END_MATCH) after `end_after` deals."""
    room = seat_table(owner, players, options or {"turn_seconds": 15, "reveal_seconds": 2})
    code = room.code
    by_seat = personas.by_seat(owner, players)
    must(code, owner, "start_round")
    turn_timer = bool(services.rules_of(Room.objects.get(code=code)).turn_seconds)
    for _ in range(2000):
        st = state(code)
        assert st is not None
        ph = st.phase
        if ph == "MATCH_OVER":
            return Room.objects.get(code=code).current_match
        if ph == "REVEAL" or (turn_timer and ph in ("DEALING", "SCART", "PLAY")
                              and rng.random() < timeouts):
            expire_deadline(code)
            assert services.sweep_deadlines() == 1
        elif ph == "DEALING":
            must(code, by_seat[st.dealer], "deal_next_pass")
        elif ph == "SCART":
            allowed = legal_actions(st, st.dealer)["scart_allowed"]
            must(code, by_seat[st.dealer], "discard_scart", cards=rng.sample(allowed, 2))
        elif ph == "PLAY":
            callers = [s for s in range(4) if legal_actions(st, s)["buob_suits"]]
            if callers and rng.random() < 0.5:
                seat = rng.choice(callers)
                suit = rng.choice(legal_actions(st, seat)["buob_suits"])
                submit(code, by_seat[seat], "call_buob", suit=suit)  # may be refused
            else:
                turn = st.deal.turn
                legal = legal_actions(st, turn)["legal_cards"]
                # Kings of suits not led yet make BUOB calls possible: prefer them.
                kings = [c for c in legal if c.endswith("K") and c[0] not in st.deal.led_suits]
                card = rng.choice(kings if kings and rng.random() < 0.7 else legal)
                if rng.random() < 0.25 and submit(code, by_seat[turn], "play_card", card=card,
                                                  call_buob=True).ok:
                    continue  # a call attached to the card (RULES §8), when accepted
                must(code, by_seat[turn], "play_card", card=card)
        elif ph == "ROUND_OVER":
            if st.options.match_deals == 0 and st.deals_played >= end_after:
                must(code, owner, "end_match")
            else:
                must(code, by_seat[rng.randrange(4)], "regame")
        else:  # pragma: no cover
            raise AssertionError(ph)
    raise AssertionError("the match did not end")


def replay_cli(doc: dict[str, Any]) -> dict[str, Any]:
    """`python -m games.engine replay -`, as a user would run it on a downloaded file."""
    out = subprocess.run([sys.executable, "-m", "games.engine", "replay", "-"],
                         input=json.dumps(doc), capture_output=True, text=True, cwd=ROOT,
                         timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def check_transcript(match: Match, cli: bool = True) -> dict[str, Any]:
    """The match's transcript replays to the stored state: every action accepted but the
    logged public refusals (RULES §8), refused with their logged code; the phase, the totals,
    and each deal's dealer, Bock flag, points and piles as the database has them."""
    doc = history.transcript(match)
    if cli:
        result = replay_cli(doc)
    else:
        from games.engine import replay

        result = json.loads(json.dumps(replay(doc)))
    refusals = {i: la.refused for i, la in enumerate(history.logged_actions(match))
                if la.refused is not None}
    assert {r["i"]: r["error"] for r in result["results"] if not r["ok"]} == refusals
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert len(result["deals"]) == len(rounds)
    match.refresh_from_db()
    assert result["totals"] == {"A": match.total_a, "B": match.total_b}
    last = rounds[-1].engine_state
    if match.resigned_by_id is not None:
        # A resignation is the writer's, not a transcript action (TRANSCRIPT.md): the log
        # replays to the deal as it lay, and the stored state is that deal, the match over.
        assert last["phase"] == rounds[-1].phase == "MATCH_OVER" != result["phase"]
        assert last["winner"] == match.winner and match.status == "finished"
        assert result["bock_pending"] == last["bock_pending"] == match.bock_pending
        return result
    assert result["phase"] == last["phase"] == rounds[-1].phase
    assert result["winner"] == last["winner"]
    assert result["bock_pending"] == last["bock_pending"] == match.bock_pending
    if match.status == "finished":
        assert result["phase"] == "MATCH_OVER"
        assert result["winner"] == match.winner
    for deal, rnd in zip(result["deals"], rounds, strict=True):
        stored = rnd.engine_state["deal"]
        assert deal["dealer"] == rnd.dealer
        assert deal["is_bock"] == rnd.is_bock
        points = None if rnd.points_a is None else {"A": rnd.points_a, "B": rnd.points_b}
        assert deal["points"] == points == stored["points"]
        assert deal["piles"] == stored["piles"]
        assert deal["scart"] == (None if stored["scart"] is None
                                 else sorted(stored["scart"], key=_index))
        done = [t for t in deal["tricks"] if t["winner"] is not None]
        assert [t["winner"] for t in done] == [t.winner for t in rnd.tricks.order_by("number")]
    return result


def _index(card: str) -> int:
    from games.engine import CARD_IDS

    return CARD_IDS.index(card)


def check_every_match() -> int:
    """check_transcript for every match in the database that has a deal (in-process replay)."""
    ids = list(Match.objects.filter(rounds__isnull=False).distinct().values_list("pk", flat=True))
    for pk in ids:
        check_transcript(Match.objects.get(pk=pk), cli=False)
    return len(ids)


def url(name: str, *args: Any, language: str = "en") -> str:
    """A page's address in one language (a test that ran before may have left another active;
    the profile-language middleware would then redirect)."""
    from django.urls import reverse
    from django.utils import translation

    with translation.override(language):
        return reverse(name, args=args)
