"""A scripted server that speaks TGI's documented HTTP API, on a free loopback port.

`/` (TGI's compat route, where `huggingface_hub`'s `InferenceClient` posts when given the base
URL: `/generate_stream` when the body says `"stream": true`, else `/generate`), `/generate`,
`/generate_stream` (server-sent events), `/info`, `/health` and the Messages API
`/v1/chat/completions` (+ `/v1/models`). Replies come from a queue: a string is generated text;
an `int` (or `(status, message)`) is an HTTP error answered with TGI's error body. Every request is recorded.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL_ID = "mistralai/Mixtral-8x7B-Instruct-v0.1"


class TGIServer:
    def __init__(self) -> None:
        self.replies: list[str | int | tuple[int, str]] = []
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def enqueue(self, *replies: str | int | tuple[int, str]) -> None:
        self.replies.extend(replies)

    def posted(self, path: str) -> list[dict[str, Any]]:
        return [body for p, body in self.requests if p == path]

    def start(self) -> TGIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def next_reply(self) -> str | int | tuple[int, str]:
        return self.replies.pop(0) if self.replies else 500


def tokens(text: str) -> list[str]:
    """Roughly how a tokenizer cuts text: words with their leading space, punctuation alone."""
    return re.findall(r"\s*\w+|\s*[^\w\s]|\s+", text)


def _handler(server: TGIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            server.requests.append((self.path, {}))
            if self.path == "/health":
                self._send(200, None)
            elif self.path == "/info":
                self._send(
                    200, {"model_id": MODEL_ID, "max_input_tokens": 4095, "version": "2.4.1"}
                )
            elif self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]})
            else:
                self._send(404, {"error": "not found", "error_type": "not_found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            server.requests.append((self.path, body))
            reply = server.next_reply()
            if isinstance(reply, int):
                reply = (reply, f"scripted failure {reply}")
            if isinstance(reply, tuple):
                status, message = reply
                kind = {503: "overloaded", 422: "validation"}.get(status, "generation")
                self._send(status, {"error": message, "error_type": kind})
                return
            prompt_tokens = len(tokens(str(body.get("inputs", body.get("messages", "")))))
            path = self.path
            if path == "/":
                path = "/generate_stream" if body.get("stream") else "/generate"
            if path == "/generate":
                details = {"finish_reason": "eos_token", "generated_tokens": len(tokens(reply))}
                self._send(200, {"generated_text": reply, "details": details})
            elif path == "/generate_stream":
                self._stream_tgi(reply, prompt_tokens)
            elif path == "/v1/chat/completions":
                self._stream_openai(reply, prompt_tokens)
            else:
                self._send(404, {"error": "not found", "error_type": "not_found"})

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
