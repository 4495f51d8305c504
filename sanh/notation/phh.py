"""PHH, the Poker Hand History format of the pokerkit project, for Texas Hold'em.

PHH (https://github.com/uoftcprg/phh-std) is TOML: one hand per ``.phh`` file, or many hands as
TOML tables (``[1]``, ``[2]``...) in a ``.phhs`` file. Reading and writing it lets hands move
between sanh and the poker research tools and public hand-history datasets.

What sanh reads (variant ``'NT'``, no-limit Texas Hold'em, 2 to 9 players):

* ``antes`` (all equal, or a single big-blind ante), ``blinds_or_straddles`` (small and big
  blind; straddles are refused), ``min_bet``, ``starting_stacks``, ``actions`` (``d dh``,
  ``d db``, ``f``, ``cc``, ``cbr``, ``sm``), ``ante_trimming_status = false``;
* **decimal amounts, exactly**: a hand whose amounts have at most ``k`` decimals is read in
  minor units of ``10 ** -k`` file units (``200.30`` is 20,030 units when ``k = 2``); results
  are given back in the file's units;
* **unknown cards** ``????`` (or ``??`` per card): hole cards the recorder did not see. Cards
  shown later (``pN sm AsKd``) become known. A hand still unknown at showdown is scored from the
  board alone, as pokerkit does; ``pN sm`` with no cards is a muck (the seat gives up its claim).

How a PHH hand becomes a sanh hand: player ``pK`` sits at seat ``K - 1``, the button is the last
player (``pN``; heads-up ``p2``, who posts the small blind, as in pokerkit), and the rules are
standard no-limit (``holdem.min_raise = standard``, ``holdem.max_raise = stack``; RULES.md
§4.5: a PHH replay always uses standard no-limit). The deck order is rebuilt from the known
cards; positions whose card is unknown get unused cards, which are never shown and never scored.

Writing (:func:`format_phh`) produces a hand pokerkit 0.7.7 loads and replays to the same stacks
when the hand was played under standard rules; ``viewer`` writes ``????`` for the hole cards
that seat could not see. ``seats`` and ``seat_count`` record sanh's own seat numbers.

>>> hands = parse_phh('''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [0.50, 1, 0]
... min_bet = 1
... starting_stacks = [200.30, 81.60, 197]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
... ''')
>>> replay = replay_phh(hands[0])
>>> [str(amount) for amount in replay.final_stacks_in_file_units()]
['201.30', '80.60', '197.00']
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sanh.cards.card import Card, parse_card
from sanh.cards.deck import DECK_52
from sanh.errors import IllegalActionError, NotationError
from sanh.games.base import Action, Event, Shuffle, TableConfig
from sanh.games.texas_holdem import (
    AllIn,
    AllInOrFold,
    Call,
    Check,
    Fold,
    HoldemState,
    Leave,
    RaiseTo,
    TexasHoldem,
)
from sanh.types import Chips, Seat

__all__ = [
    "PhhHand",
    "PhhReplay",
    "format_phh",
    "format_phhs",
    "parse_phh",
    "read_phh_hand",
    "replay_phh",
]

_HOLDEM = TexasHoldem()
_AOF = AllInOrFold()


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One player action of a PHH hand: ``kind`` is ``f``, ``cc`` or ``cbr``."""

    text: str
    kind: str
    seat: Seat
    amount: Chips = 0


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One PHH hand read into sanh terms (amounts in minor units)."""

    key: str | None
    """The hand's table name in a ``.phhs`` file (``"1"``), ``None`` for a ``.phh``."""
    fields: dict[str, Any]
    """Every field as read (amounts as :class:`~decimal.Decimal` or int)."""
    decimals: int
    """Minor units per file unit: ``10 ** decimals``."""
    config: TableConfig
    """The sanh table: seat ``K - 1`` is ``pK``, the button is the last seat."""
    shuffle: Shuffle
    """The deck order rebuilt from the known cards."""
    actions: tuple[PhhAction, ...]


@dataclass(frozen=True, slots=True)
class PhhReplay:
    """A replayed PHH hand."""

    hand: PhhHand
    state: HoldemState
    final_stacks: tuple[Chips, ...]
    """Per player (``p1`` first), in minor units."""
    complete: bool
    """Whether the actions reach the end of the hand."""
    events: tuple[Event, ...] = field(default=())

    def final_stacks_in_file_units(self) -> list[Decimal | int]:
        """The final stacks in the file's own units (ints when it has no decimals)."""
        return [to_file_units(units, self.hand.decimals) for units in self.final_stacks]


