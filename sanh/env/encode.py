"""Fixed-size observation tensors built from one seat's view, and nothing else.

:class:`ObservationEncoder` reads a game's :class:`~sanh.games.base.View` class once and lays
out one block of a ``float32`` vector per view field, by the field's declared type:

========================================  ================================================
view field type                           block
========================================  ================================================
``Card | None``                           52 one-hot (the card, if shown)
``tuple[Card, ...]`` (hand, board, table)  52 multi-hot, and the count of hidden cards / 52
per-seat cards (hole cards, melds, rows)   seats × (52 multi-hot + hidden count / 13)
``Chips``, ``tuple[Chips, ...]``           amount / scale (the largest starting stack)
``int``, ``tuple[int, ...]``               value / 52 (dice: value / 6)
``Seat``, ``Seat | None``                  one-hot over the seats (+ 1 for none)
``tuple[Seat, ...]`` (to_act, passed...)   multi-hot over the seats
``bool``, ``tuple[bool, ...]``             0/1 (per seat)
``str`` (phase, street, table kind...)     one-hot over the game's declared vocabulary + 1
                                           (any other value)
``tuple[str, ...]`` per seat               seats × (vocabulary + 1)
bets by area (``tuple[tuple[str, Chips]``)  one amount / scale per declared area
pots                                       per seat: the chips it is eligible for / scale
========================================  ================================================

Constant or redundant fields (the game id, the version, the legal actions, timers, paytables,
settlement lines, text logs) are left out. After the view's blocks come the viewer's seat
(one-hot) and a bounded history of the last ``history`` public actions: per entry the acting
seat (one-hot), the action id / (action space size - 1), and 1 for a present entry.

:meth:`ObservationEncoder.layout` lists every block (name, kind, offset, size); docs/env.md
prints it per game. The encoder takes the view, never the state: a seat's observation cannot
hold what its view does not show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from sanh.games.base import Game, TableConfig, View

__all__ = ["OBS_BOUND", "VOCABULARIES", "Block", "ObservationEncoder"]

OBS_BOUND = 1000.0
"""Every observation value is clipped to ``[-OBS_BOUND, OBS_BOUND]``."""

_POKER_HANDS = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
_SHEDDING_KINDS = (
    "single",
    "pair",
    "triple",
    "straight",
    "pair_straight",
    "four",
    "double_four",
)
_LIENG_HANDS = (*(f"points_{i}" for i in range(10)), "trips", "straight", "suited_straight")
_TEEN_PATTI_HANDS = ("high_card", "pair", "flush", "straight", "straight_flush", "trail")


def _areas() -> tuple[str, ...]:
    from sanh.games.tai_xiu import AREAS

    return AREAS


def _bets() -> tuple[str, ...]:
    from sanh.games.teen_patti_2020 import BETS

    return BETS


VOCABULARIES: dict[str, dict[str, Callable[[], tuple[str, ...]]]] = {
    "ba-cay-chuong": {
        "phase": lambda: ("bet", "deal", "squeeze", "over"),
        "decisions": lambda: ("banker", "bet", "sitout"),
    },
    "ba-cay-ga": {
        "phase": lambda: ("ready", "start", "deal", "squeeze", "over"),
        "decisions": lambda: ("ready", "sitout"),
    },
    "lieng": {"phase": lambda: ("shuffle", "bet", "show", "over"), "hands": lambda: _LIENG_HANDS},
    "phom": {
        "phase": lambda: ("deal", "draw", "lay", "discard", "over"),
        "outcome": lambda: ("end", "u", "u_k", "u_khan"),
    },
    "poker-aof": {
        "street": lambda: ("deal", "preflop", "flop", "turn", "river", "over"),
        "hands": lambda: _POKER_HANDS,
    },
    "texas-holdem": {
        "street": lambda: ("deal", "preflop", "flop", "turn", "river", "over"),
        "hands": lambda: _POKER_HANDS,
    },
    "sam-loc": {
        "phase": lambda: ("deal", "declare", "play", "over"),
        "table_kind": lambda: _SHEDDING_KINDS,
        "outcome": lambda: ("out", "last_player", "sam_failed", "sam", "instant_win"),
    },
    "tien-len": {
        "table_kind": lambda: _SHEDDING_KINDS,
        "scoring": lambda: ("count", "rank"),
        "outcome": lambda: ("out", "ranked", "instant_win", "last_player", "dut_3_bich"),
    },
    "tai-xiu": {
        "phase": lambda: ("betting", "rolling", "over"),
        "result": lambda: ("tai", "xiu", "triple"),
        "my_confirmed": _areas,
        "my_pending": _areas,
        "totals": _areas,
        "bettors": _areas,
    },
    "teen-patti-2020": {
        "phase": lambda: ("betting", "dealing", "over"),
        "category_a": lambda: _TEEN_PATTI_HANDS,
        "category_b": lambda: _TEEN_PATTI_HANDS,
        "six_card": lambda: _POKER_HANDS,
        "outcome": lambda: ("A", "B", "tie"),
        "my_bets": _bets,
        "table_totals": _bets,
    },
    "three-card-poker": {
        "phase": lambda: ("betting", "dealing", "decision", "over"),
        "decisions": lambda: ("pending", "decided", "play", "fold", "timeout", "no_balance"),
    },
    "xi-to": {
        "phase": lambda: ("shuffle", "bet", "show", "over"),
        "hands": lambda: _POKER_HANDS,
        "rules": lambda: ("auto_follow_2", "hole_5th", "tay_max"),
    },
}
"""The declared string vocabularies per game and view field; other strings are left out."""

_SKIP_NAMES = {"game", "version", "log", "spots", "seats", "stake", "viewer"}
_SKIP_TYPES = {
    "tuple[Action, ...]",
    "tuple[AmountRange, ...]",
    "dict[str, int]",
    "tuple[SettlementLine, ...]",
    "tuple[tuple[int, int], ...]",
    "tuple[tuple[Seat, Seat, int], ...]",
}
_FLAT_CARD_GROUPS = {"u_melds"}
"""Tuples of card tuples that are not per seat."""


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the observation vector."""

    name: str
    kind: str
    offset: int
    size: int


