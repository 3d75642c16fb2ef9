"""The JSON-based ReAct agent: prompt, parsing, constrained decoding, the loop, LLM backends."""
