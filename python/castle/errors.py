"""The exceptions castle raises. All bad input is a ``ValueError`` subclass."""

from __future__ import annotations


class CastleError(Exception):
    """Base of castle's own exceptions."""


class BoardError(CastleError, ValueError):
    """Board text, a card or a layout that is not a valid position.

    ``line`` (1-based) and ``token`` name where, when the fault has a place.
    """

    def __init__(self, message: str, *, line: int | None = None, token: str | None = None):
        self.message = message
        self.line = line
        self.token = token
        where = ""
        if line is not None:
            where = f"line {line}"
            if token is not None:
                where += f", {token!r}"
            where += ": "
        super().__init__(where + message)


class VariantError(CastleError, ValueError):
    """An unknown variant name."""


class LimitError(CastleError, ValueError):
    """A search limit that makes no sense (zero, negative, not a number, absurdly large)."""


class IllegalMoveError(CastleError, ValueError):
    """A move the rules do not allow in the position."""


class SaveError(CastleError, ValueError):
    """A save or statistics file that is not one castle wrote (corrupt, foreign, or edited into
    an illegal game)."""
