"""Whether the installed llama.cpp was compiled for instructions this CPU has.

`pip install llama-cpp-python` compiles llama.cpp for the CPU it runs on (`-march=native`), and
pip caches the wheel. A cache shared between machines (a home folder that moves from host to
host, a copied virtual environment) can hand an AVX-512 build to a CPU without AVX-512: the
first matrix product then dies of an illegal instruction (SIGILL). llama.cpp says what it was
compiled with (`llama_print_system_info`: "AVX512 = 1 | ..."), the kernel says what the CPU has
(`/proc/cpuinfo` flags); comparing the two turns that crash into a sentence before the model
loads.
"""

from __future__ import annotations

import sys
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")

# llama.cpp's name for an instruction set -> the /proc/cpuinfo flag that says the CPU has it
CPU_FLAGS = {
    "SSE3": "pni",
    "SSSE3": "ssse3",
    "AVX": "avx",
    "AVX2": "avx2",
    "AVX_VNNI": "avx_vnni",
    "F16C": "f16c",
    "FMA": "fma",
    "BMI2": "bmi2",
    "AVX512": "avx512f",
    "AVX512_VBMI": "avx512vbmi",
    "AVX512_VNNI": "avx512_vnni",
    "AVX512_BF16": "avx512_bf16",
    "AMX_INT8": "amx_int8",
}

REBUILD = (
    "pip install --force-reinstall --no-deps --no-cache-dir --no-binary llama-cpp-python "
    "llama-cpp-python"
)


def cpu_flags(cpuinfo: Path = CPUINFO) -> set[str] | None:
    """The flags every core of this CPU advertises; None where /proc/cpuinfo cannot be read."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return None
    per_core = [
        set(line.partition(":")[2].split())
        for line in text.splitlines()
        if line.startswith("flags")
    ]
    return set.intersection(*per_core) if per_core else None


def compiled_features(system_info: str) -> set[str]:
    """The instruction sets llama.cpp's system info marks `= 1` ("AVX2 = 1 | F16C = 1 | ...")."""
    found = set()
    for part in system_info.replace("\n", "|").split("|"):
        name, _, value = part.rpartition("=")
        name = name.rpartition(":")[2].strip()  # "CPU : SSE3" -> "SSE3"
        if name and value.strip() == "1":
            found.add(name)
    return found


def missing_features(system_info: str, flags: set[str] | None) -> list[str]:
    """The instruction sets the build uses that this CPU lacks (none when unknown)."""
    if flags is None:
        return []
    built = compiled_features(system_info)
    return sorted(name for name, flag in CPU_FLAGS.items() if name in built and flag not in flags)


def mismatch_sentence(missing: list[str]) -> str:
    """What to do when the build needs instructions the CPU lacks."""
    return (
        f"llama-cpp-python was compiled for a CPU with {', '.join(missing)}, which this CPU lacks "
        "(a wheel built on another machine, e.g. from a shared pip cache): rebuild it here with "
        f"`{REBUILD}`, or point MOVIEAGENT_LLM at a server (tgi+http://... or openai+http://...)."
    )


def check_build(system_info: str, cpuinfo: Path = CPUINFO) -> str | None:
    """The sentence to show when this llama.cpp build cannot run on this CPU, else None."""
    missing = missing_features(system_info, cpu_flags(cpuinfo))
    return mismatch_sentence(missing) if missing else None


def main() -> int:
    """`python -m agent.llm.cpu_features`: exit 1 (and say so) when the build cannot run here.

    `make install` runs it after pip and rebuilds llama-cpp-python for this CPU on exit 1 (or
    on a crash while importing it, which is the same mismatch)."""
    try:
        from llama_cpp import llama_print_system_info
    except ImportError:
        return 0  # nothing to check: the llamacpp extra is not installed
    mismatch = check_build(llama_print_system_info().decode(errors="replace"))
    if mismatch:
        print(mismatch, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
