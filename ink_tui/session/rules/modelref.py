"""Model references: a provider and a model id, and how Ink reads ``provider/modelId``.

Ink stores the two apart (``session_model``, ``header.model``) and writes them joined as an
assistant message's ``modelReference``. :func:`parse_model_ref` is Ink's ``parseModelRef``
(``resolve.ts@0bea585d``), the one reading of a reference every part of ink-tui uses: the chat's
``--model`` and ``/model``, the stats' model names and the rates of ``/status``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.records import PROVIDERS, is_valid_model
from ink_tui.session.reading.recordtypes import ModelSelection

__all__ = ["ModelRef", "known_provider", "model_selection", "parse_model_ref"]


@dataclass(frozen=True, slots=True)
class ModelRef:
    """A provider and model id, as Ink stores them apart."""

    provider: str
    model_id: str

    @property
    def reference(self) -> str:
        """``provider/modelId`` (Ink's ``modelReference``)."""
        return f"{self.provider}/{self.model_id}"

    @property
    def display(self) -> str:
        """The display form: ``anthropic/`` is dropped."""
        return self.model_id if self.provider == "anthropic" else self.reference

    def to_json(self) -> ModelSelection:
        return {"provider": self.provider, "modelId": self.model_id}


def known_provider(prefix: str) -> str | None:
    """The provider ``prefix`` names, matched without regard to case (never trimmed: Ink reads
    a padded prefix as unknown); ``None`` when Ink knows no such provider."""
    name = prefix.lower()
    return name if name in PROVIDERS else None


def parse_model_ref(reference: str) -> ModelRef:
    """Ink's ``parseModelRef``: the reference trimmed (JavaScript's ``trim``); a bare id is
    anthropic's, a bare ``glm-*`` (any case) zai's; ``provider/modelId`` with a provider Ink
    knows is that provider's; an empty model id (``openai/``) or an unknown prefix makes the
    whole text an anthropic id (the trimmed text for the first, the text as given for the
    second, as Ink does). A blank reference gives an anthropic model with an empty id: callers
    that take a model from the user refuse that first."""
    trimmed = reference.strip(JS_WHITESPACE)
    slash = trimmed.find("/")
    if slash == -1:
        provider = "zai" if trimmed.lower().startswith("glm-") else "anthropic"
        return ModelRef(provider, trimmed)
    model_id = trimmed[slash + 1 :]
    if model_id == "":
        return ModelRef("anthropic", trimmed)
    known = known_provider(trimmed[:slash])
    if known is not None:
        return ModelRef(known, model_id)
    return ModelRef("anthropic", reference)


def model_selection(model: ModelRef) -> ModelSelection:
    """``{provider, modelId}`` to write (a header's ``model``, a ``session_model`` marker),
    refused with ``ValueError`` unless Ink accepts it (a blank id makes Ink refuse the whole
    file)."""
    fields = model.to_json()
    if not is_valid_model(fields):
        raise ValueError(f"not a model Ink accepts: {model.provider}/{model.model_id!r}")
    return fields
