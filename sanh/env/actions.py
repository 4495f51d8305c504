"""Fixed integer action spaces over the engines' actions.

Every game gets an :class:`ActionCodec`: an ordered list of *heads*, each owning a contiguous
block of integer ids. A head turns engine actions of one class into ids and back:

* :class:`SimpleHead`: an action without payload (``Fold``, ``Check``, ``Pass``, ``Draw``...):
  one id;
* :class:`ProductHead`: an action whose fields take few values (a card, a seat, a flag, a card
  index): one id per combination of field values (``Discard(card)``: 52 ids);
* :class:`AmountHead`: an amount-carrying action (``RaiseTo``, ``Bet``, ``Place``): for each
  key (the bet area or spot, if the action has one) one id per *bucket*: the minimum, a few
  sizes (fractions of the pot in the pot games, multiples of the minimum in the house games)
  and the maximum (all-in). The exact amount of any legal bet stays reachable through
  :meth:`sanh.env.SanhEnv.step_action` (the exact-amount mode);
* :class:`ComboHead`: a play of the shedding games (``Play(cards)``): its id in the canonical
  combination index :data:`COMBOS` over the 52-card deck (same-rank sets, runs, two quads);
* :class:`OrdinalHead`: Phỏm's ``LayDown``: the *k*-th legal lay-down in the engine's order.

The ids legal now are computed from a seat's view (:meth:`ActionCodec.legal`): a dict id →
engine action. Several engine actions can share an id (two straights with the same ranks and
the same top card but other suits below it); the id then stands for the one whose sorted
cards are lowest, and the exact play stays reachable through the exact mode. Every legal engine
action has an id, and every id of the mask is a legal engine action.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sanh.cards.card import Card
from sanh.games.base import Action, AmountRange, Game, View

__all__ = [
    "COMBOS",
    "COMBO_IDS",
    "ActionCodec",
    "AmountHead",
    "ComboHead",
    "Head",
    "LegalActions",
    "OrdinalHead",
    "ProductHead",
    "SimpleHead",
    "combo_key",
    "make_codec",
]

RANKS = 13
SUITS = 4
_RUN_LENGTHS = {1: range(3, 13), 2: range(3, 7)}
"""Runs: single straights of 3 to 12 ranks, pair straights (đôi thông) of 3 to 6 pairs."""


def _enumerate_combos() -> tuple[tuple[Any, ...], ...]:
    """The canonical combination keys, in index order (computed once, deterministic).

    * ``("set", rank, suits_mask)``: 1 to 4 cards of one rank (13 × 15 = 195 keys);
    * ``("run", multiplicity, length, start, top_suit)``: consecutive ranks, cyclic over the
      13 poker ranks (so A-2-3 is a run starting at the ace), one or two cards of each rank;
      ``top_suit`` is the highest suit held at the run's last rank;
    * ``("quads", low_rank, high_rank)``: two four-of-a-kinds (78 keys).
    """
    keys: list[tuple[Any, ...]] = []
    for rank in range(RANKS):
        for mask in range(1, 16):
            keys.append(("set", rank, mask))
    for multiplicity, lengths in _RUN_LENGTHS.items():
        for length in lengths:
            for start in range(RANKS):
                for top in range(SUITS):
                    keys.append(("run", multiplicity, length, start, top))
    for low, high in itertools.combinations(range(RANKS), 2):
        keys.append(("quads", low, high))
    return tuple(keys)


COMBOS: tuple[tuple[Any, ...], ...] = _enumerate_combos()
"""The canonical combination index: ``COMBOS[i]`` is the key of combination id ``i``."""
COMBO_IDS: dict[tuple[Any, ...], int] = {key: i for i, key in enumerate(COMBOS)}


def combo_key(cards: Sequence[Card]) -> tuple[Any, ...]:
    """The canonical key of a play.

    :raises ValueError: if the cards are no same-rank set, run or pair of quads.
    """
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card // SUITS, []).append(card % SUITS)
    if not cards or len(set(cards)) != len(cards):
        raise ValueError(f"not a combination: {[str(c) for c in cards]}")
    if len(by_rank) == 1:
        ((rank, suits),) = by_rank.items()
        return ("set", rank, sum(1 << s for s in suits))
    counts = {len(s) for s in by_rank.values()}
    if len(by_rank) == 2 and counts == {4}:
        low, high = sorted(by_rank)
        return ("quads", low, high)
    if len(counts) == 1:
        multiplicity = counts.pop()
        length = len(by_rank)
        for start in by_rank:
            window = [(start + i) % RANKS for i in range(length)]
            if set(window) == set(by_rank):
                top = max(by_rank[window[-1]])
                key = ("run", multiplicity, length, start, top)
                if key in COMBO_IDS:
                    return key
    raise ValueError(f"not a combination: {[str(c) for c in cards]}")


class Head:
    """A block of ids for one action class."""

    cls: type[Action]
    size: int
    offset: int = 0

    def label(self, local: int) -> str:
        """A readable name of local id ``local``."""
        raise NotImplementedError


@dataclass(eq=False)
class SimpleHead(Head):
    """One id: an action with no payload."""

    cls: type[Action]
    size: int = 1
    offset: int = 0

    def encode(self, action: Action) -> int:
        """The local id (always 0)."""
        return 0

    def label(self, local: int) -> str:
        """The class name."""
        return self.cls.__name__.lower()


@dataclass(eq=False)
class ProductHead(Head):
    """One id per combination of field values."""

    cls: type[Action]
    fields: tuple[str, ...]
    domains: tuple[tuple[Any, ...], ...]
    size: int = 0
    offset: int = 0

    def __post_init__(self) -> None:
        self.size = 1
        for domain in self.domains:
            self.size *= len(domain)
        self._index = [{v: i for i, v in enumerate(d)} for d in self.domains]

    def encode(self, action: Action) -> int:
        """The local id of the action's field values."""
        local = 0
        for name, index, domain in zip(self.fields, self._index, self.domains, strict=True):
            value = getattr(action, name)
            if value not in index:
                raise ValueError(f"{action}: {name}={value!r} is outside the action space")
            local = local * len(domain) + index[value]
        return local

    def values(self, local: int) -> tuple[Any, ...]:
        """The field values of a local id."""
        out = []
        for domain in reversed(self.domains):
            local, i = divmod(local, len(domain))
            out.append(domain[i])
        return tuple(reversed(out))

    def label(self, local: int) -> str:
        """``discard card=As``."""
        parts = [f"{n}={v}" for n, v in zip(self.fields, self.values(local), strict=True)]
        return f"{self.cls.__name__.lower()} {' '.join(parts)}"


