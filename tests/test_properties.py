"""Property tests: the package against the plain-Python references of ``tests/reference/``
(``rules_ref`` for the rule kernels, ``retourne`` for whole deals).

Every rule kernel (legal cards, trick winner, declarations, scoring) is compared with the
slow oracle on random inputs, and simulated deals and matches are checked end to end:
the oracle replays each deal from its input fields and must find every result field.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hand_built import (
    check_plays_legal,
    draw_legal_plays,
    inputs_of,
    normalize_deal,
    sorted_declarations,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st
from reference.retourne import naive_retourne_replay
from reference.rules_ref import (
    TRUMP_NAMES,
    card_value,
    deal_total,
    last_trick_bonus,
    naive_contest,
    naive_declarations,
    naive_legal_cards,
    naive_score,
    naive_trick_winner,
    round_two_suits,
)

from belote_sim import Rules, replay
from belote_sim.cards import format_card, parse_card
from belote_sim.kernels.api import declarations, legal_cards, score_deal, trick_winner
from belote_sim.kernels.declarations import (
    best_key,
    hand_declarations,
    list_declarations,
    may_declare,
    summarise_declarations,
)
from belote_sim.studies.simulate import play_match, simulated_deals

IMPLEMENTED = ("classic", "sans-annonces", "litige")


def cards(texts: list[str]) -> list[int]:
    return [parse_card(c) for c in texts]


# ----------------------------------------------------------------------------------
# Legal cards (RULES.md section 6)

option_sets = st.fixed_dictionaries(
    {
        "must_trump": st.booleans(),
        "partner_exemption": st.booleans(),
        "overtrump_partner": st.booleans(),
        "undertrump": st.sampled_from(["forced", "free"]),
    }
)


@st.composite
def legal_cases(draw):
    perm = draw(st.permutations(range(32)))
    k = draw(st.integers(0, 3))
    trick = list(perm[:k])
    # Voids make the interesting cases (trumping, partner exemption) frequent.
    voids = draw(st.sets(st.integers(0, 3), max_size=3))
    pool = [c for c in perm[k:] if c // 8 not in voids]
    hand = set(pool[: draw(st.integers(1, 8))])
    leader = draw(st.integers(0, 3))
    trump = draw(st.integers(0, 5))
    taker = draw(st.integers(0, 3))
    options = draw(option_sets)
    return hand, trick, leader, trump, taker, options


def _legal_case(hand, trick, leader, trump, taker, options):
    return (set(cards(hand.split())), cards(trick.split()), leader, trump, taker, options)


CLASSIC_OPTS = {
    "must_trump": True,
    "partner_exemption": True,
    "overtrump_partner": True,
    "undertrump": "forced",
}


@settings(max_examples=600, deadline=None)
@given(legal_cases())
# seat 3 leads AD, seat 1 (void in D) plays third while its partner wins: any card
@example(_legal_case("7H 8C", "AD 7S", 3, 2, 0, CLASSIC_OPTS))
# undertrump: void in clubs, cannot beat JH, must still trump (forced) / any card (free)
@example(_legal_case("7H 8D", "AC JH", 0, 2, 0, CLASSIC_OPTS))
@example(_legal_case("7H 8D", "AC JH", 0, 2, 0, {**CLASSIC_OPTS, "undertrump": "free"}))
# trump led, partner winning, overtrump_partner off
@example(_legal_case("7H JH", "9H 8H", 0, 2, 0, {**CLASSIC_OPTS, "overtrump_partner": False}))
# all-trumps: follow and beat in trump order; no-trumps: any card of the suit led
@example(_legal_case("7C 9C KD", "AC", 0, 4, 0, CLASSIC_OPTS))
@example(_legal_case("7C 9C KD", "AC", 0, 5, 0, CLASSIC_OPTS))
@example(_legal_case("7S 9S KD", "AC", 0, 4, 0, CLASSIC_OPTS))
def test_legal_cards_match_naive(case):
    hand, trick, leader, trump, taker, options = case
    rules = Rules.from_preset("classic", **options)
    got = set(legal_cards(rules, hand, trick, leader, trump, taker))
    want = naive_legal_cards(rules, hand, trick, leader, trump, taker)
    assert want, "a non-empty hand always has a legal card"
    assert want <= hand
    assert got == want, (
        f"hand {sorted(map(format_card, hand))} trick {list(map(format_card, trick))} "
        f"leader {leader} trump {TRUMP_NAMES[trump]} options {options}: "
        f"package {sorted(map(format_card, got))} naive {sorted(map(format_card, want))}"
    )


def test_naive_legal_examples():
    """Section 6 worked by hand, so that the oracle is pinned too."""

    def legal(hand, trick, leader, trump, **options):
        rules = Rules.from_preset("classic", **options)
        got = naive_legal_cards(
            rules, set(cards(hand.split())), cards(trick.split()), leader, trump, 0
        )
        return " ".join(format_card(c) for c in sorted(got))

    # seat 1 void in diamonds, partner (seat 3) winning with AD
    assert legal("7H 8C", "AD 7S", 3, 2) == "8C 7H"
    assert legal("7H 8C", "AD 7S", 3, 2, partner_exemption=False) == "7H"
    assert legal("7H 8C", "AD 7S", 3, 2, partner_exemption=False, must_trump=False) == "8C 7H"
    # seat 2 void in clubs, opponent's JH winning: undertrump forced / free
    assert legal("7H 8D", "AC JH", 0, 2) == "7H"
    assert legal("7H 8D", "AC JH", 0, 2, undertrump="free") == "8D 7H"
    assert legal("7H 9H 8D", "AC TH", 0, 2, undertrump="free") == "9H"
    # trump led: overtrump, even over the partner unless overtrump_partner is off
    assert legal("7H JH", "9H 8H", 0, 2) == "JH"
    assert legal("7H JH", "9H 8H", 0, 2, overtrump_partner=False) == "7H JH"
    assert legal("7H QH", "9H 8H", 0, 2) == "7H QH"
    # no trump in the trick: any trump; plain suit led: any card of it
    assert legal("7H QH 8D", "AC", 0, 2) == "7H QH"
    assert legal("7C AC 7H", "KC", 0, 2) == "7C AC"
    # all-trumps: beat in trump order; void: any card. No-trumps: follow only.
    assert legal("7C 9C KD", "AC", 0, 4) == "9C"
    assert legal("7C 9C KD", "AC", 0, 5) == "7C 9C"
    assert legal("7S 9S KD", "AC", 0, 4) == "KD 7S 9S"
    assert legal("7S 9S KD", "AC", 0, 5) == "KD 7S 9S"
    assert legal("7S 9S KD", "", 0, 2) == "KD 7S 9S"


# ----------------------------------------------------------------------------------
# Trick winner


@settings(max_examples=400, deadline=None)
@given(
    st.permutations(range(32)).flatmap(lambda p: st.integers(1, 4).map(lambda k: list(p[:k]))),
    st.integers(0, 5),
)
@example(cards(["AS", "7H", "TS", "JS"]), 2)  # the lowest trump beats the ace led
@example(cards(["9H", "JH", "AH", "TH"]), 2)  # trump order J 9 A 10
@example(cards(["9H", "JH", "AH", "TH"]), 4)  # all-trumps: trump order in the suit led
@example(cards(["9H", "JH", "AH", "TH"]), 5)  # no-trumps: plain order
@example(cards(["TD", "KD", "AC", "QD"]), 0)  # plain order: 10 above K
def test_trick_winner_matches_naive(trick, trump):
    want = naive_trick_winner(trick, trump)
    assert trick_winner(trick, trump) == want
    led = trick[0] // 8
    assert trick[want] // 8 in (led, trump)


# ----------------------------------------------------------------------------------
# Declarations (section 5)


@st.composite
def crafted_hands(draw):
    """Hands of at most 9 cards built from long runs and carrés, plus filler."""
    parts: list[int] = []
    for _ in range(draw(st.integers(0, 2))):
        s = draw(st.integers(0, 3))
        start = draw(st.integers(0, 5))
        length = draw(st.integers(3, 8 - start))
        parts += [8 * s + r for r in range(start, start + length)]
    for r in draw(st.lists(st.integers(0, 7), max_size=2)):
        parts += [8 * s + r for s in range(4)]
    parts += draw(st.lists(st.integers(0, 31), max_size=9))
    hand: list[int] = []
    for c in parts:
        if c not in hand and len(hand) < 9:
            hand.append(c)
    return set(hand)


def _hand(text: str) -> set[int]:
    return set(cards(text.split()))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.permutations(range(32)).map(lambda p: set(p[:8])),
        crafted_hands(),
    ),
    st.booleans(),
)
@example(_hand("7H 8H 9H TH JH QH KH AH"), False)  # an 8-card run: one quinte, 100
@example(_hand("7H 8H 9H TH JH QH KH AH"), True)  # split: quinte + tierce, 120
@example(_hand("8H 9H TH JH QH KH AH 7S"), True)  # 7 cards: a quinte either way
@example(_hand("7C 8C 9C JC QC KC AS AD"), False)  # two tierces in one suit
@example(_hand("JC JD JH JS 9C 9D 9H 9S"), False)  # two carrés
@example(_hand("7C 7D 7H 7S 8C 8D 8H 8S"), False)  # carrés of 7 and 8 count nothing
@example(_hand("QC KC AC QD QH QS 7D 8D"), False)  # a queen in a run and a carré
def test_declarations_match_naive(hand, split):
    got = declarations(hand, split)
    want = naive_declarations(hand, split)
    assert sorted_declarations(got) == sorted_declarations(want), sorted(map(format_card, hand))
    # The deal's shortcut past hands that hold nothing agrees with the full listing.
    mask = sum(1 << c for c in hand)
    assert bool(may_declare(np.int64(mask))) == bool(want), sorted(map(format_card, hand))
    # The deal reads the same points, kinds and best key, under every trump, from the
    # tables of its declarations (hand_declarations).
    entries = np.zeros((16, 4), dtype=np.int64)
    n = list_declarations(np.int64(mask), int(split), entries)
    points, kinds = summarise_declarations(entries, n)
    assert points == sum(d["points"] for d in want)
    for trump in range(6):
        got_deal = hand_declarations(np.int64(mask), int(split), trump)
        assert tuple(got_deal) == (points, kinds, best_key(entries, n, trump)), trump


def test_naive_declarations_examples():
    """The oracle itself on RULES.md's examples (so a wrong oracle cannot agree silently)."""
    full = _hand("7H 8H 9H TH JH QH KH AH")
    assert naive_declarations(full, False) == [
        {"kind": "quinte", "top": "AH", "length": 8, "points": 100}
    ]
    assert naive_declarations(full, True)[0]["points"] == 120
    two = naive_declarations(_hand("7C 8C 9C JC QC KC"), False)
    assert sorted_declarations(two) == sorted_declarations(
        [
            {"kind": "tierce", "top": "9C", "length": 3, "points": 20},
            {"kind": "tierce", "top": "KC", "length": 3, "points": 20},
        ]
    )
    carres = naive_declarations(_hand("JC JD JH JS 9C 9D 9H 9S"), False)
    assert sorted(d["points"] for d in carres) == [150, 200]
    assert naive_declarations(_hand("8C 8D 8H 8S"), False) == []


