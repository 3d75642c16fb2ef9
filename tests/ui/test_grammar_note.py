"""The backends panel warns when the model's replies are not grammar-constrained."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from agent.llm.factory import build_llm
from agent.settings import LLMSettings
from tests.agent.fakes import recommender
from tests.agent.tgi_server import VLLMServer
from tests.ui import harness


@pytest.mark.parametrize(("grammar", "warned"), [("", False), ("?grammar=none", True)])
def test_the_backends_panel_says_when_replies_are_unconstrained(
    app: AppTest, writable_graph: Any, grammar: str, warned: bool
) -> None:
    server = VLLMServer().start()
    try:
        llm = build_llm(LLMSettings.from_env({}, spec=f"openai+{server.url}/v1{grammar}"))
        harness.current = harness.scripted(writable_graph, llm, [recommender()])
        app.run()
        assert not app.exception
        panel = "\n".join(str(e.value) for e in app.sidebar.markdown)
        assert ":material/check_circle: reachable" in panel
        assert ("not grammar-constrained" in panel) is warned
    finally:
        server.stop()
