"""How many threads llama.cpp should use: the cores this process may actually run on.

`os.cpu_count()` counts the host's cores, and llama-cpp-python's default takes half of them.
A container or a `taskset` sees fewer: the CPU affinity mask bounds the count, and a cgroup CPU
quota (`cpu.max` in cgroup v2, `cpu.cfs_quota_us` / `cpu.cfs_period_us` in v1) bounds it again,
rounded up. `MOVIEAGENT_LLAMACPP_THREADS` overrides the result (see `agent.settings`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")


def available_cores(
    cgroup_root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP, affinity: int | None = None
) -> int:
    """The cores this process may use: its affinity mask, capped by its cgroup's CPU quota."""
    cores = affinity if affinity is not None else _affinity()
    quota = cgroup_quota(cgroup_root, proc_cgroup)
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def cgroup_quota(cgroup_root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> float | None:
    """The CPU quota in cores of this process's cgroup and its parents (the tightest), or None."""
    quotas = [q for folder in _cgroup_folders(cgroup_root, proc_cgroup) if (q := _quota(folder))]
    return min(quotas) if quotas else None


def _affinity() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _cgroup_folders(cgroup_root: Path, proc_cgroup: Path) -> list[Path]:
    """The folders that may hold this process's CPU limits, its own group and every parent."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        lines = []
    folders: list[Path] = []
    for line in lines:  # "0::/path" (v2) or "4:cpu,cpuacct:/path" (v1)
        if line.count(":") < 2:
            continue
        _, controllers, group = line.split(":", 2)
        if controllers and "cpu" not in controllers.split(","):
            continue
        bases = [cgroup_root] if not controllers else _v1_mounts(cgroup_root)
        parts = [p for p in group.strip("/").split("/") if p]
        for base in bases:
            folders += [base.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]
    return folders or [cgroup_root, cgroup_root / "cpu"]


def _v1_mounts(cgroup_root: Path) -> list[Path]:
    return [cgroup_root / name for name in ("cpu", "cpu,cpuacct", "cpuacct,cpu")]


def _quota(folder: Path) -> float | None:
    try:
        if (folder / "cpu.max").is_file():  # v2: "max 100000" or "150000 100000"
            limit, _, period = (folder / "cpu.max").read_text().strip().partition(" ")
            return None if limit == "max" else int(limit) / int(period or 100000)
        if (folder / "cpu.cfs_quota_us").is_file():  # v1: -1 means no limit
            limit_us = int((folder / "cpu.cfs_quota_us").read_text())
            period_us = int((folder / "cpu.cfs_period_us").read_text())
            return limit_us / period_us if limit_us > 0 and period_us > 0 else None
    except (OSError, ValueError):
        return None
    return None
