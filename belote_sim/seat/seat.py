"""A seat anyone can drive: one seat's view of a deal, and its player's choice there.

An app, a bot framework or a test drives a :class:`Seat` deal by deal, showing it only
what its seat sees: :meth:`Seat.start` with its cards, the dealer and the retourne,
then every call (:meth:`Seat.observe_call`), the cards dealt after the auction in
retourne games (:meth:`Seat.receive`), the declarations shown
(:meth:`Seat.observe_declarations`) and every card (:meth:`Seat.observe_card`); a ``dd``
seat, which plays seeing every hand, is also shown them (:meth:`Seat.reveal`).
:meth:`Seat.decide` asks its player for the next call or card when it is the seat's
turn. The choice comes from the engine itself (:func:`belote_sim.seat.positions.decide_at`):
the history is replayed by the engine's kernels in a deal completing what the seat saw,
and the seat's player chooses there, as inside ``simulate``.

>>> seat = Seat("classic", 1, player="heuristic", bid_policy="threshold")
>>> seat.start("JH 9H AH 7D 8C", dealer=0, retourne="TH")
>>> seat.decide().item
'take'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from belote_sim.cards import cards_of, format_card, format_cards, parse_card
from belote_sim.cards import parse_cards as _parse_cards
from belote_sim.deallog.format import format_call, parse_call
from belote_sim.deallog.replay import explain
from belote_sim.errors import BeloteError
from belote_sim.game.deals import replay_deal
from belote_sim.kernels import layout as L
from belote_sim.players.spec import PolicySpec, as_spec, check_policies
from belote_sim.rules import Rules
from belote_sim.seat import positions
from belote_sim.studies.playouts import rules_of

#: Packs a decision may try before it says that no deal gives the cards played.
MAX_TRIES = 100_000


@dataclass(frozen=True)
class Choice:
    """A decision of the seat's player: ``kind`` (``"call"`` or ``"card"``), the
    ``item`` chosen (a call as ``parse_call`` reads it, or a card as ``"JH"``), the
    ``legal`` cards (a card decision), the packs tried to reach the position, and a
    ``pimc`` player's ``values``."""

    kind: str
    item: str
    legal: tuple[str, ...] = ()
    tries: int = 1
    #: A ``pimc`` player's value of each legal card: the takers' points it expects,
    #: averaged over its ``worlds`` (empty for the other players, and for a forced card).
    values: tuple[tuple[str, float], ...] = ()
    worlds: int = 0


