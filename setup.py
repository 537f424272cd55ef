"""Only the package list lives here: config/ is mapped to bot.defaults (see pyproject.toml),
which setuptools' automatic discovery cannot express alongside bot/ and formatters/."""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["bot", "bot.*", "formatters", "formatters.*"]),
        "bot.defaults",
        "bot.defaults.modules",
    ]
)
