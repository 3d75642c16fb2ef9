"""Entity linking: the movies, people, genres and years a text mentions, found through the
graph's own indexes (full-text, aliases, the genre vocabulary) before any model reads the text.

The agent, the LangChain baseline's tools and the MCP server (argument completion) all use it.
"""
