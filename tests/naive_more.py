"""A slow, obvious, pure-Python reference ("test oracle") for the presets that
``tests/naive.py`` does not play: ``three-player`` (RULES.md 7.1 and 8, three players)
and ``no-contract-4p`` (7.3 and 8, no-contract games); it plays the four-player retourne
presets too (``tout-atout`` included), so one function replays any deal of 7.1/7.3 with
three or four players.

Written from ``shared/RULES.md`` and ``shared/DEAL_LOG.md`` with Python sets and lists.
It reuses only the per-card helpers of ``tests/naive.py`` (legal cards, trick winner,
declarations, card values), which import nothing from ``belote_sim.kernels`` or
``belote_sim.engine``.

It also holds small deal-building helpers for hand-built tests: :func:`build_pack` lays
out a pack that deals chosen hands, :func:`naive_play_out` plays them out legally from
each seat's preference order, :func:`make_deal` does both.

>>> rules = Rules.from_preset("three-player")
>>> naive_score_three_player(rules, [11, 60, 59], taker=0, capot=None, decl=[0, 0, 0],
...                          belote=[0, 0, 0])["deal_score"]
[0, 66, 65]
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from naive import (
    ALL_TRUMPS,
    NO_TRUMPS,
    TRUMP_NAMES,
    _decl_key,
    card_value,
    declaration_suit,
    last_trick_bonus,
    naive_declarations,
    naive_legal_cards,
    naive_trick_winner,
)

from belote_sim.cards import RANKS, SUITS, format_card, parse_card
from belote_sim.rules import Rules

__all__ = [
    "naive_replay_more",
    "naive_sides",
    "naive_contest_sides",
    "naive_score_three_player",
    "naive_score_no_contract",
    "build_pack",
    "naive_play_out",
    "make_deal",
    "trump_of_calls",
    "inputs_of",
    "check_plays_legal",
    "played_card_points",
]

INPUT_FIELDS = ("rules", "dealer", "pack", "calls", "plays", "redeals_before", "pot_before")
ALL_CARDS = [format_card(c) for c in range(32)]
CAPOT = 90


def _strs(cards: str | list[str]) -> list[str]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [format_card(parse_card(c)) for c in cards]


def _fmt_sorted(cards) -> list[str]:
    return [format_card(c) for c in sorted(cards)]


def naive_sides(n: int, taker: int) -> list[int]:
    """Side of each seat: seat parity with four players; with three, 0 for the taker and
    1 for the two defenders (RULES 3 and 8)."""
    if n == 4:
        return [s % 2 for s in range(4)]
    return [0 if s == taker else 1 for s in range(n)]


# ----------------------------------------------------------------------------------
# Section 5: the contest between two sides, any seating


def naive_contest_sides(
    held: list[list[dict]], sides: list[int], trump: int, first_hand: int, declaration_tie: str
) -> tuple[int | None, int | None]:
    """``(winning side, winner_seat)`` of the declaration contest, ``(None, None)`` when
    nobody scores. A side's best: strongest, then in trump, then first in turn order."""
    n = len(held)
    suit_contract = trump in (0, 1, 2, 3)
    best: dict[int, tuple] = {}
    for seat in range(n):
        turn = (seat - first_hand) % n
        for d in held[seat]:
            in_trump = suit_contract and declaration_suit(d) == trump
            cand = ((_decl_key(d), in_trump, -turn), seat)
            side = sides[seat]
            if side not in best or cand > best[side]:
                best[side] = cand
    if not best:
        return None, None
    if len(best) == 1:
        side = next(iter(best))
        return side, best[side][1]
    (k0, t0, turn0), seat0 = best[0]
    (k1, t1, turn1), seat1 = best[1]
    if k0 != k1:
        return (0, seat0) if k0 > k1 else (1, seat1)
    if t0 != t1:
        return (0, seat0) if t0 else (1, seat1)
    if declaration_tie == "first":
        return (0, seat0) if turn0 > turn1 else (1, seat1)  # turns are stored negated
    return None, None


# ----------------------------------------------------------------------------------
# Section 8: scoring


