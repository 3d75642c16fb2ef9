"""The text a grammar admits next and nothing else: what constrained decoding can skip.

After `{"action": "film_facts` the step grammar leaves one way on, `", "action_input": {"`;
writing it token by token costs a model step for each. `ForcedText` asks the grammar, byte by
byte, whether one byte is the only one it admits: it offers the grammar, on a copy of its state,
one token per byte value (a token whose text is that byte alone) plus an end-of-generation
token, and follows the byte while it is the only one admitted. A byte no token holds cannot be
written and needs no probe; a vocabulary whose tokens hold a byte without a token of its own
cannot be probed (`of` gives None). The bytes found, cut at the last whole UTF-8 character,
are tokenized as the model's tokenizer writes them; where nothing but the end of generation
may follow them, the end-of-generation token comes last. The grammar of the generation itself
is not touched.

This is SGLang's "jump-forward decoding" for llama.cpp's grammars: the tokens found are
evaluated in one batch with the token chosen before them (`grammar_first`), which on a CPU costs
a fraction of a step each.
"""

from __future__ import annotations

import ctypes
import weakref
from typing import Any

import numpy as np

MAX_BYTES = 256  # a forced run is a few keys and separators; a bound all the same
_CONTINUATIONS = (b"Heat", b"the", b"information", b"4")  # words and numbers a model writes
_FOUND: weakref.WeakKeyDictionary[Any, ForcedText | None] = weakref.WeakKeyDictionary()


class ForcedText:
    """Finds forced continuations for one model's vocabulary (`of(model)`: one per model)."""

    def __init__(self, model: Any, byte_tokens: dict[int, int]) -> None:
        import llama_cpp

        self._native = llama_cpp
        self._model = model
        self._bytes = sorted(byte_tokens)
        self._tokens = [byte_tokens[b] for b in self._bytes]
        self._tokens.append(llama_cpp.llama_vocab_eos(model.vocab))
        self._eog = len(self._bytes)  # its row in the probe
        self._probe = (llama_cpp.llama_token_data * len(self._tokens))()
        self._rows = np.ctypeslib.as_array(self._probe)  # the probe's fields, as numpy columns
        self._rows["id"] = self._tokens

    @classmethod
    def of(cls, model: Any) -> ForcedText | None:
        """The finder for `model` (a llama-cpp-python `LlamaModel`), or None when its
        vocabulary cannot be probed byte by byte."""
        if model not in _FOUND:
            tokens = single_byte_tokens(model)
            _FOUND[model] = cls(model, tokens) if tokens is not None else None
        return _FOUND[model]

    def tokens(self, grammar: Any) -> list[int]:
        """The model's tokens for the text `grammar` (a llama.cpp sampler chain holding the
        grammar) admits next and nothing else, less the last one unless the text ends where the
        tokenizer splits off whatever word or number follows (`_splits_after`); [] when the
        grammar admits a choice. The last token left out is the model's to write: it may merge
        with what follows (' {"' is one token; after a lone ' {' the model closes the object).
        Where the grammar admits nothing after the text, all of it is taken and the end of
        generation follows (`is_end`): no model step is needed to close a finished object."""
        text, following, ends = self._follow(grammar)
        tokens = self._tokenize(text) if text else []
        if ends:  # nothing can follow the text: all of it, and the end of generation
            return [*tokens, self._tokens[self._eog]]
        if not tokens:
            return []
        return tokens if self._splits_after(text, tokens, following) else tokens[:-1]

    def text(self, grammar: Any) -> bytes:
        """The bytes `grammar` admits next and nothing else."""
        return self._follow(grammar)[0]

    def is_end(self, token: int) -> bool:
        """Whether `token` is the end of generation `tokens` appends where nothing follows."""
        return token == self._tokens[self._eog]

    def _follow(self, grammar: Any) -> tuple[bytes, set[int], bool]:
        """The forced bytes, cut at the last whole character; the bytes admitted after them
        (none when the text was cut, or generation may end there); whether generation must end
        right after them (the grammar is complete and admits nothing more)."""
        native = self._native
        state = native.llama_sampler_clone(grammar)
        forced = bytearray()
        following: set[int] = set()
        ends = False
        try:
            while len(forced) < MAX_BYTES:
                admitted = self._admitted(state)
                if len(admitted) != 1 or admitted[0] == self._eog:
                    if self._eog not in admitted:
                        following = {self._bytes[i] for i in admitted}
                    ends = admitted == [self._eog]
                    break
                forced.append(self._bytes[admitted[0]])
                native.llama_sampler_accept(state, self._tokens[admitted[0]])
        finally:
            native.llama_sampler_free(state)
        whole = whole_utf8(forced)
        if whole != len(forced):
            return bytes(forced[:whole]), set(), False
        return bytes(forced), following, ends

    def _splits_after(self, text: bytes, tokens: list[int], following: set[int]) -> bool:
        """Whether the model's tokenizer ends a token where `text` ends whatever word or number
        the model writes next: `text` ends in punctuation (`": "`, `{"`), a letter or digit
        may follow (a name, a value: free text, not a choice of separators), and the
        tokenizer splits the text from such a continuation as it splits it alone (byte-level
        BPE with a pre-tokenizer does; a tokenizer that merges across does not pass)."""
        last = text[-1]
        if last >= 0x80 or chr(last).isalnum() or chr(last).isspace() or last == ord("'"):
            return False
        if not any(b < 0x80 and chr(b).isalnum() for b in following):
            return False  # only separators may follow (',' or '}'): the model's choice
        return all(self._tokenize(text + word)[: len(tokens)] == tokens for word in _CONTINUATIONS)

    def _tokenize(self, text: bytes) -> list[int]:
        return list(self._model.tokenize(text, add_bos=False, special=False))

    def _admitted(self, state: Any) -> list[int]:
        """The probe's rows the grammar in `state` admits."""
        rows = self._rows
        rows["logit"] = 0.0  # the grammar sets what it refuses to -inf, in place
        rows["p"] = 0.0
        candidates = self._native.llama_token_data_array(
            data=self._probe, size=len(rows), selected=-1, sorted=False
        )
        self._native.llama_sampler_apply(state, ctypes.byref(candidates))
        return [int(i) for i in np.flatnonzero(~np.isinf(rows["logit"]))]


def single_byte_tokens(model: Any) -> dict[int, int] | None:
    """For each byte some token holds, a token whose text is that byte alone; None when a
    token holds a byte that has no such token (under half a second for 150,000 tokens)."""
    import llama_cpp

    alone: dict[int, int] = {}
    held: set[int] = set()
    size = 256
    buffer = ctypes.create_string_buffer(size)
    for token in range(llama_cpp.llama_vocab_n_tokens(model.vocab)):
        n = llama_cpp.llama_token_to_piece(model.vocab, token, buffer, size, 0, False)
        if n < 0:  # longer than any token text we know of: it cannot be checked
            return None
        piece = buffer.raw[:n]
        if n == 1:
            alone.setdefault(piece[0], token)
        held.update(piece)
    return alone if held <= alone.keys() else None


def whole_utf8(data: bytes | bytearray) -> int:
    """The length of `data` up to its last whole UTF-8 character."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte & 0xC0 != 0x80:  # a lead byte (or ASCII): does its character end here?
            size = (
                1 if byte < 0x80 else 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4
            )
            return end if size == back else end - back
    return end
