"""text-generation-inference: `POST /generate_stream` with the prompt rendered in Mixtral's
chat template and the step schema as TGI's `grammar` parameter (`{"type": "json", "value": ...}`).

This speaks TGI's documented HTTP API with httpx rather than through `huggingface_hub`'s
`InferenceClient`: from huggingface_hub 1.0 on, that client sends every request through the hub
session, which refuses all of them — even to a TGI on localhost — when `HF_HUB_OFFLINE=1`, the
usual setting on air-gapped GPU hosts (and in our tests). The wire format is the same.

If the server turns the grammar down (started with `--disable-grammar-support`), the backend
logs it and continues without; the parser then does the work.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx

from agent.errors import LLMUnavailableError
from agent.llm.base import LLM, LLMChunk, LLMHealth, LLMRequest, LLMTransientError, TokenUsage
from agent.llm.chat_template import render_mixtral
from agent.llm.http_errors import from_status, is_connection_failure
from agent.llm.sse import error_body, events

log = logging.getLogger(__name__)

START_HINT = (
    "start text-generation-inference there, for example `docker run --gpus all -p 8080:80 "
    "ghcr.io/huggingface/text-generation-inference "
    "--model-id mistralai/Mixtral-8x7B-Instruct-v0.1`, "
    "or set MOVIEAGENT_LLM=llamacpp to use the built-in CPU model"
)


class GrammarRejected(Exception):
    """The server refused the `grammar` parameter."""


class TGILLM(LLM):
    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout_s: float = 60.0,
        http: httpx.Client | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = http or httpx.Client(timeout=timeout_s, headers=headers)
        self._grammar_ok = True

    def describe(self) -> str:
        return f"TGI at {self.url}"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        grammar = request.json_schema if self._grammar_ok else None
        try:
            try:
                yield from self._generate(request, grammar)
            except GrammarRejected as e:
                log.warning("%s does not accept a grammar (%s); continuing without", self.url, e)
                self._grammar_ok = False
                yield from self._generate(request, None)
        except httpx.HTTPError as e:
            if is_connection_failure(e):
                raise LLMUnavailableError(f"Nothing answers at {self.url}: {START_HINT}.") from e
            raise LLMTransientError(f"{self.describe()}: {e!r}") from e

    def health(self) -> LLMHealth:
        try:
            response = self._http.get(f"{self.url}/info", timeout=5.0)
            info = response.json() if response.status_code == 200 else {}
        except (httpx.HTTPError, ValueError) as e:
            detail = f"nothing answers at {self.url}: {START_HINT}. ({e})"
            return LLMHealth(reachable=False, detail=detail)
        return LLMHealth(
            reachable=True, model=str(info.get("model_id", "")), detail=self.describe()
        )

    def _generate(self, request: LLMRequest, grammar: dict[str, Any] | None) -> Iterator[LLMChunk]:
        parameters: dict[str, Any] = {
            "max_new_tokens": request.max_new_tokens,
            "details": True,
            "do_sample": False,
            "return_full_text": False,
        }
        if request.stop:
            parameters["stop"] = request.stop
        if grammar is not None:
            parameters["grammar"] = {"type": "json", "value": grammar}
        payload = {"inputs": render_mixtral(request.messages), "parameters": parameters}
        url = f"{self.url}/generate_stream"
        with self._http.stream("POST", url, json=payload, timeout=request.timeout_s) as response:
            if response.status_code >= 400:
                message, _ = error_body(response)
                if grammar is not None and response.status_code == 422 and "grammar" in message:
                    raise GrammarRejected(message)
                raise from_status(response.status_code, self.describe(), message)
            yield from self._chunks(events(response))

    def _chunks(self, stream: Iterator[dict[str, Any]]) -> Iterator[LLMChunk]:
        for event in stream:
            if event.get("error"):  # TGI reports failures mid-stream as an event
                raise LLMTransientError(f"{self.describe()}: {event['error']}")
            token = event.get("token") or {}
            text = "" if token.get("special") else str(token.get("text", ""))
            details = event.get("details")
            if not details:
                if text:
                    yield LLMChunk(text=text)
                continue
            prompt_tokens = int(details.get("input_length") or 0)
            usage = TokenUsage(
                prompt_tokens=prompt_tokens,
                completion_tokens=int(details.get("generated_tokens") or 0),
                estimated=not prompt_tokens,
            )
            finish = str(details.get("finish_reason") or "stop")
            yield LLMChunk(text=text, finish_reason=finish, usage=usage)
