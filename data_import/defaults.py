"""The import's defaults that `movieagent import --help` shows, in a module that imports
nothing (so `movieagent --help` does not load the importer)."""

DEFAULT_URL = "https://files.grouplens.org/datasets/movielens/ml-latest-small.zip"
# A graph that loads in bulk takes the bulk path into an empty graph, or above this many ratings (it then rebuilds
# the graph); otherwise batched MERGE updates the graph in place and keeps what else it holds.
BULK_THRESHOLD = 1_000_000
