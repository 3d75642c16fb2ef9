"""The agent as one pipeline: link -> prompt -> constrained step -> typed tool -> grounded answer.

`Agent.stream` yields typed events (see `agent.events`) and always ends with one `FinalAnswer`;
`Agent.ask` runs the same loop and returns the `AgentResult`.

1. **Link.** The question (and the last turns, for follow-ups) are linked to the graph
   (`semantic_layer.linking`): the movies, people, genres and years they mention.
2. **Prompt.** The model is shown the tools, the question and what linking found
   (`agent.prompt`); the model chooses the tool, nothing here overrides its choice. A follow-up
   that names nothing itself is first written again by the model naming what it points at, and
   the first of the last turns' movies and people the rewrite names is what it is about
   (`_refer`, `agent.referent`).
3. **Constrained step.** The grammar admits one tool call or a Final Answer, and offers the
   linked names for every argument that names a movie, a person or a genre (`agent.grammar`).
4. **Typed tool.** The arguments are validated once by the tool's input model, checked against
   the graph by the tool (`Tool.check`), and the tool runs; its result goes back as a compact
   Observation (`agent.observation`). A name nothing in the graph is called ("Il Padrino") is
   asked of the model once, in a short constrained reply, as the film's English title and its
   year; a read runs again with it when the graph holds that title by name, or a look-alike of
   it, of about that year (`_renamed`).
5. **Grounded answer.** The Final Answer may state only what the rows hold (`agent.grounded`);
   a draft that names something else, or that was cut off, is replaced by an answer rendered
   from the rows in the question's language (`agent.render`). A result that is an answer by
   itself ends the turn without another model call, rendered: candidates to choose from (the
   answer asks which one, unless a year the question writes picks one of them: then the model
   may call again with it), a rating stored or read, what the agent does, the filmography of
   the one person a question asks about (the payload's `answers`).

Nothing the model writes can raise: unusable replies and invalid arguments go back to it as
corrections, the last allowed step admits only a Final Answer, and limits end in a default
answer. Transient server errors are retried with exponential backoff; an unreachable model ends
the run with an `ErrorEvent` and a `FinalAnswer` whose text says what to start. The model's own
reply goes back into the next prompt verbatim so the backend's KV cache covers it.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from agent.dispatch import check_arguments, describe_arguments, run_tool
from agent.entities import resolved_entities
from agent.errors import AgentError, LLMUnavailableError
from agent.events import (
    AgentEvent,
    AnswerReplaced,
    AnswerToken,
    Correction,
    ErrorEvent,
    FinalAnswer,
    LLMCallEvent,
    LLMRetry,
    Referred,
    StepStarted,
    ToolCallEvent,
    ToolStarted,
)
from agent.grammar import FINAL_ANSWER, step_schema
from agent.grounded import (
    echoes_question,
    missing_films,
    other_language,
    unnamed_people,
    unnamed_recommendations,
    unsupported,
)
from agent.language import DEFAULT_LANGUAGE, Language, detect_language
from agent.llm.base import (
    LLM,
    MAX_NEW_TOKENS,
    ChatMessage,
    LLMRequest,
    LLMTransientError,
    TokenUsage,
    estimate_tokens,
)
from agent.llm.native_tools import tool_specs
from agent.observation import OBSERVATION_TOKENS, estimate, fit_observation
from agent.parsing import Answer, Malformed, ToolCall, parse_step
from agent.prompt import ReactPrompt, ScratchpadStep, normalize_history
from agent.referent import REFERENT_TOKENS, Option, label, options, pointed_at, rewrite_schema
from agent.render import capabilities, render_answer, step_limit, which_one
from agent.result import AgentResult, LLMCall, StopReason, Timings, ToolStep
from agent.streaming import FinalAnswerStream, ObjectEnd
from semantic_layer.errors import ToolArgumentsError
from semantic_layer.linking.arguments import dated_arguments, linked_names
from semantic_layer.linking.linker import link
from semantic_layer.linking.mentions import Linked
from semantic_layer.linking.numbers import with_spelled
from semantic_layer.resolve.kind import recalled_title
from semantic_layer.resolve.reader import Reader
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.result import Candidate, ToolResult
from semantic_layer.user_ratings import rated_among

log = logging.getLogger(__name__)

STOP_SEQUENCES = ["Observation:"]
CONTEXT_TOKENS = 4096  # when the backend does not say its context window
TRAILING_CHUNKS = 2  # after the JSON object closes: chunks still read, waiting for the usage
LOOP_SPAN = 80  # an answer whose last this many characters came before is looping: cut it there
ANSWER_CHARS = 400  # past this, an answer stops at its next sentence end
EARLIER_TURNS = 2  # the last turns linked for a follow-up ("who directed it?")
ANSWERED_PEOPLE = 5  # the last answer's people shown for a follow-up ("what else was she in?")
_SENTENCE_GAP = re.compile(r"(?<=[\w)][.!?])\s|(?<=[\u3002\uff01\uff1f])")
_UNFINISHED = re.compile(r"[,;:\-\u2013\u2014(]\s*$")  # ends where the text was to go on
History = Iterable[ChatMessage | Mapping[str, str]]
RENAMED_TOKENS = 40  # the reply naming a film's English title


class Renamed(BaseModel):
    """The reply that names the title the graph may hold a film under, and its year."""

    title: str = Field(max_length=120)
    year: int | None = None


RENAMED_SCHEMA = Renamed.model_json_schema()


class Agent:
    """A JSON ReAct agent over a list of tools and one `LLM` backend.

    Built once per process: the prompt and the grammars are rendered here from the tools, and
    each question brings its own `ToolContext` (graph and session) to `stream` / `ask`.
    """

    def __init__(
        self,
        llm: LLM,
        tools: Sequence[Tool[Any]],
        *,
        max_steps: int = 5,
        max_retries: int = 2,
        backoff_s: float = 0.5,
        call_timeout_s: float = 60.0,
        max_new_tokens: int = MAX_NEW_TOKENS,
        grammar: bool = True,
        tool_first: bool = False,
        context_tokens: int | None = None,
        observation_tokens: int = OBSERVATION_TOKENS,
        answer_chars: int = ANSWER_CHARS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.llm = llm
        self.tools = {tool.name: tool for tool in tools}
        self.max_steps = max_steps
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.call_timeout_s = call_timeout_s
        self.max_new_tokens = max_new_tokens
        self.grammar = grammar and llm.supports_grammar
        self._context_tokens = context_tokens  # None: the backend's own window, else 4096
        self.observation_tokens = observation_tokens
        self.answer_chars = answer_chars
        self._sleep = sleep
        self._prompt = ReactPrompt(list(tools))
        self._final_schema = step_schema(list(tools), final_only=True)
        self._tool_specs = tool_specs(list(tools))  # for backends that call tools natively
        # With `tool_first`, the first step's grammar admits only a tool call (smalltalk included),
        # so even a small model answers from what the graph returned.
        self._tool_first = tool_first and max_steps > 1

    def warm_up(self) -> None:
        """Send the static head of the prompt (rules and tools) once, generating one token, so
        a backend that keeps its KV cache has it ready before the first question."""
        request = LLMRequest(
            messages=self._prompt.messages(""), max_new_tokens=1, timeout_s=self.call_timeout_s
        )
        try:
            for _ in self.llm.stream(request):
                pass
        except AgentError as e:  # the first question will say what is wrong
            log.info("warm-up failed: %s", e)

    def warm_up_in_background(self) -> threading.Thread | None:
        """`warm_up` in a daemon thread, for a backend that keeps its KV cache (else None)."""
        if not self.llm.caches_prompt:
            return None
        thread = threading.Thread(target=self.warm_up, name="llm-warm-up", daemon=True)
        thread.start()
        return thread

    def ask(
        self, question: str, history: History = (), context: ToolContext | None = None
    ) -> AgentResult:
        """Run one question to the end and return everything it produced."""
        for event in self.stream(question, history, context):
            if isinstance(event, FinalAnswer):
                return event.result
        raise AssertionError("Agent.stream ended without a FinalAnswer")  # pragma: no cover

    def stream(
        self, question: str, history: History = (), context: ToolContext | None = None
    ) -> Iterator[AgentEvent]:
        """Yield one event per step; the last one is always a `FinalAnswer`.

        The tools run against `context` (default: a guest with no graph). When a tool gives a
        guest a user id, the rest of the question runs as that user and the result's
        `new_user_id` tells the caller to switch its session."""
        run = _Run(question, normalize_history(history), context or ToolContext())
        try:
            run.link()
            yield from self._steps(run)
        except AgentError as e:
            log.info("agent run ended: %s", e)
            yield ErrorEvent(error=type(e).__name__, message=str(e))
            run.finish(str(e), "error", error=str(e))
        yield run.final_event()

    def _steps(self, run: _Run) -> Iterator[AgentEvent]:
        for step in range(1, self.max_steps + 1):
            final_only = step == self.max_steps and step > 1
            yield StepStarted(step=step, max_steps=self.max_steps, final_only=final_only)
            answer_stream = FinalAnswerStream()
            if step == 1 and run.referents:  # a follow-up that names nothing itself
                yield from self._refer(run, step)
            request = self._step_request(run, step, final_only)
            text, call = yield from self._call_llm(run, step, request, answer_stream)
            run.llm_calls.append(call)
            yield LLMCallEvent(**dict(call))
            parsed = parse_step(text, list(self.tools), truncated=call.finish_reason == "length")
            if isinstance(parsed, Answer):
                if not answer_stream.active:
                    yield from _tokens(parsed.text)
                draft = answer_stream.ended or parsed.text
                if run.candidates:  # names to choose from are not facts: the answer asks
                    answer = which_one(run.candidates, run.language)
                    if answer != draft:
                        run.rendered = ["candidates to choose from"]
                else:
                    answer = self._grounded(run, draft, cut=call.finish_reason == "length")
                if answer != draft:
                    yield AnswerReplaced(text=answer)
                run.finish(answer, "answer")
                return
            if isinstance(parsed, Malformed):
                yield self._correct(run, step, text, parsed)
            elif final_only:
                break  # without a grammar the model may still ask for a tool: no steps left
            else:
                done = len(run.steps)
                yield from self._call_tool(run, step, parsed, text)
                if len(run.steps) > done and (rendered := _answered(run)) is not None:
                    yield from _tokens(rendered)
                    run.finish(rendered, "answer")
                    return
        answer = self._default_answer(run)
        yield from _tokens(answer)
        run.finish(answer, "step_limit")

    def _grounded(self, run: _Run, draft: str, *, cut: bool) -> str:
        """The draft when every name and relation in it is one a row holds, it ends as a
        sentence and it is written in the question's language; otherwise an answer rendered
        from the rows, in the question's language."""
        results = [s.result for s in run.steps]
        said = " ".join([run.question, *(m.content for m in run.history)])
        graph = run.context.graph
        problems = unsupported(draft, results, graph, run.language, said)
        linked = link(graph, draft) if graph is not None else None  # once, for each check
        if graph is not None:  # the answer's films are read against the graph
            for missing in (missing_films, unnamed_recommendations, unnamed_people):
                if (problem := missing(draft, results, graph, linked)) is not None:
                    problems.append(problem)
        if (problem := other_language(draft, run.language, graph, linked)) is not None:
            problems.append(problem)
        if (problem := echoes_question(draft, run.question, results)) is not None:
            problems.append(problem)
        if cut or _UNFINISHED.search(draft):
            problems.append("the answer stops mid-sentence")
        if not draft.strip():
            problems.append("empty answer")
        if not problems:
            return draft
        run.rendered = problems
        log.info("answer rendered from the rows: %s", "; ".join(problems))
        if not run.steps:  # no tool ran: nothing to render, say what the agent can do
            return capabilities(run.language)
        return render_answer([r for r in results if r is not None], run.language)

    def _step_schema(self, run: _Run, step: int, final_only: bool) -> dict[str, Any]:
        if final_only or run.answer_only:
            return self._final_schema
        tools_only = step == 1 and self._tool_first
        offered = [tool for name, tool in self.tools.items() if name not in run.answered_by]
        return step_schema(offered, tools_only=tools_only, linked=run.named(), earlier=run.asked)

    def _step_request(self, run: _Run, step: int, final_only: bool) -> LLMRequest:
        first = self._tool_first
        final_only = final_only or run.answer_only
        return LLMRequest(
            messages=self._messages(run, final_only),
            json_schema=self._step_schema(run, step, final_only) if self.grammar else None,
            stop=STOP_SEQUENCES,
            max_new_tokens=self.max_new_tokens,
            timeout_s=self.call_timeout_s,
            tools=self._tool_specs,
            tool_choice="none" if final_only else "required" if step == 1 and first else "auto",
        )

    def _call_llm(
        self,
        run: _Run,
        step: int,
        request: LLMRequest,
        answer_stream: FinalAnswerStream,
    ) -> Generator[AgentEvent, None, tuple[str, LLMCall]]:
        for attempt in range(1, self.max_retries + 2):
            started = time.perf_counter()
            pieces: list[str] = []
            try:
                finish, usage = yield from self._consume(request, pieces, answer_stream, started)
            except LLMTransientError as e:
                if attempt > self.max_retries or answer_stream.active:
                    raise LLMUnavailableError(
                        f"{self.llm.describe()} kept failing ({e}); check that it is running "
                        "and not overloaded, then ask again."
                    ) from e
                wait = self.backoff_s * 2 ** (attempt - 1)
                yield LLMRetry(step=step, attempt=attempt, error=str(e), wait_s=wait)
                self._sleep(wait)
                continue
            finally:
                run.llm_ms += (time.perf_counter() - started) * 1000
            text = "".join(pieces)
            call = LLMCall(
                step=step,
                prompt_tokens=usage.prompt_tokens or _estimate_prompt(request.messages),
                completion_tokens=usage.completion_tokens or estimate_tokens(text),
                estimated_tokens=usage.estimated or not usage.prompt_tokens,
                ms=(time.perf_counter() - started) * 1000,
                finish_reason=finish,
                attempts=attempt,
                completion=text,
            )
            return text, call
        raise AssertionError("unreachable")  # pragma: no cover

    def _consume(
        self,
        request: LLMRequest,
        pieces: list[str],
        answer_stream: FinalAnswerStream,
        started: float,
    ) -> Generator[AgentEvent, None, tuple[str | None, TokenUsage]]:
        finish: str | None = None
        usage = TokenUsage(estimated=True)
        end, trailing, answer = ObjectEnd(), 0, ""
        deadline = started + request.timeout_s  # pushed back by the time spent in a queue
        chunks = self.llm.stream(request)
        try:
            for chunk in chunks:
                deadline += chunk.waited_s
                if chunk.text and end.done:  # the reply is complete: wait briefly for the usage
                    trailing += 1
                    if chunk.text.strip() or trailing > TRAILING_CHUNKS:
                        finish = finish or "stop"
                        break
                elif chunk.text:
                    pieces.append(chunk.text)
                    end.feed(chunk.text)
                    answer_piece = answer_stream.feed(chunk.text)
                    keep = sentence_end(answer, answer_piece, self.answer_chars)
                    if keep is not None:  # long enough, and a sentence ends here: stop
                        answer_piece = answer_piece[:keep]
                    if answer_piece:
                        yield AnswerToken(text=answer_piece)
                        answer += answer_piece
                    if keep is not None:
                        answer_stream.ended, finish = answer, "stop"
                        break
                    if _looping(answer) or len(answer) > 2 * self.answer_chars:
                        finish = "length"  # repeating itself, or a list with no end: as at the cap
                        break
                if chunk.finish_reason is not None:
                    finish, usage = chunk.finish_reason, chunk.usage or usage
                if time.perf_counter() > deadline:
                    raise LLMTransientError(f"no complete reply within {request.timeout_s:g} s")
        except AgentError:
            raise
        except Exception as e:  # a backend's bug must end in a sentence, not end the app
            raise LLMTransientError(f"{type(e).__name__}: {e}") from e
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        return finish, usage

    def _correct(self, run: _Run, step: int, text: str, parsed: Malformed) -> Correction:
        run.fallback_answer = parsed.fallback_answer or run.fallback_answer
        return self._send_back(run, step, _clip(text), parsed.problem, **parsed.details)

    def _send_back(
        self, run: _Run, step: int, reply: str, reason: str, **details: str
    ) -> Correction:
        """The reply goes back with the `reason` correction as its Observation: try again."""
        observation = self._prompt.correction(reason, **details)
        run.scratchpad.append(ScratchpadStep(reply=reply, observation=observation, retry=True))
        return Correction(step=step, reason=reason, observation=observation)

    def _messages(
        self, run: _Run, final_only: bool, reserve: int = 0, ask: str = ""
    ) -> list[ChatMessage]:
        """The prompt, with the oldest history pairs left out while it would not fit (with
        `reserve` tokens to spare)."""
        history = run.history
        while True:
            messages = self._prompt.messages(
                run.question, history, run.scratchpad, final_only, linked=run.linked,
                earlier=run.asked, answered=run.answered, language=run.language,
                about=run.about, ask=ask,
            )  # fmt: skip
            if len(history) < 2 or _prompt_size(messages) <= self._prompt_budget() - reserve:
                return messages
            history = history[2:]

    @property
    def context_tokens(self) -> int:
        """The context window the prompt must fit: given, else what the backend runs with."""
        return self._context_tokens or self.llm.context_window() or CONTEXT_TOKENS

    def _prompt_budget(self) -> int:
        budget = self.context_tokens - self.max_new_tokens
        limit = None if self._context_tokens else self.llm.prompt_limit()
        return min(budget, limit) if limit else budget

    def _observation_budget(self, run: _Run) -> int:
        """What the next Observation may take: its own budget, or what the context has left
        once old history makes room for it (this turn's Observation comes before old turns)."""
        used = _prompt_size(self._messages(run, final_only=False, reserve=self.observation_tokens))
        return max(64, min(self.observation_tokens, self._prompt_budget() - used - 64))

    def _call_tool(self, run: _Run, step: int, call: ToolCall, text: str) -> Iterator[AgentEvent]:
        tool = self.tools[call.tool]
        try:
            parsed = tool.parse(call.args)
        except ToolArgumentsError as e:
            reply = _blob(call.tool, call.args)
            key = json.dumps(["invalid", tool.name, call.args], sort_keys=True, default=str)
            if key in run.questioned:  # the same invalid call again: a third would be too
                run.answer_only = True
            run.questioned.add(key)
            yield self._send_back(
                run, step, reply, "invalid_arguments",
                tool=tool.name, errors=str(e), arguments=describe_arguments(tool),
            )  # fmt: skip
            return
        # with a grammar the reply is exactly one JSON object: kept verbatim, the next prompt
        # extends the text the backend has just generated (and cached)
        reply = text.strip() if self.grammar else _blob(call.tool, call.args)
        parsed, wrong = check_arguments(tool, parsed, run.context)  # names the graph knows
        if wrong is None and run.context.graph is not None:
            parsed = dated_arguments(parsed, run.context.graph, run.dated)
        key = json.dumps([tool.name, call.args], sort_keys=True, default=str)
        if wrong is not None and f"kind {key}" not in run.questioned:  # a film as a person
            run.questioned.add(f"kind {key}")
            yield self._send_back(run, step, reply, "wrong_kind", tool=tool.name, errors=wrong)
            return
        arguments = parsed.model_dump(mode="json", exclude_unset=True)
        key = json.dumps([tool.name, arguments], sort_keys=True, default=str)
        if key in run.calls:
            observation = self._prompt.correction("repeated_call", tool=tool.name)
            run.scratchpad.append(ScratchpadStep(reply=reply, observation=observation))
            run.answer_only = True  # the model has all it will get: only an answer is left
            yield Correction(step=step, reason="repeated_call", observation=observation)
            return
        run.calls.add(key)
        yield ToolStarted(step=step, tool=tool.name, input=arguments)
        started = time.perf_counter()
        result = run_tool(tool, parsed, run.context)
        ms = (time.perf_counter() - started) * 1000
        run.tool_ms += ms
        observation = fit_observation(result, self._observation_budget(run))
        run.scratchpad.append(ScratchpadStep(reply=reply, observation=observation))
        run.note_result(result)
        record = ToolStep(
            step=step, tool=tool.name, input=arguments, output=observation, result=result, ms=ms
        )
        run.steps.append(record)
        yield ToolCallEvent(**dict(record))
        if result.unmatched and not run.renamed and tool.mode == "read":
            # (a write runs only on the name the user wrote: a guessed title stores nothing)
            yield from self._renamed(run, step, tool, arguments, result)

    def _renamed(
        self, run: _Run, step: int, tool: Tool[Any], arguments: dict[str, Any], result: ToolResult
    ) -> Iterator[AgentEvent]:
        """Nothing in the graph is called what was typed ("Il Padrino"): the model is asked, in
        one short constrained reply, for the title the graph may hold it under (its English
        title, its spelling) and its year, and the call runs again with it, once a question.
        The look-alikes the result offers are not shown (the model copied them); a title the
        graph holds as written counts, or its closest look-alike, of about that year (title and
        year recalled together: `recalled_title`), and not one of the look-alikes of what was typed
        (the user chooses among those); else the result stands as it was."""
        typed, graph = result.unmatched or "", run.context.graph
        run.renamed = True
        last = run.scratchpad[-1]
        asked = self._prompt.unmatched(typed)
        run.scratchpad[-1] = ScratchpadStep(reply=last.reply, observation=asked, retry=True)
        messages = self._messages(run, final_only=False)
        text = yield from self._short_reply(run, step, messages, RENAMED_SCHEMA, RENAMED_TOKENS)
        reply = _renamed(text)
        names = (n for c in result.candidates for n in (c.label, c.title, c.name) if n)
        offered = {name.casefold() for name in (typed, *names)}
        title = None if graph is None else recalled_title(graph, reply.title, reply.year)
        if (
            title is None
            or title.casefold() in offered
            or (renamed := _replaced(arguments, typed, title)) == arguments
        ):
            run.scratchpad[-1] = last  # as if never asked: the answer reads the result
            return
        yield from self._call_tool(run, step, ToolCall(tool=tool.name, args=renamed), text)

    def _refer(self, run: _Run, step: int) -> Iterator[AgentEvent]:
        """A follow-up that names nothing itself ("What else has he directed?", "the second
        one"): the model writes it again in one short constrained reply, naming what it points
        at, and the first of the movies and people the last turns named that the rewrite names
        is what the question is about (`agent.referent`). The step then reads the question with
        that one, and the grammar offers its name; a rewrite naming none of them changes
        nothing."""
        messages = self._messages(run, final_only=False, ask=self._prompt.referent())
        schema = rewrite_schema(run.referents)
        text = yield from self._short_reply(run, step, messages, schema, REFERENT_TOKENS)
        graph = run.context.graph
        run.about = pointed_at(text, run.referents, graph) if graph is not None else None
        yield Referred(step=step, points_at=run.referent)

    def _short_reply(
        self,
        run: _Run,
        step: int,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        tokens: int,
    ) -> Generator[AgentEvent, None, str]:
        """One short constrained reply beside the steps (a title, what a follow-up points at);
        its prompt shares the step's head, so the backend's cache covers it."""
        request = LLMRequest(
            messages=messages,
            json_schema=schema if self.grammar else None,
            stop=STOP_SEQUENCES,
            max_new_tokens=tokens,
            timeout_s=self.call_timeout_s,
        )
        text, call = yield from self._call_llm(run, step, request, FinalAnswerStream())
        run.llm_calls.append(call)
        yield LLMCallEvent(**dict(call))
        return text

    def _default_answer(self, run: _Run) -> str:
        if run.candidates:
            return which_one(run.candidates, run.language)
        return run.fallback_answer or step_limit(self.max_steps, run.language)


