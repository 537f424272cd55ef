"""Discord: posting digests (bot or webhook) and answering `/vllm` (discord.py)."""