def test_naive_contest_examples():
    """Section 5 contest cases, worked by hand."""

    def run(top: str, length: int) -> dict:
        pts = {3: 20, 4: 50}.get(length, 100)
        kind = {3: "tierce", 4: "quarte"}.get(length, "quinte")
        return {"kind": kind, "top": top, "length": length, "points": pts}

    def carre(r: str) -> dict:
        pts = {"J": 200, "9": 150}.get(r, 100)
        return {"kind": "carre", "top": r, "length": 4, "points": pts}

    # a carré of queens beats a quinte; the winners score everything they hold
    held = [[run("AH", 5)], [carre("Q")], [run("9C", 3)], [run("KS", 3)]]
    assert naive_contest(held, 2, 1, "none") == (1, 1, [0, 120])
    # carré of 9s beats carré of aces
    held = [[carre("A")], [carre("9")], [], []]
    assert naive_contest(held, 0, 0, "none") == (1, 1, [0, 150])
    # longer run beats a higher shorter one
    held = [[run("AH", 3)], [run("TC", 4)], [], []]
    assert naive_contest(held, 0, 0, "none") == (1, 1, [0, 50])
    # equal runs: the one in trump wins
    held = [[run("KH", 3)], [run("KS", 3)], [], []]
    assert naive_contest(held, 3, 0, "none") == (1, 1, [0, 20])
    assert naive_contest(held, 2, 0, "none") == (0, 0, [20, 0])
    # equal, no trump among them: declaration_tie none -> nobody; first -> turn order
    assert naive_contest(held, 0, 0, "none") == (None, None, [0, 0])
    assert naive_contest(held, 0, 1, "first") == (1, 1, [0, 20])
    assert naive_contest(held, 0, 2, "first") == (0, 0, [20, 0])
    # all-trumps / no-trumps: no trump tie-break
    assert naive_contest(held, 4, 0, "none") == (None, None, [0, 0])
    # inside a side: equal bests -> the trump one's holder, else first in turn order
    held = [[run("KC", 3)], [], [run("KD", 3)], []]
    assert naive_contest(held, 1, 3, "none") == (0, 2, [40, 0])
    assert naive_contest(held, 3, 3, "none") == (0, 0, [40, 0])
    assert naive_contest(held, 3, 1, "none") == (0, 2, [40, 0])
    assert naive_contest([[], [], [], []], 0, 0, "none") == (None, None, [0, 0])


