#!/usr/bin/env bash
# The official MCP conformance suite (npm: @modelcontextprotocol/conformance) against
# `movieagent mcp --transport http` on loopback, over the graph of MOVIEAGENT_DATA_DIR (import
# one first: `make import`). Runs the scenarios that apply to what the server implements; the
# others, and why, are in docs/mcp.md. Needs Node 20+ and npm (the suite installs with npx).
# Usage: devtools/mcp_conformance.sh ['movieagent command']   (default: .venv/bin/movieagent)
set -euo pipefail

read -ra MOVIEAGENT <<<"${1:-.venv/bin/movieagent}"  # a command, maybe with arguments
SUITE="@modelcontextprotocol/conformance@${CONFORMANCE_VERSION:-0.1.11}"  # 0.1.12+ need Node 22
PORT=${MCP_CONFORMANCE_PORT:-8799}
URL="http://127.0.0.1:${PORT}/mcp"
SCENARIOS=(
  server-initialize ping tools-list completion-complete resources-list prompts-list
  dns-rebinding-protection server-sse-multiple-streams
)

log=$(mktemp)
"${MOVIEAGENT[@]}" mcp --transport http --host 127.0.0.1 --port "$PORT" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 120); do
  grep -q "Serving MCP" "$log" && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.5
done
grep -q "Serving MCP" "$log" || { echo "the MCP server did not start:" >&2; cat "$log" >&2; exit 1; }

failed=()
for scenario in "${SCENARIOS[@]}"; do
  echo "== $scenario"
  if ! npx --yes "$SUITE" server --url "$URL" --scenario "$scenario"; then
    failed+=("$scenario")
  fi
done
if ((${#failed[@]})); then
  echo "conformance: failed ${failed[*]}" >&2
  exit 1
fi
echo "conformance: all ${#SCENARIOS[@]} applicable scenarios passed"
