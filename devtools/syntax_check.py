"""Syntax-check the Neo4j-facing Cypher files without a Neo4j server.

    python -m devtools.syntax_check cypher

Every `.cypher` file under the folder is checked, except those in another backend's dialect
folder (FalkorDB's, run by the tests on the embedded FalkorDB). Leading `//` comment lines (a declared
tool's header) are skipped.

No PyPI parser covers the Cypher we write on its own, so two are used and a query passes when
either accepts it; real mistakes (`MATCH (n RETURN n`, `RETRUN`) are rejected by both:

- `antlr4-cypher` (openCypher ANTLR grammar): cannot chain `WITH ... WITH` and has no DDL;
- `graphglot` (Neo4j dialect): rejects `[:A|B]` and keywords used as map keys.

Both reject reserved words as parameter names (`$limit`, valid in Neo4j), so every parameter
name is replaced by a placeholder of the same length before parsing (columns stay right).
Neither parses `CREATE FULLTEXT INDEX`, so schema commands get a narrow check instead: the
statement must match one of the Neo4j 5 forms in `DDL_FORMS`.

Prints `file:line:column: message` per error and exits non-zero if there is any.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from semantic_layer.settings import Backend

SKIP_DIRS = tuple(b for b in get_args(Backend) if b != "neo4j")  # other dialects
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_NAME = r"(?:[A-Za-z_][A-Za-z0-9_]*|`[^`]+`)"
_PROP = rf"{_NAME}\.{_NAME}"
_IF_NOT_EXISTS = r"(?:\s+IF\s+NOT\s+EXISTS)?"
DDL_FORMS = {
    "range index": re.compile(
        rf"CREATE\s+(?:RANGE\s+)?INDEX(?:\s+{_NAME})?{_IF_NOT_EXISTS}\s+FOR\s+"
        rf"\(\s*{_NAME}\s*:\s*{_NAME}\s*\)\s+ON\s+\(\s*{_PROP}(?:\s*,\s*{_PROP})*\s*\)",
        re.IGNORECASE,
    ),
    "full-text index": re.compile(
        rf"CREATE\s+FULLTEXT\s+INDEX(?:\s+{_NAME})?{_IF_NOT_EXISTS}\s+FOR\s+"
        rf"\(\s*{_NAME}\s*:\s*{_NAME}(?:\s*\|\s*{_NAME})*\s*\)\s+ON\s+EACH\s+"
        rf"\[\s*{_PROP}(?:\s*,\s*{_PROP})*\s*\]",
        re.IGNORECASE,
    ),
    "uniqueness constraint": re.compile(
        rf"CREATE\s+CONSTRAINT(?:\s+{_NAME})?{_IF_NOT_EXISTS}\s+FOR\s+"
        rf"\(\s*{_NAME}\s*:\s*{_NAME}\s*\)\s+REQUIRE\s+"
        rf"(?:{_PROP}|\(\s*{_PROP}(?:\s*,\s*{_PROP})*\s*\))\s+IS\s+(?:UNIQUE|NOT\s+NULL|NODE\s+KEY)",
        re.IGNORECASE,
    ),
}
_DDL_START = re.compile(r"^\s*CREATE\s+(?:(?:RANGE|FULLTEXT|TEXT|POINT)\s+)?(?:INDEX|CONSTRAINT)\b",
                        re.IGNORECASE)  # fmt: skip


@dataclass(frozen=True)
class SyntaxProblem:
    path: Path
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


def check_text(text: str, path: Path) -> list[SyntaxProblem]:
    """Problems in one Cypher query (an empty list when it parses)."""
    body, offset = _strip_header(text)
    if not body.strip():
        return [SyntaxProblem(path, 1, 0, "no Cypher query in the file")]
    if _DDL_START.match(body):
        return _check_ddl(body, path, offset)
    body = _PARAMETER.sub(lambda m: "$" + "p" * len(m.group(1)), body)
    problems = _parse(body, path, offset)
    if problems and _graphglot_accepts(body):
        return []
    return problems


def _graphglot_accepts(body: str) -> bool:
    from graphglot.dialect import Dialect

    return bool(Dialect.get_or_raise("neo4j").validate(body).success)


def check_tree(root: Path) -> tuple[int, list[SyntaxProblem]]:
    """(files checked, problems) for every Neo4j-facing `.cypher` file under `root`."""
    files = [p for p in sorted(root.rglob("*.cypher"))
             if not set(p.relative_to(root).parts[:-1]) & set(SKIP_DIRS)]  # fmt: skip
    problems: list[SyntaxProblem] = []
    for path in files:
        problems += check_text(path.read_text(encoding="utf-8"), path)
    return len(files), problems


def _strip_header(text: str) -> tuple[str, int]:
    """Drop leading `//` comment and blank lines; return the rest and the lines dropped."""
    lines = text.splitlines()
    skipped = 0
    while skipped < len(lines) and (not lines[skipped].strip()
                                    or lines[skipped].lstrip().startswith("//")):  # fmt: skip
        skipped += 1
    return "\n".join(lines[skipped:]), skipped


def _check_ddl(body: str, path: Path, offset: int) -> list[SyntaxProblem]:
    statement = body.strip().rstrip(";").strip()
    if any(form.fullmatch(statement) for form in DDL_FORMS.values()):
        return []
    kinds = ", ".join(DDL_FORMS)
    return [SyntaxProblem(path, offset + 1, 0,
                          f"schema command is not a Neo4j 5 form this check knows ({kinds})")]  # fmt: skip


def _parse(body: str, path: Path, offset: int) -> list[SyntaxProblem]:
    from antlr4 import CommonTokenStream, InputStream
    from antlr4.error.ErrorListener import ErrorListener
    from antlr4_cypher import CypherLexer, CypherParser

    problems: list[SyntaxProblem] = []

    class Collect(ErrorListener):
        def syntaxError(
            self, recognizer: Any, symbol: Any, line: int, column: int, msg: str, e: Any
        ) -> None:
            problems.append(SyntaxProblem(path, line + offset, column, msg))

    lexer = CypherLexer(InputStream(body))
    parser = CypherParser(CommonTokenStream(lexer))
    for part in (lexer, parser):
        part.removeErrorListeners()
        part.addErrorListener(Collect())
    parser.script()
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "cypher")
    if not root.is_dir():
        print(f"{root} is not a folder of .cypher files", file=sys.stderr)
        return 2
    count, problems = check_tree(root)
    for problem in problems:
        print(problem)
    print(f"{count} Cypher files checked, {len(problems)} problems"
          + (f" (skipped: {', '.join(SKIP_DIRS)}/)" if SKIP_DIRS else ""))  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