class _Run:
    """The state of one question while the loop works on it."""

    def __init__(self, question: str, history: list[ChatMessage], context: ToolContext) -> None:
        self.question = question
        self.history = history
        self.context = context
        self.new_user_id: int | None = None
        self.scratchpad: list[ScratchpadStep] = []
        self.steps: list[ToolStep] = []
        self.calls: set[str] = set()  # tool calls already made, to catch repeats
        # calls sent back once: for names nobody mentioned, or refused arguments
        self.questioned: set[str] = set()
        self.answered_by: set[str] = set()  # tools whose result was usable: not offered again
        self.answer_only = False  # a repeated call: the next step may only answer
        self.renamed = False  # the model was asked for a title the graph holds (once)
        self.llm_calls: list[LLMCall] = []
        self.candidates: list[Candidate] = []
        self.fallback_answer: str | None = None
        self.linked = Linked()  # what the question mentions
        # what the user asked about in the last turns (for "it", "he", "that one"); the
        # answers' names are left out of it ("more like that" is not every title listed)
        self.asked = Linked()
        # the people the last answer named, the ones "he" or "she" may point at (its titles
        # are left out for the reason above)
        self.answered: list[str] = []
        # the films the question or the last turns dated (written with their year, or picked
        # by a year they write): which "Titanic" a follow-up means (`dated_arguments`)
        self.dated: set[int] = set()
        # a follow-up that names nothing: what it may point at, and the one its rewrite named
        self.referents: list[Option] = []
        self.about: Linked | None = None
        self.language = DEFAULT_LANGUAGE  # read by `link`, without the names it finds
        self.rendered: list[str] = []  # why the answer was rendered from the rows, if it was
        self.started = time.perf_counter()
        self.llm_ms = 0.0
        self.tool_ms = 0.0
        self.answer = ""
        self.stop_reason: StopReason = "answer"
        self.error: str | None = None

    def link(self) -> None:
        """Link the question, and the last turns for a follow-up, to the graph."""
        graph = self.context.graph
        self.linked, self.language = read_question(graph, self.question)
        turns = self.history[-2 * EARLIER_TURNS :]
        if turns:
            # what the user asked about; a turn that wrote numbers rated what it named ("Rate
            # The Big Lebowski 5."), and the user's ratings speak for it
            users = [link(graph, m.content) for m in reversed(turns) if m.role == "user"]
            self.asked = _merged([found for found in users if not found.numbers])
            answers = [m.content for m in reversed(turns) if m.role == "assistant"]
            last = link(graph, answers[0]) if answers else Linked()
            self.answered = [p.best.name for p in last.strong_people()[:ANSWERED_PEOPLE]]
            self.dated = set().union(*(found.dated_movies() for found in (*users, last)))
            if graph is not None and not self.linked.names_something():
                user = self.context.session.user_id
                self.referents = options(
                    self.asked, last, lambda films: rated_among(graph, user, films)
                )
        self.dated |= self.linked.dated_movies()

    @property
    def referent(self) -> str | None:
        """What a follow-up that names nothing points at, named as the last turns named it."""
        return label(self.about.mentions()[0]) if self.about is not None else None

    def named(self) -> Linked:
        """What the question names, with what a follow-up points at (`about`) if it does."""
        return self.linked if self.about is None else self.linked.merged(self.about)

    def note_result(self, result: ToolResult) -> None:
        if result.new_user_id is not None:  # the guest has a user of their own from now on
            self.context = self.context.as_user(result.new_user_id)
            self.new_user_id = result.new_user_id
        self.candidates = list(result.candidates) if result.kind == "candidates" else []
        if result.ok and result.kind != "candidates":
            self.answered_by.add(result.tool)

    def finish(self, answer: str, reason: StopReason, error: str | None = None) -> None:
        self.answer, self.stop_reason, self.error = answer, reason, error

    def final_event(self) -> FinalAnswer:
        total = (time.perf_counter() - self.started) * 1000
        result = AgentResult(
            question=self.question,
            answer=self.answer,
            stop_reason=self.stop_reason,
            steps=self.steps,
            llm_calls=self.llm_calls,
            candidates=self.candidates,
            entities=resolved_entities(s.result for s in self.steps),
            error=self.error,
            new_user_id=self.new_user_id,
            rendered=self.rendered,
            referent=self.referent,
            timings=Timings(total_ms=total, llm_ms=self.llm_ms, tool_ms=self.tool_ms),
        )
        return FinalAnswer(
            answer=self.answer,
            stop_reason=self.stop_reason,
            candidates=self.candidates,
            result=result,
        )


