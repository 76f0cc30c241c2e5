"""The seat object: one seat's view of a deal, and its player's choice there, the same as
inside ``simulate`` at every position of logged deals."""

from __future__ import annotations

import numpy as np
import pytest

from belote_sim import Rules
from belote_sim.cards import format_card, parse_card
from belote_sim.deallog.format import parse_call
from belote_sim.errors import BeloteError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.seat.seat import Seat
from belote_sim.studies.simulate import simulated_deals


def _dealt(rules: Rules, log: dict, calls: list[str]) -> np.ndarray:
    """The engine's record of the logged deal's first ``calls``: who holds what, whose
    turn it is."""
    codes = np.array([parse_call(c) for c in calls], dtype=np.int64)
    pack = np.array([parse_card(c) for c in log["pack"]], dtype=np.int64)
    rec, _, _ = replay_deal(rules.to_array(), pack, log["dealer"], 0, 0, codes,
                            np.zeros(0, dtype=np.int64), False)
    return rec


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in range(32) if mask >> c & 1]


def positions_of(rules: Rules, log: dict):
    """Every decision of a logged deal: ``(seat, kind, calls so far, plays so far,
    what was chosen)``."""
    n = rules.players
    calls = log["calls"]
    for i, call in enumerate(calls):
        rec = _dealt(rules, log, calls[:i])
        yield int(rec[L.ERR_SEAT]), "call", calls[:i], [], call
    plays = log["plays"]
    for i, card in enumerate(plays):
        trick = log["tricks"][i // n]
        yield (trick["leader"] + i % n) % n, "card", calls, plays[:i], card


def seat_at(rules: Rules, log: dict, seat: int, calls: list[str], plays: list[str],
            bid: str, play: str) -> Seat:
    """A :class:`Seat` shown what ``seat`` saw of the logged deal up to a position."""
    first = _dealt(rules, log, [])
    retourne = int(first[L.RETOURNE])
    s = Seat(rules, seat, player=play, bid_policy=bid)
    s.start(_cards(int(first[L.DEALT + seat])), dealer=log["dealer"],
            retourne=format_card(retourne) if retourne >= 0 else None)
    for c in calls:
        s.observe_call(c)
    if len(calls) == len(log["calls"]) and log["plays"]:  # the auction is over
        after = _dealt(rules, log, log["calls"])
        later = int(after[L.HANDS + seat]) & ~int(first[L.DEALT + seat])
        if later:
            s.receive(_cards(later))
    for c in plays:
        s.observe_card(c)
    if len(calls) == len(log["calls"]) and log["plays"] and rules.declarations:
        s.observe_declarations(shown_of(rules, log))
    return s


RANKS = "789TJQKA"
SUITS = "CDHS"


def shown_of(rules: Rules, log: dict) -> dict[int, str]:
    """The declarations the seats of a logged deal showed (RULES 5): every carré and run
    held by the players of the side that won the contest, read from the deal log."""
    decl = log["declarations"]
    winner = decl["winner_seat"]
    if winner is None:
        return {}
    n = rules.players
    # three players: the taker against the two defenders together
    side = [s == log["taker"] if n == 3 else s % 2 for s in range(n)]
    shown = {}
    for s in range(n):
        if side[s] != side[winner] or not decl["held"][s]:
            continue
        cards = set()
        for d in decl["held"][s]:
            if d["kind"] == "carre":
                cards |= {d["top"] + suit for suit in SUITS}
            else:
                top = RANKS.index(d["top"][0])
                cards |= {RANKS[top - j] + d["top"][1] for j in range(d["length"])}
        shown[s] = " ".join(sorted(cards))
    return shown


CASES = [("classic", "threshold"), ("coinche", "threshold"), ("coinche", "table"),
         ("tout-atout", "threshold"), ("classic", "table"), ("three-player", "threshold")]


@pytest.mark.parametrize("preset,bid", CASES)
def test_the_seat_chooses_as_simulate_does(preset, bid):
    """At every position of logged deals (every call, every card), a seat shown only
    its own view and driven by the deterministic players (threshold or table bidding,
    heuristic play) makes the call or plays the card ``simulate`` logged."""
    rules = Rules.from_preset(preset)
    positions = 0
    for log in simulated_deals(rules, 12, seed=21, bid_policy=bid, play_policy="heuristic"):
        for seat, kind, calls, plays, chosen in positions_of(rules, log):
            s = seat_at(rules, log, seat, calls, plays, bid, "heuristic")
            choice = s.decide()
            assert choice.kind == kind
            if kind == "call":
                assert parse_call(choice.item) == parse_call(chosen), (calls, seat)
            else:
                assert parse_card(choice.item) == parse_card(chosen), (plays, seat)
                assert chosen in choice.legal
            positions += 1
    assert positions >= 120


def test_the_seat_refuses_what_it_cannot_have_seen():
    s = Seat("classic", 1)
    with pytest.raises(BeloteError, match="start the deal"):
        s.decide()
    with pytest.raises(BeloteError, match="5 cards before the auction, not 4"):
        s.start("JH 9H AH 7D", dealer=0, retourne="TH")
    with pytest.raises(BeloteError, match="retourne TH is in the hand"):
        s.start("JH 9H TH 7D 8C", dealer=0, retourne="TH")
    s.start("JH 9H AH 7D 8C", dealer=0, retourne="TH")
    s.observe_call("pass")
    with pytest.raises(BeloteError, match="seat 2's turn"):
        s.decide()
    s2 = Seat("classic", 1)
    s2.start("JH 9H AH 7D 8C", dealer=0, retourne="TH")
    s2.observe_call("NT")
    with pytest.raises(BeloteError, match="call 1"):
        s2.decide()


def test_advise_values_every_legal_card_and_marks_the_choice(tmp_path):
    """``advise`` at a card position: one row per legal card with its value and
    P(made); the chosen card is the seat's (the heuristic's, as in ``decide``); the
    values are a function of the seed."""
    from belote_sim.seat.advise import advise

    args = dict(seat=0, dealer=3, calls="80S pass 90H pass pass pass", plays="AS 7S 8S QS",
                player="heuristic", worlds=300, seed=4)
    df = advise("coinche", "JS 9S AS TS KH 7D 8C 7C", **args)
    assert df.chosen.sum() == 1
    assert set(df.candidate) <= {"JS", "9S", "TS", "KH", "7D", "8C", "7C"}
    assert (df.worlds == 300).all()
    assert ((df.difference_low <= df.mean_difference)
            & (df.mean_difference <= df.difference_high)).all()
    again = advise("coinche", "JS 9S AS TS KH 7D 8C 7C", **args)
    assert df.equals(again)


def test_advise_cli_answers_in_one_table_and_refuses_bad_positions(tmp_path):
    import subprocess
    import sys

    import pandas as pd

    base = [sys.executable, "-m", "belote_sim", "advise", "--rules", "classic", "--hand",
            "JH 9H AH 7D 8C", "--seat", "1", "--dealer", "0", "--retourne", "TH",
            "--worlds", "200"]
    out = subprocess.run([*base, "--out", str(tmp_path / "a.parquet")], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "take" in out.stdout and "<- choice" in out.stdout
    df = pd.read_parquet(tmp_path / "a.parquet")
    assert df.loc[df.chosen, "candidate"].item() == "take"
    for extra, says in ((["--calls", "pass"], "seat 2's turn"),
                        (["--shown", "1 7H 8H 9H"], "write SEAT: CARDS"),
                        (["--shown", "2: 7S 8S 9S"], "once the auction is over")):
        bad = subprocess.run([*base, *extra], capture_output=True, text=True, timeout=600)
        assert bad.returncode == 2 and says in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_advise_takes_the_declarations_shown():
    """After the auction of a classic deal whose declarations were shown, ``advise``
    takes them (its deals show the same) and records them; cards the seat holds cannot
    be another seat's declaration."""
    from belote_sim.seat.advise import advise

    rules = Rules.from_preset("classic")
    for log in simulated_deals(rules, 40, seed=8, bid_policy="threshold",
                               play_policy="heuristic"):
        shown = shown_of(rules, log)
        if shown and log["plays"]:
            break
    else:
        pytest.fail("no deal of 40 showed a declaration")
    seat = log["tricks"][0]["leader"]
    first = _dealt(rules, log, [])
    hand = _cards(int(_dealt(rules, log, log["calls"])[L.HANDS + seat]))
    args = dict(seat=seat, dealer=log["dealer"], retourne=format_card(int(first[L.RETOURNE])),
                calls=log["calls"], player="heuristic", worlds=20)
    df = advise(rules, hand, shown=shown, **args)
    assert df.chosen.sum() == 1
    assert df.attrs["provenance"]["shown"] == {
        k: " ".join(sorted(v.split(), key=parse_card)) for k, v in shown.items()}
    other = (seat + 1) % 4
    with pytest.raises(BeloteError, match="is not the seat's own|is the seat's own"):
        advise(rules, hand, shown={other: " ".join(hand[:3])}, **args)


@pytest.mark.parametrize("preset", ["coinche", "classic"])
def test_a_pimc_seat_values_every_legal_card_and_plays_the_best(preset):
    """A ``fastpimc`` seat returns its value of every legal card (the takers' points it
    expects over its worlds) and plays the best one for its side, the lowest on ties."""
    rules = Rules.from_preset(preset)
    asked = 0
    for log in simulated_deals(rules, 4, seed=3, bid_policy="threshold",
                               play_policy="heuristic"):
        for seat, kind, calls, plays, _ in positions_of(rules, log):
            if kind != "card":
                continue
            choice = seat_at(rules, log, seat, calls, plays, "threshold",
                             "fastpimc:6").decide()
            values = dict(choice.values)
            if len(choice.legal) == 1:  # a forced card: nothing to value
                assert choice.worlds == 0 and not values and choice.item == choice.legal[0]
                continue
            # fewer worlds where the budget finds fewer that give the calls
            assert 1 <= choice.worlds <= 6 and set(values) == set(choice.legal)
            takers = (seat & 1) == (log["taker"] & 1)
            best = (max if takers else min)(values.values())
            assert choice.item == min((c for c, v in values.items() if v == best),
                                      key=parse_card)
            asked += 1
    assert asked >= 25


@pytest.mark.parametrize("preset", ["coinche", "classic"])
def test_a_pimc_seat_handed_the_engines_stream_chooses_as_the_engine(preset):
    """A sampling player (``pimc:3``, which solves its worlds exactly) through the seat,
    with the random stream the engine hands its player at that position, plays the card
    it plays inside the engine (``play_on``, from the true pack), whatever the seed."""
    from belote_sim.players.seating import players_of
    from belote_sim.players.spec import as_spec
    from belote_sim.seat.positions import play_on

    rules = Rules.from_preset(preset)
    players = players_of(as_spec("threshold", "bid"), as_spec("pimc:3", "play"),
                         rules.to_array())
    asked = 0
    for log in simulated_deals(rules, 2, seed=5, bid_policy="threshold",
                               play_policy="heuristic"):
        pack = np.array([parse_card(c) for c in log["pack"]], dtype=np.int64)
        for seat, kind, calls, plays, _ in positions_of(rules, log):
            if kind != "card":
                continue
            for seed in (0, 1):
                s = seat_at(rules, log, seat, calls, plays, "threshold", "pimc:3")
                s.seed = seed
                choice = s.decide()
                history, _ = s.position()
                rec = play_on(rules.to_array(), players, pack, history, np.int64(seed))
                assert choice.item == format_card(int(rec[L.PLAYS + len(plays)])), (
                    plays, seat, seed)
                asked += 1
    assert asked >= 100


def test_the_other_seats_cards_lie_anywhere_in_their_hands():
    """In a retourne game a seat does not know which of another seat's cards were among
    the five it bid with: a card that seat played lies at each of its eight positions
    (the retourne's aside) equally often in the packs completing the view, so five
    times in eight among the first five."""
    from belote_sim.kernels.rng import seed_stream
    from belote_sim.seat import positions

    rules = Rules.from_preset("classic")
    log = next(log for log in simulated_deals(rules, 10, seed=2, bid_policy="threshold",
                                              play_policy="heuristic") if log["plays"])
    leader = log["tricks"][0]["leader"]
    seat = (leader + 1) % 4
    s = seat_at(rules, log, seat, log["calls"], log["plays"][:1], "threshold", "heuristic")
    _, seen = s.position()
    rec, where = s._slots()
    first = set(s._positions(where, rec[L.DEALT + leader]))
    card = parse_card(log["plays"][0])
    pack = np.zeros(32, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    n, hits = 4000, 0
    for k in range(n):
        seed_stream(rng, 11, k, 0)
        positions._complete(pack, seen, rng)
        hits += int(np.flatnonzero(pack == card)[0]) in first
    assert abs(hits / n - 5 / 8) < 4 * np.sqrt(5 / 8 * 3 / 8 / n), hits / n


def test_a_dd_seat_shown_every_hand_plays_as_simulate():
    """``dd`` plays seeing every hand: a seat shown them (``reveal``) plays the card it
    plays inside ``simulate`` at every card of logged deals, and refuses to play
    without them."""
    rules = Rules.from_preset("classic")
    asked = 0
    for log in simulated_deals(rules, 3, seed=4, bid_policy="threshold", play_policy="dd"):
        if not log["plays"]:
            continue
        after = _dealt(rules, log, log["calls"])
        for seat, kind, calls, plays, chosen in positions_of(rules, log):
            if kind != "card":
                continue
            s = seat_at(rules, log, seat, calls, plays, "threshold", "dd")
            if asked == 0:
                with pytest.raises(BeloteError, match="reveal the other seats' hands"):
                    s.decide()
            s.reveal({o: _cards(int(after[L.HANDS + o])) for o in range(4) if o != seat})
            assert s.decide().item == chosen, (plays, seat)
            asked += 1
    assert asked >= 32