# ----------------------------------------------------------------------------------
# Scoring (section 8)


@st.composite
def score_cases(draw):
    tie_rule = draw(st.sampled_from(["takers", "split", "litige"]))
    taker_side = draw(st.integers(0, 1))
    decl_side = draw(st.integers(0, 1))
    decl = draw(st.sampled_from([0, 0, 20, 40, 50, 70, 100, 150, 200, 250, 300, 350]))
    declaration_points = [0, 0]
    declaration_points[decl_side] = decl
    belote = [0, 0]
    belote_side = draw(st.sampled_from([None, 0, 1]))
    if belote_side is not None:
        belote[belote_side] = 20
    total = draw(st.sampled_from([162, 162, 186]))  # 186: king_value = 10
    capot_side = draw(st.sampled_from([None, None, None, 0, 1]))
    if capot_side is not None:
        trick_points = [0, 0]
        trick_points[capot_side] = total
    elif draw(st.booleans()):
        # aim at an exact tie S_T == S_E when possible
        d0 = declaration_points[0] + belote[0]
        d1 = declaration_points[1] + belote[1]
        twice = total + d1 - d0
        a = (
            twice // 2
            if twice % 2 == 0 and 0 <= twice // 2 <= total
            else draw(st.integers(0, total))
        )
        trick_points = [a, total - a]
    else:
        a = draw(st.integers(0, total))
        trick_points = [a, total - a]
    pot_before = draw(st.sampled_from([0, 0, 71, 81, 162])) if tie_rule == "litige" else 0
    return {
        "tie_rule": tie_rule,
        "trick_points": trick_points,
        "taker_side": taker_side,
        "capot_side": capot_side,
        "declaration_points": declaration_points,
        "belote": belote,
        "pot_before": pot_before,
        "total": total,
    }


