"""Config sections owned by `serve` ([logging] and [serve]).

The models live here so bot/config.py can import them into `Config`; until it does,
`logging_settings` / `serve_settings` fall back to the defaults below.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class LoggingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["text", "json"] = "text"
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class ServeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sync_minutes: Annotated[float, Field(ge=0)] = 60  # 0: no periodic sync
    shutdown_grace_seconds: Annotated[float, Field(gt=0, le=600)] = 30
    leader_retry_seconds: Annotated[float, Field(gt=0)] = 15
    readiness_cache_seconds: Annotated[float, Field(ge=0)] = 15


def _section(config: Any, name: str, model: type[BaseModel]) -> Any:
    value = getattr(config, name, None)
    if isinstance(value, model):
        return value
    if isinstance(value, dict):
        return model.model_validate(value)
    return model()


def logging_settings(config: Any) -> LoggingConfig:
    return _section(config, "logging", LoggingConfig)


def serve_settings(config: Any) -> ServeConfig:
    return _section(config, "serve", ServeConfig)
