"""``seven-seconds faction ...``: create, check, show, list, upgrade and print factions (p.26-31, rulings A5, A45, A46).

* ``faction new``: a guided prompt, or no questions at all when ``--id --name --reserve --veteran --spec-ops`` are given;
* ``faction validate PATH...``: every problem of every faction file at once;
* ``faction show ID_OR_PATH``: the rating lines (created and current) and each unit type's stats per rating;
* ``faction list``: the bundled and the custom factions;
* ``faction upgrade ID_OR_PATH --rating R --stat S``: one campaign purchase, checked, recorded and saved;
* ``faction sheet ID_OR_PATH --out FILE``: the printable faction sheet (PDF; a PNG when the name ends in .png).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from ..i18n import _
from .. import paths
from ..authoring.draft import modifier_note, unit_rows
from ..authoring.faction_io import (check_faction_file, default_faction_path, faction_from_data, faction_problems,
                                    save_faction)
from ..rules.errors import InputError
from ..rules.explain import lines
from ..rules.factions import (CREATION_POINTS, EMBLEMS, ID_PATTERN, STAT_MAX, STAT_MIN, Colours, Faction,
                              faction_dirs, faction_files, forget_factions)
from ..rules.files import read_document
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT, StatLine

COMMANDS = ("new", "validate", "show", "list", "upgrade", "sheet")
STAT_ORDER = "Sen,Stl,Arm,CM,Nuc,Rob"
TROOPER_STATS = STAT_NAMES[:5]          # troopers use the first five stats; drones only Robotics [p.~11]

RATING_WORDS = {
    "reserve": "reserve", "res": "reserve", "r": "reserve",
    "veteran": "veteran", "vet": "veteran", "v": "veteran",
    "spec-ops": "spec-ops", "specops": "spec-ops", "spec": "spec-ops", "so": "spec-ops", "s": "spec-ops",
}
STAT_WORDS = {**{s: s for s in STAT_NAMES}, **{STAT_SHORT[s].lower(): s for s in STAT_NAMES}, "armor": "armour"}


# ----------------------------------------------------------------------------------------------------------------
# Arguments


def register(sub) -> None:
    p = sub.add_parser("faction", help=_("create, check, show, upgrade and print factions"),
                       description=_("Create, check, show, list, upgrade and print factions (p.26-31)."))
    p.set_defaults(run=_no_command)
    fs = p.add_subparsers(dest="faction_command", metavar="{" + ",".join(COMMANDS) + "}")

    n = fs.add_parser("new", help=_("create a faction (guided, or from options)"),
                      description=_("Create a faction. Asks for anything not given as an option; with --id, "
                                    "--name, --reserve, --veteran and --spec-ops it asks nothing. Stats are given in "
                                    "the order {order}.").format(order=STAT_ORDER))
    n.add_argument("--id", help=_("lower-case words joined by '-', like 'iron-league'"))
    n.add_argument("--name", help=_("the faction's name, like 'Iron League'"))
    n.add_argument("--lore", help=_("a paragraph of background (optional)"))
    n.add_argument("--primary", metavar="#RRGGBB", help=_("primary colour"))
    n.add_argument("--secondary", metavar="#RRGGBB", help=_("secondary colour"))
    n.add_argument("--emblem", help=_("one of {emblems}").format(emblems=", ".join(EMBLEMS)))
    n.add_argument("--reserve", metavar="STATS",
                   help=_("six stats {order}, like 2,2,3,2,2,1 (sum 12)").format(order=STAT_ORDER))
    n.add_argument("--veteran", metavar="STATS", help=_("six stats, each at least the Reserve one (sum 18)"))
    n.add_argument("--spec-ops", dest="spec_ops", metavar="STATS", help=_("six stats, each at least the Veteran one "
                                                                        "(sum 24)"))
    n.add_argument("--out", help=_("file to write (default: your factions folder, ID.toml)"))
    n.add_argument("--force", action="store_true", help=_("replace an existing different file"))
    n.set_defaults(run=run_new)

    v = fs.add_parser("validate", help=_("check faction files"), description=_("Check faction files (or folders of them) "
                      "against the creation rules (p.30, A46) and the upgrade rules (p.31, A45)."))
    v.add_argument("paths", nargs="+", metavar="PATH")
    v.set_defaults(run=run_validate)

    s = fs.add_parser("show", help=_("a faction's lines and unit stats"))
    s.add_argument("faction", metavar="ID_OR_PATH")
    s.set_defaults(run=run_show)

    ls = fs.add_parser("list", help=_("the bundled and custom factions"))
    ls.set_defaults(run=run_list)

    u = fs.add_parser("upgrade", help=_("buy one campaign tech upgrade (p.31, A45)"),
                      description=_("Raise one stat of one rating by 1 (p.31, ruling A45), record it in the faction "
                                  "file and show the working. Refused purchases change nothing (exit status 2)."))
    u.add_argument("faction", metavar="ID_OR_PATH")
    u.add_argument("--rating", required=True, help=_("reserve, veteran or spec-ops"))
    u.add_argument("--stat", required=True, help=_("sensors, stealth, armour, countermeasures, nuclear, robotics "
                                                 "(or Sen, Stl, Arm, CM, Nuc, Rob)"))
    u.add_argument("--opponent", metavar="ID_OR_PATH", help=_("the campaign opponent (halves the cost when their "
                                                             "stat is higher)"))
    u.add_argument("--tech", type=int, metavar="N", help=_("tech points available (checked; the rest is banked)"))
    u.add_argument("--battle", type=int, metavar="N", help=_("the battle after which it is bought (recorded)"))
    u.add_argument("--out", help=_("file to write (default: the faction's own file; required for a bundled faction)"))
    u.add_argument("--force", action="store_true", help=_("replace an existing different --out file"))
    u.add_argument("--dry-run", action="store_true", help=_("check and price only; write nothing"))
    u.set_defaults(run=run_upgrade)

    sh = fs.add_parser("sheet", help=_("write the printable faction sheet (PDF, or PNG by the file's extension)"))
    sh.add_argument("faction", metavar="ID_OR_PATH")
    sh.add_argument("--out", required=True, metavar="FILE", help=_("sheet.pdf (A4, vector) or sheet.png (a picture)"))
    sh.set_defaults(run=run_sheet)


def _no_command(args) -> int:
    raise InputError("seven-seconds faction", f"expected a faction command: {', '.join(COMMANDS)}")


def parse_rating(text: str) -> str:
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    if key not in RATING_WORDS:
        raise InputError("--rating", f"expected reserve, veteran or spec-ops (got {text!r})")
    return RATING_WORDS[key]


def parse_stat(text: str) -> str:
    key = text.strip().lower()
    if key not in STAT_WORDS:
        raise InputError("--stat", f"expected one of {', '.join(STAT_NAMES)} or {STAT_ORDER} (got {text!r})")
    return STAT_WORDS[key]


def parse_line(text: str, item: str) -> tuple[dict[str, int] | None, str | None]:
    """Six stats 'a,b,c,d,e,f' in the order Sen,Stl,Arm,CM,Nuc,Rob, or a problem naming ``item``."""
    parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
    if len(parts) != len(STAT_NAMES) or not all(p.isdigit() for p in parts):
        return None, f"{item}: expected six whole numbers in the order {STAT_ORDER}, like 2,2,3,2,2,1 (got {text!r})"
    return dict(zip(STAT_NAMES, map(int, parts))), None


def resolve_faction(ref: str) -> tuple[Faction, Path]:
    """A faction by id (bundled or custom) or file path, read fresh from its file, with that file."""
    files = faction_files()
    if ref not in files:
        forget_factions()
        files = faction_files()
    path = files.get(ref) or Path(ref)
    if ref not in files and not path.is_file():
        if path.suffix.lower() in (".toml", ".json") or "/" in ref or "\\" in ref:
            raise InputError(ref, "file not found")
        raise InputError(ref, f"unknown faction {ref!r} (expected one of {', '.join(sorted(files))}, "
                              "or a faction file path)")
    return faction_from_data(read_document(path), str(path)), path


def _is_bundled(path: Path) -> bool:
    try:
        return path.resolve().is_relative_to((paths.DATA_DIR / "factions").resolve())
    except OSError:
        return False


# ----------------------------------------------------------------------------------------------------------------
# Tables


def _row(cells, widths) -> str:
    return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def lines_table(faction: Faction, current: bool) -> list[str]:
    """The three rating lines, created or current; in the current ones a * follows each value raised by upgrades."""
    widths = [9] + [4] * 6 + [4]
    out = [_row(["Rating", *(STAT_SHORT[s] + " " for s in STAT_NAMES), "Sum"], widths)]
    for rating in RATINGS:
        line = faction.stats(rating) if current else faction.created.line(rating)
        created = faction.created.line(rating)
        cells = [f"{line.get(s)}{'*' if line.get(s) != created.get(s) else ' '}" for s in STAT_NAMES]
        out.append(_row([RATING_TITLES[rating], *cells, line.total()], widths))
    return out


def units_table(faction: Faction) -> list[str]:
    name_w, cell_w = 14, 4
    group = "".join(STAT_SHORT[s].rjust(cell_w) for s in TROOPER_STATS)
    gw = len(group)
    out = [" " * name_w + "  ".join(RATING_TITLES[r].center(gw) for r in RATINGS).rstrip(),
           "Unit".ljust(name_w) + "  ".join(group for _ in RATINGS)]
    for name, per in unit_rows(faction):
        cells = []
        for r in RATINGS:
            vals = per[r]
            cells.append("".join(v.rjust(cell_w) for v in vals).ljust(gw) if len(vals) > 1
                         else ("Rob " + vals[0]).rjust(cell_w + 4).ljust(gw))
        out.append(name.ljust(name_w) + "  ".join(cells).rstrip())
    return out


def show_text(faction: Faction, path: Path | None = None) -> str:
    out = [f"{faction.name}  (id {faction.id}, emblem {faction.emblem}, colours "
           f"{faction.colours.primary} / {faction.colours.secondary})"]
    if path is not None:
        out.append(f"File: {path}")
    if faction.lore:
        out += textwrap.wrap(faction.lore, 96, initial_indent="  ", subsequent_indent="  ")
    out += ["", "Rating lines as created [p.30, A46]"]
    out += ["  " + line for line in lines_table(faction, current=False)]
    if faction.upgrades:
        out += ["", "Campaign upgrades [p.31, A45]"]
        for i, up in enumerate(faction.upgrades, 1):
            after = f" after battle {up.battle}" if up.battle else ""
            out.append(f"  {i}. {RATING_TITLES[up.rating]} {STAT_SHORT[up.stat]} +1 for {up.cost} tech points{after}")
        n = len(faction.upgrades)
        out += ["", f"Current lines after {n} upgrade{'s' if n > 1 else ''} (* = raised)"]
        out += ["  " + line for line in lines_table(faction, current=True)]
    else:
        out.append("No campaign upgrades: the current lines are the created ones.")
    out += ["", "Unit stats at each rating: faction line + unit type modifiers [A5]"]
    out += ["  " + line for line in units_table(faction)]
    out += textwrap.wrap(f"Modifiers: {modifier_note()}. Commanders carry no missile (Nuc unused); drones use "
                         "only Rob [p.~11, p.33].", 96, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------------------------
# faction show / list / validate / sheet


def run_show(args) -> int:
    faction, path = resolve_faction(args.faction)
    print(show_text(faction, path))
    return 0


def run_list(args) -> int:
    bundled_dir, user_dir = faction_dirs()
    bundled_ids = {p.stem for p in _faction_paths(bundled_dir)}
    bad = 0
    for title, folder in (("Bundled factions", bundled_dir), (f"Custom factions ({user_dir})", user_dir)):
        print(title)
        found = _faction_paths(folder)
        if not found:
            print("  none yet: create one with `seven-seconds faction new`")
        for p in found:
            faction, problems = check_faction_file(p)
            if problems or faction is None:
                bad += 1
                print(f"  {p.stem:<30} INVALID, {len(problems)} problem{'s' if len(problems) > 1 else ''}: "
                      f"see `seven-seconds faction validate {p}`")
                continue
            notes = []
            if faction.upgrades:
                notes.append(f"{len(faction.upgrades)} upgrade{'s' if len(faction.upgrades) > 1 else ''}")
            if folder == user_dir and p.stem in bundled_ids:
                notes.append("replaces the bundled one")
            if faction.id != p.stem:
                notes.append(f"file id is {faction.id!r}")
            extra = f"  ({'; '.join(notes)})" if notes else ""
            print(f"  {p.stem:<30} {faction.name:<32} {faction.emblem:<8}{extra}")
    return 2 if bad else 0


def _faction_paths(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in (".toml", ".json") and p.is_file())


def _expand(items: list[str]) -> list[Path]:
    out = []
    for p in map(Path, items):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() in (".toml", ".json") and q.is_file()))
        else:
            out.append(p)
    return out


def run_validate(args) -> int:
    files = _expand(args.paths)
    if not files:
        raise InputError(" ".join(args.paths), "no .toml or .json files found")
    bad = 0
    for path in files:
        faction, problems = check_faction_file(path)
        if problems or faction is None:
            bad += 1
            print(f"{path}: {len(problems)} problem{'s' if len(problems) > 1 else ''}", file=sys.stderr)
            for p in problems:
                print(f"  - {p}", file=sys.stderr)
            continue
        print(f"{path}: valid faction {faction.id!r} ({faction.name}), lines "
              + ", ".join(f"{RATING_TITLES[r]} {faction.created.line(r).total()}" for r in RATINGS)
              + (f", {len(faction.upgrades)} upgrades" if faction.upgrades else ""))
        if faction.id != path.stem:
            print(f"  note: the file name {path.stem!r} differs from the id {faction.id!r}; in the factions folder "
                  "a faction is found by its file name")
    print(f"{len(files) - bad} valid, {bad} with problems")
    return 2 if bad else 0


def run_sheet(args) -> int:
    faction, _file = resolve_faction(args.faction)
    if Path(args.out).suffix.lower() == ".png":
        # lazy: loaded only when this command or option runs, so the command line starts fast
        from ..authoring.sheet import SHEET_SIZE, save_sheet

        out = save_sheet(faction, args.out)
        print(_("Wrote {file}: the faction sheet of {faction}, {width}x{height} px (A4 at 150 dpi)").format(
            file=out, faction=faction.name, width=SHEET_SIZE[0], height=SHEET_SIZE[1]))
        return 0
    if Path(args.out).suffix.lower() != ".pdf":
        raise InputError(args.out, "expected a file name ending in .pdf (vector, for print) or .png (a picture)")
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..printing.faction_sheet import save_faction_sheet

    out = save_faction_sheet(faction, args.out)
    print(_("Wrote {file}: the faction sheet of {faction}, A4 (PDF)").format(file=out, faction=faction.name))
    return 0


# ----------------------------------------------------------------------------------------------------------------
# faction upgrade


def run_upgrade(args) -> int:
    # lazy: loaded only when this command or option runs, so the command line starts fast
    from ..rules.campaign_upgrades import apply_upgrade, check_upgrade

    rating, stat = parse_rating(args.rating), parse_stat(args.stat)
    if args.tech is not None and args.tech < 0:
        raise InputError("--tech", f"expected 0 or more tech points (got {args.tech})")
    if args.battle is not None and args.battle < 1:
        raise InputError("--battle", f"expected a battle number of 1 or more (got {args.battle})")
    faction, path = resolve_faction(args.faction)
    target = Path(args.out) if args.out else path
    if not args.dry_run and not args.out and _is_bundled(path):
        raise InputError(
            str(path), f"{faction.name} is a bundled faction; its file is not changed. Give --out PATH for your "
                       "campaign copy, then upgrade that file")
    if not args.dry_run and target.suffix.lower() != ".toml":
        raise InputError(str(target), "expected a .toml file to write the upgraded faction to")
    opponent = resolve_faction(args.opponent)[0] if args.opponent else None
    check = check_upgrade(faction, rating, stat, opponent, args.tech)
    for line in lines(check.explain):
        print(line)
    if not check.allowed:
        print(f"seven-seconds: refused, nothing changed: {check.reason}", file=sys.stderr)
        return 2
    if args.tech is None:
        print("(tech points not checked: give --tech N to check them and see what is banked)")
    upgraded = apply_upgrade(faction, rating, stat, opponent, args.tech, args.battle)
    summary = (f"= {faction.name} {RATING_TITLES[rating]} {STAT_SHORT[stat]} {check.current} -> {check.raised_to} "
               f"for {check.cost} tech point{'' if check.cost == 1 else 's'}")
    if check.remaining is not None:
        summary += f", {check.remaining} left (banked)"
    print(summary)
    print(f"  {RATING_TITLES[rating]} line now {upgraded.stats(rating).short()} ({STAT_ORDER.replace(',', '/')})")
    if args.dry_run:
        print("Dry run: nothing written.")
        return 0
    same_file = target.resolve() == path.resolve()
    written = save_faction(upgraded, target, overwrite=same_file or args.force)
    print(f"Saved {written}")
    return 0


# ----------------------------------------------------------------------------------------------------------------
# faction new


class _InputEnded(Exception):
    pass


def _check_id(text: str) -> tuple[str | None, str | None]:
    if not ID_PATTERN.match(text):
        return None, f"expected lower-case words joined by '-', like 'iron-league' (got {text!r})"
    return text, None


def _check_name(text: str):
    return (text, None) if text.strip() else (None, "expected a name (not empty)")


def _check_colour(text: str):
    value = text.strip()
    if not value.startswith("#"):
        value = "#" + value
    try:
        Colours(primary=value)
    except ValueError:
        return None, f"expected a colour as # and six hex digits, like #3c6e9f (got {text!r})"
    return value.lower(), None


def _check_emblem(text: str):
    value = text.strip().lower()
    if value.isdigit() and 1 <= int(value) <= len(EMBLEMS):
        value = EMBLEMS[int(value) - 1]
    if value not in EMBLEMS:
        return None, f"expected one of {', '.join(EMBLEMS)} (got {text!r})"
    return value, None


def _given_header(args) -> tuple[dict, list[str]]:
    """The header values given as options, checked; problems name the option."""
    values, problems = {}, []
    for key, option, check in (("id", "--id", _check_id), ("name", "--name", _check_name),
                               ("primary", "--primary", _check_colour), ("secondary", "--secondary", _check_colour),
                               ("emblem", "--emblem", _check_emblem)):
        given = getattr(args, key)
        if given is None:
            continue
        value, problem = check(given)
        if problem:
            problems.append(f"{option}: {problem}")
        else:
            values[key] = value
    if args.lore is not None:
        values["lore"] = args.lore
    return values, problems


def _data(values: dict, lines_: dict[str, dict]) -> dict:
    data = {"id": values["id"], "name": values["name"], "lore": values.get("lore", ""),
            "emblem": values.get("emblem", EMBLEMS[0]), "created": dict(lines_)}
    colours = {k: values[k] for k in ("primary", "secondary") if k in values}
    if colours:
        data["colours"] = colours
    return data


def run_new(args) -> int:
    complete = all(getattr(args, k) is not None for k in ("id", "name", "reserve", "veteran", "spec_ops"))
    faction: Faction | None
    if complete:
        faction = _faction_from_options(args)
    else:
        try:
            faction = _guided(args, input, print)
        except (_InputEnded, EOFError):
            raise InputError("faction new", "input ended before the faction was complete; nothing was saved. To "
                                            "create one without questions give --id, --name, --reserve, --veteran "
                                            "and --spec-ops") from None
        if faction is None:
            print("Not saved.")
            return 1
    return _save_new(faction, args)


def _faction_from_options(args) -> Faction:
    """``faction new`` without questions: every problem of the options and of the lines, at once."""
    values, problems = _given_header(args)
    parsed: dict[str, dict[str, int]] = {}
    for rating, given in (("reserve", args.reserve), ("veteran", args.veteran), ("spec-ops", args.spec_ops)):
        line, problem = parse_line(given, f"--{rating}")
        if problem or line is None:
            problems.append(problem or f"--{rating}: expected six stats")
        else:
            parsed[rating] = line
    if len(parsed) == len(RATINGS):
        # options already reported get a stand-in, so the lines are still checked against the rules
        stand_in = {"id": "placeholder", "name": "placeholder", **values}
        _, rule_problems = faction_problems(_data(stand_in, parsed), "faction new")
        problems += rule_problems
    if problems:
        raise InputError("faction new", problems)
    return faction_from_data(_data(values, parsed), "faction new")


def _save_new(faction: Faction, args) -> int:
    if args.out:
        target = Path(args.out)
    else:
        target = default_faction_path(faction)
        bundled = faction_dirs()[0] / f"{faction.id}.toml"
        if bundled.exists() and not args.force:
            raise InputError("faction new", f"id {faction.id!r} is a bundled faction; a custom faction with that id "
                                            "would replace it in every game. Choose another id (or --force)")
    written = save_faction(faction, target, overwrite=args.force)
    print(f"Saved {faction.name} to {written}")
    if not args.out or target.resolve().parent == paths.user_factions_dir().resolve():
        print(f"It is now listed by `seven-seconds faction list`; games can use it as {faction.id!r}.")
    return 0


def _ask(ask, say, question: str, check, default: str | None = None):
    """Ask until ``check(answer)`` accepts it; Enter takes ``default``. Every problem is shown at once."""
    while True:
        prompt = f"{question} [{default}]: " if default not in (None, "") else f"{question}: "
        answer = ask(prompt).strip()
        if not answer and default is not None:
            answer = default
        value, problem = check(answer)
        if problem is None:
            return value
        say(f"    ! {problem}")


def _guided(args, ask, say) -> Faction | None:
    """The interactive ``faction new``: header, then each rating line stat by stat, then confirm."""
    values, problems = _given_header(args)
    for p in problems:
        say(f"! {p}: asking again")
    say("New faction (7 Seconds p.30). Enter accepts the value in [brackets]; Ctrl-C stops without saving.")
    def check_id(text):
        value, problem = _check_id(text)
        if value is None or args.out or args.force:
            return value, problem
        if (faction_dirs()[0] / f"{value}.toml").exists():
            return None, f"{value!r} is a bundled faction; choose another id"
        mine = paths.user_factions_dir() / f"{value}.toml"
        if mine.exists():
            return None, f"you already have a faction {value!r} ({mine}); choose another id (or use --force)"
        return value, None

    if "id" in values and check_id(values["id"])[1]:
        say(f"! --id: {check_id(values['id'])[1]}")
        del values["id"]
    if "id" not in values:
        values["id"] = _ask(ask, say, "Id, lower-case words joined by '-' (like iron-league)", check_id)
    if "name" not in values:
        values["name"] = _ask(ask, say, "Name", _check_name, values["id"].replace("-", " ").title())
    if "lore" not in values:
        values["lore"] = _ask(ask, say, "Lore, one paragraph (may be empty)", lambda t: (t, None), "")
    for key, title, default in (("primary", "Primary colour (#rrggbb)", Colours().primary),
                                ("secondary", "Secondary colour (#rrggbb)", Colours().secondary)):
        if key not in values:
            values[key] = _ask(ask, say, title, _check_colour, default)
    if "emblem" not in values:
        choices = ", ".join(f"{i} {e}" for i, e in enumerate(EMBLEMS, 1))
        values["emblem"] = _ask(ask, say, f"Emblem ({choices})", _check_emblem, EMBLEMS[0])

    created: dict[str, dict] = {}
    base = {s: STAT_MIN for s in STAT_NAMES}
    base_title = "all stats start at 1"
    for rating in RATINGS:
        given = getattr(args, rating.replace("-", "_"))
        if given is not None:
            line, problem = parse_line(given, f"--{rating}")
            if problem is None and line is not None:
                problem = _line_problem(line, base, rating)
            if problem is None and line is not None:
                say(f"{RATING_TITLES[rating]} line {StatLine(**line).short()} (from --{rating})")
                created[rating] = line
                base, base_title = line, f"starts at the {RATING_TITLES[rating]} line"
                continue
            say(f"! {problem}: asking for this line")
        say("")
        say(f"{RATING_TITLES[rating]} line: {base_title}; add exactly {CREATION_POINTS} points, "
            f"no stat above {STAT_MAX} [p.30, A46]")
        created[rating] = _ask_line(ask, say, rating, base)
        base, base_title = created[rating], f"starts at the {RATING_TITLES[rating]} line"

    faction = faction_from_data(_data(values, created), "faction new")
    say("")
    say(show_text(faction))
    target = Path(args.out) if args.out else default_faction_path(faction)
    answer = _ask(ask, say, f"Save to {target}? (y/n)", _yes_no, "y")
    return faction if answer else None


def _yes_no(text: str):
    t = text.strip().lower()
    if t in ("y", "yes"):
        return True, None
    if t in ("n", "no"):
        return False, None
    return None, "expected y or n"


def _line_problem(line: dict, base: dict, rating: str) -> str | None:
    data_line = StatLine(**line)
    added = data_line.total() - sum(base.values())
    for s in STAT_NAMES:
        if not STAT_MIN <= line[s] <= STAT_MAX:
            return f"--{rating}: {STAT_SHORT[s]} {line[s]} is outside {STAT_MIN} to {STAT_MAX} [p.30]"
        if line[s] < base[s]:
            return f"--{rating}: {STAT_SHORT[s]} {line[s]} is below the line before ({base[s]}) [p.30]"
    if added != CREATION_POINTS:
        return f"--{rating}: adds {added} points, expected exactly {CREATION_POINTS} [p.30, A46]"
    return None


def _ask_line(ask, say, rating: str, base: dict) -> dict:
    """One rating line, stat by stat, keeping every answer inside what can still make exactly 6 points."""
    line = dict(base)
    left = CREATION_POINTS
    title = RATING_TITLES[rating]
    for i, stat in enumerate(STAT_NAMES):
        later = STAT_NAMES[i + 1:]
        room_later = sum(STAT_MAX - base[s] for s in later)
        lo = max(base[stat], base[stat] + left - room_later)
        hi = min(STAT_MAX, base[stat] + left)

        def check(text, stat=stat, lo=lo, hi=hi, left=left, room_later=room_later):
            if not text.isdigit():
                return None, f"expected a whole number from {lo} to {hi} (got {text!r})"
            v = int(text)
            if v > STAT_MAX:
                return None, f"no stat may be above {STAT_MAX} [p.30]"
            if v < base[stat]:
                floor = "all stats start at 1" if rating == "reserve" else f"the line before has {base[stat]}"
                return None, f"{title} {STAT_SHORT[stat]} may not be below {base[stat]}: {floor} [p.30]"
            if v > hi:
                return None, f"only {left} point{'s' if left != 1 else ''} left in this line, so at most {hi} [p.30, A46]"
            if v < lo:
                return None, (f"the stats after this one can take only {room_later} more point"
                              f"{'s' if room_later != 1 else ''}; add at least {lo - base[stat]} here so that all "
                              f"{CREATION_POINTS} are spent [A46]")
            return v, None

        question = f"  {STAT_SHORT[stat]:<3} {stat:<15} {lo} to {hi}, {left} point{'s' if left != 1 else ''} left"
        line[stat] = _ask(ask, say, question, check, str(lo))
        left -= line[stat] - base[stat]
    say(f"  = {title} {StatLine(**line).short()}, sum {sum(line.values())}, {CREATION_POINTS} points added")
    return line
