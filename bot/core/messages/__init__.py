"""The message catalogue, one module per feature, each a ``MESSAGES`` dict of
``{msg_id: {"en": ..., "zh": ...}}``. ``bot.core.i18n`` merges them (an id may live in one
module only) and formats them; read messages through it, not from here.

A count picks its English singular inline, ``{count} {count:PR|PRs}``: the one plural
mechanism, which also lets one message hold several counts. ``<id>.period`` is a variant for
a window that is not an ISO week (Chinese says 本期 rather than 本周), not a plural.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Text:
    """A catalogue message not rendered yet: its id and parameters (a parameter may be a
    Text too). Code below the chat layer (validators, weeks) says what is wrong with one,
    and whoever shows it picks the language (``bot.core.i18n.render``): the channel's in
    chat, English on the CLI."""

    msg_id: str
    params: Mapping[str, object] = field(default_factory=dict)
