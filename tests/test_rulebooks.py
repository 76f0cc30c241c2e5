"""The club disputes (RULES.md sections 7.4, 8 and 9) and the rulebook presets (section
10): the worked examples of section 8 with their figures, every new option against the
plain-Python reference and against its default, the auction after a coinche, the
ladder up to 270, the deal in packets, the match's end, the refused combination, and
the presets against the spec's own table."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hand_built import coinche_pack, engine_play_out, normalize_deal
from reference.coinche import naive_coinche_replay
from reference.retourne import naive_retourne_replay
from reference.two_player import naive_two_player_replay

from belote_sim import Rules, replay
from belote_sim.errors import DealLogError, IllegalPlayError, RulesConflictError
from belote_sim.kernels.api import score_deal
from belote_sim.rules import PRESETS, RULEBOOK_SOURCES
from belote_sim.studies.simulate import play_match, simulated_deals

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "spec" / "RULES.md"
RULEBOOKS = tuple(RULEBOOK_SOURCES)


def coinche(**options) -> Rules:
    """``coinche`` as section 8's examples read it: no rounding unless said."""
    return Rules.from_preset("coinche", **{"round_to_ten": False, **options})


def score(rules: Rules, points, belote=(0, 0), contract=None, capot=None, decl=(0, 0)):
    """``(outcome, deal_score)`` of a deal the takers (side 0) played."""
    s = score_deal(rules, trick_points=points, taker_side=0, capot_side=capot,
                   belote=belote, declaration_points=decl, contract=contract)
    return s["outcome"], s["deal_score"]


# --------------------------------------------------------------------------------------
# Section 8: the worked examples, figure by figure
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "m", "expected"), [
    (coinche(), 2, [20, 360]),
    (coinche(belote_prenable=True), 2, [0, 380]),
    (coinche(coinche_base=162), 2, [20, 362]),
    (coinche(coinche_multiplies="all"), 2, [20, 520]),
    (coinche(coinche_multiplies="base"), 2, [20, 420]),
    (coinche(coinche_scoring="points", coinche_multiplies="all"), 2, [20, 320]),
    (coinche(coinche_scoring="bid"), 2, [0, 200]),
    (coinche(surcoinche_mult=3), 3, [20, 460]),
    (Rules.from_preset("colver"), 2, [0, 382]),
])
def test_example_a_a_failed_coinched_100(rules, m, expected):
    # 100H coinched, takers C = 72 and B_T = 20 (Q_T = 92 < 100), defenders C = 90
    assert score(rules, (72, 90), belote=(20, 0), contract=(100, m)) == ("dedans", expected)


@pytest.mark.parametrize(("rules", "outcome", "expected"), [
    (coinche(), "made", [161, 101]),
    (coinche(coinche_scoring="points", coinche_multiplies="all"), "made", [81, 101]),
    (coinche(coinche_scoring="bid"), "made", [80, 0]),
    (coinche(eighty_needs=82), "dedans", [0, 260]),
    (coinche(beat_defence=True), "dedans", [0, 260]),
])
def test_example_b_an_80_at_81_points(rules, outcome, expected):
    assert score(rules, (81, 81), belote=(0, 20), contract=(80, 1)) == (outcome, expected)


@pytest.mark.parametrize(("rules", "outcome", "expected"), [
    (coinche(), "made", [185, 87]),
    (coinche(contract_counts="cards"), "dedans", [20, 250]),
])
def test_example_c_belote_in_the_contract_test(rules, outcome, expected):
    assert score(rules, (75, 87), belote=(20, 0), contract=(90, 1)) == (outcome, expected)


@pytest.mark.parametrize(("rules", "takers"), [
    (coinche(), 400),
    (coinche(coinche_base=162), 492),
    (coinche(coinche_base=162, capot_total=250), 490),
    (coinche(coinche_multiplies="all"), 560),
])
def test_example_d_a_coinched_110_made_with_capot(rules, takers):
    got = score(rules, (162, 0), belote=(20, 0), contract=(110, 2), capot=0)
    assert got == ("made", [takers, 0])


