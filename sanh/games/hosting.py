"""What the hall needs to know to host a game, declared by the game itself.

The server never names a game: everything it does differently from one game to another comes
from the game's declarations. The facts that do not depend on a table are data, the
:class:`Hosting` in :attr:`GameInfo.hosting <sanh.games.base.GameInfo.hosting>`:

* the stake kind (:attr:`Hosting.table_stake`: a Tẩy game, whose players bring a table stake
  through the buy-in panel, RULES.md §2.3) and the option that sets the panel's timer;
* the clock of each phase (:class:`PhaseClock`: which option sets a window's length, or its
  length in seconds and in quick mode; any other phase has the turn timer, RULES.md §2.5);
* the seat model: a house game (:attr:`GameInfo.banked <sanh.games.base.GameInfo.banked>`),
  one whose bank a player may hold instead (:class:`PlayerBank`), and the house table the hall
  opens for it at start (:class:`HouseTable`).

The facts that depend on a table's bet level and options are methods of
:class:`~sanh.games.base.Game` with defaults that games override: ``buyin_limits`` and
``topup_below`` (Tẩy games), ``min_balance_multiple`` (the balance needed to sit, RULES.md
§2.6, from the ``platform.min_balance_multiple`` option when the game declares it),
``player_banked`` and ``bank_minimum`` (a player's bank), ``check_house_options`` (what a host
may not choose at a table the house banks) and ``phase`` (which phase the hand is in, for its
clock). Disconnection and leaving are the game's ``default_action`` with its reason.

docs/ARCHITECTURE.md ("Adding a game") walks through a game declared this way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sanh.types import Chips

__all__ = ["Hosting", "HouseTable", "PhaseClock", "PlayerBank"]


@dataclass(frozen=True, slots=True)
class PhaseClock:
    """The length of a phase's window (a phase in which the table itself has an action, such
    as closing the bets on its clock), RULES.md §2.5.

    With ``option`` the window lasts that timer option's value (seconds); otherwise
    ``seconds`` (``quick_seconds`` in quick mode, when given).
    """

    phase: str | None
    """The phase, as :meth:`Game.phase <sanh.games.base.Game.phase>` names it."""
    option: str | None = None
    """The timer option (``..._s``) that sets the window's length."""
    seconds: float | None = None
    quick_seconds: float | None = None

    def length(self, options: Mapping[str, object], quick: bool) -> float | None:
        """The window's length in seconds with these option values (every option, defaults
        filled in), or ``None``: the turn timer.

        >>> PhaseClock("squeeze", seconds=15, quick_seconds=7).length({}, quick=True)
        7.0
        >>> PhaseClock("betting", option="x.betting_s").length({"x.betting_s": 20}, quick=True)
        20.0
        """
        if self.option is not None:
            value = options.get(self.option)
            return float(value) if isinstance(value, int | float) else None
        if quick and self.quick_seconds is not None:
            return float(self.quick_seconds)
        return None if self.seconds is None else float(self.seconds)


@dataclass(frozen=True, slots=True)
class PlayerBank:
    """A house game whose bank a seated player may hold instead of the house (RULES.md §5.7):
    an option chooses which, and the player's bank is chosen with a ``host`` message."""

    option: str
    """The option that chooses who banks the table."""
    value: str
    """Its value for a table a player banks."""
    house_value: str
    """Its value for a table the house banks."""
    house_only: str
    """The text code refusing a house-banked table to a player who may not create one (the
    hall creates the house's own tables, :class:`HouseTable`)."""


@dataclass(frozen=True, slots=True)
class HouseTable:
    """The table the hall opens at start for a house game (``<game id>-system``)."""

    stake: Chips
    """Its bet level L."""
    seats: int
    bots: int = 0
    """Bots betting there, so a newcomer finds a live board."""


@dataclass(frozen=True, slots=True)
class Hosting:
    """A game's hosting facts that do not depend on the table (see the module docstring)."""

    table_stake: bool = False
    """A Tẩy game: each player brings a table stake through the buy-in panel, in the range of
    :meth:`Game.buyin_limits <sanh.games.base.Game.buyin_limits>`, topped up between hands
    below :meth:`Game.topup_below <sanh.games.base.Game.topup_below>`. Otherwise a hand is
    played from the wallet."""
    buyin_timer_option: str | None = None
    """The option giving the buy-in panel's timer, seconds (else the hall's ``buyin_timer``)."""
    clocks: tuple[PhaseClock, ...] = ()
    """The phases whose windows have their own clock; every other phase has the turn timer."""
    player_bank: PlayerBank | None = None
    house_table: HouseTable | None = None
    enabled_by: str | None = None
    """The hall setting (a boolean of ``sanh.server.settings.Settings``) that switches the game
    on and off; ``None``: the hall always offers it."""

    def clock(self, phase: str | None) -> PhaseClock | None:
        """The clock declared for ``phase``, if any."""
        for clock in self.clocks:
            if clock.phase == phase:
                return clock
        return None
