"""Running `vllm-bot` against the local fakes, as a user runs it.

`vllm_bot` runs the CLI's own entry point (`bot.cli.main`) in this process, with the
environment, working directory, argv, stdout and stderr of the run swapped in and the
process-global state a fresh process would start without (the root logger's handlers, the
registered secrets, the CLI's rich consoles) reset around it. It answers like
`subprocess.run`: a CompletedProcess with the exit status and both streams as text.
Starting a Python process costs about half a second; this costs none of it. Called from an
async test, the run happens in a thread while the test's loop waits: the fakes it talks to
must run on a loop of their own (`tests.fakes.background.BackgroundFake`).

`vllm_bot_process` is the real process, for the tests whose subject is the process
boundary (signals, crashes and resumption, what a fresh interpreter loads); mark those
tests `@pytest.mark.subprocess`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import logging
import os
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

from tests.fakes.github import FakeGitHub

ROOT = Path(__file__).resolve().parents[1]
# One CLI run at a time per process: os.environ, sys.stdout and the cwd are process-wide.
_one_run = threading.Lock()


def github_env(
    github: FakeGitHub, database: Path, *, clean: bool = False, **extra: str
) -> dict[str, str]:
    """The environment of a `vllm-bot` run against the fake `github`, its store at
    `database`; `clean` drops the caller's own Slack, Discord and GitHub variables."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if not (clean and k.startswith(("SLACK_", "DISCORD_", "GITHUB_")))
    }
    environment.update(
        GITHUB_TOKEN=github.token,
        GITHUB_API_URL=github.api_url,
        GITHUB_GRAPHQL_URL=github.graphql_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{database}",
        # Wide enough that no table or progress line wraps under test.
        COLUMNS="200",
        **extra,
    )
    return environment


def vllm_bot_process(
    env: dict[str, str], *args: str, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` as a new process."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@contextlib.contextmanager
def _fresh_process_state(env: dict[str, str], cwd: Path, argv: list[str]) -> Iterator[None]:
    """os.environ, cwd, argv and the globals a new process starts without, restored after."""
    # Lazy: the CLI is imported by the first run, not by collecting the tests.
    import bot.cli
    from bot.core import secrets

    saved_env, saved_cwd, saved_argv = dict(os.environ), os.getcwd(), sys.argv
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    saved_secrets = secrets.registered()
    consoles = (bot.cli.out, bot.cli.err)
    collecting = gc.isenabled()  # the CLI turns the cyclic collector off for its run
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.argv = argv
    # The CLI's logging.basicConfig only installs its handler on a root logger without one.
    root.handlers = []
    with secrets._lock:
        secrets._forms.clear()
    for console in consoles:
        console._console = None  # type: ignore[attr-defined]  # rebuilt for this run's env
    try:
        yield
    finally:
        for console in consoles:
            console._console = None  # type: ignore[attr-defined]
        with secrets._lock:
            secrets._forms[:] = saved_secrets
        root.handlers, root.level = saved_handlers, saved_level
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        if collecting:
            gc.enable()


def _main(stdout: io.StringIO, stderr: io.StringIO) -> int:
    # Lazy: see _fresh_process_state.
    from bot.cli import main

    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            main()
        except SystemExit as exc:
            code = exc.code
            return code if isinstance(code, int) else (0 if code is None else 1)
        except BaseException:  # what the interpreter would print before exiting 1
            traceback.print_exc(file=sys.stderr)
            return 1
    return 0


def vllm_bot(env: dict[str, str], *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`vllm-bot ARGS` through its entry point, in this process (see the module docstring)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code: list[int] = []
    with _one_run, _fresh_process_state(env, cwd, ["vllm-bot", *args]):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            code.append(_main(stdout, stderr))
        else:
            # Called from an async test: the CLI's asyncio.run needs a thread without a loop.
            worker = threading.Thread(target=lambda: code.append(_main(stdout, stderr)))
            worker.start()
            worker.join()
    return subprocess.CompletedProcess(
        ["vllm-bot", *args], code[0], stdout.getvalue(), stderr.getvalue()
    )