@pytest.mark.parametrize(("rules", "contract", "points", "capot", "outcome", "expected"), [
    (coinche(), (250, 1), (162, 0), 0, "made", [522, 0]),
    (coinche(capot_value=270), (270, 1), (162, 0), 0, "made", [542, 0]),
    (coinche(capot_bid="flat"), (250, 1), (162, 0), 0, "made", [520, 0]),
    (coinche(capot_bid="flat"), (250, 4), (162, 0), 0, "made", [2020, 0]),
    (coinche(capot_bid="flat", belote_prenable=True), (250, 2), (152, 10), None, "dedans",
     [0, 1020]),
    (coinche(capot_bid="flat"), (250, 2), (152, 10), None, "dedans", [20, 1000]),
])
def test_example_e_the_capot_bid(rules, contract, points, capot, outcome, expected):
    got = score(rules, points, belote=(20, 0), contract=contract, capot=capot)
    assert got == (outcome, expected)


@pytest.mark.parametrize(("counts", "outcome", "expected"), [
    ("all", "made", [95, 87]),
    ("cards", "dedans", [20, 162]),
])
def test_retourne_example_what_the_contract_test_counts(counts, outcome, expected):
    rules = Rules.from_preset("classic", contract_counts=counts)
    assert score(rules, (75, 87), belote=(20, 0)) == (outcome, expected)


def test_a_tie_is_a_dedans_under_tie_rule_defenders():
    assert score(Rules.from_preset("classic", tie_rule="defenders"), (81, 81)) == (
        "dedans", [0, 162])
    assert score(Rules.from_preset("classic"), (81, 81)) == ("made", [81, 81])


@pytest.mark.parametrize(("capot_total", "defenders"), [(252, 272), (250, 270), (162, 182)])
def test_the_defenders_capot_on_a_dedans_scores_capot_total(capot_total, defenders):
    rules = Rules.from_preset("classic", capot_total=capot_total)
    got = score(rules, (0, 162), belote=(0, 20), capot=1)
    assert got == ("dedans", [0, defenders])


@pytest.mark.parametrize(("points", "up_from", "expected"), [
    ((65, 97), 5, [170, 100]),  # 165 rounds up from 5 ...
    ((65, 97), 6, [160, 100]),  # ... and down from 6
    ((66, 96), 6, [170, 100]),  # 166 rounds up either way
    ((106, 56), 6, [190, 160]),  # Cannes: "156 valant 160" (E: 56 + a carré of 100)
])
def test_round_up_from(points, up_from, expected):
    rules = coinche(round_to_ten=True, round_up_from=up_from)
    decl = (0, 100) if points[1] == 56 else (20, 0)
    assert score(rules, points, decl=decl, contract=(80, 1)) == ("made", expected)


def test_the_coinche_scoring_options_have_no_effect_under_points_annonces():
    base = score(coinche(coinche_scoring="bid"), (72, 90), belote=(20, 0), contract=(100, 2))
    for options in ({"coinche_base": 162}, {"coinche_multiplies": "all"},
                    {"belote_prenable": True}):
        rules = coinche(coinche_scoring="bid", **options)
        assert score(rules, (72, 90), belote=(20, 0), contract=(100, 2)) == base


# --------------------------------------------------------------------------------------
# Every option: the engine against the plain-Python reference, and against its default
# --------------------------------------------------------------------------------------

#: Each new option value (or new value of an old option) and the presets it acts in.
OPTION_CASES = [
    ("coinche", {"coinche_scoring": "points", "coinche_multiplies": "all"}),
    ("coinche", {"coinche_scoring": "bid"}),
    ("coinche", {"coinche_base": 162}),
    ("coinche", {"coinche_multiplies": "all"}),
    ("coinche", {"coinche_multiplies": "base"}),
    ("coinche", {"surcoinche_mult": 3}),
    ("coinche", {"capot_bid": "flat"}),
    ("coinche", {"capot_value": 270}),
    ("coinche", {"capot_total": 250}),
    ("coinche", {"capot_total": 162}),
    ("coinche", {"belote_prenable": True}),
    ("coinche", {"contract_counts": "cards"}),
    ("coinche", {"beat_defence": True}),
    ("coinche", {"eighty_needs": 82}),
    ("coinche", {"round_up_from": 6}),
    ("coinche", {"coinche_packets": "3-2-3"}),
    ("coinche", {"coinche_packets": "2-3-3"}),
    ("coinche", {"coinche_packets": "4-4"}),
    ("coinche", {"coinche_packets": "3-3+2"}),
    ("coinche", {"after_coinche": "three-passes"}),
    ("classic", {"capot_total": 250}),
    ("classic", {"capot_total": 162}),
    ("classic", {"contract_counts": "cards"}),
    ("classic", {"tie_rule": "defenders"}),
    ("three-player", {"capot_total": 250}),
    ("three-player", {"contract_counts": "cards"}),
    ("three-player", {"tie_rule": "defenders"}),
    ("stock-2p", {"contract_counts": "cards"}),
    ("stock-2p", {"tie_rule": "defenders"}),
    ("tout-atout", {"capot_total": 250}),
]


