"""The docstrings' examples run with the suite, and collecting them changes nothing.

``pytest`` collects sanh/ with ``--doctest-modules`` (pyproject.toml), which imports every
module of the package: an import must print nothing, write no file, start no thread and set
up no logging.
"""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import sanh

ROOT = Path(__file__).resolve().parent.parent

IMPORT_ALL = """
import importlib, json, logging, os, pkgutil, sys, threading
import sanh
names = sorted(
    m.name for m in pkgutil.walk_packages(sanh.__path__, "sanh.") if m.name != "sanh.__main__"
)
for name in names:
    importlib.import_module(name)
print(json.dumps({
    "modules": len(names),
    "threads": threading.active_count(),
    "handlers": len(logging.getLogger().handlers),
    "files": sorted(os.listdir(".")),
}))
"""


def test_pytest_runs_the_docstring_examples_of_sanh() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "sanh" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"].split()


def test_the_docstrings_hold_examples_that_pass() -> None:
    """The examples the collection finds, run once more here with the standard doctest."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    modules = 0
    for info in pkgutil.walk_packages(sanh.__path__, "sanh."):
        if info.name == "sanh.__main__":
            continue
        module = importlib.import_module(info.name)
        tests = [t for t in finder.find(module) if t.examples]
        modules += bool(tests)
        for test in tests:
            runner.run(test, out=lambda _text: None)
    results = runner.summarize(verbose=False)
    assert results.failed == 0
    assert results.attempted >= 46 and modules >= 9, "the examples the issue counted, at least"


def test_importing_every_sanh_module_has_no_side_effects(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stderr == ""
    report = json.loads(done.stdout)
    assert report["modules"] > 50
    assert report["threads"] == 1, "no thread started by an import"
    assert report["handlers"] == 0, "no logging set up by an import"
    assert report["files"] == [], "no file written by an import"
