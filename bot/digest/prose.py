"""The digest's sentences, written when rendering: one computed (language-neutral) Digest
reads in every language of the catalogue (bot.core.i18n).

bot.digest.build computes figures, members, change facts, claims and rule ids; everything
here turns them into text for one language: the summary paragraph, highlight sentences,
recommendations, module and theme names, and the localised fields of the digest JSON.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, replace

from bot.analysis.changes import (
    Change,
    inflect,
    is_verb,
    lemmas,
    says_little,
    starts_a_change,
    third_person,
    title_change,
)
from bot.analysis.claims import claim_text
from bot.core import i18n
from bot.core.models import JSON
from bot.digest import recommend
from bot.digest.archive_paths import week_url
from bot.digest.build import (
    KIND_ORDER,
    LEAD_PRS,
    THEME_SENTENCES,
    THEME_SENTENCES_ZH,
    risk_order,
    status_message,
)
from bot.digest.history import History, module_name
from bot.digest.model import (
    Digest,
    FadingTheme,
    Highlight,
    ModuleCount,
    Recommendation,
    ThemeHead,
)
from bot.digest.summary import has_cjk
from bot.digest.zh import identifiers, zh_object

REFS_IN_TEXT = 8  # PR numbers named in one sentence; the rest are "and N more"
NAMES_IN_TEXT = 10


def _refs(numbers: Sequence[int], language: str, limit: int = REFS_IN_TEXT) -> str:
    shown = [f"#{n}" for n in numbers[:limit]]
    text = " ".join(shown) if language == "en" else "、".join(shown)
    if len(numbers) > limit:
        more = i18n.t(language, "more", count=len(numbers) - limit)
        text += f" {more}" if language == "en" else more
    return text


def _names(names: Sequence[str], language: str, limit: int = NAMES_IN_TEXT) -> str:
    if len(names) <= limit:
        return i18n.join(names, language)
    shown = (", " if language == "en" else "、").join(names[:limit])
    return i18n.t(language, "names.more", names=shown, count=len(names) - limit)


# ------------------------------------------------------------------ names


def theme_name(theme: Highlight | FadingTheme, language: str) -> str:
    """An area by its module's name in `language` (the same every week), an initiative by
    its proper name."""
    if theme.names is not None:
        return module_name(theme.names, language)
    return theme.theme if isinstance(theme, Highlight) else theme.name


def module_names(digest: Digest, language: str) -> dict[str, str]:
    """Module id -> name in `language`, for the digest's modules."""
    return {m.id: module_name(m.names, language) for m in digest.modules}


# ------------------------------------------------------------------ highlights


def _average(value: float | None) -> str:
    value = value or 0.0
    shown = f"{value:.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
    return shown


def _theme_head(head: ThemeHead, language: str, span: str) -> str:
    """Count and trend against last week's highlight of the theme; the weekly mean of the
    history weeks is quoted beside it, never instead."""
    count = head.count
    if head.trend == "unknown":
        if head.history_weeks == 0:
            return i18n.t(language, "theme.unknown", span=span, count=count)
        text = i18n.t(language, "theme.trend.unheld", span=span, count=count)
    elif head.trend == "continuing" and head.last_week is not None:
        text = i18n.t(language, "theme.continuing", span=span, count=count, previous=head.last_week)
    else:
        text = i18n.t(
            language, f"theme.trend.{head.trend}", span=span, count=count, previous=head.last_week
        )
    kinds = _theme_kinds(head, language)
    if kinds:
        # "12 PRs, new. Of them, 3 features …": the kinds qualify the count, before the mean.
        text = f"{text}{'' if language == 'zh' else ' '}{kinds}"
    if head.baseline is not None and head.history_weeks:
        average = i18n.t(
            language,
            "theme.trend.average",
            average=_average(head.baseline),
            weeks=head.history_weeks,
        )
        text = f"{text}{'' if language == 'zh' else ' '}{average}"
    return text


THEME_KINDS = 4  # kinds named in a highlight ("3 features, 8 bug fixes, …")


