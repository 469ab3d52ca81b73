"""Extract the program's text into its gettext catalogues: ``python tools/catalogue.py`` (Babel, from the test extra).

Writes ``referee/locale/seven-seconds.pot`` (every string marked with ``_()``, ``N_()`` or ``ngettext()``), the
English catalogue ``referee/locale/en/LC_MESSAGES/seven-seconds.po`` (each text its own translation, the source
language) and its compiled ``.mo``. A translation into another language starts from the template:
``pybabel init -i referee/locale/seven-seconds.pot -d referee/locale -D seven-seconds -l fr``, then
``pybabel compile -d referee/locale -D seven-seconds``. ``tests/test_i18n.py`` checks that the files are up to date.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"
LOCALE = PACKAGE / "locale"
DOMAIN = "seven-seconds"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
HEADER = dict(project="Seven Seconds Referee", version="", copyright_holder="the Seven Seconds Referee maintainers")


def template() -> Catalog:
    """Every marked string of the package, in a stable order and without line numbers (which change with any edit)."""
    catalog = Catalog(domain=DOMAIN, **HEADER)
    for filename, _lineno, message, _comments, context in extract_from_dir(
            PACKAGE, method_map=[("**.py", "python")], keywords=KEYWORDS):
        if "locale" in Path(filename).parts:
            continue
        catalog.add(message, None, [(filename, 0)], context=context)
    return catalog


def english(pot: Catalog) -> Catalog:
    """The source language's catalogue: each message its own translation."""
    catalog = Catalog(locale="en", domain=DOMAIN, fuzzy=False, **HEADER)
    for m in pot:
        if m.id:
            catalog.add(m.id, m.id, context=m.context)
    return catalog


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, sort_output=True, no_location=True, omit_header=False, width=120)
    # The creation dates are the only lines that change when nothing else does: they are left out.
    lines = [line for line in out.getvalue().split(b"\n")
             if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date'))]
    return b"\n".join(lines)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def files() -> dict[Path, bytes]:
    pot = template()
    en = english(pot)
    folder = LOCALE / "en" / "LC_MESSAGES"
    return {LOCALE / f"{DOMAIN}.pot": render(pot), folder / f"{DOMAIN}.po": render(en),
            folder / f"{DOMAIN}.mo": compiled(en)}


def main() -> int:
    for path, data in files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
