"""Names of the CONTRACT's kinds and flags."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "kind.feature": {"en": "Feature", "zh": "新功能"},
    "kind.bugfix": {"en": "Bug fix", "zh": "缺陷修复"},
    "kind.performance": {"en": "Performance", "zh": "性能优化"},
    "kind.refactor": {"en": "Refactor", "zh": "重构"},
    "kind.model": {"en": "Model support", "zh": "模型支持"},
    "kind.ci": {"en": "CI/build", "zh": "CI 与构建"},
    "kind.docs": {"en": "Documentation", "zh": "文档"},
    "kind.test": {"en": "Tests", "zh": "测试"},
    "kind.revert": {"en": "Revert", "zh": "回滚"},
    "kind.security": {"en": "Security", "zh": "安全"},
    "kind.misc": {"en": "Other", "zh": "其他"},
    "flag.core-path": {"en": "Core-path change", "zh": "核心路径变更"},
    "flag.missing-tests": {"en": "Missing tests", "zh": "缺少测试覆盖"},
    "flag.breaking": {"en": "Breaking change", "zh": "破坏性变更"},
    "flag.dependency": {"en": "Dependency change", "zh": "依赖变更"},
    "flag.large": {"en": "Large change", "zh": "大型变更"},
    "flag.revert": {"en": "Revert", "zh": "回滚"},
}