def _oracle(deal: dict) -> dict:
    rules = Rules.from_spec(deal["rules"])
    if rules.contract == "coinche":
        return naive_coinche_replay(deal)
    if rules.players == 2:
        return naive_two_player_replay(deal)
    return naive_retourne_replay(deal)


def _results(deal: dict) -> tuple:
    return (deal.get("calls"), deal.get("hands"), deal.get("outcome"),
            deal.get("deal_score"), deal.get("contract"))


#: What the comparison with the default also sets: a capot is rare under random play,
#: and rounding to ten hides most of its 2 points.
CAPOT_CASES = {"round_to_ten": False}


@pytest.mark.parametrize(("preset", "options"), OPTION_CASES,
                         ids=[f"{p}-{o}" for p, o in OPTION_CASES])
def test_each_option_plays_as_the_reference_says_and_changes_deals(preset, options):
    also, play = {}, "random"
    if "capot_total" in options:
        also, play = (CAPOT_CASES if preset == "coinche" else {}), "heuristic"
    rules = Rules.from_preset(preset, **also, **options)
    deals = simulated_deals(rules, 400, seed=5, bid_policy="random", play_policy=play)
    for d in deals:
        assert normalize_deal(_oracle(d)) == normalize_deal(d)
    default = simulated_deals(Rules.from_preset(preset, **also), 400, seed=5,
                              bid_policy="random", play_policy=play)
    changed = sum(_results(a) != _results(b) for a, b in zip(deals, default, strict=True))
    assert changed > 0, f"{options} changed none of 400 deals"


@pytest.mark.parametrize("preset", RULEBOOKS)
def test_rulebook_deals_play_as_the_reference_says(preset):
    for bid, play in (("random", "random"), ("threshold", "heuristic")):
        for d in simulated_deals(Rules.from_preset(preset), 300, seed=3, bid_policy=bid,
                                 play_policy=play):
            assert normalize_deal(_oracle(d)) == normalize_deal(d)
            assert replay({k: d[k] for k in ("rules", "dealer", "pack", "calls", "plays")}) == d


# --------------------------------------------------------------------------------------
# RULES 7.4: the auction after a coinche, the ladder up to 270, the packets
# --------------------------------------------------------------------------------------

H = ["AH TH KH QH JH 9H 8H 7H", "AS TS KS QS JS 9S 8S 7S", "AD TD KD QD JD 9D 8D 7D",
     "AC TC KC QC JC 9C 8C 7C"]


def deal_of(rules, calls, dealer=3, hands=H) -> dict:
    """A deal of ``hands`` (dealt 3-3-2 from the first hand), the auction ``calls``, and
    when it makes a contract, the cards played out legally."""
    deal = {"rules": rules, "dealer": dealer, "pack": coinche_pack(hands, dealer),
            "calls": list(calls), "plays": []}
    try:
        out = replay(deal)
    except IllegalPlayError as e:
        if "deal is not over" not in str(e):
            raise
        r = Rules.from_spec(rules)
        first = (dealer + 1) % 4
        bids = [(i, c) for i, c in enumerate(calls) if c[0].isdigit()]
        i, bid = bids[-1]
        strain = "CDHS".index(bid[-1])
        # every bid precedes any coinche: bid i was made by seat first + i
        deal["plays"], _ = engine_play_out(r, hands, dealer, strain, (first + i) % 4)
        out = replay(deal)
    return out


def test_after_a_coinche_three_passes_lets_the_coinchers_partner_pass():
    calls = ["80H", "coinche", "pass", "pass", "pass"]
    out = deal_of("colver", calls)
    assert out["contract"] == {"value": 80, "strain": "H", "multiplier": 2}
    # under bidder-side only the high bidder's side answers: two calls, not three
    with pytest.raises(IllegalPlayError, match="comes after the bidding is over"):
        deal_of("coinche", calls)
    assert deal_of("coinche", calls[:4])["contract"]["multiplier"] == 2


