"""How each kind of server wants the step schema for constrained decoding.

- `json_schema`: OpenAI's shape, `{"type": "json_schema", "json_schema": {"name", "schema"}}`
  (vLLM, SGLang, Ollama, llama.cpp's own server).
- `tgi`: text-generation-inference's grammar, `{"type": "json", "value": schema}`; TGI turns
  OpenAI's shape down, so a TGI behind `openai+http://` must get this one.
- `json_object`: `{"type": "json_object", "schema": schema}` (llama-cpp-python's server).
- `none`: no constrained decoding; the parser does all the work.

The spec may name the shape (`openai+http://host:8000/v1?grammar=tgi`); otherwise the backend
asks the server once: TGI answers `GET /info` with its `model_id` and `router`.
"""

from __future__ import annotations

from typing import Any, Literal, cast, get_args
from urllib.parse import parse_qs, urlsplit, urlunsplit

from agent.errors import LLMConfigurationError

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


def split_grammar(url: str) -> tuple[str, GrammarShape | None]:
    """`http://h/v1?grammar=tgi` -> (`http://h/v1`, "tgi"); no query -> (url, None)."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    base = urlunsplit(parts._replace(query="", fragment="")).rstrip("/")
    values = query.pop("grammar", [])
    if query:
        raise LLMConfigurationError(
            f"{url!r}: the only option after '?' is grammar=, one of {', '.join(SHAPES)}."
        )
    if not values:
        return base, None
    if values[-1] not in SHAPES:
        raise LLMConfigurationError(
            f"{url!r}: grammar={values[-1]!r} is not one of {', '.join(SHAPES)}."
        )
    return base, cast(GrammarShape, values[-1])


def is_tgi_info(info: object) -> bool:
    """Whether a `GET /info` reply comes from text-generation-inference."""
    return isinstance(info, dict) and "model_id" in info and ("router" in info or "version" in info)
