"""The evaluation's defaults that `movieagent eval --help` shows, in a module that imports
nothing heavy (so `movieagent --help` does not load the evaluation)."""

from pathlib import Path

# The shipped set, package data beside this module: found from any working directory.
DEFAULT_SET = Path(__file__).resolve().parent / "questions.yaml"
