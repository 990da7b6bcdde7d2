"""A match's history rebuilt from its action log (issue #7): the transcript, the replay frames,
the deal-by-deal summary and the score chart.

The log (RoundAction) holds every accepted engine action of a match with the seat that sent it,
and every public refusal (RULES.md §8: a BUOB call refused because of where a jack lies, kind
`buob_refused`, the refused action in its payload); each deal's deck is on its Round row.
Replaying them through the engine from `new_match_state(match options, first dealer = deal 1's
dealer)` rebuilds every state exactly (ARCHITECTURE.md §1: the server only calls the engine).
Nothing here writes to the database.

Visibility (RULES.md §13): hidden cards are shown only for finished matches. A running or
abandoned match has no replay and no transcript here; its summary and chart carry no card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.engine import MatchState, PublicRefusal, apply, new_match_state, team_of
from games.engine.actions import ACTIONS, DECK_FIELD, ENGINE_TYPES, SEAT_FIELD
from games.engine.cards import ids_of
from games.engine.codec import card_ids, debt_frame, trick_frame
from games.engine.events import BuobRefused
from games.engine.options import Options
from games.engine.state import tricks_won
from games.engine.transcript import TRANSCRIPT_FORMAT
from games.models import Match, MatchStatus, Round, RoundAction, TalkAudience, TalkMessage
from games.models.talk import hidden_speakers

# A public refusal's log row (games/services/record.py REFUSAL_KIND): its payload holds the
# refused engine action ({"action": {"type": "call_buob", ...}, "code": ...}). A transcript
# carries that action, which a replay refuses with the same code (TRANSCRIPT.md: rejected
# actions are part of the result), recording the refusal as the live table did.
REFUSAL_KIND = BuobRefused.kind
# The log rows that are engine actions (the action table's, games/engine/actions.py), and the
# refusals. A `new_match` row is logged with no round, so a match's rounds never hold one.
ENGINE_KINDS = frozenset(ENGINE_TYPES) - {"new_match"} | {REFUSAL_KIND}


SUIT_LABELS = {"C": gettext_lazy("cups"), "R": gettext_lazy("coins"),
               "S": gettext_lazy("swords"), "B": gettext_lazy("batons")}
MODE_LABELS = {"forced": gettext_lazy("forced jack play"),
               "deferred": gettext_lazy("deferred exchange"), "self": gettext_lazy("self-BUOB")}


def is_public(match: Match) -> bool:
    """Every card of a match may be shown once it is finished (RULES.md §13, 'after the deal')."""
    return match.status == MatchStatus.FINISHED


# --- the log as engine actions ---------------------------------------------------------------

@dataclass
class LoggedAction:
    row: RoundAction
    action: dict[str, Any]  # the engine action, transcript-shaped (seat and deck included)

    @property
    def refused(self) -> str | None:
        """The code of a public refusal (the action was refused, the refusal recorded)."""
        if self.row.kind != REFUSAL_KIND:
            return None
        return str((self.row.payload or {}).get("code"))


def logged_actions(match: Match, rounds: Iterable[Round] | None = None) -> list[LoggedAction]:
    """The match's engine actions in the order they were applied (two queries)."""
    decks = {r.pk: r.deck for r in (rounds if rounds is not None
                                    else Round.objects.filter(match=match).only("pk", "deck"))}
    rows = (RoundAction.objects.filter(round__match=match, kind__in=ENGINE_KINDS)
            .order_by("version"))
    out = []
    for row in rows:
        out.append(LoggedAction(row, engine_action(row, decks)))
    return out