def read_question(graph: Reader | None, question: str) -> tuple[Linked, Language]:
    """What the question names and its language: linked to the graph, its language read without
    the titles and names (they are no language's words: "Rate Gattaca a 4" is not Italian),
    then its numbers written in words in that language ("trois étoiles")."""
    linked = link(graph, question)
    language = detect_language(question, linked.name_spans())
    return with_spelled(linked, question, language), language


def _answered(run: _Run) -> str | None:
    """The answer, when the tool that just ran gave one by itself: titles or people to choose
    from (the answer asks which one), or a card that states all an answer can say (a rating
    stored or read, what the agent does, the films of the one person asked about). It is
    rendered in the question's language without another model call: the model's answer could
    only repeat it, or misstate it."""
    result = run.steps[-1].result
    if run.candidates and _one_dated(run.candidates, run.linked):
        return None  # "the 2002 Solaris": the question says which; the model may ask for it
    if run.candidates:
        answer, why = which_one(run.candidates, run.language), "candidates to choose from"
    elif result is not None and result.ok and _answers(result.data, run.named()):
        answer, why = render_answer([result], run.language), "the result is the answer"
    else:
        return None
    run.rendered = [why]
    return answer


def _answers(data: Any, named: Linked) -> bool:
    """Whether a tool's payload states all an answer to the question can say (`answers`)."""
    answers = getattr(data, "answers", None)
    if not callable(answers):  # a declared tool's rows, a foreign tool's record
        return False
    names = linked_names(named, "movie person")
    return bool(answers(names, narrowed=bool(named.genres or named.years)))


