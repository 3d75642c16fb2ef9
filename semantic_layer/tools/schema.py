"""A Pydantic input model as self-contained JSON Schema (no `$ref`), as prompts and grammars want."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model`'s JSON Schema with every `#/$defs/...` reference inlined."""
    raw = model.model_json_schema()
    resolved: dict[str, Any] = inline_refs(raw, raw.get("$defs", {}))
    resolved.setdefault("type", "object")
    resolved.setdefault("properties", {})
    return resolved


def inline_refs(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """The schema with every `#/$defs/...` reference replaced by its definition."""
    if depth > 20:
        raise ValueError("tool argument schema is too deeply nested or recursive")
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = inline_refs(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {**target, **inline_refs(rest, defs, depth + 1)}
        return {k: inline_refs(v, defs, depth + 1) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [inline_refs(v, defs, depth + 1) for v in node]
    return node
