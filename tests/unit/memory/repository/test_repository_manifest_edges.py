"""Manifest edges read from real repositories: where a Gemfile group ends, whatever its
indentation."""

from __future__ import annotations

import pytest

from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo

RB = "class Quarry\nend\n" * 60


def _dev(make_repo: MakeRepo, files: dict[str, str]) -> dict[str, bool]:
    """Each dependency the repository declares → whether for development only."""
    reading = read_repository(make_repo(files))
    return {d.name: d.dev for d in reading.readings.dependencies}


def _stack(make_repo: MakeRepo, files: dict[str, str]) -> str:
    found = {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}
    return found["repo:stack"]


GEMFILES = {
    # The group and its `end` at column 0.
    "group-at-column-0": 'source "https://rubygems.org"\n'
    'group :development, :test do\n  gem "rspec"\nend\ngem "sinatra"\n',
    # The group inside a block: its `end` is indented.
    "group-in-a-source-block": 'source "https://rubygems.org" do\n'
    '  group :development, :test do\n    gem "rspec"\n  end\n  gem "sinatra"\nend\n',
    # A block of its own inside the group, its `end` indented, the group's at column 0.
    "block-inside-the-group": 'source "https://rubygems.org"\n'
    'group :development, :test do\n  platforms :mri do\n    gem "byebug"\n  end\n'
    '  gem "rspec"\nend\ngem "sinatra"\n',
    # Nothing indented: a block inside the group closes at column 0 before the group does.
    "nothing-indented": 'source "https://rubygems.org"\n'
    'group :development, :test do\nplatforms :mri do\ngem "byebug"\nend\ngem "rspec"\nend\n'
    'gem "sinatra"\n',
    # A condition inside the group, closed at column 0 (a one-line `if … end` closes itself).
    "condition-inside-the-group": 'source "https://rubygems.org"\n'
    'group :development, :test do\nif ENV["CI"]\n  gem "byebug"\nend\n'
    'gem "rspec" if true\n  if RUBY_VERSION > "3" then gem "debug" end\n  gem "rspec"\nend\n'
    'gem "sinatra"\n',
}


@pytest.mark.parametrize("gemfile", GEMFILES.values(), ids=GEMFILES.keys())
def test_a_gemfile_group_ends_at_its_own_end_whatever_the_indentation(
    make_repo: MakeRepo, gemfile: str
) -> None:
    files = {"Gemfile": gemfile, "lib/quarry.rb": RB}

    dev = _dev(make_repo, files)

    assert dev["rspec"] is True
    assert dev["sinatra"] is False
    assert dev.get("byebug", True) is True
    assert "Ruby/Sinatra app" in _stack(make_repo, files)


def test_gems_of_an_indented_group_stay_dev_until_its_end(make_repo: MakeRepo) -> None:
    # The group's `end` is indented, and a block inside it ends first: rails stays dev-only.
    gemfile = (
        'source "https://rubygems.org" do\n  group :test do\n    platforms :mri do\n'
        '      gem "byebug"\n    end\n    gem "rails"\n  end\n  gem "rack"\nend\n'
    )

    dev = _dev(make_repo, {"Gemfile": gemfile, "lib/quarry.rb": RB})

    assert dev == {"byebug": True, "rails": True, "rack": False}
