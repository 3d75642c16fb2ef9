"""The one small interface every LLM backend implements, so tests can swap in a scripted model.

A backend turns an `LLMRequest` (alternating chat messages, an optional JSON schema for
constrained decoding, stop sequences, a token budget and a timeout) into a stream of
`LLMChunk`s. The last chunk has `finish_reason` set and carries the token counts.

Backends raise `LLMUnavailableError` when the model cannot be reached or loaded (a sentence
that says what to start) and `LLMTransientError` for failures worth retrying (5xx, 429,
timeouts, dropped connections); the agent loop does the retrying. A prompt longer than the
context window raises `LLMContextOverflowError`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, Field

from agent.errors import AgentError

Role = Literal["user", "assistant"]
#: which tools a natively tool-calling server may pick this step (OpenAI's `tool_choice`)
ToolChoice = Literal["auto", "required", "none"]


class ChatMessage(BaseModel):
    """One chat turn. There is no system role: Mixtral's template has none."""

    role: Role
    content: str


# The longest reply asked of a model, unless MOVIEAGENT_MAX_NEW_TOKENS says otherwise.
MAX_NEW_TOKENS = 512


class ToolSpec(BaseModel):
    """A tool as a natively tool-calling server gets it (OpenAI's `tools` entry)."""

    name: str
    description: str
    parameters: dict[str, Any]  # the input model's JSON schema


class LLMRequest(BaseModel):
    messages: list[ChatMessage]
    json_schema: dict[str, Any] | None = None  # constrained decoding; None = free text
    #: the tools, for backends in native tool-calling mode; the others ignore them (the prompt
    #: describes the tools too)
    tools: list[ToolSpec] = Field(default_factory=list)
    tool_choice: ToolChoice = "auto"
    stop: list[str] = Field(default_factory=list)
    max_new_tokens: int = MAX_NEW_TOKENS
    timeout_s: float = 60.0


class TokenUsage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False  # True when the server did not report counts
    #: prompt tokens reused from the KV cache, where the server says (OpenAI's
    #: `prompt_tokens_details.cached_tokens`: the embedded llama.cpp server, vLLM)
    cached_prompt_tokens: int = 0


class LLMChunk(BaseModel):
    """A piece of generated text; the last chunk has `finish_reason` and `usage`."""

    text: str = ""
    finish_reason: str | None = None  # "stop", "length", "eos_token", "stop_sequence", ...
    usage: TokenUsage | None = None
    #: seconds the request waited before the backend began it (behind another session's
    #: generation, or a model load): not part of the per-call timeout
    waited_s: float = 0.0


class LLMHealth(BaseModel):
    reachable: bool
    model: str = ""
    detail: str = ""
    unconstrained: str = ""  # why replies are not grammar-constrained; empty when they are
    note: str = ""  # a sentence worth showing even when reachable (a restart after a crash)


class LLMTransientError(AgentError):
    """A failure worth retrying: a 5xx or 429 reply, a timeout, a dropped connection."""


class LLMContextOverflowError(AgentError):
    """The prompt does not fit the model's context window; not worth retrying as it is."""


class LLM(ABC):
    """A chat model behind the smallest interface the agent needs."""

    #: whether `json_schema` is enforced by the backend (False: the parser does all the work)
    supports_grammar: bool = True
    #: why replies are not grammar-constrained (said once by the CLI and the UI); "" while they are
    unconstrained: str = ""
    #: whether the backend keeps the KV cache of the last prompt (then `Agent.warm_up` at start
    #: spares the first question the prefill of the static instructions)
    caches_prompt: bool = False

    @abstractmethod
    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        """Generate a reply piece by piece; the last chunk has `finish_reason` set."""

    @abstractmethod
    def describe(self) -> str:
        """One line for logs and the UI: backend and model."""

    def context_window(self) -> int | None:
        """The model's context window in tokens, where the backend knows it (else None)."""
        return None

    def prompt_limit(self) -> int | None:
        """The longest prompt the server takes, where it states one apart from the window
        (TGI's `max_input_tokens`); None where the window less the answer is the limit."""
        return None

    def health(self) -> LLMHealth:
        """Whether the model can be reached, without generating. Backends override this."""
        return LLMHealth(reachable=True, model=self.describe())


def estimate_tokens(text: str) -> int:
    """A rough count (about four characters a token) for servers that report none."""
    return max(1, len(text) // 4) if text else 0
