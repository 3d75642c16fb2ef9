"""The semantic layer: graph connection, entity resolution and typed tools."""