def _theme_kinds(head: ThemeHead, language: str) -> str | None:
    """ "Of them, 3 features and 8 bug fixes." / "其中 3 个新功能、8 个缺陷修复。": what
    sort of work the theme is; None for a theme of one kind (the count says it all)."""
    if len(head.kinds) < 2:
        return None
    items = [
        i18n.t(language, f"theme.kind_count.{kind}", count=count)
        for kind, count in head.kinds[:THEME_KINDS]
        if f"theme.kind_count.{kind}" in i18n.MESSAGES
    ]
    return i18n.t(language, "theme.kinds", kinds=i18n.join(items, language))


def _theme_authors(head: ThemeHead, language: str) -> str | None:
    if not head.authors:
        return None
    shown = [
        i18n.t(language, "theme.author_item", name=name, count=count) if count > 1 else name
        for name, count in head.authors
    ]
    if head.more_authors:
        return i18n.t(
            language,
            "theme.authors_more",
            authors=i18n.join(shown, language),
            count=head.more_authors,
        )
    return i18n.t(language, "theme.authors", authors=i18n.join(shown, language))


_ZH_SPAN_START = re.compile(r"^(?:本周|本期)\s*")


def quoted_purposes(purposes: Sequence[tuple[int, str]], language: str) -> list[str]:
    """The description sentences a highlight quotes: the first THEME_SENTENCES, and in a
    Chinese highlight at most THEME_SENTENCES_ZH of them in English."""
    said: list[str] = []
    english = 0  # quotes in English inside a Chinese highlight
    for number, why in purposes:
        if language != "en" and not has_cjk(why):
            if english == THEME_SENTENCES_ZH:
                continue
            english += 1
        said.append(quote_purpose(number, why, language))
        if len(said) == THEME_SENTENCES:
            break
    return said


def highlight_text(highlight: Highlight, language: str, span: str) -> str:
    """The highlight's paragraph: its trend, leading authors, claimed gains (metric kept)
    and what the top PRs' descriptions say they change. Every figure is a member count or
    a history count of the theme; nothing else is stated. Text written for the highlight
    (by the narrative model) is used as it is."""
    head = highlight.head
    if highlight.text or head is None:
        return highlight.text
    sep = " " if language == "en" else ""
    sentences = [_theme_head(head, language, span)]
    authors = _theme_authors(head, language)
    if authors:
        sentences.append(authors)
    claims = [
        i18n.t(language, "highlight.claim_item", pr=f"#{number}", claim=claim_text(c, language))
        for number, c in head.claims
    ]
    if claims:
        sentences.append(i18n.t(language, "theme.claims", claims=i18n.join(claims, language)))
    opening = change_sentence([(f["number"], f["change"]) for f in highlight.facts], language, span)
    if opening:
        sentences.insert(0, opening)
        # The opening already says 本周/本期; the count after it says 共 ("in all").
        sentences[1] = _ZH_SPAN_START.sub("共 ", sentences[1]) if language == "zh" else sentences[1]
    said = quoted_purposes(head.purposes, language)
    text = sep.join(sentences)
    if said:
        # Quoted descriptions keep their language; a space keeps Latin text apart.
        text += " " + " ".join(said)
    return text


# "Fix CI by skip MRV2 test": a base-form verb after "by"/"without" reads as its -ing form
# ("by skipping MRV2 test") when a word follows it; "by default" stays (no verb reading).
_EN_BY_VERB = re.compile(r"\b((?:by|without)\s+)([a-z]+)(?=\s+(?!(?:for|of|to|in|on|with)\b)\w)")
# "… and improve throughput" after the sentence's "fixes": the second verb agrees with it.
_EN_AND_VERB = re.compile(
    r"(?<=\s)(?:and|&)\s+([A-Za-z][a-z]+)(?=\s+(?!(?:for|of|to|in|on|with)\b)\w)"
)
# "Support configure X" reads "adds support for configure X": the verb takes its -ing form.
_EN_LEADING_VERB = re.compile(r"^([a-z]+)(?=\s+\S)")


