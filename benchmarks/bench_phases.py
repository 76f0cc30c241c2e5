"""Where the time of one classic deal goes: a per-phase breakdown.

Run with ``python benchmarks/bench_phases.py [--deals N] [--heuristic]`` (``make bench``
runs it). One thread plays the same classic deals (random bidding at 0.25 and random
play, or with ``--heuristic`` threshold bidding at 50 and heuristic play) through the
engine's own phase functions, stopping after each phase in turn; each phase's cost is
the difference between two adjacent stops, in nanoseconds per deal (best of 3):

* the stream and the shuffle; the record's reset (``_start``); dealing (packets, the
  retourne, the taker's and the others' last cards);
* bidding; declarations and belote; the trick loop; scoring (totals, outcome);
* the counters (``accumulate``).

The full deal is also timed through :func:`belote_sim.batch.runs.simulate_chunk` (one
block), which is what ``make bench``'s engine figure measures, so the stops can be held
against the real thing.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from belote_sim import Rules
from belote_sim.batch import runs
from belote_sim.batch.counting import accumulate
from belote_sim.game.deals import _start
from belote_sim.game.phases import bid_retourne, close_bidding, read_declarations, total_points
from belote_sim.game.state import TrickPlan, new_workspace, no_script
from belote_sim.game.tricks import play_tricks
from belote_sim.kernels.deal import deal_packet, deal_rest, shuffle_pack
from belote_sim.kernels.layout import FIRST_HAND, HANDS, N_COUNTERS, RETOURNE, ST_OK, TAKER, TRUMP
from belote_sim.kernels.rng import seed_stream
from belote_sim.kernels.scoring import score_two_sides
from belote_sim.kernels.trick import side_of
from belote_sim.players.lookup import no_lookup
from belote_sim.players.registry import BID_RANDOM, BID_THRESHOLD, PLAY_HEURISTIC, PLAY_RANDOM
from belote_sim.players.seating import families_for, same_players

#: The stops, in the order of a deal: each phase's cost is its stop minus the one before.
PHASES = (
    "stream and shuffle",
    "record reset",
    "dealing",
    "bidding",
    "declarations, belote",
    "trick loop",
    "scoring",
    "counters",
)


@numba.njit(cache=False, nogil=True)
def _deals_until(rules, players, seed, n, stop):
    """Play classic deals ``0 .. n-1`` up to and including phase ``stop``."""
    ws = new_workspace(players, False, False, False)
    script = no_script()
    counters = np.zeros(N_COUNTERS, dtype=np.int64)
    rec, pack, hands, sides = ws.rec, ws.pack, ws.hands, ws.sides
    acc = 0
    for i in range(n):
        seed_stream(ws.rng, seed, i, 0)
        shuffle_pack(pack, ws.rng)
        if stop == 0:
            acc += pack[0]
            continue
        dealer = i % 4
        _start(rec, hands, pack, np.int64(dealer), np.int64(0), np.int64(0), np.int64(4))
        if stop == 1:
            acc += rec[FIRST_HAND]
            continue
        fh = rec[FIRST_HAND]
        pos = deal_packet(pack, 0, hands, 4, fh, 3)
        pos = deal_packet(pack, pos, hands, 4, fh, 2)
        rec[RETOURNE] = pack[pos]
        pos += 1
        if stop == 2:
            # Deal the rest as if the first hand took: what dealing costs a taken deal.
            hands[fh] |= 1 << rec[RETOURNE]
            deal_rest(pack, pos, hands, 4, fh, fh)
            acc += hands[0]
            continue
        status, taker, trump = bid_retourne(rules, players, script, ws, 2, -1)
        if status == ST_OK:
            status = close_bidding(rec, taker, script)
        if taker >= 0:
            rec[TAKER] = taker
            rec[TRUMP] = trump
            hands[taker] |= 1 << rec[RETOURNE]
            deal_rest(pack, pos, hands, 4, fh, taker)
            for s in range(4):
                rec[HANDS + s] = hands[s]
                sides[s] = side_of(s, 4, taker)
        if stop == 3 or taker < 0:
            if taker < 0 and stop >= 7:
                accumulate(rules, rec, counters)
            acc += taker
            continue
        read_declarations(rules, ws, False, True)
        if stop == 4:
            acc += rec[HANDS]
            continue
        play_tricks(rules, players, script, ws, TrickPlan(8, -1, 0, False))
        if stop == 5:
            acc += rec[HANDS]
            continue
        total_points(rec, 4)
        score_two_sides(rec, sides[taker], rules)
        if stop == 6:
            acc += rec[HANDS]
            continue
        accumulate(rules, rec, counters)
    return acc + counters.sum()


def _best_ns(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e9


def breakdown(deals: int, heuristic: bool) -> dict[str, float]:
    """Nanoseconds per deal of each phase (:data:`PHASES`), the total of the stops, and
    the engine's own deal (``simulate_chunk`` on one block) measured beside them."""
    rules = Rules().to_array()
    if heuristic:
        players = same_players(BID_THRESHOLD, 50.0, PLAY_HEURISTIC, 0.0, *no_lookup(), None,
                               families_for(rules))
    else:
        players = same_players(BID_RANDOM, 0.25, PLAY_RANDOM, 0.0, *no_lookup(), None,
                               families_for(rules))
    numba.set_num_threads(1)
    for stop in range(len(PHASES)):
        _deals_until(rules, players, 1, 100, stop)
    runs.simulate_chunk(rules, players, 1, 0, 100, 1, False)
    stops = [
        _best_ns(lambda s=stop: _deals_until(rules, players, 1, deals, s), deals)
        for stop in range(len(PHASES))
    ]
    out = {name: stops[0] if j == 0 else stops[j] - stops[j - 1]
           for j, name in enumerate(PHASES)}
    out["all phases"] = stops[-1]
    out["engine (simulate_chunk)"] = _best_ns(
        lambda: runs.simulate_chunk(rules, players, 1, 0, deals, 1, False), deals
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--heuristic", action="store_true",
                        help="threshold bidding and heuristic play instead of random")
    args = parser.parse_args()
    table = breakdown(args.deals, args.heuristic)
    kind = "threshold + heuristic" if args.heuristic else "random"
    print(f"one classic deal, {kind} players, one thread (ns per deal, best of 3):")
    for name, ns in table.items():
        print(f"  {name:<26} {ns:8.1f}")


if __name__ == "__main__":
    main()
