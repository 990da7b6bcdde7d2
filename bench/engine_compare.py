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
slows both alike, and are timed in this process's CPU time (time.process_time), which other
processes waiting for the same cores do not inflate; each engine's figure is the median of its
runs. Both must score every deal
alike, or the comparison is void and the script exits with status 1.

Three drivers: `public-api` above; `table`, the same with every state seen by the four seats
and a spectator (`view` five times per accepted action, as the services announce a table);
and `bench-engine`, the loop of bench/engine.py (each engine's own seeded random player,
`playout.random_action`, feeding `apply`; it consumes the random numbers alike in both, so it
plays the same deals too).

Printed: deals/s of each engine under each driver and their ratio, views/s on states sampled
along the deals (each state seen by the four seats and a spectator), and the load average
before and after.
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
AUDIENCE = (0, 1, 2, 3, None)  # the four seats and a spectator


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
         sample_every: int = 0, views: bool = False) -> tuple[list[tuple[int, int]], list[Any]]:
    """Play `deals` whole deals through the public API; return each deal's points and, if
    `sample_every`, every n-th state reached (for the view figure). With `views`, every
    state the table reaches is also seen by the four seats and a spectator, as the services
    announce it (one view each per accepted action or public refusal)."""
    apply, legal_actions, view = engine.apply, engine.legal_actions, engine.view
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
                        continue
                    if views:
                        for seat in AUDIENCE:
                            view(state, seat)
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
        elif phase in (lobby, round_over):
            deck = ids[:]
            rng.shuffle(deck)
            action = {"type": "start_round" if phase == lobby else "regame", "deck": deck}
        else:  # MATCH_OVER
            action = {"type": "new_match"}
        state, _ = apply(state, action)
        if views:
            for seat in AUDIENCE:
                view(state, seat)
        if phase == play_phase and state.phase != play_phase:
            points.append(state.deal.points)
        steps += 1
        if sample_every and steps % sample_every == 0:
            samples.append(state)
    return points, samples


def play_bench(engine: ModuleType, deals: int, seed: int
               ) -> tuple[list[tuple[int, int]], list[Any]]:
    """Play `deals` whole deals as bench/engine.py does: the engine's own seeded random player
    (`playout.random_action`, BUOB calls at random, often refused) and `apply`."""
    random_action = importlib.import_module(engine.__name__ + ".playout").random_action
    apply, rule_error, play_phase = engine.apply, engine.RuleError, engine.PLAY
    rng = random.Random(seed)
    state = engine.new_match_state(_random_options(engine, rng), rng.randrange(4))
    points: list[tuple[int, int]] = []
    while len(points) < deals:
        action = random_action(state, rng)
        before = state.phase
        try:
            state, _ = apply(state, action)
        except rule_error:
            continue
        if before == play_phase and state.phase != play_phase:
            points.append(state.deal.points)
    return points, []


def play_table(engine: ModuleType, deals: int, seed: int
               ) -> tuple[list[tuple[int, int]], list[Any]]:
    """The public-API driver, with the five views of every state, as a live table runs."""
    return play(engine, deals, seed, views=True)


def views_per_second(engine: ModuleType, samples: list[Any]) -> float:
    view = engine.view
    t0 = time.process_time()
    for s in samples:
        for seat in AUDIENCE:
            view(s, seat)
    return 5 * len(samples) / (time.process_time() - t0)


DRIVERS = {"public-api": play, "table": play_table, "bench-engine": play_bench}


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
        rates: dict[tuple[str, str], list[float]] = {}
        same = True
        for driver, player in DRIVERS.items():
            results: dict[str, list[tuple[int, int]]] = {}
            for r in range(args.rounds):
                order = ("base", "candidate") if r % 2 == 0 else ("candidate", "base")
                for name in order:
                    t0 = time.process_time()
                    points, _ = player(engines[name], args.deals, args.seed + r)
                    rate = args.deals / (time.process_time() - t0)
                    rates.setdefault((driver, name), []).append(rate)
                    if r == 0:
                        results[name] = points
            same = same and results["base"] == results["candidate"]
        views: dict[str, float] = {}
        for name in ("base", "candidate", "candidate", "base"):
            _, samples = play(engines[name], 100, args.seed, sample_every=7)
            views[name] = max(views.get(name, 0.0), views_per_second(engines[name], samples))
        print(f"load average after: {_load()}")
    median = {key: statistics.median(v) for key, v in rates.items()}
    for driver in DRIVERS:
        print(f"driver {driver}:")
        for name in engines:
            runs = ", ".join(f"{x:.0f}" for x in rates[driver, name])
            print(f"  {name:>9}: {median[driver, name]:7.0f} deals/s  (runs: {runs})")
        ratio = median[driver, "candidate"] / median[driver, "base"]
        print(f"  deals_ratio[{driver}]: {ratio:.2f}")
    for name in engines:
        print(f"views  {name:>9}: {views[name]:8.0f} views/s")
    print(f"views_ratio: {views['candidate'] / views['base']:.2f}")
    print(f"same deals and points in both: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
