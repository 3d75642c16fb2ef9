"""text-generation-inference through `huggingface_hub`'s `InferenceClient`: `text_generation`
with `stream=True, details=True`, the prompt rendered in Mixtral's chat template and the step
schema as TGI's `grammar` parameter (`{"type": "json", "value": ...}`).

The client sends every request through the hub's HTTP session, which refuses all of them — even
to a TGI on localhost — while `HF_HUB_OFFLINE` is set; that gets a sentence saying to unset it.

If the server turns the grammar down (started with `--disable-grammar-support`), the backend
logs it and continues without; the parser then does the work.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
from huggingface_hub import InferenceClient, TextGenerationStreamOutput, constants
from huggingface_hub import TextGenerationInputGrammarType as Grammar
from huggingface_hub.errors import HTTPError as HubHTTPError  # the hub's HTTP library's base
from huggingface_hub.errors import OfflineModeIsEnabled, ValidationError

from agent.errors import LLMUnavailableError
from agent.llm.base import LLM, LLMChunk, LLMHealth, LLMRequest, LLMTransientError, TokenUsage
from agent.llm.chat_template import render_mixtral
from agent.llm.http_errors import from_status, is_connection_failure

log = logging.getLogger(__name__)

START_HINT = (
    "start text-generation-inference there, for example `docker run --gpus all -p 8080:80 "
    "ghcr.io/huggingface/text-generation-inference "
    "--model-id mistralai/Mixtral-8x7B-Instruct-v0.1`, "
    "or set MOVIEAGENT_LLM=llamacpp to use the built-in CPU model"
)
OFFLINE_HINT = (
    "HF_HUB_OFFLINE is set, and the TGI client goes through huggingface_hub, which then refuses "
    "every request, even to a local server: unset HF_HUB_OFFLINE for the app process "
    "(HF_HUB_DISABLE_TELEMETRY=1 keeps it from contacting the Hub)"
)


class TGILLM(LLM):
    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout_s: float = 60.0,  # each request brings its own (`LLMRequest.timeout_s`)
    ) -> None:
        self.url = url.rstrip("/")
        self._token = token
        self._grammar_ok = True

    def describe(self) -> str:
        return f"TGI at {self.url}"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        if constants.is_offline_mode():
            raise LLMUnavailableError(f"Cannot reach {self.describe()}: {OFFLINE_HINT}.")
        grammar = request.json_schema if self._grammar_ok else None
        try:
            try:
                yield from self._generate(request, grammar)
            except ValidationError as e:
                if grammar is None or "grammar" not in str(e):
                    raise
                log.warning("%s does not accept a grammar (%s); continuing without", self.url, e)
                self._grammar_ok = False
                yield from self._generate(request, None)
        except OfflineModeIsEnabled as e:
            raise LLMUnavailableError(f"Cannot reach {self.describe()}: {OFFLINE_HINT}.") from e
        except (HubHTTPError, OSError) as e:  # HTTP statuses, TGI's errors, transport failures
            raise self._error(e) from e

    def health(self) -> LLMHealth:
        """`GET /info` with plain httpx: the client has no call for it."""
        try:
            response = httpx.get(f"{self.url}/info", timeout=5.0)
            info = response.json() if response.status_code == 200 else {}
        except (httpx.HTTPError, ValueError) as e:
            detail = f"nothing answers at {self.url}: {START_HINT}. ({e})"
            return LLMHealth(reachable=False, detail=detail)
        if constants.is_offline_mode():
            return LLMHealth(reachable=False, detail=f"{OFFLINE_HINT}.")
        return LLMHealth(
            reachable=True, model=str(info.get("model_id", "")), detail=self.describe()
        )

    def _generate(self, request: LLMRequest, grammar: dict[str, Any] | None) -> Iterator[LLMChunk]:
        # A client per call (microseconds): it keeps each streamed response open until it is
        # closed, so leaving the `with`, also when the caller stops early, releases the response.
        timeout = request.timeout_s
        with InferenceClient(model=self.url, token=self._token, timeout=timeout) as client:
            for event in client.text_generation(
                render_mixtral(request.messages),
                stream=True,
                details=True,
                max_new_tokens=request.max_new_tokens,
                stop=request.stop or None,
                grammar=None if grammar is None else Grammar(type="json", value=grammar),
                do_sample=False,
                return_full_text=False,
            ):
                if chunk := _chunk(event):
                    yield chunk

    def _error(self, error: BaseException) -> Exception:
        if is_connection_failure(error):
            return LLMUnavailableError(f"Nothing answers at {self.url}: {START_HINT}.")
        response = getattr(error.__cause__ or error, "response", None)
        status = getattr(response, "status_code", None)
        if isinstance(status, int):  # TGI's `{"error": ...}` is the exception's message
            return from_status(status, self.describe(), str(error))
        return LLMTransientError(f"{self.describe()}: {error!r}")  # timeouts, dropped streams


def _chunk(event: TextGenerationStreamOutput) -> LLMChunk | None:
    """A token as a chunk; the last one (with `details`) also carries the finish and the counts."""
    text = "" if event.token.special else event.token.text
    details = event.details
    if details is None:
        return LLMChunk(text=text) if text else None
    usage = TokenUsage(
        prompt_tokens=details.input_length or 0,
        completion_tokens=details.generated_tokens or 0,
        estimated=not details.input_length,
    )
    return LLMChunk(text=text, finish_reason=details.finish_reason or "stop", usage=usage)
