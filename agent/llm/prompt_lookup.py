"""Prompt-lookup drafts: the tokens an answer is about to copy from the Observation.

An answer copies titles and years from the Observation it reads ("Reservoir Dogs (1992)"), and
the instrument model's tokenizer writes a year as one token per digit, so a list of five films
spends about thirty model steps on their years alone. Where the last tokens written occur in the
end of the prompt (the question and the Observation), the tokens that follow them there are a
draft: `grammar_first` evaluates it in one batch with the token just chosen, with logits at
every position, and `Llama.generate`'s own loop keeps the drafted tokens the model would have
chosen anyway and drops the rest from the KV cache. Greedy decoding writes the same text with
or without drafts (up to the batch kernels' rounding).

Drafts are short and only follow a match of several tokens: on two CPU cores a batch of seven
tokens costs about three single steps (measured at a 3,000-token context: 1 token 93 ms, 3
tokens 170 ms, 7 about 280 ms), so a draft pays when most of it is kept, as a year or the rest
of a title is, and a long draft that is dropped costs more than it could save.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

NGRAM = 3  # the last tokens written that must occur in the prompt's end
MOST = 6  # drafted tokens at most
RECENT = 700  # how far back from the prompt's end a match is looked for (the Observation)


def draft(
    written: Sequence[int],
    prompt: Sequence[int],
    *,
    ngram: int = NGRAM,
    most: int = MOST,
    recent: int = RECENT,
) -> list[int]:
    """The tokens that follow the latest occurrence of `written`'s last `ngram` tokens in the
    last `recent` tokens of `prompt` (at most `most`, not past the prompt's end); [] where
    they do not occur."""
    if len(written) < ngram or most < 1:
        return []
    tail = list(written[-ngram:])
    start = max(0, len(prompt) - recent)
    region = list(prompt[start:])
    for at in range(len(region) - ngram - 1, -1, -1):  # the latest occurrence first
        if region[at : at + ngram] == tail:
            return region[at + ngram : at + ngram + most]
    return []


def install_outputs(llama_class: Any) -> None:
    """Let `Llama.eval` compute logits at every position of one batch (`_draft_outputs` set
    on the instance), where llama-cpp-python computes them for the last position only unless
    the model was loaded with `logits_all` (which makes every prompt's prefill compute them
    too). Idempotent."""
    original = llama_class.eval
    if getattr(original, "draft_outputs", False):
        return

    def eval_with_outputs(self: Any, tokens: Sequence[int]) -> None:
        outputs, self._draft_outputs = getattr(self, "_draft_outputs", False), False
        if not outputs or len(tokens) > self.n_batch:
            return original(self, tokens)
        self._ctx.kv_cache_seq_rm(-1, self.n_tokens, -1)
        batch = list(tokens)
        self._batch.set_batch(batch=batch, n_past=self.n_tokens, logits_all=True)
        self._ctx.decode(self._batch)
        self.input_ids[self.n_tokens : self.n_tokens + len(batch)] = batch
        self.n_tokens += len(batch)
        self._requires_eval = False
        return None

    eval_with_outputs.draft_outputs = True  # type: ignore[attr-defined]
    llama_class.eval = eval_with_outputs
