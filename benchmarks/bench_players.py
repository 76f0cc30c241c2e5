"""The double-dummy solver and the players: times on one core.

Run with ``make bench`` (or ``python benchmarks/bench_players.py [--deals N]``):

- exact double-dummy value from the start of a classic deal, for each of the four suit
  trumps (taker seat 0, seat 0 leads): mean, median and 95th percentile time, nodes per
  second;
- the make/fail query "can the takers reach 82" on the same positions;
- the same exact value, and every card's value at the first lead, on *bid* deals: deals
  the threshold bidder took in a suit (taker and first leader as dealt), where the
  takers' hands are stronger than random ones -- the positions ``pimc`` meets; both
  are also timed by bisection instead of the principal variation search (nodes
  compared);
- time of a ``pimc:20`` decision at the first lead of bid deals (the hardest one), and
  of a ``fastpimc:20`` decision there;
- time per decision of ``pimc:20`` and ``fastpimc:20`` with uniform worlds (and of
  ``heuristic`` beside them), from the arena's in-kernel timing, over whole deals: the
  same few deals for both, then ``fastpimc:20`` over more, with uniform worlds and with
  worlds given the calls (``bench_worlds.py`` times the two on the same deals);
- the same deals through the ``colver`` package when it is installed (a peer solver
  for belote contrée, in Rust; not a dependency): the exact value of every card at the
  first lead (``solve_scores``) against ours (``dd_move_values``), times and values,
  under the coinche preset's play rules with ``undertrump=free`` (colver's rule).

Writes ``results/bench_players.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from belote_sim import Rules, dd  # noqa: E402
from belote_sim.batch.runs import simulate_records  # noqa: E402
from belote_sim.dd import kit  # noqa: E402
from belote_sim.infer import knowledge  # noqa: E402
from belote_sim.kernels import layout as L  # noqa: E402
from belote_sim.kernels.rng import seed_stream  # noqa: E402
from belote_sim.play import pimc  # noqa: E402
from belote_sim.players.lookup import lookup_for, no_lookup  # noqa: E402
from belote_sim.players.seating import (  # noqa: E402
    ALL_FAMILIES,
    SeatView,
    families_for,
    same_players,
)
from belote_sim.players.spec import PolicySpec  # noqa: E402
from belote_sim.studies.arena import arena  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Players whose calls say nothing (random bidders), for a decision timed alone.
NO_BIDDERS = same_players(0, 0.25, 0, 0.0, *no_lookup(), True, ALL_FAMILIES)


def random_deals(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        order = rng.permutation(32)
        hands = np.zeros(4, dtype=np.int64)
        for s in range(4):
            for c in order[8 * s : 8 * s + 8]:
                hands[s] |= 1 << int(c)
        out.append(hands)
    return out


def bid_deals(n: int, seed: int) -> list[tuple[np.ndarray, int, int, int]]:
    """``(hands, trump, taker, leader)`` of the first ``n`` deals of run ``seed`` that
    the threshold bidder took in a suit (random play; only the deal and bidding matter)."""
    bid = PolicySpec.parse("threshold", "bid")
    play = PolicySpec.parse("random", "play")
    rules = Rules().to_array()
    recs = simulate_records(
        rules,
        same_players(bid.id, bid.value, play.id, play.value, *lookup_for(bid.id), None,
                     families_for(rules)),
        seed, 0, 8 * n,
    )
    out = []
    for r in recs:
        if 0 <= r[L.TRUMP] < 4 and len(out) < n:
            hands = r[L.HANDS : L.HANDS + 4].copy()
            out.append((hands, int(r[L.TRUMP]), int(r[L.TAKER]), int(r[L.TRICK_LEADER])))
    return out


def every_trump(deals: list[np.ndarray]) -> list[tuple[np.ndarray, int, int, int]]:
    """Each random deal under each suit trump, seat 0 taking and leading."""
    return [(hands, trump, 0, 0) for hands in deals for trump in range(4)]


def search_stats(res: dict) -> str:
    """Nodes per solve, table hits per probe, and the share of cut-offs the first move
    tried made (how good the move ordering is)."""
    return (
        f"{res['nodes'] / res['solves'] / 1e3:,.0f} k nodes a solve, table hits "
        f"{res['hits'] / max(res['probes'], 1):.1%} of {res['probes'] / res['solves'] / 1e3:,.0f}"
        f" k probes, first-move cut-offs {res['first_cutoffs'] / max(res['cutoffs'], 1):.1%}"
    )


def solve_all(positions: list[tuple[np.ndarray, int, int, int]], query: int | None,
              every_card: bool = False, opts: int = dd.OPT_ALL) -> dict:
    rules = Rules().to_array()
    cx = dd.new_context()
    solver = dd.Solver(rules, cx, dd.new_table(dd.DEAL_TABLE_BITS), dd.new_workspace())
    trick = np.zeros(4, dtype=np.int64)
    out = np.zeros(32, dtype=np.int64)
    times = []
    values = []
    stats = dict.fromkeys(dd.SEARCH_STATS, 0)
    for hands, trump, taker, leader in positions:
        hands = hands.copy()
        dd.set_context(cx, rules, trump, taker, opts)
        for slot in dd.SEARCH_STATS.values():
            cx[slot] = 0
        position = dd.Position(hands, trick, 0, leader, 1)
        t0 = time.perf_counter()
        if every_card:
            v = dd.dd_move_values(solver, position, hands[leader], out)
        elif query is None and opts & dd.OPT_PVS:  # one full window, as deal_value
            v = dd.dd_exact(solver, position)
        elif query is None:  # by bisection from 81
            v = dd.dd_value(solver, position, 81)
        else:
            v = dd.dd_reaches(solver, position, query)
        times.append(time.perf_counter() - t0)
        for name, slot in dd.SEARCH_STATS.items():
            stats[name] += int(cx[slot])
        values.append(int(v))
    t = np.array(times)
    return {
        **stats,
        "solves": len(times),
        "mean_ms": float(t.mean() * 1e3),
        "median_ms": float(np.median(t) * 1e3),
        "p95_ms": float(np.percentile(t, 95) * 1e3),
        "nodes_per_second": stats["nodes"] / float(t.sum()),
        "values": values,
    }


# Our card 8 * suit + rank (suits C D H S, ranks 7 8 9 T J Q K A) as colver numbers it
# (suits S H D C, ranks 7 8 9 J Q K T A).
_COLVER_RANK = (0, 1, 2, 6, 3, 4, 5, 7)


def _to_colver(card: int) -> int:
    return 8 * (3 - card // 8) + _COLVER_RANK[card % 8]


_FROM_COLVER = {_to_colver(c): c for c in range(32)}


def pimc_first_lead(positions: list[tuple[np.ndarray, int, int, int]], worlds: int,
                    exact_tricks: int = pimc.ALWAYS_EXACT) -> dict:
    """Time of the ``pimc:worlds`` decision at the first lead of each bid deal (nothing
    known yet but the leader's hand): the hardest decision of a deal, every card valued
    in every sampled world with eight cards in each hand (``exact_tricks =
    EXACT_TRICKS``: the ``fastpimc`` decision, each world played out instead)."""
    rules = Rules().to_array()
    sv = kit.new_solver_kit(20)
    trick = np.zeros(4, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    times = []
    nodes = 0
    for i, (hands, trump, taker, leader) in enumerate(positions):
        knowledge.reset_knowledge(sv.know)
        seed_stream(rng, 2026, i, 0)
        sv.context[dd.CX_NODES] = 0
        t0 = time.perf_counter()
        view = SeatView(leader, trick, 0, leader, 0, trump, taker, 4, 1, False)
        pimc.pimc_card(rules, pimc.Pimc(worlds, exact_tricks, False), hands[leader], hands, view,
                       rng, sv, NO_BIDDERS)
        times.append(time.perf_counter() - t0)
        nodes += int(sv.context[dd.CX_NODES])
    t = np.array(times)
    return {
        "decisions": len(times),
        "mean_ms": float(t.mean() * 1e3),
        "median_ms": float(np.median(t) * 1e3),
        "max_ms": float(t.max() * 1e3),
        "nodes_per_second": nodes / float(t.sum()),
        "nodes": nodes,
    }


def compare_colver(deals: list[np.ndarray]) -> dict:
    """Every card's exact value at the first lead (seat 0 leads and takes): colver's
    ``solve_scores`` against our ``dd_move_values``, on the same deals and trumps."""
    import colver

    # colver plays the contrée rule that a player unable to overtrump may play any card.
    rules = Rules.from_preset("coinche", undertrump="free").to_array()
    cx = dd.new_context()
    solver = dd.Solver(rules, cx, dd.new_table(dd.DEAL_TABLE_BITS), dd.new_workspace())
    trick = np.zeros(4, dtype=np.int64)
    out = np.zeros(32, dtype=np.int64)
    ours, theirs, equal = [], [], 0
    for hands in deals:
        seats = [[_to_colver(c) for c in range(32) if int(hands[s]) >> c & 1] for s in range(4)]
        for trump in range(4):
            env = colver.Env.deal_with_hands(3, seats)  # seat 0 leads
            env.set_contract(3 - trump, 80, 0, 0)
            env.set_phase_playing()
            t0 = time.perf_counter()
            res = env.solve_scores()
            theirs.append(time.perf_counter() - t0)
            dd.set_context(cx, rules, trump, 0, dd.OPT_ALL)
            t0 = time.perf_counter()
            best = dd.dd_move_values(solver, dd.Position(hands, trick, 0, 0, 1), hands[0], out)
            ours.append(time.perf_counter() - t0)
            # every card's value, not only the best one
            values = {_FROM_COLVER[c]: v for c, v in res["scores"]}
            equal += int(values == {c: int(out[c]) for c in values}
                         and best == max(values.values()))
    # Our time over colver's on its fastest and slowest quarter of the solves: where the
    # gap is (per-node speed shows most where both search few nodes).
    by_theirs = np.argsort(theirs)
    quarter = max(1, len(by_theirs) // 4)
    ours_a, theirs_a = np.array(ours), np.array(theirs)
    fastest, slowest = by_theirs[:quarter], by_theirs[-quarter:]
    return {
        "solves": len(ours),
        "equal": equal,
        "ratio_colver_fastest_quarter": float(ours_a[fastest].sum() / theirs_a[fastest].sum()),
        "ratio_colver_slowest_quarter": float(ours_a[slowest].sum() / theirs_a[slowest].sum()),
        "colver": colver.__version__,
        "ours_mean_ms": float(np.mean(ours) * 1e3),
        "ours_median_ms": float(np.median(ours) * 1e3),
        "colver_mean_ms": float(np.mean(theirs) * 1e3),
        "colver_median_ms": float(np.median(theirs) * 1e3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=25, help="deals for the solver timings")
    parser.add_argument(
        "--bid-deals", type=int, default=60, help="bid deals for the solver timings"
    )
    parser.add_argument(
        "--pimc-deals", type=int, default=4, help="deals for the pimc timing (0: skip)"
    )
    parser.add_argument(
        "--fastpimc-deals", type=int, default=100,
        help="more deals for the fastpimc timing (0: skip)",
    )
    parser.add_argument(
        "--first-leads", type=int, default=12,
        help="bid deals for the pimc:20 first-lead timing (0: skip)",
    )
    args = parser.parse_args()
    warm = every_trump(random_deals(1, 0))  # compile or load every query first
    solve_all(warm, None)
    solve_all(warm, 82)
    solve_all(warm, None, every_card=True)
    deals = random_deals(args.deals, 1)
    exact = solve_all(every_trump(deals), None)
    query = solve_all(every_trump(deals), 82)
    bid = bid_deals(args.bid_deals, 99)
    bid_exact = solve_all(bid, None)
    # the same without the principal variation search: the value by bisection
    bid_exact_bisect = solve_all(bid, None, opts=dd.OPT_ALL & ~dd.OPT_PVS)
    bid_every = solve_all(bid, None, every_card=True)
    # the same without the principal variation search: each card's value by bisection
    bid_every_bisect = solve_all(bid, None, every_card=True, opts=dd.OPT_ALL & ~dd.OPT_PVS)
    print(f"double-dummy exact value, {exact['solves']} (deal, trump) from the start, 1 core:")
    print(
        f"  mean {exact['mean_ms']:.1f} ms, median {exact['median_ms']:.1f} ms, "
        f"p95 {exact['p95_ms']:.1f} ms, {exact['nodes_per_second'] / 1e6:.1f} M nodes/s"
    )
    print(f"  {search_stats(exact)}")
    print(
        f"make/fail query (takers >= 82): mean {query['mean_ms']:.2f} ms, median "
        f"{query['median_ms']:.2f} ms, p95 {query['p95_ms']:.2f} ms "
        f"({exact['mean_ms'] / query['mean_ms']:.1f} x faster than the exact value)"
    )
    print(
        f"bid deals ({bid_exact['solves']}, taker and leader as dealt): exact value mean "
        f"{bid_exact['mean_ms']:.1f} ms (median {bid_exact['median_ms']:.1f}, p95 "
        f"{bid_exact['p95_ms']:.0f}; by bisection instead of one full-window principal "
        f"variation search {bid_exact_bisect['mean_ms']:.1f} ms, "
        f"{bid_exact_bisect['nodes'] / bid_exact['nodes']:.2f} x the nodes); every card's "
        "value at the first lead mean "
        f"{bid_every['mean_ms']:.1f} ms (median {bid_every['median_ms']:.1f}, p95 "
        f"{bid_every['p95_ms']:.0f}); by bisection instead of one principal variation "
        f"search per card {bid_every_bisect['mean_ms']:.1f} ms, "
        f"{bid_every_bisect['nodes'] / bid_every['nodes']:.2f} x the nodes"
    )
    print(f"  make/fail: {search_stats(query)}")
    print(f"  bid deals, exact value: {search_stats(bid_exact)}")
    print(f"  bid deals, every card: {search_stats(bid_every)}")
    first = fast_first = None
    if args.first_leads > 0:
        pimc_first_lead(bid[:1], 1)  # compile or load
        first = pimc_first_lead(bid[: args.first_leads], 20)
        print(
            f"pimc:20 decision at the first lead of {first['decisions']} bid deals: mean "
            f"{first['mean_ms']:.0f} ms (median {first['median_ms']:.0f}, max "
            f"{first['max_ms']:.0f}), {first['nodes'] / first['decisions'] / 1e6:.1f} M nodes "
            "per decision"
        )
        pimc_first_lead(bid[:1], 1, pimc.EXACT_TRICKS)  # compile or load
        fast_first = pimc_first_lead(bid[: args.first_leads], 20, pimc.EXACT_TRICKS)
        print(
            f"fastpimc:20 decision at the same first leads: mean {fast_first['mean_ms']:.2f} "
            f"ms (median {fast_first['median_ms']:.2f}, max {fast_first['max_ms']:.2f})"
        )
    pimc_s = heur_s = fast_s = fast_more_s = fast_given_s = float("nan")
    if args.pimc_deals > 0:
        res = arena("pimc:20:uniform", "heuristic", deals=args.pimc_deals, matches=0, seed=1)
        pimc_s, heur_s = res.seconds_per_decision
        fast = arena("fastpimc:20:uniform", "heuristic", deals=args.pimc_deals, matches=0,
                     seed=1)
        fast_s = fast.seconds_per_decision[0]
        print(
            f"time per decision over {args.pimc_deals} deals, uniform worlds: pimc:20 "
            f"{pimc_s * 1e3:.1f} ms over {res.decisions[0]} decisions, fastpimc:20 "
            f"{fast_s * 1e3:.2f} ms "
            f"({pimc_s / fast_s:.0f} x faster), heuristic {heur_s * 1e6:.2f} µs"
        )
    if args.fastpimc_deals > 0:
        more = arena("fastpimc:20:uniform", "heuristic", deals=args.fastpimc_deals, matches=0,
                     seed=2)
        fast_more_s = more.seconds_per_decision[0]
        given = arena("fastpimc:20", "heuristic", deals=args.fastpimc_deals, matches=0, seed=2)
        fast_given_s = given.seconds_per_decision[0]
        print(
            f"time per decision of fastpimc:20 over {args.fastpimc_deals} more deals: "
            f"{fast_more_s * 1e3:.2f} ms over {more.decisions[0]} decisions with uniform "
            f"worlds, {fast_given_s * 1e3:.2f} ms with worlds given the calls"
        )
    peer = importlib.util.find_spec("colver") is not None
    versus = compare_colver(deals) if peer else None
    if versus is None:
        print("colver: not installed (pip install colver to compare)")
    else:
        print(
            f"every card's value at the first lead, {versus['solves']} (deal, trump), coinche "
            f"play rules, undertrump=free: belote_sim mean {versus['ours_mean_ms']:.1f} ms (median "
            f"{versus['ours_median_ms']:.1f}), colver {versus['colver']} mean "
            f"{versus['colver_mean_ms']:.1f} ms (median {versus['colver_median_ms']:.1f}); "
            f"every card's value equal on {versus['equal']} of {versus['solves']}; ours "
            f"{versus['ours_mean_ms'] / versus['colver_mean_ms']:.2f} x colver's mean time "
            f"({versus['ratio_colver_fastest_quarter']:.2f} x on colver's fastest quarter of "
            f"the solves, {versus['ratio_colver_slowest_quarter']:.2f} x on its slowest)"
        )
    out = ROOT / "results" / "bench_players.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({
        "exact": {k: v for k, v in exact.items() if k != "values"},
        "query82": {k: v for k, v in query.items() if k != "values"},
        "bid_deals_exact": {k: v for k, v in bid_exact.items() if k != "values"},
        "bid_deals_exact_bisection": {
            k: v for k, v in bid_exact_bisect.items() if k != "values"
        },
        "bid_deals_every_card": {k: v for k, v in bid_every.items() if k != "values"},
        "bid_deals_every_card_bisection": {
            k: v for k, v in bid_every_bisect.items() if k != "values"
        },
        "pimc20_first_lead": first,
        "fastpimc20_first_lead": fast_first,
        "pimc20_seconds_per_decision": pimc_s,
        "fastpimc20_seconds_per_decision_same_deals": fast_s,
        "fastpimc20_seconds_per_decision": fast_more_s,
        "fastpimc20_given_seconds_per_decision": fast_given_s,
        "heuristic_seconds_per_decision": heur_s,
        "colver_installed": peer,
        "colver_comparison": versus,
    }, indent=2) + "\n")


if __name__ == "__main__":
    main()