@settings(max_examples=500, deadline=None)
@given(score_cases())
# a capot of the takers that fails through the defenders' declarations earns no +90
@example(
    {
        "tie_rule": "takers",
        "trick_points": [162, 0],
        "taker_side": 0,
        "capot_side": 0,
        "declaration_points": [0, 350],
        "belote": [0, 20],
        "pot_before": 0,
    }
)
# the defenders' capot: 162 + 90 + declarations (the takers')
@example(
    {
        "tie_rule": "litige",
        "trick_points": [0, 162],
        "taker_side": 0,
        "capot_side": 1,
        "declaration_points": [50, 0],
        "belote": [20, 0],
        "pot_before": 81,
    }
)
# exact ties under each rule
@example(
    {
        "tie_rule": "takers",
        "trick_points": [81, 81],
        "taker_side": 1,
        "capot_side": None,
        "declaration_points": [0, 0],
        "belote": [0, 0],
        "pot_before": 0,
    }
)
@example(
    {
        "tie_rule": "split",
        "trick_points": [81, 81],
        "taker_side": 1,
        "capot_side": None,
        "declaration_points": [0, 0],
        "belote": [0, 0],
        "pot_before": 0,
    }
)
@example(
    {
        "tie_rule": "litige",
        "trick_points": [71, 91],
        "taker_side": 0,
        "capot_side": None,
        "declaration_points": [0, 0],
        "belote": [20, 0],
        "pot_before": 91,
    }
)
def test_score_deal_matches_naive(case):
    rules = Rules.from_preset("classic", tie_rule=case["tie_rule"])
    got = score_deal(
        rules,
        trick_points=case["trick_points"],
        taker_side=case["taker_side"],
        capot_side=case["capot_side"],
        declaration_points=case["declaration_points"],
        belote=case["belote"],
        pot_before=case["pot_before"],
        total=case.get("total", 162),
    )
    want = naive_score(
        case["tie_rule"],
        case["trick_points"],
        case["taker_side"],
        case["capot_side"],
        case["declaration_points"],
        case["belote"],
        case["pot_before"],
        case.get("total", 162),
    )
    assert got == want


