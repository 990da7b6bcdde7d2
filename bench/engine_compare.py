"""Engine speed side by side: a git revision's games/engine against this tree's, in one run.

    python bench/engine_compare.py [--rev REV] [--deals N] [--rounds R] [--seed S]

The revision's `games/engine` (default: the merge-base of HEAD with `main`, i.e. the engine the
branch started from) is extracted with `git archive` into a temporary directory and imported
under another package name, next to this tree's `games.engine`. Both play the same seeded
random deals through the same driver, which uses only the engine's public API (`apply`,
`legal_actions`, `view`, `new_match_state`, the state's phase, dealer and turn): the dealer
deals and discards a random allowed pair, the seat on turn plays a random legal card, and a
random seat calls BUOB (naming a random suit, or none) while its own `legal_actions` offers a
call — often accepted, sometimes refused, publicly or not, as at a real table.

The runs alternate (base, candidate, candidate, base, ...) so that a noisy, shared machine
slows both alike; each engine's figure is the median of its runs. Both must score every deal
alike, or the comparison is void and the script exits with status 1.

Printed: deals/s of each engine and their ratio, views/s on states sampled along the deals
(each state seen by the four seats and a spectator), and the load average before and after.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BASE_PACKAGE = "troccas_engine_base"
SUITS = ("C", "R", "S", "B")


def _git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True).stdout


def default_rev() -> str:
    """The commit this branch started from (the merge-base with main)."""
    return _git("merge-base", "HEAD", "main").decode().strip()


def extract_engine(rev: str, dest: Path) -> ModuleType:
    """`rev`'s games/engine as the package BASE_PACKAGE, imported from `dest`.

    The engine imports only itself (relatively) and the stdlib, so it runs under any name.
    """
    archive = _git("archive", "--format=tar", rev, "games/engine")
    target = dest / BASE_PACKAGE
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.endswith(".py"):
                continue
            relative = Path(member.name).relative_to("games/engine")
            out = target / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None
            out.write_bytes(source.read())
    sys.path.insert(0, str(dest))
    return importlib.import_module(BASE_PACKAGE)


def _random_options(engine: ModuleType, rng: random.Random) -> Any:
    triggers = tuple(t for t in ("tie", "all_tricks") if rng.random() < 0.6)
    return engine.Options(
        reveal_seconds=rng.randint(2, 30), reveal_persist=rng.random() < 0.5,
        scart_forbidden=rng.choice(("honours", "none", "honours_and_trumps")),
        buob_caller=rng.choice(("any", "king_team")), regame_by=rng.choice(("any", "owner")),
        match_deals=rng.choice((4, 0, 8, 12, 16)), bock=rng.random() < 0.5,
        bock_triggers=triggers, turn_seconds=0,
    )


def play(engine: ModuleType, deals: int, seed: int, buob_rate: float = 0.3,
         sample_every: int = 0) -> tuple[list[tuple[int, int]], list[Any]]:
    """Play `deals` whole deals through the public API; return each deal's points and, if
    `sample_every`, every n-th state reached (for the view figure)."""
    apply, legal_actions = engine.apply, engine.legal_actions
    rule_error, public_refusal = engine.RuleError, engine.PublicRefusal
    lobby, dealing, reveal, scart, play_phase, round_over = (
        engine.LOBBY, engine.DEALING, engine.REVEAL, engine.SCART, engine.PLAY,
        engine.ROUND_OVER)
    rng = random.Random(seed)
    ids = list(engine.CARD_IDS)
    state = engine.new_match_state(_random_options(engine, rng), rng.randrange(4))
    points: list[tuple[int, int]] = []
    samples: list[Any] = []
    steps = 0
    while len(points) < deals:
        phase = state.phase
        action: dict[str, Any]
        if phase == play_phase:
            if rng.random() < buob_rate:
                caller = rng.randrange(4)
                if legal_actions(state, caller)["buob_suits"]:
                    suit = rng.choice((None, None, *SUITS))
                    try:
                        state, _ = apply(state, {"type": "call_buob", "seat": caller,
                                                 "suit": suit})
                    except public_refusal as refusal:
                        state = refusal.state
                    except rule_error:
                        pass
                    continue
            turn = state.deal.turn
            card = rng.choice(legal_actions(state, turn)["legal_cards"])
            action = {"type": "play_card", "seat": turn, "card": card}
        elif phase == dealing:
            action = {"type": "deal_next_pass", "seat": state.dealer}
        elif phase == reveal:
            action = {"type": "end_reveal"}
        elif phase == scart:
            allowed = legal_actions(state, state.dealer)["scart_allowed"]
            action = {"type": "discard_scart", "seat": state.dealer,
                      "cards": rng.sample(allowed, 2)}
        elif phase == lobby or phase == round_over:
            deck = ids[:]
            rng.shuffle(deck)
            action = {"type": "start_round" if phase == lobby else "regame", "deck": deck}
        else:  # MATCH_OVER
            action = {"type": "new_match"}
        state, _ = apply(state, action)
        if phase == play_phase and state.phase != play_phase:
            points.append(state.deal.points)
        steps += 1
        if sample_every and steps % sample_every == 0:
            samples.append(state)
    return points, samples


def views_per_second(engine: ModuleType, samples: list[Any]) -> float:
    view = engine.view
    t0 = time.perf_counter()
    for s in samples:
        for seat in (0, 1, 2, 3, None):
            view(s, seat)
    return 5 * len(samples) / (time.perf_counter() - t0)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", default=None, help="the base revision (default: merge-base)")
    parser.add_argument("--deals", type=int, default=1000, help="deals per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per engine")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rev = args.rev or default_rev()
    from games import engine as candidate

    with tempfile.TemporaryDirectory(prefix="engine-base-") as tmp:
        base = extract_engine(rev, Path(tmp))
        engines = {"base": base, "candidate": candidate}
        print(f"base: {rev[:12]} ({base.__name__})  candidate: this tree (games.engine)")
        print(f"load average before: {_load()}")
        for engine in engines.values():  # warm-up, and the two must play the same deals
            play(engine, 50, args.seed + 1)
        rates: dict[str, list[float]] = {name: [] for name in engines}
        results: dict[str, list[tuple[int, int]]] = {}
        for r in range(args.rounds):
            order = ("base", "candidate") if r % 2 == 0 else ("candidate", "base")
            for name in order:
                t0 = time.perf_counter()
                points, _ = play(engines[name], args.deals, args.seed + r)
                rates[name].append(args.deals / (time.perf_counter() - t0))
                if r == 0:
                    results[name] = points
        same = results["base"] == results["candidate"]
        views: dict[str, float] = {}
        for name in ("base", "candidate", "candidate", "base"):
            _, samples = play(engines[name], 100, args.seed, sample_every=7)
            views[name] = max(views.get(name, 0.0), views_per_second(engines[name], samples))
        print(f"load average after: {_load()}")
    median = {name: statistics.median(v) for name, v in rates.items()}
    for name in engines:
        runs = ", ".join(f"{x:.0f}" for x in rates[name])
        print(f"{name:>9}: {median[name]:7.0f} deals/s (runs: {runs})  "
              f"{views[name]:8.0f} views/s")
    print(f"same deals and points in both: {'yes' if same else 'NO'}")
    print(f"views_ratio: {views['candidate'] / views['base']:.2f}")
    print(f"deals_ratio: {median['candidate'] / median['base']:.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
