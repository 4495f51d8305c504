"""The exception tree of sanh.

::

    SanhError
    ├─ NotationError(ValueError)       text that does not parse ("Ahh", "p9 xyz")
    ├─ IllegalActionError(ValueError)  forbidden now; carries action, reason, version
    │   └─ NotYourTurnError            a seat acting when it is not its turn
    ├─ ConfigError(ValueError)         an impossible table configuration (seats, stakes, options)
    ├─ ProtocolError                   a malformed or stale wire message (server edge)
    └─ LedgerError                     programmer misuse of the ledger API

Expected ledger refusals (insufficient funds, duplicate ids) are result codes, not exceptions.
"""

from __future__ import annotations

from sanh.texts import describe

__all__ = [
    "ConfigError",
    "IllegalActionError",
    "LedgerError",
    "NotYourTurnError",
    "NotationError",
    "ProtocolError",
    "SanhError",
]


class SanhError(Exception):
    """The root of every error raised by sanh."""


class NotationError(SanhError, ValueError):
    """Text that does not parse: a card, an action or a hand history."""


class IllegalActionError(SanhError, ValueError):
    """A well-formed action that the rules forbid in the current state.

    The state it was tried on is left unchanged. ``reason`` is a text code
    (:mod:`sanh.texts`, ``betting_closed``, ``cannot_check:500``) that clients translate;
    :attr:`words` and ``str()`` give it in English.
    """

    def __init__(self, action: object, reason: str, version: int | None = None) -> None:
        self.action = action
        self.reason = reason
        self.version = version
        where = f" at v{version}" if version is not None else ""
        super().__init__(f"illegal action {action!s}{where}: {self.words}")

    @property
    def words(self) -> str:
        """The reason in English (a reason that is no known code as it is)."""
        return describe(self.reason)


class NotYourTurnError(IllegalActionError):
    """An action by a seat that may not act now."""


class ConfigError(SanhError, ValueError):
    """An impossible table configuration.

    ``text`` is a text code (:mod:`sanh.texts`, ``seats_range:lieng:2:6:9``) when the
    refusal is one the lobby can meet and clients translate; ``str()`` is English either way
    (the code's words when no message is given).
    """

    def __init__(self, message: str = "", *, text: str | None = None) -> None:
        if text is not None and not message:
            message = describe(text)
        self.text = text
        super().__init__(message)


class ProtocolError(SanhError):
    """A malformed, unknown or stale message at the server edge."""


class LedgerError(SanhError):
    """Misuse of the ledger API (expected refusals are result codes instead)."""
