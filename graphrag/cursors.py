"""Opaque paging cursors: one encoding for every paged answer (``pack_get``, live team documents).

A cursor is plain base64url of a small JSON object, so a client can read and forge one: it carries where
the next page starts and what the pages are bound to, never an authorisation. Whoever decodes it checks
the offsets against what they point into, and the binding against the current request.
"""

from __future__ import annotations

import base64
import binascii
from typing import Self

from pydantic import BaseModel, ValidationError

from graphrag.errors import InvalidArgument

START = "start"
# Far beyond any text a page can come from, and within what Neo4j's ``substring()`` takes: 32-bit integers,
# its start plus its length included.
MAX_OFFSET = 2**30
FOREIGN = "cursor is not one this server gave out; start again with cursor='start'"


class OpaqueCursor(BaseModel):
    """A cursor's fields; ``encode`` and ``decode`` turn them into the string a client passes back."""

    def encode(self) -> str:
        return base64.urlsafe_b64encode(self.model_dump_json().encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Self:
        """The cursor ``text`` stands for; anything this server could not have given out is ``invalid_argument``."""
        try:
            return cls.model_validate_json(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        except (ValueError, binascii.Error, ValidationError) as exc:
            raise InvalidArgument(FOREIGN) from exc
