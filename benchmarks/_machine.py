"""A one-line description of the machine a benchmark ran on."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine_note() -> str:
    """CPU model, cores, load average, Python and NumPy versions."""
    import numpy

    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs, load average {load}; "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"NumPy {numpy.__version__}, {platform.system()} {platform.release()}"
    )
