"""The searching bots' bookkeeping: candidates played in paired samples, and when to stop.

strong.py searches the card to play and scart.py the dealer's discards the same way: in every
sampled deal each candidate still in question is played, followed by a playout with one seed,
so the differences between candidates are paired; each sample carries a weight (inference.py;
1 where nothing is inferred). After MIN_SAMPLES samples, and then at every quarter more, a
candidate behind the best by PRUNE standard errors of the paired difference gets no more
playouts (successive elimination, issue #27 item 1): the budget goes to the close choices, and
the search ends when one is left. It also ends when the choice no longer matters: when no
candidate left could plausibly (by two standard errors) be better than the best by more than
SETTLE points per deal (`settled`). Such ties, cards that play out alike in every sample, took
a third of the card search's playouts; stopping there gives the CPU back to the other tables
(issue #27 item 2). The rule of thumb's choice is kept unless the best beats it by OVERRULE
standard errors.
"""

from __future__ import annotations

import math

PRUNE = 2.5
MIN_SAMPLES = 8
# A fifth of a point per deal: below what 400 duplicate deck pairs can tell apart.
SETTLE = 0.2
# The easy bot's choice is kept unless the search finds a better one by this many standard
# errors: a handful of noisy samples should not overrule a sound rule of thumb.
OVERRULE = 0.5


def sample_seed(seed: int, i: int, salt: int) -> int:
    """The seed of sample i's deal (salt 0), of its playouts (1), or of another draw (2)."""
    return (seed * 1_000_003 + i) * 4 + salt


class Search:
    """The points for the seat's team after each candidate (a card, or strong.py's index of a
    pair of discards), sample by sample, and each sample's weight."""

    def __init__(self, legal: list[int]) -> None:
        self.legal = legal
        self.active = list(legal)  # the candidates that still get playouts
        self.rows: list[dict[int, int]] = []  # per complete sample: candidate -> points
        self.weights: list[float] = []
        self.playouts = 0
        self.settled = False  # set on the schedule when no candidate left is worth more playouts
        self._check = MIN_SAMPLES

    def add(self, row: dict[int, int], weight: float = 1.0) -> None:
        """One complete sample: each active candidate's points, and the sample's weight."""
        self.rows.append(row)
        self.weights.append(weight)

    def after_sample(self, done: int) -> None:
        """Prune on the schedule (after MIN_SAMPLES samples, then every quarter more)."""
        if done >= self._check:
            self.prune()
            self.settled = self.is_settled()
            self._check = max(done + 1, done * 5 // 4)

    def mean(self, c: int) -> float:
        num = den = 0.0
        for w, row in zip(self.weights, self.rows, strict=True):
            v = row.get(c)
            if v is not None:
                num += w * v
                den += w
        return num / den if den else 0.0

    def lead(self, a: int, b: int) -> tuple[float, float]:
        """Weighted mean and standard error of (a − b) over the samples that played both."""
        pairs = [(w, row[a] - row[b]) for w, row in zip(self.weights, self.rows, strict=True)
                 if a in row and b in row]
        total = sum(w for w, _ in pairs)
        if not pairs or total <= 0:
            return 0.0, math.inf
        m = sum(w * d for w, d in pairs) / total
        n_eff = total * total / sum(w * w for w, _ in pairs)
        if n_eff < 2:
            return m, math.inf
        var = sum(w * (d - m) ** 2 for w, d in pairs) / total * n_eff / (n_eff - 1)
        return m, math.sqrt(var / n_eff)

    def best(self) -> int:
        return max(self.active, key=lambda c: (self.mean(c), -self.legal.index(c)))

    def is_settled(self) -> bool:
        """Whether every candidate left is, by two standard errors, at most SETTLE points per
        deal better than the best."""
        best = self.best()
        for c in self.active:
            if c != best:
                m, se = self.lead(best, c)
                if 2 * se - m > SETTLE:
                    return False
        return True

    def prune(self) -> None:
        """Drop the candidates clearly behind the best."""
        best = self.best()
        keep = []
        for c in self.active:
            m, se = self.lead(best, c)
            if c == best or m <= PRUNE * se:
                keep.append(c)
        self.active = keep


def choose(result: Search, preferred: int) -> int:
    """The searched best candidate, if it beats the preferred one clearly enough."""
    if not result.rows:
        return preferred
    best = result.best()
    if best == preferred:
        return best
    m, se = result.lead(best, preferred)
    return best if m > OVERRULE * se else preferred


__all__ = ["MIN_SAMPLES", "OVERRULE", "PRUNE", "SETTLE", "Search", "choose", "sample_seed"]
