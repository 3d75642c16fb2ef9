"""JSON-schema grammars that space JSON as `json.dumps` does: `{"a": 1, "b": [2, 3]}`.

llama-cpp-python's converter (`json_schema_to_gbnf`, a port of llama.cpp's) lets an optional
space follow every brace, bracket, comma, colon and value. Models write one layout anyway, the
one of Python's `json.dumps` that fills their training data, but an optional space means the
grammar admits two continuations at each of those places, so no run of keys and separators is
ever forced and none can be skipped (`forced_text`). Here the space after a comma and after a
colon is written into the rule and every other one is gone: the same JSON values, one layout.

The converter writes separators as `"," space` and `":" space` and the space rule as `space ::=
...`; a grammar that does not look so (another version's converter) is left as it was.
"""

from __future__ import annotations

import re
from typing import Any

_SPACE_RULE = re.compile(r"^space ::= .*$", re.MULTILINE)


def dumps_spacing(gbnf: str) -> str:
    """`gbnf` with `json.dumps`'s spacing, or unchanged when its rules are not the
    converter's."""
    if not _SPACE_RULE.search(gbnf) or '":" space' not in gbnf:
        return gbnf
    spaced = gbnf.replace('"," space', '", "').replace('":" space', '": "')
    return _SPACE_RULE.sub('space ::= ""', spaced)


def install() -> None:
    """Make `LlamaGrammar.from_json_schema` build grammars with `json.dumps`'s spacing."""
    from llama_cpp import llama_grammar

    grammar = llama_grammar.LlamaGrammar
    if getattr(grammar.from_json_schema, "dumps_spacing", False):
        return

    def from_json_schema(cls: Any, json_schema: str, verbose: bool = True) -> Any:
        gbnf = dumps_spacing(llama_grammar.json_schema_to_gbnf(json_schema))
        return cls.from_string(gbnf, verbose=verbose)

    from_json_schema.dumps_spacing = True  # type: ignore[attr-defined]
    grammar.from_json_schema = classmethod(from_json_schema)  # type: ignore[assignment,method-assign]
