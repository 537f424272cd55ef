"""Discord: posting digests (bot or webhook) and answering `/vllm` (discord.py)."""

# The platform's name (the registry key, the ledger's and the metrics' label), here so the
# App registers it without loading the Discord libraries.
NAME = "discord"
