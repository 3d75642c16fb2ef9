"""text-generation-inference through `huggingface_hub.InferenceClient`: `/generate_stream`,
the prompt rendered with Mixtral's chat template, the step schema sent as TGI's `grammar`.

If the server turns the grammar down (started with `--disable-grammar-support`), the backend
says so in the log and continues without it; the parser then does the work.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import httpx
from huggingface_hub import InferenceClient
from huggingface_hub.errors import (
    HfHubHTTPError,
    OverloadedError,
    TextGenerationError,
)
from huggingface_hub.errors import ValidationError as TGIValidationError

from agent.errors import AgentError, LLMUnavailableError
from agent.llm.base import LLM, LLMChunk, LLMHealth, LLMRequest, LLMTransientError, TokenUsage
from agent.llm.chat_template import render_mixtral
from agent.llm.http_errors import from_status, is_connection_failure, is_timeout

log = logging.getLogger(__name__)

START_HINT = (
    "start text-generation-inference there, for example `docker run --gpus all -p 8080:80 "
    "ghcr.io/huggingface/text-generation-inference --model-id mistralai/Mixtral-8x7B-Instruct-v0.1`, "
    "or set MOVIEAGENT_LLM=llamacpp to use the built-in CPU model"
)


class TGILLM(LLM):
    def __init__(self, url: str, *, token: str | None = None, timeout_s: float = 60.0) -> None:
        self.url = url.rstrip("/")
        self._timeout_s = timeout_s
        self._client = InferenceClient(model=self.url, token=token, timeout=timeout_s)
        self._grammar_ok = True

    def describe(self) -> str:
        return f"TGI at {self.url}"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        grammar = request.json_schema if self._grammar_ok else None
        try:
            yield from self._generate(request, grammar)
        except TGIValidationError as e:
            if grammar is None or "grammar" not in str(e).lower():
                raise LLMUnavailableError(f"{self.describe()} refused the request: {e}") from e
            log.warning("%s does not accept a grammar (%s); continuing without it", self.url, e)
            self._grammar_ok = False
            yield from self._generate(request, None)

    def health(self) -> LLMHealth:
        try:
            info = httpx.get(f"{self.url}/info", timeout=min(self._timeout_s, 5.0)).json()
        except (httpx.HTTPError, ValueError) as e:
            return LLMHealth(
                reachable=False, detail=f"nothing answers at {self.url}: {START_HINT}. ({e})"
            )
        return LLMHealth(
            reachable=True, model=str(info.get("model_id", "")), detail=self.describe()
        )

    def _generate(self, request: LLMRequest, grammar: dict[str, Any] | None) -> Iterator[LLMChunk]:
        try:
            outputs = self._client.text_generation(
                render_mixtral(request.messages),
                stream=True,
                details=True,
                max_new_tokens=request.max_new_tokens,
                stop=request.stop or None,
                grammar={"type": "json", "value": grammar} if grammar else None,  # type: ignore[arg-type]
                return_full_text=False,
                do_sample=False,
            )
            for output in outputs:
                assert not isinstance(output, str)  # details=True: structured outputs
                text = "" if output.token.special else output.token.text
                details = output.details
                if details is None:
                    if text:
                        yield LLMChunk(text=text)
                    continue
                usage = TokenUsage(
                    prompt_tokens=details.input_length or 0,
                    completion_tokens=details.generated_tokens,
                    estimated=not details.input_length,
                )
                yield LLMChunk(text=text, finish_reason=str(details.finish_reason), usage=usage)
        except (TGIValidationError, AgentError):
            raise
        except (HfHubHTTPError, TextGenerationError, OSError, httpx.HTTPError) as e:
            raise self._translate(e) from e
        except Exception as e:
            if not type(e).__module__.startswith(("httpx", "huggingface_hub")):
                raise
            raise self._translate(e) from e

    def _translate(self, error: Exception) -> AgentError:
        if isinstance(error, OverloadedError) or is_timeout(error):
            return LLMTransientError(f"{self.describe()}: {error}")
        response = getattr(error, "response", None) or getattr(error.__cause__, "response", None)
        if isinstance(error, (HfHubHTTPError, TextGenerationError)) and response is not None:
            return from_status(response.status_code, self.describe(), str(error))
        if is_connection_failure(error):
            return LLMUnavailableError(f"Nothing answers at {self.url}: {START_HINT}.")
        if isinstance(error, TextGenerationError):  # an error event inside the stream
            return LLMTransientError(f"{self.describe()}: {error}")
        return LLMTransientError(f"{self.describe()}: connection dropped ({error!r})")
