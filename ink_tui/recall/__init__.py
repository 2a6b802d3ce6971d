"""Agents recall their own past: the archive opened to coding agents, read-only.

- :mod:`.answers`: what each tool answers, as plain data (no SDK): searched, listed, read from
  the index and the session files, secrets masked;
- :mod:`.server`: ``ink-tui mcp``, a Model Context Protocol server over stdio on the official
  ``mcp`` SDK (imported only there), whose tools return those answers.
"""
