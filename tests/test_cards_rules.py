"""Hand-built tests of cards, notation, point tables and rule sets.

One test per rule of RULES.md sections 1, 2 and 9; each fails if its rule is broken.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from belote_sim.cards import (
    ALL_TRUMPS,
    NO_TRUMPS,
    POINTS,
    CardSet,
    format_card,
    last_trick_bonus,
    parse_card,
    parse_cards,
)
from belote_sim.errors import (
    CardParseError,
    RulesConflictError,
    RulesError,
)
from belote_sim.rules import (
    BOOL_OPTIONS,
    CHOICES,
    OPTION_HELP,
    OPTION_SEEDS,
    PRESET_SEEDS,
    PRESETS,
    RULEBOOK_SOURCES,
    SLOTS,
    Rules,
    option_names,
)

SUITS = "CDHS"
SEQUENCE = "789TJQKA"  # ranks in sequence order (RULES 1)


# --------------------------------------------------------------------------------------
# Section 1: card index and text notation
# --------------------------------------------------------------------------------------


def test_card_index_is_8_suit_plus_sequence_rank():
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(SEQUENCE):
            assert parse_card(rank + suit) == 8 * s + r
            assert format_card(8 * s + r) == rank + suit
    assert parse_card("7C") == 0
    assert parse_card("AC") == 7
    assert parse_card("7D") == 8
    assert parse_card("TD") == 11
    assert parse_card("JH") == 20
    assert parse_card("AS") == 31


def test_card_set_is_uint32_mask_with_bit_per_card_index():
    hand = CardSet("JH 9H AS")
    assert int(hand) == (1 << 20) | (1 << 18) | (1 << 31)
    assert len(hand) == 3
    assert list(hand) == [18, 20, 31]
    assert CardSet(0xFF) == CardSet("7C 8C 9C TC JC QC KC AC")
    assert int(CardSet(" ".join(r + s for s in SUITS for r in SEQUENCE))) == 0xFFFFFFFF
    # A run is adjacent set bits inside one suit's byte.
    assert int(CardSet("9D TD JD")) == 0b111 << (8 + 2)


def test_ten_written_as_t_or_10_and_output_as_t():
    assert parse_card("TS") == parse_card("10S") == 27
    assert parse_card("10h") == parse_card("th") == 19
    assert format_card(parse_card("10S")) == "TS"
    assert str(CardSet("10C 10D")) == "TC TD"


def test_card_notation_is_case_insensitive():
    for token in ("JH", "jh", "Jh", "jH"):
        assert parse_card(token) == 20
    assert parse_card("as") == 31
    assert parse_card("tc") == 3


def test_suit_symbols_are_accepted():
    assert parse_card("7♣") == parse_card("7C") == 0
    assert parse_card("A♦") == parse_card("AD") == 15
    assert parse_card("J♥") == parse_card("JH") == 20
    assert parse_card("10♠") == parse_card("TS") == 27
    assert parse_card("q♠") == parse_card("QS")


def test_hand_is_cards_separated_by_spaces_or_commas():
    assert parse_cards("JH 9H AS") == [20, 18, 31]
    assert parse_cards("JH,9H,AS") == [20, 18, 31]
    assert parse_cards("JH, 9H ,  AS") == [20, 18, 31]
    assert parse_cards("JH\t9H\nAS") == [20, 18, 31]
    assert CardSet("JH,9H AS") == CardSet(["JH", "9H", "AS"]) == CardSet([20, 18, 31])


def test_card_set_text_is_in_index_order():
    assert str(CardSet("AS JH 9H 7C")) == "7C 9H JH AS"


@pytest.mark.parametrize(
    "token", ["1H", "11S", "JX", "ZH", "J", "H", "HJ", "JHH", "10", "0S", "1OS", "J♥♥", "??"]
)
def test_malformed_card_raises_error_naming_token(token):
    with pytest.raises(CardParseError) as exc:
        parse_card(token)
    assert token in str(exc.value)


def test_malformed_card_in_hand_raises_error_naming_token():
    with pytest.raises(CardParseError) as exc:
        parse_cards("JH 9H XQ AS")
    assert "XQ" in str(exc.value)
    with pytest.raises(CardParseError) as exc:
        CardSet("7C 8C 12C")
    assert "12C" in str(exc.value)


def test_duplicate_card_raises_error_naming_token():
    with pytest.raises(CardParseError) as exc:
        parse_cards("JH 9H jh")
    assert "jh" in str(exc.value)
    with pytest.raises(CardParseError) as exc:
        parse_cards("TS AS 10S")
    assert "10S" in str(exc.value)
    with pytest.raises(CardParseError) as exc:
        CardSet("QD KD QD")
    assert "QD" in str(exc.value)
    with pytest.raises(CardParseError) as exc:
        CardSet(["8C", "8♣"])
    assert "8C" in str(exc.value) or "8♣" in str(exc.value)


# --------------------------------------------------------------------------------------
# Section 2: orders and values
# --------------------------------------------------------------------------------------


def _pts(card: str, trump: int, king10: int = 0, ace19: int = 0) -> int:
    return int(POINTS[king10, ace19, trump, parse_card(card)])


def test_plain_suit_card_points():
    hearts = 2
    expected = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    for rank, pts in expected.items():
        assert _pts(rank + "S", hearts) == pts


def test_trump_suit_card_points():
    hearts = 2
    expected = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
    for rank, pts in expected.items():
        assert _pts(rank + "H", hearts) == pts


@pytest.mark.parametrize("trump", [0, 1, 2, 3])
def test_suit_contract_pack_holds_152_plus_10(trump):
    for ace19 in (0, 1):
        assert int(POINTS[0, ace19, trump].sum()) == 152
    assert int(POINTS[0, 0, trump].sum()) + last_trick_bonus(trump) == 162


def test_all_trumps_pack_holds_248_plus_10():
    assert int(POINTS[0, 0, ALL_TRUMPS].sum()) == 248
    assert int(POINTS[0, 0, ALL_TRUMPS].sum()) + last_trick_bonus(ALL_TRUMPS) == 258
    for suit in SUITS:
        assert _pts("J" + suit, ALL_TRUMPS) == 20
        assert _pts("9" + suit, ALL_TRUMPS) == 14


def test_no_trumps_doubled_values_hold_240_plus_20():
    expected = {"A": 22, "T": 20, "K": 8, "Q": 6, "J": 4, "9": 0, "8": 0, "7": 0}
    for rank, pts in expected.items():
        assert _pts(rank + "D", NO_TRUMPS) == pts
    assert int(POINTS[0, 0, NO_TRUMPS].sum()) == 240
    assert last_trick_bonus(NO_TRUMPS) == 20
    assert int(POINTS[0, 0, NO_TRUMPS].sum()) + last_trick_bonus(NO_TRUMPS) == 260


def test_no_trumps_ace19_values_hold_152_plus_10():
    expected = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    for rank, pts in expected.items():
        assert _pts(rank + "C", NO_TRUMPS, ace19=1) == pts
    assert int(POINTS[0, 1, NO_TRUMPS].sum()) == 152
    assert last_trick_bonus(NO_TRUMPS, nt_ace19=True) == 10


@pytest.mark.parametrize("trump", [0, 1, 2, 3])
def test_king_value_10_table_holds_176(trump):
    assert int(POINTS[1, 0, trump].sum()) == 176
    suit = SUITS[trump]
    other = SUITS[(trump + 1) % 4]
    assert _pts("K" + suit, trump, king10=1) == 10
    assert _pts("K" + other, trump, king10=1) == 10
    trump_suit = sum(_pts(r + suit, trump, king10=1) for r in SEQUENCE)
    plain_suit = sum(_pts(r + other, trump, king10=1) for r in SEQUENCE)
    assert (trump_suit, plain_suit) == (68, 36)
    # everything except the king as in the usual table
    for r in "789TJQA":
        assert _pts(r + suit, trump, king10=1) == _pts(r + suit, trump)
        assert _pts(r + other, trump, king10=1) == _pts(r + other, trump)


# --------------------------------------------------------------------------------------
# Section 9: options and presets
# --------------------------------------------------------------------------------------

DEFAULTS = {
    "belote": True,
    "overtrump_partner": True,
    "undertrump": "forced",
    "declaration_tie": "none",
    "split_long_runs": False,
    "nt_values": "doubled",
    "king_value": 4,
    "round_to_ten": False,
    "shuffle": "full",
    "first_packets": "3-2",
    "second_round": "others",
    "target": 1000,
    "match_end": "draw",
}

# The preset table of RULES.md section 9 ("—" cells are left out).
PRESET_TABLE = {
    "classic": dict(
        players=4, contract="retourne", declarations=True, must_trump=True,
        partner_exemption=True, all_no_trumps_round=False, tie_rule="takers",
        declaration_tie="none",
    ),
    "sans-annonces": dict(
        players=4, contract="retourne", declarations=False, must_trump=True,
        partner_exemption=True, all_no_trumps_round=False, tie_rule="takers",
    ),
    "litige": dict(
        players=4, contract="retourne", declarations=True, must_trump=True,
        partner_exemption=True, all_no_trumps_round=False, tie_rule="litige",
    ),
    "tout-atout": dict(
        players=4, contract="retourne", declarations=False, must_trump=True,
        partner_exemption=True, all_no_trumps_round=True, tie_rule="litige",
        nt_values="doubled", second_round="any",
    ),
    "coinche": dict(
        players=4, contract="coinche", declarations=True, must_trump=True,
        partner_exemption=True, all_no_trumps_round=True, round_to_ten=True,
    ),
    "three-player": dict(
        players=3, contract="retourne", declarations=True, must_trump=True,
        partner_exemption=True, all_no_trumps_round=False, tie_rule="takers",
    ),
    "stock-2p": dict(
        players=2, contract="stock", declarations=False, must_trump=True,
        all_no_trumps_round=False, tie_rule="split",
    ),
    "no-contract-2p": dict(
        players=2, contract="none", declarations=True, must_trump=False,
        all_no_trumps_round=False, king_value=10, declaration_tie="first",
        split_long_runs=True, match_end="higher", second_round="any",
    ),
    "no-contract-4p": dict(
        players=4, contract="none", declarations=True, must_trump=False,
        partner_exemption=False, all_no_trumps_round=False, king_value=10,
        declaration_tie="first", split_long_runs=True, match_end="higher",
        second_round="any",
    ),
}


def test_presets_are_exactly_those_of_section_9_and_10():
    """Section 9's presets here; section 10's rulebooks in ``test_rulebooks.py``."""
    assert set(PRESETS) == set(PRESET_TABLE) | set(RULEBOOK_SOURCES)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_matches_section_9_table(name):
    rules = Rules.from_preset(name)
    assert rules.preset == name
    expected = {**DEFAULTS, **PRESET_TABLE[name]}
    actual = {k: getattr(rules, k) for k in expected}
    assert actual == expected


def test_options_without_preset_start_from_classic():
    classic = Rules.from_preset("classic")
    assert dataclasses.asdict(Rules()) == dataclasses.asdict(classic)
    spec = Rules.from_spec({"options": {"must_trump": "off"}})
    assert spec.preset == "classic"
    assert dataclasses.replace(spec, must_trump=True) == classic


def test_preset_option_override():
    r = Rules.from_preset("litige", undertrump="free", overtrump_partner=False)
    assert (r.tie_rule, r.undertrump, r.overtrump_partner) == ("litige", "free", False)
    assert r.must_trump is True
    assert PRESETS["litige"].undertrump == "forced"  # the preset itself is unchanged


@pytest.mark.parametrize(
    ("text", "value"),
    [("on", True), ("off", False), ("ON", True), ("Off", False), ("true", True),
     ("false", False), (True, True), (False, False)],
)
def test_on_off_option_values_coerced_from_text(text, value):
    r = Rules.from_preset("classic", must_trump=text, split_long_runs=text)
    assert r.must_trump is value
    assert r.split_long_runs is value


def test_numeric_and_choice_option_values_coerced_from_text():
    r = Rules.from_preset("classic", target="1500", undertrump="FREE", tie_rule="split")
    assert r.target == 1500
    assert r.undertrump == "free"
    assert r.tie_rule == "split"
    assert Rules.from_preset("no-contract-4p", king_value="10").king_value == 10
    assert Rules.from_preset("classic", players="3").players == 3


def test_unknown_preset_raises_rules_error_naming_it():
    with pytest.raises(RulesError) as exc:
        Rules.from_preset("klaverjas")
    assert "klaverjas" in str(exc.value)
    with pytest.raises(RulesError) as exc:
        Rules.from_spec("belote-bridge")
    assert "belote-bridge" in str(exc.value)


def test_unknown_option_raises_rules_error_naming_it():
    with pytest.raises(RulesError) as exc:
        Rules.from_preset("classic", trumps="on")
    assert "trumps" in str(exc.value)
    with pytest.raises(RulesError) as exc:
        Rules.from_spec({"preset": "litige", "options": {"undertrumps": "free"}})
    assert "undertrumps" in str(exc.value)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("undertrump", "sometimes"),
        ("must_trump", "maybe"),
        ("players", 5),
        ("players", "four"),
        ("target", "abc"),
        ("target", 0),
        ("king_value", 7),
        ("tie_rule", "coin"),
        ("first_packets", "4-1"),
        ("declaration_tie", "last"),
        ("nt_values", "tripled"),
        ("shuffle", "riffle"),
        ("contract", "auction"),
        ("match_end", "sudden"),
        ("second_round", "same"),
    ],
)
def test_bad_option_value_raises_rules_error_naming_option_and_value(option, value):
    with pytest.raises(RulesError) as exc:
        Rules.from_preset("classic", **{option: value})
    assert not isinstance(exc.value, RulesConflictError)
    assert option in str(exc.value)
    assert str(value) in str(exc.value)


@pytest.mark.parametrize(
    ("preset", "overrides", "names"),
    [
        ("classic", {"players": 2}, ("contract", "players")),
        ("three-player", {"players": 2}, ("contract", "players")),
        ("stock-2p", {"players": 4}, ("contract", "players")),
        ("stock-2p", {"players": 3}, ("contract", "players")),
        ("no-contract-2p", {"players": 3}, ("contract", "players")),
        ("coinche", {"players": 3}, ("contract", "players")),
        ("coinche", {"players": 2}, ("contract", "players")),
        ("three-player", {"tie_rule": "litige"}, ("tie_rule", "players")),
        ("stock-2p", {"all_no_trumps_round": "on"}, ("all_no_trumps_round", "contract")),
        ("no-contract-4p", {"all_no_trumps_round": "on"}, ("all_no_trumps_round", "contract")),
        ("tout-atout", {"king_value": 10}, ("king_value", "all_no_trumps_round")),
        ("classic", {"king_value": 10, "all_no_trumps_round": "on"},
         ("king_value", "all_no_trumps_round")),
    ],
)
def test_option_conflicts_raise_conflict_error_naming_options(preset, overrides, names):
    with pytest.raises(RulesConflictError) as exc:
        Rules.from_preset(preset, **overrides)
    for name in names:
        assert name in str(exc.value)


@pytest.mark.parametrize(
    ("preset", "overrides", "expected"),
    [
        ("classic", {"players": 3}, {"players": 3}),  # retourne with 3 players
        ("no-contract-4p", {}, {"players": 4, "contract": "none"}),
        ("no-contract-2p", {}, {"players": 2, "contract": "none"}),
        ("stock-2p", {"tie_rule": "litige"}, {"tie_rule": "litige"}),  # 2 players: two sides
        ("classic", {"tie_rule": "litige"}, {"tie_rule": "litige"}),
        ("coinche", {"tie_rule": "split"}, {"tie_rule": "split"}),  # no effect, accepted
        ("stock-2p", {"partner_exemption": "off"}, {"partner_exemption": False}),
        ("classic", {"king_value": 10}, {"king_value": 10}),
    ],
)
def test_combinations_with_a_deal_procedure_are_accepted(preset, overrides, expected):
    r = Rules.from_preset(preset, **overrides)
    assert {k: getattr(r, k) for k in expected} == expected


SPEC = Path(__file__).resolve().parents[1] / "docs" / "spec"
RULES_MD = SPEC / "RULES.md"


def _section_9_options() -> dict[str, str]:
    """The option tables of RULES.md section 9 (the seeds' options, then the club
    disputes): option name -> its ``values`` cell."""
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("## 9. Options and presets"):text.index("| preset | seed")]
    tables = [b for b in section.split("\n\n") if b.startswith("| option |")]
    rows = [r.split("|")[1:3] for table in tables for r in table.splitlines()[2:]]
    return {name.strip(): values.strip() for name, values in rows}


def test_option_table_is_section_9s_in_order_with_its_values():
    spec = _section_9_options()
    assert option_names() == list(spec)
    for name, values in spec.items():
        if values in ("on/off", "off/on"):  # the club disputes list the default first
            assert name in BOOL_OPTIONS and name not in CHOICES
        elif values == "integer":
            assert name not in CHOICES and name not in BOOL_OPTIONS
        else:
            allowed = tuple(v.strip().strip("`") for v in values.split(","))
            assert tuple(str(c) for c in CHOICES[name]) == allowed, name
        assert OPTION_HELP[name] and OPTION_SEEDS[name]
    assert list(SLOTS) == option_names() and sorted(SLOTS.values()) == list(range(len(SLOTS)))


def test_every_seed_text_the_options_and_presets_cite_is_in_the_repository():
    """The seed numbers of ``OPTION_SEEDS`` and ``PRESET_SEEDS`` name texts of
    ``docs/spec/seeds`` (``NNN_*.txt``), and RULES.md cites each of those texts."""
    import re

    texts = {p.name[:3]: p for p in (SPEC / "seeds").glob("*.txt")}
    cited = set(re.findall(r"\b\d{3}\b", " ".join([*OPTION_SEEDS.values(),
                                                   *PRESET_SEEDS.values()])))
    assert cited and cited <= set(texts), sorted(cited - set(texts))
    spec = RULES_MD.read_text(encoding="utf-8")
    for number, path in texts.items():
        assert path.read_text(encoding="utf-8").strip(), path
        assert f"{number} =" in spec or f"seed {number}" in spec, number
