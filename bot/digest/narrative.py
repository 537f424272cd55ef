"""Optional model-written summary and theme paragraphs (any OpenAI-compatible server).

The model only rewrites prose from the structured digest; it never adds facts. Its answer is
accepted only when every PR number it mentions is one of the week's PRs and every number it
states occurs in the data it was sent. Any failure (no endpoint, HTTP error, timeout, bad
JSON, a failed check) keeps the rule-based text, so nothing depends on the model.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from bot.core.errors import BotError
from bot.core.messages import Text
from bot.core.models import JSON
from bot.digest.history import module_name
from bot.digest.model import Digest, Highlight
from bot.digest.prose import change_phrase, highlight_text, summary_of, theme_name

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 20.0
MAX_TEXT_CHARS = 1500
_PR_MENTION = re.compile(r"(?:#|\bPR\s*#?|\bpull/)(\d+)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_GROUPED = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)")
MAX_SENTENCES = 4  # asked for 2-3; one more is tolerated, a long essay is not
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)

_SYSTEM = (
    "You write the prose of a weekly engineering digest for vLLM maintainers. Use only the "
    "JSON data you are given: do not invent PR numbers, counts, percentages or any other "
    "figure, and only cite PRs as #NUMBER from the data. Be concise and concrete. Answer "
    'with one JSON object: {"summary": "<3-5 sentences>", "highlights": {"<theme_id>": '
    '"<2-3 sentences>"}}. A theme\'s paragraph says what changed and why it matters, '
    "using only that theme's PRs (titles, each PR's change and purpose, summaries, claims) "
    "and citing only them; open it with what the group did, naming its lead PRs inline. "
    "Quote a figure only with its PR and metric; put data caveats last."
)


class NarrativeRejected(BotError):
    """The model's answer failed a check; the rule-based text is kept."""


@dataclass(frozen=True, slots=True)
class NarrativeConfig:
    base_url: str
    api_key: str | None = None
    model: str | None = None  # None: the first model the server lists (a vLLM server has one)
    timeout: float = DEFAULT_TIMEOUT


def config_from_env(
    env: Mapping[str, str] | None = None, model: str | None = None
) -> NarrativeConfig | None:
    """The endpoint from OPENAI_BASE_URL / OPENAI_API_KEY, or None when not configured."""
    env = os.environ if env is None else env
    base = (env.get("OPENAI_BASE_URL") or "").strip()
    if not base:
        return None
    return NarrativeConfig(base_url=base, api_key=env.get("OPENAI_API_KEY") or None, model=model)


# ------------------------------------------------------------------ the data sent


def narrative_input(digest: Digest, language: str) -> JSON:
    """The structured facts the model may use (and the only numbers it may state), with
    the rule-based text it may rewrite in `language`."""
    return {
        "repo": digest.repo,
        "week": digest.week,
        "start": digest.start.date().isoformat(),
        "last_day": (digest.end - timedelta(days=1)).date().isoformat(),
        "language": "Simplified Chinese" if language == "zh" else "English",
        "complete": digest.complete,
        "totals": dataclasses.asdict(digest.totals),
        "first_time_contributors": digest.new_contributors,
        "dominant_themes": [
            {"id": h.theme_id, "name": theme_name(h, language), "prs": len(h.prs)}
            for h in digest.highlights
            if h.theme_id in digest.themes
        ],
        "modules": [
            {
                "id": m.id,
                "name": module_name(m.names, language),
                "prs": m.count,
                "previous_week": m.previous,
                "change_percent": None if m.delta is None else round(m.delta),
            }
            for m in digest.modules
            if m.count or m.previous
        ],
        "flags": {f.id: f.count for f in digest.flags if f.count},
        "highlights": [theme_input(digest, h, language) for h in digest.highlights],
        "rule_based_summary": summary_of(digest, language),
    }


MODEL_PRS = 12  # a theme's PRs sent to the model (most important first)


def theme_input(digest: Digest, highlight: Highlight, language: str) -> JSON:
    """One theme's facts: the only PRs its paragraph may cite and numbers it may state."""
    key = {k.number: k for k in digest.key_prs}
    rows = {r.number: r for r in digest.prs}
    facts = {f["number"]: f for f in highlight.facts}
    prs = []
    for number in highlight.prs[:MODEL_PRS]:
        row, pr = rows.get(number), key.get(number)
        fact = facts.get(number)
        prs.append(
            {
                "number": number,
                "title": row.title if row else "",
                "author": row.author if row else None,
                "score": row.score if row else None,
                "summary": pr.summary if pr else fact["summary"] if fact else "",
                "claims": pr.claims if pr else fact["claims"] if fact else [],
                # What the title says it changes and why, from the description (prose).
                "change": change_phrase(fact["change"], number, language) if fact else "",
                "purpose": fact["purpose"] if fact else "",
                "flags": row.flags if row else [],
            }
        )
    return {
        "theme_id": highlight.theme_id,
        "theme": theme_name(highlight, language),
        "members": len(highlight.prs),
        "trend": highlight.trend,
        "last_week": highlight.previous,
        "rule_based_text": highlight_text(highlight, language, digest.span),
        "prs": prs,
        "more_prs": len(highlight.prs) - len(prs),
    }


# ------------------------------------------------------------------ checks


def _norm(token: str) -> str:
    token = token.replace(",", "") if _GROUPED.match(token) else token
    try:
        return f"{float(token):g}"
    except ValueError:
        return token


