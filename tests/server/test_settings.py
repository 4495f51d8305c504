"""The hall's settings for RULES.md's platform rules (``docs/options.md``).

``platform.turn_timer_s`` is ``turn_timer``, ``platform.xp_*`` are ``xp_per_hand`` and
``xp_per_win`` (passed to the wallet with the grants), ``aof.enabled`` is ``aof_enabled``: each
comes from the defaults, a ``sanh.toml`` file or a ``SANH_*`` variable, and does what it says.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from sanh.errors import ConfigError
from sanh.ledger.players import HallConfig
from sanh.server.app import create_app
from sanh.server.hall import Hall
from sanh.server.settings import Settings, load_settings
from sanh.server.wallet_services import WalletServices


def test_platform_settings_come_from_a_file_and_the_environment(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    defaults = load_settings(file=empty, env={})
    assert (defaults.turn_timer, defaults.quick_turn_timer) == (15.0, 7.0)
    assert (defaults.xp_per_hand, defaults.xp_per_win, defaults.aof_enabled) == (1, 1, True)
    assert defaults.hall_config() == HallConfig(), "the wallet's own defaults"
    config = tmp_path / "sanh.toml"
    config.write_text("[server]\nturn_timer = 20.0\nxp_per_hand = 3\naof_enabled = false\n")
    loaded = load_settings(file=config, env={"SANH_XP_PER_WIN": "4", "SANH_GUEST_GRANT": "500"})
    assert (loaded.turn_timer, loaded.xp_per_hand, loaded.xp_per_win) == (20.0, 3, 4)
    assert not loaded.aof_enabled
    wallet = loaded.hall_config()
    assert (wallet.xp_per_hand, wallet.xp_per_win, wallet.guest_grant) == (3, 4, 500)
    assert wallet.starting_grant == HallConfig().starting_grant


def test_the_wallet_grants_what_the_settings_say() -> None:
    settings = Settings(guest_grant=12_345, xp_per_hand=2)
    services = WalletServices.open("sqlite:///:memory:", settings.hall_config())
    try:
        guest = services.guest("newcomer", "vi")
        assert services.bank.balance(guest.id) == 12_345
        assert services.players.config.xp_per_hand == 2
    finally:
        services.close()


@pytest.mark.parametrize("enabled", [True, False])
def test_aof_enabled_decides_whether_the_hall_offers_all_in_or_fold(enabled: bool) -> None:
    settings = Settings(aof_enabled=enabled, bots_on_start=False)
    services = WalletServices.open("sqlite:///:memory:")

    async def body() -> None:
        hall = Hall(settings, services.bank)
        try:
            hall.open_bot_tables()
            assert ("bots-poker-aof" in hall.tables) is enabled
            assert "bots-texas-holdem" in hall.tables
            if enabled:
                actor = hall.create_table(
                    game="poker-aof",
                    stake=100,
                    seats=2,
                    options={},
                    quick=False,
                    private=False,
                    host=None,
                )
                assert actor.game.info.id == "poker-aof"
            else:
                with pytest.raises(ConfigError, match="not offered"):
                    hall.create_table(
                        game="aof",
                        stake=100,
                        seats=2,
                        options={},
                        quick=False,
                        private=False,
                        host=None,
                    )
            app = create_app(settings, services, hall)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://hall") as client:
                games = (await client.get("/api/games")).json()["games"]
            ids = {game["id"] for game in games}
            assert ("poker-aof" in ids) is enabled and "texas-holdem" in ids
        finally:
            await hall.close()

    try:
        asyncio.run(body())
    finally:
        services.close()
