"""Scripted servers on a free loopback port that speak TGI's or vLLM's documented HTTP API.

`TGIServer`: `/info` (with `model_id` and `router`), `/health`, the Messages API
`/v1/chat/completions` (+ `/v1/models`), and the raw `/generate` and `/generate_stream`. Like
TGI, it renders the messages with the served model's own chat template (Mixtral's `[INST]` or
Qwen's ChatML, by `model_id`), takes a grammar only as `{"type": "json", "value": ...}` and
turns OpenAI's `json_schema` shape down with a 422.

`VLLMServer`: no `/info`; `/v1/chat/completions` takes OpenAI's `json_schema` shape (and
`json_object`) and turns TGI's shape down with a 400, as vLLM's request validation does. It takes
OpenAI `tools` when started with a tool parser (`tool_parser=True`, as `vllm serve
--enable-auto-tool-choice --tool-call-parser hermes`), else turns `tool_choice: auto` down with
vLLM's 400; a scripted `ToolCalls` reply streams as vLLM streams `tool_calls` deltas (id and
name first, then the arguments in fragments, `finish_reason: "tool_calls"`).

Replies come from a queue: a string is generated text; an `int` (or `(status, message)`) is an
HTTP error with the server's error body. Every request is recorded, with the prompt the
server rendered from the messages.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

MODEL_ID = "mistralai/Mixtral-8x7B-Instruct-v0.1"
QWEN_ID = "Qwen/Qwen2.5-7B-Instruct"


@dataclass(frozen=True)
class ToolCalls:
    """A scripted reply that calls tools: `(name, arguments as JSON text)` pairs."""

    calls: tuple[tuple[str, str], ...]
    content: str = ""


Reply = str | int | tuple[int, str] | ToolCalls


class TGIServer:
    kind: ClassVar[str] = "tgi"

    def __init__(self, model_id: str = MODEL_ID, grammar: bool = True) -> None:
        self.model_id = model_id
        self.grammar = grammar  # False: as if started with --disable-grammar-support
        self.replies: list[Reply] = []
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.rendered: list[str] = []  # each chat request's prompt, in the served template
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def enqueue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def posted(self, path: str) -> list[dict[str, Any]]:
        return [body for p, body in self.requests if p == path]

    def start(self) -> TGIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_reply(self) -> Reply:
        return self.replies.pop(0) if self.replies else 500

    def info(self) -> dict[str, Any] | None:
        return {
            "model_id": self.model_id,
            "max_input_tokens": 4095,
            "version": "3.3.6",
            "router": "text-generation-router",
        }

    def props(self) -> dict[str, Any] | None:
        """llama.cpp's server's `GET /props` (its context in `default_generation_settings`);
        None: the server has none."""
        return None

    def model_card(self) -> dict[str, Any]:
        """The served model as `GET /v1/models` lists it."""
        return {"id": self.model_id, "object": "model"}

    def grammar_refusal(self, response_format: Any) -> tuple[int, str] | None:
        """TGI's answer to a `response_format` it cannot take, or None when it takes it."""
        kind = response_format.get("type") if isinstance(response_format, dict) else None
        if kind not in ("json", "regex", "json_object"):
            return (
                422,
                "Failed to deserialize the JSON body into the target type: response_format: "
                f"unknown variant `{kind}`, expected one of `json`, `regex`, `json_object`",
            )
        if not self.grammar:
            return 422, "Grammar and tools are not supported by this model"
        return None

    def tools_refusal(self, body: dict[str, Any]) -> tuple[int, str] | None:
        return None

    def render(self, messages: list[dict[str, str]]) -> str:
        """The served model's chat template, as the real server applies it."""
        if self.model_id.startswith("Qwen/"):
            turns = [f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages]
            return "".join(turns) + "<|im_start|>assistant\n"
        return "".join(
            f"[INST] {m['content']} [/INST]" if m["role"] == "user" else f" {m['content']}</s>"
            for m in messages
        )


class VLLMServer(TGIServer):
    kind: ClassVar[str] = "vllm"

    def __init__(self, model_id: str = MODEL_ID, tool_parser: bool = True) -> None:
        super().__init__(model_id)
        self.tool_parser = tool_parser

    def tools_refusal(self, body: dict[str, Any]) -> tuple[int, str] | None:
        if body.get("tool_choice") == "auto" and not self.tool_parser:
            return (
                400,
                '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser '
                "to be set",
            )
        return None

    def info(self) -> dict[str, Any] | None:
        return None  # vLLM has no /info

    def model_card(self) -> dict[str, Any]:
        return {**super().model_card(), "max_model_len": 8192}  # vLLM's --max-model-len

    def grammar_refusal(self, response_format: Any) -> tuple[int, str] | None:
        kind = response_format.get("type") if isinstance(response_format, dict) else None
        if kind == "json_schema" and "schema" in response_format.get("json_schema", {}):
            return None
        if kind in ("json_object", "text"):
            return None
        return (
            400,
            "1 validation error for ChatCompletionRequest\nresponse_format.type\n  Input should "
            f"be 'text', 'json_object' or 'json_schema' [input_value='{kind}']",
        )


