"""The strong bot's judgement of a seat's choices, for people: hints and reviews (issue #28).

`rank` answers "what would the strong bot play here, and what is each choice worth?" from a
seat's view and events alone, exactly as the bot decides (the same knowledge, samples,
inference and playouts; the no-peeking rule holds the same way): every candidate of the
decision is played in the same sampled deals, and its worth is the mean of the points the
seat's team ends the deal with. Unlike a decision the search spends its whole budget (or
`samples`), so that the means of the best few are worth showing.

Decisions with a choice are the card to play (the cards that play alike, strong.py
`equivalents`, are one option, the lowest named) and the dealer's two scart cards (the pairs of
scart.py's shortlist). A BUOB call a player may make before their card (choose_call) is given as
`call`, with the chance that it is accepted; a call attached to one's own king is part of that
card's action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.cards import CARD_IDS, INDEX, KING_SUIT

from . import actions, calls, easy, scart
from .knowledge import build
from .search import Search, sample_seed
from .strong import equivalents
from .strong import search as search_cards


@dataclass(frozen=True)
class Option:
    """One choice: the engine action (with `seat`), the points the seat's team is expected to
    end the deal with after it, their lead over the best option (0 for the best; negative
    below it) with its standard error, and the sampled deals that judged it."""

    action: dict[str, Any]
    points: float
    behind: float
    error: float
    samples: int
    same: tuple[str, ...] = ()  # the other cards that play alike (cards only)


@dataclass(frozen=True)
class Advice:
    """The options of one decision, best first; `call` is a BUOB call advised before the
    card ({"suit", "chance"}) or None; `playouts` the work it took."""

    kind: str  # "play" | "scart"
    options: list[Option]
    call: dict[str, Any] | None = None
    playouts: int = 0
    easy_choice: dict[str, Any] | None = field(default=None, compare=False)


class NothingToAdvise(Exception):
    """The seat has no decision with a choice in this view (not its turn, a forced pass, a
    single legal card is still advised: see `rank`)."""


def _options(result: Search, actions_of: Mapping[int, dict[str, Any]],
             same: Mapping[int, tuple[str, ...]]) -> list[Option]:
    ranked = sorted(result.legal, key=lambda c: (-result.mean(c), result.legal.index(c)))
    best = ranked[0]
    out = []
    for c in ranked:
        n = sum(1 for row in result.rows if c in row)
        if c == best:
            behind, error = 0.0, 0.0
        else:
            lead, error = result.lead(best, c)
            behind = -lead
        out.append(Option(actions_of[c], round(result.mean(c), 2), round(behind, 2),
                          round(error, 2) if error != float("inf") else -1.0, n,
                          same.get(c, ())))
    return out


def rank(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], *, seed: int,
         budget_ms: float, samples: int | None = None) -> Advice:
    """Every option of the seat's decision in `view`, best first (see the module's docstring).
    Raises NothingToAdvise when the seat has no card to play and no scart to make."""
    acts = view["actions"]
    seat = view["seat"]
    if seat is None:
        raise NothingToAdvise
    if acts.get("scart") and len(acts.get("scart_allowed") or ()) >= 2:
        pairs, result, preferred = scart.search(view, events, seed=seed, budget_ms=budget_ms,
                                                samples=samples, exhaust=True)
        if not result.rows:  # one pair only, or no time: the pair itself, unjudged
            only = {k: actions.scart(seat, pairs[k]) for k in result.legal}
            return Advice("scart", [Option(only[preferred], 0.0, 0.0, -1.0, 0)],
                          playouts=result.playouts)
        by_index = {k: actions.scart(seat, pairs[k]) for k in result.legal}
        return Advice("scart", _options(result, by_index, {}), playouts=result.playouts,
                      easy_choice=by_index[preferred])
    if view["phase"] != "PLAY" or not acts.get("play") or view.get("trick") is None:
        raise NothingToAdvise
    know = build(view, events)
    estimate = calls.sampled(know, sample_seed(seed, 0, 2))
    call = None
    suit = calls.choose_call(view, know, estimate)
    if suit is not None and know.trick is not None:
        king_seat = next(s for s, c in know.trick.cards if KING_SUIT.get(c) == suit)
        call = {"suit": suit, "chance": round(estimate(suit, king_seat), 3)}
    legal = [INDEX[c] for c in acts["legal_cards"]]
    rep = equivalents(know, legal)
    candidates = sorted(set(rep.values()))
    same: dict[int, tuple[str, ...]] = {
        r: tuple(CARD_IDS[c] for c in sorted(legal) if rep[c] == r and c != r)
        for r in candidates}
    by_card = {c: actions.play(seat, c, calls.attached_call(know, c, estimate))
               for c in candidates}
    result = search_cards(view, know, candidates, seed=seed, budget_ms=budget_ms,
                          samples=samples, exhaust=True)
    preferred = rep[easy.choose_card(know, legal)]
    return Advice("play", _options(result, by_card, same), call=call,
                  playouts=result.playouts, easy_choice=by_card[preferred])


__all__ = ["Advice", "NothingToAdvise", "Option", "rank"]
