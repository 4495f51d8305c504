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


class IllegalBatchActionError(ValueError):
    """An action id that is not legal at its table (nothing was applied)."""


def _first_after(member: B, cur: I64) -> I64:
    """Per row: the first position of ``member`` cyclically after ``cur`` (-1 if none)."""
    rows, width = member.shape
    dist = (np.arange(width)[None, :] - cur[:, None] - 1) % width
    dist = np.where(member, dist, width)
    best = dist.argmin(axis=1)
    found = member[np.arange(rows), best]
    return np.where(found, best, -1)


def _first(member: B) -> I64:
    """Per row: the first position of ``member`` (-1 if none)."""
    best = member.argmax(axis=1)
    return np.where(member[np.arange(member.shape[0]), best], best, -1)


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
        template.deal(list(range(52)))
        if not template.queue:
            raise ValueError("every hand of this table ends at the deal: no decision to learn")
        self._t_stacks = np.array([template.stacks[s] for s in order], dtype=np.int64)
        self._t_bets = np.array([template.bets[s] for s in order], dtype=np.int64)
        self._t_totals = np.array([template.totals[s] for s in order], dtype=np.int64)
        self._antes = np.array([template.antes[s] for s in order], dtype=np.int64)
        self._dead = int(self._antes.sum())
        self._t_queue = np.zeros(p, dtype=np.bool_)
        for seat in template.queue:
            self._t_queue[template.position[seat]] = True
        self._t_cur = template.position[template.queue[0]]
        self._t_max_bet = template.max_bet
        self._standard = params.standard
        self._cover = params.cover
        self._small_blind = params.small_blind
        self._min_bet = params.min_bet
        # Where each position's hole cards come from in the deck.
        offsets = (np.arange(p) - self._sb_pos) % p
        self._hole_index = np.stack([offsets, offsets + p], axis=1)
        self._board_index = np.arange(2 * p, 2 * p + 5)
        # State, by table and position.
        self.stacks = np.zeros((n, p), dtype=np.int64)
        self.bets = np.zeros((n, p), dtype=np.int64)
        self.totals = np.zeros((n, p), dtype=np.int64)
        self.live = np.zeros((n, p), dtype=np.bool_)
        self.acted = np.zeros((n, p), dtype=np.bool_)
        self.queue = np.zeros((n, p), dtype=np.bool_)
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
        self._gen = np.random.Generator(np.random.PCG64(0))
        self._seeds = np.zeros(n, dtype=np.int64)
        # The next decision of every table, worked out after each step.
        self.owed = np.zeros(n, dtype=np.int64)
        self.low = np.zeros(n, dtype=np.int64)
        self.high = np.zeros(n, dtype=np.int64)
        self.can_raise = np.zeros(n, dtype=np.bool_)
        self.mask = np.zeros((n, self.action_size), dtype=np.int8)

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
        self._decide(self._rows)

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
        self.stacks[rows] = self._t_stacks
        self.bets[rows] = self._t_bets
        self.totals[rows] = self._t_totals
        self.live[rows] = True
        self.acted[rows] = False
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
    def _reach(self, rows: I64) -> tuple[I64, I64, I64]:
        """(top, top position, second) of ``stack + bet`` over live positions."""
        reach = np.where(self.live[rows], self.stacks[rows] + self.bets[rows], -1)
        top_pos = reach.argmax(axis=1)
        top = reach[np.arange(len(rows)), top_pos]
        other = reach.copy()
        other[np.arange(len(rows)), top_pos] = -1
        return top, top_pos, other.max(axis=1)

    def _decide(self, rows: I64) -> None:
        """The actor's choices and legal ids at ``rows`` (see ``HandCore.choices``)."""
        k = np.arange(len(rows))
        cur = self.cur[rows]
        stack = self.stacks[rows, cur]
        bet = self.bets[rows, cur]
        max_bet = self.max_bet[rows]
        owed = max_bet - bet
        raise_size = self.raise_size[rows]
        top, top_pos, second = self._reach(rows)
        reach = np.where(top_pos == cur, second, top)
        blocked = (
            (stack <= owed)
            | (owed < raise_size)
            | (
                (self.shorts_count[rows] > 0)
                & (self.shorts_sum[rows] < raise_size)
                & self.acted[rows, cur]
            )
            | (reach <= max_bet)
        )
        if self._standard:
            increment = np.maximum(raise_size, self._min_bet)
        else:
            increment = np.where(max_bet > 0, self._small_blind, self._min_bet)
        high = stack + bet
        if self._cover:
            high = np.minimum(high, reach)
        low = np.minimum(max_bet + increment, high)
        self.owed[rows] = owed
        self.low[rows] = low
        self.high[rows] = high
        self.can_raise[rows] = ~blocked
        mask = np.zeros((len(rows), self.action_size), dtype=np.int8)
        mask[:, FOLD] = 1
        mask[k, np.where(owed > 0, CALL, CHECK)] = 1
        mask[:, RAISE:] = (~blocked)[:, None]
        self.mask[rows] = mask

    def raise_amounts(self) -> I64:
        """``(N, buckets)``: the raise-to amount of every bucket id at every table now
        (meaningful where raising is legal): min, ``min + round(size × pot)``, max, snapped."""
        pot = self.totals.sum(axis=1) + self._dead
        low, high = self.low[:, None], self.high[:, None]
        sized = low + np.rint(self.sizes[None, :] * pot[:, None]).astype(np.int64)
        return np.concatenate([low, np.clip(sized, low, high), high], axis=1)

    def actor_seats(self) -> I64:
        """The seat each table waits for."""
        return self.order[self.cur]

    # ----- acting --------------------------------------------------------------------------
    def step(self, actions: npt.ArrayLike) -> tuple[I64, B]:
        """Apply one id per table for the seat it waits for; finished hands are settled and
        dealt again. Returns ``(deltas, done)``: the settled chips per seat (``N × seats``,
        zero where no hand ended; each finished row sums to zero) and where a hand ended.

        :raises IllegalBatchActionError: if an id is illegal at some table (nothing applied).
        """
        n = self.num_tables
        ids = np.asarray(actions, dtype=np.int64).reshape(n)
        rows = self._rows
        bad = (ids < 0) | (ids >= self.action_size)
        legal = self.mask[rows, np.clip(ids, 0, self.action_size - 1)] == 1
        if (bad | ~legal).any():
            row = int(np.flatnonzero(bad | ~legal)[0])
            raise IllegalBatchActionError(
                f"table {row}: action id {int(ids[row])} is not legal for player_"
                f"{int(self.order[self.cur[row]])} now; legal ids: "
                f"{np.flatnonzero(self.mask[row]).tolist()}"
            )
        cur = self.cur
        seat = self.order[cur]
        # History (the public actions of the hand, every seat sees them all).
        h = self.history
        if h:
            full = self.hist_len >= h
            if full.any():
                f = np.flatnonzero(full)
                self.hist_seat[f, :-1] = self.hist_seat[f, 1:]
                self.hist_id[f, :-1] = self.hist_id[f, 1:]
            slot = np.minimum(self.hist_len, h - 1)
            self.hist_seat[rows, slot] = seat
            self.hist_id[rows, slot] = ids
            self.hist_len += 1
        amounts = np.zeros(n, dtype=np.int64)
        raising = ids >= RAISE
        if raising.any():
            r = np.flatnonzero(raising)
            amounts[r] = self.raise_amounts()[r, ids[r] - RAISE]
        end = np.zeros(n, dtype=np.bool_)
        # Folds.
        fold = ids == FOLD
        if fold.any():
            r = np.flatnonzero(fold)
            c = cur[r]
            self.acted[r, c] = True
            self.live[r, c] = False
            self.queue[r, c] = False
            end[r] = (~self.queue[r].any(axis=1)) | (self.live[r].sum(axis=1) <= 1)
        # Checks and calls.
        call = (ids == CHECK) | (ids == CALL)
        if call.any():
            r = np.flatnonzero(call)
            c = cur[r]
            self.acted[r, c] = True
            amount = np.maximum(np.minimum(self.max_bet[r] - self.bets[r, c], self.stacks[r, c]), 0)
            self.bets[r, c] += amount
            self.totals[r, c] += amount
            self.stacks[r, c] -= amount
            self.queue[r, c] = False
            end[r] = ~self.queue[r].any(axis=1)
        # Bets and raises.
        if raising.any():
            r = np.flatnonzero(raising)
            c = cur[r]
            amount = amounts[r]
            increment = amount - self.max_bet[r]
            delta = amount - self.bets[r, c]
            self.bets[r, c] = amount
            self.stacks[r, c] -= delta
            self.totals[r, c] += delta
            queue = self.live[r] & (self.stacks[r] > 0)
            queue[np.arange(len(r)), c] = False
            self.queue[r] = queue
            full = increment >= self.raise_size[r]
            new_size = increment if self._standard else np.minimum(increment, self._small_blind)
            fr = r[full]
            self.acted[fr] = False
            self.raise_size[fr] = new_size[full]
            self.acted[r, c] = True
            self.max_bet[r] = amount
            left = self.stacks[r, c] > 0
            shorts_sum = np.where(left, 0, self.shorts_sum[r] + increment)
            shorts_count = np.where(left, 0, self.shorts_count[r] + 1)
            reset = shorts_sum >= self.raise_size[r]
            self.shorts_sum[r] = np.where(reset, 0, shorts_sum)
            self.shorts_count[r] = np.where(reset, 0, shorts_count)
            end[r] = ~queue.any(axis=1)
        # The next actor where the street goes on.
        going = np.flatnonzero(~end)
        if len(going):
            self.cur[going] = _first_after(self.queue[going], cur[going])
        deltas = np.zeros((n, self.seats), dtype=np.int64)
        done = np.zeros(n, dtype=np.bool_)
        ending = np.flatnonzero(end)
        if len(ending):
            over = self._end_streets(ending)
            if len(over):
                done[over] = True
                deltas[over[:, None], self.order[None, :]] = (
                    self.stacks[over] - self._start_stacks[self.order][None, :]
                )
                self.hands += len(over)
                self._seeds[over] += n
                self._new_hands(over)
        self._decide(rows)
        return deltas, done

    def _end_streets(self, rows: I64) -> I64:
        """End the street at ``rows`` (and the streets after it that nobody can bet on);
        returns the rows whose hand is over (settled: stacks hold the payout)."""
        finished: list[I64] = []
        while len(rows):
            bets = self.bets[rows]
            ordered = np.sort(bets, axis=1)
            top, cutoff = ordered[:, -1], ordered[:, -2]
            back = top - cutoff
            returns = np.flatnonzero(back > 0)
            if len(returns):
                rr = rows[returns]
                pos = bets[returns].argmax(axis=1)
                self.stacks[rr, pos] += back[returns]
                self.totals[rr, pos] -= back[returns]
            self.bets[rows] = 0
            self.max_bet[rows] = 0
            self.queue[rows] = False
            live = self.live[rows]
            alone = live.sum(axis=1) <= 1
            if alone.any():
                fr = rows[alone]
                winner = _first(self.live[fr])
                self.stacks[fr, winner] += self.totals[fr].sum(axis=1) + self._dead
                finished.append(fr)
            movers = (live & (self.stacks[rows] > 0)).sum(axis=1)
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
        self.acted[rows] = False
        self.shorts_sum[rows] = 0
        self.shorts_count[rows] = 0
        _, _, second = self._reach(rows)
        queue = self.live[rows] & (self.stacks[rows] > 0) & (second[:, None] > 0)
        self.queue[rows] = queue
        self.cur[rows] = np.maximum(_first(queue), 0)
        # Bets are all zero here: one seat left to act owes nothing, so the street ends.
        ending: I64 = rows[queue.sum(axis=1) <= 1]
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
            won[np.arange(len(s)), _first(winners)] += odd
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
            "pot": int(self.pot()[row]),
            "legal": np.flatnonzero(self.mask[row]).tolist(),
            "deck": self.deck[row].tolist(),
        }