def to_file_units(units: Chips, decimals: int) -> Decimal | int:
    """Minor units back to the file's units.

    >>> to_file_units(20030, 2), to_file_units(7, 0)
    (Decimal('200.30'), 7)
    """
    if decimals == 0:
        return units
    return Decimal(units).scaleb(-decimals)


# ----- reading ---------------------------------------------------------------------------
def parse_phh(text: str) -> list[PhhHand]:
    """Every hand of a ``.phh`` (one hand) or ``.phhs`` (tables of hands) text.

    :raises NotationError: if the text is not PHH or a hand cannot be read.
    """
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise NotationError(f"not a PHH (TOML) text: {error}") from None
    if "variant" in data:
        return [read_phh_hand(data, None)]
    hands = [
        read_phh_hand(value, str(key))
        for key, value in data.items()
        if isinstance(value, dict) and "variant" in value
    ]
    if not hands:
        raise NotationError("no PHH hand found (no table with a 'variant' field)")
    return hands


def _amount(value: Any, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise NotationError(f"{what}: not an amount: {value!r}")
    try:
        amount = Decimal(value)
    except ArithmeticError:
        raise NotationError(f"{what}: not an amount: {value!r}") from None
    if not amount.is_finite() or amount < 0:
        raise NotationError(f"{what}: not a non-negative amount: {value!r}")
    return amount


def _amounts(value: Any, count: int, what: str) -> list[Decimal]:
    if isinstance(value, list):
        amounts = [_amount(v, what) for v in value]
        if len(amounts) > count:
            raise NotationError(f"{what}: {len(amounts)} values for {count} players")
        return amounts + [Decimal(0)] * (count - len(amounts))
    return [_amount(value, what)] * count


def _decimals(amount: Decimal) -> int:
    exponent = amount.as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _cards(text: str, what: str) -> list[Card | None]:
    if len(text) % 2:
        raise NotationError(f"{what}: bad cards {text!r}")
    out: list[Card | None] = []
    for index in range(0, len(text), 2):
        token = text[index : index + 2]
        if token == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(token))
        except ValueError:
            raise NotationError(f"{what}: bad card {token!r}") from None
    return out


def _player(token: str, count: int, what: str) -> Seat:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= count):
        raise NotationError(f"{what}: {token!r} is not a player p1..p{count}")
    return int(token[1:]) - 1


