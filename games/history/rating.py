"""Team skill ratings for 2v2 Troccas: a Weng–Lin Bayesian update, pure Python over the
stored rows' scale (games/models/standings.py).

Reference: Ruby C. Weng and Chih-Jen Lin, "A Bayesian Approximation Method for Online Ranking",
Journal of Machine Learning Research 12 (2011) 267–300, Algorithm 1 (the Bradley–Terry model
with full pairing). It is the update OpenSkill implements as "BradleyTerryFull"; we write it out
here rather than depend on a package (issue #7).

Each player's skill is a normal belief N(mu, sigma^2). A team's skill is the sum of its players'
(mu_i = sum mu, sigma_i^2 = sum sigma^2). For each pair of teams i, q:

    c_iq  = sqrt(sigma_i^2 + sigma_q^2 + 2 beta^2)
    p_iq  = exp(mu_i / c_iq) / (exp(mu_i / c_iq) + exp(mu_q / c_iq))
    s     = 1 if i ranked above q, 1/2 if tied, 0 if below
    Omega_i += sigma_i^2 / c_iq * (s - p_iq)
    Delta_i += gamma * sigma_i^2 / c_iq^2 * p_iq * p_qi,   gamma = sigma_i / c_iq

and every player j of team i moves by its share of the team's uncertainty:

    mu_j      += sigma_j^2 / sigma_i^2 * Omega_i
    sigma_j^2 *= max(1 - sigma_j^2 / sigma_i^2 * Delta_i, kappa)

A draw (s = 1/2) between equal teams changes no mu; in general both teams' mu move by the same
amount in opposite directions when their players' sigmas are equal (the update is symmetric).
The displayed rating is the conservative estimate mu - 3 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The scale (MU, SIGMA, when a rating is provisional) is the stored rows': their columns' defaults.
from games.models.standings import (
    MU,
    PROVISIONAL_MATCHES,
    PROVISIONAL_SIGMA,
    SIGMA,
    is_provisional,
    ordinal,
)

__all__ = ["BETA", "KAPPA", "MU", "PROVISIONAL_MATCHES", "PROVISIONAL_SIGMA", "SIGMA", "Skill",
           "is_provisional", "rate", "rate_2v2"]

BETA = SIGMA / 2
KAPPA = 0.0001


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative rating shown in the standings: mu - 3 sigma."""
        return ordinal(self.mu, self.sigma)


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one game. `ranks[i]` is team i's place: lower is better, equal = draw.

    Weng & Lin (2011), Algorithm 1, Bradley–Terry full pairing (see the module docstring)."""
    if len(teams) != len(ranks) or len(teams) < 2:
        raise ValueError("one rank per team, at least two teams")
    team_mu = [sum(p.mu for p in t) for t in teams]
    team_var = [sum(p.sigma ** 2 for p in t) for t in teams]
    beta2 = BETA ** 2
    out: list[list[Skill]] = []
    for i, team in enumerate(teams):
        omega = 0.0
        delta = 0.0
        for q in range(len(teams)):
            if q == i:
                continue
            c = math.sqrt(team_var[i] + team_var[q] + 2 * beta2)
            e_i = math.exp(team_mu[i] / c)
            e_q = math.exp(team_mu[q] / c)
            p_iq = e_i / (e_i + e_q)
            if ranks[q] > ranks[i]:
                s = 1.0
            elif ranks[q] == ranks[i]:
                s = 0.5
            else:
                s = 0.0
            omega += team_var[i] / c * (s - p_iq)
            gamma = math.sqrt(team_var[i]) / c
            delta += gamma * team_var[i] / (c * c) * p_iq * (1 - p_iq)
        new_team = []
        for p in team:
            share = p.sigma ** 2 / team_var[i]
            mu = p.mu + share * omega
            var = p.sigma ** 2 * max(1 - share * delta, KAPPA)
            new_team.append(Skill(mu, math.sqrt(var)))
        out.append(new_team)
    return out


def rate_2v2(team_a: Sequence[Skill], team_b: Sequence[Skill], winner: str
             ) -> tuple[list[Skill], list[Skill]]:
    """One Troccas match: `winner` is "A", "B" or "draw"."""
    ranks = {"A": (0, 1), "B": (1, 0), "draw": (0, 0)}[winner]
    a, b = rate([team_a, team_b], ranks)
    return a, b
