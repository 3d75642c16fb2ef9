"""The header of a declared tool: YAML between `// ---` lines at the top of a `.cypher` file.

    // ---
    // name: top_movies_by_director
    // description: The director's films, best-rated first.
    // mode: read                      # optional; `write` lets the query change the graph
    // params:
    //   director: {type: person, description: "The director's name"}
    //   limit: {type: integer, description: How many movies, default: 10, min: 1, max: 25}
    // ---
    MATCH (p:Person {name: $director})-[:DIRECTED]->(m:Movie) ...

Parameter types: string, integer, number, boolean, and four resolved ones: `movie` (the
user's title is resolved like the built-in tools do; the query gets the movieId), `person`
(the query gets the exact name), `genre` (one of the MovieLens genres, any case) and `tag` (a
tag viewers gave movies, in lower case as the graph holds it: the agent offers only the tags
the question names, so a tool that needs one is not offered when it names none). Fields:
description (required), default, enum (string/integer/number), min and max
(integer/number). `$userId` is bound to the session user and is not declared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

import yaml

from semantic_layer.errors import ToolDeclarationError

ParamType = Literal["string", "integer", "number", "boolean", "movie", "person", "genre", "tag"]
PARAM_TYPES: tuple[str, ...] = get_args(ParamType)
SESSION_PARAMS = frozenset({"userId"})
_FENCE = re.compile(r"^//\s*---\s*$")
_NAME = re.compile(r"^[a-z][a-z0-9_]{1,47}$")
_PARAM = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_USED = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_TOOL_KEYS = {"name", "description", "mode", "params"}
_PARAM_KEYS = {"type", "description", "default", "enum", "min", "max"}


@dataclass(frozen=True)
class ParamSpec:
    name: str
    type: ParamType
    description: str
    default: Any = None
    required: bool = True
    enum: list[Any] | None = None
    min: float | None = None
    max: float | None = None


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    cypher: str
    path: Path
    mode: Literal["read", "write"] = "read"
    params: list[ParamSpec] = field(default_factory=list)


def parse_tool_file(path: Path) -> ToolSpec:
    """The tool a `.cypher` file declares, or `ToolDeclarationError` naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ToolDeclarationError(f"{path}: cannot read the tool file: {e}") from e
    return _Parser(path, lines).parse()


