"""Which cards a viewer may not know at a state: an oracle per game, from the engine state.

:func:`hidden_cards` is written from the rules (RULES.md §2.10 and each game's section), reading
the raw engine state rather than the engine's own ``observe``: the deck and the stock are never
known; another seat's face-down cards are unknown until the rules turn them up (a showdown, a
flip, a face-up card of Xì Tố, the shown hand of a winner who chose to show, a Phỏm hand counted
at the end); folded hands are never shown. A spectator (``viewer=None``) owns nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sanh.cards.card import Card
from sanh.games.base import Shuffle
from sanh.types import Seat

__all__ = ["cards_in", "hidden_cards"]

_CARD_RUN = re.compile(r"^(?:[2-9TJQKA][cdhs])+$")
_TOKEN = re.compile(r"\w+")


_CARD_NAMES = frozenset(r + s for r in "23456789TJQKA" for s in "cdhs")

_OPAQUE = frozenset({"resume_token", "token", "commitment", "server_seed", "nonce", "invite_code"})
"""Keys whose values are random identifiers, not text: a resume token such as ``...ZU-8h``
names no card, whatever its characters spell."""


def cards_in(value: Any, out: set[str] | None = None) -> set[str]:
    """Every card named anywhere in a JSON value: ``"As"``, ``"As Kd"``, ``"AsKd"``."""
    if out is None:
        out = set()
    kind = type(value)
    if kind is str:
        if len(value) == 2:
            if value in _CARD_NAMES:
                out.add(value)
        elif len(value) > 2:
            for token in _TOKEN.findall(value):
                if _CARD_RUN.match(token):
                    out.update(token[i : i + 2] for i in range(0, len(token), 2))
    elif kind is dict:
        for key, item in value.items():
            cards_in(key, out)
            if key not in _OPAQUE:
                cards_in(item, out)
    elif kind is list or kind is tuple:
        for item in value:
            cards_in(item, out)
    return out


def _names(cards: Iterable[Card | None]) -> set[str]:
    return {str(c) for c in cards if c is not None}


def _deck(state: Any) -> set[str]:
    """Every card of the hand's shuffles."""
    out: set[str] = set()
    for event in state.history:
        if isinstance(event, Shuffle):
            out |= _names(event.order)
    return out


def _others(viewer: Seat | None, seats: int) -> list[Seat]:
    return [s for s in range(seats) if s != viewer]


def hidden_cards(game_id: str, state: Any, viewer: Seat | None) -> set[str]:
    """The cards ``viewer`` may not know at ``state`` (RULES.md §2.10 and the game's rules)."""
    deck = _deck(state)
    if not deck:
        return set()
    n = state.config.seats
    others = _others(viewer, n)
    match game_id:
        case "texas-holdem" | "poker-aof":
            holes = state.hole or ((),) * n
            dealt = set().union(*(_names(h) for h in holes)) | _names(state.board)
            over = game_over(game_id, state)
            hidden = deck - dealt
            for seat in others:
                shown = over and seat in state.shown and state.live[seat]
                if not shown:
                    hidden |= _names(holes[seat])
            return hidden
        case "lieng" | "xi-to":
            dealt = set().union(*(_names(c) for c in state.cards))
            hidden = deck - dealt
            over = state.phase == "over"
            for seat in others:
                live = state.betting.live(seat)
                shown = state.showdown or (state.shown and seat == state.winner)
                revealed = over and live and shown
                if revealed:
                    continue
                for index, card in enumerate(state.cards[seat]):
                    face_up = (
                        game_id == "xi-to" and state.up[seat][index] and state.phase != "choose"
                    )
                    if not face_up:
                        hidden.add(str(card))
            return hidden
        case "ba-cay-chuong" | "ba-cay-ga":
            dealt = set().union(*(_names(c) for c in state.cards))
            hidden = deck - dealt
            for seat in others:
                if not state.flipped[seat]:
                    hidden |= _names(state.cards[seat])
            return hidden
        case "phom":
            held = set().union(*(_names(h) for h in state.hands)) if state.hands else set()
            public = set()
            for seat in range(n):
                public |= _names(state.eaten[seat]) | _names(state.rows[seat])
                for meld in state.melds[seat]:
                    public |= _names(meld)
            hidden = _names(state.stock) | (deck - held - public - _names([state.pending]))
            over = state.phase == "over"
            for seat in others:
                if state.hands and not (over and not state.removed[seat]):
                    hidden |= _names(state.hands[seat]) - _names(state.eaten[seat])
            return hidden
        case "sam-loc" | "tien-len":
            hands = state.hands or ((),) * n
            played: set[str] = set()
            for event in state.history:
                played |= _names(getattr(event, "cards", ()) or ())
            held = set().union(*(_names(h) for h in hands))
            hidden = deck - held - played
            for seat in others:
                hidden |= _names(hands[seat])
            # The first lead must include 3♠ (TLMN): who holds it is public (RULES.md §12).
            return hidden - _names([getattr(state, "must_include", None)])
        case "three-card-poker":
            over = state.phase == "over"
            dealt = _names(state.player_hand) | _names(state.dealer_hand)
            for hand in state.own_hands:
                dealt |= _names(hand)
            hidden = deck - dealt
            if not over:
                hidden |= _names(state.dealer_hand)
            for seat in others:
                if not state.own_hands:
                    continue
                folded = state.decisions[seat] not in ("", "pending", "play")
                if not over or folded:
                    hidden |= _names(state.own_hands[seat])
            return hidden
        case "teen-patti-2020":
            return deck - _names(state.deal)
    raise AssertionError(f"no hidden-card oracle for {game_id}")


def game_over(game_id: str, state: Any) -> bool:
    """Whether the hand is over (by the state's own phase field)."""
    from sanh.games import find_game

    return find_game(game_id).to_act(state) is None
