"""``modules = "auto"``: derive a rule set from a repository's own labelling rules.

Inputs are the texts of ``.github/labeler.yml`` (actions/labeler v4 or v5 syntax) and
``.github/mergify.yml`` (label actions with ``files~=`` / ``files=`` / ``title~=``
conditions) plus the repository's top-level folders; fetching them is the caller's job.

Only the subset of YAML these files use is parsed (block mappings and sequences, flow
sequences, quoted scalars, comments, block scalars), so no YAML dependency is needed.
Conditions are flattened: every positive file or title condition of a label becomes a rule
for that label's module, which over-approximates ``and`` rules but never misses a file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from bot.core.errors import BotError
from bot.core.messages import Text
from bot.core.models import JSON

from .rules import ModuleRule, RuleSet, load_ruleset

# Labels that mean one of the generic modules, whatever the repository calls them.
_GENERIC_LABELS = {
    "documentation": "docs",
    "docs": "docs",
    "doc": "docs",
    "tests": "tests",
    "test": "tests",
    "testing": "tests",
    "ci": "ci-build",
    "ci/build": "ci-build",
    "build": "ci-build",
    "infra": "ci-build",
    "github_actions": "ci-build",
    "dependencies": "dependencies",
    "deps": "dependencies",
}
_LABEL_PREFIXES = ("module", "area", "component", "comp", "mod", "scope", "topic")
# Label families that say something other than where a change is ("kind/bug", "size/XL").
_NON_MODULE_PREFIXES = {
    "kind", "type", "priority", "prio", "p", "status", "state", "size", "triage", "needs",
    "release", "backport", "lifecycle", "do-not-merge", "good", "help", "ci", "sig", "lgtm",
    "approved", "ready", "stale", "wontfix", "question", "bug", "feature",
}  # fmt: skip
_COMMON_PREFIX_MIN = 3  # distinct labels sharing an unknown prefix before it counts
_SKIP_FOLDERS = {
    "docs", "doc", "tests", "test", ".github", ".buildkite", ".circleci", "examples",
    "requirements", "benchmarks", "docker", "cmake", "build", "dist", "node_modules",
}  # fmt: skip


# ---------------------------------------------------------------- minimal YAML


class YamlSubsetError(BotError, ValueError):
    """A labeler/Mergify file uses YAML beyond the subset the bot reads."""


# What the subset parses to: scalars stay strings (an empty one is None).
Yaml = str | None | list["Yaml"] | dict[str, "Yaml"]


def _strip_comment(line: str) -> str:
    out, quote = [], ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out).rstrip()


def _scalar(text: str) -> Yaml:
    text = text.strip()
    if not text:
        return None
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(p) for p in _split_flow(inner)] if inner else []
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        body = text[1:-1]
        return body.replace("''", "'") if text[0] == "'" else body.encode().decode("unicode_escape")
    return text


def _split_flow(text: str) -> list[str]:
    parts, cur, quote, depth = [], [], "", 0
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def _split_key(text: str) -> tuple[str, str] | None:
    """Split 'key: value' outside quotes; None when the line is not a mapping entry."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == ":" and (i + 1 == len(text) or text[i + 1] in " \t"):
            key = text[:i].strip()
            if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"":
                key = key[1:-1]
            return key, text[i + 1 :].strip()
    return None


def parse_yaml_subset(text: str) -> Yaml:
    lines: list[tuple[int, str]] = []
    raw = text.splitlines()
    i = 0
    while i < len(raw):
        line = raw[i]
        stripped = _strip_comment(line)
        if not stripped.strip() or stripped.strip() in {"---", "..."}:
            i += 1
            continue
        indent = len(stripped) - len(stripped.lstrip(" "))
        content = stripped.strip()
        # Block scalars ("message: |") keep their text but we never need it: fold it away.
        if content.endswith(("|", ">", "|-", ">-", "|+", ">+")):
            block: list[str] = []
            j = i + 1
            while j < len(raw) and (
                not raw[j].strip() or len(raw[j]) - len(raw[j].lstrip(" ")) > indent
            ):
                block.append(raw[j].strip())
                j += 1
            content = content.rsplit(" ", 1)[0] + ' "' + " ".join(block).replace('"', "'") + '"'
            i = j
        else:
            i += 1
        lines.append((indent, content))
    value, _ = _parse_block(lines, 0, lines[0][0] if lines else 0)
    return value


