"""The semantic layer's typed graph tools, served over the Model Context Protocol.

`movieagent mcp` serves every built-in and declared tool to any MCP client: over stdio for a
desktop client (one user: `--user-id`, or a new guest), or over streamable HTTP, where the
user comes from the caller's bearer token (`auth.py`), never from tool arguments.
"""