def read_phh_hand(fields: dict[str, Any], key: str | None) -> PhhHand:
    """Read one hand's fields (as TOML gives them) into sanh terms.

    :raises NotationError: on anything sanh cannot represent exactly.
    """
    where = f"hand [{key}]" if key is not None else "hand"
    variant = fields.get("variant")
    if variant != "NT":
        raise NotationError(f"{where}: variant {variant!r} is not supported (only 'NT')")
    stacks_raw = fields.get("starting_stacks")
    if not isinstance(stacks_raw, list):
        raise NotationError(f"{where}: starting_stacks must be a list")
    count = len(stacks_raw)
    if not 2 <= count <= 9:
        raise NotationError(f"{where}: {count} players; Texas Hold'em seats 2 to 9")
    stacks = _amounts(stacks_raw, count, f"{where} starting_stacks")
    antes = _amounts(fields.get("antes", 0), count, f"{where} antes")
    blinds = _amounts(fields.get("blinds_or_straddles", 0), count, f"{where} blinds")
    min_bet = _amount(fields.get("min_bet", blinds[1]), f"{where} min_bet")
    if fields.get("ante_trimming_status", False) and any(antes):
        raise NotationError(f"{where}: ante_trimming_status = true is not supported")
    raw_actions = fields.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(a, str) for a in raw_actions):
        raise NotationError(f"{where}: actions must be a list of strings")

    # Tokenise the actions; collect every amount to find the file's decimals.
    words_list: list[tuple[str, list[str]]] = []
    amounts = [*stacks, *antes, *blinds, min_bet]
    for text in raw_actions:
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        words_list.append((text, words))
        if len(words) == 3 and words[1] == "cbr":
            amounts.append(_amount(words[2], f"{where} {text!r}"))
    decimals = max(_decimals(amount) for amount in amounts)
    scale = 10**decimals

    def units(amount: Decimal) -> Chips:
        return int(amount * scale)

    if any(units(stack) <= 0 for stack in stacks):
        raise NotationError(f"{where}: every starting stack must be positive")
    small_blind, big_blind = units(blinds[0]), units(blinds[1])
    if small_blind <= 0 or big_blind <= 0 or any(blinds[2:]):
        raise NotationError(f"{where}: only a small and a big blind are supported")
    ante_units = [units(ante) for ante in antes]
    options: dict[str, Any] = {
        "holdem.min_raise": "standard",
        "holdem.max_raise": "stack",
        "holdem.big_blind": big_blind,
        "holdem.min_bet": units(min_bet),
    }
    if any(ante_units):
        if len(set(ante_units)) == 1:
            options["holdem.ante"] = ante_units[0]
        elif ante_units[1] and not any(ante_units[:1] + ante_units[2:]):
            options["holdem.ante"] = ante_units[1]
            options["holdem.big_blind_ante"] = True
        else:
            raise NotationError(f"{where}: antes must be equal, or a big-blind ante")

    hole: list[list[Card | None]] = [[None, None] for _ in range(count)]
    board: list[Card | None] = []
    mucked: set[Seat] = set()
    actions: list[PhhAction] = []
    for text, words in words_list:
        what = f"{where} {text!r}"
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                seat = _player(words[2], count, what)
                cards = _cards(words[3], what)
                if len(cards) != 2:
                    raise NotationError(f"{what}: Hold'em deals two hole cards")
                hole[seat] = _merge(hole[seat], cards, what)
            elif len(words) == 3 and words[1] == "db":
                board.extend(_cards(words[2], what))
            else:
                raise NotationError(f"{what}: not a dealing action")
            continue
        seat = _player(words[0], count, what)
        match words[1:]:
            case ["f"]:
                actions.append(PhhAction(text, "f", seat))
            case ["cc"]:
                actions.append(PhhAction(text, "cc", seat))
            case ["cbr", amount]:
                actions.append(PhhAction(text, "cbr", seat, units(Decimal(amount))))
            case ["sm"]:
                mucked.add(seat)
            case ["sm", "-"]:
                pass
            case ["sm", cards_text]:
                cards = _cards(cards_text, what)
                if len(cards) != 2:
                    raise NotationError(f"{what}: a Hold'em hand has two cards")
                hole[seat] = _merge(hole[seat], cards, what)
            case _:
                raise NotationError(f"{what}: not a no-limit Hold'em action")
    if len(board) > 5:
        raise NotationError(f"{where}: {len(board)} board cards")
    unknown = {seat for seat in range(count) if None in hole[seat]}
    if unknown:
        options["holdem.unknown_cards"] = ",".join(str(seat + 1) for seat in sorted(unknown))
    if mucked:
        options["holdem.mucked"] = ",".join(str(seat + 1) for seat in sorted(mucked))
    config = TableConfig.make(
        seats=count,
        stake=small_blind,
        stacks=[units(stack) for stack in stacks],
        options=options,
        host=count - 1,
    )
    shuffle = Shuffle(_deck(hole, board, where))
    return PhhHand(key, fields, decimals, config, shuffle, tuple(actions))


def _merge(known: list[Card | None], cards: list[Card | None], what: str) -> list[Card | None]:
    out = list(known)
    for index, card in enumerate(cards):
        if card is None:
            continue
        if out[index] is not None and out[index] != card:
            # Shown cards may come in another order than dealt: compare as sets.
            if sorted(c for c in cards if c is not None) == sorted(
                c for c in known if c is not None
            ):
                return list(known)
            raise NotationError(f"{what}: shows {card} but was dealt {out[index]}")
        out[index] = card
    return out


def _deck(hole: list[list[Card | None]], board: list[Card | None], where: str) -> tuple[Card, ...]:
    """The deck order sanh deals these cards from (unknown positions: unused cards)."""
    count = len(hole)
    # sanh deals from the small blind: p1 (count >= 3) or p2 (heads-up, the button).
    small_blind = 1 if count == 2 else 0
    slots: list[Card | None] = [None] * (2 * count + 5)
    for offset in range(count):
        seat = (small_blind + offset) % count
        slots[offset], slots[offset + count] = hole[seat]
    for index, card in enumerate(board):
        slots[2 * count + index] = card
    known = [card for card in slots if card is not None]
    if len(set(known)) != len(known):
        raise NotationError(f"{where}: a card appears twice")
    spare = iter(card for card in DECK_52 if card not in set(known))
    order = [card if card is not None else next(spare) for card in slots]
    order.extend(spare)
    return tuple(order)


def replay_phh(hand: PhhHand) -> PhhReplay:
    """Replay a PHH hand through the Hold'em engine (every action validated).

    :raises NotationError: if an action is illegal under standard no-limit rules.
    """
    game = _HOLDEM
    where = f"hand [{hand.key}]" if hand.key is not None else "hand"
    state = game.apply(game.new_state(hand.config), hand.shuffle)
    events: list[Event] = [hand.shuffle]
    for number, action in enumerate(hand.actions, 1):
        if not state.queue:
            raise NotationError(f"{where} action {number} {action.text!r}: the hand is over")
        event: Action
        if action.kind == "f":
            event = Fold(action.seat)
        elif action.kind == "cc":
            owed = state.max_bet - state.bets[action.seat] if state.bets else 0
            event = Call(action.seat) if owed > 0 else Check(action.seat)
        else:
            event = RaiseTo(action.seat, action.amount)
        try:
            state = game.apply(state, event)
        except IllegalActionError as error:
            raise NotationError(f"{where} action {number} {action.text!r}: {error.words}") from None
        events.append(event)
    complete = game.is_terminal(state)
    return PhhReplay(hand, state, tuple(state.stacks), complete, tuple(events))


