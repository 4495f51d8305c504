"""The settings every test hall (``sanh serve`` in a subprocess) runs with."""

from __future__ import annotations

__all__ = ["TEST_HALL_ENV"]

TEST_HALL_ENV = {
    "SANH_GUESTS_PER_HOUR": "1000000",
    "SANH_REGISTRATIONS_PER_HOUR": "1000000",
    "SANH_GUEST_GRANT": "10000000",
    "SANH_TABLES_PER_PLAYER": "1000",
    "SANH_TABLES_BURST": "1000",
}
"""Many guests, registrations and tables (per host) from 127.0.0.1, and a guest wallet of
100,000 gold (the tests bet big); tests/server/test_accounts.py sets its own."""
