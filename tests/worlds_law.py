"""The law of the worlds given the auction, against the simulator.

At a position met in simulated deals (a preset, the calls so far, the deciding seat), the
cards the other seats really held when the bidding started follow the law of the deals
that reach it. The worlds bid strength draws from the deciding seat's view
(:func:`belote_sim.studies.bid_strength.sample_worlds`) must follow the same law: for
each simulated deal at the position, ``K`` worlds are drawn from that deal's view, and
the other seats' features in them (the J and the 9 of the named suits, the length in
each named suit, the number of aces) give each deal's expected features. Summed over the
deals, the observed counts are compared with the expected ones:

* a feature that is held or not: ``z = (O - E) / sqrt(V)``, ``V`` the sum of the
  Bernoulli variances, times ``1 + 1/K`` for the worlds' own noise;
* a count (length, aces): Pearson's chi-square over the values (merged so that every
  expected count is at least 5), divided by ``1 + 1/K``. The deals' laws differ, so the
  counts vary less than a multinomial's and the test is conservative.

``python tests/worlds_law.py`` prints every p-value, for the worlds given the calls and
for uniform worlds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from belote_sim import Rules
from belote_sim.batch import runs
from belote_sim.batch.counterfactuals import DW_PACKS, DW_WORLDS
from belote_sim.cards import parse_card
from belote_sim.deallog.format import parse_call
from belote_sim.kernels import layout as L
from belote_sim.kernels.calls import bid_strain, is_bid
from belote_sim.players.seating import players_of
from belote_sim.players.spec import as_spec
from belote_sim.studies.bid_strength import (
    WorldsGiven,
    checked_calls,
    dealt_positions,
    decision,
    sample_worlds,
)
from belote_sim.studies.playouts import playout_setup

BID_POLICY = "threshold"
PLAY_POLICY = "heuristic"
ACES = sum(1 << parse_card(f"A{s}") for s in "CDHS")


@dataclass(frozen=True)
class Position:
    """A position of the auction: the preset and the calls so far (the next call is
    the decision's)."""

    preset: str
    calls: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.preset} after {' '.join(self.calls)}"


#: The positions of the law tests (the issue's): coinche after ``80H pass`` and after
#: ``pass 80S 90H``; classic in round 2 after four and after five passes; tout-atout in
#: round 3.
POSITIONS = (
    Position("coinche", ("80H", "pass")),
    Position("coinche", ("pass", "80S", "90H")),
    Position("classic", ("pass",) * 4),
    Position("classic", ("pass",) * 5),
    Position("tout-atout", ("pass",) * 8),
)


def simulated_at(position: Position, deals: int, seed: int, limit: int) -> np.ndarray:
    """The records of the first ``limit`` of ``deals`` simulated deals whose auction
    starts with the position's calls and goes on (the decision is met), simulated in
    parts (a rare position needs more deals than records fit in memory)."""
    rules = Rules.from_preset(position.preset)
    players = players_of(as_spec(BID_POLICY, "bid"), as_spec(PLAY_POLICY, "play"),
                         rules.to_array())
    codes = [parse_call(c) for c in position.calls]
    k = len(codes)
    found = []
    for start in range(0, deals, PART):
        recs = runs.simulate_records(rules.to_array(), players, seed, start,
                                     min(PART, deals - start))
        keep = recs[:, L.N_CALLS] > k
        for i, code in enumerate(codes):
            keep &= recs[:, L.CALLS + i] == code
        found.append(recs[keep])
        if sum(len(f) for f in found) >= limit:
            break
    return np.concatenate(found)[:limit]


#: Deals simulated at a time by :func:`simulated_at`.
PART = 200_000


def named_suits(rec: np.ndarray, position: Position) -> list[int]:
    """The suits the position names: the retourne's, or those of the bids so far."""
    if rec[L.RETOURNE] >= 0:
        return [int(rec[L.RETOURNE]) >> 3]
    suits = []
    for c in position.calls:
        code = parse_call(c)
        if is_bid(code) and int(bid_strain(code)) < 4 and int(bid_strain(code)) not in suits:
            suits.append(int(bid_strain(code)))
    return suits


def features(hand: int, suits: list[int]) -> dict[str, int]:
    """The features of one hand: for the ``i``-th named suit, ``J{i}`` and ``9{i}``
    (held or not) and ``len{i}``; and ``aces``."""
    out = {}
    for i, s in enumerate(suits):
        out[f"J{i}"] = (hand >> (8 * s + 4)) & 1
        out[f"9{i}"] = (hand >> (8 * s + 2)) & 1
        out[f"len{i}"] = bin(hand & (0xFF << (8 * s))).count("1")
    out["aces"] = bin(hand & ACES).count("1")
    return out


BINARY = ("J", "9")