def test_naive_score_examples():
    """Section 8 worked by hand, so that the oracle is pinned too."""
    made = naive_score("takers", [90, 72], 0, None, [20, 0], [0, 20])
    assert made["outcome"] == "made" and made["deal_score"] == [110, 92]
    dedans = naive_score("takers", [40, 122], 0, None, [50, 0], [20, 0])
    assert dedans["outcome"] == "dedans" and dedans["deal_score"] == [20, 162 + 50]
    tie = naive_score("takers", [81, 81], 1)
    assert tie["outcome"] == "made" and tie["deal_score"] == [81, 81]
    split = naive_score("split", [81, 81], 1)
    assert split["outcome"] == "tie" and split["deal_score"] == [81, 81]
    lit = naive_score("litige", [71, 91], 0, None, [0, 0], [20, 0])
    assert lit["outcome"] == "litige" and lit["pot"] == 71 and lit["deal_score"] == [20, 91]
    collect = naive_score("litige", [100, 62], 1, None, (0, 0), (0, 0), pot_before=61)
    assert collect["outcome"] == "dedans" and collect["pot_won_by"] == 0
    assert collect["deal_score"] == [162 + 61, 0]
    capot = naive_score("takers", [162, 0], 0, 0)
    assert capot["card_points"] == [252, 0] and capot["deal_score"] == [252, 0]
    assert deal_total(0) == 162 and deal_total(4) == 258 and deal_total(5) == 260
    assert deal_total(2, Rules.from_preset("classic", king_value=10)) == 176 + 10


# ----------------------------------------------------------------------------------
# Simulated deals, end to end


DEAL_OPTIONS = {
    "declarations": st.booleans(),
    "belote": st.booleans(),
    "split_long_runs": st.booleans(),
    "declaration_tie": st.sampled_from(["none", "first"]),
    "must_trump": st.booleans(),
    "partner_exemption": st.booleans(),
    "overtrump_partner": st.booleans(),
    "undertrump": st.sampled_from(["forced", "free"]),
    "tie_rule": st.sampled_from(["takers", "split", "litige"]),
    "first_packets": st.sampled_from(["3-2", "2-3"]),
    "king_value": st.sampled_from([4, 10]),
    "second_round": st.sampled_from(["others", "any"]),
}
# A preset as is (half the time), or with some options of section 9 overridden.
option_overrides = st.one_of(st.just({}), st.fixed_dictionaries({}, optional=DEAL_OPTIONS)).map(
    lambda d: tuple(sorted(d.items()))
)


@cache
def _deals(
    preset: str, seed: int, bid_policy: str, n: int = 6, options: tuple = ()
) -> tuple[dict, ...]:
    rules = Rules.from_preset(preset, **dict(options))
    return tuple(simulated_deals(rules, n, seed=seed, bid_policy=bid_policy, play_policy="random"))


deal_batches = st.builds(
    _deals,
    st.sampled_from(IMPLEMENTED),
    st.integers(0, 2**40),
    st.sampled_from(["random", "threshold"]),
    st.just(6),
    option_overrides,
)


def check_card_points(deal: dict) -> None:
    rules = Rules.from_spec(deal["rules"])
    trump = TRUMP_NAMES.index(deal["trump"])
    pts = [0, 0]
    for trick in deal["tricks"]:
        pts[trick["winner"] % 2] += sum(card_value(c, trump, rules) for c in cards(trick["cards"]))
    pts[deal["tricks"][-1]["winner"] % 2] += last_trick_bonus(trump, rules)
    total = deal_total(trump, rules)  # 162 (186 with king_value = 10)
    assert sum(pts) == total
    sides = {trick["winner"] % 2 for trick in deal["tricks"]}
    if len(sides) == 1:
        side = sides.pop()
        assert deal["capot"] == [side, side + 2]
        pts[side] += 90
        assert sum(deal["card_points"]) == total + 90
    else:
        assert deal["capot"] is None
        assert sum(deal["card_points"]) == total
    assert deal["card_points"] == pts


