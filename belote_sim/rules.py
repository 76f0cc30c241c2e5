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

#: Where the club-dispute options come from: the rulebooks of section 10.
_DISPUTE = "section 10 (club rulebooks)"


def _option(default: Any, meaning: str, seeds: str, choices: tuple = ()) -> Any:
    """A field of :class:`Rules`: one row of the option table of RULES.md section 9.

    ``choices`` lists the allowed values of an enumerated option (the index of a text
    value is its code in the kernels); switches (``bool``) and ``target`` have none."""
    return dataclasses.field(
        default=default, metadata={"help": meaning, "seeds": seeds, "choices": choices}
    )


@dataclass(frozen=True)
class Rules:
    """A complete rule set: one field per option of RULES.md section 9.

    The fields are the option table: each one's default, allowed values, help text and
    the seed texts it comes from (in ``docs/spec/seeds``: 000 classic belote and its
    variants, 002 two players with a stock, 003 no contract failure, 004 all-trumps), or
    for the club disputes the rulebooks of RULES.md section 10.
    Everything else about options (:data:`CHOICES`, :data:`OPTION_HELP`,
    :data:`OPTION_SEEDS`, the kernels' array slots ``R_*``) is derived from them.

    Build it with :meth:`from_preset` (validated); kernels get :meth:`to_array`.

    >>> Rules.from_preset("litige").tie_rule
    'litige'
    >>> int(Rules.from_preset("classic", tie_rule="split").to_array()[R_TIE_RULE])
    1
    """

    preset: str = "classic"
    players: int = _option(
        4, "number of players", "000 (4, 3), 002 (2), 003 (2, 4)", (2, 3, 4)
    )
    contract: str = _option(
        "retourne", "how trump is chosen and what the taker must do (RULES 7.1-7.4)",
        "000 (retourne, coinche), 002 (stock), 003 (none)",
        ("retourne", "stock", "none", "coinche"),
    )
    declarations: bool = _option(True, "carrés and runs (RULES 5)", "000")
    belote: bool = _option(True, "belote-rebelote", "000")
    split_long_runs: bool = _option(False, "an 8-card run scores quinte + tierce", "003")
    declaration_tie: str = _option(
        "none", "equal best declarations: nobody scores (none) or first in turn order",
        "000 (none), 003 (first)", ("none", "first"),
    )
    must_trump: bool = _option(
        True, "void in the suit led, a player holding trumps must trump", "000 (on), 003 (off)"
    )
    partner_exemption: bool = _option(
        True, "void, with the partner winning, any card is allowed", "000"
    )
    overtrump_partner: bool = _option(
        True, "on a trump lead, overtrump even when the partner is winning", "000"
    )
    undertrump: str = _option(
        "forced", "void and unable to overtrump: still trump (forced) or any card (free)",
        "000 (forced); free: the contrée rule of many clubs", ("forced", "free"),
    )
    all_no_trumps_round: bool = _option(
        False, "round 3 (retourne) / AT and NT strains (coinche)", "004"
    )
    nt_values: str = _option("doubled", "no-trump card values", "004", ("doubled", "ace19"))
    king_value: int = _option(4, "points of a king (10: seed 003's table)", "003", (4, 10))
    tie_rule: str = _option(
        "takers", "Q_T == Q_E: takers make it, split, litige pot, or a dedans",
        "000 (takers, litige), 002 (split), 004 (litige: contention); defenders: section 10",
        ("takers", "split", "litige", "defenders"),
    )
    round_to_ten: bool = _option(
        False, "coinche deal scores rounded to ten", "000 (belote contrée)"
    )
    shuffle: str = _option(
        "full", "full shuffle every deal, or the pack rebuilt from the tricks and cut", "000",
        ("full", "cut"),
    )
    first_packets: str = _option("3-2", "packets of the first five cards", "000", ("3-2", "2-3"))
    second_round: str = _option(
        "others", "round 2: a suit other than the turned card's, or any suit",
        "000, 002 (others), 003, 004 (any)", ("others", "any"),
    )
    target: int = _option(1000, "match target", "000")
    match_end: str = _option(
        "draw", "both sides over the target in one deal: draw, higher total wins, or "
        "higher total wins and equal totals play on",
        "000 (draw), 003 (higher); play-on: section 10", ("draw", "higher", "play-on"),
    )
    # The club disputes (RULES.md section 9's second table, sources in section 10).
    coinche_scoring: str = _option(
        "points+bid", "coinche: points faits + annoncés, points faits, or points annoncés",
        _DISPUTE, ("points+bid", "points", "bid"),
    )
    coinche_base: int = _option(
        160, "coinche: the base of a failed or coinched deal", _DISPUTE, (160, 162)
    )
    coinche_multiplies: str = _option(
        "bid", "coinche: what m multiplies: the bid, base and bid, or the base",
        _DISPUTE, ("bid", "all", "base"),
    )
    surcoinche_mult: int = _option(4, "coinche: m after a surcoinche", _DISPUTE, (4, 3))
    capot_bid: str = _option(
        "contract", "coinche: a capot bid scores as a contract, or a flat 500·m",
        _DISPUTE, ("contract", "flat"),
    )
    capot_value: int = _option(
        250, "coinche: the capot bid's value (270 opens the bids 170-260)", _DISPUTE,
        (250, 270),
    )
    capot_total: int = _option(
        252, "a capot side's card total in a suit contract (capot bonus 90, 88, 0)",
        _DISPUTE, (252, 250, 162),
    )
    belote_prenable: bool = _option(
        False, "coinche: on a failed or coinched contract the winner takes all belote",
        _DISPUTE,
    )
    contract_counts: str = _option(
        "all", "what counts in the contract test: card points, declarations and belote, "
        "or card points only", _DISPUTE, ("all", "cards"),
    )
    beat_defence: bool = _option(
        False, "coinche: a contract also needs Q_T > Q_E", _DISPUTE
    )
    eighty_needs: int = _option(
        80, "coinche: points a bid of 80 needs", _DISPUTE, (80, 82)
    )
    round_up_from: int = _option(
        5, "with round_to_ten, the last digit that rounds up", _DISPUTE, (5, 6)
    )
    target_rule: str = _option(
        "reach", "a side wins the match at >= target (reach) or > target (exceed)",
        _DISPUTE, ("reach", "exceed"),
    )
    coinche_packets: str = _option(
        "3-3-2", "coinche dealing (3-3+2: two cards dealt after the auction)", _DISPUTE,
        ("3-3-2", "3-2-3", "2-3-3", "4-4", "3-3+2"),
    )
    after_coinche: str = _option(
        "bidder-side", "who speaks after a coinche: the high bidder's side, or every seat "
        "until three passes", _DISPUTE, ("bidder-side", "three-passes"),
    )

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

    def describe(self) -> dict[str, Any]:
        """The rules as a run's provenance records them: the preset and every option.

        >>> Rules().describe()["preset"], Rules().describe()["options"]["players"]
        ('classic', 4)
        """
        return {"preset": self.preset, "options": self.options()}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset's values."""
        base = PRESETS[self.preset].options()
        return {k: v for k, v in self.options().items() if base[k] != v}

    def to_spec(self) -> str | dict:
        """The deal log's ``rules`` field for these rules."""
        over = self.overrides()
        return {"preset": self.preset, "options": over} if over else self.preset

    def to_array(self) -> np.ndarray:
        """The compact int64 form the jitted kernels read (layout: :data:`SLOTS`, the
        ``R_*`` constants): switches as 0/1, text values as their :func:`choice_code`,
        numbers (players, king value, target) as they are."""
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        for name, slot in SLOTS.items():
            value = getattr(self, name)
            a[slot] = choice_code(name, value) if isinstance(value, str) else int(value)
        return a


