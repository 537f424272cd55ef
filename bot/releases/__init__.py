"""Release digests: the PRs between two release tags, written as release notes.

Import from the modules (`bot.releases.build`, `.versions`, ...): this package file imports
nothing, so loading one piece does not load the others.
"""
