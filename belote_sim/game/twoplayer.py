"""Two-player games: the stock game (RULES.md 7.2, preset ``stock-2p``) and the
two-player game without contract (7.3, preset ``no-contract-2p``).

Both deal six cards each (3 + 3, the non-dealer first), turn the next card and bid as
rounds 1-2 of the retourne games (:func:`~belote_sim.game.phases.bid_retourne`); they
differ in what follows. Called by :func:`belote_sim.game.deals.play_deal`, which also
runs them in scripted mode for replay.
"""

from __future__ import annotations

from belote_sim._jit import jit_no_refcount
from belote_sim.cards import SEVEN
from belote_sim.game.phases import (
    bid_retourne,
    close_bidding,
    read_declarations,
    total_points,
)
from belote_sim.game.state import TrickPlan
from belote_sim.game.tricks import play_tricks
from belote_sim.kernels.deal import deal_packet, deal_rest
from belote_sim.kernels.layout import (
    DEALER,
    DEALT,
    EXCHANGE_SEAT,
    FIRST_HAND,
    HANDS,
    REDEALS_BEFORE,
    RETOURNE,
    SHOWN_CARD,
    ST_OK,
    TAKER,
    TOTAL_POINTS,
    TRUMP,
)
from belote_sim.kernels.scoring import score_no_contract, score_two_sides

#: Cards dealt before the bidding (6 each), then the turned card at this index.
_TURNED_POS = 12
#: Stock game: the stock starts here once the taker has 2 more cards and the other 3.
STOCK_POS = 18
STOCK_FREE_TRICKS = 7
STOCK_TRICKS = 16
NO_CONTRACT_TRICKS = 9


@jit_no_refcount
def _deal_and_bid(rules, players, script, ws, forced_seat):
    """Deal 3 + 3 cards each from the non-dealer, turn the next card (``RETOURNE``) and
    bid rounds 1-2 from the non-dealer. Returns ``(status, taker)``; a thrown-in deal
    is recorded and returns taker -1 (checking that a script has nothing after it)."""
    rec, pack, hands, sides = ws.rec, ws.pack, ws.hands, ws.sides
    fh = rec[FIRST_HAND]
    pos = deal_packet(pack, 0, hands, 2, fh, 3)
    pos = deal_packet(pack, pos, hands, 2, fh, 3)
    turned = pack[pos]
    rec[RETOURNE] = turned
    for s in range(2):
        rec[DEALT + s] = hands[s]
        sides[s] = s
    status, taker, trump = bid_retourne(rules, players, script, ws, 2, forced_seat)
    if status == ST_OK:
        status = close_bidding(rec, taker, script)
    if status != ST_OK or taker < 0:
        return status, -1
    rec[TAKER] = taker
    rec[TRUMP] = trump
    return ST_OK, taker


@jit_no_refcount
def deal_stock(rules, players, script, ws):
    """One stock-game deal (RULES 7.2) into ``ws.rec``; returns an ``ST_*`` status.

    ``rec[REDEALS_BEFORE] == 2`` (two redeals in a row, set by the match loop or the deal
    log) forbids the dealer's pass in round 2. The taker picks up the turned card, then
    (non-dealer first) gets 2 more and the other player 3; the non-dealer leads 16
    tricks, the first 7 free with draws from the 14-card stock, winner first. Belote
    scores when the first of the trump K and Q is played while the other is held.
    """
    rec, pack, hands = ws.rec, ws.pack, ws.hands
    fh = rec[FIRST_HAND]
    forced = rec[DEALER] if rec[REDEALS_BEFORE] >= 2 else -1
    status, taker = _deal_and_bid(rules, players, script, ws, forced)
    if status != ST_OK or taker < 0:
        return status

    turned = rec[RETOURNE]
    hands[taker] |= 1 << turned
    pos = deal_rest(pack, _TURNED_POS + 1, hands, 2, fh, taker)
    for s in range(2):
        rec[HANDS + s] = hands[s]

    # Declarations (off in the preset) are read at the first trick; belote is not: it
    # scores during play (the trick loop's belote_at_play).
    read_declarations(rules, ws, False, False)
    status = play_tricks(
        rules, players, script, ws, TrickPlan(STOCK_TRICKS, pos, STOCK_FREE_TRICKS, True)
    )
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = total_points(rec, 2)
    score_two_sides(rec, taker, rules)
    return ST_OK


@jit_no_refcount
def deal_no_contract_2p(rules, players, script, ws):
    """One deal of the two-player game without contract (RULES 7.3) into ``ws.rec``.

    Nobody picks up the turned card; one more packet of 3 each (the hand first) makes 9
    cards; the bottom card of the pack is shown (``SHOWN_CARD``, out of play). When trump
    is the turned card's suit, the holder of the seven of trumps exchanges it for the
    turned card (``EXCHANGE_SEAT``). Declarations and belote at the first trick, 9
    tricks led by the hand, every side scores its own points (no transfer).
    """
    rec, pack, hands = ws.rec, ws.pack, ws.hands
    fh = rec[FIRST_HAND]
    status, taker = _deal_and_bid(rules, players, script, ws, -1)
    if status != ST_OK or taker < 0:
        return status
    trump = rec[TRUMP]

    deal_packet(pack, _TURNED_POS + 1, hands, 2, fh, 3)
    rec[SHOWN_CARD] = pack[31]
    turned = rec[RETOURNE]
    seven = 8 * trump + SEVEN
    if turned >> 3 == trump and turned != seven:
        # The seven of trumps is in a hand, or out of play (stock or the shown card).
        for s in range(2):
            if (hands[s] >> seven) & 1:
                hands[s] ^= (1 << seven) | (1 << turned)
                rec[EXCHANGE_SEAT] = s
    for s in range(2):
        rec[HANDS + s] = hands[s]

    read_declarations(rules, ws, False, True)
    status = play_tricks(
        rules, players, script, ws, TrickPlan(NO_CONTRACT_TRICKS, -1, 0, False)
    )
    if status != ST_OK:
        return status
    rec[TOTAL_POINTS] = total_points(rec, 2)
    score_no_contract(rec, taker)
    return ST_OK
