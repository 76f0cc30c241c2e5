"""Whole-deal exact values as the ``dd`` model of bid strength and the atlas solves them.

``python benchmarks/bench_solve_table.py [--deals N] [--seed S]`` (not part of ``make
bench``: it answers design questions; its figures go to the commit that acts on them):

- the table's size: each deal that the threshold bidder took (``bench_players.bid_deals``)
  solved from its first lead in a new generation of the table, as
  :func:`belote_sim.play.pimc.deal_value` does, with tables of 2^20 down to 2^12
  entries: total time and nodes per size (``dd.kit.SOLVE_TABLE_BITS`` is the
  size the solved outcomes use);
- at that size, other ways to the same exact value, against the one full-window
  search ``deal_value`` makes: ``dd_value``'s null window at 81 followed by one
  principal variation search on the side it found, a capot test (a null-window
  search at the capot value) then the card points without the capot bonus, and MTD(f),
  null-window searches from the fail-soft bound each returns. Every way's values are
  checked equal; then the nodes of ``dd_value``'s test at other guesses (:data:`GUESSES`:
  fixed points, the exact value, 10 points either side of it);
- the table's size for every card's value at the first lead (``dd_move_values``, a new
  generation per position): random deals under each
  suit trump and the coinche preset's play rules with ``undertrump=free``, the positions
  ``bench_players.py`` compares with colver's solver (``--every-card-deals``; 0 skips).

One core. Writes nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from bench_players import bid_deals, every_trump, random_deals  # noqa: E402

from belote_sim import (
    Rules,  # noqa: E402
    dd,  # noqa: E402
)
from belote_sim.cards import CAPOT_BONUS  # noqa: E402
from belote_sim.dd.kit import SOLVE_TABLE_BITS  # noqa: E402
from belote_sim.dd.table import CX_LAST_BONUS, CX_PTS  # noqa: E402

SIZES = (20, 18, 17, 16, 15, 14, 12)
WAYS = ("full window", "null window at 81 + PVS", "capot test + points", "MTD(f)")


def _exact(solver, position, way: str, top: int) -> int:
    """The takers' exact value of ``position`` (a whole deal, capot still possible) by
    ``way``; ``top``: all the card points and the last trick's bonus."""
    if way == WAYS[0]:
        return int(dd.dd_exact(solver, position))
    if way == WAYS[1]:
        return int(dd.dd_value(solver, position, 81))
    if way == WAYS[2]:
        if dd.dd_reaches(solver, position, top + CAPOT_BONUS):
            return top + CAPOT_BONUS
        return int(dd.dd_value(solver, position._replace(cap=0), 81))
    lo, hi, g = -1, top + CAPOT_BONUS + 1, 81
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = int(dd.dd_search(solver, position, beta - 1, beta))
        if g < beta:
            hi = g
        else:
            lo = g
    return lo


def solve(deals: list, bits: int, way: str) -> tuple[float, int, list[int]]:
    """Seconds, nodes and values of every deal solved by ``way`` with a table of
    ``2**bits`` entries, a new generation per deal."""
    rules = Rules().to_array()
    cx = dd.new_context()
    solver = dd.Solver(rules, cx, dd.new_table(bits), dd.new_workspace())
    trick = np.zeros(4, dtype=np.int64)
    seconds, nodes, values = 0.0, 0, []
    for hands, trump, taker, leader in deals:
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)
        cx[dd.CX_NODES] = 0
        top = int(cx[CX_PTS : CX_PTS + 32].sum() + cx[CX_LAST_BONUS])  # as the context counts
        t0 = time.perf_counter()
        values.append(_exact(solver, dd.Position(hands.copy(), trick, 0, leader, 1), way, top))
        seconds += time.perf_counter() - t0
        nodes += int(cx[dd.CX_NODES])
    return seconds, nodes, values


#: Null-window tests before the principal variation search (``dd_value``'s guess), each
#: ``(label, at, offset)``: at the fixed point ``at``, or, where ``at`` is None, at the
#: exact value plus ``offset``.
GUESSES = (
    ("81", 81, 0), ("120", 120, 0), ("160", 160, 0), ("200", 200, 0),
    ("exact", None, 0), ("exact + 10", None, 10), ("exact - 10", None, -10),
)


