"""``seven-seconds validate PATH...``: check faction, card, scenario and save files, every problem of every file at once."""

from __future__ import annotations

import sys
from pathlib import Path

from ..i18n import _
from ..paths import table_file
from ..rules.errors import InputError
from ..rules.files import read_document


def register(sub) -> None:
    p = sub.add_parser("validate", help=_("check faction, card and scenario files"),
                       description=_("Check faction, card and scenario files (or folders of them) and report every problem."))
    p.add_argument("paths", nargs="+", help=_("files or folders"))
    p.set_defaults(run=run)


def kind_of(data: dict) -> str:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.files import document_kind

    return document_kind(data)


def check_file(path: Path) -> tuple[str, list[str]]:
    """The kind of file and its problems (empty when valid). A problem found in another file while checking this one
    (the program's own data, such as a broken ``data/rulings.toml``) names that file, not this one."""
    kind, problems = _check_file(path)
    return kind, problems


def blamed_file(e: InputError, path: Path) -> str:
    """The file an error is about: ``path`` itself, or another file it needed (the program's data, a faction)."""
    source = e.source.split(" [")[0]
    if source != str(path) and source.endswith((".toml", ".json")) and Path(source).is_file():
        return source
    return str(path)


def _check_file(path: Path) -> tuple[str, list[str]]:
    try:
        data = read_document(path)
    except InputError as e:
        return "file", e.problems
    kind = kind_of(data)
    try:
        if kind == "empty":
            return "file", ["the file is empty (expected a faction, card, scenario or battle save)"]
        if kind == "save":
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..service.battles import check_save

            check_save(path)
        elif kind == "faction":
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..rules.factions import load_faction

            load_faction(path)
        elif kind == "scenario":
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..rules.scenario import load_scenario

            load_scenario(path)
        elif kind == "mail":
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..service.mail_battle import arrive

            arrive(path, "", None, {})          # read as a spectator: every action resolved again
        else:
            # lazy: loaded only when this command or option runs, so the command line starts fast
            from ..game.battle.cards import load_card_file

            load_card_file(path)
    except InputError as e:
        blamed = blamed_file(e, path)
        if blamed != str(path):
            return kind, [f"{blamed} is broken (not {path.name}): {p}" for p in e.problems]
        return kind, e.problems
    return kind, []


def expand(paths: list[str]) -> list[Path]:
    out = []
    for p in map(table_file, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() in (".toml", ".json") and q.is_file()))
        else:
            out.append(p)
    return out


def run(args) -> int:
    files = expand(args.paths)
    if not files:
        raise InputError(" ".join(args.paths), "no .toml or .json files found")
    bad = 0
    for path in files:
        kind, problems = check_file(path)
        if problems:
            bad += 1
            print(f"{path}: {kind}, {len(problems)} problem{'s' if len(problems) > 1 else ''}", file=sys.stderr)
            for p in problems:
                print(f"  - {p}", file=sys.stderr)
        else:
            print(f"{path}: valid {'battle by e-mail' if kind == 'mail' else kind}")
    print(f"{len(files) - bad} valid, {bad} with problems")
    return 2 if bad else 0