def _parse_block(lines: list[tuple[int, str]], pos: int, indent: int) -> tuple[Yaml, int]:
    if pos >= len(lines):
        return None, pos
    if lines[pos][1].startswith("- ") or lines[pos][1] == "-":
        return _parse_seq(lines, pos, indent)
    return _parse_map(lines, pos, indent)


def _parse_seq(lines: list[tuple[int, str]], pos: int, indent: int) -> tuple[list[Yaml], int]:
    items: list[Yaml] = []
    while pos < len(lines):
        ind, content = lines[pos]
        if ind < indent or not (content.startswith("- ") or content == "-"):
            break
        if ind > indent:
            raise YamlSubsetError(Text("error.yaml.indentation", {"content": repr(content)}))
        rest = content[1:].strip()
        if not rest:
            value, pos = _parse_block(
                lines, pos + 1, lines[pos + 1][0] if pos + 1 < len(lines) else ind + 2
            )
            items.append(value)
            continue
        kv = _split_key(rest) if not rest.startswith(("[", "'", '"')) else None
        if kv:
            # "- key: value" opens a mapping whose further keys sit at the item's indent.
            sub_indent = ind + 2 + (len(rest) - len(rest.lstrip()))
            lines[pos] = (sub_indent, rest)
            value, pos = _parse_map(lines, pos, sub_indent)
            items.append(value)
        else:
            items.append(_scalar(rest))
            pos += 1
    return items, pos


def _parse_map(lines: list[tuple[int, str]], pos: int, indent: int) -> tuple[dict[str, Yaml], int]:
    out: dict[str, Yaml] = {}
    while pos < len(lines):
        ind, content = lines[pos]
        if ind < indent:
            break
        if ind > indent or content.startswith("- "):
            raise YamlSubsetError(Text("error.yaml.line", {"content": repr(content)}))
        kv = _split_key(content)
        if kv is None:
            raise YamlSubsetError(Text("error.yaml.key", {"content": repr(content)}))
        key, rest = kv
        if rest:
            out[key] = _scalar(rest)
            pos += 1
            continue
        pos += 1
        if pos < len(lines) and (
            lines[pos][0] > ind or (lines[pos][0] == ind and lines[pos][1].startswith("- "))
        ):
            out[key], pos = _parse_block(lines, pos, lines[pos][0])
        else:
            out[key] = None
    return out, pos


# ---------------------------------------------------------------- rule extraction


def _slug(label: str) -> str:
    text = label.strip().lower()
    if ":" in text or "/" in text:
        prefix, _, rest = text.partition(":") if ":" in text else text.partition("/")
        if prefix.strip() in _LABEL_PREFIXES and rest.strip():
            text = rest
    slug = re.sub(r"[^a-z0-9.]+", "-", text).strip("-.")
    return slug or "label"


def _module_id(label: str) -> str:
    return _GENERIC_LABELS.get(label.strip().lower(), _slug(label))


# Words written in capitals in a readable module name ("kv_offload" → "KV offload").
_ACRONYMS = frozenset(
    {"ai", "api", "ci", "cli", "cpu", "dp", "ep", "eplb", "gpu", "kv", "moe", "mtp", "npu"}
    | {"pd", "rl", "tp", "ui", "ut", "xpu"}
)


