"""text-generation-inference through its Messages API: `POST /v1/chat/completions`.

The server renders the messages with the served model's own chat template (Mixtral's `[INST]`,
Llama 3.1's headers, Qwen 2.5's ChatML: whatever `--model-id` brings), and takes the step
schema as TGI's grammar, `response_format: {"type": "json", "value": schema}`. Plain HTTP
(httpx), so `HF_HUB_OFFLINE` does not get in the way of a local server.

The raw `/generate` route is no longer used: it needs the prompt rendered on our side, in one
model's template, and `/v1/chat/completions` streams the same tokens with the same grammar and
the token counts (`stream_options.include_usage`).

If the server turns the grammar down (started with `--disable-grammar-support`), the backend
goes on without it and says so once (`LLMHealth.unconstrained`); the parser then does the work.
"""

from __future__ import annotations

import httpx

from agent.llm.base import LLMHealth
from agent.llm.openai_compat import OpenAICompatLLM

START_HINT = (
    "start text-generation-inference there, for example `docker run --gpus all -p 8080:80 "
    "ghcr.io/huggingface/text-generation-inference "
    "--model-id mistralai/Mixtral-8x7B-Instruct-v0.1`, "
    "or set MOVIEAGENT_LLM=llamacpp to use the built-in CPU model"
)


class TGILLM(OpenAICompatLLM):
    start_hint = START_HINT

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        timeout_s: float = 60.0,  # each request brings its own (`LLMRequest.timeout_s`)
        http: httpx.Client | None = None,
    ) -> None:
        self.root = url.rstrip("/")
        # TGI serves one model and ignores the name; "tgi" is what its own docs send
        super().__init__(
            f"{self.root}/v1",
            model="tgi",
            api_key=token,
            timeout_s=timeout_s,
            http=http,
            grammar="tgi",
        )

    def describe(self) -> str:
        return f"TGI at {self.root}"

    def health(self) -> LLMHealth:
        """`GET /info`: the served model id, without generating."""
        try:
            response = self._http.get(f"{self.root}/info", timeout=5.0)
            info = response.json() if response.status_code == 200 else {}
        except (httpx.HTTPError, ValueError) as e:
            detail = f"nothing answers at {self.root}: {START_HINT}. ({e})"
            return LLMHealth(reachable=False, detail=detail)
        return LLMHealth(
            reachable=True,
            model=str(info.get("model_id", "")),
            detail=self.describe(),
            unconstrained=self.unconstrained,
        )
