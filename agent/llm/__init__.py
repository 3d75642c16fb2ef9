"""LLM backends behind one small interface (`agent.llm.base.LLM`)."""
