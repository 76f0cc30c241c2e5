"""The last tricks, without the general search.

The last trick is played out directly (every card is forced: :func:`_trick_end` gives
its winner and points), and with two tricks left (after the table and the bounds) a
plain depth-first search without frames, table or ordering (:func:`_two_tricks`) is
cheaper than the general one.
"""

from __future__ import annotations

from belote_sim._jit import jit, jit_no_refcount
from belote_sim.cards import CAPOT_BONUS
from belote_sim.kernels.bits import ctz
from belote_sim.kernels.legal import legal_given_top
from belote_sim.kernels.trick import card_power, seat_after
from belote_sim.players.dd.table import (
    CX_LAST_BONUS,
    CX_N,
    CX_NODES,
    CX_PTS,
    CX_TAKER,
    CX_TAKERS,
    CX_TRUMP,
    INF,
)


@jit(inline="always")
def _trick_end(cx, tb, left, n, leader, trump, last):
    """(winner seat, points) of the complete trick ``tb[left]``."""
    led = tb[left, 0] >> 3
    w = 0
    wp = card_power(tb[left, 0], led, trump)
    pts = cx[CX_PTS + tb[left, 0]]
    for i in range(1, n):
        p = card_power(tb[left, i], led, trump)
        pts += cx[CX_PTS + tb[left, i]]
        if p > wp:
            w = i
            wp = p
    if last:
        pts += cx[CX_LAST_BONUS]
    return seat_after(leader, w, n), pts


@jit_no_refcount
def _two_tricks(rules, cx, hands, tb, k, leader, cap, alpha, beta, fr, d):
    """Fail-soft alpha-beta when two tricks remain (``k`` cards of the first already in
    ``tb[2]``): a plain depth-first search over the at most two cards of each hand in the
    first trick, the last one being forced. Frame ``fr[d]`` is its scratch (20 slots);
    ``rules`` are the options as :func:`belote_sim.kernels.legal.rule_values` gives them."""
    n = cx[CX_N]
    trump = cx[CX_TRUMP]
    taker = cx[CX_TAKER]
    m = n - k
    # Per level j (the card k + j of the trick): fr[d, j] the cards left to try,
    # fr[d, 4 + j] the best so far, fr[d, 8 + j] and fr[d, 12 + j] the window, fr[d, 16 + j] the
    # position of the card winning the trick before the card of level j.
    w = 0
    if k > 0:
        led = tb[2, 0] >> 3
        wp = card_power(tb[2, 0], led, trump)
        for i in range(1, k):
            p = card_power(tb[2, i], led, trump)
            if p > wp:
                w = i
                wp = p
    # The points of both tricks: the first trick's are what the second leaves of them.
    both = 0
    for i in range(k):
        both += cx[CX_PTS + tb[2, i]]
    for s in range(n):
        h = hands[s]
        while h != 0:
            both += cx[CX_PTS + ctz(h)]
            h &= h - 1
    j = 0
    a = alpha
    b = beta
    mode = 0  # 0: enter level j, 1: level j's card just tried is worth v, 2: next card
    v = 0
    while True:
        if mode == 0:
            if j > 0:
                cx[CX_NODES] += 1
            if j == m:
                # Both tricks are complete once the forced last one is played.
                w1 = seat_after(leader, w, n)
                led = -1
                w2 = w1
                wp = -1
                tp2 = 0
                for i in range(n):
                    s = seat_after(w1, i, n)
                    c = ctz(hands[s])
                    if i == 0:
                        led = c >> 3
                    p = card_power(c, led, trump)
                    tp2 += cx[CX_PTS + c]
                    if p > wp:
                        wp = p
                        w2 = s
                tp = both - tp2
                tp2 += cx[CX_LAST_BONUS]
                t1 = cx[CX_TAKERS + w1] == 1
                t2 = cx[CX_TAKERS + w2] == 1
                v = (tp if t1 else 0) + (tp2 if t2 else 0)
                if cap and t1 and t2:
                    v += CAPOT_BONUS
                j -= 1
                mode = 1
                continue
            kk = k + j
            seat = seat_after(leader, kk, n)
            if kk == 0:
                legal = hands[seat]
            else:
                legal = legal_given_top(
                    rules, hands[seat], tb[2, 0] >> 3, tb[2, w], kk, leader, trump, taker, w
                )[0]
            fr[d, j] = legal
            fr[d, 4 + j] = -INF if cx[CX_TAKERS + seat] == 1 else INF
            fr[d, 8 + j] = a
            fr[d, 12 + j] = b
            fr[d, 16 + j] = w
            mode = 2
        elif mode == 1:
            kk = k + j
            seat = seat_after(leader, kk, n)
            hands[seat] ^= 1 << tb[2, kk]
            w = fr[d, 16 + j]
            if cx[CX_TAKERS + seat] == 1:
                if v > fr[d, 4 + j]:
                    fr[d, 4 + j] = v
                    if v > fr[d, 8 + j]:
                        fr[d, 8 + j] = v
            elif v < fr[d, 4 + j]:
                fr[d, 4 + j] = v
                if v < fr[d, 12 + j]:
                    fr[d, 12 + j] = v
            mode = 2
        else:
            if fr[d, j] == 0 or fr[d, 8 + j] >= fr[d, 12 + j]:
                v = fr[d, 4 + j]
                if j == 0:
                    return v
                j -= 1
                mode = 1
                continue
            kk = k + j
            c = ctz(fr[d, j])
            fr[d, j] &= fr[d, j] - 1
            hands[seat_after(leader, kk, n)] ^= 1 << c
            tb[2, kk] = c
            if kk > 0:
                led = tb[2, 0] >> 3
                if card_power(c, led, trump) > card_power(tb[2, w], led, trump):
                    w = kk
            a = fr[d, 8 + j]
            b = fr[d, 12 + j]
            j += 1
            mode = 0