_OPTION_FIELDS = [f for f in fields(Rules) if f.name != "preset"]
#: Allowed values of each enumerated option; the index of a value is its code in the kernels.
CHOICES: dict[str, tuple] = {f.name: f.metadata["choices"] for f in _OPTION_FIELDS
                             if f.metadata["choices"]}
#: The on/off options.
BOOL_OPTIONS: tuple[str, ...] = tuple(f.name for f in _OPTION_FIELDS if f.type == "bool")
OPTION_HELP: dict[str, str] = {f.name: f.metadata["help"] for f in _OPTION_FIELDS}
#: Where each option comes from (seed texts in docs/spec/seeds).
OPTION_SEEDS: dict[str, str] = {f.name: f.metadata["seeds"] for f in _OPTION_FIELDS}

#: Slot of each option in :meth:`Rules.to_array`, the only form the kernels ever read.
SLOTS: dict[str, int] = {f.name: i for i, f in enumerate(_OPTION_FIELDS)}
N_RULE_SLOTS = len(SLOTS)
R_PLAYERS = SLOTS["players"]
R_CONTRACT = SLOTS["contract"]
R_DECLARATIONS = SLOTS["declarations"]
R_BELOTE = SLOTS["belote"]
R_SPLIT_LONG_RUNS = SLOTS["split_long_runs"]
R_DECLARATION_TIE = SLOTS["declaration_tie"]
R_MUST_TRUMP = SLOTS["must_trump"]
R_PARTNER_EXEMPTION = SLOTS["partner_exemption"]
R_OVERTRUMP_PARTNER = SLOTS["overtrump_partner"]
R_UNDERTRUMP = SLOTS["undertrump"]
R_ALL_NO_TRUMPS_ROUND = SLOTS["all_no_trumps_round"]
R_NT_VALUES = SLOTS["nt_values"]
R_KING_VALUE = SLOTS["king_value"]
R_TIE_RULE = SLOTS["tie_rule"]
R_ROUND_TO_TEN = SLOTS["round_to_ten"]
R_SHUFFLE = SLOTS["shuffle"]
R_FIRST_PACKETS = SLOTS["first_packets"]
R_SECOND_ROUND = SLOTS["second_round"]
R_TARGET = SLOTS["target"]
R_MATCH_END = SLOTS["match_end"]
R_COINCHE_SCORING = SLOTS["coinche_scoring"]
R_COINCHE_BASE = SLOTS["coinche_base"]
R_COINCHE_MULTIPLIES = SLOTS["coinche_multiplies"]
R_SURCOINCHE_MULT = SLOTS["surcoinche_mult"]
R_CAPOT_BID = SLOTS["capot_bid"]
R_CAPOT_VALUE = SLOTS["capot_value"]
R_CAPOT_TOTAL = SLOTS["capot_total"]
R_BELOTE_PRENABLE = SLOTS["belote_prenable"]
R_CONTRACT_COUNTS = SLOTS["contract_counts"]
R_BEAT_DEFENCE = SLOTS["beat_defence"]
R_EIGHTY_NEEDS = SLOTS["eighty_needs"]
R_ROUND_UP_FROM = SLOTS["round_up_from"]
R_TARGET_RULE = SLOTS["target_rule"]
R_COINCHE_PACKETS = SLOTS["coinche_packets"]
R_AFTER_COINCHE = SLOTS["after_coinche"]


