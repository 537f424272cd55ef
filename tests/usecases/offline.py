"""The environment of a CLI run from the store alone: GitHub unreachable, no token."""

from __future__ import annotations

from pathlib import Path

DOWN = "http://127.0.0.1:9"  # nothing listens there: GitHub unreachable


def offline_env(tmp_path: Path, config: str) -> dict[str, str]:
    """`vllm-bot` with the config text `config` and a store in `tmp_path`, GitHub down."""
    path = tmp_path / "config.toml"
    path.write_text(config, encoding="utf-8")
    return {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "VLLM_BOT_CONFIG": str(path),
        "VLLM_BOT_NO_GH": "1",
        "GITHUB_TOKEN": "",
        "GITHUB_API_URL": DOWN,
        "GITHUB_GRAPHQL_URL": f"{DOWN}/graphql",
    }
