"""Fixed layouts shared by the kernels and their Python wrappers.

A played deal is written into one ``int64`` *record* (``REC_SIZE`` slots, offsets below):
the simulator, replay and the statistics all read the same record. Per-seat and per-side
blocks have room for four entries; unused entries hold -1 or 0 as stated.
"""

from __future__ import annotations

MAX_SEATS = 4
MAX_PLAYS = 32
MAX_TRICKS = 16
MAX_CALLS = 48
MAX_DECLS = 16  # declarations any card set can hold: 6 carrés + 2 runs a suit, rounded up

# --- call codes (deal log: "pass", "take", "C".."S", "AT", "NT") -------------------------
CALL_PASS = 0
CALL_TAKE = 1
CALL_SUIT = 2  # CALL_SUIT + suit, 2..5
CALL_AT = 6
CALL_NT = 7
CALL_COINCHE = 8
CALL_SURCOINCHE = 9
CALL_BID = 16  # coinche bid: CALL_BID + 6 * value index + strain (0..3 suits, 4 AT, 5 NT)
BID_VALUES = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)
# The values 170 .. 260 that capot_value = 270 opens (RULES 7.4 step 2), after the capot.
HIGH_BID_VALUES = tuple(range(170, 261, 10))

# --- outcomes ------------------------------------------------------------------------
OUT_NONE = -1  # thrown in
OUT_MADE = 0
OUT_DEDANS = 1
OUT_TIE = 2  # tie_rule = split
OUT_LITIGE = 3  # points put in the pot

# --- status of a played deal (replay reports the errors) ----------------------------
ST_OK = 0
ST_BAD_CALL = 1  # a call that is not allowed at this point of the bidding
ST_MISSING_CALLS = 2  # the calls end before the bidding is over
ST_EXTRA_CALLS = 3  # calls left after the bidding is over
ST_NOT_IN_HAND = 4  # a card the seat does not hold
ST_ILLEGAL_CARD = 5  # a card that breaks RULES.md section 6
ST_MISSING_PLAYS = 6  # the plays end before the deal is over
ST_EXTRA_PLAYS = 7  # plays left after the deal is over
ST_OTHER_CALL = 8  # a checked call its seat's bidding policy does not make there
ST_DECIDED = 9  # a deciding script's next call or card is chosen: the deal stops there
ST_NOT_COMPILED = 10  # the rules' family was left out of the kernel (Players.families)

# --- why a card set is what it is (legal.py): the rule that decided it ---------------
RULE_FREE = 0  # any card: first card of the trick, or nothing constrains
RULE_FOLLOW = 1  # follow the suit led
RULE_OVERTRUMP_LEAD = 2  # trump led: beat the highest trump if possible
RULE_PARTNER = 3  # void, partner winning: any card (partner_exemption)
RULE_MUST_TRUMP = 4  # void in the suit led: trump
RULE_OVERTRUMP = 5  # void, trump in the trick: overtrump
RULE_UNDERTRUMP = 6  # void, cannot overtrump: still trump (undertrump = forced)

# --- declaration entries (declarations.py) ------------------------------------------
DK_TIERCE = 0
DK_QUARTE = 1
DK_QUINTE = 2
DK_CARRE = 3
# bit flags of what a hand holds, for statistics
HOLD_TIERCE = 1
HOLD_QUARTE = 2
HOLD_QUINTE = 4
HOLD_CARRE_J = 8
HOLD_CARRE_9 = 16
HOLD_CARRE_OTHER = 32

_n = 0


def _slot(size: int = 1) -> int:
    global _n
    start = _n
    _n += size
    return start


