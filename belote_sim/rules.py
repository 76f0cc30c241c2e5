"""Rule sets: one frozen, validated object per RULES.md section 9 combination.

>>> from belote_sim.rules import Rules
>>> r = Rules.from_preset("classic", undertrump="free")
>>> r.preset, r.undertrump, r.tie_rule
('classic', 'free', 'takers')
>>> Rules.from_preset("classic", players=2)
Traceback (most recent call last):
...
belote_sim.errors.RulesConflictError: contract=retourne needs 3 or 4 players, not players=2
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from belote_sim.errors import RulesConflictError, RulesError

# Allowed values of each enumerated option; the index of a value is its code in the kernels.
CHOICES: dict[str, tuple] = {
    "players": (2, 3, 4),
    "contract": ("retourne", "stock", "none", "coinche"),
    "declaration_tie": ("none", "first"),
    "undertrump": ("forced", "free"),
    "nt_values": ("doubled", "ace19"),
    "king_value": (4, 10),
    "tie_rule": ("takers", "split", "litige"),
    "shuffle": ("full", "cut"),
    "first_packets": ("3-2", "2-3"),
    "second_round": ("others", "any"),
    "match_end": ("draw", "higher"),
}
BOOL_OPTIONS = (
    "declarations",
    "belote",
    "split_long_runs",
    "must_trump",
    "partner_exemption",
    "overtrump_partner",
    "all_no_trumps_round",
    "round_to_ten",
)

OPTION_HELP: dict[str, str] = {
    "players": "number of players",
    "contract": "how trump is chosen and what the taker must do (RULES 7.1-7.4)",
    "declarations": "carrés and runs (RULES 5)",
    "belote": "belote-rebelote",
    "split_long_runs": "an 8-card run scores quinte + tierce",
    "declaration_tie": "equal best declarations: nobody scores (none) or first in turn order",
    "must_trump": "void in the suit led, a player holding trumps must trump",
    "partner_exemption": "void, with the partner winning, any card is allowed",
    "overtrump_partner": "on a trump lead, overtrump even when the partner is winning",
    "undertrump": "void and unable to overtrump: still trump (forced) or any card (free)",
    "all_no_trumps_round": "round 3 (retourne) / AT and NT strains (coinche)",
    "nt_values": "no-trump card values",
    "king_value": "points of a king (10: seed 003's table)",
    "tie_rule": "S_T == S_E: takers make it, split, or litige pot",
    "round_to_ten": "coinche deal scores rounded to ten",
    "shuffle": "full shuffle every deal, or the pack rebuilt from the tricks and cut",
    "first_packets": "packets of the first five cards",
    "second_round": "round 2: a suit other than the turned card's, or any suit",
    "target": "match target",
    "match_end": "both sides over the target in one deal: draw, or higher total wins",
}

#: Where each option comes from (seed texts in shared/seeds: 000 classic belote and its
#: variants, 002 two players with a stock, 003 no contract failure, 004 all-trumps).
OPTION_SEEDS: dict[str, str] = {
    "players": "000 (4, 3), 002 (2), 003 (2, 4)",
    "contract": "000 (retourne, coinche), 002 (stock), 003 (none)",
    "declarations": "000",
    "belote": "000",
    "split_long_runs": "003",
    "declaration_tie": "000 (none), 003 (first)",
    "must_trump": "000 (on), 003 (off)",
    "partner_exemption": "000",
    "overtrump_partner": "000",
    "undertrump": "000 (forced); free: the contrée rule of many clubs",
    "all_no_trumps_round": "004",
    "nt_values": "004",
    "king_value": "003",
    "tie_rule": "000 (takers, litige), 002 (split), 004 (litige: contention)",
    "round_to_ten": "000 (belote contrée)",
    "shuffle": "000",
    "first_packets": "000",
    "second_round": "000, 002 (others), 003, 004 (any)",
    "target": "000",
    "match_end": "000 (draw), 003 (higher)",
}

# Array layout of Rules.to_array(): the only form the kernels ever read.
R_PLAYERS = 0
R_CONTRACT = 1
R_DECLARATIONS = 2
R_BELOTE = 3
R_SPLIT_LONG_RUNS = 4
R_DECLARATION_TIE = 5
R_MUST_TRUMP = 6
R_PARTNER_EXEMPTION = 7
R_OVERTRUMP_PARTNER = 8
R_UNDERTRUMP = 9
R_ALL_NO_TRUMPS_ROUND = 10
R_NT_VALUES = 11
R_KING_VALUE = 12
R_TIE_RULE = 13
R_ROUND_TO_TEN = 14
R_SHUFFLE = 15
R_FIRST_PACKETS = 16
R_TARGET = 17
R_MATCH_END = 18
R_SECOND_ROUND = 19
N_RULE_SLOTS = 20

# Codes of enumerated values as the kernels see them.
CONTRACT_RETOURNE, CONTRACT_STOCK, CONTRACT_NONE, CONTRACT_COINCHE = range(4)
TIE_TAKERS, TIE_SPLIT, TIE_LITIGE = range(3)
UNDERTRUMP_FORCED, UNDERTRUMP_FREE = range(2)
DECL_TIE_NONE, DECL_TIE_FIRST = range(2)
MATCH_END_DRAW, MATCH_END_HIGHER = range(2)
SHUFFLE_FULL, SHUFFLE_CUT = range(2)
SECOND_ROUND_OTHERS, SECOND_ROUND_ANY = range(2)


@dataclass(frozen=True)
class Rules:
    """A complete rule set: one field per option of RULES.md section 9.

    Build it with :meth:`from_preset` (validated); kernels get :meth:`to_array`.

    >>> Rules.from_preset("litige").tie_rule
    'litige'
    >>> int(Rules.from_preset("classic", tie_rule="split").to_array()[R_TIE_RULE])
    1
    """

    preset: str = "classic"
    players: int = 4
    contract: str = "retourne"
    declarations: bool = True
    belote: bool = True
    split_long_runs: bool = False
    declaration_tie: str = "none"
    must_trump: bool = True
    partner_exemption: bool = True
    overtrump_partner: bool = True
    undertrump: str = "forced"
    all_no_trumps_round: bool = False
    nt_values: str = "doubled"
    king_value: int = 4
    tie_rule: str = "takers"
    round_to_ten: bool = False
    shuffle: str = "full"
    first_packets: str = "3-2"
    second_round: str = "others"
    target: int = 1000
    match_end: str = "draw"

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def from_preset(cls, preset: str = "classic", **options: Any) -> Rules:
        """A preset of RULES.md section 9 with some options overridden.

        Option values may be given as text (``"on"``, ``"off"``, ``"1000"``), as on the
        command line. Unknown presets and options are refused, naming them.

        >>> Rules.from_preset("sans-annonces").declarations
        False
        """
        if preset not in PRESETS:
            raise RulesError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        base = dataclasses.asdict(PRESETS[preset])
        for name, value in options.items():
            if name not in base or name == "preset":
                raise RulesError(
                    f"unknown option {name!r}; options: {', '.join(option_names())}"
                )
            base[name] = coerce_option(name, value)
        return cls(**base)

    @classmethod
    def from_spec(cls, spec: str | dict | Rules) -> Rules:
        """Rules from a deal log's ``rules`` field: a preset name or
        ``{"preset": ..., "options": {...}}``.

        >>> Rules.from_spec({"preset": "classic", "options": {"must_trump": False}}).must_trump
        False
        """
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            return cls.from_preset(spec)
        if isinstance(spec, dict):
            unknown = set(spec) - {"preset", "options"}
            if unknown:
                raise RulesError(f"unknown key(s) in rules: {', '.join(sorted(unknown))}")
            options = spec.get("options") or {}
            if not isinstance(options, dict):
                raise RulesError(f"rules options must be an object, not {options!r}")
            return cls.from_preset(spec.get("preset", "classic"), **options)
        raise RulesError(f"rules must be a preset name or an object, not {spec!r}")

    def options(self) -> dict[str, Any]:
        """Every option and its value (the preset name excluded)."""
        d = dataclasses.asdict(self)
        d.pop("preset")
        return d

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset's values."""
        base = PRESETS[self.preset].options()
        return {k: v for k, v in self.options().items() if base[k] != v}

    def to_spec(self) -> str | dict:
        """The deal log's ``rules`` field for these rules."""
        over = self.overrides()
        return {"preset": self.preset, "options": over} if over else self.preset

    def to_array(self) -> np.ndarray:
        """The compact int64 form the jitted kernels read (layout: the ``R_*`` constants)."""
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_PLAYERS] = self.players
        a[R_CONTRACT] = CHOICES["contract"].index(self.contract)
        a[R_DECLARATIONS] = self.declarations
        a[R_BELOTE] = self.belote
        a[R_SPLIT_LONG_RUNS] = self.split_long_runs
        a[R_DECLARATION_TIE] = CHOICES["declaration_tie"].index(self.declaration_tie)
        a[R_MUST_TRUMP] = self.must_trump
        a[R_PARTNER_EXEMPTION] = self.partner_exemption
        a[R_OVERTRUMP_PARTNER] = self.overtrump_partner
        a[R_UNDERTRUMP] = CHOICES["undertrump"].index(self.undertrump)
        a[R_ALL_NO_TRUMPS_ROUND] = self.all_no_trumps_round
        a[R_NT_VALUES] = CHOICES["nt_values"].index(self.nt_values)
        a[R_KING_VALUE] = self.king_value
        a[R_TIE_RULE] = CHOICES["tie_rule"].index(self.tie_rule)
        a[R_ROUND_TO_TEN] = self.round_to_ten
        a[R_SHUFFLE] = CHOICES["shuffle"].index(self.shuffle)
        a[R_FIRST_PACKETS] = CHOICES["first_packets"].index(self.first_packets)
        a[R_TARGET] = self.target
        a[R_MATCH_END] = CHOICES["match_end"].index(self.match_end)
        a[R_SECOND_ROUND] = CHOICES["second_round"].index(self.second_round)
        return a


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_names() -> list[str]:
    """Names of the options of RULES.md section 9, in table order."""
    return [f.name for f in fields(Rules) if f.name != "preset"]


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def coerce_option(name: str, value: Any) -> Any:
    """Turn a text or Python value into the option's type, refusing bad values.

    >>> coerce_option("must_trump", "off"), coerce_option("target", "1500")
    (False, 1500)
    """
    if name in BOOL_OPTIONS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise RulesError(f"bad value {value!r} for option {name!r}: expected on or off")
    if name == "target":
        try:
            v = int(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            v = None
        if v is None or v <= 0:
            raise RulesError(
                f"bad value {value!r} for option 'target': expected a positive integer"
            )
        return v
    if name in CHOICES:
        allowed = CHOICES[name]
        if isinstance(allowed[0], int):
            try:
                v = int(value) if not isinstance(value, bool) else None
            except (TypeError, ValueError):
                v = None
        else:
            v = str(value).strip().lower() if isinstance(value, str) else value
        if v not in allowed:
            raise RulesError(
                f"bad value {value!r} for option {name!r}: expected one of "
                f"{', '.join(str(a) for a in allowed)}"
            )
        return v
    raise RulesError(f"unknown option {name!r}; options: {', '.join(option_names())}")


def _validate(r: Rules) -> None:
    for name in option_names():
        value = getattr(r, name)
        if coerce_option(name, value) != value or type(coerce_option(name, value)) is not type(
            value
        ):
            raise RulesError(f"bad value {value!r} for option {name!r}")
    need = {"retourne": (3, 4), "stock": (2,), "none": (2, 4), "coinche": (4,)}[r.contract]
    if r.players not in need:
        want = " or ".join(str(n) for n in need)
        raise RulesConflictError(
            f"contract={r.contract} needs {want} players, not players={r.players}"
        )
    if r.tie_rule == "litige" and r.players == 3:
        raise RulesConflictError("tie_rule=litige needs two sides (2 or 4 players), not players=3")
    if r.all_no_trumps_round and r.contract in ("stock", "none"):
        raise RulesConflictError(f"all_no_trumps_round=on is refused with contract={r.contract}")
    if r.king_value == 10 and r.all_no_trumps_round:
        raise RulesConflictError(
            "king_value=10 is refused with all_no_trumps_round=on (no values are defined for it)"
        )


def _preset(name: str, **kw: Any) -> Rules:
    return Rules(preset=name, **kw)


PRESETS: dict[str, Rules] = {
    "classic": _preset("classic"),
    "sans-annonces": _preset("sans-annonces", declarations=False),
    "litige": _preset("litige", tie_rule="litige"),
    "tout-atout": _preset(
        "tout-atout",
        declarations=False,
        all_no_trumps_round=True,
        tie_rule="litige",
        second_round="any",
    ),
    "coinche": _preset("coinche", contract="coinche", all_no_trumps_round=True, round_to_ten=True),
    "three-player": _preset("three-player", players=3),
    "stock-2p": _preset(
        "stock-2p", players=2, contract="stock", declarations=False, tie_rule="split"
    ),
    "no-contract-2p": _preset(
        "no-contract-2p",
        players=2,
        contract="none",
        must_trump=False,
        king_value=10,
        declaration_tie="first",
        split_long_runs=True,
        match_end="higher",
        second_round="any",
    ),
    "no-contract-4p": _preset(
        "no-contract-4p",
        players=4,
        contract="none",
        must_trump=False,
        partner_exemption=False,
        king_value=10,
        declaration_tie="first",
        split_long_runs=True,
        match_end="higher",
        second_round="any",
    ),
}

PRESET_SEEDS = {
    "classic": "000",
    "sans-annonces": "000",
    "litige": "000",
    "tout-atout": "004",
    "coinche": "000",
    "three-player": "000",
    "stock-2p": "002",
    "no-contract-2p": "003",
    "no-contract-4p": "003",
}
