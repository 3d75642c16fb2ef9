"""Greedy grammar-constrained sampling that asks the grammar about one token first.

llama.cpp's sampler chain (`llama_sampler_sample`) applies a grammar to every token of the
vocabulary before choosing one: for a 151,936-token vocabulary and the agent's step grammar
that is most of the time a constrained token takes on a CPU. llama.cpp's own tools
(`common_sampler_sample` in common/sampling.cpp) choose first without the grammar and ask it
about that one token, applying it to the whole vocabulary only when it refuses; llama-cpp-python
samples through the plain chain. This module does what common/sampling.cpp does, for greedy
decoding (temperature 0, as the agent asks), where it chooses the same token: the most likely
token the grammar accepts is the most likely token whenever the grammar accepts that one.

Where the grammar leaves one way on (`{"action": "`, `", "action_input": {"entity": "`), the
sampler does not ask the model at all: it takes the forced text's tokens (`forced_text`), and
`Llama.generate` evaluates them in one batch with the token chosen before them, so a run of
keys and separators costs about one step instead of one step per token. Tokens are still chosen
one at a time wherever the grammar admits more than one.

`install()` makes every `Llama` of this process sample that way when a request carries a
grammar and asks for temperature 0; anything else keeps llama-cpp-python's chain.
"""

from __future__ import annotations

import ctypes
import math
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from agent.llm.forced_text import ForcedText
from agent.llm.prompt_lookup import NGRAM, draft, install_outputs


class GrammarFirstSampler:
    """The `LlamaSampler` a greedy constrained generation uses: grammar asked last.

    `base` is the chain without the grammar (repetition penalties, greedy), `grammar` a chain
    holding only the grammar. Both accept every chosen token, as one chain would. With `forced`,
    text the grammar forces is taken without the model: `sample` returns its first token and
    queues the rest, which `Llama.generate` (see `install`) evaluates in the same batch as the
    first (`take_batch`) and then samples here one by one, from the queue.
    """

    def __init__(
        self,
        n_vocab: int,
        base: Any,
        grammar: Any,
        forced: ForcedText | None = None,
        start: Sequence[int] = (),
    ) -> None:
        import llama_cpp

        self._native = llama_cpp
        self.base, self.grammar = base, grammar
        self._n_vocab = n_vocab
        self._data = (llama_cpp.llama_token_data * n_vocab)()
        self._rows = np.ctypeslib.as_array(self._data)
        self._ids = np.arange(n_vocab, dtype=np.int32)
        self._one = (llama_cpp.llama_token_data * 1)()
        self.refusals = 0  # tokens the grammar refused, for tests and curiosity
        self.forced = forced
        self._queued: deque[int] = deque()  # forced tokens evaluated, not yet returned
        self._batch: list[int] = []  # forced tokens to evaluate with the one just returned
        self.skipped = 0  # tokens taken from the grammar without a model step
        self._start = list(start)  # forced text already evaluated with the prompt
        self._started = False

    def sample(self, ctx: Any, idx: int = -1) -> int:
        if self._queued:  # evaluated in the last batch: its logits were never computed
            return self._queued.popleft()
        # forced text at the start ('{"action": "'); later runs are found after each choice
        run = self._forced_run() if not self._started and not self._start else []
        for token in self._start if not self._started else ():
            self.accept(token)  # the prompt ended with it: choose what follows
        self._started = True
        if run:
            token, rest = run[0], run[1:]
        else:
            token = self._sample(ctx, idx)
            rest = self._forced_run()
        self._queued.extend(rest)
        self._batch = rest
        self.skipped += len(rest)
        return token

    def take_batch(self) -> list[int]:
        """The forced tokens that follow the one `sample` just returned (once)."""
        batch, self._batch = self._batch, []
        return batch

    def take_ending(self) -> list[int] | None:
        """The forced tokens queued after the last one returned when they end the generation
        (the end-of-generation token last): nothing needs evaluating any more. None otherwise."""
        if not self._queued or self.forced is None or not self.forced.is_end(self._queued[-1]):
            return None
        ending = list(self._queued)
        self._queued.clear()
        self._batch = []
        return ending

    def _forced_run(self) -> list[int]:
        """The tokens the grammar forces from here, accepted as if chosen."""
        if self.forced is None:
            return []
        run = []
        # the last token is left to the model where it can merge with what follows
        # (`ForcedText.tokens`)
        for token in self.forced.tokens(self.grammar.sampler):
            if not self._accepted(token, 0.0):  # a tokenizer oddity: stop where it strays
                break
            self.accept(token)
            run.append(token)
        return run

    def _sample(self, ctx: Any, idx: int) -> int:
        pointer = self._native.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(pointer, shape=(self._n_vocab,))
        token = self._choose(logits, self.base)
        if not self._accepted(token, float(logits[token])):
            self.refusals += 1
            token = self._choose(logits, self.grammar, self.base)
        self.accept(token)
        return token

    def _choose(self, logits: Any, *chains: Any) -> int:
        """Apply `chains` in order to the whole vocabulary; the token the last one selects."""
        rows = self._rows
        rows["id"] = self._ids
        rows["logit"] = logits
        rows["p"] = 0.0
        candidates = self._native.llama_token_data_array(
            data=self._data, size=self._n_vocab, selected=-1, sorted=False
        )
        for chain in chains:
            self._native.llama_sampler_apply(chain.sampler, ctypes.byref(candidates))
        return int(candidates.data[candidates.selected].id)

    def _accepted(self, token: int, logit: float) -> bool:
        one = self._one
        one[0] = self._native.llama_token_data(token, logit, 0.0)
        candidates = self._native.llama_token_data_array(
            data=one, size=1, selected=-1, sorted=False
        )
        self._native.llama_sampler_apply(self.grammar.sampler, ctypes.byref(candidates))
        return not math.isinf(candidates.data[0].logit)

    def accept(self, token: int) -> None:
        """Both chains take `token` (`sample` does it for the token it chooses)."""
        self._native.llama_sampler_accept(self.grammar.sampler, token)
        self._native.llama_sampler_accept(self.base.sampler, token)

    def reset(self) -> None:
        self.base.reset()
        self.grammar.reset()
        self._queued.clear()
        self._batch = []
        self._started = False

    def close(self) -> None:
        self.base.close()
        self.grammar.close()