def engine_action(row: RoundAction, decks: dict[int, list[str]]) -> dict[str, Any]:
    kind = row.kind
    payload = row.payload or {}
    if kind == REFUSAL_KIND:
        # The refused action itself (call_buob, or play_card with an attached call).
        payload = payload.get("action") or {}
        kind = payload.get("type", "")
    action: dict[str, Any] = {"type": kind}
    # The action as the engine took it (the action table's engine fields): the seat and the
    # deck the server added, which the log holds apart from the payload, then the sender's own.
    spec = ACTIONS.get(kind)
    for field in spec.engine_fields if spec is not None and spec.engine else ():
        if field is SEAT_FIELD:
            if row.actor_seat is not None:
                action["seat"] = row.actor_seat
        elif field is DECK_FIELD:
            assert row.round_id is not None  # a deal's first action names its deal
            action["deck"] = list(decks[row.round_id])
        elif field.name in payload:
            action[field.name] = payload[field.name]
    # The engine reads only call_buob=true; the format wants a boolean or nothing.
    if kind == "play_card" and action.get("call_buob") is not True:
        action.pop("call_buob", None)
        action.pop("buob_suit", None)
    return action


def first_dealer(match: Match, rounds: list[Round] | None = None) -> int:
    if rounds:
        return rounds[0].dealer
    first = Round.objects.filter(match=match).order_by("number").values_list(
        "dealer", flat=True).first()
    return first if first is not None else 0


def transcript(match: Match) -> dict[str, Any]:
    """The match as a `troccas-transcript/1` document (TRANSCRIPT.md)."""
    rounds = list(Round.objects.filter(match=match).only("pk", "deck", "dealer", "number")
                  .order_by("number"))
    return {
        "format": TRANSCRIPT_FORMAT,
        "options": Options.from_json(match.options).to_json(),
        "first_dealer": first_dealer(match, rounds),
        "actions": [la.action for la in logged_actions(match, rounds)],
    }


def replay_states(match: Match) -> list[tuple[LoggedAction, MatchState]]:
    """Every action of the log with the state after it; the log holds accepted actions and
    public refusals, so any other rejection, or a public refusal that the engine accepts or
    refuses otherwise, means the log and the engine disagree (raised, never hidden)."""
    rounds = list(Round.objects.filter(match=match).only("pk", "deck", "dealer", "number")
                  .order_by("number"))
    state = new_match_state(Options.from_json(match.options), first_dealer(match, rounds))
    out = []
    for la in logged_actions(match, rounds):
        if la.refused is None:
            state, _events = apply(state, la.action)
        else:
            state = _refusal_replayed(state, la)
        out.append((la, state))
    return out


def _refusal_replayed(state: MatchState, la: LoggedAction) -> MatchState:
    try:
        apply(state, la.action)
    except PublicRefusal as refusal:
        if refusal.code != la.refused:
            raise
        return refusal.state
    raise ValueError(f"logged refusal {la.row.pk} was accepted on replay")


# --- replay frames (finished matches only) ---------------------------------------------------

def frame(la: LoggedAction, state: MatchState) -> dict[str, Any]:
    """One step of the viewer, with full information (the match is over)."""
    deal = state.deal
    assert deal is not None
    a = la.action
    shown = deal.current if deal.current is not None and deal.current.cards else None
    if shown is None and deal.tricks and a["type"] in ("play_card", "turn_timeout") \
            and state.phase in ("PLAY", "ROUND_OVER", "MATCH_OVER"):
        shown = deal.tricks[-1]  # the card just played completed this trick
    return {
        "version": la.row.version,
        "deal": deal.number,
        "dealer": deal.dealer,
        "bock": deal.is_bock,
        "phase": state.phase,
        "action": {k: v for k, v in a.items() if k != "deck"},
        "hands": [ids_of(h) for h in deal.hands],
        "reveal": None if deal.reveal is None else card_ids(deal.reveal),
        "scart": None if deal.scart is None else card_ids(deal.scart),
        "trick": trick_frame(shown),
        "tricks_won": list(tricks_won(deal)),
        "piles": [deal.piles[0].bit_count(), deal.piles[1].bit_count()],
        "totals": list(state.totals),
        "points": None if deal.points is None else list(deal.points),
        "debt": debt_frame(deal.narr_debt),
    }


def replay_data(match: Match, reader_id: int | None = None) -> dict[str, Any]:
    """The replay viewer's data. Only for finished matches: it holds every hidden card. The
    talk is filtered for `reader_id` as the table filters it: not the words of a player they
    muted or blocked, or who blocked them (issue #25 item 8)."""
    if not is_public(match):
        raise PermissionError("the replay of a match is shown once it is finished")
    players = [p.public_name for p in match.players]
    return {
        "match": match.pk,
        "players": players,
        # A public refusal changes nothing a frame shows: no step of its own.
        "frames": [frame(la, st) for la, st in replay_states(match) if la.refused is None],
        "talk": talk_said(match, set() if reader_id is None else hidden_speakers(reader_id)),
    }


