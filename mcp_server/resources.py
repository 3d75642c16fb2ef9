"""Resources a client can read: the graph's schema, and each tool as the server declares it.

- `movieagent://graph/schema`: the node labels with their properties and counts, and each
  relationship type with the labels it joins and its properties, read from the graph itself.
- `movieagent://tools`: every tool's definition, as `tools/list` gives it (description,
  argument and result schemas, read-only and destructive hints).
- `movieagent://tools/<name>`: a declared tool's `.cypher` file, its header and its query.
"""

from __future__ import annotations

import json

from mcp import MCPError, types
from mcp.types import INVALID_PARAMS
from pydantic import BaseModel, Field

from mcp_server.catalog import definition
from mcp_server.toolbox import ToolBox
from semantic_layer.graph_stats import graph_stats

SCHEMA_URI = "movieagent://graph/schema"
TOOLS_URI = "movieagent://tools"
JSON = "application/json"


def listing(toolbox: ToolBox) -> types.ListResourcesResult:
    resources = [
        types.Resource(
            uri=SCHEMA_URI,
            name="graph-schema",
            title="Graph schema",
            description="Node labels, relationship types and their properties, with counts.",
            mime_type=JSON,
        ),
        types.Resource(
            uri=TOOLS_URI,
            name="tools",
            title="Tools",
            description="Every tool's definition, as tools/list gives it.",
            mime_type=JSON,
        ),
    ]
    for name, tool in toolbox.tools.items():
        if getattr(tool, "source", None) is not None:
            resources.append(
                types.Resource(
                    uri=f"{TOOLS_URI}/{name}",
                    name=f"tool-{name}",
                    title=f"Declared tool {name}",
                    description=f"The .cypher file of {name}: its header and its query.",
                    mime_type="text/plain",
                )
            )
    return types.ListResourcesResult(resources=resources)


def read(toolbox: ToolBox, uri: str) -> types.ReadResourceResult:
    if uri == SCHEMA_URI:
        text, mime = graph_schema(toolbox).model_dump_json(by_alias=True), JSON
    elif uri == TOOLS_URI:
        tools = [definition(t).model_dump(mode="json", by_alias=True) for t in toolbox.listing()]
        text, mime = json.dumps(tools, ensure_ascii=False), JSON
    elif uri.startswith(f"{TOOLS_URI}/") and (tool := toolbox.tools.get(uri.split("/")[-1])):
        source = getattr(tool, "source", None)
        if source is None:
            raise MCPError(INVALID_PARAMS, f"{tool.name} is a built-in tool: read {TOOLS_URI}.")
        text, mime = source.read_text(encoding="utf-8"), "text/plain"
    else:
        raise MCPError(INVALID_PARAMS, f"No resource {uri}; see resources/list.")
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
    )


class NodeSchema(BaseModel):
    count: int
    properties: list[str]


class RelationshipSchema(BaseModel):
    count: int
    from_: list[str] = Field(serialization_alias="from")
    to: list[str]
    properties: list[str]


class GraphSchema(BaseModel):
    nodes: dict[str, NodeSchema]
    relationships: dict[str, RelationshipSchema]


def graph_schema(toolbox: ToolBox) -> GraphSchema:
    """Read from the graph: each label's properties, and one sample of each relationship type."""
    graph = toolbox.graph
    stats = graph_stats(graph)
    nodes = {
        row["label"]: NodeSchema(
            count=stats["nodes"].get(row["label"], 0), properties=sorted(row["properties"])
        )
        for row in graph.read("admin/node_properties")
    }
    relationships = {}
    for rel_type, count in stats["relationships"].items():
        for row in graph.read("admin/relationship_sample", {"type": rel_type}):
            relationships[rel_type] = RelationshipSchema(
                count=count,
                from_=row["fromLabels"],
                to=row["toLabels"],
                properties=sorted(row["properties"]),
            )
    return GraphSchema(nodes=nodes, relationships=relationships)