def choice_code(option: str, value: str) -> int:
    """The kernels' code of an enumerated option's text value (its index in the table).

    >>> choice_code("tie_rule", "litige")
    2
    """
    return CHOICES[option].index(value)


# Codes of enumerated values as the kernels see them.
CONTRACT_RETOURNE, CONTRACT_STOCK, CONTRACT_NONE, CONTRACT_COINCHE = (
    choice_code("contract", v) for v in CHOICES["contract"]
)
TIE_TAKERS, TIE_SPLIT, TIE_LITIGE, TIE_DEFENDERS = (
    choice_code("tie_rule", v) for v in CHOICES["tie_rule"]
)
UNDERTRUMP_FORCED = choice_code("undertrump", "forced")
UNDERTRUMP_FREE = choice_code("undertrump", "free")
DECL_TIE_NONE = choice_code("declaration_tie", "none")
DECL_TIE_FIRST = choice_code("declaration_tie", "first")
MATCH_END_DRAW = choice_code("match_end", "draw")
MATCH_END_HIGHER = choice_code("match_end", "higher")
MATCH_END_PLAY_ON = choice_code("match_end", "play-on")
SCORING_POINTS_BID, SCORING_POINTS, SCORING_BID = (
    choice_code("coinche_scoring", v) for v in CHOICES["coinche_scoring"]
)
MULTIPLIES_BID, MULTIPLIES_ALL, MULTIPLIES_BASE = (
    choice_code("coinche_multiplies", v) for v in CHOICES["coinche_multiplies"]
)
CAPOT_BID_FLAT = choice_code("capot_bid", "flat")
COUNTS_CARDS = choice_code("contract_counts", "cards")
TARGET_EXCEED = choice_code("target_rule", "exceed")
AFTER_COINCHE_THREE_PASSES = choice_code("after_coinche", "three-passes")


