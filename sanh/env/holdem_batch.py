"""No-limit Hold'em for many tables at once: NumPy arrays, one vectorised call per step.

:class:`HoldemBatch` plays ``num_tables`` independent hands of :mod:`sanh.games.texas_holdem`
with the rules of its :class:`~sanh.games.texas_holdem.HandCore` (blinds, antes, the minimum
and maximum raise of the table's options, short all-ins that do not re-open the betting,
uncalled bets, run-outs, side pots, odd units), stepping every table with one call. Each table
always waits for one seat's decision; a hand that ends is settled at once (integer chips, zero
per table) and the table is dealt its next hand.

Layout. The seats taking part are the same in every hand of a table spec (the env deals every
hand from the same config), so their order (clockwise from the seat after the button) is fixed
and the core keeps its per-seat arrays by *position* in that order (``(N, P)``); seats come
back in seat order in every output. Actions are the ids of :func:`sanh.env.actions.make_codec`
for Hold'em: 0 fold, 1 check, 2 call, then the raise buckets (minimum, the pot fractions,
maximum), snapped to the legal interval exactly as :class:`~sanh.env.actions.AmountHead` does.

Showdowns go through :func:`sanh.eval.batch.evaluate_batch` ((N, 7) rows, the C loop). A
showdown with one pot (everyone still in matched the highest contribution: the usual case) is
split with NumPy; one with side pots goes through the engine's own
:func:`sanh.games._betting.build_pots` and :func:`~sanh.games._betting.award_pots`.

Chance. ``decks="fast"`` (the default): :meth:`reset` derives a 128-bit seed from
``SeededRng(seed)`` and draws every deck from one NumPy ``PCG64`` stream (a uniform random
permutation per hand: the argsort of 52 uniform draws), so the same seed replays the same hands
in the same order. ``decks="engine"``: table ``i`` plays the hands of seeds ``seed + i``,
``seed + i + N``, ... each shuffled by ``SeededRng`` exactly as :meth:`sanh.env.core.Table.reset`
does, so it deals the AEC environment's hands (slower: SHA-256 per draw).

The tests (tests/env/test_holdem_batch.py) replay random action sequences through the engine's
public API (``TexasHoldem.apply``) with the same decks and compare, at every step, the legal
ids, stacks, bets, pot, the observation tensor and the final settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng, SystemRng, shuffled
from sanh.env.actions import DEFAULT_POT_SIZES
from sanh.env.core import IllegalActionIdError
from sanh.eval.batch import evaluate_batch
from sanh.games._betting import award_pots, build_pots
from sanh.games.base import OptionValue, TableConfig
from sanh.games.texas_holdem import HandCore, first_button

__all__ = ["HOLDEM_IDS", "HoldemBatch", "IllegalBatchActionError"]

FOLD, CHECK, CALL, RAISE = 0, 1, 2, 3
HOLDEM_IDS = ("fold", "check", "call", "raise buckets from id 3")
"""The fixed ids (as in :func:`sanh.env.actions.make_codec` for Hold'em)."""

_BOARD_SIZES = np.array([0, 3, 4, 5, 5], dtype=np.int64)
_STREETS = 7
"""The street block's width: deal, preflop, flop, turn, river, over, other."""

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]


class IllegalBatchActionError(IllegalActionIdError):
    """An action id that is not legal at its table (nothing was applied)."""


def _lowest_bit_table(width: int) -> I64:
    """``table[m]``: the lowest set bit of ``m`` (-1 for 0), for every ``width``-bit mask."""
    table = np.full(1 << width, -1, dtype=np.int64)
    for mask in range(1, 1 << width):
        table[mask] = (mask & -mask).bit_length() - 1
    return table


