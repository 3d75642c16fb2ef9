"""movieagent: a movie-recommendation chat agent over a graph database, built as a semantic layer."""

__version__ = "0.1.0"