def check_declarations_and_belote(deal: dict) -> None:
    rules = Rules.from_spec(deal["rules"])
    decl = deal["declarations"]
    held = decl["held"]
    if not rules.declarations:
        assert held == [[], [], [], []]
        assert decl["winner_seat"] is None and decl["points"] == [0, 0]
    else:
        for seat in range(4):
            want = naive_declarations(set(cards(deal["hands"][seat])), rules.split_long_runs)
            assert sorted_declarations(held[seat]) == sorted_declarations(want)
        w = decl["winner_seat"]
        if w is None:
            assert decl["points"] == [0, 0]
        else:
            assert held[w], "the winner seat holds the best declaration"
            side = w % 2
            assert decl["points"][side] == sum(
                d["points"] for s in (side, side + 2) for d in held[s]
            )
            assert decl["points"][1 - side] == 0
    trump = TRUMP_NAMES.index(deal["trump"])
    want_belote = [0, 0]
    for seat, hand in enumerate(deal["hands"]):
        if rules.belote and {f"K{'CDHS'[trump]}", f"Q{'CDHS'[trump]}"} <= set(hand):
            want_belote[seat % 2] = 20
    assert deal["belote"] == want_belote


def check_scores(deal: dict) -> None:
    """Deal scores follow the outcome (RULES.md section 8), from the logged parts."""
    rules = Rules.from_spec(deal["rules"])
    pot_before = deal.get("pot_before", 0)
    T = deal["taker"] % 2
    E = 1 - T
    C = deal["card_points"]
    D = deal["declarations"]["points"]
    B = deal["belote"]
    S = [C[s] + D[s] + B[s] for s in (0, 1)]
    score = deal["deal_score"]
    outcome = deal["outcome"]
    total = deal_total(TRUMP_NAMES.index(deal["trump"]), rules)
    collected = [0, 0]
    if deal["pot_won_by"] is not None:
        collected[deal["pot_won_by"]] = pot_before
    if outcome == "made":
        assert S[T] >= S[E] if rules.tie_rule == "takers" else S[T] > S[E]
        assert [score[s] - collected[s] for s in (0, 1)] == S
        assert deal["pot"] == 0
        assert deal["pot_won_by"] == (T if pot_before else None)
    elif outcome == "dedans":
        assert S[T] < S[E]
        capot_e = deal["capot"] is not None and deal["capot"][0] % 2 == E
        assert score[T] - collected[T] == B[T]
        assert score[E] - collected[E] == total + (90 if capot_e else 0) + sum(D) + B[E]
        assert deal["pot"] == 0
        assert deal["pot_won_by"] == (E if pot_before else None)
    elif outcome == "tie":
        assert rules.tie_rule == "split" and S[T] == S[E]
        assert score == S and deal["pot"] == 0 and deal["pot_won_by"] is None
    elif outcome == "litige":
        assert rules.tie_rule == "litige" and S[T] == S[E]
        assert deal["pot"] == S[T] - B[T]
        assert score[T] == B[T] and score[E] == S[E]
        assert deal["pot_won_by"] is None
    else:
        pytest.fail(f"unexpected outcome {outcome!r} for tie_rule {rules.tie_rule}")


def check_deal(deal: dict, *, naive: bool = True) -> None:
    # the package's replay reproduces the simulated deal exactly
    assert replay(inputs_of(deal)) == deal
    if naive:
        assert normalize_deal(naive_retourne_replay(inputs_of(deal))) == normalize_deal(deal)
    if deal["thrown_in"]:
        assert set(deal) == set(inputs_of(deal)) | {"thrown_in", "hands"}
        assert [len(h) for h in deal["hands"]] == [5, 5, 5, 5]
        assert deal["calls"] == ["pass"] * 8
        return
    assert deal["contract"] is None
    check_plays_legal(deal)
    check_card_points(deal)
    check_declarations_and_belote(deal)
    check_scores(deal)


