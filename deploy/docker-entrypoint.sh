#!/bin/sh
# The image's entry point. Every config key has a default, so a mounted config is optional:
# /etc/vllm-bot/config.toml is used when present (or VLLM_BOT_CONFIG when set), and the
# shipped defaults otherwise. `exec` replaces the shell with the bot, so
# SIGTERM reaches it directly and it finishes in-flight work before exiting 0.
set -eu
if [ -z "${VLLM_BOT_CONFIG:-}" ] && [ -f /etc/vllm-bot/config.toml ]; then
    export VLLM_BOT_CONFIG=/etc/vllm-bot/config.toml
fi
exec vllm-bot "$@"