@dataclass(eq=False)
class AmountHead(Head):
    """Buckets of an amount-carrying action, per key (bet area) if there is one.

    Buckets, in order: ``min``, then ``sizes`` (pot fractions when ``pot_based``, else
    multiples of the minimum), then ``max``.
    """

    cls: type[Action]
    key_field: str | None
    keys: tuple[Any, ...]
    sizes: tuple[float, ...]
    pot_based: bool
    size: int = 0
    offset: int = 0

    def __post_init__(self) -> None:
        self.buckets = 2 + len(self.sizes)
        self.size = self.buckets * len(self.keys)
        self._key_index = {k: i for i, k in enumerate(self.keys)}

    def key_of(self, action: Action) -> Any:
        """The action's key (``None`` without a key field)."""
        return getattr(action, self.key_field) if self.key_field else None

    def key_index(self, key: Any) -> int:
        """Where ``key`` is among the keys.

        :raises ValueError: on an unknown key.
        """
        try:
            return self._key_index[key]
        except KeyError:
            raise ValueError(f"{self.cls.__name__}: unknown {self.key_field} {key!r}") from None

    def amounts(self, ranges: Sequence[AmountRange], pot: int) -> list[int]:
        """The amount of each bucket (in bucket order), snapped to the legal amounts."""
        low = min(r.min for r in ranges)
        high = max(r.max for r in ranges)
        targets = [low]
        for size in self.sizes:
            targets.append(low + round(size * pot) if self.pot_based else round(low * size))
        targets.append(high)
        return [_snap(ranges, t) for t in targets]

    def label(self, local: int) -> str:
        """``raiseto pot*0.5`` or ``place bet=big max``."""
        key, bucket = divmod(local, self.buckets)
        if bucket == 0:
            name = "min"
        elif bucket == self.buckets - 1:
            name = "max"
        else:
            size = self.sizes[bucket - 1]
            name = f"pot*{size:g}" if self.pot_based else f"min*{size:g}"
        prefix = self.cls.__name__.lower()
        if self.key_field:
            prefix += f" {self.key_field}={self.keys[key]}"
        return f"{prefix} {name}"


