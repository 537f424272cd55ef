"""Performance claims stated by PR authors ("2.15x throughput", "+24%", "1289μs -> 1.8μs").

Only what is written is extracted: a number must carry a multiplier, a percentage or a
before/after arrow, and (except for explicit "+N%" and arrows) a performance word nearby.
Versions, PR numbers, sizes ("1400 lines"), hardware counts ("8x H100"), parallel sizes
("TP4") and dates never qualify because they have none of those shapes.

Only the prose the author wrote counts (``prose``): code blocks, tables, HTML, block quotes
and pasted log or metric lines are readings of a run, not claims. A level that a change
moves (a hit rate) is a claim only with its before and after or a stated direction; a level
on its own ("hit rate: 0.0%", often the symptom of the bug a fix is for) is not.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from bot.core import i18n
from bot.core.models import Claim

from .regex import lazy

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_NUM = r"\d+(?:[.,]\d+)?"
# A range is one claim, with the unit written once or on both ends ("1.27x-9.73x").
_RANGE = rf"({_NUM})(?:\s?[x×%]?\s*(?:-|–|~|to)\s*({_NUM}))?"

_METRICS = (
    # Levels that a change moves (a hit rate going 33% -> 86%); never a speed-up factor.
    r"(?:prefix[- ]?cache |cache |KV[- ]cache )?hit[- ]rate|"
    r"decode throughput|prefill throughput|output throughput|token throughput|throughput|"
    r"end-to-end latency|e2e latency|latency|speed-?up|TPS|TPOT|TTFT|ITL|QPS|RPS|"
    r"tok(?:en)?s?/s|req(?:uest)?s?/s|bandwidth|kernel performance|performance|perf|"
    r"memory usage|memory|decode|prefill|acceptance rate|acceptance length"
)
_GAIN_WORDS = (
    r"faster|speed-?up|speedups|improve(?:ment|d|s)?|gain|boost|increase|higher|better|"
    r"reduc(?:e|ed|es|tion)|lower|less|fewer|saving|accelerat(?:e|ion|ed)|up to|"
    r"提升|加速|降低|减少"
)
_REDUCTION_WORDS = lazy(r"reduc|lower|less|fewer|saving|降低|减少", re.IGNORECASE)
_TIME_UNITS = r"μs|us|µs|ms|ns|s|sec|seconds?|min"
_UNITS = rf"{_TIME_UNITS}|GB/s|TB/s|tok/s|tokens/s|req/s|x|%"

_HARDWARE = lazy(
    r"^\s*(?:[A-Z]?\d{2,4}[A-Z]?\b|H\d{2,3}|A\d{2,3}|B\d{2,3}|L\d{1,2}|MI\d{3}|GPUs?|"
    r"GB\d{2,3}|nodes?|cards?|devices?|NPUs?|TPUs?|chips?|hosts?|workers?|sockets?|cores?)",
    re.IGNORECASE,
)
_NOT_PERF = lazy(
    r"accuracy|acc\b|gsm8k|mmlu|coverage|utiliz|util\b|score|pass rate|recall|precision|"
    r"probabilit|percentile|p\d\d\b|quantile|sparsity|ratio of|of the (?:cases|time)",
    re.IGNORECASE,
)

_ARROW_RE = lazy(
    rf"(?<![\w.])({_NUM})\s*({_UNITS}|{_METRICS})?\s*(?:->|→|=>|⇒|-->)\s*({_NUM})\s*"
    rf"({_UNITS}|{_METRICS})?(?:\s*\(\s*({_NUM})\s*[x×]\s*(?:faster|speed-?up)?\s*\))?",
    re.IGNORECASE,
)
# "hit rate went from 33% to 86%": the same before/after, written in words.
_FROM_TO_RE = lazy(
    rf"\bfrom\s+({_NUM})\s*({_UNITS})\s+to\s+({_NUM})\s*({_UNITS})?",
    re.IGNORECASE,
)
# Two deployment layouts or configurations side by side ("TP8 vs DP8", "compared with the
# TP16 deployment"): a comparison, not a speed-up of the change.
_LAYOUT = (
    r"(?:\b(?:(?:TP|DP|EP|PP|SP|CP)\d+)+\b"  # "TP8", and "DP2TP16" written as one word
    r"|\b(?:deployment|layout|topology|setup|configuration)s?\b)"
)
_COMPARISON_RE = lazy(
    rf"{_LAYOUT}[^.\n]{{0,60}}\b(?:vs\.?|versus|than|compared (?:to|with))\b"
    rf"|\b(?:vs\.?|versus|than|compared (?:to|with))\b[^.\n]{{0,40}}{_LAYOUT}",
    re.IGNORECASE,
)
_LOG_LINE = lazy(r"\b(?:INFO|DEBUG|WARNING|ERROR)\b.*(?:\[[\w.]+\.py:\d+\]|pid=\d+)|pid=\d+\)")
# A quality level named before its figures ("GPQA accuracy", "MMLU score: ").
_ACCURACY = r"(?:[A-Za-z][\w.@-]*\s+)?(?:accuracy|acc|score|pass rate)"
_ACCURACY_BEFORE = lazy(rf"\b({_ACCURACY})\s*(?:is|was|went|of)?\s*:?\s*$", re.IGNORECASE)
_ACCURACY_RE = lazy(rf"\b{_ACCURACY}\b", re.IGNORECASE)
_LEVEL_RE = lazy(r"hit[- ]rate|acceptance rate|acceptance length", re.IGNORECASE)
_MULT_RE = lazy(rf"(?<![\w.#/])(?:{_RANGE})\s?(?:[x×](?![\w])|倍)", re.IGNORECASE)
_PCT_RE = lazy(rf"(?<![\w.#/])(\+)?\s?(?:{_RANGE})\s?%", re.IGNORECASE)
# On the figure's own line: "prefixcache: 90%" over "tps: 2054" is two readings.
_METRIC_AFTER = lazy(
    rf"^[ \t]*(?:(?:{_GAIN_WORDS})[ \t]+(?:in[ \t]+|of[ \t]+|on[ \t]+)?)?((?:{_METRICS}))\b",
    re.IGNORECASE,
)
# "improves throughput by ~90%": the verb before the metric is the stated direction.
_VERB_BEFORE = lazy(
    r"\b(?:improv(?:e|es|ed|ing)|boost(?:s|ed|ing)?|increas(?:e|es|ed|ing)|rais(?:e|es|ed|ing)|"
    r"reduc(?:e|es|ed|ing)|lower(?:s|ed|ing)?|cut(?:s|ting)?|speed(?:s|ing)? up|sped up)"
    r"\s+(?:the\s+|its\s+)?(?:\w+\s+)?$",
    re.IGNORECASE,
)
_METRIC_BEFORE = lazy(
    rf"\b({_METRICS})\s*(?:(?:{_GAIN_WORDS}|improves?|is|was|went)\s*)?(?:of|by|:|up|\+)?"
    r"(?:\s*(?:~|≈|about|approximately|around|roughly|nearly))?\s*$",
    re.IGNORECASE,
)
_GAIN_AFTER = lazy(r"^\s*(faster|speed-?ups?|improvement|quicker|提升|加速)", re.IGNORECASE)
# "88% reduction in bank group conflicts": what was reduced, when it is not a known metric.
_REDUCED_AFTER = lazy(
    r"^\s*(?:reduction|decrease|drop|fewer|less|lower|savings?)\s+(?:in\s+|of\s+)?"
    # Up to five words; PR bodies wrap lines mid-phrase, so a single newline is a space.
    r"(?P<what>[a-z][\w/-]*(?:\s+[a-z][\w/-]*){0,4}?)"
    r"(?=\s*(?:$|[,.;:()]|\n\s*(?:[-*#>|]|\d+\.|\n))|\s+(?:and|with|on|for|vs\.?|"
    r"compared|when|while|by|than|at|from|in|under|over|per)\b)",
    re.IGNORECASE,
)
# Only speed (throughput, latency, time) becomes a speed-up factor; "3x less memory" or
# "88% fewer bank conflicts" are claims without one.
_SPEED_METRIC = lazy(
    r"throughput|latency|speed|TPS|TPOT|TTFT|ITL|QPS|RPS|tok|req|bandwidth|perf|decode|"
    r"prefill|faster",
    re.IGNORECASE,
)
_TIME_WORDS = lazy(
    r"\b(?:latency|time|duration|runtime|TTFT|TPOT|ITL|wall[- ]clock)\b", re.IGNORECASE
)
_PERF_CONTEXT = lazy(rf"\b(?:{_METRICS}|{_GAIN_WORDS})", re.IGNORECASE)
# Cheap gate: every claim shape needs one of these, and most PR bodies have none.
_MAYBE_CLAIM = lazy(r"\d\s?(?:[x×%倍]|μs|us|µs|ms)|->|→|=>|⇒")
_WINDOW = 48
_MAX_CLAIMS = 6


def _num(s: str) -> float:
    return float(s.replace(",", "."))


def _metric_name(s: str | None) -> str | None:
    if not s:
        return None
    low = re.sub(r"\s+", " ", s).strip().lower()
    if low in {"tps", "tpot", "ttft", "itl", "qps", "rps"}:
        return low.upper()
    return low.replace("speed-up", "speedup")


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _time_unit(u: str | None) -> bool:
    return bool(u) and re.fullmatch(_TIME_UNITS, u or "", re.IGNORECASE) is not None


def _speed(metric: str | None) -> bool:
    """No metric stated ("3x faster", "+24%") reads as speed; a named one must be speed."""
    return metric is None or bool(_SPEED_METRIC.search(metric))


# Lines of raw output that a paragraph can still hold (a log pasted without a fence, a
# table whose header GitHub did not parse): server and glog log lines, pipe-separated rows,
# and metric dumps ("Avg prompt throughput: 0.1 tokens/s, Running: 0 reqs, …").
_RAW_LINE = lazy(
    r"\b(?:INFO|DEBUG|WARNING|ERROR)\b.*(?:\[[\w.]+\.py:\d+\]|pid=\d+)|pid=\d+\)"
    r"|^\s*[IWEF]\d{8}\s+\d\d:\d\d"
    r"|\|[^|\n]*\|"
    r"|(?:[A-Za-z][\w ./-]{0,40}:\s*-?\d[^,\n]*,\s*){2,}[A-Za-z][\w ./-]{0,40}:\s*-?\d"
)
# A line break inside a sentence (descriptions are often wrapped at 72 columns): the next
# line goes on with a lower-case word, a bracket or an arrow. A line that is a reading of
# its own ("tps: 2054" under "prefixcache: 90%") starts a new line.
_WRAPPED = lazy(r"(?<=\S)[ \t]*\n[ \t]*(?=(?:[a-z(](?![\w ]{0,30}:\s))|→|->)")
_SKIPPED_BLOCKS = {"blockquote_open": 1, "blockquote_close": -1, "table_open": 1, "table_close": -1}


@cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt  # Lazy: only PR texts with a figure are parsed

    return MarkdownIt("commonmark").enable("table")


def prose(text: str) -> str:
    """The prose of a markdown text as its author wrote it: the words of its paragraphs,
    headings and list items, without emphasis marks or link targets. Code blocks, tables,
    HTML blocks and block quotes (pasted logs, benchmark dumps) are left out, and so are
    lines of raw output inside a paragraph (``_RAW_LINE``)."""
    blocks: list[str] = []
    skipped = 0
    for token in _markdown().parse(text):
        skipped += _SKIPPED_BLOCKS.get(token.type, 0)
        if token.type != "inline" or skipped:
            continue
        words = "".join(
            "\n" if child.type in {"softbreak", "hardbreak"} else child.content
            for child in token.children or ()
            if child.type in {"text", "code_inline", "softbreak", "hardbreak"}
        )
        lines = [line for line in words.split("\n") if not _RAW_LINE.search(line)]
        if any(line.strip() for line in lines):
            blocks.append(_WRAPPED.sub(" ", "\n".join(lines)))
    return "\n\n".join(blocks)


def extract_claims(text: str) -> list[Claim]:
    """Performance claims the author states in ``text`` (title and markdown body), in
    order of appearance; only its prose is read (``prose``)."""
    if not text or not _MAYBE_CLAIM.search(text):
        return []
    return _claims(prose(text))


def _claims(text: str) -> list[Claim]:
    if not text or not _MAYBE_CLAIM.search(text):
        return []
    claims: list[Claim] = []
    taken: list[tuple[int, int]] = []

    def overlaps(a: int, b: int) -> bool:
        return any(a < e and s < b for s, e in taken)

    def context(a: int, b: int) -> tuple[str, str]:
        return text[max(0, a - _WINDOW) : a], text[b : b + _WINDOW]

    def push(a: int, b: int, factor: float | None, metric: str | None) -> None:
        if overlaps(a, b):
            return
        taken.append((a, b))
        claims.append(
            Claim(_clean(text[a:b]), round(factor, 3) if factor else None, _metric_name(metric))
        )

    # 1) before -> after, e.g. "1289μs -> 1.8μs (719x)"
    for m in _ARROW_RE.finditer(text):
        before, unit1, after, unit2, stated = m.groups()
        unit = unit2 or unit1
        if not unit and not stated:
            continue  # "3 -> 4" alone is a count, not a claim
        b0, a0 = _num(before), _num(after)
        if stated:
            factor: float | None = _num(stated)
        elif b0 > 0 and a0 > 0:
            # Times and latencies improve downwards, rates upwards.
            lower_better = _time_unit(unit) or "latency" in (unit or "").lower()
            factor = b0 / a0 if lower_better else a0 / b0
        else:
            factor = None
        metric = (
            unit if unit and not _time_unit(unit) else ("latency" if _time_unit(unit) else None)
        )
        start = m.start()
        if start:
            # "Prefix-cache hit rate: 33% -> 86%", "TTFT 120 ms -> 80 ms": the metric is
            # written before the figures.
            before_metric = _METRIC_BEFORE.search(text[max(0, start - _WINDOW) : start])
            if before_metric:
                start -= len(text[max(0, start - _WINDOW) : start]) - before_metric.start()
                metric = before_metric.group(1)
        if metric in {None, "%"}:
            # "GPQA accuracy 72% → 86%": a level keeps the label written before it.
            level = _ACCURACY_BEFORE.search(text[max(0, start - _WINDOW) : start])
            if level:
                start -= len(text[max(0, start - _WINDOW) : start]) - level.start()
                metric = level.group(1)
        if unit == "%" and not stated:
            factor = None  # a percentage going up is a level, not an N-times speed-up
        push(start, m.end(), factor, metric)

    # 1b) "from 33% to 86%"
    for m in _FROM_TO_RE.finditer(text):
        before, unit1, after, unit2 = m.groups()
        unit = unit2 or unit1
        pre = text[max(0, m.start() - _WINDOW) : m.start()]
        bare = re.sub(
            r"\s*\b(?:went|goes|go|rose|fell|dropped|changed|"
            r"improved|increased|decreased|reduced)\s*$",
            "",
            pre,
        )
        named = _METRIC_BEFORE.search(bare) or _ACCURACY_BEFORE.search(bare)
        if named is None and not _time_unit(unit):
            continue  # "from 2 to 4 workers" is no claim
        metric = named.group(1) if named else "latency"
        lower_better = _time_unit(unit) or "latency" in metric.lower()
        b0, a0 = _num(before), _num(after)
        factor = None
        if unit != "%" and b0 > 0 and a0 > 0:
            factor = b0 / a0 if lower_better else a0 / b0
        if overlaps(m.start(), m.end()):
            continue
        taken.append((m.start(), m.end()))
        label = _clean(named.group(1)) + " " if named else ""
        claims.append(
            Claim(
                f"{label}{before}{unit1 or unit} → {after}{unit}",
                round(factor, 3) if factor else None,
                _metric_name(metric),
            )
        )

    # 2) multipliers, e.g. "2.15x throughput", "TPS 1.24-3.17x", "3x faster"
    for m in _MULT_RE.finditer(text):
        lo, hi = m.group(1), m.group(2)
        pre, post = context(m.start(), m.end())
        if _HARDWARE.match(post) or re.match(r"^\s*\d", post):
            continue  # "8x H100", "4x 80GB", "2x8"
        after = _METRIC_AFTER.match(post)
        before = _METRIC_BEFORE.search(pre)
        if not (after or before or _PERF_CONTEXT.search(pre[-24:] + post[:24])):
            continue
        a, b = m.start(), m.end()
        metric = None
        if after:
            b += after.end()
            # "20% kernel performance improvement": the direction word stays with the claim.
            gain_after = _GAIN_AFTER.match(text[b : b + _WINDOW])
            if gain_after:
                b += gain_after.end()
            metric = after.group(1)
        elif before:
            a = _with_verb(text, a - (len(pre) - before.start()))
            metric = before.group(1)
        else:
            gain = _GAIN_AFTER.match(post)
            reduced = _REDUCED_AFTER.match(post)
            if gain:
                b += gain.end()
            elif reduced:
                b += reduced.end()
                metric = reduced.group("what")
        factor = _num(hi or lo) if _speed(metric) or _TIME_WORDS.search(metric or "") else None
        push(a, b, factor, metric)

    # 3) percentages, e.g. "+24%", "16-24% decode throughput", "319% speedup"
    for m in _PCT_RE.finditer(text):
        plus, lo, hi = m.group(1), m.group(2), m.group(3)
        pre, post = context(m.start(), m.end())
        if _NOT_PERF.search(pre[-30:] + post[:30]):
            continue
        if not plus and m.start(2) > 0 and text[m.start(2) - 1] == "-":
            continue  # "-5%" (a regression) or a range end already handled; not "- 5%" bullets
        after = _METRIC_AFTER.match(post)
        before = _METRIC_BEFORE.search(pre)
        if not (plus or after or before or _PERF_CONTEXT.search(pre[-24:] + post[:24])):
            continue
        a, b = m.start(), m.end()
        if plus:
            a = text.index("+", a)
        metric = None
        reduced = None if after else _REDUCED_AFTER.match(post)
        if after:
            b += after.end()
            # "20% kernel performance improvement": the direction word stays with the claim.
            gain_after = _GAIN_AFTER.match(text[b : b + _WINDOW])
            if gain_after:
                b += gain_after.end()
            metric = after.group(1)
        elif reduced:
            b += reduced.end()
            metric = reduced.group("what")
        elif before:
            a = _with_verb(text, a - (len(pre) - before.start()))
            metric = before.group(1)
        pct = _num(hi or lo)
        around = (pre[-24:] + post[:24]).lower()
        if _REDUCTION_WORDS.search(around) or (metric and "latency" in metric.lower()):
            # Less time is a speed-up (30% lower latency = 1.43x); less of anything else
            # (memory, cycles, conflicts) is not, and no factor is made up for it.
            timed = _TIME_WORDS.search(metric or "") or (metric is None and "faster" in around)
            factor = 1 / (1 - pct / 100) if timed and pct < 100 else None
        else:
            factor = 1 + pct / 100 if _speed(metric) else None
        push(a, b, factor, metric)
        if len(claims) >= _MAX_CLAIMS * 2:
            break

    claims_sorted = sorted(zip(taken, claims, strict=True), key=lambda t: t[0][0])
    # A bare figure ("+9.18%" in a table cell) that the text also states with its metric
    # ("throughput +9.18%") is the same claim: keep only the one that names the metric.
    with_metric = {_figures(c.text) for c in claims if c.metric}
    seen: set[str] = set()
    shown: set[str] = set()
    out: list[Claim] = []
    for span, raw in claims_sorted:
        if raw.text.lower() in seen or (not raw.metric and _figures(raw.text) in with_metric):
            continue
        seen.add(raw.text.lower())
        c = _in_context(text, span, raw)
        if c is not None and c.text.lower() not in shown:
            shown.add(c.text.lower())
            out.append(c)
    return out[:_MAX_CLAIMS]


def _with_verb(text: str, a: int) -> int:
    """``a`` moved back over a direction verb written just before it."""
    before = text[max(0, a - _WINDOW) : a]
    verb = _VERB_BEFORE.search(before)
    return a - (len(before) - verb.start()) if verb else a


def sentence_start(text: str, a: int) -> int:
    return max(text.rfind(". ", 0, a), text.rfind("\n", 0, a)) + 1


def _sentence_around(text: str, a: int, b: int) -> str:
    start = sentence_start(text, a)
    ends = [i for i in (text.find(". ", b), text.find("\n", b)) if i >= 0]
    return text[start : min(ends) if ends else len(text)]


def _in_context(text: str, span: tuple[int, int], claim: Claim) -> Claim | None:
    """The claim as its sentence qualifies it: a bare figure ("90%") takes the metric its
    sentence names or is dropped; a comparison of two layouts keeps its words and loses its
    speed-up factor."""
    line_start = text.rfind("\n", 0, span[0]) + 1
    line_end = text.find("\n", span[1])
    if _LOG_LINE.search(text[line_start : line_end if line_end >= 0 else len(text)]):
        return None  # a figure in pasted server logs is a reading, not a claim
    sentence = _sentence_around(text, *span)
    if _LEVEL_RE.search(claim.metric or "") and not _STATED_DIRECTION_RE.search(claim.text):
        # "Prefix cache hit rate: 0.0%": a reading (often the bug being fixed), no gain.
        return None
    if _COMPARISON_RE.search(sentence):
        clause = _clean(sentence).strip(" -*:")
        if len(clause) > 120:
            clause = claim.text
        return Claim(clause, None, claim.metric or "comparison")
    if claim.metric == "latency" and not _STATED_METRIC_RE.search(claim.text):
        # "P99 TPOT dropped from 334.38ms → 313.15ms": the metric the sentence names, not
        # only what the unit says.
        stated = list(_STATED_METRIC_RE.finditer(text, sentence_start(text, span[0]), span[0]))
        if stated:
            metric = stated[-1].group(0)
            return Claim(f"{_clean(metric)} {claim.text}", claim.factor, _metric_name(metric))
    if claim.metric or _SPEED_WORDS_RE.search(claim.text):
        return claim
    # The figure's own label: the words before it back to the last comma, semicolon,
    # bracket or line break ("Output throughput on the benchmark: +24%"). A metric further
    # away belongs to another figure ("… generation throughput: 1074.6 tokens/s, GPU KV
    # cache usage: 11.7%").
    a = span[0]
    cut = max(text.rfind(d, 0, a) for d in (",", ";", "(", "\n", ". ", "|"))
    label = text[cut + 1 : a]
    found = list(_STATED_METRIC_RE.finditer(label))
    named = found[-1] if found else None  # the metric nearest the figure
    if named is None:
        return None  # "reduces it by 90%": a figure without what it measures
    metric = named.group(0)
    factor = claim.factor if _speed(metric) and not _LEVEL_RE.search(metric) else None
    return Claim(f"{_clean(metric)} {claim.text}", factor, _metric_name(metric))


def is_comparison(claim: Claim) -> bool:
    """A figure comparing two setups side by side (not a gain of the change itself)."""
    return claim.metric == "comparison" or bool(_COMPARISON_RE.search(claim.text))


def _figures(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\d+(?:\.\d+)?", text))


def best_claim(claims: list[Claim]) -> Claim | None:
    """The claim with the largest stated factor (first one when none is derivable)."""
    if not claims:
        return None
    with_factor = [c for c in claims if c.factor]
    if not with_factor:
        return claims[0]
    return max(with_factor, key=lambda c: c.factor or 0.0)


# ------------------------------------------------------------------ claims in a sentence

# The figure of a claim: "2.15x", "+24%", "16-24%", "1.27x-9.73x", "~90%", "1289μs -> 1.8μs",
# "7122 token/s -> 8319 token/s"; never a digit inside a word ("E2E").
_RATE_UNITS = r"GB/s|TB/s|tok(?:en)?s?/s|req(?:uest)?s?/s|tps"
_FIGURE_RE = lazy(
    rf"(?<![\w.])[+~≈]?\s?{_NUM}(?:\s?[x×%]?\s*(?:-|–|~|to)\s*{_NUM})?\s?"
    rf"(?:[x×倍%]|{_RATE_UNITS}|{_TIME_UNITS})?(?![\w/])"
    rf"(?:\s*(?:->|→|=>|⇒|-->)\s*{_NUM}\s?(?:{_RATE_UNITS}|{_TIME_UNITS}|x|%)?)?",
    re.IGNORECASE,
)
_SPEED_WORDS_RE = lazy(r"\b(?:faster|speed-?ups?|quicker)\b|加速", re.IGNORECASE)
_GAIN_RE = lazy(
    r"\b(?:higher|improve[sd]?|improvements?|increase[sd]?|boost|gains?|better|up to)\b|提升",
    re.IGNORECASE,
)
_STATED_METRIC_RE = lazy(rf"\b(?:{_METRICS})\b", re.IGNORECASE)
# A direction the author wrote: before and after, a signed or multiplied figure, or a word.
_STATED_DIRECTION_RE = lazy(
    rf"->|→|=>|⇒|[+][ ]?\d|\d[ ]?[x×倍]|{_GAIN_WORDS}|improv|drop|fell|rose|went up|went down",
    re.IGNORECASE,
)
# "319% speedup on H100": the hardware or setting the figure was measured on.
_WHERE_RE = lazy(r"\b(?:on|with)\s+([A-Z][\w.\-]*\d[\w.\-]*)")
_ACRONYM_RE = lazy(r"^(?:[A-Z0-9/]+|tok(?:en)?s?/s|req(?:uest)?s?/s)$")


def _metric_words(metric: str, language: str) -> str | None:
    """A metric in ``language`` word by word from the catalogue ("prefill throughput" →
    "预填充吞吐量"); None when a word has no entry (then the claim is quoted as written)."""
    out = []
    for word in re.split(r"[\s-]+", metric.strip()):
        key = f"claim.metric.{word.lower()}"
        if key in i18n.MESSAGES:
            out.append(i18n.message(language, key))
        elif _ACRONYM_RE.match(word):
            out.append(word)  # TTFT, TPOT, TPS read the same in every language
        else:
            return None
    return "".join(out) if language == "zh" else " ".join(out)


def claim_text(claim: Claim, language: str) -> str:
    """A claim inside a sentence of ``language``. English keeps the words as stated; other
    languages get the figure with the metric and direction translated ("吞吐量提升 2.15x"),
    or the stated words in quotes when the metric has no translation, so no English metric
    word is left loose in a Chinese sentence."""
    if language == "en":
        return claim.text
    if is_comparison(claim):
        # Two setups compared: the author's sentence, quoted, never a "提升" of the change.
        return i18n.message(language, "claim.quoted", text=claim.text)
    figure = _FIGURE_RE.search(claim.text)
    reduced = bool(_REDUCTION_WORDS.search(claim.text))
    # The metric as the claim states it ("decode throughput", not only "throughput").
    stated = _STATED_METRIC_RE.search(claim.text) or _ACCURACY_RE.search(claim.text)
    metric = stated.group(0) if stated else claim.metric
    speed = bool(_SPEED_WORDS_RE.search(claim.text))
    if metric and metric.lower() in {"speedup", "speed-up", "faster"}:
        metric = None
    if metric:
        name = _metric_words(metric, language)
    else:
        # No metric stated: "3x faster" is speed; a bare "+9.18%" stays without a metric.
        name = i18n.message(language, "claim.metric.speed") if speed else ""
    if figure is None or name is None:
        return i18n.message(language, "claim.quoted", text=claim.text)
    text = figure.group(0).strip()
    if re.search(r"->|→|=>|⇒", text):
        direction = "claim.change"  # before -> after: the figures give the direction
    elif reduced:
        direction = "claim.down"
    elif metric and _TIME_WORDS.search(metric):
        direction = "claim.better"  # "latency improved by 12%": less time, not more
    elif speed or _GAIN_RE.search(claim.text) or re.search(r"[x×倍+]", text):
        direction = "claim.up"
    else:
        direction = "claim.change"  # "acceptance rate: 63.0%" is a level, not a gain
    if name and (direction == "claim.change" or (name[-1:].isascii() and name[-1:].isalnum())):
        name += " "  # "TPS 提升", "接受率 63.0%": a space between a word and a figure
    out = i18n.message(language, direction, metric=name, figure=text.lstrip("+ "))
    where = _WHERE_RE.search(claim.text[figure.end() :])
    if where:
        out += i18n.message(language, "claim.where", where=where.group(1))
    return out


def stated_claim_text(text: str, language: str) -> str:
    """``claim_text`` for a claim kept as its stated text only (the digest JSON's
    ``key_prs[].claims``): re-read the figure and metric from it."""
    if language == "en":
        return text
    found = extract_claims(text)
    return claim_text(found[0] if found else Claim(text), language)
