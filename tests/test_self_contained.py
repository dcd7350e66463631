"""The repository explains itself: no tracked file points outside it or at a file it lacks.

The rules and the engine's interface live in docs/rules.md and docs/engine.md; everything that
cites them names those files, no path climbs out of the repository, every relative Markdown
link resolves to a tracked file, and every rule id the code raises is defined in docs/rules.md.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: [text](target) and [text]: target in Markdown; the target up to a space, ")" or "#"
MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>#]*)|^\s*\[[^\]]+\]:\s*<?([^\s>#]+)", re.MULTILINE)
#: a relative path that starts by climbing up one folder or more
CLIMBING_PATH = re.compile(r"(?<![\w.])(?:\.\./)+[\w.-]*")
#: a mention of a rules or engine document, with whatever path precedes it
DOC_MENTION = re.compile(r"([\w./-]*?)\b(rules|engine)\.md\b", re.IGNORECASE)
#: the documents those mentions may name
DOCS = {"docs/rules.md", "docs/engine.md"}


def tracked_files() -> list[str]:
    """Return every tracked file present in the working tree, text or not (a screenshot).

    Empty when this is not a git checkout (an unpacked source archive, say).
    """
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return []
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    # a file deleted in the working tree, not yet committed, is not there to link to
    return [name for name in filter(None, listed.split("\0")) if (ROOT / name).is_file()]


def tracked_text_files() -> dict[str, str]:
    """Return every tracked file that is UTF-8 text, by its path in the repository."""
    out = {}
    for name in tracked_files():
        try:
            out[name] = (ROOT / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary
    return out


FILES = tracked_text_files()
#: every tracked file: a link may point at a picture
TRACKED = set(tracked_files())


def resolve(source: str, target: str) -> str | None:
    """Return ``target`` (relative to the file ``source``) relative to the root, or None."""
    full = (ROOT / source).parent.joinpath(target).resolve()
    try:
        return full.relative_to(ROOT).as_posix()
    except ValueError:
        return None  # outside the repository


def is_present(path: str) -> bool:
    """Return whether ``path`` (relative to the root) is a tracked file or a folder of them."""
    return path in TRACKED or any(t.startswith(path + "/") for t in TRACKED)


def test_the_repository_lists_its_files():
    if not FILES:
        pytest.skip("not a git checkout: the tracked files are unknown")
    assert {"README.md", "docs/rules.md", "docs/engine.md"} <= TRACKED


def test_no_path_in_a_file_climbs_out_of_the_repository():
    problems = [
        f"{name}: {match.group(0)}"
        for name, text in FILES.items()
        for match in CLIMBING_PATH.finditer(text)
        if resolve(name, match.group(0)) is None
    ]
    assert not problems, "paths outside the repository: " + "; ".join(problems)


def test_every_relative_markdown_link_resolves_to_a_tracked_file():
    problems = []
    for name, text in FILES.items():
        if not name.endswith(".md"):
            continue
        for match in MARKDOWN_LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # an anchor in the same page, or a URL (https:, mailto:)
            resolved = resolve(name, target)
            if resolved is None or not is_present(resolved):
                problems.append(f"{name}: {target}")
    assert not problems, "links to nothing in the repository: " + "; ".join(problems)


def misnamed_doc_mentions(name: str, text: str) -> list[str]:
    """Return the mentions in ``text`` of a rules or engine document other than the docs files."""
    problems = []
    for match in DOC_MENTION.finditer(text):
        prefix, word, mention = match.group(1), match.group(2), match.group(0)
        if not word.islower():
            named = None  # an upper-case name: a file the repository does not have
        elif prefix in ("", "./"):
            # a bare name is the file next to the one that mentions it, which is right for a
            # link inside docs/; anywhere else prose and code must say docs/rules.md
            named = resolve(name, f"{word}.md") if name.startswith("docs/") else None
        else:
            named = mention if prefix.startswith("docs/") else resolve(name, mention)
        if named not in DOCS:
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{name}:{line}: {mention}")
    return problems


def test_the_rules_and_the_engine_are_cited_as_the_docs_files():
    # Migrations record the models as they were when each was written: 0001 kept the old
    # help text, and a later migration moves it to docs/rules.md. They are history.
    problems = [
        problem
        for name, text in FILES.items()
        if "/migrations/" not in name
        for problem in misnamed_doc_mentions(name, text)
    ]
    assert not problems, "cite docs/rules.md or docs/engine.md: " + "; ".join(problems)


def test_a_misnamed_mention_is_found():
    # the names are built here, so that this file does not mention them itself
    upper, bare = "RULES" + ".md", "rules" + ".md"
    assert misnamed_doc_mentions("README.md", f"see {upper} and docs/engine.md") == [
        f"README.md:1: {upper}"
    ]
    assert misnamed_doc_mentions("docs/events.md", f"[rules]({bare})") == []
    assert misnamed_doc_mentions("seep_core/moves.py", f"x\n{bare} B1") == [
        f"seep_core/moves.py:2: {bare}"
    ]


def test_every_rule_id_the_code_raises_is_defined_in_docs_rules_md():
    defined = set(re.findall(r"^- \*\*([A-Z]\d)\*\*", FILES["docs/rules.md"], re.MULTILINE))
    assert {"D1", "B4", "H7", "W2", "V5"} <= defined
    cited = {
        rule
        for name, text in FILES.items()
        if name.endswith(".py") and not name.startswith("tests/")
        for rule in re.findall(r"\brule=\"([A-Z]\d)\"", text)
    }
    assert cited, "the code raises rule ids"
    assert cited <= defined, f"rule ids not in docs/rules.md: {sorted(cited - defined)}"
