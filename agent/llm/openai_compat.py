"""Any OpenAI-compatible server (vLLM, SGLang, llama.cpp server, Ollama, TGI's Messages API).

`POST {base}/chat/completions` with `stream: true` and the step schema as `response_format`,
in the shape the server accepts (`agent/llm/response_format.py`): named in the spec
(`?grammar=tgi`), else found by asking the server once (a TGI answers `GET /info`), else
OpenAI's `json_schema`. A server that turns the shape down (400/422 naming it) is asked again
with the next shape, then without; going without is logged once and reported by `health()`
(`LLMHealth.unconstrained`), which the CLI and the UI show. The model name is
`MOVIEAGENT_LLM_MODEL`, else the first one that `GET {base}/models` lists.

With `?tools=native` the tools go out as OpenAI `tools`/`tool_choice` and the reply's
`tool_calls` come back as the loop's JSON step (`agent/llm/native_tools.py`); a server that
turns `tools` down gets JSON ReAct with the step grammar from then on, said once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx

from agent.errors import AgentError, LLMUnavailableError
from agent.llm.base import (
    LLM,
    MAX_NEW_TOKENS,
    LLMChunk,
    LLMContextOverflowError,
    LLMHealth,
    LLMRequest,
    LLMTransientError,
    TokenUsage,
)
from agent.llm.http_errors import from_status, is_connection_failure
from agent.llm.native_tools import NativeReply, ToolMode, tools_body
from agent.llm.response_format import (
    FALLBACK,
    GrammarShape,
    is_tgi_info,
    response_format,
    split_spec,
)
from agent.llm.sse import error_body, events
from semantic_layer.text_safety import clean_text

log = logging.getLogger(__name__)

START_HINT = (
    "start an OpenAI-compatible server there (for example `vllm serve "
    "mistralai/Mixtral-8x7B-Instruct-v0.1` or `ollama serve`), or set MOVIEAGENT_LLM=llamacpp "
    "to use the built-in CPU model"
)
#: words in a 400/422 reply that say the schema, not the prompt, was turned down
_GRAMMAR_WORDS = ("response_format", "grammar", "json_schema", "guided")
#: words in a 400/422 reply that say the tools were turned down
_TOOL_WORDS = ("tool", "function")
_UNASKED = object()  # a reply not asked for yet


class OpenAICompatLLM(LLM):
    start_hint = START_HINT

    def __init__(
        self,
        url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        http: httpx.Client | None = None,
        grammar: GrammarShape | None = None,
        tools: ToolMode | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        self.url, stated, stated_tools = split_spec(url)
        #: "native": tools go out as OpenAI `tools` (until the server turns them down)
        self.tool_mode: ToolMode = tools or stated_tools or "react"
        #: a sentence for the UI once native tool calling had to be given up
        self.tool_note = ""
        self._model = model
        #: server-specific fields sent with every chat request (as the OpenAI SDK's `extra_body`)
        self.extra_body = dict(extra_body or {})
        self._shape: GrammarShape | None = grammar or stated
        self._stated = self._shape is not None
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = http or httpx.Client(timeout=timeout_s, headers=headers)
        #: why replies are not grammar-constrained; empty while they are
        self.unconstrained = ""
        self._info: object = _UNASKED  # `GET /info` (a TGI answers it), once it answered
        #: the window and prompt limit the server states, once it answered
        self._sizes: tuple[int | None, int | None] | None = None
        if self._shape == "none":  # asked for: the CLI and the UI say it, no warning needed
            self._go_without("the spec says grammar=none", level=logging.INFO)
        elif self.tool_mode == "native":
            self._native_note()

    def describe(self) -> str:
        return f"OpenAI-compatible server at {self.url}"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        try:
            yield from self._stream(request)
        except httpx.HTTPError as e:
            if is_connection_failure(e):
                raise LLMUnavailableError(
                    f"Nothing answers at {self.url}: {self.start_hint}."
                ) from e
            raise LLMTransientError(f"{self.describe()}: {e!r}") from e

    def health(self) -> LLMHealth:
        try:
            model = self._model_name()
            self.grammar_shape()
        except (AgentError, httpx.HTTPError) as e:
            return LLMHealth(
                reachable=False, detail=f"nothing answers at {self.url}: {self.start_hint}. ({e})"
            )
        return LLMHealth(
            reachable=True,
            model=model,
            detail=self.describe(),
            unconstrained=self.unconstrained,
            note=self.tool_note,
        )

    def grammar_shape(self) -> GrammarShape:
        """The shape this server gets: stated, else detected once (a failed probe is retried)."""
        if self._shape is not None:
            return self._shape
        try:
            info = self._server_info()
        except httpx.HTTPError:
            return "json_schema"  # nothing answers yet: the request itself will say so
        self._shape = "tgi" if is_tgi_info(info) else "json_schema"
        return self._shape

    def _server_info(self) -> object:
        """The server's `GET /info` reply (None when it is not a 200 with a JSON object), asked
        until the server answers; raises `httpx.HTTPError` while nothing does."""
        if self._info is _UNASKED:
            response = self._http.get(f"{self.url.removesuffix('/v1')}/info", timeout=5.0)
            self._info = _json_object(response) or None
        return self._info

    def _stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        while True:
            shape = "none" if request.json_schema is None else self.grammar_shape()
            body = self._body(request, shape)
            url = f"{self.url}/chat/completions"
            with self._http.stream("POST", url, json=body, timeout=request.timeout_s) as response:
                if response.status_code in (400, 422) and (
                    "response_format" in body or "tools" in body
                ):
                    detail, _ = error_body(response)
                    if "tools" in body and any(w in detail.lower() for w in _TOOL_WORDS):
                        self._tools_refused(detail)
                        continue
                    if any(word in detail.lower() for word in _GRAMMAR_WORDS):
                        self._refused(shape, detail)
                        continue
                    raise from_status(response.status_code, self.describe(), detail)
                native = NativeReply() if "tools" in body else None
                yield from _chunks(response, self.describe(), native)
                return

    def _refused(self, shape: GrammarShape, detail: str) -> None:
        following = "none" if self._stated else FALLBACK.get(shape, "none")
        log.info("%s turned down the %s grammar shape (%s)", self.url, shape, detail[:200])
        self._shape = following
        if following == "none":
            reason = " ".join(detail.split())[:200]
            self._go_without(f"{self.describe()} turned the step grammar down ({reason})")

    def _native_note(self) -> None:
        # the step grammar would keep the model from calling tools natively: it goes unsent
        self.unconstrained = (
            "Native tool calling (tools=native): the server's tool parser reads the tool calls "
            "and replies are not held to the step grammar; the parser checks each reply instead."
        )
        log.info("%s", self.unconstrained)

    def _tools_refused(self, detail: str) -> None:
        reason = " ".join(detail.split())[:200]
        self.tool_mode = "react"
        self.unconstrained = ""
        self.tool_note = (
            f"{self.describe()} turned native tool calling down ({reason}); the agent writes "
            "JSON ReAct steps instead. For vLLM, start it with --enable-auto-tool-choice "
            "--tool-call-parser NAME."
        )
        log.warning("%s", self.tool_note)

    def _go_without(self, reason: str, level: int = logging.WARNING) -> None:
        self.supports_grammar = False
        self.unconstrained = (
            f"Replies are not grammar-constrained: {reason}; the parser checks each reply instead."
        )
        log.log(level, "%s", self.unconstrained)

    def _body(self, request: LLMRequest, shape: GrammarShape) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self._model_name(),
            "messages": [
                {"role": m.role, "content": clean_text(m.content)} for m in request.messages
            ],
            "max_tokens": request.max_new_tokens,
            "temperature": 0,
            "stream": True,
            "stream_options": {"include_usage": True},
            **self.extra_body,
        }
        if request.stop:
            body["stop"] = [clean_text(s) for s in request.stop]
        if self.tool_mode == "native" and request.tools:
            body.update(tools_body(request))
        elif request.json_schema is not None:
            grammar = response_format(shape, request.json_schema)
            if grammar is not None:
                body["response_format"] = grammar
        return body

    def context_window(self) -> int | None:
        """The context the server states, asked until it answers: a TGI's `GET /info`
        (`max_total_tokens`, else a prompt of `max_input_tokens` and an answer of
        `MAX_NEW_TOKENS`), else `max_model_len` in `GET {base}/models` (vLLM), else
        `default_generation_settings.n_ctx` in `GET /props` (llama.cpp's server and
        `movieagent llm serve`). None when it states none, and the agent budgets for a small
        window."""
        limits = self._limits()
        return limits[0] if limits else None

    def prompt_limit(self) -> int | None:
        """A TGI's `max_input_tokens`: the prompt it takes, whatever the answer's length."""
        limits = self._limits()
        return limits[1] if limits else None

    def _limits(self) -> tuple[int | None, int | None] | None:
        """(window, prompt limit), asked once the server answers; None while it does not."""
        if self._sizes is None:
            try:
                self._sizes = self._stated_limits()
            except httpx.HTTPError:
                return None  # not reachable: asked again next time
        return self._sizes

    def _stated_limits(self) -> tuple[int | None, int | None]:
        info = self._server_info()
        if isinstance(info, dict) and is_tgi_info(info):
            prompt = _positive(info.get("max_input_tokens")) or _positive(
                info.get("max_input_length")
            )  # TGI 1.x's name
            total = _positive(info.get("max_total_tokens"))
            return total or (prompt and prompt + MAX_NEW_TOKENS), prompt
        models = _json_object(self._http.get(f"{self.url}/models", timeout=5.0)).get("data")
        entries = [m for m in models if isinstance(m, dict)] if isinstance(models, list) else []
        named = [m for m in entries if m.get("id") == self._model] if self._model else []
        model = (named or entries or [{}])[0]  # the model in use: named, else the first listed
        if window := _positive(model.get("max_model_len")):
            return window, None
        props = _json_object(self._http.get(f"{self.url.removesuffix('/v1')}/props", timeout=5.0))
        settings = props.get("default_generation_settings")
        return _positive(settings.get("n_ctx") if isinstance(settings, dict) else None), None

    def _model_name(self) -> str:
        if self._model is None:
            response = self._http.get(f"{self.url}/models")
            if response.status_code >= 400:
                raise from_status(response.status_code, self.describe(), response.text)
            models = response.json().get("data") or [{"id": "default"}]
            self._model = str(models[0]["id"])
        return self._model


def _json_object(response: httpx.Response) -> dict[str, Any]:
    """A 200 reply's JSON object, else {} (an error status, another body, no JSON)."""
    try:
        body = response.json() if response.status_code == 200 else {}
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _positive(value: object) -> int | None:
    """`value` when it is a count (a positive int, not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _chunks(
    response: httpx.Response, what: str, native: NativeReply | None = None
) -> Iterator[LLMChunk]:
    if response.status_code >= 400:
        message, _ = error_body(response)
        raise from_status(response.status_code, what, message)
    finish: str | None = None
    usage = TokenUsage(estimated=True)
    for event in events(response):
        if event.get("error"):
            raise _stream_error(event["error"], what)
        if event.get("usage"):
            details = event["usage"].get("prompt_tokens_details") or {}
            usage = TokenUsage(
                prompt_tokens=event["usage"].get("prompt_tokens") or 0,
                completion_tokens=event["usage"].get("completion_tokens") or 0,
                cached_prompt_tokens=details.get("cached_tokens") or 0,
            )
        for choice in event.get("choices") or []:
            delta = choice.get("delta") or {}
            text = native.feed(delta) if native else delta.get("content") or ""
            if text:
                yield LLMChunk(text=clean_text(text))
            finish = choice.get("finish_reason") or finish
    tail = native.finish() if native else ""
    if tail:
        yield LLMChunk(text=clean_text(tail))
    yield LLMChunk(finish_reason=finish or "stop", usage=usage)


def _stream_error(error: Any, what: str) -> AgentError:
    """An `error` event in the stream: a prompt too long for the context, or worth a retry."""
    if isinstance(error, dict) and error.get("code") == "context_length_exceeded":
        return LLMContextOverflowError(clean_text(str(error.get("message") or error)))
    return LLMTransientError(f"{what}: {clean_text(str(error))}")