def talk_said(match: Match, hidden: set[int] | None = None) -> list[dict[str, Any]]:
    """The players' table talk of the match (issue #17), each message with the table version
    it was said at, a quick phrase in the active language; hidden messages, the spectators'
    chat and the words of the speakers in `hidden` (the reader's mutes and blocks) are not part
    of the replay."""
    language = (get_language() or "en").split("-")[0]
    rows = (TalkMessage.objects
            .filter(match=match, audience=TalkAudience.TABLE, hidden__isnull=True)
            .exclude(author_id__in=hidden or set())
            .select_related("author", "phrase").order_by("pk"))
    out = []
    for m in rows:
        text = m.phrase.texts()[language] if m.phrase is not None else m.text
        out.append({"version": m.version, "seat": m.seat, "name": m.author.public_name,
                    "text": text})
    return out


# --- the deal-by-deal summary ----------------------------------------------------------------

@dataclass
class DealSummary:
    number: int
    dealer: str
    is_bock: bool
    over: bool
    points: tuple[int, int] | None
    scored: tuple[int, int] | None  # points x multiplier
    tricks_won: tuple[int, int]
    buob_calls: list[dict[str, Any]]
    narr_debt: dict[str, Any] | None


def deal_summaries(match: Match, rounds: list[Round]) -> list[DealSummary]:
    """From the rounds with prefetched `tricks` and `narr_debts`. Cards (a BUOB's returned
    card, the Narr payment) are included only for a finished match."""
    public = is_public(match)
    names = [p.public_name for p in match.players]
    out = []
    for r in rounds:
        tricks = sorted(r.tricks.all(), key=lambda t: t.number)
        won = [0, 0]
        calls = []
        for t in tricks:
            if t.winner is None:
                continue
            won[t.winner % 2] += 1
            b = t.buob_call
            if b:
                calls.append({
                    "trick": t.number, "caller": names[b["caller"]],
                    "team": team_of(b["caller"]), "suit": SUIT_LABELS.get(b["suit"], b["suit"]),
                    "mode": MODE_LABELS.get(b["mode"], b["mode"]),
                    "target": names[b["target"]],
                    "won": t.winner % 2 == b["caller"] % 2,
                    "returned_card": b.get("returned_card") if public else None,
                })
        debts = list(r.narr_debts.all())
        debt = None
        if debts:
            d = debts[0]
            debt = {"debtor": d.debtor, "creditor": d.creditor, "status": d.status,
                    "trick": d.trick.number if d.trick is not None else None,
                    "paid": d.paid_card if public and d.paid_card else None}
        # A scored deal has both teams' points (the writer sets them together).
        points = ((r.points_a, r.points_b) if r.points_a is not None and r.points_b is not None
                  else None)
        mult = 2 if r.is_bock else 1
        out.append(DealSummary(
            number=r.number, dealer=names[r.dealer], is_bock=r.is_bock, over=points is not None,
            points=points,
            scored=(points[0] * mult, points[1] * mult) if points is not None else None,
            tricks_won=(won[0], won[1]), buob_calls=calls, narr_debt=debt,
        ))
    return out


# --- the score chart (server-side SVG, no external resources) --------------------------------

