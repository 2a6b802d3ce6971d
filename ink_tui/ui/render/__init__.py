"""How records look. Every piece of session text reaches the screen through :mod:`.safe`."""
