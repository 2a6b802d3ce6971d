"""The Textual user interface: the only layer that imports Textual."""
