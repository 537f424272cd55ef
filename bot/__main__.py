"""`python -m bot` and the `vllm-bot` script: the CLI, and Ctrl-C while it is still loading
(the half second of imports before `bot.cli.main` runs) is the same one line as later."""

import sys


def main() -> None:
    try:
        # Lazy: the CLI's imports are what a Ctrl-C during start-up interrupts.
        from bot.cli import main as cli_main

        cli_main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
