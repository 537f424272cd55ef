"""Slack: the digest poster, the `/vllm` command, link unfurling (slack-bolt AsyncApp)."""