def _snap(ranges: Sequence[AmountRange], target: int) -> int:
    """The legal amount nearest ``target`` (ties: the smaller)."""
    best: int | None = None
    for r in ranges:
        if target <= r.min:
            candidate = r.min
        elif target >= r.max:
            candidate = r.max
        else:
            candidate = r.min + (target - r.min) // r.step * r.step
        if best is None or abs(candidate - target) < abs(best - target):
            best = candidate
        elif abs(candidate - target) == abs(best - target):
            best = min(best, candidate)
    assert best is not None
    return best


@dataclass(eq=False)
class ComboHead(Head):
    """A shedding play: its id in :data:`COMBOS`."""

    cls: type[Action]
    size: int = len(COMBOS)
    offset: int = 0

    def encode(self, action: Action) -> int:
        """The combination id of the played cards."""
        return COMBO_IDS[combo_key(action.cards)]  # type: ignore[attr-defined]

    def label(self, local: int) -> str:
        """``play set rank=1 suits=0b11``."""
        key = COMBOS[local]
        if key[0] == "set":
            return f"play set rank={key[1]} suits={key[2]:04b}"
        if key[0] == "run":
            return f"play run x{key[1]} length={key[2]} start={key[3]} top_suit={key[4]}"
        return f"play quads {key[1]},{key[2]}"


@dataclass(eq=False)
class OrdinalHead(Head):
    """The k-th legal action of the class, in the engine's order."""

    cls: type[Action]
    size: int = 16
    offset: int = 0

    def label(self, local: int) -> str:
        """``laydown #2``."""
        return f"{self.cls.__name__.lower()} #{local}"


_CARDS = tuple(Card(i) for i in range(52))
_BOOLS = (False, True)


def pot_of(view: View) -> int:
    """The chips in the middle as the view shows them (0 in the house games)."""
    for name in ("contributed", "committed"):
        value = getattr(view, name, None)
        if isinstance(value, tuple):
            return sum(v for v in value if isinstance(v, int))
    pot = getattr(view, "pot", 0)
    return pot if isinstance(pot, int) else 0