def _grammar_last(args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
    """Whether a generation with these sampler arguments samples grammar-last: greedy and
    constrained, with nothing else in the chain that reads the whole vocabulary."""
    return (
        kwargs.get("grammar") is not None
        and not args  # llama-cpp-python passes keywords; anything else keeps its chain
        and kwargs.get("temp", 0.8) == 0.0
        and not kwargs.get("mirostat_mode", 0)
        and kwargs.get("logits_processor") is None
    )


def _forced_start(llm: Any, args: Sequence[Any], kwargs: dict[str, Any]) -> list[int]:
    """The tokens the grammar forces before the first choice (`{"action": "`), to evaluate in
    the prompt's batch, where a token costs a fraction of a batch of its own; [] where
    sampling is not grammar-last, or generation could end within them."""
    if not _grammar_last(args, kwargs) or llm.draft_model is not None:
        return []
    from llama_cpp._internals import LlamaSampler

    finder = ForcedText.of(llm._model)
    if finder is None:
        return []
    probe = LlamaSampler()
    try:
        probe.add_grammar(llm._model, kwargs["grammar"])
        start = finder.tokens(probe.sampler)
    finally:
        probe.close()
    return [] if any(finder.is_end(t) for t in start) else start


def _drafting(llm: Any, at: int, token: int) -> bool:
    """Whether a draft may follow `token`, written at `at`: drafting is on (the server sets
    `_prompt_lookup`) and no drafted token after it is still to be checked (the KV cache ends
    here, or the token differs from the one drafted for its place, which `Llama.generate` then
    drops)."""
    if not getattr(llm, "_prompt_lookup", False) or llm.draft_model is not None:
        return False  # off, or llama-cpp-python drafts itself (`--draft_model`)
    if llm._logits_all:  # it keeps every token's logits (log-probabilities): left as it is
        return False
    return at >= llm.n_tokens or int(llm.input_ids[at]) != token


def _draft(llm: Any, fresh: Sequence[int], written_from: int, at: int, token: int) -> list[int]:
    """A prompt-lookup draft to evaluate with `token` (`prompt_lookup.draft`) from `fresh`,
    the prompt's tokens this request added (the question, the Observation: not the
    instructions' examples, which a thought would copy from wrongly), its logits asked for at
    every position."""
    written = [*(int(t) for t in llm.input_ids[max(written_from, at - NGRAM) : at]), token]
    drafted = draft(written, fresh)
    room = llm._n_ctx - at - 1
    drafted = drafted[: max(0, min(room, llm.n_batch - 1))]
    for i, piece in enumerate(drafted):  # a quote ends a string of the Observation's JSON,
        if b'"' in llm.detokenize([piece]):  # which the answer's string cannot write as is
            drafted = drafted[:i]
            break
    llm._draft_outputs = bool(drafted)
    return drafted


def install() -> None:
    """Make `Llama` sample greedy constrained generations grammar-last (idempotent)."""
    from llama_cpp import Llama
    from llama_cpp._internals import LlamaSampler

    original = Llama._init_sampler
    if getattr(original, "grammar_first", False):
        return

    def _init_sampler(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not _grammar_last(args, kwargs):
            return original(self, *args, **kwargs)
        base = original(self, **{**kwargs, "grammar": None})
        only_grammar = LlamaSampler()
        only_grammar.add_grammar(self._model, kwargs["grammar"])
        forced = ForcedText.of(self._model) if self.draft_model is None else None
        start = getattr(self, "_forced_start", ())
        return GrammarFirstSampler(self.n_vocab(), base, only_grammar, forced, start)

    original_generate = Llama.generate

    def generate(self: Any, tokens: Any, *args: Any, **kwargs: Any) -> Iterator[int]:
        """`Llama.generate`, handing it the forced tokens to evaluate with each chosen one
        (the generator's own protocol: tokens sent in are evaluated with the last one; its
        callers in llama-cpp-python send none). The text forced at the start is evaluated
        with the prompt, in its batch; forced text that ends the generation is not
        evaluated at all."""
        start = _forced_start(self, args, kwargs)
        self._forced_start = start  # read by `_init_sampler`, which `original_generate` calls
        prompt = [*tokens, *start]
        cached = Llama.longest_token_prefix(self._input_ids, prompt)  # what the KV cache holds
        fresh = prompt[cached:]  # what this request gives the model to read
        self._draft_outputs = False  # a draft of a generation that stopped is not this one's
        inner = original_generate(self, prompt, *args, **kwargs)
        extra: list[int] | None = None
        at = len(prompt)  # where the next token the inner generator yields sits
        while True:
            try:
                token = inner.send(extra)
            except StopIteration:
                return
            if start:  # evaluated with the prompt; the caller still gets them, first
                yield from start
                start = []
            sampler = self._sampler
            grammar_last = isinstance(sampler, GrammarFirstSampler)
            ending = sampler.take_ending() if grammar_last else None
            if ending is not None:  # the rest is forced and ends here: no model step
                inner.close()
                yield token
                yield from ending
                return
            batch = sampler.take_batch() if grammar_last else []
            if grammar_last and not batch and _drafting(self, at, token):
                batch = _draft(self, fresh, len(prompt), at, token)
            at += 1
            sent = yield token
            extra = batch or sent

    install_outputs(Llama)
    _init_sampler.grammar_first = True  # type: ignore[attr-defined]
    generate.grammar_first = True  # type: ignore[attr-defined]
    Llama._init_sampler = _init_sampler  # type: ignore[method-assign]
    Llama.generate = generate  # type: ignore[method-assign,assignment]
