"""Friends over the real server (HTTP and WebSocket): requests, accept/decline, block,
presence and an invitation to a private table (sanh/server/friends.py, docs/protocol.md
``presence`` and ``friend_invite``).

* A request shows as ``outgoing`` for the asker and ``incoming`` for the asked; declining
  removes it; accepting makes both friends (and sends each online one the whole list).
* A friend's presence comes over the WebSocket: online when they connect, the table they sit
  at when they join one (a private table's id never), nothing of their table when they hide it,
  offline when their last connection closes.
* A blocked player can neither ask nor invite; blocking ends the friendship; every refusal has
  its code and changes nothing.
* An invitation to a private table brings the invited friend its invite code, which opens it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.server.harness import InProcessHall, WsPlayer
from tests.server.test_leaving import _guests, _of, _run


def _auth(player: WsPlayer) -> dict[str, str]:
    return {"authorization": f"Bearer {player.token}"}


async def _friends(hall: InProcessHall, http: httpx.AsyncClient, player: WsPlayer) -> Any:
    answer = await http.get(f"{hall.url}/api/friends", headers=_auth(player))
    assert answer.status_code == 200, answer.text
    return answer.json()


async def _post(
    hall: InProcessHall, http: httpx.AsyncClient, who: WsPlayer, **body: Any
) -> httpx.Response:
    return await http.post(f"{hall.url}/api/friends", json=body, headers=_auth(who))


def _ids(refs: list[dict[str, Any]]) -> list[str]:
    return [r["player"] for r in refs]


async def _refused(
    hall: InProcessHall,
    http: httpx.AsyncClient,
    people: list[WsPlayer],
    who: WsPlayer,
    status: int,
    text: str,
    **body: Any,
) -> None:
    """The change is refused with its status and text code, and nobody's lists change."""
    before = [await _friends(hall, http, p) for p in people]
    answer = await _post(hall, http, who, **body)
    assert answer.status_code == status, answer.text
    assert answer.json()["text"] == text, answer.json()
    after = [await _friends(hall, http, p) for p in people]
    assert after == before, body


def _presence(player: WsPlayer, friend: str, **fields: Any) -> Any:
    """A ``presence`` message with an entry for ``friend`` having ``fields``."""

    def match(m: dict[str, Any]) -> bool:
        return m.get("type") == "presence" and any(
            e["player"] == friend and all(e[k] == v for k, v in fields.items())
            for e in m["friends"]
        )

    return match


