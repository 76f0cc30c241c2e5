"""The JSON deal log (``docs/spec/DEAL_LOG.md``): reading its input fields, writing a played
deal's record as a deal-log object with every result field.

>>> from belote_sim.deallog.format import parse_call, format_call
>>> parse_call("take"), parse_call("h"), format_call(6)
(1, 4, 'AT')
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from belote_sim.cards import SUITS, TRUMP_NAMES, format_card, format_cards, parse_card
from belote_sim.errors import BeloteError, DealLogError
from belote_sim.kernels import layout as L
from belote_sim.kernels.api import OUTCOME_NAMES, declarations, pack_array
from belote_sim.kernels.calls import (
    CAPOT_BID,
    CAPOT_VALUE,
    LADDER,
    bid_code,
    bid_value_index,
    is_bid,
)
from belote_sim.rules import CHOICES, Rules

CALL_NAMES = {
    L.CALL_PASS: "pass", L.CALL_TAKE: "take", L.CALL_AT: "AT", L.CALL_NT: "NT",
    L.CALL_COINCHE: "coinche", L.CALL_SURCOINCHE: "surcoinche",
}  # fmt: skip
CALL_NAMES.update({L.CALL_SUIT + i: s for i, s in enumerate(SUITS)})
# The kernels' plain-Python bodies: compiling them would cost every command's import.
_bid_code, _is_bid, _value_index = (getattr(f, "py_func", f)
                                    for f in (bid_code, is_bid, bid_value_index))


def _names(capot_value: int) -> dict[int, str]:
    """Every call code's text when the capot bid is worth ``capot_value``; with 250 the
    codes of 170 .. 260, which are no calls of those rules, are named by their values
    all the same (a refused call is quoted)."""
    names = dict(CALL_NAMES)
    for v, value in enumerate(LADDER):
        for strain, name in enumerate(TRUMP_NAMES):
            shown = capot_value if v == CAPOT_BID else value
            names[int(_bid_code(v, strain))] = f"{shown}{name}"
    return names


def _codes(capot_value: int) -> dict[str, int]:
    """The calls of the rules whose capot bid is worth ``capot_value``, by their text."""
    names = _names(capot_value)
    if capot_value == CAPOT_VALUE:
        names = {c: t for c, t in names.items()
                 if not _is_bid(c) or _value_index(c) <= CAPOT_BID}
    return {t.lower(): c for c, t in names.items()}


#: The calls' texts and codes, by the capot bid's value (RULES 7.4 step 2: 250, or 270).
_NAMES = {cv: _names(cv) for cv in CHOICES["capot_value"]}
_CODES = {cv: _codes(cv) for cv in CHOICES["capot_value"]}
CALL_NAMES = _NAMES[CAPOT_VALUE]


def parse_call(text: str, capot_value: int = CAPOT_VALUE) -> int:
    """Call code of a deal-log call: ``pass``, ``take``, ``C`` .. ``S``, ``AT``, ``NT``;
    in coinche a bid such as ``80H`` or ``250NT`` (``270S`` is the capot with
    ``capot_value = 270``), ``coinche``, ``surcoinche``."""
    codes = _CODES[capot_value]
    if not isinstance(text, str) or text.strip().lower() not in codes:
        ladder = ("80..160 or 250 (170..260 need capot_value=270)"
                  if capot_value == CAPOT_VALUE else "80..270")
        raise DealLogError(
            f"unknown call {text!r}: expected pass, take, C, D, H, S, AT, NT, a coinche bid "
            f"({ladder} and C, D, H, S, AT or NT, e.g. 90H), coinche or surcoinche"
        )
    return codes[text.strip().lower()]


def format_call(code: int, capot_value: int = CAPOT_VALUE) -> str:
    """Deal-log text of a call code."""
    return _NAMES[capot_value][int(code)]


def _parse_list(deal: dict, field: str, parse, where: str, step: str) -> np.ndarray:
    """A deal log's ``calls`` or ``plays`` as codes, each error naming its step."""
    items = deal.get(field, [])
    if not isinstance(items, list):
        raise DealLogError(f"{where}: {field} must be a list of strings")
    codes = []
    for i, item in enumerate(items):
        try:
            codes.append(parse(item))
        except BeloteError as e:
            raise DealLogError(f"{where}, {step} {i + 1}: {e}") from None
    return np.asarray(codes, dtype=np.int64)


