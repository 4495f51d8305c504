"""A bet sent between house rounds is refused and changes nothing (docs/protocol.md, "House
rounds").

Over a real WebSocket to the real app on a :class:`~sanh.server.clock.ManualClock`
(:class:`~tests.server.harness.InProcessHall`): a player sits at a Tài Xỉu, Three Card Poker or
Teen Patti 20-20 house table, reads a bet from the open window's view, and sends it

- after the betting window closed, while the round is still being dealt or decided, and
- after the round's result, before the next round opens (the clock stands still in between),
- once the next round is open, from a connection that was not shown it (a bet in flight),

each time with the version of the last view it was sent. Each is answered with an ``error``
(``illegal_action`` ``betting_closed``, ``no_hand`` ``no_hand_for_you``, or ``no_hand``
``act_for_old_hand`` for a bet still on its way when the next round opened), never an ``ack``;
the wallet, the holds and the table's event log are as they were.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.server.settings import Settings
from tests.server.harness import InProcessHall, WsPlayer, table_log
from tests.server.test_e2e_games import audit

WINDOWS = {
    "tai-xiu": {"taixiu.betting_s": 20, "taixiu.table": "system"},
    "teen-patti-2020": {"teenpatti.betting_s": 20},
    "three-card-poker": {"tcp.betting_s": 20, "tcp.decision_s": 20},
}
MAIN_BET = {"tai-xiu": "small", "teen-patti-2020": "player_a", "three-card-poker": "ante"}
REFUSALS = {
    ("illegal_action", "betting_closed"),
    ("no_hand", "no_hand_for_you"),
    ("no_hand", "act_for_old_hand"),
}


def _settings() -> Settings:
    return Settings(
        between_hands=5.0,
        bot_delay=0.5,
        timer_scale=1.0,
        bots_on_start=False,
        rate_per_second=1000,
        rate_burst=1000,
        house_tai_xiu_tables=True,
    )


def _bet(game: str, view: dict[str, Any]) -> dict[str, Any]:
    for amount_range in view["amount_ranges"]:
        template = amount_range["action"]
        if MAIN_BET[game] == template.get("bet"):
            return {**template, "amount": amount_range["min"]}
    raise AssertionError(f"no {MAIN_BET[game]} bet in {view['amount_ranges']}")


def _events(hall: InProcessHall, table: str) -> int:
    return sum(len(events) for events in table_log(hall.db_url, table).values())


def _last_view(player: WsPlayer, table: str) -> dict[str, Any] | None:
    """The last ``table`` update with a view the player was sent."""
    views = [m for m in player.of_type("table") if m["table"] == table and m.get("view")]
    return views[-1] if views else None


async def _refused(player: WsPlayer, table: str, version: int, action: dict[str, Any]) -> None:
    """Send the bet; it is answered with an error of :data:`REFUSALS`, not an ack."""
    nonce = uuid.uuid4().hex
    mark = len(player.messages)
    await player.send(
        {"type": "act", "table": table, "nonce": nonce, "version": version, "action": action}
    )
    answer = await player.wait_for(lambda m: m.get("nonce") == nonce, 30, mark)
    assert answer["type"] == "error", answer
    assert (answer["code"], answer["text"]) in REFUSALS, answer


@pytest.mark.parametrize("game", sorted(WINDOWS))
def test_a_bet_between_house_rounds_is_refused_and_changes_nothing(
    tmp_path: Path, game: str
) -> None:
    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", _settings()) as hall,
            httpx.AsyncClient(timeout=30) as http,
        ):
            assert hall.hall is not None and hall.services is not None
            player = await WsPlayer.guest(http, hall.url, "late", mode="idle")
            created = await http.post(
                f"{hall.url}/api/tables",
                json={"game": game, "stake": 100, "seats": 3, "options": WINDOWS[game]},
                headers={"authorization": f"Bearer {player.token}"},
            )
            assert created.status_code == 201, created.text
            table = created.json()["id"]
            actor = hall.hall.tables[table]
            await player.connect()
            await player.send({"type": "join", "table": table})
            await player.send({"type": "sit", "table": table, "seat": 0})
            # The betting window of a round: the player's own view, with its bets.
            while actor.state is None:
                due = hall.clock.next_due()
                assert due is not None, "no round opens"
                await hall.advance_to(due)
            opened = await player.wait_for(
                lambda m: (
                    m.get("type") == "table"
                    and m.get("view") is not None
                    and m["view"].get("viewer") == 0
                    and bool(m["view"].get("amount_ranges"))
                ),
                30,
            )
            bet, hand = _bet(game, opened["view"]), actor.hand
            bank = hall.services.bank
            wallet = bank.balance(player.player)
            # The window closes (the clock passes its deadline): the round goes on without
            # the player, to its result.
            await hall.advance(WINDOWS[game].get("taixiu.betting_s", 20) + 0.5)
            if actor.state is not None and actor.hand == hand:
                last = _last_view(player, table)
                assert last is not None
                await _refused(player, table, last["view"]["version"], bet)
            while actor.state is not None and actor.hand == hand:
                due = hall.clock.next_due()
                assert due is not None, "the round does not end"
                await hall.advance_to(due)
            await player.wait_for(lambda m: m.get("type") == "result" and m["hand"] == hand, 30)
            await hall.settle()
            assert actor.state is None, "the next round opened while the clock stood still"
            logged = _events(hall, table)
            # Between the result and the next round: the last version the player saw.
            last = _last_view(player, table)
            assert last is not None
            await _refused(player, table, last["view"]["version"], bet)
            await _refused(player, table, last["view"]["version"] + 1, bet)
            await hall.settle()
            assert bank.balance(player.player) == wallet
            assert not hall.services.ledger.open_holds()
            assert _events(hall, table) == logged
            # The next round opens; a bet still in flight for the round that is over (here
            # from the player's second connection, which was never shown the new round) is
            # refused, not counted in the new round (its versions start again from 0).
            late = WsPlayer(hall.url, player.token, player.player, "late-2", mode="idle")
            await late.connect()
            while actor.state is None or actor.hand == hand:
                due = hall.clock.next_due()
                assert due is not None, "no next round"
                await hall.advance_to(due)
            assert actor.state is not None
            logged = _events(hall, table)
            await _refused(late, table, actor.state.version, bet)
            await hall.settle()
            assert late.of_type("error")[-1]["text"] == "act_for_old_hand"
            assert bank.balance(player.player) == wallet
            assert _events(hall, table) == logged
            assert not [m for m in player.messages + late.messages if m.get("type") == "ack"]
            await late.close()
            await player.close()
            report = audit(hall)
            assert report["ok"] is True, report

    asyncio.run(main())
