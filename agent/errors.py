"""The agent's exceptions: one root, each with a sentence that says what to do."""


class AgentError(Exception):
    """Root of every error raised by the agent layer."""


class LLMConfigurationError(AgentError):
    """The LLM setting (`MOVIEAGENT_LLM` or `--llm`) is missing or malformed."""


class LLMUnavailableError(AgentError):
    """The LLM server cannot be reached or the model cannot be loaded."""