class ActionCodec:
    """The action space of one game at one table size."""

    def __init__(self, game_id: str, heads: Sequence[Head]) -> None:
        self.game_id = game_id
        self.heads: list[Head] = []
        offset = 0
        for head in heads:
            head.offset = offset
            offset += head.size
            self.heads.append(head)
        self.size = offset
        """How many ids: the size of the ``Discrete`` action space."""
        self._by_class: dict[type[Action], Head] = {h.cls: h for h in self.heads}

    def head_of(self, action_id: int) -> Head:
        """The head owning ``action_id``."""
        for head in self.heads:
            if head.offset <= action_id < head.offset + head.size:
                return head
        raise ValueError(f"action id {action_id} out of range 0..{self.size - 1}")

    def label(self, action_id: int) -> str:
        """A readable name of an id (``fold``, ``discard card=As``, ``raiseto pot*0.5``)."""
        head = self.head_of(action_id)
        return head.label(action_id - head.offset)

    def encode(self, action: Action, ranges: Sequence[AmountRange] = (), pot: int = 0) -> int:
        """The id of an engine action (an amount action: its bucket nearest the amount).

        :raises ValueError: if the game's action space has no id for it.
        """
        head = self._by_class.get(type(action))
        if head is None:
            raise ValueError(f"{self.game_id}: no action id for {action}")
        if isinstance(head, SimpleHead | ProductHead | ComboHead):
            return head.offset + head.encode(action)
        if isinstance(head, AmountHead):
            key = head.key_index(head.key_of(action))
            amount = getattr(action, "amount", 0)
            mine = [r for r in ranges if head.key_of(r.template) == head.key_of(action)]
            if mine:
                amounts = head.amounts(mine, pot)
                bucket = min(range(len(amounts)), key=lambda i: abs(amounts[i] - amount))
            else:
                bucket = 0
            return head.offset + key * head.buckets + bucket
        return head.offset  # ordinal: the first slot

    def legal(self, view: View) -> LegalActions:
        """Every legal id of the view's seat, with the engine action it stands for.

        :raises ValueError: if a legal engine action has no id (a gap in the action space).
        """
        out: dict[int, Action] = {}
        ranges_by_key: dict[tuple[Head, Any], list[AmountRange]] = {}
        for r in view.amount_ranges:
            head = self._by_class.get(type(r.template))
            if not isinstance(head, AmountHead):
                raise ValueError(f"{self.game_id}: no amount ids for {r.template}")
            ranges_by_key.setdefault((head, head.key_of(r.template)), []).append(r)
        fixed: dict[tuple[Head, Any], list[Action]] = {}
        ordinals: dict[Head, int] = {}
        for action in view.legal_actions:
            head = self._by_class.get(type(action))
            if head is None:
                raise ValueError(f"{self.game_id}: no action id for legal action {action}")
            if isinstance(head, AmountHead):
                key = (head, head.key_of(action))
                if key not in ranges_by_key:
                    fixed.setdefault(key, []).append(action)
                continue
            if isinstance(head, OrdinalHead):
                k = ordinals.get(head, 0)
                if k >= head.size:
                    raise ValueError(f"{self.game_id}: more than {head.size} legal {head.cls}")
                ordinals[head] = k + 1
                out[head.offset + k] = action
                continue
            assert isinstance(head, SimpleHead | ProductHead | ComboHead)
            action_id = head.offset + head.encode(action)
            other = out.get(action_id)
            if other is None or _card_order(action) < _card_order(other):
                out[action_id] = action
        pot = pot_of(view)
        groups: dict[int, _AmountGroup] = {}
        for (head, key), ranges in ranges_by_key.items():
            assert isinstance(head, AmountHead)
            base = head.offset + head.key_index(key) * head.buckets
            group = _AmountGroup(head, ranges, pot, base)
            for bucket in range(head.buckets):
                groups[base + bucket] = group
        for (head, key), actions in fixed.items():
            assert isinstance(head, AmountHead)
            base = head.offset + head.key_index(key) * head.buckets
            by_amount = sorted(actions, key=lambda a: getattr(a, "amount", 0))
            out[base] = by_amount[0]
            out[base + head.buckets - 1] = by_amount[-1]
        return LegalActions(out, groups)


class _AmountGroup:
    """The buckets of one amount key, their amounts computed when first needed."""

    def __init__(self, head: AmountHead, ranges: list[AmountRange], pot: int, base: int) -> None:
        self.head, self.ranges, self.pot, self.base = head, ranges, pot, base
        self._actions: list[Action] | None = None

    def action(self, action_id: int) -> Action:
        if self._actions is None:
            template = self.ranges[0].template
            self._actions = [
                dataclasses.replace(template, amount=amount)  # type: ignore[call-arg]
                for amount in self.head.amounts(self.ranges, self.pot)
            ]
        return self._actions[action_id - self.base]


