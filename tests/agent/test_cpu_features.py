"""A llama.cpp build for instructions this CPU lacks is a sentence before the model loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.llm import cpu_features
from agent.llm.cpu_features import compiled_features, cpu_flags, missing_features

# what llama-cpp-python 0.3.36 printed on an AMX Xeon, natively built
AMX_BUILD = (
    "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX_VNNI = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | "
    "BMI2 = 1 | AVX512 = 1 | AVX512_VBMI = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | "
    "AMX_INT8 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | "
)
AVX2_HOST = "fpu sse2 pni ssse3 fma avx f16c avx2 bmi2"  # e.g. a Zen 2 or Haswell-era server


def cpuinfo(tmp_path: Path, *cores: str) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text("".join(f"processor\t: {i}\nflags\t\t: {f}\n\n" for i, f in enumerate(cores)))
    return path


def test_the_build_names_what_it_was_compiled_for() -> None:
    built = compiled_features(AMX_BUILD)
    assert {"SSE3", "AVX2", "AVX512", "AMX_INT8", "REPACK"} <= built
    assert "AVX512" not in compiled_features("CPU : AVX2 = 1 | AVX512 = 0 | ")


def test_an_avx512_build_on_an_avx2_cpu_is_caught(tmp_path: Path) -> None:
    flags = cpu_flags(cpuinfo(tmp_path, AVX2_HOST, AVX2_HOST))
    missing = missing_features(AMX_BUILD, flags)
    assert missing == [
        "AMX_INT8",
        "AVX512",
        "AVX512_BF16",
        "AVX512_VBMI",
        "AVX512_VNNI",
        "AVX_VNNI",
    ]
    assert missing_features("CPU : SSE3 = 1 | AVX2 = 1 | FMA = 1 | ", flags) == []


def test_a_flag_one_core_lacks_counts_as_missing(tmp_path: Path) -> None:
    flags = cpu_flags(cpuinfo(tmp_path, AVX2_HOST + " avx512f", AVX2_HOST))
    assert "AVX512" in missing_features("CPU : AVX512 = 1 | ", flags)


def test_an_unreadable_cpuinfo_blocks_nothing(tmp_path: Path) -> None:
    assert cpu_flags(tmp_path / "absent") is None
    assert missing_features(AMX_BUILD, None) == []


def test_the_installed_build_runs_on_this_cpu() -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    info = llama_cpp.llama_print_system_info().decode()
    assert compiled_features(info), info  # the format is still the one we parse
    assert missing_features(info, cpu_flags()) == []


def test_a_server_on_a_cpu_without_the_build_instructions_says_how_to_rebuild(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model server checks before it loads: its status line carries the sentence."""
    llama_cpp = pytest.importorskip("llama_cpp")
    pytest.importorskip("llama_cpp.server.app")
    from agent.llm import llama_server
    from agent.llm.llama_model import fallback_model_path

    info = llama_cpp.llama_print_system_info().decode()
    built = compiled_features(info) & set(cpu_features.CPU_FLAGS)
    if not built:
        pytest.skip(f"this build names no instruction set we check: {info}")
    lacking = sorted(built)[-1]  # a CPU like this one, without one of the build's instruction sets
    flags = {f for f in cpu_features.CPU_FLAGS.values() if f != cpu_features.CPU_FLAGS[lacking]}
    monkeypatch.setattr(cpu_features, "cpu_flags", lambda cpuinfo=None: flags)
    assert llama_server.main(["--model", str(fallback_model_path()), "--n_ctx", "256"]) == 3
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith(llama_server.STATUS_PREFIX)
    error = json.loads(line.removeprefix(llama_server.STATUS_PREFIX))["error"]
    assert f"compiled for a CPU with {lacking}" in error
    assert cpu_features.REBUILD in error


def test_the_install_check_exits_1_on_a_mismatch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`make install` rebuilds llama-cpp-python when `python -m agent.llm.cpu_features` fails."""
    pytest.importorskip("llama_cpp")
    assert cpu_features.main() == 0  # the installed build runs here
    monkeypatch.setattr(cpu_features, "cpu_flags", lambda cpuinfo=None: {"pni", "ssse3"})
    assert cpu_features.main() == 1
    assert "rebuild it here" in capsys.readouterr().err