def naive_score_three_player(
    rules: Rules,
    seat_points: list[int],
    taker: int,
    capot: str | None,
    decl: list[int],
    belote: list[int],
) -> dict:
    """Three players, every figure per seat. ``seat_points``: each seat's card points
    (last trick's 10 included, no capot bonus); ``capot``: ``"taker"``, ``"defenders"``
    or None; ``decl``: each seat's contest points."""
    n = 3
    C = list(seat_points)
    for s in range(n):
        if capot == "taker" and s == taker:
            C[s] += CAPOT
        elif capot == "defenders" and s != taker:
            C[s] += CAPOT // 2  # 45 to each defender
    own = [C[s] + decl[s] + belote[s] for s in range(n)]
    s_t = own[taker]
    s_e = sum(own[s] for s in range(n) if s != taker)
    if s_t > s_e or (s_t == s_e and rules.tie_rule == "takers"):
        outcome, score = "made", list(own)
    elif s_t == s_e and rules.tie_rule == "split":
        outcome, score = "tie", list(own)
    else:
        outcome = "dedans"
        # half, halves up, of the taker's card points without any capot bonus, and
        # of its declarations
        half = -(-(seat_points[taker] + decl[taker]) // 2)
        score = [belote[s] if s == taker else own[s] + half for s in range(n)]
    return {
        "card_points": C,
        "score_takers": s_t,
        "score_defenders": s_e,
        "outcome": outcome,
        "deal_score": score,
    }


def naive_score_no_contract(
    side_points: list[int], taker_side: int, capot_side: int | None, decl: list[int],
    belote: list[int],
) -> dict:
    """No-contract games: each side its own C + D + B; a capot replaces the last trick's
    10 by 100 (``side_points`` hold the 10). Outcome ``dedans`` iff the taker's side
    scores less, for the statistics only."""
    C = [side_points[s] + (100 - 10 if capot_side == s else 0) for s in (0, 1)]
    S = [C[s] + decl[s] + belote[s] for s in (0, 1)]
    outcome = "dedans" if S[taker_side] < S[1 - taker_side] else "made"
    return {"card_points": C, "outcome": outcome, "deal_score": S}


# ----------------------------------------------------------------------------------
# Sections 4, 7.1 and 7.3: one deal from its deal-log input fields


def trump_of_calls(calls: list[str], retourne: str) -> int | None:
    """Trump code chosen by the last call of a completed bidding (None: all passed)."""
    last = calls[-1].strip().upper() if calls else "PASS"
    if last == "PASS":
        return None
    if last == "TAKE":
        return parse_card(retourne) // 8
    return TRUMP_NAMES.index(last)


def round_two_suits(rules: Rules, turned: int) -> list[int]:
    """The suits round 2 may name (RULES 7.1 step 3): the three other than the turned
    card's, or all four with ``second_round = any``."""
    return [s for s in range(4) if s != turned // 8 or rules.second_round == "any"]


def naive_replay_more(deal: dict[str, Any]) -> dict[str, Any]:
    """Play a retourne deal (three or four players) or a four-player no-contract deal
    from its input fields; return it with every result field of DEAL_LOG.md. Raises
    ``ValueError`` on an illegal call or card."""
    rules = Rules.from_spec(deal.get("rules", "classic"))
    n = rules.players
    if (rules.contract, n) not in {("retourne", 3), ("retourne", 4), ("none", 4)}:
        raise ValueError("naive_replay_more plays 7.1 with 3/4 players and 7.3 with 4")
    dealer = deal["dealer"]
    pack = [parse_card(c) for c in deal["pack"]]
    if sorted(pack) != list(range(32)):
        raise ValueError("the pack must hold the 32 cards once each")
    calls = [c.strip().lower() for c in deal.get("calls", [])]
    plays = [parse_card(c) for c in deal.get("plays", [])]
    pot_before = deal.get("pot_before", 0)
    first = (dealer + 1) % n
    order = [(first + i) % n for i in range(n)]
    out = {k: deal[k] for k in INPUT_FIELDS if k in deal}

    # Five cards each in packets (3-2 or 2-3) from the first hand, then the retourne.
    hands: list[set[int]] = [set() for _ in range(n)]
    top = 0
    for size in (3, 2) if rules.first_packets == "3-2" else (2, 3):
        for seat in order:
            hands[seat].update(pack[top : top + size])
            top += size
    retourne = pack[top]
    top += 1

    # Bidding: round 1 (take), round 2 (another suit, or any suit with second_round=any),
    # round 3 (AT/NT) when allowed.
    rounds = 3 if rules.all_no_trumps_round else 2
    taker = trump = None
    i = 0
    for rnd in range(1, rounds + 1):
        for seat in order:
            if i >= len(calls):
                raise ValueError(f"the calls end after {i} call(s), bidding not over")
            c = calls[i]
            i += 1
            if c == "pass":
                continue
            if rnd == 1 and c == "take":
                taker, trump = seat, retourne // 8
            elif rnd == 2 and c.upper() in SUITS and (
                SUITS.index(c.upper()) != retourne // 8 or rules.second_round == "any"
            ):
                taker, trump = seat, SUITS.index(c.upper())
            elif rnd == 3 and c in ("at", "nt"):
                taker, trump = seat, ALL_TRUMPS if c == "at" else NO_TRUMPS
            else:
                raise ValueError(f"call {i}: {c!r} is not allowed in round {rnd}")
            break
        if taker is not None:
            break
    if i != len(calls):
        raise ValueError(f"call {i + 1}: calls left after the bidding is over")
    if taker is None:
        out["thrown_in"] = True
        out["hands"] = [_fmt_sorted(h) for h in hands]
        return out

    # Pickup: the retourne and 2 more to the taker, 3 to everyone else.
    hands[taker].add(retourne)
    for seat in order:
        size = 2 if seat == taker else 3
        hands[seat].update(pack[top : top + size])
        top += size
    assert top == 8 * n and all(len(h) == 8 for h in hands)
    start = [set(h) for h in hands]
    sides = naive_sides(n, taker)

    # Play: 8 tricks of n cards.
    if len(plays) != 8 * n:
        raise ValueError(f"a deal has {8 * n} plays, got {len(plays)}")
    tricks = []
    leader = first
    p = 0
    for _ in range(8):
        cards: list[int] = []
        legal_lists = []
        for k in range(n):
            seat = (leader + k) % n
            legal = naive_legal_cards(rules, hands[seat], cards, leader, trump, taker)
            card = plays[p]
            if card not in legal:
                raise ValueError(
                    f"play {p + 1}: {format_card(card)} by seat {seat} is illegal "
                    f"(legal: {' '.join(_fmt_sorted(legal))})"
                )
            hands[seat].remove(card)
            cards.append(card)
            legal_lists.append(_fmt_sorted(legal))
            p += 1
        winner = (leader + naive_trick_winner(cards, trump)) % n
        tricks.append({"leader": leader, "cards": [format_card(c) for c in cards],
                       "winner": winner, "legal": legal_lists})
        leader = winner

    # Declarations, the contest (per seat with three players, else per side).
    width = 3 if n == 3 else 2
    decl_points = [0] * width
    winner_seat = None
    if rules.declarations:
        held = [naive_declarations(h, rules.split_long_runs) for h in start]
        w_side, winner_seat = naive_contest_sides(held, sides, trump, first,
                                                  rules.declaration_tie)
        if w_side is not None:
            for seat in range(n):
                if sides[seat] == w_side:
                    own = sum(d["points"] for d in held[seat])
                    decl_points[seat if n == 3 else w_side] += own
    else:
        held = [[] for _ in range(n)]

    # Belote: K+Q of a trump suit in one hand (every suit in AT, none in NT).
    belote = [0] * width
    if rules.belote and trump != NO_TRUMPS:
        for seat in range(n):
            for s in range(4) if trump == ALL_TRUMPS else [trump]:
                k, q = 8 * s + RANKS.index("K"), 8 * s + RANKS.index("Q")
                if k in start[seat] and q in start[seat]:
                    belote[seat if n == 3 else sides[seat]] += 20

    # Card points won by each seat, last trick included.
    seat_points = [0] * n
    for t in tricks:
        seat_points[t["winner"]] += sum(card_value(parse_card(c), trump, rules)
                                        for c in t["cards"])
    seat_points[tricks[-1]["winner"]] += last_trick_bonus(trump, rules)
    winning_sides = {sides[t["winner"]] for t in tricks}
    capot_side = winning_sides.pop() if len(winning_sides) == 1 else None

    out["thrown_in"] = False
    out["trump"] = TRUMP_NAMES[trump]
    out["taker"] = taker
    out["contract"] = None
    out["hands"] = [_fmt_sorted(h) for h in start]
    out["tricks"] = tricks
    out["declarations"] = {"held": held, "winner_seat": winner_seat, "points": decl_points}
    out["belote"] = belote
    out["capot"] = (
        None if capot_side is None else [s for s in range(n) if sides[s] == capot_side]
    )
    out["pot"] = 0
    out["pot_won_by"] = None
    if n == 3:
        capot = None if capot_side is None else ("taker" if capot_side == 0 else "defenders")
        sc = naive_score_three_player(rules, seat_points, taker, capot, decl_points, belote)
        out["card_points"] = sc["card_points"]
        out["outcome"] = sc["outcome"]
        out["deal_score"] = sc["deal_score"]
        return out
    side_points = [sum(seat_points[s] for s in range(4) if sides[s] == side) for side in (0, 1)]
    if rules.contract == "none":
        sc = naive_score_no_contract(side_points, sides[taker], capot_side, decl_points, belote)
        out.update(sc)
        return out
    # four-player retourne: the two-side scoring of tests/naive.py
    from naive import deal_total, naive_score

    sc = naive_score(rules.tie_rule, side_points, sides[taker], capot_side, decl_points,
                     belote, pot_before, deal_total(trump, rules))
    out["card_points"] = sc["card_points"]
    out["outcome"] = sc["outcome"]
    out["pot"] = sc["pot"]
    out["pot_won_by"] = sc["pot_won_by"]
    out["deal_score"] = sc["deal_score"]
    return out


# ----------------------------------------------------------------------------------
# Section 4, shuffle = cut: the pack after a deal, before the cut


def naive_rebuilt_pack(deal: dict[str, Any]) -> list[str]:
    """The pack rebuilt after ``deal`` (a deal-log deal with its result fields), before
    the cut: a played deal's cards in play order, a thrown-in deal's hands in turn
    order from the first hand (each as its holder sorted it, in index order); then the
    cards nobody picked up, in the order they lay in the pack. In the two-player game
    without contract the seven of trumps, once exchanged, lies where the turned card
    lay: the turned card was then played, which no other deal of that game does."""
    rules = Rules.from_spec(deal["rules"])
    n = rules.players
    pack = list(deal["pack"])
    if deal["thrown_in"]:
        first = (deal["dealer"] + 1) % n
        top = [c for i in range(n)
               for c in sorted(deal["hands"][(first + i) % n], key=parse_card)]
    else:
        top = list(deal["plays"])
    lying = pack
    if rules.contract == "none" and n == 2 and not deal["thrown_in"] and pack[12] in top:
        seven = "7" + deal["trump"]
        lying = [seven if c == pack[12] else c for c in pack if c != seven]
    return top + [c for c in lying if c not in top]


# ----------------------------------------------------------------------------------
# Deal-building helpers for hand-built tests


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
    ret = _strs(retourne)[0]
    hs = [_strs(h) for h in hands]
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
    pack += [c for c in ALL_CARDS if c not in pack]  # three players: out of play
    assert sorted(pack, key=parse_card) == ALL_CARDS, "hands overlap"
    return pack


def naive_play_out(rules: Rules, orders: list[str], dealer: int, trump: int, taker: int):
    """Legal plays of a deal (naive legal cards): each seat plays the first card of its
    preference order (``orders[seat]``, its whole hand) that is legal. Returns the plays
    (card strings) and the tricks as ``(leader, cards, winner)``."""
    n = rules.players
    prefs = [[parse_card(c) for c in _strs(o)] for o in orders]
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


# ----------------------------------------------------------------------------------
# Checks shared by the property tests of the new presets


def inputs_of(deal: dict[str, Any]) -> dict[str, Any]:
    """The deal-log input fields of a deal."""
    return {k: deal[k] for k in INPUT_FIELDS if k in deal}


def check_plays_legal(deal: dict[str, Any]) -> None:
    """Every card was played in turn by the right seat, from its hand, and was legal: in
    the logged ``legal`` list, which equals the naive legal set; trick winners and
    leaders follow section 6; every card of the hands is played."""
    rules = Rules.from_spec(deal["rules"])
    n = rules.players
    trump = TRUMP_NAMES.index(deal["trump"])
    taker = deal["taker"]
    hands = [{parse_card(c) for c in h} for h in deal["hands"]]
    assert [len(h) for h in hands] == [8] * n
    assert len(set().union(*hands)) == 8 * n
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
    hands = [set() for _ in range(n)]
    top = 0
    for size in (3, 2) if rules.first_packets == "3-2" else (2, 3):
        for seat in order:
            hands[seat].update(pack[top : top + size])
            top += size
    hands[taker].add(pack[top])
    top += 1
    for seat in order:
        size = 2 if seat == taker else 3
        hands[seat].update(pack[top : top + size])
        top += size
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
    deal["plays"] = [format_card(c) for c in plays]
    return deal
