"""Strict tool inputs: unknown arguments are refused, and a rating is a real number.

Every built-in tool's input model derives from `StrictInput`, so an argument the tool does not
define (`userId`, a misspelt name) is an error the caller reads, never silently dropped. `Stars`
is a rating as MovieLens stores it: a JSON number from 0.5 to 5 in half steps; `true` or the
text "4" is refused with a sentence (Pydantic's lax mode would store them as 1 and 4).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict

MIN_STARS, MAX_STARS, STEP = 0.5, 5.0, 0.5


class StrictInput(BaseModel):
    """An input model that refuses arguments it does not define."""

    model_config = ConfigDict(extra="forbid")


def _a_number(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        shown = "true/false" if isinstance(value, bool) else f"{type(value).__name__} {value!r}"
        raise ValueError(
            f"a rating is a number from {MIN_STARS} to {MAX_STARS:g} in half steps, such as 4 "
            f"or 4.5, not the {shown}"
        )
    return value


# the constraints before the validator: so the JSON schema says minimum/maximum/multipleOf
Stars = Annotated[
    float,
    Strict(),
    Field(ge=MIN_STARS, le=MAX_STARS, multiple_of=STEP),
    BeforeValidator(_a_number),
]
