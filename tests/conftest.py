"""Settings for the whole test suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests: no per-example time limit. Speed targets live in benchmarks/, and CI shares
# two cores with the hall servers and browsers the other tests start, where a 200 ms deadline
# made examples fail for slowness, not for being wrong.
settings.register_profile("sanh", deadline=None)
settings.load_profile("sanh")
