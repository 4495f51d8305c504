"""A heuristic Phỏm bot that sees only its own :class:`~sanh.games.phom.PhomView`.

* **Eat** when the card improves the hand: it makes Ù, or the best deadwood after eating and
  discarding is lower than now. Otherwise draw.
* **Lay down** the arrangement leaving the fewest points (then the most cards melded).
* **Send** every card it can, highest points first (keeping a card to discard).
* **Discard** the highest-point trash card that cannot feed the next player a meld: a card is
  *dead* when no meld can be made of it and two cards the bot has not seen (or the next
  player's eaten cards still in hand). Failing that, a card the next player has shown no interest
  in (they discarded its rank or a suit neighbour); failing that, the highest trash card.

It never picks :class:`~sanh.games.phom.Leave` and it is deterministic (it draws no randomness).
"""

from __future__ import annotations

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.cards.rng import Rng
from sanh.eval.melds import card_points, deadwood_points, meld_key, most_melded, phom_rank
from sanh.games.base import Action, View
from sanh.games.phom import Discard, Draw, Eat, LayDown, PhomView, Send

__all__ = ["BOTS", "PhomBot"]


class PhomBot:
    """Eats what improves the hand, lays down the fewest points, discards safe trash."""

    def act(self, view: View, rng: Rng) -> Action:
        """The bot's action for its seat (``view.viewer``)."""
        assert isinstance(view, PhomView) and view.viewer is not None
        legal = list(view.legal_actions)
        if not legal:
            raise ValueError("the view has no legal action")
        seat = view.viewer
        hand = tuple(c for c in view.hands[seat] if c is not None)
        pending = tuple(c for c in view.eaten[seat] if c in hand)
        eats = [a for a in legal if isinstance(a, Eat)]
        draws = [a for a in legal if isinstance(a, Draw)]
        if eats or draws:
            if eats and (not draws or _eating_helps(hand, pending, eats[0].card)):
                return eats[0]
            return draws[0] if draws else legal[0]
        lays = [a for a in legal if isinstance(a, LayDown)]
        if lays:

            def left_points(action: LayDown) -> tuple[int, int, str]:
                melded = set(action.cards)
                points = sum(card_points(c) for c in hand if c not in melded)
                return points, -len(melded), str(action)

            return min(lays, key=left_points)
        sends = [a for a in legal if isinstance(a, Send)]
        if sends:
            return max(sends, key=lambda a: (card_points(a.card), meld_key(a.card), -a.target))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return _choose_discard(view, hand, pending, discards)
        return legal[0]


def _eating_helps(hand: tuple[Card, ...], pending: tuple[Card, ...], card: Card) -> bool:
    with_card = (*hand, card)
    eaten = (*pending, card)
    arrangement = most_melded(with_card, eaten)
    if arrangement is None:
        return False
    if len(hand) + 1 >= 10 and len(arrangement.melded) >= 9:
        return True  # Ù
    now = deadwood_points(hand, pending)
    best_after = None
    for discard in with_card:
        if discard in eaten:
            continue
        rest = tuple(c for c in with_card if c != discard)
        value = deadwood_points(rest, eaten)
        if value is not None and (best_after is None or value < best_after):
            best_after = value
    return best_after is not None and (now is None or best_after < now)


def _choose_discard(
    view: PhomView, hand: tuple[Card, ...], pending: tuple[Card, ...], discards: list[Discard]
) -> Discard:
    base = deadwood_points(hand, pending)

    def rest_points(action: Discard) -> int:
        rest = tuple(c for c in hand if c != action.card)
        value = deadwood_points(rest, pending)
        return value if value is not None else 1 << 20

    trash = [
        a for a in discards if base is not None and rest_points(a) == base - card_points(a.card)
    ]
    if not trash:
        return min(discards, key=lambda a: (rest_points(a), -card_points(a.card)))
    nxt = _next_player(view)
    pool = _unseen(view, hand)
    if nxt is not None:
        pool |= {c for c in view.eaten[nxt] if view.hands[nxt] and c not in _laid(view)}
    shown_by_next = set(view.rows[nxt]) if nxt is not None else set()

    def key(action: Discard) -> tuple[int, int, int, tuple[int, int]]:
        card = action.card
        dead = not _can_meld_with(card, pool)
        hinted = any(_related(card, other) for other in shown_by_next)
        return (int(dead), int(hinted), card_points(card), meld_key(card))

    return max(trash, key=key)


def _next_player(view: PhomView) -> int | None:
    if view.viewer is None or view.viewer not in view.order:
        return None
    start = view.order.index(view.viewer)
    size = len(view.order)
    for k in range(1, size):
        seat = view.order[(start + k) % size]
        if not view.removed[seat] and len(view.rows[seat]) < 4:
            return seat
    return None


def _laid(view: PhomView) -> set[Card]:
    return {c for melds in view.melds for meld in melds for c in meld}


def _unseen(view: PhomView, hand: tuple[Card, ...]) -> set[Card]:
    seen = set(hand) | _laid(view)
    for row in view.rows:
        seen.update(row)
    for eaten in view.eaten:
        seen.update(eaten)
    return set(DECK_52) - seen


def _can_meld_with(card: Card, pool: set[Card]) -> bool:
    """Whether ``card`` and two cards of ``pool`` can form a meld."""
    rank = phom_rank(card)
    same_rank = sum(1 for c in pool if phom_rank(c) == rank and c != card)
    if same_rank >= 2:
        return True
    suited = {phom_rank(c) for c in pool if c.suit == card.suit}
    return any({rank + a, rank + b} <= suited for a, b in ((-2, -1), (-1, 1), (1, 2)))


def _related(card: Card, other: Card) -> bool:
    """Same rank, or the same suit within two ranks."""
    if phom_rank(card) == phom_rank(other):
        return True
    return card.suit == other.suit and abs(phom_rank(card) - phom_rank(other)) <= 2


BOTS = {"phom": PhomBot}
