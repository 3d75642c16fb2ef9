"""Recommendation inside constraints: what must hold (`constraints`), the user's taste
(`taste`), the ranking (`ranking`) and the reasons given (`reasons`). The `recommender` tool
(`semantic_layer.tools.recommender`) resolves names and puts these together."""
