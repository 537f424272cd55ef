"""The message catalogue, one module per feature, each a ``MESSAGES`` dict of
``{msg_id: {"en": ..., "zh": ...}}``. ``bot.core.i18n`` merges them (an id may live in one
module only) and formats them; read messages through it, not from here.

A count picks its English singular inline, ``{count} {count:PR|PRs}``: the one plural
mechanism, which also lets one message hold several counts. ``<id>.period`` is a variant for
a window that is not an ISO week (Chinese says 本期 rather than 本周), not a plural.
"""