def score_chart(rounds: list[Round]) -> SafeString:
    """Points per deal (bars, Bock deals doubled) and running totals (lines) of both teams."""
    scored = [r for r in rounds if r.points_a is not None]
    width, height, pad, top = 560, 220, 36, 12
    if not scored:
        return mark_safe("")
    # A scored deal has both teams' points (the writer sets them together); a Bock deal counts
    # double.
    per: list[tuple[int, int]] = []
    for r in scored:
        factor = 2 if r.is_bock else 1
        per.append(((r.points_a or 0) * factor, (r.points_b or 0) * factor))
    run_a, run_b, acc_a, acc_b = [], [], 0, 0
    for a, b in per:
        acc_a += a
        acc_b += b
        run_a.append(acc_a)
        run_b.append(acc_b)
    ymax = max(max(run_a), max(run_b), 72)
    n = len(per)
    plot_w = width - 2 * pad
    plot_h = height - pad - top
    step = plot_w / n

    def y(v: float) -> float:
        return round(top + plot_h - v / ymax * plot_h, 1)

    bars = []
    for i, (a, b) in enumerate(per):
        x = pad + i * step
        bw = step * 0.3
        bars.append((round(x + step * 0.18, 1), y(a), round(bw, 1), round(top + plot_h - y(a), 1),
                     "bar-a"))
        bars.append((round(x + step * 0.52, 1), y(b), round(bw, 1), round(top + plot_h - y(b), 1),
                     "bar-b"))

    def line(values: list[int]) -> str:
        return " ".join(f"{round(pad + (i + 0.5) * step, 1)},{y(v)}" for i, v in enumerate(values))

    labels = format_html_join(
        "", '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
        ((round(pad + (i + 0.5) * step, 1), height - pad + 16, r.number)
         for i, r in enumerate(scored)))
    ticks = format_html_join(
        "", '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
        ((pad, width - pad, y(v), y(v), pad - 4, y(v) + 4, v)
         for v in _ticks(ymax)))
    rects = format_html_join(
        "", '<rect x="{}" y="{}" width="{}" height="{}" class="{}"/>', bars)
    title = _("Score chart: points per deal and running totals")
    return format_html(
        '<svg class="score-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{title}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{title}</title>{ticks}{rects}'
        '<polyline points="{la}" class="line-a" fill="none"/>'
        '<polyline points="{lb}" class="line-b" fill="none"/>{labels}'
        '<text x="{cx}" y="{h2}" class="axis" text-anchor="middle">{deal}</text></svg>',
        w=width, h=height, title=title, ticks=ticks, rects=rects, la=line(run_a),
        lb=line(run_b), labels=labels, cx=width // 2, h2=height - 4, deal=_("Deal"),
    )


def _ticks(ymax: int) -> list[int]:
    step = 36 if ymax <= 180 else 72 if ymax <= 400 else 144
    return list(range(0, ymax + 1, step))


def rating_chart(points: list[tuple[Any, float]]) -> SafeString:
    """A player's rating after each match, as an inline SVG line (profile page)."""
    if not points:
        return mark_safe("")
    width, height, pad, top = 560, 180, 40, 10
    values = [v for _, v in points]
    lo, hi = min(values + [0.0]), max(values + [1.0])
    span = (hi - lo) or 1.0
    plot_w, plot_h = width - 2 * pad, height - pad - top
    n = len(points)

    def x(i: int) -> float:
        return round(pad + (plot_w * i / (n - 1) if n > 1 else plot_w / 2), 1)

    def y(v: float) -> float:
        return round(top + plot_h - (v - lo) / span * plot_h, 1)

    coords = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    dots = format_html_join(
        "", '<circle cx="{}" cy="{}" r="3" class="dot"><title>{}: {}</title></circle>',
        ((x(i), y(v), at.strftime("%Y-%m-%d"), f"{v:.1f}") for i, (at, v) in enumerate(points)))
    title = _("Rating over time")
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{title}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{title}</title>'
        '<line x1="{p}" x2="{r}" y1="{y0}" y2="{y0}" class="grid"/>'
        '<text x="{tp}" y="{yt}" class="axis" text-anchor="end">{hi}</text>'
        '<text x="{tp}" y="{yb}" class="axis" text-anchor="end">{lo}</text>'
        '<polyline points="{c}" class="line-a" fill="none"/>{dots}</svg>',
        w=width, h=height, title=title, p=pad, r=width - pad, y0=y(0.0) if lo <= 0 <= hi
        else y(lo), tp=pad - 4, yt=y(hi) + 4, yb=y(lo), hi=f"{hi:.1f}", lo=f"{lo:.1f}",
        c=coords, dots=dots,
    )
