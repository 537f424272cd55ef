"""The image's HEALTHCHECK: GET /healthz on the host and port the config says `serve` uses.

Reads the same config as the bot (VLLM_BOT_CONFIG, else /etc/vllm-bot/config.toml when
mounted, else the shipped defaults), so changing `[server] port` needs no Dockerfile edit.
`vllm-bot serve --port P` is not visible here: set the port in the config instead.
"""

from __future__ import annotations

import os
import sys
import urllib.request

MOUNTED = "/etc/vllm-bot/config.toml"


def health_url() -> str:
    from bot.core.config import load_config

    path = os.environ.get("VLLM_BOT_CONFIG") or (MOUNTED if os.path.isfile(MOUNTED) else None)
    server = load_config(path).server
    # A wildcard bind answers on loopback; a specific address is asked directly.
    host = "127.0.0.1" if server.host in ("0.0.0.0", "", "::") else server.host
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{server.port}/healthz"


def main() -> int:
    try:
        with urllib.request.urlopen(health_url(), timeout=4) as response:
            return 0 if response.status == 200 else 1
    except Exception as exc:  # any failure is "unhealthy"; say why in `docker inspect`
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