@settings(max_examples=40, deadline=None)
@given(deal_batches)
def test_simulated_deals_naive_replay(batch):
    for deal in batch:
        want = naive_retourne_replay(inputs_of(deal))
        assert normalize_deal(want) == normalize_deal(deal)


@settings(max_examples=40, deadline=None)
@given(deal_batches)
def test_simulated_deals_replay_roundtrip(batch):
    for deal in batch:
        assert replay(inputs_of(deal)) == deal


@settings(max_examples=40, deadline=None)
@given(deal_batches)
def test_simulated_deals_properties(batch):
    for deal in batch:
        if deal["thrown_in"]:
            continue
        check_plays_legal(deal)
        check_card_points(deal)
        check_declarations_and_belote(deal)
        check_scores(deal)


@pytest.mark.parametrize("preset", IMPLEMENTED)
def test_bulk_simulated_deals(preset):
    """Many deals of fixed seeds, every check, and a guard that the interesting cases
    (dedans, capot, declarations, belote, thrown in, litige) were actually seen."""
    seen: dict[str, int] = {}
    for bid_policy in ("random", "threshold"):
        for deal in _deals(preset, 11, bid_policy, 300):
            check_deal(deal)
            if deal["thrown_in"]:
                seen["thrown_in"] = seen.get("thrown_in", 0) + 1
                continue
            for key, hit in (
                (deal["outcome"], True),
                ("capot", deal["capot"] is not None),
                ("declarations", deal["declarations"]["winner_seat"] is not None),
                ("belote", any(deal["belote"])),
                ("round2", deal["calls"][-1] != "take"),
            ):
                if hit:
                    seen[key] = seen.get(key, 0) + 1
    for key in ("made", "dedans", "capot", "belote", "thrown_in", "round2"):
        assert seen.get(key), f"no {key} deal among the {preset} deals: {seen}"
    if preset != "sans-annonces":
        assert seen.get("declarations"), seen
    if preset == "litige":
        assert seen.get("litige"), seen


@st.composite
def structured_packs(draw):
    """Packs whose packets of 3 and 2 are runs of one suit (7-8-9, 10-J-Q, K-A), so that
    equal declarations in different hands (contest ties) are frequent."""
    segments = [[8 * s + r for r in seg] for s in range(4) for seg in ((0, 1, 2), (3, 4, 5))]
    pairs = [[8 * s + 6, 8 * s + 7] for s in range(4)]
    threes = draw(st.permutations(segments))
    twos = draw(st.permutations(pairs))
    pack = [c for seg in threes[:4] for c in seg] + [c for seg in twos for c in seg]
    rest = [c for seg in threes[4:] for c in seg]
    return pack + draw(st.permutations(rest))


@st.composite
def deal_inputs(draw):
    """Deal-log input fields that are not the simulator's: any pack, any bidding, every
    card drawn from the naive legal set, and option overrides."""
    preset = draw(st.sampled_from(IMPLEMENTED))
    options = dict(draw(option_overrides))
    rules = Rules.from_preset(preset, **options)
    dealer = draw(st.integers(0, 3))
    pack = draw(st.one_of(st.permutations(range(32)), structured_packs()))
    first = (dealer + 1) % 4
    order = [(first + i) % 4 for i in range(4)]
    retourne = pack[20]
    # bidding: a taker in round 1 or 2, or all pass (thrown in)
    rnd = draw(st.sampled_from([1, 1, 2, 0]))
    pos = draw(st.integers(0, 3))
    if rnd == 1:
        calls = ["pass"] * pos + ["take"]
        taker, trump = order[pos], retourne // 8
    elif rnd == 2:
        trump = draw(st.sampled_from(round_two_suits(rules, retourne)))
        calls = ["pass"] * (4 + pos) + ["CDHS"[trump]]
        taker = order[pos]
    else:
        calls = ["pass"] * 8
    deal = {"rules": {"preset": preset, "options": options} if options else preset}
    deal.update({"dealer": dealer, "pack": [format_card(c) for c in pack], "calls": calls})
    if rules.tie_rule == "litige" and draw(st.booleans()):
        deal["pot_before"] = draw(st.sampled_from([71, 81, 162]))
    if rnd == 0:
        return deal
    deal["plays"] = draw_legal_plays(draw, rules, pack, dealer, taker, trump)
    return deal