def guess_nodes(deals: list, values: list[int], at: int | None, offset: int) -> int:
    """Nodes of ``dd_value`` over ``deals`` (a new table, as :func:`solve`) with the
    null-window test at ``at``, or at the exact value (``values``) plus ``offset`` where
    ``at`` is None (:data:`GUESSES`)."""
    rules = Rules().to_array()
    cx = dd.new_context()
    solver = dd.Solver(rules, cx, dd.new_table(SOLVE_TABLE_BITS), dd.new_workspace())
    trick = np.zeros(4, dtype=np.int64)
    nodes = 0
    for (hands, trump, taker, leader), value in zip(deals, values, strict=True):
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)
        cx[dd.CX_NODES] = 0
        guess = value + offset if at is None else at
        got = int(dd.dd_value(solver, dd.Position(hands.copy(), trick, 0, leader, 1), guess))
        assert got == value, f"guess {guess}: values differ"
        nodes += int(cx[dd.CX_NODES])
    return nodes


def solve_every_card(positions: list, bits: int) -> tuple[float, int, list[int]]:
    """Seconds, nodes and values of every card's value at the first lead of each of
    ``positions`` (seat 0 leads), with a table of ``2**bits`` entries."""
    rules = Rules.from_preset("coinche", undertrump="free").to_array()
    cx = dd.new_context()
    solver = dd.Solver(rules, cx, dd.new_table(bits), dd.new_workspace())
    trick = np.zeros(4, dtype=np.int64)
    out = np.zeros(32, dtype=np.int64)
    seconds, nodes, values = 0.0, 0, []
    for hands, trump, taker, leader in positions:
        dd.set_context(cx, rules, trump, taker, dd.OPT_ALL)
        cx[dd.CX_NODES] = 0
        t0 = time.perf_counter()
        dd.dd_move_values(solver, dd.Position(hands.copy(), trick, 0, leader, 1),
                          hands[leader], out)
        seconds += time.perf_counter() - t0
        nodes += int(cx[dd.CX_NODES])
        values += [int(out[c]) for c in range(32) if int(hands[leader]) >> c & 1]
    return seconds, nodes, values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--every-card-deals", type=int, default=100)
    args = parser.parse_args()
    deals = bid_deals(args.deals, args.seed)
    solve(deals[:2], SOLVE_TABLE_BITS, WAYS[0])  # compile or load
    print(f"{len(deals)} deals the threshold bidder took, exact value from the first lead")
    reference = None
    for bits in SIZES:
        seconds, nodes, values = solve(deals, bits, WAYS[0])
        reference = reference or values
        assert values == reference, f"values differ with 2^{bits} entries"
        print(f"  table 2^{bits:<2} {seconds:7.2f} s  {nodes / 1e6:8.1f} M nodes")
    for way in WAYS:
        for _ in range(2):  # twice: the machine's speed drifts
            seconds, nodes, values = solve(deals, SOLVE_TABLE_BITS, way)
            assert values == reference, f"{way}: values differ"
            print(f"  {way:<24} {seconds:7.2f} s  {nodes / 1e6:8.1f} M nodes"
                  f"  (table 2^{SOLVE_TABLE_BITS})")
    for label, at, offset in GUESSES:
        print(f"  null window at {label:<12} + PVS        "
              f"{guess_nodes(deals, reference, at, offset) / 1e6:8.1f} M nodes"
              f"  (table 2^{SOLVE_TABLE_BITS})")
    if args.every_card_deals <= 0:
        return
    positions = every_trump(random_deals(args.every_card_deals, 1))
    solve_every_card(positions[:2], dd.DEAL_TABLE_BITS)  # compile or load
    print(f"every card's value at the first lead of {len(positions)} (deal, trump), "
          "coinche play rules with undertrump=free")
    reference = None
    for _ in range(2):  # twice: the machine's speed drifts
        for bits in SIZES:
            seconds, nodes, values = solve_every_card(positions, bits)
            reference = reference or values
            assert values == reference, f"every card: values differ with 2^{bits} entries"
            print(f"  table 2^{bits:<2} {seconds / len(positions) * 1e3:7.2f} ms a position"
                  f"  {nodes / 1e6:8.1f} M nodes")


if __name__ == "__main__":
    main()
