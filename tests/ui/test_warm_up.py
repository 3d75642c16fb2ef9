"""The page warms the model up once per process, only where the backend keeps its KV cache."""

from __future__ import annotations

from typing import Any

from tests.agent.fakes import ScriptedLLM, information, recommender
from ui.services import Services


class Caching(ScriptedLLM):
    caches_prompt = True


def services(llm: ScriptedLLM) -> Services:
    graph: Any = object()  # the scripted tools never touch it
    return Services(
        graph=graph,
        llm=llm,
        graph_label="graph",
        llm_label="llm",
        tools=[recommender(), information()],
    )


def test_a_caching_backend_gets_the_static_prefix_before_the_first_question() -> None:
    llm = Caching("x")
    thread = services(llm).warm_up()
    assert thread is not None
    thread.join(timeout=10)
    (request,) = llm.requests
    assert request.max_new_tokens == 1 and "Tools:" in request.messages[0].content


def test_other_backends_are_not_sent_anything() -> None:
    llm = ScriptedLLM("x")
    assert services(llm).warm_up() is None and not llm.requests
