"""ink-tui: a Textual terminal app for the JSONL session files of the Ink coding agent."""

__version__ = "0.1.0"
