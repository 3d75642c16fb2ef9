"""The MovieLens import: `movieagent import`."""