def test_the_coinchers_partner_may_only_pass_and_a_surcoinche_ends_the_auction():
    with pytest.raises(IllegalPlayError, match="surcoinche only by the high bidder's side"):
        deal_of("colver", ["80H", "coinche", "pass", "surcoinche"])
    out = deal_of("colver", ["80H", "coinche", "pass", "pass", "surcoinche"])
    assert out["contract"]["multiplier"] == 3  # surcoinche_mult = 3 in colver
    out = deal_of("colver", ["80H", "coinche", "surcoinche"])
    assert out["contract"]["multiplier"] == 3
    with pytest.raises(IllegalPlayError, match="comes after the bidding is over"):
        deal_of("colver", ["80H", "coinche", "surcoinche", "pass"])


def test_capot_value_270_opens_170_to_260_and_makes_250_an_ordinary_bid():
    out = deal_of("cannes-2016", ["170H", "pass", "pass", "pass"])
    assert out["contract"]["value"] == 170 and out["outcome"] == "made"  # 252 with capot
    with pytest.raises(DealLogError, match="170..260 need capot_value=270"):
        deal_of("coinche", ["170H", "pass", "pass", "pass"])
    out = deal_of("cannes-2016", ["250H", "pass", "270S", "pass", "pass", "pass"])
    assert out["contract"]["value"] == 270 and out["calls"][2] == "270S"
    with pytest.raises(IllegalPlayError, match="higher than 270"):
        deal_of("cannes-2016", ["270H", "260S"])
    with pytest.raises(DealLogError, match="unknown call '270S'"):
        deal_of("coinche", ["270S", "pass", "pass", "pass"])
    # 250 is no capot bid under Cannes: the takers' 162 + 90 reach it, but the deal
    # scores it as a bid of 250 (the ladder as written)
    out = deal_of("cannes-2016", ["250H", "pass", "pass", "pass"])
    assert out["contract"]["value"] == 250 and out["outcome"] == "made"


@pytest.mark.parametrize(("packets", "first_six"), [
    ("3-3-2", [0, 1, 2, 12, 13, 14]), ("3-2-3", [0, 1, 2, 12, 13, 20]),
    ("2-3-3", [0, 1, 8, 9, 10, 20]), ("4-4", [0, 1, 2, 3, 16, 17]),
    ("3-3+2", [0, 1, 2, 12, 13, 14]),
])
def test_coinche_packets_deal_the_pack_in_their_rounds(packets, first_six):
    pack = [f"{r}{s}" for s in "CDHS" for r in "789TJQKA"]
    rules = {"preset": "coinche", "options": {"coinche_packets": packets}}
    deal = {"rules": rules, "dealer": 3, "pack": pack, "calls": ["pass"] * 4}
    hands = replay(deal)["hands"]
    first_hand = [pack.index(c) for c in hands[0]]
    if packets == "3-3+2":  # thrown in before the last round: six cards each
        assert sorted(first_hand) == first_six and all(len(h) == 6 for h in hands)
    else:
        assert set(first_six) <= set(first_hand) and all(len(h) == 8 for h in hands)


# --------------------------------------------------------------------------------------
# Section 8, Match: target_rule and match_end
# --------------------------------------------------------------------------------------


def _expected_end(rules: Rules, totals: list[int]):
    """The match's result after a deal with ``totals`` (RULES 8, Match): None to play on."""
    over = [s for s, t in enumerate(totals)
            if t > rules.target or (t == rules.target and rules.target_rule == "reach")]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if rules.match_end == "draw":
        return "draw"
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None if rules.match_end == "play-on" else "draw"


@pytest.mark.parametrize("match_end", ["draw", "higher", "play-on"])
@pytest.mark.parametrize("target_rule", ["reach", "exceed"])
def test_matches_end_as_target_rule_and_match_end_say(match_end, target_rule):
    rules = Rules.from_preset("coinche", target=300, match_end=match_end,
                              target_rule=target_rule)
    both_over = exact = 0
    for seed in range(150):
        match = play_match(rules, seed=seed, bid_policy="random", play_policy="random")
        totals = [0, 0]
        for i, deal in enumerate(match["deals"]):
            if deal["thrown_in"]:
                continue
            totals = [t + s for t, s in zip(totals, deal["deal_score"], strict=True)]
            end = _expected_end(rules, totals)
            if i < len(match["deals"]) - 1:
                assert end is None, (seed, i, totals)
        assert end is not None and match["winner"] == end and match["scores"] == totals
        both_over += min(totals) >= rules.target
        exact += rules.target in totals
    assert both_over and exact  # the seeds meet both cases the options decide