def _only_verb(word: str) -> bool:
    """A base-form verb with no noun or adjective reading ("configure", "apply")."""
    return is_verb(word) and not any(lemmas(word, pos) for pos in ("NOUN", "ADJ"))


def _base_verb(word: str) -> bool:
    return not word.endswith(("s", "ed", "ing")) and starts_a_change(word)


def en_object(text: str) -> str:
    """The object as the title writes it, its verbs made grammatical: a second verb in the
    base form agrees with the sentence's third-person verb ("fixes X and improves Y"), one
    after "by" takes its -ing form ("fixes CI by skipping X"); lemminflect inflects."""
    text = _EN_BY_VERB.sub(lambda m: m[1] + (inflect(m[2], "VBG") if is_verb(m[2]) else m[2]), text)
    return _EN_AND_VERB.sub(
        lambda m: (
            "and " + (third_person(m[1]) if _base_verb(m[1].lower()) else m[1])
            if m[1].islower() or _base_verb(m[1].lower())
            else m[0]
        ),
        text,
    )


_ADD_TO = re.compile(r"^(?P<what>.+?)\s+(?:to|into)\s+(?P<where>[^\s].*)$", re.IGNORECASE)


def _worded(change: Change, language: str) -> tuple[str, str]:
    """(action, object) in the digest's language. English keeps the object as written; a
    title that is no verb phrase is quoted whole ("lands “Intergrate Tile Kernels”"), never
    read as a phrase. Chinese words the object (bot.digest.zh) or, when a word of it has no
    Chinese or the verb none, quotes the whole title after 合入: never a Chinese verb before
    an English clause."""
    title = i18n.t(language, "change.quoted", what=change.title or change.object)
    if language == "en":
        if change.action == "land":
            return "land", title
        what = en_object(change.object)
        if change.action == "support":
            what = _EN_LEADING_VERB.sub(
                lambda m: inflect(m[1], "VBG") if _only_verb(m[1]) else m[1], what
            )
        return change.action, what
    if change.action == "verb":
        return "land", title
    target = _ADD_TO.match(change.object) if change.action == "add" else None
    if target:
        # "Add @BugenZhao to CODEOWNERS": "将 @BugenZhao 加入 CODEOWNERS", not "新增 @BugenZhao".
        added, into = zh_object(target["what"]), zh_object(target["where"])
        if added and into:
            return "add_to", i18n.t(language, "change.into", what=added, where=into)
    words = zh_object(change.object)
    if words is None:
        return "land", title
    if change.action == "fix" and not has_cjk(words):
        # "修复 atten_mask" names no fault: "修复 atten_mask 相关问题".
        return "fix", i18n.t(language, "change.named_fault", what=words)
    return change.action, words


def _act(change: Change, action: str, what: str, language: str) -> str:
    """The action on `what` in the digest's language; a verb the catalogue does not word is
    conjugated by lemminflect (English only: Chinese quotes such a title)."""
    verb = third_person(change.verb) if action == "verb" and change.verb else ""
    return _tight(i18n.t(language, f"change.{action}", what=what, verb=verb), language)


def change_phrase(change: Change | None, number: int, language: str) -> str:
    """ "adds the Cohere EAGLE draft model (#42078)" / "新增 Cohere EAGLE 草稿模型（#42078）";
    "" for a title without a known verb."""
    if change is None:
        return ""
    action, what = _worded(change, language)
    return _act(
        change, action, i18n.t(language, "change.ref", what=what, pr=f"#{number}"), language
    )


def title_summary(title: str, kind: str, language: str) -> str:
    """What a title says the PR does, in the digest's language ("Adds Gemma4 MTP support" /
    "支持 Gemma4 MTP"): the key-PR table's summary for a PR without a description, instead
    of repeating its title. A Chinese one whose object has no Chinese names the PR's kind
    and the identifiers of its title ("新功能，涉及 Pixtral、Eagle3"), since the title is
    shown beside it."""
    change = title_change(title, kind)
    if change is None:
        return title
    action, what = _worded(change, language)
    if language == "en":
        text = _act(change, action, what, language)
        return text[:1].upper() + text[1:]
    if action != "land" or not what.startswith("“"):
        return _act(change, action, what, language)
    names = identifiers(change.title)
    kind_name = i18n.kind_name(kind, language)
    if not names:
        return kind_name
    return i18n.t(language, "keypr.kind_names", kind=kind_name, names="、".join(names))


