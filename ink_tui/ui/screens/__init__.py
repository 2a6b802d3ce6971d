"""The screens: each coordinates widgets (``ui.widgets``) and the core; none imports the app."""