def _packet_sizes(value: str) -> list[int]:
    sizes = [int(n) for n in value.replace("+", "-").split("-")]
    return sizes + [0] * (3 - len(sizes))


#: The packets of each ``coinche_packets`` value by code (RULES 7.4 step 1): one row of
#: packet sizes, one per round, 0 past the last; with ``3-3+2`` (``PACKETS_LATE``, the
#: Saint-Étienne deal) the last round is dealt only once the auction has a contract.
PACKET_ROUNDS = np.array([_packet_sizes(v) for v in CHOICES["coinche_packets"]],
                         dtype=np.int64)
PACKETS_332 = choice_code("coinche_packets", "3-3-2")
PACKETS_LATE = choice_code("coinche_packets", "3-3+2")
SHUFFLE_FULL = choice_code("shuffle", "full")
SHUFFLE_CUT = choice_code("shuffle", "cut")
SECOND_ROUND_OTHERS = choice_code("second_round", "others")
SECOND_ROUND_ANY = choice_code("second_round", "any")

#: The families of rule sets, one for each deal function of the engine (RULES 7): the
#: retourne games (three or four players, and the four-player game without contract,
#: dealt and bid the same way), coinche, the stock game, the two-player game without
#: contract.
FAMILY_RETOURNE, FAMILY_COINCHE, FAMILY_STOCK, FAMILY_NO_CONTRACT_2P = range(4)
N_FAMILIES = 4


def family_of(rules: np.ndarray) -> int:
    """The family of the rule set ``rules`` (:meth:`Rules.to_array`): which deal function
    plays it. The kernels compile this very function (``belote_sim.game.deals``).

    >>> family_of(Rules.from_preset("coinche").to_array()) == FAMILY_COINCHE
    True
    """
    contract = rules[R_CONTRACT]
    if contract == CONTRACT_RETOURNE or (contract == CONTRACT_NONE and rules[R_PLAYERS] == 4):
        return FAMILY_RETOURNE
    if contract == CONTRACT_COINCHE:
        return FAMILY_COINCHE
    if contract == CONTRACT_STOCK:
        return FAMILY_STOCK
    return FAMILY_NO_CONTRACT_2P


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_names() -> list[str]:
    """Names of the options of RULES.md section 9, in table order."""
    return [f.name for f in fields(Rules) if f.name != "preset"]


_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


