"""Settlements become one linked batch; random play of every game settles with clean books."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pytest

from sanh.cards.rng import SeededRng
from sanh.cli import main
from sanh.errors import LedgerError
from sanh.games import all_games
from sanh.games.base import Settlement, TableConfig
from sanh.games.driver import random_playout
from sanh.ledger import (
    BREAKAGE,
    FEES,
    HOUSE,
    ISSUER,
    AccountSpec,
    Batch,
    Ledger,
    ResultCode,
    Transfer,
    TransferCode,
    clan_account,
    escrow_account,
    player_account,
)
from sanh.ledger.audit import audit
from sanh.ledger.settle import SeatAccount, buy_in, cash_out, settle, settlement_batch

R = ResultCode


def open_wallets(ledger: Ledger, players: int, grant: int, clans: int = 0) -> None:
    specs = [AccountSpec(player_account(p)) for p in range(players)]
    specs += [AccountSpec(clan_account(c)) for c in range(clans)]
    grants = [
        Transfer.single(f"grant:{p}", ISSUER, player_account(p), grant, TransferCode.GRANT)
        for p in range(players)
    ]
    assert ledger.submit(grants, accounts=specs).code is R.OK


def test_settlement_flows_through_escrow() -> None:
    settlement = Settlement(deltas=(150, -100, -80), fee=20, breakage=1, clan_share=(9, 0, 0))
    seats = [
        SeatAccount(player_account(7), clan_account(3)),
        *map(SeatAccount, ["player:8", "player:9"]),
    ]
    batch = settlement_batch(settlement, settlement_id="t1-h5", table_id="t1", seats=seats)
    escrow = escrow_account("t1")
    assert batch.id == "t1-h5"
    assert [
        (t.id, t.debit_account, t.credit_account, t.amount, t.code) for t in batch.transfers
    ] == [
        ("t1-h5:loss:1", "player:8", escrow, 100, TransferCode.LOSS),
        ("t1-h5:loss:2", "player:9", escrow, 80, TransferCode.LOSS),
        ("t1-h5:win:0", escrow, "player:7", 150, TransferCode.WIN),
        ("t1-h5:fee", escrow, FEES, 20, TransferCode.FEE),
        ("t1-h5:breakage", escrow, BREAKAGE, 1, TransferCode.BREAKAGE),
        ("t1-h5:clan:0", escrow, clan_account(3), 9, TransferCode.CLAN_SHARE),
    ]
    assert {spec.id for spec in batch.accounts} == {escrow, clan_account(3)}


def test_settlement_misuse_raises() -> None:
    seats = [SeatAccount(player_account(1)), SeatAccount(player_account(2))]
    with pytest.raises(LedgerError, match="balance"):
        settlement_batch(Settlement((5, -4)), settlement_id="s", table_id="t", seats=seats)
    with pytest.raises(LedgerError, match="seat accounts"):
        settlement_batch(Settlement((5, -5)), settlement_id="s", table_id="t", seats=seats[:1])
    with pytest.raises(LedgerError, match="clanless"):
        settlement_batch(
            Settlement((5, -6), clan_share=(1, 0)), settlement_id="s", table_id="t", seats=seats
        )
    wrong = Transfer.hold(
        "h", player_account(2), escrow_account("other"), 5, TransferCode.STAKE_HOLD
    )
    with pytest.raises(LedgerError, match="not a hold"):
        settlement_batch(
            Settlement((5, -5)), settlement_id="s", table_id="t", seats=seats, holds={1: [wrong]}
        )


def test_banked_settlement_with_holds(ledger: Ledger) -> None:
    """A Tài Xỉu-like round: bets held, then posted (losses) or voided (wins); the house pays."""
    open_wallets(ledger, 2, 1_000)
    escrow = escrow_account("tx")
    holds = [
        Transfer.hold("bet:0", player_account(0), escrow, 300, TransferCode.STAKE_HOLD),
        Transfer.hold("bet:1", player_account(1), escrow, 200, TransferCode.STAKE_HOLD),
    ]
    assert ledger.submit(holds, accounts=[AccountSpec(escrow)]).code is R.OK
    stored: dict[str, Transfer] = {}
    for hold in holds:
        found = ledger.get_transfer(hold.id)
        assert found is not None
        stored[hold.id] = found
    # seat 0 wins 285 net (fee 15), seat 1 loses its 200; the house pays the rest
    settlement = Settlement(deltas=(285, -200), house=-100, fee=15)
    seats = [SeatAccount(player_account(0)), SeatAccount(player_account(1))]
    result = settle(
        ledger,
        settlement,
        settlement_id="tx-1",
        table_id="tx",
        seats=seats,
        holds={0: [stored["bet:0"]], 1: [stored["bet:1"]]},
    )
    assert result.code is R.OK
    assert ledger.balance(player_account(0)) == 1_285
    assert ledger.balance(player_account(1)) == 800
    assert ledger.balance(HOUSE) == -100
    assert ledger.balance(FEES) == 15
    assert ledger.balance(escrow) == 0
    assert ledger.open_holds() == []
    kinds = {t.id: t.kind.value for t in ledger.transfers_of(escrow, limit=20)}
    assert kinds["tx-1:void:0:0"] == "void" and kinds["tx-1:post:1:0"] == "post"
    again = settle(
        ledger,
        settlement,
        settlement_id="tx-1",
        table_id="tx",
        seats=seats,
        holds={0: [stored["bet:0"]], 1: [stored["bet:1"]]},
    )
    assert again.code is R.EXISTS
    assert audit(ledger).ok


def test_refused_settlement_applies_nothing(ledger: Ledger) -> None:
    open_wallets(ledger, 2, 100)
    seats = [SeatAccount(player_account(0)), SeatAccount(player_account(1))]
    before = ledger.counts()
    result = settle(ledger, Settlement((500, -500)), settlement_id="s", table_id="t", seats=seats)
    assert result.code is R.EXCEEDS_CREDITS
    assert ledger.counts() == before
    assert ledger.account(escrow_account("t")) is None
    assert not ledger.batch_exists("s")


def test_buy_in_and_cash_out(ledger: Ledger) -> None:
    open_wallets(ledger, 2, 1_000)
    assert buy_in(ledger, table_id="x", player_id=0, amount=400, transfer_id="in:0").ok
    assert buy_in(ledger, table_id="x", player_id=1, amount=400, transfer_id="in:1").ok
    seats = [SeatAccount("stake:x:0"), SeatAccount("stake:x:1")]
    assert settle(ledger, Settlement((150, -150)), settlement_id="x1", table_id="x", seats=seats).ok
    assert cash_out(ledger, table_id="x", player_id=0, transfer_id="out:0").code is R.OK
    assert cash_out(ledger, table_id="x", player_id=0, transfer_id="out:0b").code is (
        R.AMOUNT_MUST_NOT_BE_ZERO
    )
    assert ledger.balance(player_account(0)) == 1_150
    assert ledger.balance("stake:x:1") == 250
    assert audit(ledger).ok


# ----- random play -------------------------------------------------------------------------

HANDS_PER_GAME = 60
SYNTHETIC_ROUNDS = 2_000
PLAYERS = 12
CLANS = 3
GRANT = 10**12
GROUP = 128


@dataclass(frozen=True)
class Round:
    game: str
    settlement: Settlement
    players: tuple[int, ...]
    clans: tuple[int | None, ...]
    hold: tuple[int, ...] = ()
    """Per seat, a hold placed before the round (synthetic rounds only)."""


def _clan_of(player: int) -> int | None:
    return player % (CLANS + 1) if player % (CLANS + 1) < CLANS else None


def _pick_players(rng: SeededRng, seats: int) -> tuple[int, ...]:
    pool = list(range(PLAYERS))
    return tuple(pool.pop(rng.randbelow(len(pool))) for _ in range(seats))


@functools.cache
def played_rounds() -> tuple[Round, ...]:
    """Random hands of every registered game, then synthetic banked rounds with holds."""
    rounds: list[Round] = []
    rng = SeededRng("ledger-random-play")
    for game in all_games():
        info = game.info
        for hand in range(HANDS_PER_GAME):
            top = min(info.seats_max, 9)  # house games take up to 100 bettors
            seats = info.seats_min + rng.randbelow(top - info.seats_min + 1)
            players = _pick_players(rng, seats)
            clans = tuple(_clan_of(p) for p in players)
            stake = 100 * (1 + rng.randbelow(10))
            config = TableConfig.make(
                seats=seats,
                stake=stake,
                stacks=[stake * (20 + rng.randbelow(400)) for _ in range(seats)],
                clan_members=[c is not None for c in clans],
            )
            state = random_playout(game, config, rng.fork(f"{info.id}:{hand}"))
            settlement = game.settle(state)
            settlement.check()
            rounds.append(Round(info.id, settlement, players, clans))
    for _ in range(SYNTHETIC_ROUNDS):
        seats = 1 + rng.randbelow(6)
        players = _pick_players(rng, seats)
        clans = tuple(_clan_of(p) for p in players)
        deltas = tuple(rng.randbelow(2_001) - 1_000 for _ in range(seats))
        fee = rng.randbelow(60)
        breakage = rng.randbelow(3)
        shares = tuple(rng.randbelow(20) if clan is not None else 0 for clan in clans)
        house = -(sum(deltas) + fee + breakage + sum(shares))
        settlement = Settlement(deltas, house, fee, breakage, shares)
        settlement.check()
        hold = tuple(rng.randbelow(1_500) for _ in range(seats))
        rounds.append(Round("synthetic", settlement, players, clans, hold))
    return tuple(rounds)


def test_random_play_of_every_game_keeps_the_books(ledger: Ledger) -> None:
    """Thousands of rounds (every registered game, plus banked rounds with holds) settled in
    groups: every batch applies, the audit is clean, gold is conserved and every balance is
    exactly what the settlements say."""
    rounds = played_rounds()
    assert len(rounds) >= 2_000
    games = {r.game for r in rounds}
    assert games == {game.info.id for game in all_games()} | {"synthetic"}
    open_wallets(ledger, PLAYERS, GRANT, CLANS)
    issued = ledger.total_issued()
    expected: dict[str, int] = {player_account(p): GRANT for p in range(PLAYERS)}
    expected.update({clan_account(c): 0 for c in range(CLANS)})
    for account in (HOUSE, FEES, BREAKAGE):
        expected[account] = 0
    pending: list[Batch] = []
    built: list[Batch] = []
    hold_batches: list[Batch] = []
    settled = 0

    def flush() -> None:
        nonlocal settled
        if hold_batches:
            assert all(r.code is R.OK for r in ledger.submit_many(hold_batches))
            hold_batches.clear()
        results = ledger.submit_many(pending)
        assert [r.code for r in results] == [R.OK] * len(pending), [str(r) for r in results]
        settled += len(pending)
        pending.clear()

    for number, played in enumerate(rounds):
        table = f"{played.game}-{number % 7}"
        escrow = escrow_account(table)
        seats = [
            SeatAccount(player_account(p), None if c is None else clan_account(c))
            for p, c in zip(played.players, played.clans, strict=True)
        ]
        holds: dict[int, list[Transfer]] = {}
        if played.hold:
            transfers = []
            for seat, amount in enumerate(played.hold):
                if amount > 0:
                    hold = Transfer.hold(
                        f"r{number}:bet:{seat}",
                        player_account(played.players[seat]),
                        escrow,
                        amount,
                        TransferCode.STAKE_HOLD,
                    )
                    transfers.append(hold)
                    holds[seat] = [hold]
            hold_batches.append(Batch(tuple(transfers), None, (AccountSpec(escrow),)))
        batch = settlement_batch(
            played.settlement,
            settlement_id=f"r{number}",
            table_id=table,
            seats=seats,
            holds=holds,
            memo=played.game,
        )
        pending.append(batch)
        built.append(batch)
        s = played.settlement
        for seat, player in enumerate(played.players):
            expected[player_account(player)] += s.deltas[seat]
            if s.clan_share and s.clan_share[seat]:
                expected[clan_account(played.clans[seat])] += s.clan_share[seat]  # type: ignore[arg-type]
        expected[HOUSE] += s.house
        expected[FEES] += s.fee
        expected[BREAKAGE] += s.breakage
        if len(pending) == GROUP:
            flush()
    flush()
    assert settled == len(rounds)
    report = audit(ledger)
    assert report.ok, report.to_text()
    assert report.stats["open_holds"] == 0
    assert main(["audit", "--db", ledger.store.url, "--json"]) == 0  # sanh audit agrees
    assert ledger.total_issued() == issued
    balances = {account.id: account.balance for account in ledger.accounts()}
    assert sum(balances.values()) == 0
    for account_id, balance in expected.items():
        assert balances[account_id] == balance, account_id
    assert all(balances[a] == 0 for a in balances if a.startswith("escrow:"))
    # settling rounds again changes nothing
    results = ledger.submit_many(built[:: len(built) // 50])
    assert {r.code for r in results} == {R.EXISTS}
    assert {a.id: a.balance for a in ledger.accounts()} == balances
