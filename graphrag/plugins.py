"""What an operator plugs in by naming a factory, ``package.module:factory``: an embedder, a query expander."""

from __future__ import annotations

import importlib

from graphrag.errors import InvalidArgument


def plugged(setting: str, spec: str) -> object:
    """``factory()`` of ``spec``; ``invalid_argument`` naming the setting when it cannot be imported."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise InvalidArgument(f"{setting}={spec!r}: expected package.module:factory")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise InvalidArgument(f"{setting}={spec!r} cannot be imported: {exc}") from exc
    found: object = factory()
    return found