def test_requests_accept_decline_block_and_presence(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan, minh, hoa = await _guests(hall, http, "lan", "minh", "hoa")
        people = [lan, minh, hoa]
        await lan.connect()
        first = await lan.wait_for(_of("presence"), 30)
        assert first["full"] is True and first["friends"] == []

        # Refusals: oneself, nobody, no request to accept, a malformed id.
        await _refused(
            hall, http, people, lan, 409, "friend_self", action="request", player=lan.player
        )
        await _refused(
            hall, http, people, lan, 404, "no_such_player", action="request", player="999999"
        )
        await _refused(
            hall, http, people, lan, 404, "no_such_player", action="request", player="x'--"
        )
        await _refused(
            hall, http, people, lan, 409, "friend_no_request", action="accept", player=minh.player
        )

        # A request, declined.
        asked = await _post(hall, http, lan, action="request", player=minh.player)
        assert asked.status_code == 200, asked.text
        assert _ids(asked.json()["outgoing"]) == [minh.player]
        seen = await _friends(hall, http, minh)
        assert _ids(seen["incoming"]) == [lan.player] and seen["incoming"][0]["name"] == "lan"
        await _refused(
            hall,
            http,
            people,
            lan,
            409,
            "friend_request_sent",
            action="request",
            player=minh.player,
        )
        declined = await _post(hall, http, minh, action="decline", player=lan.player)
        assert declined.status_code == 200 and declined.json()["incoming"] == []
        assert (await _friends(hall, http, lan))["outgoing"] == []

        # Asked again and accepted: friends both ways; lan (online) gets the whole list.
        mark = len(lan.messages)
        assert (await _post(hall, http, lan, action="request", player=minh.player)).is_success
        accepted = await _post(hall, http, minh, action="accept", player=lan.player)
        assert accepted.status_code == 200
        assert [f["player"] for f in accepted.json()["friends"]] == [lan.player]
        whole = await lan.wait_for(_presence(lan, minh.player, online=False), 30, mark)
        assert whole["full"] is True
        assert [f["player"] for f in (await _friends(hall, http, lan))["friends"]] == [minh.player]
        await _refused(
            hall, http, people, lan, 409, "friend_already", action="request", player=minh.player
        )

        # Presence: minh comes online, sits at a table, hides it, goes.
        mark = len(lan.messages)
        await minh.connect()
        came = await lan.wait_for(_presence(lan, minh.player, online=True), 30, mark)
        assert came["full"] is False and came["friends"][0]["table"] is None
        created = await http.post(
            f"{hall.url}/api/tables",
            json={"game": "tien-len", "stake": 100, "seats": 2},
            headers=_auth(minh),
        )
        table = created.json()["id"]
        mark = len(lan.messages)
        await minh.send({"type": "join", "table": table})
        at = await lan.wait_for(_presence(lan, minh.player, table=table), 30, mark)
        assert at["friends"][0]["game"] == "tien-len" and at["friends"][0]["private"] is False
        listed = (await _friends(hall, http, lan))["friends"][0]
        assert (listed["online"], listed["table"]) == (True, table)
        mark = len(lan.messages)
        hidden = await _post(hall, http, minh, action="hide", hide=True)
        assert hidden.json()["hide_table"] is True
        await lan.wait_for(_presence(lan, minh.player, online=True, table=None), 30, mark)
        assert (await _friends(hall, http, lan))["friends"][0]["table"] is None
        assert (await _post(hall, http, minh, action="hide", hide=False)).is_success
        mark = len(lan.messages)
        await minh.close()
        await lan.wait_for(_presence(lan, minh.player, online=False), 30, mark)
        assert (await _friends(hall, http, lan))["friends"][0]["online"] is False

        # A block: hoa blocks lan, who can neither ask nor invite hoa.
        assert (await _post(hall, http, lan, action="request", player=hoa.player)).is_success
        blocked = await _post(hall, http, hoa, action="block", player=lan.player)
        assert blocked.status_code == 200
        assert blocked.json()["incoming"] == [] and _ids(blocked.json()["blocked"]) == [lan.player]
        assert (await _friends(hall, http, lan))["outgoing"] == [], "the request went with it"
        await _refused(
            hall, http, people, lan, 409, "friend_blocked", action="request", player=hoa.player
        )
        await _refused(
            hall, http, people, hoa, 409, "friend_blocked", action="request", player=lan.player
        )
        await _refused(
            hall,
            http,
            people,
            lan,
            409,
            "friend_not_friends",
            action="invite",
            player=hoa.player,
            table=table,
        )
        await _refused(
            hall,
            http,
            people,
            hoa,
            409,
            "friend_blocked_already",
            action="block",
            player=lan.player,
        )
        # Blocking a friend ends the friendship.
        assert (await _post(hall, http, minh, action="block", player=lan.player)).is_success
        assert (await _friends(hall, http, lan))["friends"] == []
        assert (await _friends(hall, http, minh))["friends"] == []
        unblocked = await _post(hall, http, minh, action="unblock", player=lan.player)
        assert unblocked.status_code == 200 and unblocked.json()["blocked"] == []
        await _refused(
            hall, http, people, minh, 409, "friend_not_blocked", action="unblock", player=lan.player
        )
        assert (await _post(hall, http, lan, action="request", player=minh.player)).is_success
        await lan.close()

    _run(tmp_path, body)


def test_an_invitation_opens_a_private_table(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        host, friend, stranger = await _guests(hall, http, "lan", "minh", "hoa")
        people = [host, friend, stranger]
        assert (await _post(hall, http, host, action="request", player=friend.player)).is_success
        assert (await _post(hall, http, friend, action="accept", player=host.player)).is_success
        created = await http.post(
            f"{hall.url}/api/tables",
            json={"game": "tien-len", "stake": 100, "seats": 2, "private": True},
            headers=_auth(host),
        )
        assert created.status_code == 201, created.text
        table, code = created.json()["id"], created.json()["invite_code"]
        await friend.connect()
        await host.connect()
        mark = len(friend.messages)
        await host.send({"type": "join", "table": table})
        await host.wait_for(_of("table", table=table), 30)
        # The friend sees the host at a private table, never its id.
        seen = await friend.wait_for(_presence(friend, host.player, private=True), 30, mark)
        assert seen["friends"][0]["table"] is None and seen["friends"][0]["game"] == "tien-len"
        assert table not in str(friend.messages)

        # Only a friend, only to a table one is at, only a friend online.
        await stranger.connect()
        await _refused(
            hall,
            http,
            people,
            host,
            409,
            "friend_not_friends",
            action="invite",
            player=stranger.player,
            table=table,
        )
        await _refused(
            hall,
            http,
            people,
            friend,
            409,
            "friend_invite_not_there",
            action="invite",
            player=host.player,
            table=table,
        )
        await _refused(
            hall,
            http,
            people,
            host,
            404,
            "friend_no_table",
            action="invite",
            player=friend.player,
            table="nope",
        )
        assert not friend.of_type("friend_invite")

        mark = len(friend.messages)
        invited = await _post(hall, http, host, action="invite", player=friend.player, table=table)
        assert invited.status_code == 200, invited.text
        assert invited.json()["invited"] == 1
        invite = await friend.wait_for(_of("friend_invite"), 30, mark)
        assert invite == {
            **invite,
            "player": host.player,
            "name": "lan",
            "table": table,
            "game": "tien-len",
            "join": code,
        }
        # The invitation's join opens the private table (the stranger's guess of its id does not).
        mark = len(stranger.messages)
        await stranger.send({"type": "join", "table": table})
        refused = await stranger.wait_for(_of("error"), 30, mark)
        assert refused["text"] == "table_needs_invite"
        mark = len(friend.messages)
        await friend.send({"type": "join", "table": invite["join"]})
        joined = await friend.wait_for(_of("table", table=table), 30, mark)
        assert joined["table"] == table
        await friend.close()
        mark = len(host.messages)
        await _refused(
            hall,
            http,
            people,
            host,
            409,
            "friend_offline",
            action="invite",
            player=friend.player,
            table=table,
        )
        for player in (host, stranger):
            await player.close()

    _run(tmp_path, body)