class LegalActions(Mapping[int, Action]):
    """Legal id → engine action, in id order. The amount actions are built on first access
    (a mask needs only the ids: Tài Xỉu has 250 amount ids)."""

    def __init__(self, ready: dict[int, Action], groups: dict[int, _AmountGroup]) -> None:
        self._ready = ready
        self._groups = groups
        self._ids = sorted({*ready, *groups})

    def __getitem__(self, action_id: int) -> Action:
        action = self._ready.get(action_id)
        if action is not None:
            return action
        group = self._groups.get(action_id)
        if group is None:
            raise KeyError(action_id)
        return group.action(action_id)

    def __contains__(self, action_id: object) -> bool:
        return action_id in self._ready or action_id in self._groups

    def __iter__(self) -> Iterator[int]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def _card_order(action: Action) -> tuple[int, ...]:
    cards = getattr(action, "cards", ())
    return tuple(sorted(int(c) for c in cards))


# ----- the games' action spaces ------------------------------------------------------------
_TABLE_ONLY = {"CloseBetting", "TimeUp", "CloseDeclarations", "ForceFold", "SitIn", "Leave"}
"""Classes no seat takes in the env: the table's clock actions, seating and leaving."""

DEFAULT_POT_SIZES: tuple[float, ...] = (0.5, 1.0, 2.0)
DEFAULT_MIN_MULTIPLES: tuple[float, ...] = (2.0, 5.0, 10.0)


def _amount_keys(game_id: str) -> tuple[str | None, tuple[Any, ...]]:
    if game_id == "tai-xiu":
        from sanh.games.tai_xiu import AREAS

        return "bet", AREAS
    if game_id == "teen-patti-2020":
        from sanh.games.teen_patti_2020 import BETS

        return "bet", BETS
    if game_id == "three-card-poker":
        from sanh.games.three_card_poker import BET_SPOTS

        return "bet", BET_SPOTS
    return None, (None,)


_POT_GAMES = {"texas-holdem", "poker-aof", "lieng", "xi-to"}


def make_codec(
    game: Game[Any], seats: int, bet_sizes: Sequence[float] | None = None
) -> ActionCodec:
    """The action space of ``game`` at a table of ``seats``.

    ``bet_sizes`` are the amount buckets between the minimum and the maximum: pot fractions in
    the pot games (Hold'em, Liêng, Xì tố; default 0.5, 1, 2), multiples of the minimum bet in
    the others (default 2, 5, 10).
    """
    game_id = game.info.id
    pot_based = game_id in _POT_GAMES
    sizes = tuple(
        bet_sizes
        if bet_sizes is not None
        else (DEFAULT_POT_SIZES if pot_based else DEFAULT_MIN_MULTIPLES)
    )
    classes = [c for c in game.info.action_types if c.__name__ not in _TABLE_ONLY]
    # Shedding games: id 0 is the pass.
    classes.sort(key=lambda c: 0 if c.__name__ == "Pass" else 1)
    heads: list[Head] = []
    domains: Mapping[str, tuple[Any, ...]] = {
        "card": _CARDS,
        "target": tuple(range(seats)),
        "meld": tuple(range(4)),
        "index": tuple(range(3)),
    }
    for cls in classes:
        names = [f.name for f in dataclasses.fields(cls)][1:]
        if not names:
            heads.append(SimpleHead(cls))
        elif "amount" in names:
            key_field, keys = _amount_keys(game_id)
            heads.append(AmountHead(cls, key_field, keys, sizes, pot_based))
        elif names == ["cards"]:
            heads.append(ComboHead(cls))
        elif cls.__name__ == "LayDown":
            heads.append(OrdinalHead(cls))
        else:
            field_types = {f.name: f.type for f in dataclasses.fields(cls)}
            doms = tuple(_BOOLS if field_types[n] == "bool" else tuple(domains[n]) for n in names)
            heads.append(ProductHead(cls, tuple(names), doms))
    return ActionCodec(game_id, heads)
