"""The evaluation harness: run a question set through the agent (and a baseline), score it.

`questions` loads and validates a set, `runner` runs it with a fresh user per question,
`metrics` scores and aggregates, `baseline` is the plain LangChain JSON chat agent, `report`
writes JSON, Markdown and a latency plot, `cli` adds `movieagent eval`.
"""
