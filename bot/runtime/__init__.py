"""Pieces of the long-running bot (`vllm-bot serve`): scheduler, web server, metrics,
leader election and logging. `bot.serve` composes them."""
