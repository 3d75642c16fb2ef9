"""Prompts a client offers its user (`prompts/list`, `prompts/get`): a question about movies,
written so that the model calls our tools. Each argument names what it holds (a movie, a person,
a genre), which is what `completion/complete` completes (`mcp_server.completion`).

The texts are templates whose placeholders are checked against the declared arguments when this
module loads.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass

from mcp import MCPError, types
from mcp.types import INVALID_PARAMS

from semantic_layer.linking.complete import Kind


@dataclass(frozen=True)
class Argument:
    name: str
    kind: Kind
    description: str
    required: bool = True


@dataclass(frozen=True)
class PromptSpec:
    name: str
    title: str
    description: str
    arguments: tuple[Argument, ...]
    text: str  # a `string.Template`; `$genre_clause` and the like are built in `_values`

    def definition(self) -> types.Prompt:
        return types.Prompt(
            name=self.name,
            title=self.title,
            description=self.description,
            arguments=[
                types.PromptArgument(name=a.name, description=a.description, required=a.required)
                for a in self.arguments
            ],
        )


PROMPTS = {
    p.name: p
    for p in (
        PromptSpec(
            name="movies_like",
            title="Movies like…",
            description="Films like one you name, from what other viewers rated alike.",
            arguments=(Argument("title", "movie", "A movie you liked, e.g. Heat (1995)."),),
            text="Recommend movies like $title. Call the recommender tool with movie "
            '"$title"; if the title is ambiguous, ask me which one I mean. Give each film '
            "with its year and one line on why it fits.",
        ),
        PromptSpec(
            name="watch_tonight",
            title="What should I watch tonight?",
            description="A few films for tonight, from your own ratings when you have some.",
            arguments=(
                Argument("genre", "genre", "A genre you are in the mood for.", required=False),
            ),
            text="What should I watch tonight?$genre_clause Call the recommender tool$genre_call; "
            "it uses my own ratings when I have some. Offer three films with their years.",
        ),
        PromptSpec(
            name="films_of",
            title="Films of a person",
            description="What an actor or director has made, the best known first.",
            arguments=(Argument("name", "person", "An actor or director, e.g. Michael Mann."),),
            text='What has $name made? Call the film_facts tool with entity "$name" and '
            'entity_type "person", then list the best known films with their years.',
        ),
    )
}


def _check(spec: PromptSpec) -> None:
    """Every placeholder is an argument (or a clause built from one), and every argument used."""
    names = {a.name for a in spec.arguments}
    clauses = {f"{a.name}_clause" for a in spec.arguments} | {
        f"{a.name}_call" for a in spec.arguments
    }
    used = set(string.Template(spec.text).get_identifiers())
    if used - names - clauses or {n for n in names if n not in used and f"{n}_clause" not in used}:
        raise ValueError(f"prompt {spec.name}: placeholders {sorted(used)} != arguments {names}")


for _spec in PROMPTS.values():
    _check(_spec)


def listing() -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[p.definition() for p in PROMPTS.values()])


def get(name: str, arguments: Mapping[str, str] | None) -> types.GetPromptResult:
    spec = PROMPTS.get(name)
    if spec is None:
        raise MCPError(
            INVALID_PARAMS, f"Unknown prompt {name!r}; the prompts are: {', '.join(PROMPTS)}."
        )
    given = {k: v.strip() for k, v in (arguments or {}).items() if isinstance(v, str) and v.strip()}
    unknown = set(given) - {a.name for a in spec.arguments}
    missing = [a.name for a in spec.arguments if a.required and a.name not in given]
    if unknown or missing:
        problem = f"unknown {sorted(unknown)}" if unknown else f"missing {missing}"
        raise MCPError(INVALID_PARAMS, f"Prompt {name}: {problem} arguments.")
    text = string.Template(spec.text).substitute(_values(spec, given))
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
    return types.GetPromptResult(description=spec.description, messages=[message])


def _values(spec: PromptSpec, given: Mapping[str, str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for argument in spec.arguments:
        value = given.get(argument.name, "")
        values[argument.name] = value
        values[f"{argument.name}_clause"] = f" I am in the mood for {value}." if value else ""
        values[f"{argument.name}_call"] = f' with {argument.name} "{value}"' if value else ""
    return values
