"""The thread count for llama.cpp: affinity, then the cgroup CPU quota, then the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.errors import LLMConfigurationError
from agent.llm.llama_threads import available_cores, cgroup_quota
from agent.settings import LLMSettings


def cgroup_v2(tmp_path: Path, group: str, limits: dict[str, str]) -> tuple[Path, Path]:
    """A fake /sys/fs/cgroup (v2) with `cpu.max` files, and a /proc/self/cgroup naming `group`."""
    root = tmp_path / "cgroup"
    for folder, limit in limits.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / "cpu.max").write_text(limit + "\n")
    proc = tmp_path / "proc-cgroup"
    proc.write_text(f"0::{group}\n")
    return root, proc


def test_no_quota_leaves_the_affinity(tmp_path: Path) -> None:
    root, proc = cgroup_v2(tmp_path, "/app", {".": "max 100000", "app": "max 100000"})
    assert cgroup_quota(root, proc) is None
    assert available_cores(root, proc, affinity=6) == 6


def test_a_v2_quota_caps_the_affinity_rounded_up(tmp_path: Path) -> None:
    root, proc = cgroup_v2(tmp_path, "/app", {"app": "150000 100000"})
    assert cgroup_quota(root, proc) == 1.5
    assert available_cores(root, proc, affinity=8) == 2
    assert available_cores(root, proc, affinity=1) == 1  # the affinity is the tighter bound


def test_a_parent_group_quota_counts_too(tmp_path: Path) -> None:
    root, proc = cgroup_v2(
        tmp_path,
        "/kubepods/pod1/app",
        {"kubepods/pod1": "300000 100000", "kubepods/pod1/app": "max"},
    )
    assert available_cores(root, proc, affinity=16) == 3


def test_a_tiny_quota_still_gives_one_thread(tmp_path: Path) -> None:
    root, proc = cgroup_v2(tmp_path, "/", {".": "20000 100000"})
    assert available_cores(root, proc, affinity=4) == 1


def test_a_v1_quota(tmp_path: Path) -> None:
    cpu = tmp_path / "cgroup" / "cpu" / "docker" / "abc"
    cpu.mkdir(parents=True)
    (cpu / "cpu.cfs_quota_us").write_text("200000\n")
    (cpu / "cpu.cfs_period_us").write_text("100000\n")
    proc = tmp_path / "proc-cgroup"
    proc.write_text("4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n")
    assert available_cores(tmp_path / "cgroup", proc, affinity=32) == 2


def test_a_v1_group_without_limit(tmp_path: Path) -> None:
    cpu = tmp_path / "cgroup" / "cpu"
    cpu.mkdir(parents=True)
    (cpu / "cpu.cfs_quota_us").write_text("-1\n")
    (cpu / "cpu.cfs_period_us").write_text("100000\n")
    proc = tmp_path / "proc-cgroup"
    proc.write_text("1:cpu:/\n0::/\n")
    assert available_cores(tmp_path / "cgroup", proc, affinity=2) == 2


def test_no_cgroup_files_at_all(tmp_path: Path) -> None:
    assert available_cores(tmp_path / "none", tmp_path / "nothing", affinity=3) == 3


def test_this_process_gets_at_least_one_core() -> None:
    assert available_cores() >= 1


def test_the_setting_overrides_and_is_checked() -> None:
    env = {"MOVIEAGENT_LLAMACPP_THREADS": "3", "MOVIEAGENT_LLAMACPP_CONTEXT": "16384"}
    settings = LLMSettings.from_env(env)
    assert (settings.threads, settings.context_tokens) == (3, 16384)
    assert LLMSettings.from_env({}).threads is None
    with pytest.raises(LLMConfigurationError, match="MOVIEAGENT_LLAMACPP_THREADS='two'"):
        LLMSettings.from_env({"MOVIEAGENT_LLAMACPP_THREADS": "two"})
    with pytest.raises(LLMConfigurationError, match="at least 1"):
        LLMSettings.from_env({"MOVIEAGENT_LLAMACPP_THREADS": "0"})


def test_the_factory_passes_the_setting_on() -> None:
    from agent.llm.factory import build_llm
    from agent.llm.llamacpp import LlamaCppLLM

    llm = build_llm(LLMSettings.from_env({"MOVIEAGENT_LLAMACPP_THREADS": "3"}))
    assert isinstance(llm, LlamaCppLLM)
    assert llm.n_threads == 3 and "3 threads" in llm.describe()
    assert build_llm(LLMSettings.from_env({})).n_threads == available_cores()  # type: ignore[attr-defined]