class HoldemBatch:
    """``num_tables`` no-limit Hold'em tables stepped together (see the module docstring)."""

    def __init__(
        self,
        num_tables: int,
        seats: int,
        *,
        stake: int = 100,
        stacks: Sequence[int] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        bet_sizes: Sequence[float] | None = None,
        history: int = 16,
        decks: str = "fast",
    ) -> None:
        from sanh.games import find_game

        if num_tables < 1:
            raise ValueError("num_tables must be at least 1")
        if decks not in ("fast", "engine"):
            raise ValueError(f"decks must be 'fast' or 'engine', not {decks!r}")
        game = find_game("texas-holdem")
        if not 2 <= seats <= game.info.seats_max:
            raise ValueError(f"texas-holdem seats 2..{game.info.seats_max}, not {seats}")
        self.config = config = TableConfig.make(
            seats=seats, stake=stake, stacks=stacks, options=dict(options or {})
        )
        game.check_config(config)
        params = game.params(config)  # type: ignore[attr-defined]
        if params.require_hole_card or params.unknown or params.mucked:
            raise ValueError(
                "HoldemBatch does not play holdem.require_hole_card, holdem.unknown_cards or "
                "holdem.mucked; use the per-table environment"
            )
        self.params = params
        self.num_tables = n = num_tables
        self.seats = seats
        self.decks = decks
        self.history = history
        self.sizes = np.array(
            tuple(bet_sizes) if bet_sizes is not None else DEFAULT_POT_SIZES, dtype=np.float64
        )
        self.action_size = RAISE + 2 + len(self.sizes)
        self.unit = params.big_blind
        """Rewards are settlements divided by this (the big blind), as in the AEC env."""
        self.button = first_button(config)
        # The blinds, antes and the preflop queue do not depend on the cards: the engine's
        # own core seats a template hand once, and every hand starts as a copy of it.
        template = HandCore.seat_hand(params, config.stacks, self.button)
        self.order = order = np.array(template.order, dtype=np.int64)
        self.positions = p = len(order)
        self.dealt = np.array([pos >= 0 for pos in template.position], dtype=np.bool_)
        self.sb_seat, self.bb_seat = template.blind_seats()
        self._sb_pos = template.position[self.sb_seat]
        self._start_stacks = np.array(config.stacks, dtype=np.int64)
        self._t_start = self._start_stacks[self.order]
        template.deal(list(range(52)))
        if not template.queue:
            raise ValueError("every hand of this table ends at the deal: no decision to learn")
        self._t_stacks = np.array([template.stacks[s] for s in order], dtype=np.int64)
        self._t_bets = np.array([template.bets[s] for s in order], dtype=np.int64)
        self._t_totals = np.array([template.totals[s] for s in order], dtype=np.int64)
        self._antes = np.array([template.antes[s] for s in order], dtype=np.int64)
        self._dead = int(self._antes.sum())
        self._t_queue = sum(1 << template.position[seat] for seat in template.queue)
        self._t_cur = template.position[template.queue[0]]
        self._t_max_bet = template.max_bet
        self._standard = params.standard
        self._cover = params.cover
        self._small_blind = params.small_blind
        self._min_bet = params.min_bet
        self._full = (1 << p) - 1
        self._lowest = _lowest_bit_table(p)
        self._bits = np.array([1 << i for i in range(p)], dtype=np.int64)
        # Where each position's hole cards come from in the deck.
        offsets = (np.arange(p) - self._sb_pos) % p
        self._hole_index = np.stack([offsets, offsets + p], axis=1)
        self._board_index = np.arange(2 * p, 2 * p + 5)
        # State, by table and position.
        self.stacks = np.zeros((n, p), dtype=np.int64)
        self.bets = np.zeros((n, p), dtype=np.int64)
        self.totals = np.zeros((n, p), dtype=np.int64)
        self.live = np.zeros((n, p), dtype=np.bool_)
        self.live_count = np.zeros(n, dtype=np.int64)
        self.acted = np.zeros(n, dtype=np.int64)
        """Bit ``i``: position ``i`` has acted since the last full raise (``HandCore.acted``)."""
        self.queue = np.zeros(n, dtype=np.int64)
        """Bit ``i``: position ``i`` is still to act this round (``HandCore.queue``: its order
        is the cyclic order from the actor, :attr:`cur`)."""
        self.cur = np.zeros(n, dtype=np.int64)
        self.street = np.zeros(n, dtype=np.int64)
        self.max_bet = np.zeros(n, dtype=np.int64)
        self.raise_size = np.zeros(n, dtype=np.int64)
        self.shorts_sum = np.zeros(n, dtype=np.int64)
        self.shorts_count = np.zeros(n, dtype=np.int64)
        self.deck = np.zeros((n, 52), dtype=np.int8)
        self.hole = np.zeros((n, p, 2), dtype=np.int8)
        self.board = np.zeros((n, 5), dtype=np.int8)
        self.hist_seat = np.zeros((n, history), dtype=np.int64)
        self.hist_id = np.zeros((n, history), dtype=np.int64)
        self.hist_len = np.zeros(n, dtype=np.int64)
        self.hands = 0
        """Hands finished since the last reset."""
        self._rows = np.arange(n)
        self._row_base = self._rows * p
        self._gen = np.random.Generator(np.random.PCG64(0))
        self._seeds = np.zeros(n, dtype=np.int64)
        # The next decision of every table, worked out after each step.
        self.owed = np.zeros(n, dtype=np.int64)
        self.low = np.zeros(n, dtype=np.int64)
        self.high = np.zeros(n, dtype=np.int64)
        self.can_raise = np.zeros(n, dtype=np.bool_)
        self.mask = np.zeros((n, self.action_size), dtype=np.int8)
        self.mask[:, FOLD] = 1

    # ----- dealing -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """New hands at every table; the same ``seed`` replays the same hands."""
        if seed is None:
            seed = SystemRng().randbelow(2**31)
        root = SeededRng(seed)
        self._gen = np.random.Generator(
            np.random.PCG64(int.from_bytes(root.fork("holdem-batch").block(0)[:16], "big"))
        )
        self._seeds = np.arange(seed, seed + self.num_tables, dtype=np.int64)
        self.hands = 0
        self._new_hands(self._rows)
        self._decide()

    def _draw_decks(self, rows: I64) -> npt.NDArray[np.int8]:
        if self.decks == "fast":
            perm: npt.NDArray[np.int8] = np.argsort(
                self._gen.random((len(rows), 52)), axis=1
            ).astype(np.int8)
            return perm
        out = np.empty((len(rows), 52), dtype=np.int8)
        for i, row in enumerate(rows):
            deck = shuffled(DECK_52, SeededRng(int(self._seeds[row])))
            out[i] = [int(card) for card in deck]
        return out

    def _new_hands(self, rows: I64) -> None:
        if not len(rows):
            return
        p = self.positions
        self.stacks[rows] = self._t_stacks
        self.bets[rows] = self._t_bets
        self.totals[rows] = self._t_totals
        self.live[rows] = True
        self.live_count[rows] = p
        self.acted[rows] = 0
        self.queue[rows] = self._t_queue
        self.cur[rows] = self._t_cur
        self.street[rows] = 0
        self.max_bet[rows] = self._t_max_bet
        self.raise_size[rows] = 0
        self.shorts_sum[rows] = 0
        self.shorts_count[rows] = 0
        self.hist_len[rows] = 0
        deck = self._draw_decks(rows)
        self.deck[rows] = deck
        self.hole[rows] = deck[:, self._hole_index]
        self.board[rows] = deck[:, self._board_index]

    # ----- the decision --------------------------------------------------------------------
    def _reach(self, live: B, stacks: I64, bets: I64) -> tuple[I64, I64, I64]:
        """(top, top position, second) of ``stack + bet`` over live positions (as
        ``HandCore._measure_reach``: the first position wins ties, the second may equal it)."""
        reach = np.where(live, stacks + bets, -1)
        top_pos = reach.argmax(axis=1)
        k = np.arange(len(reach))
        top = reach[k, top_pos]
        reach[k, top_pos] = -1
        return top, top_pos, reach.max(axis=1)

    def _decide(self) -> None:
        """The actor's choices and legal ids at every table (``HandCore.choices``)."""
        cur = self.cur
        at = self._row_base + cur
        stack = self.stacks.reshape(-1)[at]
        bet = self.bets.reshape(-1)[at]
        max_bet = self.max_bet
        owed = max_bet - bet
        raise_size = self.raise_size
        top, top_pos, second = self._reach(self.live, self.stacks, self.bets)
        reach = np.where(top_pos == cur, second, top)
        blocked = (stack <= owed) | (owed < raise_size) | (reach <= max_bet)
        shorts = self.shorts_count > 0
        if shorts.any():
            blocked |= (
                shorts & (self.shorts_sum < raise_size) & ((self.acted >> cur) & 1).astype(bool)
            )
        if self._standard:
            increment = np.maximum(raise_size, self._min_bet)
        else:
            increment = np.where(max_bet > 0, self._small_blind, self._min_bet)
        high = stack + bet
        if self._cover:
            np.minimum(high, reach, out=high)
        low = np.minimum(max_bet + increment, high)
        self.owed = owed
        self.low = low
        self.high = high
        can_raise = ~blocked
        self.can_raise = can_raise
        mask = self.mask
        mask[:, CHECK] = owed <= 0
        mask[:, CALL] = owed > 0
        mask[:, RAISE:] = can_raise[:, None]

    def raise_amounts(self) -> I64:
        """``(N, buckets)``: the raise-to amount of every bucket id at every table now
        (meaningful where raising is legal): min, ``min + round(size × pot)``, max, snapped."""
        pot = self.totals.sum(axis=1) + self._dead
        low, high = self.low[:, None], self.high[:, None]
        sized = low + np.rint(self.sizes[None, :] * pot[:, None]).astype(np.int64)
        return np.concatenate([low, np.clip(sized, low, high), high], axis=1)

    def _amount_of(self, bucket: I64) -> I64:
        """The raise-to amount of bucket ``bucket`` (0 = min) at every table."""
        low, high = self.low, self.high
        k = len(self.sizes)
        size = self.sizes[np.clip(bucket - 1, 0, k - 1)]
        pot = self.totals.sum(axis=1) + self._dead
        sized = np.clip(low + np.rint(size * pot).astype(np.int64), low, high)
        amount: I64 = np.where(bucket <= 0, low, np.where(bucket > k, high, sized))
        return amount

    def actor_seats(self) -> I64:
        """The seat each table waits for."""
        return self.order[self.cur]

    def _next_in_queue(self, queue: I64, cur: I64) -> I64:
        """The first position of ``queue`` cyclically after ``cur`` (-1 where it is empty)."""
        p = self.positions
        shift = (cur + 1) % p
        rotated = ((queue >> shift) | (queue << (p - shift))) & self._full
        low = self._lowest[rotated]
        nxt: I64 = np.where(low < 0, -1, (cur + 1 + low) % p)
        return nxt

    # ----- acting --------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike) -> tuple[I64, B]:
        """Apply one id per table for the seat it waits for; finished hands are settled and
        dealt again. Returns ``(deltas, done)``: the settled chips per seat (``N × seats``,
        zero where no hand ended; each finished row sums to zero) and where a hand ended.

        :raises IllegalBatchActionError: if an id is illegal at some table (nothing applied).
        """
        n = self.num_tables
        ids = np.asarray(actions, dtype=np.int64).reshape(n)
        size = self.action_size
        flat_mask = self.mask.reshape(-1)
        legal = (ids >= 0) & (ids < size)
        legal &= flat_mask[self._rows * size + np.clip(ids, 0, size - 1)] == 1
        if not legal.all():
            row = int(np.flatnonzero(~legal)[0])
            raise IllegalBatchActionError(
                f"table {row}: action id {int(ids[row])} is not legal for player_"
                f"{int(self.order[self.cur[row]])} now; legal ids: "
                f"{np.flatnonzero(self.mask[row]).tolist()}"
            )
        cur = self.cur
        self._record(ids)
        at = self._row_base + cur
        stacks_f = self.stacks.reshape(-1)
        bets_f = self.bets.reshape(-1)
        totals_f = self.totals.reshape(-1)
        stack = stacks_f[at]
        bet = bets_f[at]
        fold = ids == FOLD
        raising = ids >= RAISE
        calling = ~fold & ~raising
        amount = self._amount_of(ids - RAISE)
        put = np.where(calling, np.minimum(self.owed, stack), np.where(raising, amount - bet, 0))
        np.maximum(put, 0, out=put)
        left = stack - put
        stacks_f[at] = left
        bets_f[at] = bet + put
        totals_f[at] += put
        bit = np.left_shift(1, cur)
        self.live.reshape(-1)[at] = ~fold
        self.live_count -= fold
        queue = self.queue & ~bit
        acted = self.acted
        if raising.any():
            movers = ((self.live & (self.stacks > 0)) * self._bits).sum(axis=1)
            queue = np.where(raising, movers & ~bit, queue)
            increment = amount - self.max_bet
            full = raising & (increment >= self.raise_size)
            acted = np.where(full, 0, acted)
            new_size = increment if self._standard else np.minimum(increment, self._small_blind)
            self.raise_size = raise_size = np.where(full, new_size, self.raise_size)
            self.max_bet = np.where(raising, amount, self.max_bet)
            has_left = left > 0
            shorts_sum = np.where(has_left, 0, self.shorts_sum + increment)
            shorts_count = np.where(has_left, 0, self.shorts_count + 1)
            reset = shorts_sum >= raise_size
            self.shorts_sum = np.where(raising, np.where(reset, 0, shorts_sum), self.shorts_sum)
            self.shorts_count = np.where(
                raising, np.where(reset, 0, shorts_count), self.shorts_count
            )
        self.acted = acted | bit
        self.queue = queue
        end = (queue == 0) | (fold & (self.live_count <= 1))
        self.cur = np.where(end, cur, self._next_in_queue(queue, cur))
        deltas = np.zeros((n, self.seats), dtype=np.int64)
        done = np.zeros(n, dtype=np.bool_)
        ending = np.flatnonzero(end)
        if len(ending):
            over = self._end_streets(ending)
            if len(over):
                done[over] = True
                deltas[over[:, None], self.order[None, :]] = self.stacks[over] - self._t_start
                self.hands += len(over)
                self._seeds[over] += n
                self._new_hands(over)
        self._decide()
        return deltas, done

    def _record(self, ids: I64) -> None:
        """Append ``(seat, id)`` to every table's history (the last :attr:`history` kept)."""
        h = self.history
        if not h:
            return
        full = self.hist_len >= h
        if full.any():
            f = np.flatnonzero(full)
            self.hist_seat[f, :-1] = self.hist_seat[f, 1:]
            self.hist_id[f, :-1] = self.hist_id[f, 1:]
        slot = np.minimum(self.hist_len, h - 1)
        self.hist_seat[self._rows, slot] = self.order[self.cur]
        self.hist_id[self._rows, slot] = ids
        self.hist_len += 1

    def _end_streets(self, rows: I64) -> I64:
        """End the street at ``rows`` (and the streets after it that nobody can bet on);
        returns the rows whose hand is over (settled: stacks hold the payout)."""
        finished: list[I64] = []
        while len(rows):
            bets = self.bets[rows]
            top_pos = bets.argmax(axis=1)
            k = np.arange(len(rows))
            top = bets[k, top_pos]
            others = bets.copy()
            others[k, top_pos] = -1
            back = top - others.max(axis=1)
            returns = np.flatnonzero(back > 0)
            if len(returns):
                rr, pos = rows[returns], top_pos[returns]
                self.stacks[rr, pos] += back[returns]
                self.totals[rr, pos] -= back[returns]
            self.bets[rows] = 0
            self.max_bet[rows] = 0
            self.queue[rows] = 0
            alone = self.live_count[rows] <= 1
            if alone.any():
                fr = rows[alone]
                winner = self.live[fr].argmax(axis=1)
                self.stacks[fr, winner] += self.totals[fr].sum(axis=1) + self._dead
                finished.append(fr)
            movers = (self.live[rows] & (self.stacks[rows] > 0)).sum(axis=1)
            show = ~alone & ((movers <= 1) | (self.street[rows] == 3))
            if show.any():
                sr = rows[show]
                self._showdown(sr)
                finished.append(sr)
            nxt = rows[~alone & ~show]
            if not len(nxt):
                break
            self.street[nxt] += 1
            rows = self._begin_streets(nxt)
        if not finished:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate(finished)

    def _begin_streets(self, rows: I64) -> I64:
        """Open the flop, turn or river at ``rows``; returns the rows where it ends at once."""
        self.raise_size[rows] = 0
        self.acted[rows] = 0
        self.shorts_sum[rows] = 0
        self.shorts_count[rows] = 0
        live = self.live[rows]
        stacks = self.stacks[rows]
        _, _, second = self._reach(live, stacks, self.bets[rows])
        movers = live & (stacks > 0) & (second[:, None] > 0)
        queue = (movers * self._bits).sum(axis=1)
        self.queue[rows] = queue
        self.cur[rows] = np.maximum(self._lowest[queue], 0)
        # Bets are all zero here: one seat left to act owes nothing, so the street ends.
        ending: I64 = rows[movers.sum(axis=1) <= 1]
        return ending

    def _showdown(self, rows: I64) -> None:
        m, p = len(rows), self.positions
        live = self.live[rows]
        cards = np.empty((m, p, 7), dtype=np.int8)
        cards[:, :, :2] = self.hole[rows]
        cards[:, :, 2:] = self.board[rows][:, None, :]
        lr, lp = np.nonzero(live)
        strength = np.full((m, p), -1, dtype=np.int64)
        strength[lr, lp] = evaluate_batch(cards[lr, lp])
        totals = self.totals[rows]
        level = totals.max(axis=1)
        single = ~(live & (totals != level[:, None])).any(axis=1)
        if single.any():
            s = np.flatnonzero(single)
            st = strength[s]
            best = st.max(axis=1)
            winners = st == best[:, None]
            count = winners.sum(axis=1)
            amount = totals[s].sum(axis=1) + self._dead
            share, odd = amount // count, amount % count
            won = winners * share[:, None]
            won[np.arange(len(s)), winners.argmax(axis=1)] += odd
            self.stacks[rows[s]] += won
        for i in np.flatnonzero(~single):
            self._side_pots(int(rows[i]), strength[i])

    def _side_pots(self, row: int, strength: I64) -> None:
        """A showdown with side pots, by the engine's pot functions (seat-indexed)."""
        seats = self.seats
        contributions = [0] * seats
        live = [False] * seats
        strengths: list[int | None] = [None] * seats
        for pos, seat in enumerate(self.order.tolist()):
            contributions[seat] = int(self.totals[row, pos])
            live[seat] = bool(self.live[row, pos])
            if live[seat]:
                strengths[seat] = int(strength[pos])
        pots = build_pots(contributions, live, self._dead)
        award = award_pots(pots, strengths, self.order.tolist())
        for pos, seat in enumerate(self.order.tolist()):
            self.stacks[row, pos] += award.winnings[seat]

    # ----- views of the arrays, in seat order -----------------------------------------------
    def seat_array(self, by_position: npt.NDArray[Any], fill: Any = 0) -> npt.NDArray[Any]:
        """``(N, P)`` by position → ``(N, seats)`` by seat (``fill`` for seats not dealt)."""
        out = np.full((by_position.shape[0], self.seats), fill, dtype=by_position.dtype)
        out[:, self.order] = by_position
        return out

    def _queue_seats(self, row: int) -> list[int]:
        """The seats still to act at ``row``, in turn order from the actor."""
        p, cur, queue = self.positions, int(self.cur[row]), int(self.queue[row])
        turn = ((cur + j) % p for j in range(p))
        return [int(self.order[pos]) for pos in turn if queue >> pos & 1]

    def pot(self) -> I64:
        """Everything in the middle at each table (bets of the street included, antes too)."""
        pot: I64 = self.totals.sum(axis=1) + self._dead
        return pot

    def state_of(self, row: int) -> dict[str, Any]:
        """One table's state in seat order (plain ints), for tests and debugging."""
        return {
            "street": int(self.street[row]),
            "to_act": int(self.order[self.cur[row]]),
            "stacks": self.seat_array(self.stacks[row : row + 1])[0].tolist(),
            "bets": self.seat_array(self.bets[row : row + 1])[0].tolist(),
            "totals": self.seat_array(self.totals[row : row + 1])[0].tolist(),
            "live": self.seat_array(self.live[row : row + 1], False)[0].tolist(),
            "queue": [
                int(self.order[pos])
                for pos in (
                    (int(self.cur[row]) + j) % self.positions for j in range(self.positions)
                )
                if int(self.queue[row]) >> pos & 1
            ],
            "pot": int(self.pot()[row]),
            "legal": np.flatnonzero(self.mask[row]).tolist(),
            "deck": self.deck[row].tolist(),
        }


