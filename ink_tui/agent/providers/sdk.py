"""The provider SDKs, imported off the event loop.

Importing ``anthropic`` takes one to two seconds and ``openai`` about one (README, Benchmarks):
run on the event loop, that is the whole app frozen at the first message. :func:`load_sdk`
imports in a worker thread (and returns at once when the module is already loaded);
:func:`preload_sdk` is the same import for a worker that runs while the user types.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from types import ModuleType
from typing import Literal

from ink_tui.agent.providers.model import PROVIDERS
from ink_tui.logs import log_exception

__all__ = [
    "SDK_OF_WIRE",
    "load_sdk",
    "preload_for",
    "preload_sdk",
    "timeout_errors",
    "transport_errors",
]

Sdk = Literal["anthropic", "openai"]
SDK_OF_WIRE: dict[str, Sdk] = {"anthropic": "anthropic", "chat": "openai"}


def _already_loaded(name: str) -> ModuleType | None:
    """The module if it is loaded, ``None`` if it is not, or is still being imported by
    another thread (``preload_sdk`` while the first request starts)."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return None
    return module


def preload_sdk(name: Sdk) -> ModuleType:
    """Import ``name`` (blocking: call it from a thread)."""
    return importlib.import_module(name)


def preload_for(provider: str | None) -> None:
    """Import the SDK of ``provider`` (blocking: for a worker thread, while the user types). A
    failure is left for the first request to report; a bug in it is logged."""
    info = PROVIDERS.get(provider) if provider is not None else None
    name = SDK_OF_WIRE.get(info.wire) if info is not None else None
    if name is None:
        return
    try:
        preload_sdk(name)
    except ImportError:
        pass
    except Exception as error:  # a bug in an SDK's import: logged
        log_exception(error, f"importing {name} in advance")


async def load_sdk(name: Sdk) -> ModuleType:
    """The module ``name``, imported in a worker thread the first time."""
    module = _already_loaded(name)
    if module is not None:
        return module
    return await asyncio.to_thread(preload_sdk, name)


def transport_errors() -> tuple[type[Exception], ...]:
    """What reading a response body can raise besides the SDK's own errors: the HTTP library's
    (``httpx``, or ``httpx2`` for newer SDKs, whichever the loaded SDK brought), a socket's
    ``OSError``, and ``ValueError`` for a frame that is not JSON."""
    errors: list[type[Exception]] = [OSError, ValueError]
    for name in ("httpx2", "httpx"):
        library = _already_loaded(name)
        if library is not None:
            errors += [library.HTTPError, library.StreamError]
    return tuple(errors)


def timeout_errors() -> tuple[type[Exception], ...]:
    """What reading a response body raises when no byte came within the timeout: the HTTP
    library's ``TimeoutException`` and the standard ``TimeoutError``."""
    errors: list[type[Exception]] = [TimeoutError]
    for name in ("httpx2", "httpx"):
        library = _already_loaded(name)
        if library is not None:
            errors.append(library.TimeoutException)
    return tuple(errors)
