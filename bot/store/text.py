"""Text as every database stores it, losslessly.

PostgreSQL's text type cannot hold a NUL character ("invalid byte sequence 0x00") and no
UTF-8 database can hold a lone surrogate (what a JSON "\\ud800" decodes to), so one PR title
with either would fail the whole week's transaction. NUL is escaped reversibly: it becomes
ESC "0", and ESC itself (U+FFFE, a noncharacter that real text does not use) becomes
ESC ESC. A lone surrogate has no UTF-8 form at all, so it becomes U+FFFD, the one lossy case.
"""

from __future__ import annotations

import re
from typing import Any

ESC = "\ufffe"
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile(ESC + "(.)", re.DOTALL)


def store_text(value: Any) -> Any:
    """`value` ready for any database (non-strings are returned as they are)."""
    if not isinstance(value, str):
        return value
    if ESC in value:
        value = value.replace(ESC, ESC + ESC)
    if "\x00" in value:
        value = value.replace("\x00", ESC + "0")
    if _SURROGATE.search(value):
        value = _SURROGATE.sub("\ufffd", value)
    return value


def load_text(value: Any) -> Any:
    """The text `store_text` was given (lone surrogates come back as U+FFFD)."""
    if not isinstance(value, str) or ESC not in value:
        return value
    return _ESCAPED.sub(lambda m: "\x00" if m[1] == "0" else m[1], value)