@dataclass
class Seat:
    """One seat of a deal under ``rules``, played by ``player`` (a card-play policy)
    bidding by ``bid_policy``, which is also the model of the other seats' calls for the
    players that read them. ``seed`` fixes the decision's random stream."""

    rules: Rules | str
    seat: int
    player: str | PolicySpec = "heuristic"
    bid_policy: str | PolicySpec = "threshold"
    seed: int = 0
    _calls: list[int] = field(default_factory=list, init=False)
    _plays: list[int] = field(default_factory=list, init=False)
    _first: list[int] = field(default_factory=list, init=False)
    _later: list[int] = field(default_factory=list, init=False)
    _shown: dict[int, list[int]] | None = field(default=None, init=False)
    _revealed: dict[int, list[int]] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.rules = rules_of(self.rules)
        n = self.rules.players
        if not 0 <= int(self.seat) < n:
            raise BeloteError(f"seat {self.seat!r}: a seat of {self.rules.preset} is 0..{n - 1}")
        self.player = as_spec(self.player, "play")
        self.bid_policy = as_spec(self.bid_policy, "bid")
        check_policies(self.rules, self.bid_policy, self.player)
        self._dealer: int | None = None
        self._retourne = -1

    # -- what the seat sees --------------------------------------------------------------

    def start(self, hand: str | Iterable[str], *, dealer: int,
              retourne: str | None = None) -> None:
        """A new deal: the seat's cards as dealt before the auction (five in the
        retourne games, all eight in coinche), the ``dealer`` and the ``retourne``."""
        n = self.rules.players
        if not 0 <= int(dealer) < n:
            raise BeloteError(f"dealer {dealer!r}: a seat of {self.rules.preset} is 0..{n - 1}")
        self._dealer = int(dealer)
        self._calls, self._plays, self._later = [], [], []
        self._shown = self._revealed = None
        self._retourne = parse_card(retourne) if retourne else -1
        cards = _parse_cards(hand)
        rec, _ = self._slots()
        want = bin(int(rec[L.DEALT + self.seat])).count("1")
        if len(cards) != want:
            raise BeloteError(f"the seat is dealt {want} cards before the auction, not "
                              f"{len(cards)} ({' '.join(format_card(c) for c in cards)})")
        has_retourne = int(rec[L.RETOURNE]) >= 0
        if has_retourne and self._retourne < 0:
            raise BeloteError(f"{self.rules.preset} turns a retourne: give it")
        if not has_retourne and self._retourne >= 0:
            raise BeloteError(f"{self.rules.preset} turns no retourne: "
                              f"{format_card(self._retourne)} given")
        if self._retourne in cards:
            raise BeloteError(f"the retourne {format_card(self._retourne)} is in the hand")
        self._first = cards

    def observe_call(self, call: str | int) -> None:
        """The next call of the auction, whoever makes it."""
        self._require_started()
        code = parse_call(call, self.rules.capot_value) if isinstance(call, str) else int(call)
        self._calls.append(code)

    def receive(self, cards: str | Iterable[str]) -> None:
        """Retourne games: the cards dealt to the seat after the auction (the taker's
        include the retourne)."""
        self._require_started()
        got = _parse_cards(cards)
        seen = set(self._first) | set(self._later)
        for c in got:
            if c in seen:
                raise BeloteError(f"{format_card(c)} is already the seat's")
        self._later += [c for c in got if c != self._retourne]

    def observe_card(self, card: str | int) -> None:
        """The next card played, whoever plays it."""
        self._require_started()
        c = parse_card(card) if isinstance(card, str) else int(card)
        if c in self._plays:
            raise BeloteError(f"{format_card(c)} was already played "
                              f"(card {self._plays.index(c) + 1})")
        self._plays.append(c)

    def observe_declarations(self, shown: Mapping[int, str | Iterable[str]]) -> None:
        """The declarations shown (RULES 5: every carré and run of the side that won the
        contest, read at the start of the first trick; the engine's players know them
        from its first card on): the cards each seat showed, by seat; the seats left out
        showed none. Until they are given, a decision's deals may show any."""
        cards = self._cards_by_seat(shown, "the declarations are shown", others=False)
        taken = [c for cs in cards.values() for c in cs]
        if len(set(taken)) != len(taken):
            raise BeloteError("a card is shown twice")
        own = set(self._first) | set(self._later)
        for who, cs in cards.items():
            for c in cs:
                if (who == self.seat) != (c in own) and c != self._retourne:
                    raise BeloteError(f"{format_card(c)} shown by seat {who} is "
                                      f"{'not ' if who == self.seat else ''}the seat's own")
        self._shown = cards

    def reveal(self, hands: Mapping[int, str | Iterable[str]]) -> None:
        """Every other seat's hand once the auction is over (all its cards at the first
        trick, the taker's with the retourne), by seat: what a ``dd`` seat must be
        shown, since it plays seeing every hand. A fair player ignores them."""
        cards = self._cards_by_seat(hands, "the hands are revealed", others=True)
        n = self.rules.players
        missing = sorted(set(range(n)) - {self.seat} - set(cards))
        if missing:
            raise BeloteError(f"reveal every other hand: seat {missing[0]}'s is missing")
        self._revealed = cards

    def _cards_by_seat(self, given: Mapping[int, str | Iterable[str]], what: str,
                       others: bool) -> dict[int, list[int]]:
        """``given`` parsed, once the auction is over, by seat (with ``others``, the
        seat's own refused)."""
        self._require_started()
        n = self.rules.players
        if self._status(self._slots()[0]) == L.ST_MISSING_CALLS:
            raise BeloteError(f"{what} once the auction is over")
        cards: dict[int, list[int]] = {}
        for who, text in given.items():
            if not 0 <= int(who) < n or (others and int(who) == self.seat):
                mine = f" but {self.seat}" if others else ""
                raise BeloteError(f"seat {who!r}: {what} by the seats of "
                                  f"{self.rules.preset}, 0..{n - 1}{mine}")
            cards[int(who)] = _parse_cards(text)
        return cards

    def shown(self) -> dict[int, str] | None:
        """The declarations shown, by seat, as given (``None`` before they are)."""
        if self._shown is None:
            return None
        return {who: " ".join(format_cards(sum(1 << c for c in cs)))
                for who, cs in self._shown.items()}

    # -- the decision ----------------------------------------------------------------------

    def decide(self) -> Choice:
        """The seat's player's next call or card.

        :raises BeloteError: one line when it is not the seat's turn, when the history
            breaks a rule (naming the step, the seat and the rule), or when no deal
            gives the cards played."""
        history, seen = self.position()
        bidding = bool(history.bidding)
        if self.player.name == "dd" and not bidding and self._revealed is None:
            raise BeloteError("dd plays seeing every hand: reveal the other seats' hands "
                              "first (Seat.reveal)")
        from belote_sim.players.seating import players_of

        rules = self.rules.to_array()
        players = players_of(self.bid_policy, self.player, rules, with_solver=True)
        out, last, values = positions.decide_at(rules, players, seen, history,
                                        np.int64(self.seed), np.int64(MAX_TRIES))
        status = int(out[positions.OUT_STATUS])
        if status == L.ST_ILLEGAL_CARD and int(out[positions.OUT_SEAT]) != self.seat:
            shows = " or shows other declarations" if self._shown is not None else ""
            raise BeloteError(
                f"no deal gives the cards played: in {int(out[positions.OUT_TRIES]):,} deals of "
                f"the unseen cards some seat's card always breaks a rule{shows} "
                f"({explain(last, status, 1, self.rules, where='for example')})"
            )
        if status != L.ST_DECIDED:
            if status == L.ST_OK:
                raise BeloteError("the deal is over: there is nothing to decide")
            raise BeloteError(explain(last, status, 1, self.rules, where="the history"))
        whose = int(out[positions.OUT_SEAT])
        if whose != self.seat:
            raise BeloteError(f"it is seat {whose}'s turn, not seat {self.seat}'s")
        item = int(out[positions.OUT_ITEM])
        if bidding:
            return Choice("call", format_call(item, self.rules.capot_value),
                          tries=int(out[positions.OUT_TRIES]))
        legal = int(out[positions.OUT_LEGAL])
        worlds = int(values[32])
        valued = tuple((format_card(c), float(values[c]) / worlds) for c in range(32)
                       if legal >> c & 1) if worlds else ()
        return Choice("card", format_card(item), tuple(format_cards(legal)),
                      int(out[positions.OUT_TRIES]), valued, worlds)

    # -- the pack positions ----------------------------------------------------------------

    @property
    def dealer(self) -> int | None:
        """The dealer of the deal in play (``None`` before :meth:`start`)."""
        return self._dealer

    def position(self) -> tuple[positions.History, positions.Seen]:
        """The position as the kernels take it: the :class:`~belote_sim.seat.positions.History`
        and what the seat saw, :class:`~belote_sim.seat.positions.Seen`."""
        self._require_started()
        rec, where = self._slots()
        bidding = self._status(rec) == L.ST_MISSING_CALLS
        seen = self._seen(rec, where, bidding)
        history = positions.History(np.asarray(self._calls, dtype=np.int64),
                            np.asarray(self._plays, dtype=np.int64), np.int64(self._dealer),
                            bidding)
        return history, seen

    def speakers(self) -> list[int]:
        """The seat that made each call so far, as the engine's auction gives the turn."""
        self._require_started()
        return [int(self._slots(self._calls[:i])[0][L.ERR_SEAT])
                for i in range(len(self._calls))]

    def held(self) -> int:
        """How many cards the seat holds now (its turn to play)."""
        rec, _ = self._slots()
        played = sum(1 for who in self._players_of_plays(rec) if who == self.seat)
        return bin(int(rec[L.HANDS + self.seat])).count("1") - played

    def _require_started(self) -> None:
        if self._dealer is None:
            raise BeloteError("start the deal first (Seat.start)")

    def _slots(self, calls: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The engine's record of the calls so far (or of ``calls``) dealt from a pack of
        known order (the pack ``0..31`` but for the retourne, swapped in where it is
        turned, so that the calls mean what they meant), and the position of each card
        in that pack: each seat's cards there are the positions it is dealt from."""
        pack = np.arange(32, dtype=np.int64)
        none = np.zeros(0, dtype=np.int64)
        if self._retourne >= 0:
            base, _, _ = replay_deal(self.rules.to_array(), pack, self._dealer, 0, 0, none,
                                     none, False)
            turned = int(base[L.RETOURNE])
            pack[turned], pack[self._retourne] = self._retourne, turned
        rec, _, _ = replay_deal(self.rules.to_array(), pack, self._dealer, 0, 0,
                                np.asarray(self._calls if calls is None else calls,
                                           dtype=np.int64), none, False)
        where = np.argsort(pack)
        return rec, where

    def _positions(self, where: np.ndarray, mask: int) -> list[int]:
        """The pack positions of the cards of ``mask`` in the pack of :meth:`_slots`."""
        return sorted(int(where[c]) for c in cards_of(int(mask)))

    @staticmethod
    def _status(rec: np.ndarray) -> int:
        return int(rec[L.STATUS])

    def _seen(self, rec: np.ndarray, where: np.ndarray, bidding: bool) -> positions.Seen:
        """What the seat saw as a pack to complete: its cards at its positions, the
        retourne at its own, each other seat's played cards at positions of that seat,
        the rest free."""
        n = self.rules.players
        pos: dict[int, int] = {}
        first = self._positions(where, rec[L.DEALT + self.seat])
        pos.update(zip(first, sorted(self._first), strict=True))
        turned = int(where[self._retourne]) if self._retourne >= 0 else -1
        if turned >= 0:
            pos[turned] = self._retourne
        if not bidding:
            later = [p for p in self._positions(where, rec[L.HANDS + self.seat])
                     if p not in first and p != turned]
            if self._later and len(self._later) != len(later):
                raise BeloteError(f"the seat is dealt {len(later)} cards after the auction, "
                                  f"not {len(self._later)}")
            pos.update(zip(later, sorted(self._later), strict=False))
        mine = set(pos.values()) - {self._retourne}
        if not bidding:
            # Each other seat's played and shown cards at positions that seat was dealt.
            played_by = self._players_of_plays(rec)
            shown = self._shown or {}
            for s in range(n):
                if s == self.seat:
                    continue
                free = [p for p in self._positions(where, rec[L.HANDS + s]) if p not in pos]
                seen_cards = [c for c, who in zip(self._plays, played_by, strict=True)
                              if who == s and c != self._retourne]  # the retourne is placed
                seen_cards += [c for c in shown.get(s, []) if c not in seen_cards
                               and c != self._retourne]
                if self._revealed is not None:
                    held = self._revealed[s]
                    for c in seen_cards:
                        if c not in held:
                            raise BeloteError(f"{format_card(c)}, played or shown by seat "
                                              f"{s}, is not in the hand revealed for it")
                    seen_cards += [c for c in held if c not in seen_cards
                                   and c != self._retourne]
                for c in seen_cards:
                    if c in mine:
                        raise BeloteError(f"{format_card(c)} is the seat's own card, played "
                                          f"or shown by seat {s}")
                if len(seen_cards) > len(free) or (
                        self._revealed is not None and len(seen_cards) != len(free)):
                    raise BeloteError(f"seat {s} holds {len(free)} cards the seat has not "
                                      f"seen, not {len(seen_cards)}")
                pos.update(zip(free, seen_cards, strict=False))
        fixed_pos = np.array(sorted(pos), dtype=np.int64)
        fixed_cards = np.array([pos[p] for p in sorted(pos)], dtype=np.int64)
        used = set(pos.values())
        if len(used) != len(pos):
            raise BeloteError("a card is given twice")
        free_pos = np.array([p for p in range(32) if p not in pos], dtype=np.int64)
        unseen = np.array([c for c in range(32) if c not in used], dtype=np.int64)
        masks = np.zeros(n, dtype=np.int64)
        for who, cs in (self._shown or {}).items():
            for c in cs:
                masks[who] |= 1 << c
        # Each other seat's positions (but the retourne's), its cards shuffled among them.
        groups = [] if bidding else [
            [p for p in self._positions(where, rec[L.HANDS + s]) if p != turned]
            for s in range(n) if s != self.seat]
        mixed_pos = np.array([p for g in groups for p in g], dtype=np.int64)
        mixed_end = np.cumsum([len(g) for g in groups], dtype=np.int64)
        return positions.Seen(fixed_pos, fixed_cards, free_pos, unseen, mixed_pos, mixed_end, masks,
                      self._shown is not None)

    def _players_of_plays(self, rec: np.ndarray) -> list[int]:
        """The seat of each card played so far: each trick is led by the last one's
        winner (the first by the first hand), as the engine's own
        :func:`~belote_sim.kernels.trick.trick_winner` names it."""
        from belote_sim.kernels.trick import trick_winner

        n = self.rules.players
        trump = int(rec[L.TRUMP])
        leader = int(rec[L.FIRST_HAND])
        seats: list[int] = []
        for start in range(0, len(self._plays), n):
            trick = self._plays[start:start + n]
            seats += [(leader + k) % n for k in range(len(trick))]
            if len(trick) == n:
                cards = np.asarray(trick, dtype=np.int64)
                leader = (leader + int(trick_winner(cards, n, trump))) % n
        return seats