def test_play_on_plays_another_deal_when_totals_over_the_target_are_equal():
    """A match that, under ``higher``, ends drawn with equal totals over the target goes
    on under ``play-on`` and ends with a winner."""
    # split ties score each side its own S: an 81-81 first deal ends a match to 81 with
    # equal totals
    higher = Rules.from_preset("classic", tie_rule="split", target=81, match_end="higher")
    play_on = Rules.from_preset("classic", tie_rule="split", target=81, match_end="play-on")
    found = 0
    for seed in range(400):
        m = play_match(higher, seed=seed, bid_policy="random", play_policy="random")
        if m["winner"] != "draw":
            continue
        found += 1
        n = play_match(play_on, seed=seed, bid_policy="random", play_policy="random")
        played = [{k: v for k, v in d.items() if k != "rules"} for d in n["deals"]]
        assert len(played) > len(m["deals"])
        assert played[: len(m["deals"])] == [
            {k: v for k, v in d.items() if k != "rules"} for d in m["deals"]]
        assert n["winner"] in (0, 1)
    assert found


# --------------------------------------------------------------------------------------
# Section 9: the refused combination; section 10: the presets against the spec's table
# --------------------------------------------------------------------------------------


def test_points_faits_with_m_on_the_bid_is_refused_naming_both_options():
    with pytest.raises(RulesConflictError, match="coinche_scoring=points.*coinche_multiplies=bid"):
        Rules.from_preset("coinche", coinche_scoring="points")
    assert Rules.from_preset("coinche", coinche_scoring="points",
                             coinche_multiplies="base").coinche_scoring == "points"


def test_the_cli_refuses_the_combination_in_one_line_with_exit_2():
    out = subprocess.run(
        [sys.executable, "-m", "belote_sim", "simulate", "--rules", "coinche", "--set",
         "coinche_scoring=points", "--deals", "10"], capture_output=True, text=True)
    assert out.returncode == 2
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, out.stderr
    assert "coinche_scoring=points" in lines[0] and "coinche_multiplies=bid" in lines[0]


def _section_10() -> dict[str, str]:
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("## 10. Rulebook presets"):]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {re.match(r"\| `([^`]+)`", r).group(1): r for r in rows}


def test_the_rulebook_presets_are_section_10s():
    rows = _section_10()
    assert set(rows) == set(RULEBOOKS) <= set(PRESETS)
    defaults = Rules()
    for name, row in rows.items():
        rules = Rules.from_preset(name)
        assert (rules.contract, rules.players, rules.all_no_trumps_round) == ("coinche", 4, False)
        cited = dict(re.findall(r"`(\w+)=([\w+-]+)`", row))
        cited.update({k: v == "on" for k, v in re.findall(r"`(\w+)` (on|off)", row)})
        for option, value in cited.items():
            assert getattr(rules, option) == Rules.from_preset(
                "classic", **{option: value}).options()[option], (name, option)
        differs = {k for k, v in rules.options().items() if getattr(defaults, k) != v}
        assert differs - {"contract", "all_no_trumps_round"} <= set(cited), name
        for option, source in RULEBOOK_SOURCES[name].items():
            assert source in row, (name, option, source)


def test_rules_command_lists_each_rulebook_choice_with_its_source():
    out = subprocess.run([sys.executable, "-m", "belote_sim", "rules"], capture_output=True,
                         text=True, check=True).stdout
    for name in RULEBOOKS:
        assert name in out
        for option, source in RULEBOOK_SOURCES[name].items():
            assert source in out, (name, option)
    assert "coinche_packets" in out and "3-3+2" in out


def test_an_unknown_rulebook_lists_the_presets():
    out = subprocess.run([sys.executable, "-m", "belote_sim", "simulate", "--rules", "ffb",
                          "--deals", "10"], capture_output=True, text=True)
    assert out.returncode == 2
    assert all(name in out.stderr for name in PRESETS)
