"""Continuing a session: providers, tools and the turn loop (never imports Textual)."""
