"""Highlight groups (themes), their prose and the claims quoted in them."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "highlight.activity": {
        "en": "{count} {count:PR|PRs} this week ({trend}), {key} of them key.",
        "zh": "本周共 {count} 个 PR（{trend}），其中 {key} 个重点 PR。",
    },
    "highlight.activity.period": {
        "en": "{count} {count:PR|PRs} in this period ({trend}), {key} of them key.",
        "zh": "本期共 {count} 个 PR（{trend}），其中 {key} 个重点 PR。",
    },
    "highlight.activity_new": {
        "en": "{count} {count:PR|PRs} this week (none last week), {key} of them key.",
        "zh": "本周共 {count} 个 PR（上周为 0），其中 {key} 个重点 PR。",
    },
    "highlight.activity_new.period": {
        "en": "{count} {count:PR|PRs} in this period (none in the previous one), {key} of "
        "them key.",
        "zh": "本期共 {count} 个 PR（上期为 0），其中 {key} 个重点 PR。",
    },
    # The previous window is not fully synced: state this window's figures only.
    "highlight.activity_plain": {
        "en": "{count} {count:PR|PRs} this week, {key} of them key.",
        "zh": "本周共 {count} 个 PR，其中 {key} 个重点 PR。",
    },
    "highlight.activity_plain.period": {
        "en": "{count} {count:PR|PRs} in this period, {key} of them key.",
        "zh": "本期共 {count} 个 PR，其中 {key} 个重点 PR。",
    },
    "highlight.activity_other": {
        "en": "{count} key {count:PR|PRs} outside the themes above.",
        "zh": "以上主题之外的 {count} 个重点 PR。",
    },
    "highlight.more": {
        "en": "And {count} more key {count:PR|PRs} in this theme: {prs}",
        "zh": "该主题另有 {count} 个重点 PR：{prs}",
    },
    "theme.continuing": {
        "en": "{count} {count:PR|PRs}, continuing (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，延续上周的工作（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.continuing.period": {
        "en": "{count} {count:PR|PRs}, continuing (previous week {previous} → this period "
        "{count}).",
        "zh": "本期 {count} 个 PR，延续此前的工作（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.unknown": {
        "en": "{count} {count:PR|PRs} (no earlier weeks in the store to compare with).",
        "zh": "本周 {count} 个 PR（存储中没有更早的周可供比较）。",
    },
    "theme.unknown.period": {
        "en": "{count} {count:PR|PRs} (no earlier weeks in the store to compare with).",
        "zh": "本期 {count} 个 PR（存储中没有更早的周可供比较）。",
    },
    # What sort of work a theme is, from its members' kinds: "其中 3 个新功能、8 个缺陷修复".
    "theme.kinds": {"en": "Of them, {kinds}.", "zh": "其中 {kinds}。"},
    "theme.kind_count.feature": {
        "en": "{count} {count:feature|features}",
        "zh": "{count} 个新功能",
    },
    "theme.kind_count.bugfix": {
        "en": "{count} {count:bug fix|bug fixes}",
        "zh": "{count} 个缺陷修复",
    },
    "theme.kind_count.performance": {
        "en": "{count} performance {count:change|changes}",
        "zh": "{count} 个性能优化",
    },
    "theme.kind_count.refactor": {
        "en": "{count} {count:refactor|refactors}",
        "zh": "{count} 个重构",
    },
    "theme.kind_count.model": {
        "en": "{count} model-support {count:change|changes}",
        "zh": "{count} 个模型支持改动",
    },
    "theme.kind_count.ci": {
        "en": "{count} CI/build {count:change|changes}",
        "zh": "{count} 个 CI 与构建改动",
    },
    "theme.kind_count.docs": {
        "en": "{count} docs {count:change|changes}",
        "zh": "{count} 个文档改动",
    },
    "theme.kind_count.test": {
        "en": "{count} test {count:change|changes}",
        "zh": "{count} 个测试改动",
    },
    "theme.kind_count.revert": {"en": "{count} {count:revert|reverts}", "zh": "{count} 个回滚"},
    "theme.kind_count.security": {
        "en": "{count} security {count:fix|fixes}",
        "zh": "{count} 个安全修复",
    },
    "theme.kind_count.misc": {
        "en": "{count} other {count:change|changes}",
        "zh": "{count} 个其他改动",
    },
    "theme.authors": {"en": "Led by {authors}.", "zh": "主要贡献者：{authors}。"},
    "theme.authors_more": {
        "en": "Led by {authors}, with {count} other {count:contributor|contributors}.",
        "zh": "主要贡献者：{authors}，另有 {count} 位贡献者参与。",
    },
    "theme.claims": {"en": "Stated figures: {claims}.", "zh": "PR 中给出的数据：{claims}。"},
    "theme.author_item": {"en": "{name} ({count})", "zh": "{name}（{count} 个）"},
    # A quoted description keeps its language; in Chinese the quotes mark it as quoted.
    "theme.more": {
        "en": "And {count} more {count:PR|PRs} in this theme: {prs}",
        "zh": "该主题另有 {count} 个 PR：{prs}",
    },
    "theme.none": {"en": "No theme stood out this week.", "zh": "本周没有突出的主题。"},
    "theme.none.period": {"en": "No theme stood out in this period.", "zh": "本期没有突出的主题。"},
    "highlight.kinds": {"en": "Mostly {kinds}.", "zh": "以{kinds}为主。"},
    "highlight.kind_item": {"en": "{kind} ({count})", "zh": "{kind}（{count}）"},
    "highlight.authors": {"en": "Key work by {authors}.", "zh": "重点工作来自 {authors}。"},
    "highlight.claims": {"en": "Claimed gains: {claims}.", "zh": "声称的收益：{claims}。"},
    "highlight.claim_item": {"en": "{pr} {claim}", "zh": "{pr} {claim}"},
    "highlight.other": {"en": "Other", "zh": "其他"},
    # Claims inside a non-English sentence (bot.analysis.claims.claim_text): the figure as
    # stated, the metric translated; English shows the claim exactly as written.
    "claim.up": {"en": "{metric} up {figure}", "zh": "{metric}提升 {figure}"},
    "claim.down": {"en": "{metric} down {figure}", "zh": "{metric}降低 {figure}"},
    "claim.quoted": {"en": "“{text}”", "zh": "“{text}”"},
    "claim.where": {"en": " (on {where})", "zh": "（{where}）"},
    "claim.better": {"en": "{metric} better by {figure}", "zh": "{metric}改善 {figure}"},
    "claim.change": {"en": "{metric} {figure}", "zh": "{metric}{figure}"},
    "claim.metric.speed": {"en": "speed", "zh": "速度"},
    "claim.metric.throughput": {"en": "throughput", "zh": "吞吐量"},
    "claim.metric.latency": {"en": "latency", "zh": "延迟"},
    "claim.metric.prefill": {"en": "prefill", "zh": "预填充"},
    "claim.metric.decode": {"en": "decode", "zh": "解码"},
    "claim.metric.output": {"en": "output", "zh": "输出"},
    "claim.metric.token": {"en": "token", "zh": "词元"},
    "claim.metric.end": {"en": "end", "zh": "端"},
    "claim.metric.to": {"en": "to", "zh": "到"},
    "claim.metric.e2e": {"en": "e2e", "zh": "端到端"},
    "claim.metric.bandwidth": {"en": "bandwidth", "zh": "带宽"},
    "claim.metric.performance": {"en": "performance", "zh": "性能"},
    "claim.metric.perf": {"en": "perf", "zh": "性能"},
    "claim.metric.kernel": {"en": "kernel", "zh": "算子"},
    "claim.metric.memory": {"en": "memory", "zh": "内存"},
    "claim.metric.usage": {"en": "usage", "zh": "占用"},
    "claim.metric.acceptance": {"en": "acceptance", "zh": "接受"},
    "claim.metric.rate": {"en": "rate", "zh": "率"},
    "claim.metric.accuracy": {"en": "accuracy", "zh": "准确率"},
    "claim.metric.length": {"en": "length", "zh": "长度"},
    "claim.metric.hit": {"en": "hit", "zh": "命中"},
    "claim.metric.cache": {"en": "cache", "zh": "缓存"},
    "claim.metric.prefix": {"en": "prefix", "zh": "前缀"},
    "highlight.by": {"en": " by {author}", "zh": "（作者 {author}）"},
    "highlight.model_written": {
        "en": "(written by {model} from the data above, figures checked)",
        "zh": "（由 {model} 根据上述数据撰写，数字已校验）",
    },
    "highlight.none": {"en": "No key PRs this week.", "zh": "本周没有重点 PR。"},
    "highlight.none.period": {"en": "No key PRs in this period.", "zh": "本期没有重点 PR。"},
    # What a highlight's lead PRs change: the action from the title's verb, the object as
    # written. zh puts a space after the verb so a Latin object never runs into it.
    "highlight.changes": {"en": "This week: {changes}.", "zh": "本周{changes}。"},
    "highlight.changes.period": {"en": "In this period: {changes}.", "zh": "本期{changes}。"},
    "highlight.purpose": {"en": "{pr} says: “{text}”", "zh": "{pr} 的描述：“{text}”。"},
    "highlight.purpose_en": {
        "en": "{pr} says: “{text}”",
        "zh": "{pr} 的描述（英文原文）：“{text}”。",
    },
    "change.ref": {"en": "{what} ({pr})", "zh": "{what}（{pr}）"},
    "change.quoted": {"en": "“{what}”", "zh": "“{what}”"},
    "change.add": {"en": "adds {what}", "zh": "新增 {what}"},
    "change.support": {"en": "adds support for {what}", "zh": "支持 {what}"},
    "change.fix": {"en": "fixes {what}", "zh": "修复 {what}"},
    # A fix whose object is only names ("atten_mask"): Chinese says it fixes their problem.
    "change.named_fault": {"en": "{what}", "zh": "{what} 相关问题"},
    "change.remove": {"en": "removes {what}", "zh": "移除 {what}"},
    "change.delete": {"en": "deletes {what}", "zh": "删除 {what}"},
    "change.refactor": {"en": "refactors {what}", "zh": "重构 {what}"},
    "change.migrate": {"en": "migrates {what}", "zh": "迁移 {what}"},
    "change.optimize": {"en": "optimizes {what}", "zh": "优化 {what}"},
    "change.enable": {"en": "enables {what}", "zh": "启用 {what}"},
    "change.disable": {"en": "disables {what}", "zh": "禁用 {what}"},
    "change.implement": {"en": "implements {what}", "zh": "实现 {what}"},
    "change.introduce": {"en": "introduces {what}", "zh": "引入 {what}"},
    "change.replace": {"en": "replaces {what}", "zh": "替换 {what}"},
    "change.rename": {"en": "renames {what}", "zh": "重命名 {what}"},
    "change.move": {"en": "moves {what}", "zh": "移动 {what}"},
    "change.update": {"en": "updates {what}", "zh": "更新 {what}"},
    "change.upgrade": {"en": "upgrades {what}", "zh": "升级 {what}"},
    "change.deprecate": {"en": "deprecates {what}", "zh": "弃用 {what}"},
    "change.clean": {"en": "cleans up {what}", "zh": "清理 {what}"},
    "change.unify": {"en": "unifies {what}", "zh": "统一 {what}"},
    "change.simplify": {"en": "simplifies {what}", "zh": "简化 {what}"},
    "change.speed": {"en": "speeds up {what}", "zh": "加速 {what}"},
    "change.avoid": {"en": "avoids {what}", "zh": "避免 {what}"},
    "change.skip": {"en": "skips {what}", "zh": "跳过 {what}"},
    # "Add X to Y" in Chinese names both ("将 @BugenZhao 加入 CODEOWNERS"); each reference
    # carries its own verb, so the group's action adds none.
    "change.into": {"en": "adds {what} to {where}", "zh": "将 {what} 加入 {where}"},
    "change.add_to": {"en": "{what}", "zh": "{what}"},
    "change.revert": {"en": "reverts {what}", "zh": "回滚 {what}"},
    "change.reland": {"en": "re-lands {what}", "zh": "重新合入 {what}"},
    "change.port": {"en": "ports {what}", "zh": "移植 {what}"},
    "change.extend": {"en": "extends {what}", "zh": "扩展 {what}"},
    "change.improve": {"en": "improves {what}", "zh": "改进 {what}"},
    "change.allow": {"en": "allows {what}", "zh": "允许 {what}"},
    "change.expose": {"en": "exposes {what}", "zh": "开放 {what}"},
    "change.use": {"en": "switches to {what}", "zh": "改用 {what}"},
    "change.split": {"en": "splits {what}", "zh": "拆分 {what}"},
    "change.pin": {"en": "pins {what}", "zh": "锁定 {what}"},
    "change.integrate": {"en": "integrates {what}", "zh": "集成 {what}"},
    # A title without a leading verb names what landed: "Native W4A16 kernel for RDNA3".
    "change.keep": {"en": "keeps {what}", "zh": "保留 {what}"},
    "change.reuse": {"en": "reuses {what}", "zh": "复用 {what}"},
    "change.exclude": {"en": "excludes {what}", "zh": "排除 {what}"},
    "change.install": {"en": "installs {what}", "zh": "安装 {what}"},
    "change.convert": {"en": "converts {what}", "zh": "转换 {what}"},
    "change.land": {"en": "lands {what}", "zh": "合入 {what}"},
    "change.apply": {"en": "applies {what}", "zh": "应用 {what}"},
    "change.route": {"en": "routes {what}", "zh": "路由 {what}"},
    "change.handle": {"en": "handles {what}", "zh": "处理 {what}"},
    "change.reduce": {"en": "reduces {what}", "zh": "减少 {what}"},
    "change.prevent": {"en": "prevents {what}", "zh": "防止 {what}"},
    "change.set": {"en": "sets {what}", "zh": "设置 {what}"},
    "change.increase": {"en": "increases {what}", "zh": "提高 {what}"},
    "change.extract": {"en": "extracts {what}", "zh": "拆出 {what}"},
    # more title verbs; any other verb as the title writes it
    # --- polish --- more title verbs; any other verb as the title writes it
    "change.fuse": {"en": "fuses {what}", "zh": "融合 {what}"},
    "change.reorganize": {"en": "reorganizes {what}", "zh": "重组 {what}"},
    "change.rework": {"en": "reworks {what}", "zh": "重写 {what}"},
    "change.guard": {"en": "guards {what}", "zh": "保护 {what}"},
    "change.cache": {"en": "caches {what}", "zh": "缓存 {what}"},
    "change.sync": {"en": "syncs {what}", "zh": "同步 {what}"},
    "change.tune": {"en": "tunes {what}", "zh": "调优 {what}"},
    "change.align": {"en": "aligns {what}", "zh": "对齐 {what}"},
    "change.register": {"en": "registers {what}", "zh": "注册 {what}"},
    "change.validate": {"en": "checks {what}", "zh": "校验 {what}"},
    "change.restore": {"en": "restores {what}", "zh": "恢复 {what}"},
    "change.initialize": {"en": "initializes {what}", "zh": "初始化 {what}"},
    "change.adjust": {"en": "changes {what}", "zh": "调整 {what}"},
    # A verb the catalogue does not word: English conjugates it ("accepts"), Chinese shows
    # the title's own verb after 合入 ("合入 Accept W4A16").
    "change.verb": {"en": "{verb} {what}", "zh": "合入 {verb} {what}"},
    # Trends against last week's highlight of the same theme (bot/analysis/themes.py).
    "theme.trend.new": {
        "en": "{count} {count:PR|PRs}, new: not a highlight last week.",
        "zh": "本周 {count} 个 PR，新主题（上周不是重点主题）。",
    },
    "theme.trend.new.period": {
        "en": "{count} {count:PR|PRs}, new: not a highlight the week before.",
        "zh": "本期 {count} 个 PR，新主题（前一周不是重点主题）。",
    },
    "theme.trend.rising": {
        "en": "{count} {count:PR|PRs}, rising (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，明显增多（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.trend.rising.period": {
        "en": "{count} {count:PR|PRs}, rising (previous week {previous} → this period {count}).",
        "zh": "本期 {count} 个 PR，明显增多（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.trend.falling": {
        "en": "{count} {count:PR|PRs}, falling (last week {previous} → this week {count}).",
        "zh": "本周 {count} 个 PR，明显减少（上周 {previous} 个 → 本周 {count} 个）。",
    },
    "theme.trend.falling.period": {
        "en": "{count} {count:PR|PRs}, falling (previous week {previous} → this period {count}).",
        "zh": "本期 {count} 个 PR，明显减少（前一周 {previous} 个 → 本期 {count} 个）。",
    },
    "theme.trend.unheld": {
        "en": "{count} {count:PR|PRs} (last week is not in the store: no trend).",
        "zh": "本周 {count} 个 PR（存储中没有上周的数据，无法判断趋势）。",
    },
    "theme.trend.unheld.period": {
        "en": "{count} {count:PR|PRs} (the week before is not in the store: no trend).",
        "zh": "本期 {count} 个 PR（存储中没有前一周的数据，无法判断趋势）。",
    },
    "theme.trend.average": {
        "en": "Earlier weekly mean: {average} ({weeks} {weeks:week|weeks}).",
        "zh": "此前 {weeks} 周的周均值：{average} 个。",
    },
    "theme.fading": {
        "en": "Fading since last week: {items}.",
        "zh": "较上周明显减少的主题：{items}。",
    },
    "theme.fading.period": {
        "en": "Fading since the week before: {items}.",
        "zh": "较前一周明显减少的主题：{items}。",
    },
    "theme.fading_item": {
        "en": "{name} ({previous} → {count} {count:PR|PRs})",
        "zh": "{name}（{previous} 个 → {count} 个 PR）",
    },
}