class BatchObservations:
    """The observation tensor of every table's actor, the layout of
    :class:`~sanh.env.encode.ObservationEncoder` for Hold'em, value for value.

    The encoder builds a vector from a seat's :class:`~sanh.games.texas_holdem.HoldemView`;
    this writes the same numbers from the batch's arrays into one persistent ``(N, size)``
    ``float32`` buffer: the blocks that are constant for a table spec (button and blind seats,
    blinds, antes, the dealt seats, the hidden count of the other hands) once, the per-seat
    amounts every step, and the cards and the history only where they change. The seat to act
    is always the viewer, and a decision is never at a finished hand, so ``terminal``, ``won``,
    ``hands`` and ``winners`` stay zero. Only what the actor's view shows is read: its own
    hole cards, the board dealt so far, the public amounts and the public history.
    """

    def __init__(self, batch: HoldemBatch, encoder: Any) -> None:
        self.batch = batch
        self.size = size = int(encoder.size)
        self.scale = float(encoder.scale)
        blocks = {b.name: b.offset for b in encoder.layout()}
        self.at = blocks
        n, seats = batch.num_tables, batch.seats
        self.buffer = np.zeros((n, size), dtype=np.float32)
        self._flat = self.buffer.reshape(-1)
        self._row_base = np.arange(n, dtype=np.int64) * size
        self._denominator = max(encoder.action_size - 1, 1)
        self._history = int(encoder.history)
        self._entry = seats + 2
        self._street_vocab = 7
        # The constant blocks.
        constant = np.zeros(size, dtype=np.float32)
        constant[blocks["button"] + batch.button] = 1.0
        constant[blocks["small_blind_seat"] + batch.sb_seat] = 1.0
        constant[blocks["big_blind_seat"] + batch.bb_seat] = 1.0
        params = batch.params
        constant[blocks["small_blind"]] = params.small_blind / self.scale
        constant[blocks["big_blind"]] = params.big_blind / self.scale
        constant[blocks["ante"]] = params.ante / self.scale
        for seat in range(seats):
            if batch.dealt[seat]:
                constant[blocks["dealt"] + seat] = 1.0
                constant[blocks["hole"] + seat * 53 + 52] = 2.0 / 13.0
            else:  # a seat not dealt in shows its config stack (zero) and nothing else
                constant[blocks["stacks"] + seat] = batch.config.stacks[seat] / self.scale
        self._constant = constant
        self.buffer[:] = constant
        self._order = batch.order
        self._hole_seen = np.zeros((n, 2), dtype=np.int64)
        """Per table: the flat offsets of the viewer's two hole-card entries now set."""
        self._board_seen = np.repeat(self._row_base[:, None] + blocks["board"], 5, axis=1)
        """Per table: the flat offsets of its board cards' entries (cleared at a new hand)."""
        self._board_shown = np.zeros(n, dtype=np.int64)
        self._viewer_hidden = np.zeros(n, dtype=np.int64)
        self._hist_written = np.zeros(n, dtype=np.int64)
        self._started = False

    def update(self, new_hands: I64 | None = None) -> npt.NDArray[np.float32]:
        """Bring the buffer up to date after a reset (``new_hands=None``: every table) or a
        step (``new_hands``: the tables dealt a new hand in it); returns the buffer."""
        b = self.batch
        out = self.buffer
        flat = self._flat
        at = self.at
        scale = self.scale
        rows = b._rows
        base = self._row_base
        seats, order = b.seats, self._order
        if new_hands is None or not self._started:
            out[:] = self._constant
            new_hands = rows
            self._board_shown[:] = 0
            self._hist_written[:] = 0
            self._started = True
        else:
            # Clear what the previous decision showed: the viewer's cards, the board.
            flat[self._hole_seen.reshape(-1)] = 0.0
            flat[self._viewer_hidden] = 2.0 / 13.0
            if len(new_hands):
                clear = self._board_seen[new_hands]
                flat[clear.reshape(-1)] = 0.0
                self._board_shown[new_hands] = 0
                h0 = at["history"]
                out[new_hands, h0 : h0 + self._history * self._entry] = 0.0
                self._hist_written[new_hands] = 0
        seat = order[b.cur]
        # One-hot blocks: the seat to act, the viewer, the street.
        for name, width in (("to_act", seats), ("viewer", seats)):
            out[:, at[name] : at[name] + width] = 0.0
            flat[base + at[name] + seat] = 1.0
        out[:, at["street"] : at["street"] + self._street_vocab] = 0.0
        flat[base + at["street"] + b.street + 1] = 1.0
        # Amounts per seat.
        stacks, bets, totals = b.stacks, b.bets, b.totals
        out[:, at["stacks"] + order] = stacks / scale
        out[:, at["bets"] + order] = bets / scale
        out[:, at["contributed"] + order] = (totals + b._antes) / scale
        live = b.live
        out[:, at["folded"] + order] = ~live
        out[:, at["all_in"] + order] = live & (stacks == 0)
        pot = totals.sum(axis=1) + b._dead
        out[:, at["pot"]] = pot / scale
        self._pots(out[:, at["pots"] : at["pots"] + seats])
        owed = np.minimum(b.stacks.reshape(-1)[b._row_base + b.cur], b.owed)
        out[:, at["to_call"]] = owed / scale
        # The viewer's hole cards.
        hole = b.hole[rows, b.cur].astype(np.int64)
        seen = base[:, None] + at["hole"] + seat[:, None] * 53 + hole
        flat[seen.reshape(-1)] = 1.0
        self._hole_seen = seen
        self._viewer_hidden = base + at["hole"] + seat * 53 + 52
        flat[self._viewer_hidden] = 0.0
        # The board: the cards dealt since the last decision.
        shown = _BOARD_SIZES[b.street]
        more = np.flatnonzero(shown > self._board_shown)
        if len(more):
            cards = b.board[more].astype(np.int64)
            index = base[more, None] + at["board"] + cards
            visible = np.arange(5)[None, :] < shown[more, None]
            flat[index[visible]] = 1.0
            self._board_seen[more] = index
            self._board_shown[more] = shown[more]
        # The history: the entries appended since the last decision.
        self._write_history()
        # Every value is within [-OBS_BOUND, OBS_BOUND] by construction (amounts / the largest
        # stack: at most the seat count), so the encoder's clip changes nothing here.
        return out

    def _write_history(self) -> None:
        b = self.batch
        h = self._history
        if not h:
            return
        out = self.buffer
        entry = self._entry
        h0 = self.at["history"]
        count = np.minimum(b.hist_len, h)
        shifted = np.flatnonzero((b.hist_len > h) & (self._hist_written > 0))
        if len(shifted):  # the window slid: rewrite those tables' history blocks
            out[shifted, h0 : h0 + h * entry] = 0.0
            self._hist_written[shifted] = 0
        todo = np.flatnonzero(count > self._hist_written)
        while len(todo):
            slot = self._hist_written[todo]
            where = self._row_base[todo] + h0 + slot * entry
            flat = self._flat
            flat[where + b.hist_seat[todo, slot]] = 1.0
            flat[where + b.seats] = b.hist_id[todo, slot] / self._denominator
            flat[where + b.seats + 1] = 1.0
            self._hist_written[todo] += 1
            todo = todo[count[todo] > self._hist_written[todo]]

    def _pots(self, out: npt.NDArray[np.float32]) -> None:
        """The collected pots per eligible seat (``build_pots`` of the bets before this round),
        summed in float32 in pot order as the encoder does."""
        b = self.batch
        collected = b.totals - b.bets
        live = b.live
        dead = b._dead
        order = self._order
        out[:] = 0.0
        amount = collected.sum(axis=1) + dead
        some = amount > 0
        level = np.where(live, collected, -1).max(axis=1)
        low = np.where(live, collected, np.iinfo(np.int64).max).min(axis=1)
        single = some & (level == low)
        # One pot: every live seat put in the same; folded seats' chips join it.
        value = (amount / self.scale).astype(np.float32)
        s = np.flatnonzero(single)
        out[s[:, None], order[None, :]] = np.where(live[s], value[s, None], np.float32(0.0))
        for row in np.flatnonzero(some & ~single).tolist():
            seats = b.seats
            contributions = [0] * seats
            alive = [False] * seats
            for pos, seat in enumerate(order.tolist()):
                contributions[seat] = int(collected[row, pos])
                alive[seat] = bool(live[row, pos])
            acc = np.zeros(seats, dtype=np.float32)
            for pot in build_pots(contributions, alive, dead):
                for seat in pot.eligible:
                    acc[seat] += float(pot.amount) / self.scale
            out[row] = acc