Writer = Callable[[Any, npt.NDArray[np.float32], int], None]


class ObservationEncoder:
    """Encodes one game's views at one table size into a fixed ``float32`` vector."""

    def __init__(
        self,
        game: Game[Any],
        config: TableConfig,
        view_type: type[View],
        *,
        action_size: int,
        history: int = 16,
    ) -> None:
        self.game_id = game.info.id
        self.seats = config.seats
        self.scale = float(max(max(config.stacks, default=0), config.stake, 1))
        self.action_size = action_size
        self.history = history
        vocab = VOCABULARIES.get(self.game_id, {})
        self.vocab: dict[str, tuple[str, ...]] = {k: f() for k, f in vocab.items()}
        self.blocks: list[Block] = []
        self._writers: list[tuple[str, int, Writer]] = []
        offset = 0
        for f in dataclasses.fields(view_type):
            made = self._writer(f.name, str(f.type))
            if made is None:
                continue
            kind, size, writer = made
            self.blocks.append(Block(f.name, kind, offset, size))
            self._writers.append((f.name, offset, writer))
            offset += size
        self.blocks.append(Block("viewer", "seat", offset, self.seats))
        self._viewer_offset = offset
        offset += self.seats
        entry = self.seats + 2
        kind = f"{history} x (seat, id, present)"
        self.blocks.append(Block("history", kind, offset, history * entry))
        self._history_offset = offset
        offset += history * entry
        self.size = offset
        """The length of the observation vector."""

    def layout(self) -> list[Block]:
        """Every block of the vector, in order."""
        return list(self.blocks)

    def encode(
        self, view: View, history: Sequence[tuple[int, int]] = ()
    ) -> npt.NDArray[np.float32]:
        """The observation of ``view`` with the last public actions ``(seat, action id)``."""
        out = np.zeros(self.size, dtype=np.float32)
        for name, offset, writer in self._writers:
            writer(getattr(view, name), out, offset)
        if view.viewer is not None:
            out[self._viewer_offset + view.viewer] = 1.0
        entry = self.seats + 2
        recent = list(history)[-self.history :]
        denominator = max(self.action_size - 1, 1)
        for i, (seat, action_id) in enumerate(recent):
            base = self._history_offset + i * entry
            if 0 <= seat < self.seats:
                out[base + seat] = 1.0
            out[base + self.seats] = action_id / denominator
            out[base + self.seats + 1] = 1.0
        np.clip(out, -OBS_BOUND, OBS_BOUND, out=out)
        return out

    # ----- one writer per field type ------------------------------------------------------
    def _writer(self, name: str, kind: str) -> tuple[str, int, Writer] | None:
        n = self.seats
        scale = self.scale
        if name in _SKIP_NAMES or kind in _SKIP_TYPES:
            return None
        vocab = self.vocab.get(name)
        if kind == "str":
            if vocab is None:
                return None
            return "category", len(vocab) + 1, _category(vocab)
        if kind == "tuple[str, ...]":
            if vocab is None:
                return None
            width = len(vocab) + 1
            one = _category(vocab)

            def per_seat_category(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
                for i, v in enumerate(value[:n]):
                    one(v, out, at + i * width)

            return "category per seat", n * width, per_seat_category
        if kind in {
            "tuple[tuple[str, Chips], ...]",
            "tuple[tuple[str, bool], ...]",
            "tuple[tuple[str, int], ...]",
        }:
            if vocab is None:
                return None
            index = {v: i for i, v in enumerate(vocab)}
            divide = scale if "Chips" in kind else float(n) if "int" in kind else 1.0

            def keyed(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
                for key, amount in value:
                    i = index.get(key)
                    if i is not None:
                        out[at + i] += float(amount) / divide

            label = (
                "amount per area"
                if "Chips" in kind
                else "seats per area / seats"
                if "int" in kind
                else "flag per rule"
            )
            return label, len(vocab), keyed
        simple: Mapping[str, tuple[str, int, Writer]] = {
            "int": ("count / 52", 1, _scalar(52.0)),
            "Chips": ("chips / scale", 1, _scalar(scale)),
            "int | None": ("count / 52, none", 2, _optional(52.0)),
            "Chips | None": ("chips / scale, none", 2, _optional(scale)),
            "bool": ("flag", 1, _scalar(1.0)),
            "bool | None": ("flag, none", 2, _optional(1.0)),
            "Seat": ("seat", n, _seat(n, False)),
            "Seat | None": ("seat or none", n + 1, _seat(n, True)),
            "Card | None": ("card", 52, _cards_block(False)),
            "tuple[Seat, ...]": ("seats", n, _seat_set(n)),
            "tuple[tuple[Seat, ...], ...]": ("seats", n, _seat_set_union(n)),
            "tuple[bool, ...]": ("flag per seat", n, _vector(n, 1.0)),
            "tuple[Chips, ...]": ("chips per seat / scale", n, _vector(n, scale)),
            "tuple[int | None, ...]": ("count per seat / 52, none", 2 * n, _optional_vector(n)),
            "tuple[Card, ...]": ("cards", 53, _cards_block(True)),
            "tuple[Card | None, ...]": ("cards", 53, _cards_block(True)),
            "tuple[tuple[str, Card], ...]": ("cards", 52, _labelled_cards),
            "tuple[tuple[Seat, tuple[Card, ...]], ...]": ("cards", 52, _trick_cards),
            "tuple[tuple[Chips, tuple[Seat, ...]], ...]": (
                "pot chips per eligible seat / scale",
                n,
                _pots(n, scale),
            ),
            "tuple[tuple[Chips, Chips, Chips], ...]": (
                "3 chips per seat / scale",
                3 * n,
                _matrix(n, 3, scale),
            ),
            "tuple[tuple[bool, ...], ...]": ("5 flags per seat", 5 * n, _matrix(n, 5, 1.0)),
        }
        if kind == "tuple[int, ...]":
            if name == "dice":
                return "dice / 6", 3, _vector(3, 6.0)
            return "count per seat / 52", n, _vector(n, 52.0)
        if kind in {"tuple[tuple[Card | None, ...], ...]", "tuple[tuple[Card, ...], ...]"}:
            if name in _FLAT_CARD_GROUPS:
                return "cards", 53, _nested_cards_flat
            return "cards per seat", n * 53, _cards_per_seat(n)
        if kind == "tuple[tuple[tuple[Card, ...], ...], ...]":
            return "cards per seat", n * 53, _melds_per_seat(n)
        if kind in simple:
            return simple[kind]
        raise ValueError(f"{self.game_id}: no encoding for view field {name}: {kind}")


def _category(vocab: Sequence[str]) -> Writer:
    index = {v: i for i, v in enumerate(vocab)}
    other = len(vocab)

    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        if value == "" or value is None:
            return
        out[at + index.get(value, other)] = 1.0

    return write


def _scalar(divide: float) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        out[at] = float(value) / divide

    return write


def _optional(divide: float) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        if value is None:
            out[at + 1] = 1.0
        else:
            out[at] = float(value) / divide

    return write


def _seat(n: int, optional: bool) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        if value is None:
            if optional:
                out[at + n] = 1.0
        elif 0 <= value < n:
            out[at + value] = 1.0

    return write


def _seat_set(n: int) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for seat in value:
            if 0 <= seat < n:
                out[at + seat] = 1.0

    return write


def _seat_set_union(n: int) -> Writer:
    inner = _seat_set(n)

    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for group in value:
            inner(group, out, at)

    return write


def _vector(n: int, divide: float) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for i, v in enumerate(value[:n]):
            out[at + i] = float(v) / divide

    return write


def _optional_vector(n: int) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for i, v in enumerate(value[:n]):
            if v is None:
                out[at + 2 * i + 1] = 1.0
            else:
                out[at + 2 * i] = float(v) / 52.0

    return write


def _matrix(n: int, width: int, divide: float) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for i, row in enumerate(value[:n]):
            for j, v in enumerate(row[:width]):
                out[at + i * width + j] = float(v) / divide

    return write


def _cards_block(with_hidden: bool) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        if not with_hidden:
            if value is not None:
                out[at + int(value)] = 1.0
            return
        hidden = 0
        for card in value:
            if card is None:
                hidden += 1
            else:
                out[at + int(card)] = 1.0
        out[at + 52] = hidden / 52.0

    return write


def _labelled_cards(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
    for _, card in value:
        if card is not None:
            out[at + int(card)] = 1.0


def _trick_cards(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
    for _, cards in value:
        for card in cards:
            out[at + int(card)] = 1.0


def _nested_cards_flat(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
    write = _cards_block(True)
    for group in value:
        write(group, out, at)


def _cards_per_seat(n: int) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for i, cards in enumerate(value[:n]):
            base = at + i * 53
            hidden = 0
            for card in cards:
                if card is None:
                    hidden += 1
                else:
                    out[base + int(card)] = 1.0
            out[base + 52] = hidden / 13.0

    return write


def _melds_per_seat(n: int) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for i, melds in enumerate(value[:n]):
            base = at + i * 53
            for meld in melds:
                for card in meld:
                    out[base + int(card)] = 1.0
            out[base + 52] = len(melds) / 13.0

    return write


def _pots(n: int, divide: float) -> Writer:
    def write(value: Any, out: npt.NDArray[np.float32], at: int) -> None:
        for amount, eligible in value:
            for seat in eligible:
                if 0 <= seat < n:
                    out[at + seat] += float(amount) / divide

    return write