_ZH_GAP = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff“])")


def _tight(text: str, language: str) -> str:
    # Chinese needs no space between a verb and a quotation mark or a Chinese word
    # ("修复“…”", "新增未使用的导入"); a Latin word keeps its spaces.
    return _ZH_GAP.sub("", text) if language == "zh" else text


def change_sentence(
    changes: Sequence[tuple[int, Change | None]], language: str, span: str
) -> str | None:
    """What a group did: its lead PRs' changes, those with the same action together
    ("adds A (#1) and B (#2); fixes C (#3)"); None when no title says anything."""
    grouped: dict[tuple[str, str], list[str]] = {}
    actions: dict[tuple[str, str], Change] = {}
    said: dict[tuple[str, str], set[str]] = {}
    for number, change in changes:
        if change is None or says_little(change):
            continue
        if sum(len(v) for v in grouped.values()) == LEAD_PRS:
            break
        action, what = _worded(change, language)
        key = (action, change.verb if action == "verb" else "")
        if what in said.get(key, ()):
            continue  # "adds attention ut (#1), attention ut (#2)": one says it
        said.setdefault(key, set()).add(what)
        ref = i18n.t(language, "change.ref", what=what, pr=f"#{number}")
        actions.setdefault(key, change)
        grouped.setdefault(key, []).append(ref)
    if not grouped:
        return None
    parts = [
        _act(actions[key], key[0], i18n.join(refs, language), language)
        for key, refs in grouped.items()
    ]
    joined = ("; " if language == "en" else "，").join(parts)
    return i18n.t(language, "highlight.changes", span=span, changes=joined)


def quote_purpose(number: int, text: str, language: str) -> str:
    """A description's purpose sentence, quoted and marked as the author's words (and, in
    a Chinese digest, as English when it is)."""
    text = text.rstrip("。.") if language == "zh" else text
    english = language == "zh" and not has_cjk(text)
    key = "highlight.purpose_en" if english else "highlight.purpose"
    return i18n.t(language, key, pr=f"#{number}", text=text)


# ------------------------------------------------------------------ recommendations


def recommendation_text(rec: Recommendation, language: str, span: str) -> str:
    """The recommendation in `language`, naming its PRs and its evidence (text written for
    the recommendation is used as it is)."""
    if rec.text:
        return rec.text
    return recommend.recommendation_text(rec, language)


# ------------------------------------------------------------------ summary


def fading_text(digest: Digest, language: str) -> str | None:
    """The digest's plain line on last week's highlights that are gone or fell by half
    (None when there are none), in `language`."""
    if not digest.fading:
        return None
    items = [
        i18n.t(
            language,
            "theme.fading_item",
            name=theme_name(f, language),
            previous=f.last_week,
            count=f.this_week,
        )
        for f in digest.fading
    ]
    return i18n.t(language, "theme.fading", span=digest.span, items=i18n.join(items, language))


def summary_of(digest: Digest, language: str) -> str:
    """The summary paragraph: the one written for the digest (narrative model,
    organisation digest), else the rule-based one."""
    return digest.summary_text or summary_text(digest, language)


def summary_text(digest: Digest, language: str) -> str:
    """The rule-based summary paragraph (the narrative model may replace it): the week's
    news first, then the totals as separate facts and the risks; data caveats last."""
    lang, span = language, digest.span
    sep = " " if lang == "en" else ""
    if digest.totals.merged == 0:
        text = i18n.t(lang, "summary.empty", repo=digest.repo)
    else:
        text = sep.join(_summary_sentences(digest, lang))
    status = status_message(digest)
    if status is not None:
        text = text + sep + i18n.t(lang, status, span=span)
    return text


NEWS_ITEMS = 3  # the summary opens with this many highlights, each with its lead change


