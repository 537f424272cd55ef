from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.config import Environment, database_url, load_config
from bot.core.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_load_without_a_user_file() -> None:
    config = load_config(None, Environment())
    assert config.repos[0].name == "vllm-project/vllm"
    assert config.repos[0].modules == "vllm"
    assert config.language == "en"
    assert config.alerts.batch_after == 5


def test_user_file_overrides_key_by_key(tmp_path: Path) -> None:
    path = write(tmp_path, 'language = "zh"\n[alerts]\npoll_minutes = 3\n')
    config = load_config(path, Environment())
    assert config.language == "zh"
    assert config.alerts.poll_minutes == 3
    # Keys the user did not mention keep their shipped values.
    assert config.alerts.batch_after == 5
    assert config.repos[0].name == "vllm-project/vllm"


def test_config_path_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, 'timezone = "Asia/Shanghai"\n')
    monkeypatch.setenv("VLLM_BOT_CONFIG", str(path))
    assert load_config().timezone == "Asia/Shanghai"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("colour = 1\n", "unknown key 'colour'"),
        ("[alerts]\npoll_mins = 3\n", "unknown key 'alerts.poll_mins'"),
        ('language = "fr"\n', "language: accepted: 'en' or 'zh'"),
        ('timezone = "Mars/Olympus"\n', "unknown timezone 'Mars/Olympus'"),
        ('[alerts]\nbatch_after = "many"\n', "alerts.batch_after"),
        ('[[repos]]\nname = "not a repo"\n', "repos.0.name"),
        ("repos = []\n", "repos"),
        ("language = \n", "not valid TOML"),
    ],
)
def test_bad_config_names_file_key_and_accepted(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path, Environment())
    message = str(info.value)
    assert str(path) in message
    assert expected in message
    assert "\n" not in message


def test_missing_config_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "missing.toml", Environment())


def test_unconfigured_repo_uses_auto_rules() -> None:
    config = load_config(None, Environment())
    assert config.repo(None).name == "vllm-project/vllm"
    assert config.repo("VLLM-project/vllm").modules == "vllm"
    assert config.repo("vllm-project/vllm-ascend").modules == "auto"
    with pytest.raises(ConfigError, match="expected OWNER/NAME"):
        config.repo("nonsense")


def test_secrets_come_from_environment_and_are_not_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_supersecret")
    env = Environment()
    assert env.github_token is not None
    assert env.github_token.get_secret_value() == "ghp_supersecret"
    assert "supersecret" not in repr(env)


def test_each_variable_is_read_by_its_name_and_an_argument_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SLACK_API_URL", " http://127.0.0.1:9/api/ ")
    monkeypatch.setenv("discord_api_url", "http://127.0.0.1:8/api/v10")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:7/v1")
    monkeypatch.setenv("GITHUB_TOKEN_SOURCE", "forged")
    monkeypatch.setenv("VLLM_BOT_UNRELATED", "ignored")
    env = Environment(openai_base_url="http://127.0.0.1:6/v1")
    assert env.slack_api_url == "http://127.0.0.1:9/api/"
    assert env.discord_api_url == "http://127.0.0.1:8/api/v10"
    assert env.openai_base_url == "http://127.0.0.1:6/v1"
    # Not a variable: where the token came from is the bot's own finding.
    assert env.github_token_source is None
    monkeypatch.setenv("GITHUB_API_URL", "ftp://example.com")
    with pytest.raises(ConfigError, match="GITHUB_API_URL"):
        Environment()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("sqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("sqlite+aiosqlite:///y.db", "sqlite+aiosqlite:///y.db"),
    ],
)
def test_database_url_picks_async_driver(
    monkeypatch: pytest.MonkeyPatch, given: str, expected: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", given)
    assert database_url(Environment()) == expected
