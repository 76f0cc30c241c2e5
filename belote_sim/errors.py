"""Errors raised for bad user input. The CLI turns each into one line and exit status 2."""

from __future__ import annotations


class BeloteError(ValueError):
    """Base class of every user-facing error of belote_sim."""


class CardParseError(BeloteError):
    """A malformed or duplicate card in text notation."""


class RulesError(BeloteError):
    """An unknown preset or option, or a bad option value."""


class RulesConflictError(RulesError):
    """Options that together have no deal procedure (RULES.md section 9)."""


class DealLogError(BeloteError):
    """A deal log that cannot be read (missing field, bad type, bad card)."""


class IllegalPlayError(BeloteError):
    """An illegal call or card in a replayed deal: names deal, step, seat, item and rule."""