# ----- writing ---------------------------------------------------------------------------
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    if isinstance(value, str):
        if "'" not in value and "\n" not in value:
            return f"'{value}'"
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def format_phh(
    state: HoldemState,
    *,
    viewer: Seat | None = None,
    decimals: int = 0,
    extra: dict[str, Any] | None = None,
) -> str:
    """One hand as PHH text (the body of a ``.phh`` file).

    :param viewer: write ``????`` for hole cards this seat could not see (``None``: the
        complete record with every card).
    :param decimals: write amounts in units of ``10 ** decimals`` minor units (0: as minor
        units, which keeps every split exact).
    :param extra: more fields to write (``hand``, ``table``, ``_notes``...).
    :raises NotationError: if the hand cannot be written as PHH (heads-up with the literal
        blind reading of A-HE6).
    """
    params = state.params
    order = state.order
    players = len(order)
    if players == 2 and not params.headsup_dealer_is_sb:
        raise NotationError("PHH cannot express heads-up with the dealer on the big blind")
    game = _AOF if params.aof else _HOLDEM
    index = {seat: number for number, seat in enumerate(order)}

    def amount(units: Chips) -> Decimal | int:
        return to_file_units(units, decimals)

    def label(seat: Seat) -> str:
        return f"p{index[seat] + 1}"

    config = state.config
    revealed = game.revealed(state) if game.is_terminal(state) else frozenset()
    antes: list[Chips] = [0] * players
    if params.ante:
        if params.big_blind_ante:
            antes[1] = params.ante
        else:
            antes = [params.ante] * players
    blinds = [params.small_blind, params.big_blind] + [0] * (players - 2)
    actions: list[str] = []
    current = game.new_state(config)
    for event in state.history:
        before = current
        if isinstance(event, Shuffle):
            current = game.apply(current, event)
            for seat in order:
                cards = current.hole[seat]
                visible = viewer is None or seat == viewer or seat in revealed
                if seat in params.unknown:
                    visible = False
                text = "".join(str(card) for card in cards) if visible else "????"
                actions.append(f"d dh {label(seat)} {text}")
        else:
            assert isinstance(event, Action) and event.seat is not None
            seat = event.seat
            if isinstance(event, Fold | Leave):  # PHH has no out-of-turn fold: a leave is "f"
                actions.append(f"{label(seat)} f")
            elif isinstance(event, Check | Call):
                actions.append(f"{label(seat)} cc")
            elif isinstance(event, RaiseTo):
                actions.append(f"{label(seat)} cbr {amount(event.amount)}")
            elif isinstance(event, AllIn):
                bounds = game.raise_bounds(before, seat)
                if bounds is None:
                    actions.append(f"{label(seat)} cc")
                else:
                    actions.append(f"{label(seat)} cbr {amount(bounds[1])}")
            current = game.apply(current, event)
        dealt = len(before.board)
        for size in (3, 4, 5):
            if dealt < size <= len(current.board):
                actions.append("d db " + "".join(str(card) for card in current.board[dealt:size]))
                dealt = size
    if game.is_terminal(state):
        for seat in state.shown:
            shown = state.hole[seat] if seat in revealed else ()
            actions.append(f"{label(seat)} sm {''.join(map(str, shown)) or '????'}")
    fields: dict[str, Any] = {
        "variant": "NT",
        "ante_trimming_status": False,
        "antes": [amount(a) for a in antes],
        "blinds_or_straddles": [amount(b) for b in blinds],
        "min_bet": amount(params.min_bet),
        "starting_stacks": [amount(config.stacks[seat]) for seat in order],
        "actions": actions,
        "seats": [seat + 1 for seat in order],
        "seat_count": config.seats,
    }
    if game.is_terminal(state):
        fields["finishing_stacks"] = [amount(state.stacks[seat]) for seat in order]
    fields.update(extra or {})
    return "\n".join(f"{name} = {_toml_value(value)}" for name, value in fields.items()) + "\n"


def format_phhs(bodies: Iterable[str], *, first: int = 1) -> str:
    """Several hands as one ``.phhs`` text: tables ``[1]``, ``[2]``... of :func:`format_phh`
    bodies."""
    return "\n".join(f"[{number}]\n{body}" for number, body in enumerate(bodies, first))