def _decision_of(rec: np.ndarray, position: Position, seat: int):
    rules = Rules.from_preset(position.preset)
    hand = int(rec[L.DEALT + seat])
    dealer = int(rec[L.DEALER])
    if rules.contract == "coinche":
        return decision(rules, hand, seat=seat, dealer=dealer, calls=" ".join(position.calls))
    return decision(rules, hand, retourne=int(rec[L.RETOURNE]), seat=seat, dealer=dealer,
                    round=len(position.calls) // rules.players + 1)


@dataclass(frozen=True)
class Law:
    """What a law test found: the p-value of every (seat, feature) (keys ``"+1 J0"``:
    the seat after the deciding one and the J of the first named suit), and the share
    of packs tried that gave the calls."""

    p: dict[str, float]
    acceptance: float

    def worst(self) -> tuple[str, float]:
        key = min(self.p, key=self.p.get)
        return key, self.p[key]


def law_test(position: Position, given: str, *, deals: int, limit: int, worlds: int,
             seed: int = 3) -> Law:
    """The :class:`Law` at ``position`` of the worlds ``given`` (``"calls"`` or
    ``"uniform"``), ``worlds`` per simulated deal."""
    recs = simulated_at(position, deals, seed, limit)
    assert len(recs) >= min(limit, 200), f"{position.label}: {len(recs)} deals only"
    setup = None
    observed: dict[str, list[int]] = {}
    expected: dict[str, list[np.ndarray]] = {}
    found = packs_tried = 0
    for d, rec in enumerate(recs):
        n = int(Rules.from_preset(position.preset).players)
        seat = (int(rec[L.FIRST_HAND]) + len(position.calls)) % n
        dec = _decision_of(rec, position, seat)
        if setup is None:  # the worlds of deal d: streams d * worlds ... of one seed
            setup = playout_setup(dec.rules, seed=seed + 1, bid_policy=BID_POLICY,
                                  models=PLAY_POLICY)
        plan = WorldsGiven(given, checked_calls(dec, setup.bid_policy, given), 1_000_000)
        packs, draws = sample_worlds(dec, setup, plan, d * worlds, worlds)
        assert len(packs) == worlds, f"{position.label}: a world not found ({draws[:3]})"
        found += int(draws[DW_WORLDS])
        packs_tried += int(draws[DW_PACKS])
        seats, _ = dealt_positions(dec)
        suits = named_suits(rec, position)
        for r in range(1, n):
            other = (seat + r) % n
            for name, value in features(int(rec[L.DEALT + other]), suits).items():
                observed.setdefault(f"+{r} {name}", []).append(value)
            sampled = [features(sum(1 << int(c) for c in pack[seats[other]]), suits)
                       for pack in packs]
            for name in sampled[0]:
                expected.setdefault(f"+{r} {name}", []).append(
                    np.array([f[name] for f in sampled])
                )
    return Law({key: _p_value(key, np.array(observed[key]), expected[key], worlds)
                for key in observed}, found / packs_tried)


def _p_value(key: str, observed: np.ndarray, sampled: list[np.ndarray], k: int) -> float:
    inflate = 1 + 1 / k
    name = key.split()[1]
    if name[0] in BINARY:
        p = np.array([s.mean() for s in sampled])
        var = float((p * (1 - p)).sum()) * inflate
        if var == 0:
            return 1.0 if observed.sum() == p.sum() else 0.0
        z = (observed.sum() - p.sum()) / math.sqrt(var)
        return float(2 * stats.norm.sf(abs(z)))
    top = int(max(observed.max(), max(s.max() for s in sampled)))
    exp = np.zeros(top + 1)
    for s in sampled:
        exp += np.bincount(s, minlength=top + 1)[: top + 1] / len(s)
    obs = np.bincount(observed, minlength=top + 1)[: top + 1].astype(float)
    cells_o, cells_e = _merge(obs, exp)
    if len(cells_e) < 2:
        return 1.0
    chi2 = float(((cells_o - cells_e) ** 2 / cells_e).sum()) / inflate
    return float(stats.chi2.sf(chi2, len(cells_e) - 1))


def _merge(obs: np.ndarray, exp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Adjacent values merged until every expected count is at least 5."""
    co, ce = [], []
    o = e = 0.0
    for x, y in zip(obs, exp, strict=True):
        o += x
        e += y
        if e >= 5:
            co.append(o)
            ce.append(e)
            o = e = 0.0
    if e > 0 and ce:
        co[-1] += o
        ce[-1] += e
    return np.array(co), np.array(ce)


# -- The worlds of the pimc players ----------------------------------------------------


def auction_knowledge(preset: str, deals: int, seed: int, bid: str = BID_POLICY):
    """Per simulated deal taken, the deal's record and the knowledge the engine keeps
    for the solver players once the auction is over (the calls, the retourne with the
    taker), each taken from a workspace that watches the seats' knowledge while
    heuristic players play. Yields ``(record, knowledge)``."""
    from belote_sim.game.state import Watch, new_workspace, no_script
    from belote_sim.kernels.layout import KNOW_HELD, KNOW_PLAYED, KNOW_VOID

    rules = Rules.from_preset(preset).to_array()
    players = players_of(as_spec(bid, "bid"), as_spec(PLAY_POLICY, "play"), rules,
                         with_solver=True)
    ws = new_workspace(players, False, False, False)
    ws = ws._replace(watch=Watch(True, False, False, False))
    script = no_script()
    for i in range(deals):
        runs.simulate_deal(rules, players, script, seed, i, ws)
        rec = ws.rec
        if rec[L.THROWN_IN] or rec[L.TAKER] < 0:
            continue
        know = ws.kit.know.copy()
        know[KNOW_VOID:KNOW_PLAYED + 4] = 0  # before the first card
        if rec[L.RETOURNE] >= 0:
            know[KNOW_HELD + rec[L.TAKER]] = 1 << int(rec[L.RETOURNE])
        yield rec.copy(), know


#: Worlds a pimc law test's decision may draw per world it wants: ten times the
#: players' budget. A deal whose worlds still come short is left out, which leaves the
#: law of the others as it is: whether the worlds come short depends on the seat's view
#: and the sampler's draws, not on the hands the others really hold.
LAW_TRIES = 5_000


def pimc_law_test(preset: str, given: bool, *, deals: int, worlds: int,
                  seed: int = 5) -> Law:
    """The :class:`Law` of the worlds ``pimc`` draws at the first lead (the first hand's
    decision, nothing played yet) against the hands the other seats really held, over
    the deals of ``deals`` simulated that were taken; features of the trump suit (or
    none in all-trumps and no-trumps: the aces alone). The worlds know the auction and
    the retourne with the taker, not the declarations shown: the real hands are
    compared at the same knowledge. Its ``acceptance`` is the share of the deals whose
    worlds were all found (:data:`LAW_TRIES`)."""
    from belote_sim.dd.kit import STAT_SHORT
    from belote_sim.game.state import new_workspace
    from belote_sim.infer.worlds import Wanted, draw_pimc_worlds, prepare_worlds
    from belote_sim.kernels.rng import seed_stream

    rules = Rules.from_preset(preset)
    n = rules.players
    players = players_of(as_spec(BID_POLICY, "bid"), as_spec("fastpimc", "play"),
                         rules.to_array())
    kit = new_workspace(players, False, False, False).kit
    rng = np.zeros(1, dtype=np.uint64)
    observed: dict[str, list[int]] = {}
    expected: dict[str, list[np.ndarray]] = {}
    kept = tried = 0
    for d, (rec, know) in enumerate(auction_knowledge(preset, deals, seed)):
        hands = rec[L.HANDS:L.HANDS + 4].copy()
        seat = int(rec[L.FIRST_HAND])
        trump = int(rec[L.TRUMP])
        suits = [trump] if trump < 4 else []
        kit.know[:] = know
        sampler = prepare_worlds(hands, seat, 0, n, kit.know)
        seed_stream(rng, seed + 1, d, 0)
        wanted = Wanted(worlds, given, LAW_TRIES)
        kit.stats[:] = 0
        sampled = draw_pimc_worlds(rules.to_array(), players, kit, sampler, seat,
                                   hands[seat], wanted, rng)
        tried += 1
        if kit.stats[STAT_SHORT:STAT_SHORT + 2].sum():
            continue
        kept += 1
        for r in range(1, n):
            other = (seat + r) % n
            for name, value in features(int(hands[other]), suits).items():
                observed.setdefault(f"+{r} {name}", []).append(value)
            drawn = [features(int(w[other]), suits) for w in sampled]
            for name in drawn[0]:
                expected.setdefault(f"+{r} {name}", []).append(
                    np.array([f[name] for f in drawn]))
    return Law({key: _p_value(key, np.array(observed[key]), expected[key], worlds)
                for key in observed}, kept / tried)


if __name__ == "__main__":  # pragma: no cover
    for position in POSITIONS:
        for given in ("calls", "uniform"):
            law = law_test(position, given, deals=3_000_000, limit=1_000, worlds=20)
            worst, p = law.worst()
            print(f"{position.label:40s} {given:8s} acceptance {law.acceptance:.3f}, "
                  f"{len(law.p)} tests, min p = {p:.3g} ({worst}); "
                  + ", ".join(f"{k}: {v:.2g}" for k, v in sorted(law.p.items())))
    for preset in ("coinche", "classic"):
        for given in (True, False):
            law = pimc_law_test(preset, given, deals=3_000, worlds=20)
            worst, p = law.worst()
            print(f"pimc {preset:35s} {'calls' if given else 'uniform':8s} "
                  f"{law.acceptance:.3f} of deals kept, {len(law.p)} tests, "
                  f"min p = {p:.3g} ({worst}); "
                  + ", ".join(f"{k}: {v:.2g}" for k, v in sorted(law.p.items())))
