# vllm-bot: `vllm-bot serve` in a small image. Build from the repository root:
#   docker build -t vllm-bot .
FROM python:3.11-slim AS build
WORKDIR /src
# Only what the package needs, so a docs change does not invalidate the wheel layer.
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY config ./config
COPY formatters ./formatters
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
# tzdata: IANA timezones for the scheduler even where the OS copy is trimmed.
# fonts-noto-cjk: Chinese labels in the trends chart (PNG) of zh digests.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir tzdata \
    && useradd --system --uid 10001 --create-home --home-dir /home/vllm-bot vllm-bot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
# The config is optional (every key has a default): the entry point uses
# /etc/vllm-bot/config.toml when one is mounted there, or VLLM_BOT_CONFIG when set.
COPY --chmod=755 deploy/docker-entrypoint.sh /usr/local/bin/vllm-bot-entrypoint
COPY --chmod=644 deploy/healthcheck.py /usr/local/lib/vllm-bot-healthcheck.py
USER vllm-bot
WORKDIR /home/vllm-bot
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
# The default [server] port; a config that changes it needs no edit here (see below).
EXPOSE 8080
# /healthz on the host and port from the same config the bot reads (not hard-coded).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s \
    CMD ["python", "/usr/local/lib/vllm-bot-healthcheck.py"]
# Exec form and `exec` in the entry point: SIGTERM reaches the bot itself, which finishes
# in-flight work and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["vllm-bot-entrypoint"]
CMD ["serve"]
