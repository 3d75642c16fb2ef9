// How many ratings the graph holds (from the per-movie counts): picks the latency target.
MATCH (m:Movie)
RETURN toInteger(sum(coalesce(m.ratingCount, 0))) AS ratings