# --- the deal record ----------------------------------------------------------------
STATUS = _slot()
ERR_STEP = _slot()  # index of the faulty call or play
ERR_SEAT = _slot()
ERR_ITEM = _slot()  # call code or card index
ERR_LEGAL = _slot()  # legal card mask at the faulty play
ERR_RULE = _slot()  # RULE_* that decided the legal set
DEALER = _slot()
FIRST_HAND = _slot()
POT_BEFORE = _slot()
PACK = _slot(32)  # card indices, top first
RETOURNE = _slot()  # card index, -1 if none
THROWN_IN = _slot()
TRUMP = _slot()  # 0..3 suit, 4 AT, 5 NT, -1 thrown in
TAKER = _slot()  # seat, -1 thrown in
BID_ROUND = _slot()  # round in which trump was chosen (1, 2, 3), 0 thrown in
N_CALLS = _slot()
CALLS = _slot(MAX_CALLS)
DEALT = _slot(MAX_SEATS)  # hands as dealt before the bidding
HANDS = _slot(MAX_SEATS)  # hands at the start of the first trick
N_PLAYS = _slot()
PLAYS = _slot(MAX_PLAYS)  # card indices in play order
LEGAL = _slot(MAX_PLAYS)  # legal mask for each play
N_TRICKS = _slot()
TRICK_LEADER = _slot(MAX_TRICKS)
TRICK_WINNER = _slot(MAX_TRICKS)
DECL_KEY = _slot(MAX_SEATS)  # best declaration of each seat (0: none), comparable ints
DECL_HELD = _slot(MAX_SEATS)  # points of all declarations each seat holds
DECL_KINDS = _slot(MAX_SEATS)  # HOLD_* flags per seat
DECL_WINNER_SEAT = _slot()  # -1 when nobody scores
DECL_POINTS = _slot(MAX_SEATS)  # contest result per side, before any dedans transfer
BELOTE_SEAT = _slot()  # holder of trump K+Q, -1 none (even with belote off)
BELOTE = _slot(MAX_SEATS)  # belote points per side
TRICK_POINTS = _slot(MAX_SEATS)  # card points per side, last-trick bonus included
SEAT_POINTS = _slot(MAX_SEATS)  # card points each seat won, last-trick bonus included
REDEALS_BEFORE = _slot()  # stock game: redeals in a row before this deal
CONTRACT_VALUE = _slot()  # coinche: the bid value (0 otherwise)
CONTRACT_STRAIN = _slot()  # coinche: 0..3 suits, 4 AT, 5 NT
MULTIPLIER = _slot()  # coinche: 1, 2 (coinche), 4 (surcoinche)
EXCHANGE_SEAT = _slot()  # no-contract 2p: seat that exchanged the seven of trumps, -1 none
SHOWN_CARD = _slot()  # no-contract 2p: the bottom card turned face up, -1 none
CARD_POINTS = _slot(MAX_SEATS)  # as the deal log says: capot included
CAPOT_SIDE = _slot()  # side that took every trick, -1 none
TOTAL_POINTS = _slot()  # all card points of the deal (162, 258, 260)
TAKER_CARD_POINTS = _slot()  # the taker's side's card points, capot included
TAKER_DEAL_SCORE = _slot()  # what the deal adds for the taker's side (all defenders: below)
DEFENDER_DEAL_SCORE = _slot()
SCORE_TAKERS = _slot()  # S_T = C + D + B of the takers
SCORE_DEFENDERS = _slot()  # S_E
OUTCOME = _slot()
POT = _slot()  # points this deal puts into the pot
POT_WON_BY = _slot()  # side collecting pot_before, -1 none
DEAL_SCORE = _slot(MAX_SEATS)  # per side: what the deal adds to the match score
DECISIONS = _slot(2)  # with decision timing (the arena): cards chosen by side 0, side 1
DECISION_CYCLES = _slot(2)  # ... and the cycle-counter ticks they took
WORLDS_DRAWN = _slot(2)  # ... worlds drawn to find worlds given the calls, by side
WORLDS_GIVEN = _slot(2)  # ... worlds found
WORLDS_SHORT = _slot(2)  # ... worlds short of those the decisions asked
REC_SIZE = _n