def _lead_change(highlight: Highlight, language: str) -> tuple[int, Change] | None:
    """The most important member whose title says what it changes, among the highlight's
    leads the first that the language words rather than quotes (the summary opens with
    what landed, not with a quoted title)."""
    leads = [
        (fact["number"], change)
        for fact in highlight.facts[:LEAD_PRS]
        if (change := fact["change"]) is not None and not says_little(change)
    ]
    worded = [lead for lead in leads if _worded(lead[1], language)[0] != "land"]
    chosen = worded or leads
    return chosen[0] if chosen else None


def _news_order(digest: Digest) -> list[Highlight]:
    """The dominant highlights, the week's news first: initiatives and areas in weight
    order, then upkeep (a large CI or test effort is a highlight, not the headline)."""
    dominant = [h for h in digest.highlights if h.theme_id in digest.themes]
    return sorted(dominant, key=lambda h: h.upkeep)


def _lead_items(highlights: list[Highlight], lang: str) -> list[str]:
    """ "Model Runner V2 (15 PRs) adds … (#36097)": the first highlights (news order), as
    long as each names what its lead PR landed; a rule-based summary only."""
    out: list[str] = []
    for highlight in highlights:
        if len(out) == NEWS_ITEMS:
            break
        lead = _lead_change(highlight, lang)
        if lead is None:
            break
        out.append(
            i18n.t(
                lang,
                "summary.lead_item",
                name=theme_name(highlight, lang),
                count=len(highlight.prs),
                change=change_phrase(lead[1], lead[0], lang),
            )
        )
    return out


def _summary_sentences(digest: Digest, lang: str) -> list[str]:
    span = digest.span
    totals = digest.totals
    sentences: list[str] = []
    news = _news_order(digest)
    items = [
        i18n.t(lang, "summary.theme_item", name=theme_name(h, lang), count=len(h.prs)) for h in news
    ]
    if not items:
        # PRs without any module still have kinds: never leave the themes out.
        kinds = sorted(digest.kinds, key=lambda k: (-k.count, KIND_ORDER.get(k.id, 99)))
        items = [
            i18n.t(lang, "summary.theme_item", name=i18n.kind_name(k.id, lang), count=k.count)
            for k in kinds[:3]
            if k.count
        ]
    leads = _lead_items(news, lang)
    if leads:
        sep = "; " if lang == "en" else "；"
        sentences.append(i18n.t(lang, "summary.lead", span=span, items=sep.join(leads)))
        rest = items[len(leads) :]
        if rest:
            sentences.append(i18n.t(lang, "summary.rest", themes=i18n.join(rest, lang)))
    elif items:
        sentences.append(i18n.t(lang, "summary.news", span=span, themes=i18n.join(items, lang)))
    # Part of the news: what last week's digest led with and this week's does not.
    fading = fading_text(digest, lang)
    if fading:
        sentences.append(fading)
    # One fact per clause: "其中 24 个被标记为重点 PR，来自 131 位贡献者" read as if the 131
    # people wrote the 24 key PRs. No "0" inside a sentence either ("adding 0 lines" for a
    # week whose sizes are unknown).
    sizes = {}
    msg_id = "summary.counts"
    if totals.additions is None or totals.deletions is None:
        msg_id += "_nolines"
    else:
        sizes = {"additions": totals.additions, "deletions": totals.deletions}
    sentences.append(
        i18n.t(
            lang,
            msg_id,
            span=span,
            repo=digest.repo,
            merged=totals.merged,
            contributors=totals.contributors,
            **sizes,
        )
    )
    sentences.append(
        i18n.t(lang, "summary.key", key=totals.key) if totals.key else i18n.t(lang, "summary.nokey")
    )
    risks = []
    if digest.core_untested:
        risks.append(i18n.t(lang, "risk.core_untested", count=len(digest.core_untested)))
    counts = {f.id: f.count for f in digest.flags if f.count}
    for flag in risk_order(counts):
        key = f"risk.{flag}"
        risks.append(
            i18n.t(lang, key, count=counts[flag])
            if key in i18n.MESSAGES
            else f"{flag} {counts[flag]}"
        )
        if flag == "revert" and digest.relanded:
            risks[-1] += i18n.t(lang, "risk.revert_relanded_count", count=len(digest.relanded))
    if risks:
        sentences.append(i18n.t(lang, "summary.flags", items=i18n.join(risks, lang)))
    elif not totals.files_unknown:
        # With PRs lacking a file list, the title-only sentence below already says their
        # file-based risks are unknown; "no risk flag" would claim more than is known.
        sentences.append(i18n.t(lang, "summary.no_flags", span=span))
    if digest.new_contributors:
        sentences.append(
            i18n.t(lang, "summary.new_contributors", names=_names(digest.new_contributors, lang))
        )
    # Caveats about the data come last: they qualify the facts above.
    if totals.files_unknown:
        from_titles = sum(1 for k in digest.key_prs if k.scored_from_titles)
        sentences.append(
            i18n.t(
                lang,
                "summary.title_only_keys" if from_titles else "summary.title_only",
                count=totals.files_unknown,
                keys=from_titles,
            )
        )
    if totals.new_contributors is None:
        sentences.append(i18n.t(lang, "summary.new_contributors_unknown"))
    return sentences


