"""The agent's own time per turn stays far below the 50 ms p95 target."""

from __future__ import annotations

from benchmarks.agent_loop import main


def test_overhead_per_turn_is_small() -> None:
    figures = main(turns=40)
    assert figures["llm_calls_per_question"] == 2
    assert figures["overhead_ms_p95"] < 50
    # SmolLM2 tokens: the static prompt (instructions, tools, worked examples) is about 2,100
    assert 100 < figures["prompt_tokens_first_call"] < figures["prompt_tokens_second_call"] < 2600
