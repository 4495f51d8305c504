"""The project's shared folder: the rule texts (``RULES.md``, ``seeds/``) and real hand
histories (``phh-real/``) that some tests read.

It is ``shared/`` beside the repository (where CI and the development worktrees find it), or
``$SANH_SHARED``. A test that needs it skips with the reason when it is absent, except under
``CI=true``, where it fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

__all__ = ["shared_path"]

REPO = Path(__file__).resolve().parents[1]


def shared_path(*parts: str) -> Path:
    """A path inside the shared folder; skips the test (fails under CI) when it is missing."""
    roots = [Path(os.environ["SANH_SHARED"])] if os.environ.get("SANH_SHARED") else []
    roots.append(REPO.parent / "shared")
    for root in roots:
        path = root.joinpath(*parts)
        if path.exists():
            return path
    where = " or ".join(str(r.joinpath(*parts)) for r in roots)
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the shared folder is missing: {where}")
    pytest.skip(f"the shared folder is not beside this checkout ({where}); set SANH_SHARED")