#: The highest match target: a match still unfinished after 500 deals is abandoned
#: (``MAX_MATCH_DEALS``), and 500 deals score far less than this in every game.
MAX_TARGET = 100_000


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
        if v is None or not 0 < v <= MAX_TARGET:
            raise RulesError(
                f"bad value {value!r} for option 'target': expected an integer in "
                f"1..{MAX_TARGET}"
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
    if r.coinche_scoring == "points" and r.coinche_multiplies == "bid":
        raise RulesConflictError(
            "coinche_scoring=points is refused with coinche_multiplies=bid: points faits "
            "score no bid for m to multiply (use coinche_multiplies=all or base)"
        )
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

def _rulebook(name: str, **kw: Any) -> Rules:
    """A rulebook of RULES.md section 10: coinche, four players, the suits only."""
    return Rules(preset=name, contract="coinche", all_no_trumps_round=False, **kw)


PRESETS.update({
    "ffb-contree-2016": _rulebook(
        "ffb-contree-2016", declarations=False, undertrump="free", coinche_multiplies="all",
        capot_bid="flat", belote_prenable=True, round_to_ten=True, match_end="play-on",
    ),
    "ffb-coinche-2015": _rulebook(
        "ffb-coinche-2015", beat_defence=True, coinche_multiplies="all", round_to_ten=True,
        undertrump="free", match_end="play-on",
    ),
    "cannes-2016": _rulebook(
        "cannes-2016", declarations=False, capot_value=270, coinche_base=162,
        belote_prenable=True, surcoinche_mult=3, round_to_ten=True, round_up_from=6,
        undertrump="free", target=2001, after_coinche="three-passes", match_end="play-on",
    ),
    "colver": _rulebook(
        "colver", declarations=False, after_coinche="three-passes", coinche_base=162,
        surcoinche_mult=3, belote_prenable=True, undertrump="free", target=2000,
        match_end="play-on",
    ),
})

#: Where each choice of the rulebook presets comes from (RULES.md section 10, whose
#: table quotes the same sources): the document (key ``""``), then option by option.
#: A test requires each source to be quoted in that preset's row of section 10.
RULEBOOK_SOURCES: dict[str, dict[str, str]] = {
    "ffb-contree-2016": {
        "": "FFB *Règles officielles de la belote contrée* 27.01.2016",
        "declarations": '§8 "toujours sans annonces"; bareme §2.3',
        "undertrump": "§5.2.2; jeu-de-la-carte §9",
        "coinche_multiplies": "§10.2 table p. 7: contré 320 (640) + contrat ×2 (×4)",
        "capot_bid": "capot 500/1000/2000; tableau-ffb-2016",
        "belote_prenable": '§7 "perdue par les preneurs"',
        "round_to_ten": '§10.3 "85 → 90"; arrondi R1',
        "match_end": "§10.4; fin-de-partie §3",
    },
    "ffb-coinche-2015": {
        "": "FFB *Règles de la belote coinchée* (PDF, 2015-11)",
        "beat_defence": '"les deux conditions"; bareme §2.1',
        "coinche_multiplies": '"le score de la donne sera multiplié par 2 / 4"; '
                              "bareme §4.2-4.3",
        "round_to_ten": "arrondi R1",
        "undertrump": "§5.2; jeu-de-la-carte §9",
        "match_end": "§10.4; fin-de-partie §2-§3",
    },
    "cannes-2016": {
        "": "FIJ Cannes, *Règlement de la belote aux enchères ou contrée* 2016",
        "declarations": "contrée; III lists none",
        "capot_value": '2° "générale ou capot ou 270"; encheres §2',
        "coinche_base": 'III "contrat perdu : enchère + 162 ou 252 + belote … car prenable"',
        "belote_prenable": 'III "contrat perdu : enchère + 162 ou 252 + belote … car prenable"',
        "surcoinche_mult": "le surcontre les triple",
        "round_to_ten": 'III "arrondis à 6 (156 valant 160)"',
        "round_up_from": 'III "arrondis à 6 (156 valant 160)"',
        "undertrump": "3° c",
        "target": "`target=2001` (III)",
        "after_coinche": '"trois joueurs successifs ont dit passe"',
        "match_end": "not stated by Cannes; the FFB rule, as the other presets",
    },
    "colver": {
        "": "colver 0.11 (`docs/RULES.md`, `colver-core/src/engine/scoring.rs`, `play.rs`, "
            "`src/bidding.rs`)",
        "declarations": 'RULES.md "The Deck", "Bid Values", "Capot Contracts"',
        "after_coinche": "bidding.rs `apply_bid`",
        "coinche_base": "scoring.rs: coinched made `162`/`252 + V·m` + all belote",
        "surcoinche_mult": "scoring.rs: coinched made `162`/`252 + V·m` + all belote",
        "belote_prenable": "failed `162 + V·m` + all belote",
        "round_to_ten": 'RULES.md "Rounding: None"',
        "undertrump": "play.rs `legal_plays`",
        "target": 'RULES.md "Match"',
        "match_end": "SYNTHESE §6",
    },
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
    **{name: "section 10" for name in RULEBOOK_SOURCES},
}
