"""Our players against colver's, in colver's own environment and rules.

colver (on PyPI, installed by ``make bench``; never a dependency) is the fastest public
belote engine, and ships belote AIs that run without their neural models: a heuristic
card player (``Env.action_heuristic_play``; its documentation calls it a
*perfect-information* heuristic: it may look at every hand), a Smart IS-MCTS that
samples its worlds from card beliefs (``action_smart_ismcts(time_ms)``), and its
default bidder (``bid_improved``).

Every deal is dealt by ``colver.Env.deal(dealer, seed)`` and played twice with the sides
swapped (duplicate): our player holds seats 0 and 2, then 1 and 3. Our seats are
:class:`belote_sim.seat.seat.Seat` objects: each sees its cards, every call and every
card as colver's environment plays them, and decides through our engine under
:data:`~colver_bridge.COLVER_RULES`; where its legal cards differ from colver's, the
match counts it. The deal's score is colver's (``Env.rewards``).

- ``cards``: every seat bids with colver's ``bid_improved``, so only the card play
  differs; each of our players against each of colver's.
- ``bidding``: our ``threshold`` bidder on one side and ``bid_improved`` on the other,
  the same card player on all four seats. (Not our ``table`` bidder: it reads the atlas
  of the coinche auction with the all-trumps and no-trumps strains, which colver's
  auction does not have.)

Reported per match: the score difference per deal (ours minus theirs, each duplicate
pair's mean, with its 95% interval over the pairs), the share of deals won (our side
scores more), deals thrown in (four passes: left out) and each side's time per move.
The deals are numbered from ``--seed``: deal ``i`` of a match is the same deal in every
match. Each finished match is added to ``--out`` (``results/vs_colver.json``) at once;
``--ladder`` writes ``results/tables/ladder.parquet`` from that file (the study's players
section renders it). ``make bench`` plays every match on a few deals, for the times per
move, into ``results/bench_vs_colver.json``.

Run ``python benchmarks/bench_vs_colver.py --pairs 200`` (every match) or name the
matches: ``--match fastpimc:20/ismcts:50 --pairs 500``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from colver_bridge import (  # noqa: E402
    COLVER_RULES,
    PASS,
    colver_call_name,
    from_colver_card,
    to_colver_call,
    to_colver_card,
)

from belote_sim.cards import format_card, parse_card  # noqa: E402
from belote_sim.seat.seat import Seat  # noqa: E402
from belote_sim.stats import mean_interval, wilson_interval  # noqa: E402
from belote_sim.studies.simulate import DEFAULT_BID_POLICY  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT_JSON = ROOT / "results" / "vs_colver.json"
LADDER = ROOT / "results" / "tables" / "ladder.parquet"
SEED = 2026

#: colver's card players: ``heuristic``, ``ismcts:MS`` (Smart IS-MCTS, MS ms a move).
THEIRS = ("heuristic", "ismcts:10", "ismcts:50")
OURS = ("heuristic", "fastpimc:20", "pimc:20")
#: The card-play matches, then the bidding matches (our bidder against colver's, the
#: same card player everywhere).
CARD_MATCHES = tuple(f"{a}/{b}" for a in OURS for b in THEIRS)
BID_MATCHES = ("threshold/bid_improved",)
#: The card player of every seat in a bidding match.
BIDDING_PLAYER = "heuristic"


def _side(seat: int) -> int:
    return seat % 2


@dataclass
class Clock:
    """Seconds spent and moves decided by one side."""

    seconds: float = 0.0
    moves: int = 0

    def add(self, seconds: float) -> None:
        self.seconds += seconds
        self.moves += 1


@dataclass
class Table:
    """One deal played in colver's environment. Our side (``our_side``: 0 holds seats 0
    and 2) plays its cards with ``our_player``; the other side with colver's
    ``their_player``, or with ``our_player`` too when ``ours_bid`` names our bidder (a
    bidding match: our side bids with it, the other with colver's ``bid_improved``).
    Otherwise every seat bids with ``bid_improved``."""

    env: object
    our_side: int
    our_player: str
    their_player: str
    ours_bid: str | None
    seed: int
    #: The card moves' clocks, or in a bidding match the calls'.
    clocks: dict = field(default_factory=lambda: {"ours": Clock(), "theirs": Clock()})
    legal_differs: int = 0
    seats: dict = field(default_factory=dict)
    contract: dict = field(default_factory=dict)
    #: Every action so far, and our card decisions: (index of the action, our choice).
    actions: list = field(default_factory=list)
    choices: list = field(default_factory=list)

    def __post_init__(self) -> None:
        env = self.env
        self.smart = self.their_player.startswith("ismcts")
        if self.smart:
            env.smart_ismcts_init()
        hands = env.get_hands()
        for s in range(4):
            if _side(s) != self.our_side and not self.ours_bid:
                continue  # colver's card player
            seat = Seat(COLVER_RULES, s, player=self.our_player,
                        bid_policy=self.ours_bid or DEFAULT_BID_POLICY,
                        seed=self.seed * 4 + s)
            seat.start([format_card(from_colver_card(c)) for c in hands[s]],
                       dealer=env.get_dealer())
            self.seats[s] = seat

    def step(self, action: int) -> None:
        env = self.env
        if env.phase() == 0:
            for seat in self.seats.values():
                seat.observe_call(colver_call_name(action))
        else:
            for seat in self.seats.values():
                seat.observe_card(format_card(from_colver_card(action)))
        self.actions.append(action)
        (env.smart_ismcts_step if self.smart else env.step)(action)

    def decide(self) -> int:
        env = self.env
        player = env.current_player()
        legal = env.legal_actions()
        side = "ours" if _side(player) == self.our_side else "theirs"
        t0 = time.perf_counter()
        if env.phase() == 0:
            if legal == [PASS]:
                return PASS
            if side == "ours" and self.ours_bid:
                action = to_colver_call(self.seats[player].decide().item)
            else:
                action = env.bid_improved()
        elif player in self.seats:
            choice = self.seats[player].decide()
            action = to_colver_card(parse_card(choice.item))
            self.choices.append((len(self.actions), choice))
            if sorted(to_colver_card(parse_card(c)) for c in choice.legal) != sorted(legal):
                self.legal_differs += 1
        else:
            action = _their_card(env, self.their_player)
        if (env.phase() == 0) == bool(self.ours_bid):
            self.clocks[side].add(time.perf_counter() - t0)
        if action not in legal:
            raise RuntimeError(f"{side} chose {action} at {env.to_cfn()}: colver's legal "
                               f"actions are {legal}")
        return action


def _their_card(env, player: str) -> int:
    if player == "heuristic":
        return env.action_heuristic_play()
    if player.startswith("ismcts:"):
        return env.action_smart_ismcts(int(player.split(":")[1]))
    raise ValueError(f"unknown colver player {player!r}")


def play_table(deal: int, seed: int, our_side: int, our_player: str, their_player: str,
               ours_bid: str | None) -> tuple[float, float, Table]:
    """Deal ``deal`` of the run ``seed`` played once: our side's deal score, theirs, and
    the table (clocks, legal-card differences)."""
    import colver

    env = colver.Env.deal(dealer=deal % 4, seed=seed + deal)
    table = Table(env, our_side, our_player, their_player, ours_bid, seed + deal)
    while not env.is_terminal():
        table.step(table.decide())
    rewards = env.rewards()
    table.contract = env.get_contract()
    return float(rewards[our_side]), float(rewards[1 - our_side]), table


def play_match(name: str, pairs: int, seed: int, say=print) -> dict:
    """One match, ``ours/theirs`` (card play) or ``bidder/bid_improved`` (bidding), over
    ``pairs`` duplicate deals."""
    ours, theirs = name.split("/")
    bidding = theirs == "bid_improved"
    our_player, their_player = (BIDDING_PLAYER, BIDDING_PLAYER) if bidding else (ours, theirs)
    ours_bid = ours if bidding else None
    diffs, won, played, thrown = [], 0, 0, 0
    clocks = {"ours": Clock(), "theirs": Clock()}
    legal_differs = contract_differs = 0
    # One deal first, its clocks left out: the seats' kernels are loaded or compiled
    # there, and the times per move count play alone.
    play_table(pairs, seed, 0, our_player, their_player, ours_bid)  # a deal past the match
    t_start = time.perf_counter()
    for i in range(pairs):
        pair, contracts = [], []
        for our_side in (0, 1):
            a, b, table = play_table(i, seed, our_side, our_player, their_player, ours_bid)
            for k in clocks:
                clocks[k].seconds += table.clocks[k].seconds
                clocks[k].moves += table.clocks[k].moves
            legal_differs += table.legal_differs
            pair.append((a, b))
            contracts.append(table.contract)
        if not bidding:
            contract_differs += contracts[0] != contracts[1]  # colver bids alike
        if all(a == 0 and b == 0 for a, b in pair):
            thrown += 1  # four passes: nothing played
            continue
        diffs.append(sum(a - b for a, b in pair) / 2)
        won += sum(a > b for a, b in pair)
        played += 2
        if (i + 1) % max(1, pairs // 10) == 0:
            d = np.asarray(diffs)
            say(f"  {name}: {i + 1}/{pairs} pairs, {d.mean():+.1f} a deal, "
                f"{time.perf_counter() - t_start:.0f} s")
    d = np.asarray(diffs, dtype=float)
    mean, _, low, high = mean_interval(float(d.sum()), float((d * d).sum()), len(d))
    w_low, w_high = wilson_interval(won, played)
    return {
        "match": name, "kind": "bidding" if bidding else "cards", "ours": ours,
        "theirs": theirs, "card_player": BIDDING_PLAYER if bidding else None,
        "pairs": len(d), "thrown_in": thrown, "mean_difference": mean,
        "difference_low": low, "difference_high": high, "won": won / played if played else
        float("nan"), "won_low": w_low, "won_high": w_high,
        # a card match times the card moves, a bidding match the calls
        "ours_ms_per_move": 1e3 * clocks["ours"].seconds / max(clocks["ours"].moves, 1),
        "theirs_ms_per_move": 1e3 * clocks["theirs"].seconds / max(clocks["theirs"].moves, 1),
        "ours_moves": clocks["ours"].moves, "theirs_moves": clocks["theirs"].moves,
        "legal_differs": legal_differs, "contract_differs": contract_differs, "seed": seed,
        "seconds": time.perf_counter() - t_start,
    }


def disagreements(player: str, theirs: str, deals: int, shown: int, seed: int,
                  say=print) -> dict:
    """Where ``player`` (a ``pimc`` player: it values its cards) and colver's Smart
    IS-MCTS ``theirs`` would play different cards. Our side plays deals ``0 ..
    deals-1`` against ``theirs``; at each of our decisions with a choice, colver's
    search is asked too (the deal replayed in a fresh environment, its beliefs rebuilt
    from the same actions). Returns how many decisions were compared and how many
    differ, and the ``shown`` disagreements where our values differ most, each with
    both sides' values (ours: the takers' points expected over its worlds; colver's:
    the share of the search's visits) and, as a referee who sees every hand, the
    double-dummy deal score of each card for the side to move (colver's
    ``solve_scores`` on the real deal)."""
    import colver

    ms = int(theirs.split(":")[1])
    found, compared = [], 0
    for deal in range(deals):
        _, _, table = play_table(deal, seed, 0, player, theirs, None)
        for at, choice in table.choices:
            if len(choice.legal) < 2:
                continue
            compared += 1
            env = colver.Env.deal(dealer=deal % 4, seed=seed + deal)
            env.smart_ismcts_init()
            for a in table.actions[:at]:
                env.smart_ismcts_step(a)
            stats = env.action_smart_ismcts_with_stats(ms)
            theirs_card = format_card(from_colver_card(stats["best_action"]))
            if theirs_card == choice.item:
                continue
            seat = env.current_player()
            sign = 1 if seat % 2 == 0 else -1  # deal_scores: N-S minus E-W
            dd = {format_card(from_colver_card(c)): sign * v
                  for c, v in env.solve_scores()["deal_scores"]}
            visits = sum(v for _, v in stats["visit_counts"])
            values = dict(choice.values)
            found.append({
                "deal": deal, "seat": seat, "dealer": deal % 4,
                "hand": [format_card(from_colver_card(c)) for c in env.get_hands()[seat]],
                "calls": [colver_call_name(a) for _, a in env.get_bid_history()],
                "contract": env.get_contract(),
                "plays": [format_card(from_colver_card(c)) for c in env.get_play_order()],
                "ours": choice.item, "theirs": theirs_card,
                "our_values": values, "our_worlds": choice.worlds,
                "their_visits": {format_card(from_colver_card(c)): v / visits
                                 for c, v in stats["visit_counts"]},
                "double_dummy": dd,
                "gap": abs(values[choice.item] - values[theirs_card]),
            })
        say(f"  deal {deal}: {len(found)} of {compared} decisions differ")
    found.sort(key=lambda d: -d["gap"])
    return {"player": player, "theirs": theirs, "deals": deals, "compared": compared,
            "differ": len(found), "shown": found[:shown]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--match", action="append",
                        help=f"a match (default: all): {', '.join(CARD_MATCHES + BID_MATCHES)}")
    parser.add_argument("--pairs", type=int, default=100, help="duplicate deals per match")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUT_JSON,
                        help="the JSON file the matches are added to")
    parser.add_argument("--ladder", action="store_true",
                        help="write results/tables/ladder.parquet from the matches played "
                             "and render results/README.md again (no match is played)")
    parser.add_argument("--disagreements", type=int, default=0, metavar="DEALS",
                        help="compare fastpimc:20's cards with colver's ismcts:50's over "
                             "DEALS deals, and keep the three clearest disagreements "
                             "(instead of matches)")
    args = parser.parse_args()
    try:
        import colver
    except ImportError:
        print("colver is not installed (the dev extra brings it): no match to play")
        return
    if args.ladder:
        write_ladder(args.out)
        print(f"{LADDER.relative_to(ROOT)} and results/README.md written")
        return
    if args.disagreements:
        found = disagreements("fastpimc:20", "ismcts:50", args.disagreements, 3, args.seed)
        _keep(args.out, "disagreements", found)
        print(json.dumps(found, indent=1))
        return
    matches = args.match or list(CARD_MATCHES + BID_MATCHES)
    for name in matches:
        print(f"{name}: {args.pairs} duplicate deals (colver {colver.__version__})")
        res = play_match(name, args.pairs, args.seed)
        res["colver"] = colver.__version__
        print(json.dumps(res, indent=1))
        _keep(args.out, "matches", [res])


#: The ladder's columns (``results/tables/ladder.parquet``), from each match's result.
LADDER_COLUMNS = ("match", "kind", "ours", "theirs", "card_player", "pairs", "thrown_in",
                  "mean_difference", "difference_low", "difference_high", "won", "won_low",
                  "won_high", "ours_ms_per_move", "theirs_ms_per_move", "legal_differs",
                  "contract_differs", "seed", "colver")


def write_ladder(path: Path = OUT_JSON) -> None:
    """``results/tables/ladder.parquet`` from the matches of ``path``, in the
    order of :data:`CARD_MATCHES` and :data:`BID_MATCHES` (others after), and the study's
    README rendered again with it."""
    import pandas as pd

    from belote_sim.report.study import write_study
    from belote_sim.runner.rundir import software, write_parquet

    matches = json.loads(path.read_text())["matches"]
    order = {name: i for i, name in enumerate(CARD_MATCHES + BID_MATCHES)}
    matches.sort(key=lambda m: (m["kind"] != "cards", order.get(m["match"], len(order)),
                                m["match"]))
    df = pd.DataFrame([{k: m.get(k) for k in LADDER_COLUMNS} for m in matches])
    write_parquet(df, LADDER, {"command": "bench_vs_colver", **software()})
    write_study(ROOT / "results")


def _keep(path: Path, key: str, rows: list[dict] | dict) -> None:
    """Add ``rows`` to ``key`` of the JSON file ``path`` (a match replaces its earlier
    result, the disagreements are replaced whole). The file is read again first:
    another sitting may have added its matches meanwhile."""
    kept = json.loads(path.read_text()) if path.is_file() else {}
    if key == "matches":
        names = {r["match"] for r in rows}
        rows = [m for m in kept.get(key, []) if m["match"] not in names] + rows
    kept[key] = rows
    path.write_text(json.dumps(kept, indent=1) + "\n")


if __name__ == "__main__":
    main()