class DealInput:
    """The validated input fields of one deal-log object."""

    def __init__(self, deal: Any, number: int = 1) -> None:
        where = f"deal {number}"
        if not isinstance(deal, dict):
            raise DealLogError(f"{where}: a deal is a JSON object, not {type(deal).__name__}")
        for name in ("dealer", "pack"):
            if name not in deal:
                raise DealLogError(f"{where}: missing field {name!r}")
        self.number = number
        self.raw = deal
        try:
            self.rules = Rules.from_spec(deal.get("rules", "classic"))
        except BeloteError as e:
            raise DealLogError(f"{where}: rules: {e}") from None
        n = self.rules.players
        dealer = deal["dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise DealLogError(f"{where}: dealer must be a seat 0..{n - 1}, not {dealer!r}")
        self.dealer = dealer
        if not isinstance(deal["pack"], list):
            raise DealLogError(f"{where}: pack must be a list of 32 card strings")
        try:
            self.pack = pack_array(deal["pack"])
        except BeloteError as e:
            raise DealLogError(f"{where}: pack: {e}") from None
        self.calls = _parse_list(
            deal, "calls", lambda c: parse_call(c, self.rules.capot_value), where, "call"
        )
        self.plays = _parse_list(deal, "plays", parse_card, where, "play")
        pot = deal.get("pot_before", 0)
        if isinstance(pot, bool) or not isinstance(pot, int) or pot < 0:
            raise DealLogError(f"{where}: pot_before must be a non-negative integer, not {pot!r}")
        if pot and self.rules.tie_rule != "litige":
            raise DealLogError(f"{where}: pot_before={pot} needs tie_rule=litige")
        self.pot_before = pot
        redeals = deal.get("redeals_before", 0)
        if isinstance(redeals, bool) or not isinstance(redeals, int) or not 0 <= redeals <= 2:
            raise DealLogError(f"{where}: redeals_before must be 0, 1 or 2, not {redeals!r}")
        if redeals and self.rules.contract != "stock":
            raise DealLogError(f"{where}: redeals_before applies to the stock game only")
        self.redeals_before = redeals


def _declarations_block(rec: np.ndarray, rules: Rules, n: int, width: int) -> dict:
    held: list[list[dict]] = []
    for s in range(n):
        held.append(
            declarations(int(rec[L.HANDS + s]), rules.split_long_runs) if rules.declarations else []
        )
    winner = int(rec[L.DECL_WINNER_SEAT])
    return {
        "held": held,
        "winner_seat": None if winner < 0 else winner,
        "points": [int(rec[L.DECL_POINTS + s]) for s in range(width)],
    }


def _capot_seats(rec: np.ndarray, n: int) -> list[int] | None:
    side = int(rec[L.CAPOT_SIDE])
    if side < 0:
        return None
    taker = int(rec[L.TAKER])
    if n == 3:
        return [taker] if side == 0 else [s for s in range(3) if s != taker]
    return [s for s in range(n) if s % 2 == side] if n == 4 else [side]


def record_to_deal(rec: np.ndarray, rules: Rules, inputs: dict | None = None) -> dict:
    """The deal-log object of a played deal's record: input fields (``inputs`` as given,
    else rebuilt from the record), then every result field of DEAL_LOG.md."""
    n = rules.players
    if inputs is None:
        n_calls = int(rec[L.N_CALLS])
        n_plays = int(rec[L.N_PLAYS])
        inputs = {
            "rules": rules.to_spec(),
            "dealer": int(rec[L.DEALER]),
            "pack": [format_card(c) for c in rec[L.PACK : L.PACK + 32]],
            "calls": [format_call(c, rules.capot_value)
                      for c in rec[L.CALLS : L.CALLS + n_calls]],
            "plays": [format_card(c) for c in rec[L.PLAYS : L.PLAYS + n_plays]],
        }
        if rec[L.REDEALS_BEFORE]:
            inputs["redeals_before"] = int(rec[L.REDEALS_BEFORE])
        if rec[L.POT_BEFORE]:
            inputs["pot_before"] = int(rec[L.POT_BEFORE])
    out = dict(inputs)
    if rec[L.THROWN_IN]:
        out["thrown_in"] = True
        out["hands"] = [format_cards(rec[L.DEALT + s]) for s in range(n)]
        return out
    out["thrown_in"] = False
    out["trump"] = TRUMP_NAMES[int(rec[L.TRUMP])]
    out["taker"] = int(rec[L.TAKER])
    out["contract"] = (
        {
            "value": int(rec[L.CONTRACT_VALUE]),
            "strain": TRUMP_NAMES[int(rec[L.CONTRACT_STRAIN])],
            "multiplier": int(rec[L.MULTIPLIER]),
        }
        if rules.contract == "coinche"
        else None
    )
    out["hands"] = [format_cards(rec[L.HANDS + s]) for s in range(n)]
    tricks = []
    for t in range(int(rec[L.N_TRICKS])):
        base = t * n
        tricks.append(
            {
                "leader": int(rec[L.TRICK_LEADER + t]),
                "cards": [format_card(rec[L.PLAYS + base + k]) for k in range(n)],
                "winner": int(rec[L.TRICK_WINNER + t]),
                "legal": [format_cards(rec[L.LEGAL + base + k]) for k in range(n)],
            }
        )
    out["tricks"] = tricks
    width = 3 if n == 3 else 2  # per seat with three players, else per side
    out["declarations"] = _declarations_block(rec, rules, n, width)
    out["belote"] = [int(rec[L.BELOTE + s]) for s in range(width)]
    out["card_points"] = [int(rec[L.CARD_POINTS + s]) for s in range(width)]
    out["capot"] = _capot_seats(rec, n)
    out["outcome"] = OUTCOME_NAMES[int(rec[L.OUTCOME])]
    out["pot"] = int(rec[L.POT])
    won = int(rec[L.POT_WON_BY])
    out["pot_won_by"] = None if won < 0 else won
    out["deal_score"] = [int(rec[L.DEAL_SCORE + s]) for s in range(width)]
    return out


def read_deals(path: str | Path) -> Iterator[tuple[int, Any]]:
    """``(deal number, parsed JSON)`` for each non-blank line of a JSON Lines file
    (``-`` reads standard input). A line that is not UTF-8 text or not JSON comes as
    ``(number, DealLogError)``, and the lines after it are read on.

    A file with no deal at all is a :class:`DealLogError`.
    """
    import sys

    fh = sys.stdin.buffer if str(path) == "-" else open(path, "rb")  # noqa: SIM115
    try:
        number = 0
        for raw in fh:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                number += 1
                yield number, DealLogError(f"deal {number}: not UTF-8 text (byte {e.start})")
                continue
            if not line.strip():
                continue
            number += 1
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as e:
                yield number, DealLogError(
                    f"deal {number}: not valid JSON ({e.msg} at column {e.colno})")
        if number == 0:
            raise DealLogError(f"{path} holds no deal (an empty deal log)")
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def dumps(deal: dict) -> str:
    """One deal-log line (compact JSON, non-ASCII kept)."""
    return json.dumps(deal, ensure_ascii=False, separators=(", ", ": "))
