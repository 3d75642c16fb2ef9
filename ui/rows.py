"""Any tool's data as table rows: a declared tool's rows, or the one list inside a payload.

The cards (`ui.cards`) read the built-in tools' payloads by attribute; this generic view is for
what has no card: the rows of a `.cypher` tool, and the data shown in a step's details.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel


def table_rows(data: Any) -> list[dict[str, Any]]:
    """`data` as rows of a table, or [] when it holds no single list of records."""
    if isinstance(data, BaseModel):
        data = data.model_dump()
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list) and v]
        data = lists[0] if len(lists) == 1 else None
    if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
        return [{k: _cell(v) for k, v in r.items()} for r in data]
    return []


def _cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return value