# ------------------------------------------------------------------ JSON


def module_json(module: ModuleCount, language: str) -> JSON:
    return {
        "id": module.id,
        "name": module_name(module.names, language),
        "count": module.count,
        "previous": module.previous,
        "delta": module.delta,
    }


def fading_json(theme: FadingTheme, language: str) -> JSON:
    return {
        "id": theme.id,
        "name": theme_name(theme, language),
        "last_week": theme.last_week,
        "this_week": theme.this_week,
        "highlight": theme.highlight,
        "module": theme.module,
    }


def _history_json(history: History, language: str) -> JSON:
    data = asdict(replace(history, modules=[]))
    data["modules"] = [
        {
            "id": m.id,
            "name": module_name(m.names, language),
            "series": list(m.series),
            "direction": m.direction,
            "recent": m.recent,
            "baseline": m.baseline,
            "total": m.total,
        }
        for m in history.modules
    ]
    data["incomplete"] = history.incomplete
    return data


def digest_json(digest: Digest, language: str) -> JSON:
    """The CONTRACT's digest JSON, its localised fields (module and theme names, highlight
    and recommendation text, the summary) written in `language`."""
    span = digest.span
    # The lists rebuilt below are left out of asdict (it would deep-copy their facts).
    bare = replace(
        digest,
        theme_result=None,
        modules=[],
        highlights=[],
        recommendations=[],
        fading=[],
        history=None,
    )
    fields = asdict(bare)
    data: JSON = {}
    for key, value in fields.items():
        if key == "theme_result":
            continue
        if key == "archive_base":
            data["archive_url"] = week_url(value, digest.repo, digest.week, language)
            continue
        data[key] = value
        if key == "timezone":
            data["language"] = language
    data["modules"] = [module_json(m, language) for m in digest.modules]
    data["highlights"] = [
        {
            "theme": theme_name(h, language),
            "theme_id": h.theme_id,
            "prs": list(h.prs),
            "text": highlight_text(h, language, span),
            "model_written": h.model_written,
            "trend": h.trend,
            "previous": h.previous,
            "terms": list(h.terms),
            "module": h.module,
        }
        for h in digest.highlights
    ]
    data["recommendations"] = [
        {"text": recommendation_text(r, language, span), "prs": list(r.prs), "id": r.id}
        for r in digest.recommendations
    ]
    data["summary_text"] = summary_of(digest, language)
    data["fading"] = [fading_json(f, language) for f in digest.fading]
    if digest.history is not None:
        data["history"] = _history_json(digest.history, language)
    if digest.scope:
        data["scope_names"] = digest.scope_names(language)  # says what the digest is of
    for key in ("start", "end", "generated_at"):
        value = getattr(digest, key)
        data[key] = value.isoformat() if value else None
    return data
