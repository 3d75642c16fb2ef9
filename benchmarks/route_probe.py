"""Which tool the model would call, read from its probabilities: one forward pass a question.

    python -m benchmarks.route_probe --model PATH.gguf [--set PATH] [--prompts DIR [DIR ...]]

For each one-turn question of a set, the agent's own first prompt (the instructions and tools
of a prompt directory, the question and what linking found in it) is rendered with the model's
chat template and followed by the opening of a reply, `{"action": "`; the probability of each
tool's name there (its tokens, one after the other) says how the model leans. The report gives,
per question, the expected tool's share of the probability among the tools and the tool the
model leans to, then per prompt directory how many questions lean the expected way.

It reads no argument and writes no answer, so it measures routing only, in about three seconds a
question on 2 cores (the static prefix is computed once per prompt directory), where `movieagent
eval` takes minutes. Its use: comparing prompt variants (copies of `agent/prompts`, edited) on a
development set before running the full evaluation on the one that wins. Never tune on held-out
questions with it: it is as good at overfitting a set as any other loop.

Needs llama-cpp-python (the `llamacpp` extra) and the imported graph of `MOVIEAGENT_DATA_DIR`
(linking reads it). Without `--model` it says so and exits 0: the measuring model is never a
dependency.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.prompt import PROMPTS_DIR, ReactPrompt
from evaluation.questions import DEFAULT_SET, Question, load_questions
from movieagent.stop_signals import stop_like_ctrl_c

REPLY_OPENING = '{"action": "'
FINAL = "Final Answer"  # the other action a first reply may take: no tool


@dataclass(frozen=True)
class Leaning:
    """Where one question's first reply leans: each tool's share of the probability."""

    question: Question
    shares: dict[str, float]

    @property
    def chosen(self) -> str:
        return max(self.shares, key=lambda name: self.shares[name])

    @property
    def expected_share(self) -> float:
        return sum(share for name, share in self.shares.items() if name in self._accepted())

    @property
    def right(self) -> bool:
        return self.chosen in self._accepted()

    def _accepted(self) -> set[str]:
        return {tool or FINAL for tool, _ in self.question.expect.accepted()}


class Scorer:
    """Log-probabilities of continuations of a prompt, reusing the KV cache between prompts
    that share a prefix (the static instructions)."""

    def __init__(self, model: Path, threads: int, context: int) -> None:
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        from agent.llm.llama_server import safe_buffer_types

        with safe_buffer_types():  # as the app loads it: no AMX kernels (they crash)
            self.llm = Llama(model_path=str(model), n_ctx=context, n_threads=threads, verbose=False)
        template = self.llm.metadata.get("tokenizer.chat_template")
        if not template:
            raise SystemExit(f"{model} carries no chat template: the prompt cannot be rendered")
        eos = self.llm.detokenize([self.llm.token_eos()]).decode(errors="replace")
        self.format = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token="")

    def render(self, messages: Sequence[Any]) -> str:
        chat = [{"role": m.role, "content": m.content} for m in messages]
        return self.format(messages=chat).prompt

    def log_probs(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """The log-probability of each continuation (its tokens in turn) after `prompt`."""
        tokens = self.llm.tokenize(prompt.encode(), add_bos=False, special=True)
        self._eval_from_common_prefix(tokens)
        base, after_prompt = self.llm.n_tokens, self._last_log_softmax()
        scores = []
        for text in continuations:
            self.llm.n_tokens = base  # back to the prompt: eval drops the cache after it
            tokens = self.llm.tokenize(text.encode(), add_bos=False, special=False)
            total = float(after_prompt[tokens[0]])  # the logits now are of the last eval
            for previous, token in itertools.pairwise(tokens):
                self.llm.eval([previous])
                total += float(self._last_log_softmax()[token])
            scores.append(total)
        self.llm.n_tokens = base
        return scores

    def _eval_from_common_prefix(self, tokens: list[int]) -> None:
        cached = self.llm.input_ids[: self.llm.n_tokens].tolist()
        common = 0
        for a, b in zip(cached, tokens, strict=False):
            if a != b:
                break
            common += 1
        self.llm.n_tokens = min(common, len(tokens) - 1)  # the last token's logits are needed
        self.llm.eval(tokens[self.llm.n_tokens :])

    def _last_log_softmax(self) -> Any:
        import numpy as np

        raw = self.llm._ctx.get_logits_ith(-1)  # logits_all is off: only the last row is kept
        logits = np.ctypeslib.as_array(raw, shape=(self.llm.n_vocab(),)).astype(np.float64)
        shifted = logits - logits.max()
        return shifted - math.log(float(np.exp(shifted).sum()))


def lean(
    scorer: Scorer, prompt: ReactPrompt, tool_names: Sequence[str], question: Question, graph: Any
) -> Leaning:
    from semantic_layer.linking.linker import link

    messages = prompt.messages(question.question, linked=link(graph, question.question))
    names = [*tool_names, FINAL]
    # a name that begins another is scored with its closing quote, which sets it apart
    ends = [f'{n}"' if any(o != n and o.startswith(n) for o in names) else n for n in names]
    scores = scorer.log_probs(scorer.render(messages) + REPLY_OPENING, ends)
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    shares = {n: w / total for n, w in zip(names, weights, strict=True)}
    return Leaning(question, shares)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="a GGUF model (the instrument model)")
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="question set (.yaml)")
    parser.add_argument("--ids", default="", help="comma-separated question ids (default: all)")
    parser.add_argument(
        "--prompts", type=Path, nargs="+", default=[PROMPTS_DIR], help="prompt directories"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--context", type=int, default=8192)
    args = parser.parse_args(argv)
    if args.model is None:
        print("route_probe: no --model given; nothing measured (the model is never a dependency)")
        return 0
    from semantic_layer.graph import connect
    from semantic_layer.tools import build_tools

    wanted = {i for i in args.ids.split(",") if i}
    questions = [
        q
        for q in load_questions(args.set).questions
        if not q.history and not q.ratings and (not wanted or q.id in wanted)
    ]
    tools = build_tools()
    names = [t.name for t in tools]
    scorer = Scorer(args.model, args.threads, args.context)
    summary = []
    with connect() as graph:
        for directory in args.prompts:
            prompt = ReactPrompt(tools, directory)
            leanings = []
            for question in questions:
                leaning = lean(scorer, prompt, names, question, graph)
                leanings.append(leaning)
                mark = "ok " if leaning.right else "BAD"
                ranked = sorted(leaning.shares.items(), key=lambda item: -item[1])[:2]
                lean_to = ", ".join(f"{name} {share:.2f}" for name, share in ranked)
                print(
                    f"{directory.name[-16:]:>16} {mark} p(expected)={leaning.expected_share:.2f} "
                    f"({lean_to}) {question.id}: {question.question}",
                    flush=True,
                )
            right = sum(leaning.right for leaning in leanings)
            mean = sum(leaning.expected_share for leaning in leanings) / max(1, len(leanings))
            summary.append(f"{directory}: {right} of {len(leanings)} lean to an expected tool, "
                           f"mean p(expected) {mean:.2f}")  # fmt: skip
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    stop_like_ctrl_c()  # SIGTERM unwinds as Ctrl-C: the graph server it started stops
    sys.exit(main())
