"""The baseline: the plain LangChain JSON chat agent, on the same model as ours.

This is how the best-known public movie agent was built: the react-json prompt (`prompts/
react_json.txt`; tools rendered with `render_text_description_and_args`), chat history as
messages, the scratchpad as text, stop at `Observation`, `ReActJsonSingleInputOutputParser`,
and LangChain's `AgentExecutor` with no grammar and no repairs (`handle_parsing_errors=False`).
A reply the parser rejects ends the question; the harness counts it as a parse failure. Our
`LLM` interface is wrapped as a LangChain chat model (`LLMChatModel`); since our backends have no
system role, the system turn is put at the head of the first user turn.

Needs the `eval` extra (`langchain-classic`), imported only when the baseline runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import render_text_description_and_args
from pydantic import ConfigDict, Field

from agent.errors import AgentError
from agent.llm.base import LLM, MAX_NEW_TOKENS, ChatMessage, LLMRequest, Role, estimate_tokens
from agent.result import LLMCall
from evaluation.outcome import Outcome, ToolUse, ran_with
from evaluation.questions import Question
from evaluation.seen import answer_language, cut, invented, writes, wrote
from semantic_layer.tools.contract import Tool, ToolContext
from semantic_layer.tools.langchain_adapter import ToolBinding, as_langchain_tools
from semantic_layer.tools.result import ToolResult

PROMPT_FILE = Path(__file__).parent / "prompts" / "react_json.txt"
ITERATION_LIMIT = "Agent stopped due to iteration limit or time limit."


class BaselineUnavailableError(AgentError):
    """langchain-classic is not installed."""


class LLMChatModel(BaseChatModel):
    """Our `LLM` as a LangChain chat model; records every call it makes."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    llm: Any  # agent.llm.base.LLM (Any: pydantic cannot validate an ABC instance field)
    max_new_tokens: int = MAX_NEW_TOKENS
    timeout_s: float = 60.0
    calls: list[LLMCall] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "movieagent"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = LLMRequest(
            messages=to_chat_messages(messages),
            json_schema=None,
            stop=list(stop or []),
            max_new_tokens=self.max_new_tokens,
            timeout_s=self.timeout_s,
        )
        started = time.perf_counter()
        pieces: list[str] = []
        prompt_tokens = completion_tokens = 0
        finish: str | None = None
        for chunk in self.llm.stream(request):
            pieces.append(chunk.text)
            if chunk.finish_reason is not None:
                finish = chunk.finish_reason
                if chunk.usage is not None:
                    prompt_tokens = chunk.usage.prompt_tokens
                    completion_tokens = chunk.usage.completion_tokens
        text = "".join(pieces)
        self.calls.append(
            LLMCall(
                step=len(self.calls) + 1,
                prompt_tokens=prompt_tokens
                or sum(estimate_tokens(m.content) + 4 for m in request.messages),
                completion_tokens=completion_tokens or estimate_tokens(text),
                ms=(time.perf_counter() - started) * 1000,
                finish_reason=finish,
                completion=text,
            )
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


class BaselineSubject:
    """The LangChain react-json agent, same model, same tools, same step limit."""

    name = "baseline"

    def __init__(
        self, llm: LLM, *, max_steps: int = 5, max_new_tokens: int = MAX_NEW_TOKENS
    ) -> None:
        self.llm = llm
        self.max_steps = max_steps
        self.max_new_tokens = max_new_tokens

    def run(self, question: Question, tools: Sequence[Tool[Any]], context: ToolContext) -> Outcome:
        try:
            from langchain_classic.agents import AgentExecutor
            from langchain_classic.agents.format_scratchpad import format_log_to_str
            from langchain_classic.agents.output_parsers import ReActJsonSingleInputOutputParser
        except ImportError as e:
            raise BaselineUnavailableError(
                "the baseline needs langchain-classic: pip install -e '.[eval]'"
            ) from e
        from langchain_core.exceptions import OutputParserException
        from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

        model = LLMChatModel(llm=self.llm, max_new_tokens=self.max_new_tokens)
        uses: list[ToolUse] = []
        results: list[ToolResult] = []

        def record(tool: str, arguments: dict[str, Any], result: ToolResult, ms: float) -> None:
            uses.append(
                ToolUse(
                    tool=tool,
                    input=ran_with(tools, tool, arguments),
                    ms=ms,
                    ok=result.ok,
                    wrote=wrote(result),
                )
            )
            results.append(result)

        # the same tools through the LangChain adapter; it returns the Observation our agent reads
        wrapped = as_langchain_tools(tools, ToolBinding(context, on_call=record))
        prompt = ChatPromptTemplate.from_messages(
            [
                ("system", PROMPT_FILE.read_text(encoding="utf-8")),
                MessagesPlaceholder("chat_history"),
                ("user", "{input}\n\n{agent_scratchpad}"),
            ]
        ).partial(
            tools=render_text_description_and_args(list(wrapped)),
            tool_names=", ".join(t.name for t in wrapped),
        )
        runnable = (
            {
                "input": lambda x: x["input"],
                "chat_history": lambda x: x["chat_history"],
                "agent_scratchpad": lambda x: format_log_to_str(x["intermediate_steps"]),
            }
            | prompt
            | model.bind(stop=["\nObservation"])
            | ReActJsonSingleInputOutputParser()
        )
        executor = AgentExecutor(
            agent=runnable,
            tools=wrapped,
            max_iterations=self.max_steps,
            handle_parsing_errors=False,
        )
        history = [
            HumanMessage(content=t.content) if t.role == "user" else AIMessage(content=t.content)
            for t in question.history
        ]
        started = time.perf_counter()
        answer, ending, error, parse_failures = "", "answer", None, 0
        try:
            output = executor.invoke({"input": question.question, "chat_history": history})
            answer = str(output.get("output", ""))
            if answer == ITERATION_LIMIT:
                ending = "step_limit"
        except Exception as e:  # the plain agent crashing is what we measure
            error = f"{type(e).__name__}: {str(e)[:300]}"
            # AgentExecutor re-raises the parser's OutputParserException as a ValueError
            if isinstance(e, OutputParserException) or isinstance(
                e.__cause__, OutputParserException
            ):
                ending, parse_failures = "parse_error", 1
            else:
                ending = "error"
        return Outcome(
            id=question.id,
            category=question.category,
            language=question.language,
            subject=self.name,
            answer=answer,
            tools=uses,
            llm_calls=len(model.calls),
            prompt_tokens=sum(c.prompt_tokens for c in model.calls),
            completion_tokens=sum(c.completion_tokens for c in model.calls),
            parse_failures=parse_failures,
            ending=ending,  # type: ignore[arg-type]
            error=error,
            ms=(time.perf_counter() - started) * 1000,
            invented=invented(answer, results, context.graph, question.said()),
            writes=writes(results),
            cut=cut(answer, ending),
            answer_language=None
            if error
            else answer_language(answer, context.graph, question.language),
        )


def to_chat_messages(messages: Sequence[BaseMessage]) -> list[ChatMessage]:
    """LangChain messages as strictly alternating user/assistant turns, starting with a user turn.

    System text opens the next user turn; same-role neighbours are joined.
    """
    turns: list[ChatMessage] = []
    pending_system: list[str] = []
    for message in messages:
        text = message.content if isinstance(message.content, str) else str(message.content)
        if message.type == "system":
            pending_system.append(text)
            continue
        role: Role = "assistant" if message.type == "ai" else "user"
        if role == "user" and pending_system:
            text = "\n\n".join([*pending_system, text])
            pending_system = []
        if not turns and role == "assistant":
            turns.append(ChatMessage(role="user", content="\n\n".join(pending_system) or "Hi."))
            pending_system = []
        if turns and turns[-1].role == role:
            turns[-1] = ChatMessage(role=role, content=f"{turns[-1].content}\n\n{text}")
        else:
            turns.append(ChatMessage(role=role, content=text))
    if pending_system:
        text = "\n\n".join(pending_system)
        if turns and turns[-1].role == "user":
            turns[-1] = ChatMessage(role="user", content=f"{turns[-1].content}\n\n{text}")
        else:
            turns.append(ChatMessage(role="user", content=text))
    return turns
