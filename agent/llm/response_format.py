"""How each kind of server wants the step schema for constrained decoding.

- `json_schema`: OpenAI's shape, `{"type": "json_schema", "json_schema": {"name", "schema"}}`
  (vLLM, SGLang, Ollama, llama.cpp's own server).
- `tgi`: text-generation-inference's grammar, `{"type": "json", "value": schema}`; TGI turns
  OpenAI's shape down, so a TGI behind `openai+http://` must get this one.
- `json_object`: `{"type": "json_object", "schema": schema}` (llama-cpp-python's server).
- `none`: no constrained decoding; the parser does all the work.

The spec may name the shape (`openai+http://host:8000/v1?grammar=tgi`); otherwise the backend
asks the server once: TGI answers `GET /info` with its `model_id` and `router`. The spec's other
option, `tools=native`, sends the tools as OpenAI `tools` instead (`agent/llm/native_tools.py`).
"""

from __future__ import annotations

from typing import Any, Literal, cast, get_args
from urllib.parse import parse_qs, urlsplit, urlunsplit

from agent.errors import LLMConfigurationError
from agent.llm.native_tools import TOOL_MODES, ToolMode

GrammarShape = Literal["json_schema", "tgi", "json_object", "none"]
SHAPES: tuple[str, ...] = get_args(GrammarShape)
#: what to try next when a server turns a shape down (400/422), before going without
FALLBACK: dict[GrammarShape, GrammarShape] = {"json_schema": "json_object", "json_object": "none"}


def response_format(shape: GrammarShape, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The `response_format` body field for `shape`, or None to send none."""
    if shape == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "react_step", "schema": schema}}
    if shape == "tgi":
        return {"type": "json", "value": schema}
    if shape == "json_object":
        return {"type": "json_object", "schema": schema}
    return None


def split_spec(url: str) -> tuple[str, GrammarShape | None, ToolMode | None]:
    """`http://h/v1?grammar=tgi&tools=native` -> (`http://h/v1`, "tgi", "native"); an option
    left out is None."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    base = urlunsplit(parts._replace(query="", fragment="")).rstrip("/")
    grammar, tools = query.pop("grammar", []), query.pop("tools", [])
    if query:
        raise LLMConfigurationError(
            f"{url!r}: the options after '?' are grammar=, one of {', '.join(SHAPES)}, "
            f"and tools=, one of {', '.join(TOOL_MODES)}."
        )
    if grammar and grammar[-1] not in SHAPES:
        raise LLMConfigurationError(
            f"{url!r}: grammar={grammar[-1]!r} is not one of {', '.join(SHAPES)}."
        )
    if tools and tools[-1] not in TOOL_MODES:
        raise LLMConfigurationError(
            f"{url!r}: tools={tools[-1]!r} is not one of {', '.join(TOOL_MODES)}."
        )
    shape = cast(GrammarShape, grammar[-1]) if grammar else None
    return base, shape, cast(ToolMode, tools[-1]) if tools else None


def is_tgi_info(info: object) -> bool:
    """Whether a `GET /info` reply comes from text-generation-inference."""
    return isinstance(info, dict) and "model_id" in info and ("router" in info or "version" in info)