# --- counters of a run (batch/counting.py, stats.py) ------------------------------
# One flat int64 vector per block of deals; blocks are summed, so any split of a run
# gives the same totals. "Position" is the taker's seat counted from the first hand:
# 0 = first hand ... players-1 = the dealer.
HIST_POINTS = 512  # taker card points 0..511 (last bin: that or more)
HIST_SCORE = 2048  # deal scores and declaration points 0..2047
MAX_MATCH_DEALS = 500  # a match still unfinished after this many deals is abandoned
MATCH_DRAW = 3  # a match's result when it is drawn
_n = 0
C_DEALS = _slot()
C_THROWN_IN = _slot()
C_TAKEN_ROUND = _slot(4)  # index = round (1, 2, 3)
C_TAKEN_POS = _slot(MAX_SEATS)
C_RETOURNE_DEALS = _slot(8)  # deals by the retourne's rank
C_RETOURNE_TAKEN = _slot(8)  # ... taken in any round
C_RETOURNE_TAKEN_R1 = _slot(8)  # ... taken in round 1
C_MADE = _slot()
C_DEDANS = _slot()
C_TIE = _slot()
C_LITIGE = _slot()
C_DEDANS_ROUND = _slot(4)
C_DEDANS_POS = _slot(MAX_SEATS)
C_TRUMPS_PLAYED = _slot(10)  # played deals by the number of trumps the taker holds
C_TRUMPS_DEDANS = _slot(10)
C_TRUMP_PLAYED = _slot(6)  # played deals by trump: C D H S AT NT
C_TRUMP_DEDANS = _slot(6)
C_STRAIN_CONTRACTS = _slot(6)  # coinche: contracts by strain
C_STRAIN_MADE = _slot(6)
C_VALUE_CONTRACTS = _slot(10)  # coinche: contracts by bid value (BID_VALUES)
C_VALUE_MADE = _slot(10)
C_MULTIPLIER_CONTRACTS = _slot(3)  # coinche: plain, coinched, surcoinched contracts
C_MULTIPLIER_MADE = _slot(3)
C_SUM_POSITION_SCORE = _slot(MAX_SEATS)  # deal score by seat position from the first hand
C_SQ_POSITION_SCORE = _slot(MAX_SEATS)
C_CAPOT_TAKERS = _slot()
C_CAPOT_DEFENDERS = _slot()
C_ANY_DECLARATION = _slot()  # played deals where some hand holds a declaration
C_TIERCE = _slot()
C_QUARTE = _slot()
C_QUINTE = _slot()
C_CARRE_J = _slot()
C_CARRE_9 = _slot()
C_CARRE_OTHER = _slot()
C_BELOTE = _slot()
C_DECL_TAKERS = _slot()  # contest won by the takers
C_DECL_DEFENDERS = _slot()
C_MADE_BY_DECLARATIONS = _slot()  # made, and would be dedans without any declaration
C_SUM_TAKER_CARD_POINTS = _slot()
C_SQ_TAKER_CARD_POINTS = _slot()
C_SUM_TAKER_SCORE = _slot()
C_SQ_TAKER_SCORE = _slot()
C_SUM_DEFENDER_SCORE = _slot()
C_SQ_DEFENDER_SCORE = _slot()
C_SUM_DECL_POINTS = _slot()
C_SQ_DECL_POINTS = _slot()
C_MATCHES = _slot()
C_MATCH_WINS = _slot(4)  # won by side 0, side 1 (seat 0, 1, 2 with three players), draw
C_MATCH_UNFINISHED = _slot()
C_SUM_MATCH_DEALS = _slot()
C_SQ_MATCH_DEALS = _slot()
C_FIRST_DEALER_SIDE_WINS = _slot()  # the first dealer's side won the match
C_FIRST_DEAL_DECIDED = _slot()  # finished matches whose first played deal had a higher scorer
C_FIRST_DEAL_WINNER_WINS = _slot()  # ... and that side won the match
H_TAKER_CARD_POINTS = _slot(HIST_POINTS)
H_TAKER_SCORE = _slot(HIST_SCORE)
H_DEFENDER_SCORE = _slot(HIST_SCORE)
H_DECL_POINTS = _slot(HIST_SCORE)
H_MATCH_DEALS = _slot(MAX_MATCH_DEALS + 1)
N_COUNTERS = _n

# --- counters of an arena run (studies/arena.py) ---------------------------------------
# Player A against player B: every deal and match is played twice from the same random
# stream, A on side 0 then on side 1. Sums over deals of integers, so any split of the
# run gives the same totals.
_n = 0
AR_DEALS = _slot()
AR_THROWN_IN = _slot()  # deals thrown in (on the first pass)
AR_DIFF = _slot()  # sum of A's minus B's deal scores over both passes (twice the paired diff)
AR_DIFF_SQ = _slot()  # sum of the squares of that per-deal sum
AR_SCORE = _slot(2)  # A's, B's deal scores over both passes
AR_DECISIONS = _slot(2)  # cards chosen by A, by B (deals only)
AR_CYCLES = _slot(2)  # cycle-counter ticks A's, B's decisions took
AR_WORLDS_DRAWN = _slot(2)  # worlds A, B drew to find worlds given the calls (deals only)
AR_WORLDS_GIVEN = _slot(2)  # ... worlds they found
AR_WORLDS_SHORT = _slot(2)  # ... worlds short of those asked
AR_GAMES = _slot()  # matches played (each match twice)
AR_WINS = _slot()  # ... won by A
AR_DRAWS = _slot()
AR_UNFINISHED = _slot()
N_ARENA_COUNTERS = _n

# --- one row per deal (the optional deals/ Parquet dataset) -------------------------
# The schema, written once: each column's name, Parquet type and meaning, in order; a
# column of width w is w columns ``name0 .. name{w-1}``. The kernel fills the row by the
# offsets below (:func:`belote_sim.batch.counting.fill_row`), the runner types the
# Parquet files and ``docs/metrics.md`` lists the columns from the same table.
ROW_SCHEMA: list[tuple[str, str, int, str]] = []


def _column(name: str, dtype: str, meaning: str, width: int = 1) -> int:
    start = sum(w for _, _, w, _ in ROW_SCHEMA)
    ROW_SCHEMA.append((name, dtype, width, meaning))
    return start


