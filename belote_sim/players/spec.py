"""Players as the command line and the Python API write them: ``name[:param]``, checked
against the registry (:data:`belote_sim.players.registry.POLICIES`).

>>> PolicySpec.parse("fastpimc:8", "play").uses_solver
True
"""

from __future__ import annotations

from dataclasses import dataclass

from belote_sim.errors import BeloteError
from belote_sim.players.registry import Policy, policy
from belote_sim.rules import Rules


@dataclass(frozen=True)
class PolicySpec:
    """A policy name with its optional parameter, as written ``name[:param]``; a player
    that samples worlds may add ``:uniform``, its worlds then ignoring the calls.

    >>> PolicySpec.parse("threshold:60", kind="bid")
    PolicySpec(kind='bid', name='threshold', param=60.0, uniform=False)
    >>> str(PolicySpec.parse("fastpimc:uniform", kind="play"))
    'fastpimc:20:uniform'
    """

    kind: str
    name: str
    param: float | None = None
    uniform: bool = False

    @classmethod
    def parse(cls, text: str, kind: str) -> PolicySpec:
        """Read ``name[:param]``, checking the name and the parameter against the
        registry (:data:`belote_sim.players.registry.POLICIES`)."""
        name, _, raw = str(text).partition(":")
        entry = policy(kind, name.strip().lower())
        head, _, tail = raw.rpartition(":")
        uniform = tail.strip().lower() == UNIFORM
        if uniform:
            if entry.uniform_id is None:
                raise BeloteError(
                    f"{kind} policy {entry.name!r} samples no worlds: it takes no "
                    f"':{UNIFORM}' ({text!r})"
                )
            raw = head
        param = None
        if raw:
            try:
                param = float(raw)
            except ValueError:
                raise BeloteError(f"bad parameter {raw!r} in {kind} policy {text!r}") from None
        if entry.param is None:
            if param is not None:
                raise BeloteError(
                    f"{kind} policy {entry.name!r} takes no parameter ({text!r})"
                )
            return cls(kind, entry.name, None)
        if param is None:
            param = float(entry.default)
        return cls(kind, entry.name, _checked_param(entry, param, raw, text), uniform)

    @property
    def id(self) -> int:
        entry = policy(self.kind, self.name)
        return entry.uniform_id if self.uniform else entry.id

    @property
    def value(self) -> float:
        """The parameter the kernels read (0.0 for a policy without one)."""
        return 0.0 if self.param is None else float(self.param)

    def __str__(self) -> str:
        text = self.name if self.param is None else f"{self.name}:{self.param:g}"
        return f"{text}:{UNIFORM}" if self.uniform else text

    @property
    def reads_calls(self) -> bool:
        """True for a player whose worlds must give the calls (``pimc``, ``fastpimc``
        without ``:uniform``)."""
        return policy(self.kind, self.name).uniform_id is not None and not self.uniform

    @property
    def uses_solver(self) -> bool:
        """True for the players that run the double-dummy solver (slow, see docs/players.md)."""
        return policy(self.kind, self.name).solver


#: The suffix of a player whose worlds ignore the calls (``fastpimc:20:uniform``).
UNIFORM = "uniform"


def _checked_param(entry: Policy, param: float, raw: str, text: str) -> float:
    """``param`` of ``text``, refused outside the registry's range for ``entry``."""
    low, high = entry.low, entry.high
    if entry.whole:
        if param != int(param) or not low <= param <= high:
            raise BeloteError(
                f"{entry.name} needs a whole number of {entry.param} in "
                f"{low:g}..{high:g}, not {raw!r} ({text!r})"
            )
    elif low is not None and not low <= param <= high:
        raise BeloteError(f"{entry.param} {param} of {text!r} is not in {low:g}..{high:g}")
    return param


def as_spec(player: str | PolicySpec, kind: str) -> PolicySpec:
    """``player`` as a :class:`PolicySpec` (parsed and checked when it is a string)."""
    return player if isinstance(player, PolicySpec) else PolicySpec.parse(player, kind)


#: The options of an auction the ``table`` bidder's atlas must share with the rules:
#: they decide which calls exist.
AUCTION_OPTIONS = ("players", "contract", "all_no_trumps_round", "second_round",
                   "capot_value", "after_coinche", "coinche_packets")


def table_atlas(rules: Rules) -> str:
    """The preset whose shipped atlas the ``table`` bidder reads under ``rules``: the
    one with the same auction (:data:`AUCTION_OPTIONS`; other options may differ, the
    gains then are those measured under the atlas's preset).

    :raises BeloteError: no shipped atlas has that auction, or its data file is missing.
    """
    from belote_sim.players import lookup

    own = {k: rules.options()[k] for k in AUCTION_OPTIONS}
    for preset in lookup.ATLAS_PRESETS:
        theirs = Rules.from_preset(preset).options()
        if all(theirs[k] == v for k, v in own.items()):
            if not lookup.lookup_path(preset).exists():
                raise BeloteError(
                    f"the table bidder's atlas for {preset} is missing "
                    f"({lookup.lookup_path(preset)}): run `make atlas`"
                )
            return preset
    wanted = ", ".join(f"{k}={v}" for k, v in own.items())
    raise BeloteError(
        f"the table bidder has atlases for {' and '.join(lookup.ATLAS_PRESETS)} only, "
        f"not for the auction of {rules.preset} rules ({wanted})"
    )


def check_policies(rules: Rules, bid: PolicySpec, *plays: PolicySpec) -> None:
    """Refuse a bidding policy the rules' auction cannot use: the ``dd`` bidder knows the
    retourne bidding of 7.1 only; the ``table`` bidder needs a shipped atlas of the same
    auction (:func:`table_atlas`); no player of ``plays`` whose worlds read the calls may
    meet the ``dd`` bidder, whose calls no world can afford to replay."""
    for play in plays:
        if bid.name == "dd" and play.reads_calls:
            raise BeloteError(
                f"{play}'s worlds replay the calls with the bidders, and the dd bidder's "
                f"cannot be replayed in every world: use {play.name}:{play.value:g}:{UNIFORM} "
                f"or another bidder"
            )
    if bid.name == "dd" and rules.contract != "retourne":
        raise BeloteError(
            f"the dd bidder plays the retourne bidding only, not the {rules.contract} "
            f"auction of {rules.preset} rules"
        )
    if bid.name == "table":
        table_atlas(rules)
