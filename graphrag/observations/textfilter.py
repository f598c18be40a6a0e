"""The conservative filter a query passes before its text may be stored (text mode).

It refuses what looks like a credential or personal data, and anything long: an e-mail address, a phone or
card or account number (a run of 9+ digits, separators allowed), an IBAN, a URL with a user or a query string,
an IP address, a key or token (a long run of letters and digits mixed, JWTs, ``AKIA`` keys, PEM blocks), words
announcing a secret (``password: ...``), control characters, and more than ``MAX_TEXT_CHARS`` characters.
It cannot recognise a name or a disclosure in prose: a stored text stays personal data (docs/observations.md).
"""

from __future__ import annotations

import re
import unicodedata

MAX_TEXT_CHARS = 500  # the database refuses longer texts as well
_REFUSED = [
    re.compile(r"[\w.%+-]+@[\w-]+\.[\w.-]+"),  # e-mail address
    re.compile(r"(?:\d[\s().+/-]{0,2}){9,}"),  # phone, card, account or id number
    re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,}", re.IGNORECASE),  # IBAN
    re.compile(r"\b\w+://[^\s/]*@|[?&]\w+=", re.IGNORECASE),  # URL with credentials or a query string
    re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b|\b(?:[0-9a-f]{1,4}:){3,}[0-9a-f]{0,4}", re.IGNORECASE),  # IP address
    re.compile(r"(?=[A-Za-z0-9_\-+/=]*\d)(?=[A-Za-z0-9_\-+/=]*[A-Za-z])[A-Za-z0-9_\-+/=]{20,}"),  # key or token
    re.compile(r"\beyJ[\w-]{5,}|\bAKIA[0-9A-Z]{12,}|-----BEGIN", re.IGNORECASE),  # JWT, cloud key, PEM
    re.compile(
        r"\b(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[\s_-]?key|bearer|authori[sz]ation|ssn|пароль|токен)"
        r"\s*[:=]",
        re.IGNORECASE,
    ),
]


def storable(text: str) -> bool:
    """Whether ``text`` may be stored as a query text: short, printable, and nothing the patterns above match."""
    if len(text) > MAX_TEXT_CHARS or not text.strip():
        return False
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs") for char in text if char not in " \t\n"):
        return False
    return not any(pattern.search(text) for pattern in _REFUSED)