ROW_DEAL = _column("deal", "int64", "the deal's index in the run (its random stream's key)")
ROW_DEALER = _column("dealer", "int8", "the dealer's seat")
ROW_HAND = _column(
    "hand", "uint32", "each seat's hand as a card mask (RULES.md section 1) at the first "
    "trick; for a thrown-in deal, the five cards dealt before the bidding", MAX_SEATS,
)
ROW_RETOURNE = _column("retourne", "int8", "the retourne's card index `8 * suit + rank`")
ROW_THROWN_IN = _column("thrown_in", "bool", "everybody passed")
ROW_TRUMP = _column(
    "trump", "int8", "0..3 = C D H S, 4 = all-trumps, 5 = no-trumps, -1 thrown in"
)
ROW_TAKER = _column("taker", "int8", "the taker's seat, -1 thrown in")
ROW_ROUND = _column("round", "int8", "the bidding round trump was chosen in, 0 thrown in")
ROW_TAKER_TRUMPS = _column(
    "taker_trumps", "int8", "trumps the taker holds at the first trick, -1 thrown in"
)
ROW_CARD_POINTS = _column(
    "card_points", "int16", "card points per side (side 0 = seats 0 and 2; with two "
    "players side = seat), capot included; with three players per seat", 3,
)
ROW_DECLARATIONS = _column(
    "declarations", "int16", "declaration points from the contest, before any dedans "
    "transfer (per side, or per seat with three players)", 3,
)
ROW_BELOTE = _column(
    "belote", "int16", "belote points (per side, or per seat with three players)", 3
)
ROW_DECL_WINNER_SEAT = _column(
    "declaration_winner_seat", "int8", "seat with the contest's best declaration, -1 nobody"
)
ROW_CAPOT_SIDE = _column("capot_side", "int8", "side that took every trick, -1 none")
ROW_OUTCOME = _column(
    "outcome", "string", "`made`, `dedans`, `tie`, `litige`, null when thrown in"
)  # the kernel writes the OUT_* code, OUTCOME_LABELS names it
ROW_SCORE_TAKERS = _column("score_takers", "int16", "`S_T` of RULES.md section 8")
ROW_SCORE_DEFENDERS = _column("score_defenders", "int16", "`S_E` of RULES.md section 8")
ROW_DEAL_SCORE = _column(
    "deal_score", "int16", "what the deal adds to each side's score (per seat with three "
    "players)", 3,
)
ROW_POT = _column("pot", "int32", "points this deal puts into the litige pot")
#: The columns' names and Parquet types, in order (a kernel row is ``int64[N_ROW]``).
ROW_TYPES = {
    (f"{name}{i}" if width > 1 else name): dtype
    for name, dtype, width, _ in ROW_SCHEMA
    for i in range(width)
}
ROW_COLUMNS = tuple(ROW_TYPES)
N_ROW = len(ROW_COLUMNS)
#: The ``outcome`` column's labels of the ``OUT_*`` codes.
OUTCOME_LABELS = {
    OUT_NONE: None, OUT_MADE: "made", OUT_DEDANS: "dedans", OUT_TIE: "tie",
    OUT_LITIGE: "litige",
}  # fmt: skip

#: What a seat knows of the other hands (:mod:`belote_sim.infer.knowledge`), the
#: knowledge array: suits each seat has shown void in (4-bit masks), cards known to be
#: in each seat's hand, cards each seat has played; the auction's first hand, retourne
#: (-1 none) and number of calls; then per call ``j`` (columns of ``MAX_CALLS``): the
#: call, its seat, the round (retourne bidding), and the coinche auction's current bid
#: before it (call code, -1 none), that bid's seat and whether it was coinched
#: (:class:`~belote_sim.bid.coinche.Auction`).
KNOW_VOID = 0
KNOW_HELD = 4
KNOW_PLAYED = 8
KNOW_FIRST_HAND = 12
KNOW_RETOURNE = 13
KNOW_N_CALLS = 14
KNOW_CALL = 15
KNOW_CALL_SEAT = KNOW_CALL + MAX_CALLS
KNOW_CALL_ROUND = KNOW_CALL_SEAT + MAX_CALLS
KNOW_CALL_HIGH = KNOW_CALL_ROUND + MAX_CALLS
KNOW_CALL_HIGH_SEAT = KNOW_CALL_HIGH + MAX_CALLS
KNOW_CALL_COINCHED = KNOW_CALL_HIGH_SEAT + MAX_CALLS
KNOW_SIZE = KNOW_CALL_COINCHED + MAX_CALLS

del _n
