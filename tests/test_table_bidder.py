"""The ``table`` bidder (``--bid-policy table[:MIN_GAIN]``): its lookup is the shipped
atlas's, shrunk level by level; the engine makes exactly the calls a naive reading of
that lookup makes; per-side bidders in the arena."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from belote_sim.bid import table_bidder
from belote_sim.cards import parse_card
from belote_sim.errors import BeloteError
from belote_sim.players import lookup
from belote_sim.rules import Rules
from belote_sim.runner.rundir import read_provenance
from belote_sim.studies.arena import arena
from belote_sim.studies.atlas import (
    SHIPPED,
    bid_table,
    bidder_lookup,
    class_features,
    ship_atlases,
    shipped_atlas,
)
from belote_sim.studies.simulate import simulate, simulated_deals
from tests.reference.retourne import deal_before_bidding

SUITS = "CDHS"


@pytest.fixture(scope="module")
def small_atlas():
    return bid_table("classic", 400, seed=9)


# -- The lookup ---------------------------------------------------------------------------


def naive_key(level: int, feats: dict[str, int]) -> int:
    key = level
    for name, radix in zip(lookup.FEATURES, lookup.RADIX, strict=True):
        key = key * radix + (feats[name] if name in lookup.LEVELS[level] else 0)
    return key


def naive_shrunk_gain(feats_frame, row) -> list[float]:
    """The gain of ``row``'s class at every level, finest first, shrunk from the coarsest
    down: each level's sum over the rows that share its kept features."""
    gains = []
    prior = 0.0
    for level in reversed(range(lookup.N_LEVELS)):
        same = np.ones(len(feats_frame), dtype=bool)
        for name in lookup.LEVELS[level]:
            same &= feats_frame[name].to_numpy() == row[name]
        n = feats_frame.n[same].sum()
        gain2 = feats_frame.gain2[same].sum()
        prior = (gain2 / 2 + lookup.PRIOR_DECISIONS * prior) / (
            n + lookup.PRIOR_DECISIONS
        )
        gains.append(prior)
    return gains[::-1]


