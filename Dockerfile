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
RUN pip install --no-cache-dir tzdata \
    && useradd --system --uid 10001 --create-home --home-dir /home/vllm-bot vllm-bot
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER vllm-bot
WORKDIR /home/vllm-bot
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    VLLM_BOT_CONFIG=/etc/vllm-bot/config.toml
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4); sys.exit(0)"
# Exec form: SIGTERM reaches the bot itself, which finishes in-flight posts and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["vllm-bot"]
CMD ["serve"]