class _Parser:
    def __init__(self, path: Path, lines: list[str]) -> None:
        self.path = path
        self.lines = lines
        self.start = 0  # index of the opening fence
        self.end = 0  # index of the closing fence

    def fail(self, line_index: int, problem: str) -> ToolDeclarationError:
        return ToolDeclarationError(f"{self.path}:{line_index + 1}: {problem}")

    def parse(self) -> ToolSpec:
        header = self._header_lines()
        try:
            meta = yaml.safe_load("\n".join(header))
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = self.start + 1 + (mark.line if mark is not None else 0)
            problem = getattr(e, "problem", None) or str(e)
            raise self.fail(where, f"the header is not valid YAML: {problem}") from e
        if not isinstance(meta, dict):
            raise self.fail(
                self.start, "the header must be a mapping with name, description, params"
            )
        unknown = set(meta) - _TOOL_KEYS
        if unknown:
            key = sorted(unknown)[0]
            raise self.fail(
                self._line_of(key), f"unknown key {key!r}; expected {sorted(_TOOL_KEYS)}"
            )
        name = meta.get("name")
        if not isinstance(name, str) or not _NAME.match(name):
            raise self.fail(
                self._line_of("name"),
                "`name` must be lower-case letters, digits and '_' (2-48), starting with a letter",
            )
        description = meta.get("description")
        if not isinstance(description, str) or not description.strip():
            raise self.fail(
                self._line_of("description"), "`description` is required: say what the tool answers"
            )
        mode = meta.get("mode", "read")
        if mode not in ("read", "write"):
            raise self.fail(self._line_of("mode"), f"`mode` must be read or write, not {mode!r}")
        params = self._params(meta.get("params") or {})
        cypher = "\n".join(self.lines[self.end + 1 :]).strip()
        if not cypher:
            raise self.fail(self.end, "no Cypher query after the header")
        self._check_used(cypher, params)
        return ToolSpec(
            name=name,
            description=" ".join(description.split()),
            cypher=cypher,
            path=self.path,
            mode=mode,
            params=params,
        )

    def _header_lines(self) -> list[str]:
        starts = [i for i, line in enumerate(self.lines) if line.strip()]
        if not starts or not _FENCE.match(self.lines[starts[0]].strip()):
            raise self.fail(
                starts[0] if starts else 0,
                "a declared tool starts with a header between `// ---` lines",
            )
        self.start = starts[0]
        header: list[str] = []
        for i in range(self.start + 1, len(self.lines)):
            line = self.lines[i].strip()
            if _FENCE.match(line):
                self.end = i
                return header
            if not line.startswith("//"):
                raise self.fail(i, "every header line starts with `//` (close it with `// ---`)")
            text = line[2:]
            header.append(text[1:] if text.startswith(" ") else text)
        raise self.fail(self.start, "the header is not closed: add a `// ---` line after it")

    def _params(self, raw: Any) -> list[ParamSpec]:
        if not isinstance(raw, dict):
            raise self.fail(self._line_of("params"), "`params` must map each name to its fields")
        return [self._param(str(name), fields) for name, fields in raw.items()]

    def _param(self, name: str, fields: Any) -> ParamSpec:
        line = self._line_of("params", name)
        if not _PARAM.match(name) or name in SESSION_PARAMS:
            raise self.fail(line, f"{name!r} cannot be a parameter name")
        if not isinstance(fields, dict):
            raise self.fail(line, f"parameter {name!r} needs fields: type and description")
        unknown = set(fields) - _PARAM_KEYS
        if unknown:
            key = sorted(unknown)[0]
            raise self.fail(
                self._line_of("params", name, key),
                f"parameter {name!r}: unknown field {key!r}; expected {sorted(_PARAM_KEYS)}",
            )
        kind = fields.get("type")
        if kind not in PARAM_TYPES:
            raise self.fail(
                self._line_of("params", name, "type"),
                f"parameter {name!r}: type must be one of {', '.join(PARAM_TYPES)}, not {kind!r}",
            )
        description = fields.get("description")
        if not isinstance(description, str) or not description.strip():
            raise self.fail(
                line, f"parameter {name!r}: a description is required (the LLM reads it)"
            )
        enum = fields.get("enum")
        if enum is not None and (
            kind not in ("string", "integer", "number") or not isinstance(enum, list) or not enum
        ):
            raise self.fail(
                self._line_of("params", name, "enum"),
                f"parameter {name!r}: enum must be a non-empty list on a string or number type",
            )
        bounds = {k: fields.get(k) for k in ("min", "max")}
        for key, value in bounds.items():
            if value is not None and (
                kind not in ("integer", "number") or not isinstance(value, int | float)
            ):
                raise self.fail(
                    self._line_of("params", name, key),
                    f"parameter {name!r}: {key} must be a number on an integer or number type",
                )
        low, high = bounds["min"], bounds["max"]
        if low is not None and high is not None and low > high:
            raise self.fail(self._line_of("params", name, "min"), f"parameter {name!r}: min > max")
        return ParamSpec(
            name=name,
            type=kind,
            description=" ".join(description.split()),
            default=fields.get("default"),
            required="default" not in fields,
            enum=enum,
            min=low,
            max=high,
        )

    def _check_used(self, cypher: str, params: list[ParamSpec]) -> None:
        used = set(_USED.findall(cypher))
        declared = {p.name for p in params}
        missing = sorted(used - declared - SESSION_PARAMS)
        if missing:
            raise self.fail(
                self._line_of("params"),
                f"the query uses ${missing[0]}, which the header does not declare",
            )
        unused = sorted(declared - used)
        if unused:
            raise self.fail(
                self._line_of("params", unused[0]),
                f"parameter {unused[0]!r} is declared but the query never uses ${unused[0]}",
            )

    def _line_of(self, *keys: str) -> int:
        """The line of `keys` (a path like params -> limit -> min) in the header, best effort."""
        found = self.start
        position = self.start + 1
        for key in keys:
            pattern = re.compile(
                rf"^//\s*(?:\{{\s*)?{re.escape(key)}\s*:|[{{,]\s*{re.escape(key)}\s*:"
            )
            for i in range(position, self.end or len(self.lines)):
                if pattern.search(self.lines[i].strip()):
                    found, position = i, i
                    break
        return found