def test_lookup_holds_every_class_of_every_level_shrunk_towards_its_parent(small_atlas):
    keys, gains = bidder_lookup(small_atlas)
    assert (np.diff(keys) > 0).all()
    table = dict(zip(keys.tolist(), gains.tolist(), strict=True))
    feats = class_features(small_atlas)
    for i in (0, len(feats) // 3, len(feats) // 2, len(feats) - 1):
        row = feats.iloc[i]
        expected = naive_shrunk_gain(feats, row)
        for level in range(lookup.N_LEVELS):
            got = table[naive_key(level, {f: int(row[f]) for f in lookup.FEATURES})]
            assert got == pytest.approx(expected[level], rel=1e-12, abs=1e-9)
    # A class seen once sits between its own mean and its parent's.
    single = feats[feats.n == 1].iloc[0]
    own = single.gain2 / 2
    levels = naive_shrunk_gain(feats, single)
    assert min(own, levels[1]) <= levels[0] <= max(own, levels[1])


def test_shipped_lookups_are_derived_from_the_shipped_atlases():
    for preset, (deals, seed) in SHIPPED.items():
        atlas = shipped_atlas(preset)
        prov = read_provenance(lookup.DATA_DIR / f"atlas-{preset}.parquet")
        assert (prov["deals"], prov["seed"], prov["bid_policy"]) == (deals, seed, "threshold:50")
        keys, gains = bidder_lookup(atlas)
        with np.load(lookup.lookup_path(preset)) as shipped:
            np.testing.assert_array_equal(shipped["keys"], keys)
            np.testing.assert_array_equal(shipped["gains"], gains)
    # What the players carry: both lookups in one, coinche's keys offset.
    keys, gains = lookup.shipped_lookup()
    classic = np.load(lookup.lookup_path("classic"))
    coinche = np.load(lookup.lookup_path("coinche"))
    np.testing.assert_array_equal(keys, np.concatenate(
        [classic["keys"], coinche["keys"] + lookup.COINCHE_BASE]))
    np.testing.assert_array_equal(gains, np.concatenate([classic["gains"], coinche["gains"]]))
    assert classic["keys"].max() < lookup.COINCHE_BASE


def test_make_atlas_writes_the_atlas_sums_and_the_lookup(tmp_path, monkeypatch):
    monkeypatch.setattr(lookup, "DATA_DIR", tmp_path)
    monkeypatch.setitem(SHIPPED, "classic", (300, 5))
    written = ship_atlases(["classic"])
    assert [p.name for p in written] == ["atlas-classic.parquet", "bidder-classic.npz"]
    expected = bid_table("classic", 300, seed=5)
    got = shipped_atlas("classic")
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs["provenance"]["deals"] == 300
    keys, gains = bidder_lookup(expected)
    with np.load(tmp_path / "bidder-classic.npz") as data:
        np.testing.assert_array_equal(data["keys"], keys)
        np.testing.assert_array_equal(data["gains"], gains)


# -- The engine's calls -------------------------------------------------------------------


def naive_features(hand: set[int], strain: int) -> dict[str, int]:
    """The class features of ``hand`` for a suit ``strain`` from card strings."""
    names = {f"{'789TJQKA'[c & 7]}{SUITS[c >> 3]}" for c in hand}
    trumps = [c for c in names if c[1] == SUITS[strain]]
    honours = (("J", table_bidder.HOLD_JACK), ("9", table_bidder.HOLD_NINE),
               ("A", table_bidder.HOLD_ACE), ("T", table_bidder.HOLD_TEN))
    holding = sum(bit for rank, bit in honours if rank + SUITS[strain] in names)
    if "K" + SUITS[strain] in names and "Q" + SUITS[strain] in names:
        holding |= table_bidder.HOLD_BELOTE
    others = [s for s in SUITS if s != SUITS[strain]]
    return {
        "holding": holding,
        "trumps": len(trumps),
        "side_aces": sum("A" + s in names for s in others),
        "side_tens": sum("T" + s in names for s in others),
        "voids": sum(not any(c[1] == s for c in names) for s in others),
    }


def naive_gain(table: dict[int, float], feats: dict[str, int]) -> float | None:
    for level in range(lookup.N_LEVELS):
        key = naive_key(level, feats)
        if key in table:
            return table[key]
    return None


def naive_table_call(table, min_gain, rnd, position, hand, retourne) -> str:
    turned = retourne >> 3
    suits = [turned] if rnd == 1 else [s for s in range(4) if s != turned]
    best, call = None, "pass"
    for s in suits:
        feats = {"round": rnd, "position": position, "strain": 0, "value": 0,
                 "retourne": (retourne & 7) + 1, **naive_features(hand, s)}
        g = naive_gain(table, feats)
        if g is not None and (best is None or g > best):
            best, call = g, "take" if rnd == 1 else SUITS[s]
    return call if best is not None and best >= min_gain else "pass"


@pytest.mark.parametrize("min_gain", [0.0, 15.0])
def test_the_engine_makes_the_calls_a_naive_reading_of_the_lookup_makes(min_gain):
    keys, gains = lookup.shipped_lookup()
    retourne = keys < lookup.COINCHE_BASE
    table = dict(zip(keys[retourne].tolist(), gains[retourne].tolist(), strict=True))
    rules = Rules()
    checked = 0
    for deal in simulated_deals(rules, 250, seed=3, bid_policy=f"table:{min_gain:g}"):
        pack = [parse_card(c) for c in deal["pack"]]
        first = (deal["dealer"] + 1) % 4
        hands, retourne = deal_before_bidding(rules, pack, first)
        for j, call in enumerate(deal["calls"]):
            seat = (first + j) % 4
            expected = naive_table_call(table, min_gain, j // 4 + 1, j % 4, hands[seat],
                                        retourne)
            assert call == expected, (deal["calls"], j)
            checked += 1
    assert checked > 250


def test_a_higher_minimum_gain_takes_less_often():
    rates = [simulate(Rules(), 4000, seed=2, bid_policy=f"table:{g}",
                      play_policy="heuristic").metric("take_rate").value for g in (-20, 0, 20)]
    assert rates[0] > rates[1] > rates[2] > 0


def test_the_coinche_table_bidder_bids_only_the_lowest_legal_value():
    deals = simulated_deals(Rules.from_preset("coinche"), 200, seed=5, bid_policy="table")
    bids = 0
    for deal in deals:
        high = 70
        for call in deal["calls"]:
            assert call not in ("coinche", "surcoinche")  # it never doubles
            if call != "pass":
                value = int(re.match(r"\d+", call).group())
                assert value == (80 if high == 70 else high + 10)
                high = value
                bids += 1
    assert bids > 50


def test_the_table_bidder_refuses_an_auction_it_has_no_atlas_for():
    with pytest.raises(BeloteError, match="atlases for classic and coinche only"):
        simulate(Rules.from_preset("tout-atout"), 10, bid_policy="table")
    with pytest.raises(BeloteError, match="three-player"):
        simulate(Rules.from_preset("three-player"), 10, bid_policy="table")
    # Other options than the auction's keep the classic atlas.
    simulate(Rules.from_preset("litige"), 10, bid_policy="table")


def test_cli_refuses_the_table_bidder_on_tout_atout(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "belote_sim", "simulate", "--rules", "tout-atout",
         "--deals", "10", "--bid-policy", "table", "--out", str(tmp_path / "run")],
        capture_output=True, text=True,
    )
    assert proc.returncode == 2
    assert "atlases for classic and coinche only" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


# -- The arena's per-side bidders ---------------------------------------------------------


def test_the_same_bidders_on_both_sides_give_exactly_no_difference():
    res = arena("heuristic", "heuristic", deals=300, matches=0, seed=1, a_bid="table",
                b_bid="table")
    assert res.mean_score_diff == 0.0 and res.diff_low == res.diff_high == 0.0


def test_swapping_the_bidders_negates_the_difference():
    ab = arena("heuristic", "heuristic", deals=400, matches=0, seed=2, a_bid="table",
               b_bid="threshold")
    ba = arena("heuristic", "heuristic", deals=400, matches=0, seed=2, a_bid="threshold",
               b_bid="table")
    assert ab.mean_score_diff != 0.0
    assert ab.mean_score_diff == -ba.mean_score_diff
    assert "A bids table:0, B bids threshold:50" in ab.report()
    prov = ab.provenance()
    assert (prov["a_bid"], prov["b_bid"]) == ("table:0", "threshold:50")


def test_cli_arena_with_per_side_bidders(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "belote_sim", "arena", "--a", "heuristic", "--b", "heuristic",
         "--a-bid", "table:5", "--b-bid", "threshold", "--deals", "200", "--matches", "0",
         "--quiet", "--out", str(tmp_path / "a")],
        capture_output=True, text=True, check=True,
    )
    assert "A bids table:5, B bids threshold:50" in proc.stdout
    assert read_provenance(tmp_path / "a" / "summary.parquet")["a_bid"] == "table:5"
