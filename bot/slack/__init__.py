"""Slack: the digest poster, the `/vllm` command, link unfurling (slack-bolt AsyncApp)."""

# The platform's name (the registry key, the ledger's and the metrics' label), here so the
# App registers it without loading the Slack libraries.
NAME = "slack"
