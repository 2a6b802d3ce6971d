"""The widgets: one widget family per file, below the screens; they draw through ``ui.render``."""
