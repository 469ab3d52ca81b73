"""The faction editor's files: a new faction, loading one, saving it or its sheet, and the questions asked first."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from ... import paths
from ...authoring.draft import FactionDraft
from ...authoring.faction_io import (
    check_faction_file,
    check_faction_file_to_fix,
    default_faction_path,
    save_faction,
)
from ...rules.errors import InputError
from ...rules.factions import faction_dirs, faction_files, forget_factions
from .faction_editor_base import FactionEditorBase
from .faction_editor_common import CREATE, UPGRADE


class FactionEditorFiles(FactionEditorBase):
    """Starting, opening and saving a faction (and its sheet); the confirmations and file dialogs they need."""

    # ---- loading and saving -----------------------------------------------------------------------------------------
    def start_new(self, confirmed: bool = False) -> None:
        if self.dirty and not confirmed:
            self.ask("Start a new faction? The unsaved changes to this one are lost.", "Discard",
                     lambda: self.start_new(True))
            return
        self.draft, self.source, self.mode = FactionDraft(), None, CREATE
        self.baseline = self.draft.data()
        self.say("note", "New faction: every stat starts at 1; add 6 points to each rating [p.30, A46].")
        self.refresh()
        self._build(self.size)

    def load(self, ref: str, confirmed: bool = False) -> bool:
        """Open a faction (id or file) to edit it or buy its upgrades. A file with problems is not opened."""
        if self.dirty and not confirmed:
            self.ask(f"Open {ref}? The unsaved changes to this faction are lost.", "Discard",
                     lambda: self.load(ref, True))
            return False
        forget_factions()
        path = faction_files().get(ref) or Path(ref)
        faction, problems, dropped = check_faction_file_to_fix(path)
        if problems or faction is None:
            self.say("error", f"Could not open {path}: " + "; ".join(problems))
            self._build(self.size)
            return False
        self.draft, self.source = FactionDraft.from_faction(faction), path
        self.baseline = self.draft.data()
        self.mode = UPGRADE if faction.upgrades else CREATE
        bundled = self._is_bundled(path)
        note = (" It is a bundled faction: give your copy its own id before saving, or use Save as file."
                if bundled else "")
        if dropped:
            note += (f" Opened without its unknown key{'s' if len(dropped) > 1 else ''} {', '.join(dropped)} (not "
                     f"part of the format): saving writes the faction without {'them' if len(dropped) > 1 else 'it'}.")
        self.say("note", f"Opened {faction.name} from {path}.{note}")
        self.refresh()
        self._build(self.size)
        return True

    @staticmethod
    def _is_bundled(path: Path) -> bool:
        try:
            return path.resolve().parent == faction_dirs()[0].resolve()
        except OSError:
            return False

    def save(self, path: Path | str | None = None, confirmed: bool = False) -> Path | None:
        """Save the faction (default: the user's factions folder, ``<id>.toml``). Refused with every problem."""
        faction, problems = self.draft.check()
        if problems or faction is None:
            n = len(problems)
            self.say("error", f"Not saved: {n} problem{'s' if n > 1 else ''} to fix first (listed below).")
            self.refresh()
            return None
        target = Path(path) if path is not None else default_faction_path(faction)
        same_file = self.source is not None and self._same(target, self.source)
        if not confirmed and not same_file:
            bundled = faction_dirs()[0] / f"{faction.id}.toml"
            if path is None and bundled.exists():
                self.ask(f"'{faction.id}' is a bundled faction. A custom faction with that id replaces it in every "
                         "game. Save it anyway?", "Replace", lambda: self.save(path, True))
                return None
            if target.exists():
                existing, _ = check_faction_file(target)
                if existing != faction:
                    what = f"the faction '{existing.id}'" if existing is not None else "a file that is not this faction"
                    self.ask(f"{target} already holds {what}. Replace it?", "Replace", lambda: self.save(path, True))
                    return None
        try:
            written = save_faction(faction, target, overwrite=True)
        except InputError as e:
            self.say("error", f"Not saved: {e.message()}")
            return None
        self.source = written
        self.baseline = self.draft.data()
        self.escape_armed = False
        if written.resolve().parent == paths.user_factions_dir().resolve():
            self.say("ok", f"Saved {faction.name} to {written}. It can be chosen for a battle now as "
                           f"'{faction.id}'.")
        else:
            self.say("ok", f"Saved {faction.name} to {written}. Share this one file; put it in your factions "
                           f"folder ({paths.user_factions_dir()}) to play with it.")
        self.refresh()
        self._build(self.size)
        return written

    def save_sheet(self, path: Path | str) -> Path | None:
        # Imported when first used: the sheet's drawing is needed only for this button.
        from ...authoring.sheet import save_sheet

        if self.faction is None:
            self.say("error", "No sheet: the faction has problems to fix first (listed below).")
            return None
        try:
            written = save_sheet(self.faction, path)
        except InputError as e:
            self.say("error", f"No sheet: {e.message()}")
            return None
        self.say("ok", f"Faction sheet written to {written}")
        return written

    @staticmethod
    def _same(a: Path, b: Path) -> bool:
        try:
            return a.resolve() == b.resolve()
        except OSError:
            return False

    def leave(self) -> None:
        """Escape or Back: leave at once when saved; with unsaved changes warn first, leave on the second time."""
        if self.dirty and not self.escape_armed:
            self.escape_armed = True
            self.say("error", "Unsaved changes. Press Escape (or Back) again to leave without saving them, or Save.")
            return
        if self.app is not None:
            self.app.pop()

    # ---- dialogs ----------------------------------------------------------------------------------------------------
    def ask(self, question: str, action: str, then) -> None:
        self._close_dialogs()
        w, h = self.size
        rect = pygame.Rect(0, 0, min(460, w - 40), 220)
        rect.center = (w // 2, h // 2)
        self.pending, self.question = then, question
        if self.manager is None:
            return
        self.confirm = pygame_gui.windows.UIConfirmationDialog(rect, question, self.manager, window_title="Confirm",
                                                               action_short_name=action)

    def open_file_dialog(self, purpose: str) -> None:
        self._close_dialogs()
        fid = self.draft.id if self.draft.id.strip() else "faction"
        if purpose == "sheet":
            start, title, suffixes = paths.user_data_dir() / "sheets" / f"{fid}.png", "Faction sheet (PNG)", {".png"}
        else:
            start, title, suffixes = paths.user_factions_dir() / f"{fid}.toml", "Save faction as", {".toml"}
        try:
            start.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            start = Path.cwd() / start.name
        w, h = self.size
        rect = pygame.Rect(0, 0, min(640, w - 40), min(500, h - 40))
        rect.center = (w // 2, h // 2)
        self.dialog_purpose = purpose
        self.dialog = pygame_gui.windows.UIFileDialog(rect, self.manager, window_title=title,
                                                      initial_file_path=str(start), allowed_suffixes=suffixes,
                                                      allow_existing_files_only=False)

    def _close_dialogs(self) -> None:
        for d in (self.dialog, self.confirm):
            if d is not None and d.alive():
                d.kill()
        self.dialog = self.confirm = None
