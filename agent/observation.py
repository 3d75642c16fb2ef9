"""What the model reads of a tool's result: compact JSON that fits a token budget.

The UI and the result keep the whole `ToolResult`; the model only needs what it may tell the
user. So the Observation leaves out identifiers (`movieId`, `imdbId`, ...), empty values, the
fields a card keeps for other readers (`ToolResult.model_data`), a message that only repeats the
data's label and a candidate's fields that repeat its label; a row's title and year become one
label, "Heat (1995)", the way an answer writes it (a film that is only that is only its label).
A list shows its first rows (`OBSERVATION_ROWS`, or fewer where the card says so). When it is
still over the budget it shortens the longest list (recommendations, films, cast) step by step,
saying how many rows it left out. A 4k-token context therefore always has room for the
instructions, the history, the Observation and the answer.
"""

from __future__ import annotations

import json
import re
from typing import Any

from semantic_layer.tools.result import ToolResult

OBSERVATION_TOKENS = 260  # the default budget of one Observation (prefill is the cost)
OBSERVATION_ROWS = 6  # rows of one list the model reads: an answer names five (the UI shows all)
#   unless the card says fewer (`rows_for_the_model`: recommendations)
CHARS_PER_TOKEN = 3  # conservative for JSON full of names: real tokenizers do 3.3 to 4
_ID_KEY = re.compile(r"(?:^id$|Id$|_id$|Ids$|_ids$)")


def estimate(text: str) -> int:
    """Tokens of `text`, erring on the high side."""
    return len(text) // CHARS_PER_TOKEN + 1


def fit_observation(result: ToolResult, budget_tokens: int = OBSERVATION_TOKENS) -> str:
    """The Observation for `result`, at most `budget_tokens` (estimated) long."""
    body: dict[str, Any] = {} if result.ok else {"ok": False}  # a failure says so
    data = _compact(result.model_data())
    if result.message and not _repeats_a_label(result.message, data):
        body["message"] = result.message
    if data not in (None, {}, []):
        body["data"] = data
    if result.candidates:
        body["candidates"] = [{"label": c.label} for c in result.candidates]
    omitted: dict[str, int] = {}
    rows = getattr(result.data, "rows_for_the_model", None) or OBSERVATION_ROWS
    for parent, key in sorted(_lists(body, rows), key=_size, reverse=True):
        omitted[key] = omitted.get(key, 0) + len(parent[key]) - rows
        parent[key] = parent[key][:rows]
    if omitted:
        body["omitted"] = dict(omitted)
    text = _dump(body)
    while estimate(text) > budget_tokens:
        path = max(_lists(body, 1), key=_size, default=None)  # the longest list first
        if path is None:
            break
        parent, key = path
        omitted[key] = omitted.get(key, 0) + 1
        parent[key] = parent[key][:-1]  # one row at a time: as many rows as fit
        body["omitted"] = dict(omitted)
        text = _dump(body)
    if estimate(text) > budget_tokens:  # no list left to shorten: cut the text itself
        text = text[: max(0, (budget_tokens - 1) * CHARS_PER_TOKEN - 1)] + "…"
    return text


def _repeats_a_label(message: str, data: Any) -> bool:
    """Whether `message` only names what `data` labels ("Casino (1995)." for a movie's card):
    the data says it already."""
    labels = data.values() if isinstance(data, dict) else [data]
    return message.strip().rstrip(".") in [label for label in labels if isinstance(label, str)]


def _compact(value: Any) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(key, str) and _ID_KEY.search(key):
                continue
            item = _compact(item)
            if item is None or item == "" or item == [] or item == {}:
                continue
            out[key] = item
        return labelled(out)
    if isinstance(value, list):
        return [_compact(v) for v in value]
    if isinstance(value, float):
        return round(value, 2)
    return value


def labelled(row: dict[str, Any]) -> Any:
    """A row's `title` and `year` as one `movie` label first; a row of nothing else as the label."""
    title, year = row.get("title"), row.get("year")
    if not isinstance(title, str) or not isinstance(year, int) or isinstance(year, bool):
        return row
    rest = {key: item for key, item in row.items() if key not in ("title", "year")}
    label = f"{title} ({year})"
    return {"movie": label, **rest} if rest else label


def _lists(node: Any, more_than: int) -> list[tuple[dict[str, Any], str]]:
    """The dict and key of every list in `node` with more than `more_than` rows (the count of
    what was left out is not one): a list keeps its first row (the best one), and past that
    the text is cut instead."""
    found: list[tuple[dict[str, Any], str]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            for key, item in current.items():
                if isinstance(item, list) and len(item) > more_than and key != "omitted":
                    found.append((current, key))
                if isinstance(item, (dict, list)):
                    stack.append(item)
        elif isinstance(current, list):
            stack.extend(v for v in current if isinstance(v, (dict, list)))
    return found


def _size(path: tuple[dict[str, Any], str]) -> int:
    parent, key = path
    return len(_dump(parent[key]))


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
