"""Documented platform limits, as named constants.

Every length is counted in Unicode code points (Python ``len`` of ``str``), which is how
both platforms document their limits. Limits marked *ours* are safety budgets we chose
below a platform limit that is undocumented or fuzzy; they are not Slack/Discord rules.
"""

from __future__ import annotations

# --- Slack -----------------------------------------------------------------------------
# https://docs.slack.dev/reference/block-kit/blocks (and each block's own page)
SLACK_MAX_BLOCKS = 50  # blocks per message
# https://docs.slack.dev/reference/block-kit/blocks/section-block
SLACK_SECTION_TEXT_MAX = 3000
SLACK_SECTION_FIELDS_MAX = 10
SLACK_SECTION_FIELD_TEXT_MAX = 2000
# https://docs.slack.dev/reference/block-kit/blocks/header-block
SLACK_HEADER_TEXT_MAX = 150
# https://docs.slack.dev/reference/block-kit/blocks/context-block
SLACK_CONTEXT_ELEMENTS_MAX = 10
SLACK_CONTEXT_TEXT_MAX = 3000  # a context element is a text object: 3,000 like any text object
# "Maximum length for this field is 255 characters" (every block's block_id)
SLACK_BLOCK_ID_MAX = 255
# https://docs.slack.dev/reference/block-kit/blocks/table-block
# "Maximum 100 rows. Each row object is an array with a max of 20 table cells."
SLACK_TABLE_ROWS_MAX = 100
SLACK_TABLE_COLUMNS_MAX = 20
# Slack documents one table block per message and shows it after the other blocks; we
# therefore always make a table the last block of its message (ours: keeps order intact).
SLACK_TABLES_PER_MESSAGE = 1
# https://docs.slack.dev/reference/methods/chat.postMessage : `text` should stay within
# 4,000 characters (longer text is truncated; 40,000 is the hard cut).
SLACK_TEXT_MAX = 4000
# Ours: Slack answers `msg_blocks_too_long` somewhere around 12,000-13,300 characters of
# block text even when every block is valid (slackapi/bolt-js#2509). We keep all text of a
# message (every text object, table cell and link URL, plus the `text` fallback) under this.
SLACK_MESSAGE_TEXT_BUDGET = 10_000
# Ours: the notification fallback is a one-screen summary, not a second copy of the blocks.
SLACK_FALLBACK_BUDGET = 1000
# Ours: a table cell has no documented limit; we give every row this many characters.
SLACK_TABLE_ROW_BUDGET = 3000

# --- Discord ---------------------------------------------------------------------------
# https://discord.com/developers/docs/resources/message#create-message
DISCORD_CONTENT_MAX = 2000
DISCORD_EMBEDS_MAX = 10
# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
DISCORD_EMBED_TITLE_MAX = 256
DISCORD_EMBED_DESCRIPTION_MAX = 4096
DISCORD_EMBED_FIELDS_MAX = 25
DISCORD_FIELD_NAME_MAX = 256
DISCORD_FIELD_VALUE_MAX = 1024
DISCORD_FOOTER_TEXT_MAX = 2048
DISCORD_AUTHOR_NAME_MAX = 256
# "The combined sum of characters in all title, description, field.name, field.value,
# footer.text, and author.name fields across all embeds attached to a message must not
# exceed 6000 characters."
DISCORD_EMBEDS_TOTAL_MAX = 6000
# https://discord.com/developers/docs/resources/channel#start-thread-from-message
DISCORD_THREAD_NAME_MAX = 100

# --- Both ------------------------------------------------------------------------------
# Ours: a list item or table row longer than this is shortened with an ellipsis. It keeps
# messages readable and guarantees that any single item fits an empty message.
ITEM_MAX = 1000
