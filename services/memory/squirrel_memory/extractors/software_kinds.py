"""The kinds of software a project is said to be, in every ecosystem.

A statement of what a project is ("this project is a Gleam compiler for …", "this repo is my
emacs config") ends its head noun phrase on such a kind; "a known issue" or "a helper
function" end on something else and describe no project. One vocabulary for the assistant's
summaries (`summaries`) and the user's own words (`user_about`); the user may also call a
repository by what it holds for them (notes, a sandbox), which an assistant's sentence about a
project never needs.
"""

from __future__ import annotations

import re

#: What software is, as a project's one-line description names it.
_SOFTWARE = (
    "tool|app|application|webapp|library|lib|framework|website|site|blog|service|cli|server|"
    "plugin|extension|platform|engine|game|bot|sdk|api|package|utility|utilities|program|"
    "monorepo|project|toolkit|gem|crate|compiler|interpreter|transpiler|language|dsl|runtime|"
    "parser|daemon|client|wrapper|driver|agent|assistant|editor|dashboard|database|emulator|"
    "simulator|proxy|gateway|generator|converter|player|launcher|implementation|toolchain|"
    "backend|frontend|microservice|firmware|theme|bindings|port|kit|mod|add-on|widget|"
    "addon|monitor|tracker|scheduler|manager|checker|linter|formatter|builder|scraper|crawler|"
    "indexer|renderer|recorder|exporter|importer|analy[sz]er|visuali[sz]er|orchestrator|"
    "pipeline|board|portal|marketplace|cms|ide|terminal|shell|harness|evaluator|validator|"
    "calculator|planner|bridge|adapter|middleware|store|shop|collector|aggregator|notifier|"
    "logger|uploader|downloader|translator|compressor|encoder|decoder|optimi[sz]er|profiler|"
    "debugger|runner|watcher|router|balancer|resolver|loader|bundler|packager|installer|"
    "updater|synchroni[sz]er|lemmati[sz]er|tagger|voxeli[sz]er"
)
#: What a user may call the repository besides software.
_PERSONAL = (
    "config|configs|configuration|dotfiles|setup|notes|vault|wiki|module|repo|repository|"
    "playground|sandbox|experiments?|prototype|template|starter|boilerplate|homepage|"
    "portfolio|scripts"
)
_SOFTWARE_KIND = re.compile(rf"^(?:{_SOFTWARE})s?$", re.IGNORECASE)
_ANY_KIND = re.compile(rf"^(?:{_SOFTWARE}|{_PERSONAL})$", re.IGNORECASE)


def is_software_kind(word: str) -> bool:
    """Whether `word` (a head noun, plural or not) names a kind of software."""
    return bool(_SOFTWARE_KIND.match(word))


def is_repository_kind(word: str) -> bool:
    """Whether `word` is what a user may call the repository (software or a personal kind)."""
    return bool(_ANY_KIND.match(word))