def readable_name(label: str) -> str:
    """A label or folder as people name the area: "module:ops" → "Ops", "spec_decode" →
    "Spec decode", "kv_offload" → "KV offload", "_310p" → "310P". A name already written
    with capitals ("ROCm", "CI/Build") is kept as it is."""
    text = label.strip()
    if ":" in text or "/" in text:
        prefix, _, rest = text.partition(":") if ":" in text else text.partition("/")
        if prefix.strip().lower() in _LABEL_PREFIXES and rest.strip():
            text = rest.strip()
    if any(c.isupper() for c in text):
        return text
    words = [w for w in re.split(r"[\s_\-]+", text) if w]
    if not words:
        return label
    out = []
    for i, word in enumerate(words):
        if word in _ACRONYMS or any(c.isdigit() for c in word):
            out.append(word.upper())
        else:
            out.append(word.capitalize() if i == 0 else word)
    return " ".join(out)


# Trees that are not the project's own source, whatever their name: build output, vendored
# copies and generated code. With hidden folders (".vllm_ascend", ".venv") they never decide
# the package nor become a module: one PR touching one must not reshape the modules.
_NOT_SOURCE = {
    "build", "_build", "dist", "out", "target", "site", "htmlcov", "node_modules", "venv",
    "env", "vendor", "vendored", "_vendor", "third_party", "thirdparty", "3rdparty",
    "external", "externals", "extern", "deps", "generated", "_generated", "gen", "autogen",
    "__pycache__",
}  # fmt: skip


def is_source_folder(folder: str) -> bool:
    """False for hidden folders, build output, vendored and generated trees."""
    name = folder.strip("/").lower()
    return bool(name) and not (
        name.startswith((".", "__")) or name in _NOT_SOURCE or name.endswith(".egg-info")
    )


def _package_folder(
    repo: str | None, folders: Iterable[str], weights: Mapping[str, int] | None = None
) -> str | None:
    """The repository's own top-level package ("vllm_ascend" in vllm-project/vllm-ascend):
    a source folder named after the repository. Several such folders ("vllm_ascend" and
    "vllm-ascend"): the one with the most weight (PRs over the stored history, paths named
    by the labelling rules), so one week's stray PR never moves it; ties go to the name."""
    if not repo:
        return None
    name = re.sub(r"[^a-z0-9]", "", repo.rsplit("/", 1)[-1].lower())
    candidates = [
        f for f in folders if is_source_folder(f) and re.sub(r"[^a-z0-9]", "", f.lower()) == name
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda f: (-(weights or {}).get(f, 0), f))


def _strings(value: Yaml) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out: list[str] = []
        for v in value:
            out.extend(_strings(v))
        return out
    if isinstance(value, dict):
        out = []
        for v in value.values():
            out.extend(_strings(v))
        return out
    return [str(value)]