@settings(max_examples=150, deadline=None)
@given(deal_inputs())
def test_replay_of_any_deal_matches_naive(deal):
    """``belote_sim.deallog.replay`` of arbitrary legal deals (any pack and bidding, the options of
    section 9) agrees with the naive replay on every result field."""
    got = replay(deal)
    want = naive_retourne_replay(deal)
    assert normalize_deal(got) == normalize_deal(want)
    if not got["thrown_in"]:
        check_plays_legal(got)
        check_card_points(got)
        check_declarations_and_belote(got)
        check_scores(got)


# ----------------------------------------------------------------------------------
# Matches (section 8, Match) with the litige pot carried


def check_match(m: dict, rules: Rules, *, max_deals: int = 500, naive: bool = True) -> dict:
    deals = m["deals"]
    assert deals
    totals = [0, 0]
    pot = 0
    events = {"collected": 0, "carried_thrown_in": 0, "repeated_litige": 0, "lost": 0}
    last_was_litige = False
    for i, deal in enumerate(deals):
        if i:
            assert deal["dealer"] == (deals[i - 1]["dealer"] + 1) % 4
        assert deal.get("pot_before", 0) == pot, f"deal {i}: pot carried"
        check_deal(deal, naive=naive or pot > 0 or deal.get("outcome") == "litige")
        if deal["thrown_in"]:
            if pot:
                events["carried_thrown_in"] += 1
            continue
        if deal["outcome"] == "litige":
            if last_was_litige:
                events["repeated_litige"] += 1
            pot += deal["pot"]
            last_was_litige = True
        else:
            if pot:
                events["collected"] += 1
                assert deal["pot_won_by"] in (0, 1)
            pot = 0
            last_was_litige = False
        totals = [totals[s] + deal["deal_score"][s] for s in (0, 1)]
        if i < len(deals) - 1:
            assert max(totals) < rules.target, f"the match should have ended at deal {i}"
    if pot:
        events["lost"] += 1
    assert m["scores"] == totals
    reached = [s for s in (0, 1) if totals[s] >= rules.target]
    if not reached:
        assert m["winner"] is None and len(deals) == max_deals
    elif len(reached) == 2:
        if rules.match_end == "draw" or totals[0] == totals[1]:
            assert m["winner"] == "draw"
        else:
            assert m["winner"] == (0 if totals[0] > totals[1] else 1)
    else:
        assert m["winner"] == reached[0]
    return events


LITIGE = Rules.from_preset("litige")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**40))
@example(11)  # a litige pot collected by the defenders (dedans)
@example(136)  # two litiges in a row: the pot grows, then is won
@example(243)  # a thrown-in deal while a pot is open
@example(24)  # both sides over the target in one deal: a draw
def test_litige_matches(seed):
    check_match(play_match(LITIGE, seed=seed), LITIGE)


def test_litige_match_scan():
    """Many matches (naive replay only where a pot is involved): the checks above, and a
    guard that the pot cases and draws occur."""
    events = {"collected": 0, "carried_thrown_in": 0, "repeated_litige": 0, "lost": 0}
    draws = 0
    for seed in range(400):
        m = play_match(LITIGE, seed=seed, bid_policy="random", play_policy="random")
        for k, v in check_match(m, LITIGE, naive=False).items():
            events[k] += v
        draws += m["winner"] == "draw"
    assert all(events.values()), events
    assert draws, "no drawn match in 400"


def test_classic_matches():
    rules = Rules.from_preset("classic")
    for seed in range(20):
        check_match(play_match(rules, seed=seed), rules, naive=False)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(IMPLEMENTED),
    st.integers(0, 2**40),
    st.sampled_from([150, 301, 1000]),
    st.sampled_from(["draw", "higher"]),
)
def test_matches_target_and_match_end(preset, seed, target, match_end):
    rules = Rules.from_preset(preset, target=target, match_end=match_end)
    check_match(play_match(rules, seed=seed), rules)


def test_match_unfinished_after_max_deals():
    rules = Rules.from_preset("litige")
    m = play_match(rules, seed=5, max_deals=2)
    assert len(m["deals"]) == 2 and m["winner"] is None
    check_match(m, rules, max_deals=2)
