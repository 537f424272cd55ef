"""The `[logging]` and `[serve]` sections as `serve` reads them (models: bot/core/settings.py)."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from bot.core.settings import LoggingConfig, ServeConfig

__all__ = ["LoggingConfig", "ServeConfig", "logging_settings", "serve_settings"]

M = TypeVar("M", bound=BaseModel)


def _section(config: object, name: str, model: type[M]) -> M:
    # Tests hand in partial configs (a namespace or dicts) as well as a Config.
    value = getattr(config, name, None)
    if isinstance(value, model):
        return value
    if isinstance(value, dict):
        return model.model_validate(value)
    return model()


def logging_settings(config: object) -> LoggingConfig:
    return _section(config, "logging", LoggingConfig)


def serve_settings(config: object) -> ServeConfig:
    return _section(config, "serve", ServeConfig)
