"""The agent loop's own benchmark runs end to end: two LLM calls per question, and a static
prompt (instructions, tools, worked examples) that stays within its budget. Its time per turn
is a figure the benchmark prints (`python -m benchmarks.agent_loop`), not a test's assertion."""

from __future__ import annotations

from benchmarks.agent_loop import main


def test_the_loop_benchmark_runs_and_the_prompt_stays_within_budget() -> None:
    figures = main(turns=40)
    assert figures["llm_calls_per_question"] == 2
    assert (
        figures["overhead_ms_p50"] > 0 and figures["overhead_ms_p95"] >= figures["overhead_ms_p50"]
    )
    # SmolLM2 tokens: the static prompt (instructions, tools, worked examples) is about 2,700
    assert 100 < figures["prompt_tokens_first_call"] < figures["prompt_tokens_second_call"] < 2900
