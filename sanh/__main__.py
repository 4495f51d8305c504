"""``python -m sanh``: the CLI."""

from __future__ import annotations

import sys

from sanh.cli import main

sys.exit(main())
