"""Looking back on a battle, from the end-of-battle report or from any save: the one-page summary, the dice report
of each side, and a replay to step through from either side's view (or the whole truth once it is over)."""

from __future__ import annotations

from pathlib import Path

from ... import paths
from ...rules.errors import InputError
from ...rules.odds import percent
from ...service.look_back import LookBack
from ...service.replay import TRUTH
from .pages import LinesScene


class LookBackScene(LinesScene):
    title = "Looking back"

    def __init__(self, battle: LookBack, source: Path | None = None, viewer: str | None = None) -> None:
        """``viewer``: the side at the screen, the only view a replay may show before the battle is over."""
        super().__init__()
        self.battle = battle
        self.source = source
        self.viewer = viewer
        self.page = "summary" if self.over else "dice-A"
        self.heading = f"Looking back: {battle.name}"
        self.subtitle = (f"{battle.actions} actions" + (f", from {source.name}" if source else "")
                         + ("" if self.over else "; the battle is not over: its summary and the whole truth wait "
                                                 "for the end"))

    @property
    def over(self) -> bool:
        return self.battle.over

    def report(self):
        return self.battle.dice_report()

    def summary(self):
        return self.battle.summary()

    # ---- the page ------------------------------------------------------------------------------------------------
    def lines(self) -> list[tuple[str, str]]:
        if self.page == "summary":
            s = self.summary()
            if s is None:
                return [("dim", "The summary is made once the battle is over.")]
            out = [("h", s.lines()[0]), ("h", s.lines()[1])]
            out += [("b", line) for line in s.lines()[2:]]
            return out
        side = self.page[-1]
        r = self.report()
        me = r.sides[side]
        out = [("h", f"Side {side}'s dice: luck {percent(me.luck)} (50% is average; the percentile of its "
                     f"{len(me.tests)} scored rolls among every way they could have fallen)")]
        out += [("b", line.strip()) for line in me.lines()[1:]]
        out.append(("h", "Every roll, its chance and what happened"))
        for t in me.tests:
            style = "ok" if t.score == 2 else "bad" if t.score == 0 else "b"
            out.append((style, t.line()))
        if not me.tests:
            out.append(("dim", "no scored roll for this side"))
        return out

    def button_row(self) -> list[tuple[str, str, bool]]:
        return [("summary", "Summary", self.over), ("dice-A", "Dice: side A", True), ("dice-B", "Dice: side B", True),
                ("replay-A", "Replay as side A", self.over or self.viewer == "A"),
                ("replay-B", "Replay as side B", self.over or self.viewer == "B"),
                ("replay-truth", "Replay: whole truth", self.over), ("png", "Save summary PNG", self.over),
                ("back", "Back", True)]

    def pressed(self, key: str) -> None:
        if key in ("summary", "dice-A", "dice-B"):
            self.page, self.scroll = key, 0
        elif key.startswith("replay-"):
            self.open_replay(key.split("-", 1)[1])
        elif key == "png":
            self.save_png()
        elif key == "back" and self.app is not None:
            self.app.pop()

    def open_replay(self, viewer: str):
        replay = self.battle.replay()
        if not self.over and viewer != self.viewer:
            self.say("error", "before the end a replay shows only the view of the side at the screen")
            return None
        return self.push_scene("replay", replay, viewer if viewer != "truth" else TRUTH)

    def png_path(self) -> Path:
        if self.source is not None:
            return self.source.with_name(self.source.stem + "-summary.png")
        stem = "".join(c if c.isalnum() else "-" for c in self.battle.name.lower()).strip("-") or "battle"
        return paths.saves_dir() / f"{stem}-summary.png"

    def save_png(self, path: Path | None = None) -> Path | None:
        # Imported when first used: drawing the summary page is a module of its own, needed by few.
        from ..summary_page import save_summary_png

        summary = self.summary()
        if summary is None:
            self.say("error", "the summary is made once the battle is over")
            return None
        target = path or self.png_path()
        try:
            written = save_summary_png(summary, self.battle.truth(), target)
        except InputError as e:
            self.say("error", e.message())
            return None
        self.say("ok", f"summary saved as {written}")
        return written
