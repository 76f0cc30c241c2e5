"""The test harness, shared by every test file: cards as text, the pack in index order,
deal builders (a pack that deals chosen hands, for each game family; a deal-log dict
from its input fields; its plays completed legally), the replay kernel's record and
status for a deal, checks of a logged deal's plays, comparison helpers and hypothesis
strategies of arbitrary legal deals.

The plain-Python references the tests compare the engine with ("test oracles") are not
here but in the ``reference`` package (``tests/reference/``), which imports nothing from
the engine; the helpers below that play cards "naively" take their legal cards from it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from reference.retourne import deal_before_bidding, pick_up
from reference.rules_ref import (
    INPUT_FIELDS,
    TRUMP_NAMES,
    card_value,
    inputs_of,
    last_trick_bonus,
    naive_legal_cards,
    naive_trick_winner,
    round_two_suits,
)

from belote_sim.cards import CardSet, format_card, format_cards, parse_card, parse_cards
from belote_sim.deallog.format import DealInput
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.kernels.api import legal_cards, trick_winner
from belote_sim.rules import Rules

__all__ = [
    "PACK_BY_INDEX",
    "INPUT_FIELDS",
    "strs",
    "sorted_hand",
    "inputs_of",
    "normalize_deal",
    "sorted_declarations",
    "deal_of",
    "kernel",
    "play_out",
    "engine_play_out",
    "build_pack",
    "trump_of_calls",
    "naive_play_out",
    "make_deal",
    "coinche_pack",
    "stack_pack",
    "two_player_pack",
    "check_plays_legal",
    "played_card_points",
    "draw_legal_plays",
    "arbitrary_retourne_deals",
]

#: The 32 cards in index order (RULES 1): as a pack, the deal every test can read off.
PACK_BY_INDEX = [format_card(i) for i in range(32)]


# --------------------------------------------------------------------------------------
# Cards and deals as text, comparisons


def strs(cards: Any) -> list[str]:
    """Cards as text in the output notation (``"10s qh"`` -> ``["TS", "QH"]``), in the
    order given; ``[]`` for nothing."""
    return [format_card(c) for c in parse_cards(cards)] if cards else []


def sorted_hand(cards: str) -> list[str]:
    """The cards of ``cards`` in index order, as the deal log writes a hand."""
    return sorted(strs(cards), key=parse_card)


def sorted_declarations(decls: list[dict]) -> list[dict]:
    """Declarations of one hand in a canonical order (the deal log's is free)."""
    return sorted(decls, key=lambda d: (d["kind"], d["top"], d["length"], d["points"]))


def normalize_deal(deal: dict[str, Any]) -> dict[str, Any]:
    """A copy of a deal-log object whose declaration lists are in a canonical order
    (DEAL_LOG.md: "entries in any order"), for comparisons."""
    out = dict(deal)
    decl = out.get("declarations")
    if decl is not None:
        out["declarations"] = dict(decl)
        out["declarations"]["held"] = [sorted_declarations(h) for h in decl["held"]]
    return out


# --------------------------------------------------------------------------------------
# Deal-log dicts, and the replay kernel's view of them


def deal_of(rules, dealer, pack, calls, plays=(), **extra) -> dict:
    """A deal-log dict from its input fields."""
    return {"rules": rules, "dealer": dealer, "pack": list(pack), "calls": list(calls),
            "plays": list(plays), **extra}


def kernel(deal: dict):
    """The replay kernel's record and status for ``deal``."""
    inp = DealInput(deal)
    rec, status, _ = replay_deal(
        inp.rules.to_array(), inp.pack, inp.dealer, inp.pot_before, inp.redeals_before,
        inp.calls, inp.plays, False,
    )
    return rec, int(status)


def play_out(deal: dict, prefs: dict | None = None) -> dict:
    """``deal`` with its plays completed legally: each seat plays the first card of its
    preference list ``prefs[seat]`` that is legal, else its lowest legal card. The legal
    set of each step comes from the replay kernel (its "plays end" error)."""
    deal = dict(deal, plays=list(deal.get("plays", [])))
    prefs = {s: strs(p) for s, p in (prefs or {}).items()}
    for _ in range(40):
        rec, status = kernel(deal)
        if status == L.ST_OK:
            return deal
        assert status == L.ST_MISSING_PLAYS, status
        seat = int(rec[L.ERR_SEAT])
        legal = format_cards(rec[L.ERR_LEGAL])
        deal["plays"].append(next((c for c in prefs.get(seat, []) if c in legal), legal[0]))
    raise AssertionError("the deal did not end")


def engine_play_out(rules, orders, dealer, trump, taker):
    """Legal plays of an eight-trick deal whose hands are known: each seat plays the
    first card of its preference order (``orders[seat]``, its whole hand) that the
    engine's :func:`~belote_sim.kernels.api.legal_cards` allows; the first hand leads the
    first trick. ``trump`` as text (``"H"``, ``"AT"``). Returns the plays and the tricks
    as ``(leader, cards, winner)``."""
    rules = Rules.from_spec(rules)
    n = rules.players
    prefs = [strs(o) for o in orders]
    held = [set(p) for p in prefs]
    leader = (dealer + 1) % n
    plays, tricks = [], []
    for _ in range(8):
        trick: list[str] = []
        for k in range(n):
            seat = (leader + k) % n
            legal = legal_cards(rules, CardSet(sorted(held[seat])), trick, leader, trump, taker)
            card = next(c for c in prefs[seat] if c in held[seat] and c in legal)
            held[seat].remove(card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % n
        tricks.append((leader, trick, winner))
        plays += trick
        leader = winner
    return plays, tricks


# --------------------------------------------------------------------------------------
# Retourne deals (RULES 7.1) from chosen hands, played out with the naive legal cards


def build_pack(
    hands: list[str], retourne: str, taker: int, dealer: int, first_packets: str = "3-2"
) -> list[str]:
    """A pack (top first) that deals ``hands`` (three or four 8-card hands, the taker's
    holding the retourne) by RULES 7.1: packets of 3 then 2 (or 2-3) from the first hand,
    the retourne, then 2 cards to the taker and 3 to the others in turn order; with
    three players the 8 cards left over (index order) end the pack, out of play.
    The first five cards listed of each hand (retourne left out) are the ones dealt
    before the bidding."""
    n = len(hands)
    f = (dealer + 1) % n
    ret = strs(retourne)[0]
    hs = [strs(h) for h in hands]
    assert ret in hs[taker], "the taker's hand holds the retourne"
    first5, rest = {}, {}
    for s in range(n):
        cards = [c for c in hs[s] if c != ret]
        assert len(cards) == (7 if s == taker else 8), (s, cards)
        first5[s], rest[s] = cards[:5], cards[5:]
    a = 3 if first_packets == "3-2" else 2
    pack: list[str] = []
    for lo, hi in ((0, a), (a, 5)):
        for i in range(n):
            pack += first5[(f + i) % n][lo:hi]
    pack.append(ret)
    for i in range(n):
        pack += rest[(f + i) % n]
    pack += [c for c in PACK_BY_INDEX if c not in pack]  # three players: out of play
    assert sorted(pack, key=parse_card) == PACK_BY_INDEX, "hands overlap"
    return pack


def trump_of_calls(calls: list[str], retourne: str) -> int | None:
    """Trump code chosen by the last call of a completed bidding (None: all passed)."""
    last = calls[-1].strip().upper() if calls else "PASS"
    if last == "PASS":
        return None
    if last == "TAKE":
        return parse_card(retourne) // 8
    return TRUMP_NAMES.index(last)


def naive_play_out(rules: Rules, orders: list[str], dealer: int, trump: int, taker: int):
    """Legal plays of a deal (naive legal cards): each seat plays the first card of its
    preference order (``orders[seat]``, its whole hand) that is legal. Returns the plays
    (card strings) and the tricks as ``(leader, cards, winner)``."""
    n = rules.players
    prefs = [[parse_card(c) for c in strs(o)] for o in orders]
    held = [set(p) for p in prefs]
    leader = (dealer + 1) % n
    plays: list[str] = []
    tricks = []
    for _ in range(8):
        trick: list[int] = []
        for k in range(n):
            seat = (leader + k) % n
            legal = naive_legal_cards(rules, held[seat], trick, leader, trump, taker)
            card = next(c for c in prefs[seat] if c in legal)
            held[seat].remove(card)
            prefs[seat].remove(card)
            trick.append(card)
        winner = (leader + naive_trick_winner(trick, trump)) % n
        tricks.append((leader, [format_card(c) for c in trick], winner))
        plays += [format_card(c) for c in trick]
        leader = winner
    return plays, tricks


def make_deal(
    rules: str | dict,
    hands: list[str],
    retourne: str,
    taker: int,
    calls: list[str],
    dealer: int,
    orders: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A complete deal-log deal dealing ``hands``, bid with ``calls`` (the last one the
    taker's), played out by :func:`naive_play_out` from ``orders`` (default: the hands
    as listed)."""
    r = Rules.from_spec(rules)
    pack = build_pack(hands, retourne, taker, dealer, r.first_packets)
    trump = trump_of_calls(calls, retourne)
    plays, _ = naive_play_out(r, orders or hands, dealer, trump, taker)
    return {"rules": rules, "dealer": dealer, "pack": pack, "calls": list(calls),
            "plays": plays, **extra}


# --------------------------------------------------------------------------------------
# Packs of the other families


def coinche_pack(hands: list[str], dealer: int) -> list[str]:
    """A pack (top first) that deals ``hands`` by RULES 7.4: packets of 3, 3 and 2 from
    the first hand ``(dealer + 1) % 4``; each hand's cards are dealt in the order given."""
    f = (dealer + 1) % 4
    cards = [strs(h) for h in hands]
    assert all(len(c) == 8 for c in cards)
    pack: list[str] = []
    for lo, hi in ((0, 3), (3, 6), (6, 8)):
        for i in range(4):
            pack += cards[(f + i) % 4][lo:hi]
    assert sorted(pack, key=parse_card) == PACK_BY_INDEX
    return pack


def stack_pack(*parts: Any, bottom: str | None = None) -> list[str]:
    """A pack, top first: the groups of ``parts`` in order, then every card not named
    in index order, then ``bottom``."""
    top = [c for p in parts for c in strs(p)]
    tail = strs(bottom)
    pack = top + [c for c in PACK_BY_INDEX if c not in top and c not in tail] + tail
    assert sorted(pack, key=parse_card) == PACK_BY_INDEX, "a card is named twice"
    return pack


def two_player_pack(dealer, dealt, turned, more, stock=(), bottom=None) -> list[str]:
    """The pack of a two-player deal (RULES 7.2, 7.3): ``dealt[seat]`` (6 cards, given
    3 + 3 with the non-dealer first), the turned card, ``more[seat]`` (non-dealer first:
    2 or 3 in the stock game, 3 without contract), then ``stock``; the rest in index
    order, ``bottom`` last."""
    h = 1 - dealer
    a, b = strs(dealt[h]), strs(dealt[dealer])
    assert len(a) == len(b) == 6
    return stack_pack(
        a[:3], b[:3], a[3:], b[3:], turned, more.get(h), more.get(dealer), list(stock),
        bottom=bottom,
    )


# --------------------------------------------------------------------------------------
# Checks of a logged retourne deal, against the naive rules


def check_plays_legal(deal: dict[str, Any]) -> None:
    """Every card was played in turn by the right seat, from its hand, and was legal: in
    the logged ``legal`` list, which equals the naive legal set; trick winners and
    leaders follow section 6; every card of the hands is played (all 32 with four
    players)."""
    rules = Rules.from_spec(deal["rules"])
    n = rules.players
    trump = TRUMP_NAMES.index(deal["trump"])
    taker = deal["taker"]
    hands = [{parse_card(c) for c in h} for h in deal["hands"]]
    assert [len(h) for h in hands] == [8] * n
    assert len(set().union(*hands)) == 8 * n
    if n == 4:
        assert sorted(c for h in hands for c in h) == list(range(32))
    leader = (deal["dealer"] + 1) % n
    plays = [parse_card(c) for c in deal["plays"]]
    assert len(plays) == 8 * n and len(deal["tricks"]) == 8
    for t, trick in enumerate(deal["tricks"]):
        assert trick["leader"] == leader
        played = [parse_card(c) for c in trick["cards"]]
        assert played == plays[n * t : n * t + n]
        for k, card in enumerate(played):
            seat = (leader + k) % n
            want = naive_legal_cards(rules, hands[seat], played[:k], leader, trump, taker)
            logged = [parse_card(c) for c in trick["legal"][k]]
            assert logged == sorted(logged), "legal lists are in index order"
            assert card in hands[seat], f"trick {t + 1}: seat {seat} does not hold the card"
            assert card in logged and card in want
            assert set(logged) == want
            hands[seat].remove(card)
        winner = (leader + naive_trick_winner(played, trump)) % n
        assert trick["winner"] == winner
        leader = winner
    assert all(not h for h in hands)


def played_card_points(deal: dict[str, Any]) -> int:
    """Card points of every played card plus the last trick's bonus (no capot)."""
    rules = Rules.from_spec(deal["rules"])
    trump = TRUMP_NAMES.index(deal["trump"])
    return sum(card_value(parse_card(c), trump, rules) for c in deal["plays"]) + (
        last_trick_bonus(trump, rules)
    )


# --------------------------------------------------------------------------------------
# Hypothesis: arbitrary legal retourne deals


def draw_legal_plays(draw, rules: Rules, pack: list[int], dealer: int, taker: int,
                     trump: int) -> list[str]:
    """The plays of a retourne deal of ``pack`` (card indices) taken by ``taker`` in
    ``trump``: each card drawn among the naive legal cards (for use inside a
    ``st.composite`` strategy)."""
    n = rules.players
    first = (dealer + 1) % n
    hands, _ = deal_before_bidding(rules, pack, first)
    pick_up(rules, pack, first, hands, taker)
    plays: list[int] = []
    leader = first
    for _ in range(8):
        trick: list[int] = []
        for k in range(n):
            seat = (leader + k) % n
            legal_set = sorted(
                naive_legal_cards(rules, hands[seat], trick, leader, trump, taker)
            )
            card = legal_set[draw(st.integers(0, len(legal_set) - 1))]
            hands[seat].remove(card)
            trick.append(card)
        plays += trick
        leader = (leader + naive_trick_winner(trick, trump)) % n
    return [format_card(c) for c in plays]


@st.composite
def arbitrary_retourne_deals(draw, preset: str, options: dict, rounds: tuple[int, ...]):
    """A random *legal* deal-log deal of a retourne-family preset (any pack, dealer,
    options drawn from ``options``, bidding round among ``rounds`` with 0 = thrown in),
    its plays drawn among the naive legal cards; with ``tie_rule=litige`` sometimes a
    ``pot_before``. Hypothesis strategy for the replay-against-oracle tests."""
    opts = draw(st.fixed_dictionaries({}, optional=options))
    rules = Rules.from_preset(preset, **opts)
    n = rules.players
    dealer = draw(st.integers(0, n - 1))
    pack = draw(st.permutations(range(32)))
    first = (dealer + 1) % n
    order = [(first + i) % n for i in range(n)]
    retourne = pack[5 * n]
    rnd = draw(st.sampled_from(rounds))
    pos = draw(st.integers(0, n - 1))
    taker = order[pos]
    if rnd == 1:
        calls, trump = ["pass"] * pos + ["take"], retourne // 8
    elif rnd == 2:
        trump = draw(st.sampled_from(round_two_suits(rules, retourne)))
        calls = ["pass"] * (n + pos) + ["CDHS"[trump]]
    elif rnd == 3:
        trump = draw(st.sampled_from([4, 5]))
        calls = ["pass"] * (2 * n + pos) + [["AT", "NT"][trump - 4]]
    else:
        calls = ["pass"] * (n * (3 if rules.all_no_trumps_round else 2))
    deal = {"rules": {"preset": preset, "options": opts} if opts else preset,
            "dealer": dealer, "pack": [format_card(c) for c in pack], "calls": calls}
    if rules.tie_rule == "litige" and draw(st.booleans()):
        deal["pot_before"] = draw(st.sampled_from([81, 129, 130]))
    if rnd == 0:
        return deal
    deal["plays"] = draw_legal_plays(draw, rules, pack, dealer, taker, trump)
    return deal
