"""The ports the hall server needs from the wallet: players and money.

The server never touches balances itself: every chip moves through :class:`Bank`, which the
ledger implements (:mod:`sanh.server.ledger_bank`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sanh.games.base import Settlement

__all__ = ["Bank", "DailyRefused", "HandOpen", "PlayerInfo", "Players"]


class DailyRefused(Exception):
    """A daily-gold claim refused, with its text code (``daily_claimed``,
    ``daily_not_eligible:<gold>``); nothing was changed."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A signed-in player."""

    id: str
    name: str
    language: str = "vi"
    guest: bool = False
    bot: bool = False


class Players(Protocol):
    """Authentication of WebSocket connections."""

    def by_token(self, token: str) -> PlayerInfo | None:
        """The player of a session token, or None."""
        ...


@dataclass(frozen=True, slots=True)
class HandOpen:
    """The outcome of opening a hand: the players whose commitment was held."""

    held: dict[str, int]
    refused: tuple[str, ...]


class Bank(Protocol):
    """Money for tables. Every method is atomic: all of it happens or none of it."""

    def balance(self, player: str) -> int:
        """The player's available balance (minor units)."""
        ...

    def buy_in(self, table: str, player: str, amount: int) -> bool:
        """Move ``amount`` from the player's account to their stake at the table."""
        ...

    def cash_out(self, table: str, player: str) -> int:
        """Return the player's whole table stake to their account; the amount returned."""
        ...

    def table_stake(self, table: str, player: str) -> int:
        """The player's stake at the table (Tẩy games)."""
        ...

    def open_hand(
        self, table: str, hand: int, caps: dict[str, int], event: dict[str, Any]
    ) -> HandOpen:
        """Hold each player's commitment cap for the hand and log the hand's first event."""
        ...

    def join_hand(
        self, table: str, hand: int, seq: int, player: str, cap: int, event: dict[str, Any]
    ) -> bool:
        """Seat a player in a hand under way (a house game's SitIn): hold ``cap`` (0: nothing,
        the bets are held as they come) and log ``event`` at ``seq``, in one transaction;
        False (nothing done) if the hold is refused."""
        ...

    def hold_bet(self, table: str, hand: int, player: str, amount: int) -> bool:
        """Hold ``amount`` more of a player's gold for a hand under way (a house game's bet,
        RULES.md §2.6); False, with nothing held, when the wallet cannot cover it."""
        ...

    def out_hand(self, table: str, hand: int, player: str, loss: int) -> int:
        """A player is out of a hand under way for good, losing ``loss``: post that much of
        their holds into the table's escrow and release the rest at once (with the events
        logged so far, in one transaction). Returns what was posted, which the settlement
        counts as paid (and a void pays back)."""
        ...

    def held_in_hand(self, table: str, hand: int) -> dict[str, int]:
        """Per player, the gold held for a hand under way (rebuilt from the ledger)."""
        ...

    def clan_members(self, players: list[str]) -> set[str]:
        """Which of these players belong to a clan (Tài Xỉu clan shares and XP)."""
        ...

    def log_events(self, rows: list[tuple[str, int, int, dict[str, Any]]]) -> None:
        """Append accepted commands and chance outcomes ``(table, hand, seq, event)`` to the
        tables' event logs.

        They may be committed later, together with other tables' events: they are durable once
        a :meth:`sync` awaited after this returns, and nobody may be told of them before. A
        later hand settlement or void commits them first, in its own transaction.
        """
        ...

    async def sync(self) -> None:
        """Wait until every event logged so far is durable."""
        ...

    def settle_hand(
        self,
        table: str,
        hand: int,
        players: list[str | None],
        settlement: Settlement,
        *,
        staked: bool,
        game: str,
        event: dict[str, Any],
    ) -> None:
        """Release the holds and post the settlement as one linked batch, with its event."""
        ...

    def keep_chat(self, table: str, hand: int, lines: list[dict[str, Any]]) -> None:
        """Keep the chat lines said during a settled hand, for its seats' recall."""
        ...

    def void_hand(self, table: str, hand: int, reason: str) -> None:
        """Release every hold of the hand (a refund) and log why."""
        ...

    def save_table(self, table: str, spec: dict[str, Any]) -> None:
        """Record a table so that a restart rebuilds it."""
        ...

    def saved_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every open table recorded."""
        ...

    def last_hand(self, table: str) -> int:
        """The highest hand number logged at the table."""
        ...

    def unfinished_hand(self, table: str) -> tuple[int, list[dict[str, Any]]] | None:
        """The last hand if it was opened but not settled or voided, with its events."""
        ...

    def last_settled_hand(self, table: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The config and events of the table's last settled hand (to rebuild its carry)."""
        ...

    def recent_records(self, table: str, limit: int) -> list[dict[str, Any]]:
        """The public records (``Game.public_record``) of the table's last ``limit`` settled
        hands that have one, oldest first, each with its ``hand``."""
        ...

    def last_settled_players(self, table: str) -> list[str | None] | None:
        """Engine seat -> player id of the table's last settled hand (its carry's lineup)."""
        ...

    def stakes_at(self, table: str) -> list[str]:
        """Players with a stake at the table."""
        ...

    def last_lineup(self, table: str) -> list[tuple[int, str]]:
        """(table seat, player id) of everyone dealt into the table's last hand (its opening
        event, and the players who sat in during it): the seats a table rebuilt between hands
        keeps for its players to come back to."""
        ...

    def player_info(self, player_id: str) -> PlayerInfo:
        """A player or bot by id."""
        ...

    def levels(self, players: list[str]) -> dict[str, int]:
        """Each player's level from their XP (sanh/ledger/levels.py)."""
        ...

    def bot_player(self, label: str) -> PlayerInfo:
        """A bot player with a funded wallet (the same one for the same label)."""
        ...