def labeler_rules(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """label -> (globs, negated globs) from actions/labeler v4 or v5 configuration."""
    data = parse_yaml_subset(text) or {}
    if not isinstance(data, dict):
        raise YamlSubsetError(Text("error.yaml.labeler"))
    out: dict[str, tuple[list[str], list[str]]] = {}
    for label, spec in data.items():
        globs: list[str] = []
        if isinstance(spec, dict):
            # v5: {changed-files: [{any-glob-to-any-file: [...]}], head-branch: [...]}
            spec = [spec]
        for item in spec if isinstance(spec, list) else [spec]:
            if isinstance(item, str):
                globs.append(item)  # v4 short form
            elif isinstance(item, dict):
                for key, val in item.items():
                    if key in {"head-branch", "base-branch"}:
                        continue
                    globs.extend(_strings(val))
        pos = [g for g in globs if not g.startswith("!")]
        neg = [g[1:] for g in globs if g.startswith("!")]
        if pos:
            out[str(label)] = (pos, neg)
    return out


_COND_RE = re.compile(r"^(-)?\s*(files|title)\s*(~=|=)\s*(.+)$")


def mergify_rules(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """label -> (path patterns, title regexes) from Mergify label-adding rules."""
    data = parse_yaml_subset(text) or {}
    rules = data.get("pull_request_rules", []) if isinstance(data, dict) else []
    out: dict[str, tuple[list[str], list[str]]] = {}
    for rule in rules or []:
        if not isinstance(rule, dict):
            continue
        actions = rule.get("actions") or {}
        label_action = actions.get("label") if isinstance(actions, dict) else None
        added = _strings(label_action.get("add")) if isinstance(label_action, dict) else []
        if not added:
            continue
        paths: list[str] = []
        titles: list[str] = []
        for cond in _strings(rule.get("conditions")):
            m = _COND_RE.match(cond.strip())
            if not m or m.group(1):
                continue  # negations and other attributes do not locate a module
            attr, op, value = m.group(2), m.group(3), _scalar(m.group(4))
            if not isinstance(value, str):
                continue
            if attr == "files":
                paths.append(f"re:{value}" if op == "~=" else re.sub(r"([*?\[])", r"[\1]", value))
            elif op == "~=":
                titles.append(value)
            else:
                titles.append(f"^{re.escape(value)}$")
        for label in added:
            p, t = out.setdefault(label, ([], []))
            p.extend(x for x in paths if x not in p)
            t.extend(x for x in titles if x not in t)
    return out


def _valid_regexes(patterns: Iterable[str]) -> list[str]:
    ok = []
    for p in patterns:
        try:
            re.compile(p)
        except re.error:
            continue
        ok.append(p)
    return ok


def _label_prefix(label: str) -> str | None:
    for sep in (":", "/"):
        prefix, found, rest = label.partition(sep)
        if found and prefix.strip() and rest.strip():
            return prefix.strip().lower()
    return None


def module_labels(labels: Iterable[str]) -> list[str]:
    """The labels (as used on PRs) that name a module when no labelling rule defines them:
    generic ones ("documentation", "ci/build"), those with a module prefix ("module:ops",
    "area/kernels"), and families of at least three labels sharing another prefix that is
    not a known non-module family ("kind/bug", "size/XL", "priority:high")."""
    distinct = sorted({label.strip() for label in labels if label and label.strip()})
    families: dict[str, int] = {}
    for label in distinct:
        prefix = _label_prefix(label)
        if prefix:
            families[prefix] = families.get(prefix, 0) + 1
    out = []
    for label in distinct:
        prefix = _label_prefix(label)
        if (
            label.lower() in _GENERIC_LABELS
            or prefix in _LABEL_PREFIXES
            or (
                prefix
                and prefix not in _NON_MODULE_PREFIXES
                and families.get(prefix, 0) >= _COMMON_PREFIX_MIN
            )
        ):
            out.append(label)
    return out


def build_auto_ruleset(
    labeler_yml: str | None,
    mergify_yml: str | None,
    top_level_folders: Sequence[str],
    base: RuleSet | None = None,
    name: str = "auto",
    labels: Iterable[str] = (),
    *,
    repo: str | None = None,
    subfolders: Mapping[str, Sequence[str]] | None = None,
    folder_prs: Mapping[str, int] | None = None,
) -> RuleSet:
    """Generic base rules + one module per repository label + one module per top-level
    source folder, except the repository's own package folder (``vllm_ascend/`` of
    ``repo`` vllm-project/vllm-ascend), which is split into one module per second-level
    folder (``subfolders[folder]``, e.g. from the stored PRs' paths): one module for the
    whole package would be the catch-all of nearly every PR. A second-level folder whose
    name is a label module's ("ops" and label "module:ops") joins that module.

    ``labels`` are labels seen on the repository's PRs (e.g. from the store): those that
    name a module (``module_labels``) and that no labeler/Mergify rule defines become
    label-only modules, so stored labels still classify PRs when the labelling files cannot
    be read (offline, or no token).

    ``folder_prs`` (top-level folder -> PRs touching it, e.g. over the stored history)
    decides between folders that could be the package. Hidden folders, build output,
    vendored and generated trees are never the package, a split of it nor a module."""
    base = base or load_ruleset("generic")
    # Pydantic's dumps, edited and validated back into ModuleRules at the end.
    modules: dict[str, JSON] = {m.id: m.model_dump() for m in base.modules}
    order = [m.id for m in base.modules]

    def place(mid: str) -> None:
        # New modules go before the catch-all fallback, which must stay last.
        order.insert(len(order) - 1 if base.fallback_module in order else len(order), mid)

    def module_for(label: str) -> JSON:
        mid = _module_id(label)
        if mid not in modules:
            readable = readable_name(label)
            modules[mid] = ModuleRule(id=mid, name_en=readable, name_zh=readable).model_dump()
            place(mid)
        m = modules[mid]
        if label not in m["labels"]:
            m["labels"].append(label)
        return m

    def add_unique(target: list[str], values: Iterable[str]) -> None:
        target.extend(v for v in values if v not in target)

    if labeler_yml:
        for label, (globs, negated) in labeler_rules(labeler_yml).items():
            m = module_for(label)
            add_unique(m["paths"], globs)
            add_unique(m["exclude"], negated)
    if mergify_yml:
        for label, (paths, titles) in mergify_rules(mergify_yml).items():
            if not paths and not titles:
                continue  # housekeeping labels such as needs-rebase locate nothing
            m = module_for(label)
            add_unique(
                m["paths"], [p for p in paths if not p.startswith("re:") or _valid_regexes([p[3:]])]
            )
            add_unique(m["keywords"], _valid_regexes(titles))
    for label in module_labels(labels):
        if _module_id(label) not in modules or label not in modules[_module_id(label)]["labels"]:
            module_for(label)

    def add_folder(folder: str, mid: str, name: str) -> None:
        if mid in modules:
            add_unique(modules[mid]["paths"], [f"{folder}/**"])
            return
        modules[mid] = ModuleRule(
            id=mid, name_en=name, name_zh=name, paths=[f"{folder}/**"], catch_all=True
        ).model_dump()
        place(mid)

    weights = dict(folder_prs or {})
    for m in modules.values():
        # A folder the labelling rules name is part of the repository's stable structure.
        for top, found, _ in (path.partition("/") for path in m["paths"]):
            if found:
                weights[top] = weights.get(top, 0) + 1
    package = _package_folder(repo, top_level_folders, weights)
    split: list[str] = []
    for sub in sorted((subfolders or {}).get(package or "", ())) if package else ():
        sub = sub.strip("/")
        if is_source_folder(sub):
            add_folder(f"{package}/{sub}", _slug(sub.lstrip("_")) or _slug(sub), readable_name(sub))
            split.append(f"{package}/{sub}/**")
    if package and split and _slug(package) not in modules:
        # What is left of the package: the files at its top level (utils, envs, platform).
        modules[_slug(package)] = ModuleRule(
            id=_slug(package),
            name_en=f"{package} (top-level files)",
            name_zh=f"{package}（顶层文件）",
            paths=[f"{package}/**"],
            exclude=split,
            catch_all=True,
        ).model_dump()
        place(_slug(package))

    for folder in top_level_folders:
        folder = folder.strip("/")
        if not is_source_folder(folder) or folder.lower() in _SKIP_FOLDERS:
            continue
        mid = _slug(folder)
        if mid in modules:
            add_unique(modules[mid]["paths"], [f"{folder}/**"])
            continue
        # A source folder is a real module (for most repositories it is the only thing that
        # says what a PR changed), so it is not auxiliary and competes on changed lines; as a
        # catch-all it only takes the files no label rule claims.
        modules[mid] = ModuleRule(
            id=mid, name_en=folder, name_zh=folder, paths=[f"{folder}/**"], catch_all=True
        ).model_dump()
        place(mid)

    data = base.model_dump()
    data["name"] = name
    data["description"] = "derived from the repository's labeler/Mergify rules and folders"
    data["modules"] = [modules[mid] for mid in order]
    return RuleSet.model_validate(data)
