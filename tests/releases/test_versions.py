"""The previous tag of a release, by version order with the release-candidate rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.releases.commits import cherry_pick_of, clean_title, commit_ref
from bot.releases.versions import newest_tag, parse_tag, previous_tag, tags_between

TAGS = ["v0.18.0", "v0.19.1rc1", "v0.20.2rc1", "v0.21.0rc1", "v0.22.1rc1", "v0.19.0", "nightly"]


def test_a_release_candidate_follows_the_highest_version_below_it():
    assert previous_tag("v0.22.1rc1", TAGS) == "v0.21.0rc1"
    assert previous_tag("v0.20.2rc1", TAGS) == "v0.19.1rc1"


def test_a_final_release_follows_the_previous_final_release():
    assert previous_tag("v0.22.1", [*TAGS, "v0.22.1"]) == "v0.19.0"
    assert previous_tag("v0.19.0", TAGS) == "v0.18.0"


def test_tags_that_are_not_versions_are_never_a_base():
    assert parse_tag("nightly") is None
    assert previous_tag("v0.18.0", TAGS) is None
    assert previous_tag("nightly", TAGS) is None


def test_releases_in_between_an_older_base_and_the_tag():
    assert tags_between("v0.19.1rc1", "v0.22.1rc1", TAGS) == ["v0.20.2rc1", "v0.21.0rc1"]
    assert tags_between("v0.21.0rc1", "v0.22.1rc1", TAGS) == []
    assert newest_tag(TAGS) == "v0.22.1rc1"


versions = st.tuples(
    st.integers(0, 3), st.integers(0, 5), st.integers(0, 3), st.sampled_from(["", "rc1", "rc2"])
).map(lambda v: f"v{v[0]}.{v[1]}.{v[2]}{v[3]}")


@given(st.lists(versions, min_size=1, max_size=12, unique=True), versions)
def test_the_previous_tag_is_below_and_nothing_eligible_lies_between(tags, tag):
    base = previous_tag(tag, tags)
    head = parse_tag(tag)
    assert head is not None
    eligible = [
        parse_tag(t)
        for t in tags
        if (parse_tag(t) or head) < head and (head.is_prerelease or not parse_tag(t).is_prerelease)
    ]
    if base is None:
        assert eligible == []
    else:
        assert parse_tag(base) == max(eligible)


def test_a_squash_merge_and_a_cherry_pick_map_to_their_prs():
    assert commit_ref("a1", "[BugFix] Fix routing (#9864)\n\nbody").number == 9864
    pick = commit_ref("b2", "[0.21.0] Fix DSv4 (from #10600) (#11217)")
    assert (pick.number, pick.original, pick.reported) == (11217, 10600, 10600)
    direct = commit_ref("c3", "Bump version")
    assert direct.number is None and direct.reported is None
    assert cherry_pick_of("Fix it (from #10600)") == 10600
    assert clean_title("[BugFix][310P] Fix it (from #10600) (#11217)") == "Fix it"


def test_every_common_pick_title_form_names_its_original_and_a_revert_is_no_pick():
    assert cherry_pick_of("[BugFix] Fix (Cherry-Pick 10888)", 11000) == 10888
    assert cherry_pick_of("[Cherrypick] Fix Y (#9000)", 11000) == 9000
    assert cherry_pick_of("[Cherry-pick] cherry pick of #123: fix", 200) == 123
    assert cherry_pick_of("[v0.20.2rc] Omit empty calls", 9792, "Backport of #9791 to x") == 9791
    assert cherry_pick_of("Plain title (#9864)", 9864) is None
    revert = 'Revert "[Cherry-pick] Fix X (from #10824)"'
    assert cherry_pick_of(revert, 11300) is None
    assert commit_ref("r", f"{revert} (#11300)").reported == 11300


def test_a_tag_dated_after_the_head_is_never_its_base():
    from datetime import UTC, datetime

    from bot.releases.versions import base_candidates

    tags = ["v0.22.0", "v0.23.0rc1", "v0.23.0", "v0.24.0rc1"]
    dates = {
        "v0.23.0rc1": datetime(2026, 7, 20, tzinfo=UTC),
        "v0.24.0rc1": datetime(2026, 8, 4, tzinfo=UTC),
        "v0.23.0": datetime(2026, 8, 16, tzinfo=UTC),
    }
    assert previous_tag("v0.24.0rc1", tags) == "v0.23.0"
    assert previous_tag("v0.24.0rc1", tags, dates) == "v0.23.0rc1"
    assert base_candidates("v0.24.0rc1", tags, dates)[:2] == ["v0.23.0rc1", "v0.22.0"]