def _renamed(reply: str) -> Renamed:
    """A `Renamed` reply, its title stripped; an empty title when the reply is not one."""
    try:
        renamed = Renamed.model_validate_json(reply)
    except ValidationError:
        return Renamed(title="")
    return renamed.model_copy(update={"title": renamed.title.strip()})


def _replaced(value: Any, typed: str, title: str) -> Any:
    """`value` (a tool's arguments) with every string that is `typed` replaced by `title`."""
    if isinstance(value, str):
        return title if value == typed else value
    if isinstance(value, list):
        return [_replaced(item, typed, title) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, typed, title) for key, item in value.items()}
    return value


def _merged(found: Sequence[Linked]) -> Linked:
    """The mentions of several texts, the first text's first."""
    merged = Linked()
    for one in found:
        merged = merged.merged(one)
    return merged


def _one_dated(candidates: Sequence[Candidate], linked: Linked) -> bool:
    """Whether exactly one candidate's year is one the question writes."""
    return sum(linked.writes_year(c.year) for c in candidates) == 1


def sentence_end(before: str, piece: str, soft_chars: int) -> int | None:
    """How much of `piece` to keep so the answer ends at a sentence end, once `before + piece`
    is past `soft_chars`; None while it may go on. A period after a one- to three-letter word
    ("Dr.", "J.") or inside a number does not end a sentence."""
    text = before + piece
    if len(text) <= soft_chars:
        return None
    for gap in _SENTENCE_GAP.finditer(text, max(len(before), soft_chars)):
        head = text[: gap.start()].rstrip()
        word = re.search(r"(\w+)\W*$", head)
        if (
            head.endswith(".")
            and word is not None
            and len(word.group(1)) <= 3
            and head[-2:-1] != ")"
        ):
            continue
        return len(head) - len(before)
    return None


def _looping(answer: str) -> bool:
    """Whether the answer's last `LOOP_SPAN` characters already occur earlier in it."""
    return len(answer) >= 2 * LOOP_SPAN and answer[-LOOP_SPAN:] in answer[:-LOOP_SPAN]


def _blob(tool: str, arguments: Any) -> str:
    body = {"action": tool, "action_input": arguments}
    return json.dumps(body, ensure_ascii=False)


def _tokens(text: str) -> Iterator[AnswerToken]:
    """An answer that could not be streamed live, handed out word by word."""
    for piece in re.findall(r"\s*\S+", text):
        yield AnswerToken(text=piece)


def _clip(text: str, limit: int = 600) -> str:
    text = text.strip() or "(empty reply)"
    return text if len(text) <= limit else text[:limit] + "…"


def _estimate_prompt(messages: Sequence[ChatMessage]) -> int:
    return sum(estimate_tokens(m.content) + 4 for m in messages)


def _prompt_size(messages: Sequence[ChatMessage]) -> int:
    """The prompt's tokens, erring on the high side (for the context budget)."""
    return sum(estimate(m.content) + 4 for m in messages)


__all__ = ["FINAL_ANSWER", "Agent"]