def _numbers_in(text: str) -> Iterable[str]:
    for match in _NUMBER.finditer(text):
        token = match.group(0).rstrip(".,")
        if _GROUPED.match(token):
            yield _norm(token)
        else:
            # "3,4" or "1.2.3" are lists or versions: each part must be in the data.
            for part in re.split(r",", token):
                yield _norm(part)
                if part.count(".") > 1:
                    yield from (_norm(p) for p in part.split("."))


def allowed_numbers(data: object) -> set[str]:
    """Every number in the data, including numbers inside its strings (titles, claims)."""
    out: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int | float):
            out.add(_norm(str(value)))
            if isinstance(value, float):
                out.add(_norm(str(round(value))))
                out.add(_norm(f"{value:.1f}"))
        elif isinstance(value, str):
            out.update(_numbers_in(value))
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(data)
    return out


def check_text(text: str, week_prs: set[int], allowed: set[str], scope: str = "this week") -> None:
    """Raise NarrativeRejected unless `text` only cites `week_prs` (the week's PRs, or a
    theme's) and the data's figures."""
    if not text.strip():
        raise NarrativeRejected(Text("error.narrative.empty"))
    if len(text) > MAX_TEXT_CHARS:
        raise NarrativeRejected(Text("error.narrative.long", {"limit": str(MAX_TEXT_CHARS)}))
    mentioned = {int(n) for n in _PR_MENTION.findall(text)}
    foreign = sorted(mentioned - week_prs)
    if foreign:
        shown = {"scope": scope, "numbers": str(foreign)}
        raise NarrativeRejected(Text("error.narrative.foreign", shown))
    stray = sorted({n for n in _numbers_in(text) if n not in allowed})
    if stray:
        raise NarrativeRejected(Text("error.narrative.figures", {"figures": str(stray)}))


# ------------------------------------------------------------------ the call


async def _model_name(client: httpx.AsyncClient, config: NarrativeConfig) -> str:
    if config.model:
        return config.model
    response = await client.get("models")
    response.raise_for_status()
    model: str = response.json()["data"][0]["id"]
    return model


def _parse_answer(content: str) -> JSON:
    data = json.loads(_FENCE.sub("", content.strip()))
    if not isinstance(data, dict):
        raise NarrativeRejected(Text("error.narrative.not_object"))
    return data


async def _ask(
    client: httpx.AsyncClient, config: NarrativeConfig, payload: JSON
) -> tuple[str, JSON]:
    model = await _model_name(client, config)
    response = await client.post(
        "chat/completions",
        json={
            "model": model,
            "temperature": 0.2,
            "messages": [
                {"role": "system", "content": _SYSTEM},
                {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
            ],
        },
    )
    response.raise_for_status()
    content = response.json()["choices"][0]["message"]["content"]
    return model, _parse_answer(content)


async def write_narrative(digest: Digest, config: NarrativeConfig | None, language: str) -> Digest:
    """A copy of `digest` with summary/theme text the model wrote in `language` (for a
    rendering in that language), or `digest` itself when the
    model is not configured, fails or times out. Each paragraph is checked on its own: the
    summary against the week's data, a theme's paragraph against that theme's PRs and
    figures; a paragraph that fails keeps its rule-based text, the others are used."""
    if config is None or digest.totals.merged == 0:
        return digest
    payload = narrative_input(digest, language)
    # Lazy: httpx (~60 ms of a digest's start-up) only for digests that ask a narrative model.
    import httpx

    headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    base = config.base_url.rstrip("/") + "/"
    try:
        async with httpx.AsyncClient(
            base_url=base, headers=headers, timeout=config.timeout
        ) as client:
            model, answer = await asyncio.wait_for(_ask(client, config, payload), config.timeout)
    except (TimeoutError, httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
        log.warning("narrative model not used for %s %s: %r", digest.repo, digest.week, exc)
        return digest
    except NarrativeRejected as exc:
        log.warning("narrative rejected for %s %s: %s", digest.repo, digest.week, exc)
        return digest

    summary = answer.get("summary")
    themes = answer.get("highlights")
    themes = themes if isinstance(themes, dict) else {}
    week_prs = {row.number for row in digest.prs}
    new_summary = None
    if isinstance(summary, str):
        try:
            check_text(summary, week_prs, allowed_numbers(payload) | {str(n) for n in week_prs})
            new_summary = summary.strip()
        except NarrativeRejected as exc:
            log.warning("narrative summary rejected for %s %s: %s", digest.repo, digest.week, exc)
    by_id = {h["theme_id"]: h for h in payload["highlights"]}
    written: dict[str, str] = {}
    for highlight in digest.highlights:
        text = themes.get(highlight.theme_id)
        if not isinstance(text, str):
            continue
        members = set(highlight.prs)
        allowed = allowed_numbers(by_id[highlight.theme_id]) | {str(n) for n in members}
        try:
            check_text(text, members, allowed, scope="this theme")
            if len(_SENTENCE_END.findall(text.strip())) > MAX_SENTENCES:
                limit = {"limit": str(MAX_SENTENCES)}
                raise NarrativeRejected(Text("error.narrative.sentences", limit))
        except NarrativeRejected as exc:
            log.warning(
                "narrative paragraph for %s rejected (%s %s): %s",
                highlight.theme_id,
                digest.repo,
                digest.week,
                exc,
            )
            continue
        written[highlight.theme_id] = text.strip()
    if new_summary is None and not written:
        return digest
    highlights = [
        dataclasses.replace(h, text=written[h.theme_id], model_written=True)
        if h.theme_id in written
        else h
        for h in digest.highlights
    ]
    return dataclasses.replace(
        digest,
        summary_text=new_summary if new_summary is not None else digest.summary_text,
        highlights=highlights,
        narrative_model=model,
    )
