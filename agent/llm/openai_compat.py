"""Any OpenAI-compatible server (vLLM, SGLang, llama.cpp server, Ollama, TGI's Messages API).

`POST {base}/chat/completions` with `stream: true`, the step schema as `response_format`
`json_schema`; a server that rejects `response_format` is asked again without it (logged) and
the parser does the work. The model name is `MOVIEAGENT_LLM_MODEL`, else the first one that
`GET {base}/models` lists.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx

from agent.errors import AgentError, LLMUnavailableError
from agent.llm.base import LLM, LLMChunk, LLMHealth, LLMRequest, LLMTransientError, TokenUsage
from agent.llm.http_errors import from_status, is_connection_failure
from agent.llm.sse import error_body, events

log = logging.getLogger(__name__)

START_HINT = (
    "start an OpenAI-compatible server there (for example `vllm serve "
    "mistralai/Mixtral-8x7B-Instruct-v0.1` or `ollama serve`), or set MOVIEAGENT_LLM=llamacpp "
    "to use the built-in CPU model"
)


class OpenAICompatLLM(LLM):
    def __init__(
        self,
        url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        http: httpx.Client | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = http or httpx.Client(timeout=timeout_s, headers=headers)
        self._schema_ok = True

    def describe(self) -> str:
        return f"OpenAI-compatible server at {self.url}"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        try:
            yield from self._stream(request)
        except httpx.HTTPError as e:
            if is_connection_failure(e):
                raise LLMUnavailableError(f"Nothing answers at {self.url}: {START_HINT}.") from e
            raise LLMTransientError(f"{self.describe()}: {e!r}") from e

    def health(self) -> LLMHealth:
        try:
            return LLMHealth(reachable=True, model=self._model_name(), detail=self.describe())
        except (AgentError, httpx.HTTPError) as e:
            return LLMHealth(
                reachable=False, detail=f"nothing answers at {self.url}: {START_HINT}. ({e})"
            )

    def _stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        body = self._body(request, with_schema=self._schema_ok and request.json_schema is not None)
        with self._http.stream("POST", f"{self.url}/chat/completions", json=body) as response:
            if response.status_code in (400, 422) and "response_format" in body:
                detail, _ = error_body(response)
                log.warning(
                    "%s rejected response_format (%s); continuing without it", self.url, detail
                )
                self._schema_ok = False
            else:
                yield from _chunks(response, self.describe())
                return
        yield from self._stream(request)

    def _body(self, request: LLMRequest, with_schema: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model_name(),
            "messages": [m.model_dump() for m in request.messages],
            "max_tokens": request.max_new_tokens,
            "temperature": 0,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.stop:
            body["stop"] = request.stop
        if with_schema:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "react_step", "schema": request.json_schema},
            }
        return body

    def _model_name(self) -> str:
        if self._model is None:
            response = self._http.get(f"{self.url}/models")
            if response.status_code >= 400:
                raise from_status(response.status_code, self.describe(), response.text)
            models = response.json().get("data") or [{"id": "default"}]
            self._model = str(models[0]["id"])
        return self._model


def _chunks(response: httpx.Response, what: str) -> Iterator[LLMChunk]:
    if response.status_code >= 400:
        message, _ = error_body(response)
        raise from_status(response.status_code, what, message)
    finish: str | None = None
    usage = TokenUsage(estimated=True)
    for event in events(response):
        if event.get("error"):
            raise LLMTransientError(f"{what}: {event['error']}")
        if event.get("usage"):
            usage = TokenUsage(
                prompt_tokens=event["usage"].get("prompt_tokens") or 0,
                completion_tokens=event["usage"].get("completion_tokens") or 0,
            )
        for choice in event.get("choices") or []:
            text = (choice.get("delta") or {}).get("content") or ""
            if text:
                yield LLMChunk(text=text)
            finish = choice.get("finish_reason") or finish
    yield LLMChunk(finish_reason=finish or "stop", usage=usage)
