"""The model process: one `Llama` serving generations over two pipes, one at a time.

Started by `agent.llm.llama_process.LlamaProcess` as `python -m agent.llm.llama_worker IN OUT`
(two inherited pipe descriptors carrying `multiprocessing.connection` messages, plain dicts):

- in:  `{"kind": "load", ...options}` once, then `{"kind": "generate", "id", "messages",
  "json_schema", "stop", "max_tokens"}` and `{"kind": "cancel", "id"}`;
- out: `{"kind": "ready", "source", "warning", "n_ctx", "n_threads"}` or a load `error`, then per
  generation `chunk`s (`text`) and one `done` (`finish`, `prompt_tokens`, `completion_tokens`,
  `cached_tokens`: the prompt prefix the KV cache already held) or `error` (`error`: "context" or "internal", `message`).

The same `Llama` serves every request, so llama-cpp-python reuses the longest common prompt
prefix of consecutive calls from its KV cache. A reader thread owns the input pipe: when the
app dies, the pipe reaches end-of-file and the process exits at once, even mid-generation, so
no model process outlives the app. Native logs go to stderr, never into the pipes.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
from collections import deque
from multiprocessing.connection import Connection
from typing import Any

from agent.llm.llama_load import ModelLoadError, load_model

CONTEXT_OVERFLOW = "exceed context window"  # llama-cpp-python's ValueError for a long prompt


class Worker:
    def __init__(self, inbox: queue.Queue[dict[str, Any]], out: Connection) -> None:
        self.inbox = inbox
        self.out = out
        self.pending: deque[dict[str, Any]] = deque()
        self.grammars: dict[str, Any] = {}
        self.llama: Any = None
        self.seed = 0

    def run(self) -> None:
        options = self.inbox.get()
        self.seed = int(options.pop("seed", 0))
        options.pop("kind", None)
        model_path = options.pop("model_path", None)
        try:
            model = load_model(model_path, {**options, "verbose": False})
        except ModelLoadError as e:
            self.out.send({"kind": "error", "error": "load", "message": str(e)})
            return
        self.llama = model.llama
        self.out.send(
            {
                "kind": "ready",
                "source": model.source,
                "warning": model.warning,
                "n_ctx": self.llama.n_ctx(),
                "n_threads": self.llama.n_threads,
                "pid": os.getpid(),
            }
        )
        while True:
            message = self.pending.popleft() if self.pending else self.inbox.get()
            if message["kind"] == "generate":
                self.generate(message)

    def generate(self, request: dict[str, Any]) -> None:
        rid = request["id"]
        try:
            self.out.send({"kind": "done", "id": rid, **self._generate(request)})
        except ValueError as e:
            kind = "context" if CONTEXT_OVERFLOW in str(e) else "internal"
            self.out.send({"kind": "error", "id": rid, "error": kind, "message": str(e)})
        except Exception as e:  # one bad request must not end the process
            message = f"{type(e).__name__}: {e}"
            self.out.send({"kind": "error", "id": rid, "error": "internal", "message": message})

    def _generate(self, request: dict[str, Any]) -> dict[str, Any]:
        schema = request.get("json_schema")
        before = self.llama.input_ids[: self.llama.n_tokens].tolist()  # what the KV cache holds
        chunks = self.llama.create_chat_completion(
            messages=request["messages"],
            grammar=self._grammar(schema) if schema else None,
            max_tokens=request["max_tokens"],
            stop=request.get("stop") or None,
            temperature=0.0,
            seed=self.seed,
            stream=True,
        )
        generated, finish = 0, None
        for chunk in chunks:
            if self._cancelled(request["id"]):
                finish = "cancelled"
                break
            choice = chunk["choices"][0]
            text = choice.get("delta", {}).get("content") or ""
            if text:
                generated += 1
                self.out.send({"kind": "chunk", "id": request["id"], "text": text})
            finish = choice.get("finish_reason") or finish
        prompt = max(0, int(self.llama.n_tokens) - generated)
        return {
            "finish": finish or "stop",
            "prompt_tokens": prompt,
            "completion_tokens": generated,
            "cached_tokens": _common_prefix(before, self.llama.input_ids[:prompt].tolist()),
        }

    def _cancelled(self, rid: int) -> bool:
        while True:
            try:
                message = self.inbox.get_nowait()
            except queue.Empty:
                return False
            if message["kind"] == "cancel" and message["id"] == rid:
                return True
            if message["kind"] == "generate":
                self.pending.append(message)

    def _grammar(self, schema: dict[str, Any]) -> Any:
        from llama_cpp import LlamaGrammar

        key = json.dumps(schema)  # key order matters: it is the order the grammar imposes
        if key not in self.grammars:
            self.grammars[key] = LlamaGrammar.from_json_schema(key, verbose=False)
        return self.grammars[key]


def _common_prefix(a: list[int], b: list[int]) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def _read(source: Connection, inbox: queue.Queue[dict[str, Any]]) -> None:
    """Hand every message to the worker; when the app is gone, end this process at once."""
    try:
        while True:
            inbox.put(source.recv())
    except (EOFError, OSError):
        os._exit(0)


def main(argv: list[str]) -> None:
    source = Connection(int(argv[1]), writable=False)
    out = Connection(int(argv[2]), readable=False)
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_read, args=(source, inbox), daemon=True).start()
    Worker(inbox, out).run()


if __name__ == "__main__":
    main(sys.argv)