def tokens(text: str) -> list[str]:
    """Roughly how a tokenizer cuts text: words with their leading space, punctuation alone."""
    return re.findall(r"\s*\w+|\s*[^\w\s]|\s+", text)


def _handler(server: TGIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            server.requests.append((self.path, {}))
            info = server.info()
            if self.path == "/health":
                self._send(200, None)
            elif self.path == "/info" and info is not None:
                self._send(200, info)
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [server.model_card()]})
            elif self.path == "/props" and server.props() is not None:
                self._send(200, server.props())
            else:
                self._send(404, {"error": "not found", "error_type": "not_found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            server.requests.append((self.path, body))
            if self.path == "/v1/chat/completions":
                refusal = (
                    server.grammar_refusal(body["response_format"])
                    if "response_format" in body
                    else None
                )
                if refusal is None and "tools" in body:
                    refusal = server.tools_refusal(body)
                if refusal is not None:
                    self._error(*refusal)
                    return
                server.rendered.append(server.render(body["messages"]))
            reply = server.next_reply()
            if isinstance(reply, int):
                reply = (reply, f"scripted failure {reply}")
            if isinstance(reply, tuple):
                self._error(*reply)
                return
            if isinstance(reply, ToolCalls):
                self._stream_tool_calls(reply)
            elif self.path == "/v1/chat/completions":
                self._stream_openai(reply, len(tokens(server.rendered[-1])))
            elif self.path == "/generate":
                details = {"finish_reason": "eos_token", "generated_tokens": len(tokens(reply))}
                self._send(200, {"generated_text": reply, "details": details})
            elif self.path == "/generate_stream":
                self._stream_tgi(reply, len(tokens(str(body.get("inputs", "")))))
            else:
                self._send(404, {"error": "not found", "error_type": "not_found"})

        def _error(self, status: int, message: str) -> None:
            if server.kind == "vllm":
                self._send(status, {"object": "error", "message": message, "code": status})
                return
            kind = {503: "overloaded", 422: "validation"}.get(status, "generation")
            self._send(status, {"error": message, "error_type": kind})

        def _stream_tgi(self, reply: str, prompt_tokens: int) -> None:
            self._start_events()
            pieces = [*tokens(reply), "</s>"]
            for i, piece in enumerate(pieces):
                last = i == len(pieces) - 1
                event = {
                    "index": i + 1,
                    "token": {"id": i, "text": piece, "logprob": -0.1, "special": last},
                    "generated_text": reply if last else None,
                    "details": {
                        "finish_reason": "eos_token",
                        "generated_tokens": len(pieces),
                        "input_length": prompt_tokens,
                        "seed": None,
                    }
                    if last
                    else None,
                }
                self._event(event)

        def _stream_openai(self, reply: str, prompt_tokens: int) -> None:
            self._start_events()
            for piece in tokens(reply):
                choice = {"index": 0, "delta": {"role": "assistant", "content": piece}}
                self._event({"object": "chat.completion.chunk", "choices": [choice]})
            done = {"index": 0, "delta": {}, "finish_reason": "stop"}
            self._event({"object": "chat.completion.chunk", "choices": [done]})
            usage = {"prompt_tokens": prompt_tokens, "completion_tokens": len(tokens(reply))}
            self._event({"object": "chat.completion.chunk", "choices": [], "usage": usage})
            self.wfile.write(b"data: [DONE]\n\n")

        def _stream_tool_calls(self, reply: ToolCalls) -> None:
            self._start_events()
            for piece in tokens(reply.content):
                choice = {"index": 0, "delta": {"content": piece}}
                self._event({"object": "chat.completion.chunk", "choices": [choice]})
            for index, (name, arguments) in enumerate(reply.calls):
                opening = {
                    "index": index,
                    "id": f"chatcmpl-tool-{index}",
                    "type": "function",
                    "function": {"name": name, "arguments": ""},
                }
                deltas = [opening] + [
                    {"index": index, "function": {"arguments": arguments[i : i + 5]}}
                    for i in range(0, len(arguments), 5)
                ]
                for delta in deltas:
                    choice = {"index": 0, "delta": {"tool_calls": [delta]}}
                    self._event({"object": "chat.completion.chunk", "choices": [choice]})
            done = {"index": 0, "delta": {}, "finish_reason": "tool_calls"}
            self._event({"object": "chat.completion.chunk", "choices": [done]})
            self.wfile.write(b"data: [DONE]\n\n")

        def _start_events(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()

        def _event(self, payload: dict[str, Any]) -> None:
            self.wfile.write(f"data:{json.dumps(payload)}\n\n".encode())
            self.wfile.flush()

        def _send(self, status: int, payload: dict[str, Any] | None) -> None:
            data = b"" if payload is None else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
