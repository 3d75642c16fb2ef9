"""The agent's defaults that the command line shows in `--help`, in a module that imports
nothing (so `movieagent --help` does not load the agent)."""

DEFAULT_MAX_STEPS = 5  # model calls per question
