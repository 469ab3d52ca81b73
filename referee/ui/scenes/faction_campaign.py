"""The faction editor's campaign mode: one side of a campaign buys its upgrades between battles (p.31, A45).

The editor opens the side's faction as the campaign has made it so far, with the opponent's current faction for
the halving check and the side's banked tech points as the budget, exactly what ``campaign upgrade`` checks: each
+ button is a purchase priced and refused by ``campaign_upgrades.check_upgrade``. **Record** writes
the purchases to the campaign file (atomically, after replaying the whole campaign to check it adds up); nothing is
written to a faction file. The next battle plays with them.
"""

from __future__ import annotations

from pathlib import Path

from ...game.campaigns.campaign import Purchase, load_campaign, other
from ...game.battle.sides import as_side
from ...rules.errors import InputError
from ...rules.stats import RATING_TITLES, STAT_SHORT
from ...service.campaigns import between_battles, record_purchases
from .faction_editor import UPGRADE, FactionEditorScene

FIXED = ("tech", "battle", "opponent", "load", "new", "mode_create", "mode_upgrade", "save_as",
         "id", "name", "lore", "primary", "secondary")


class CampaignUpgradeScene(FactionEditorScene):
    title = "Campaign upgrades"

    def __init__(self, campaign_path: Path | str, side: str) -> None:
        self.campaign_path = Path(campaign_path)
        self.side = side
        c, st = load_campaign(self.campaign_path)
        if st.winner:
            raise InputError(str(self.campaign_path), f"the campaign is won by side {st.winner}; nothing more to buy")
        refused = between_battles(self.campaign_path, c)
        if refused is not None:
            raise InputError(str(self.campaign_path), refused)
        mine = st.sides[side].faction
        if mine is None:
            raise InputError(str(self.campaign_path), f"players.{side}.faction: no faction for side {side}")
        super().__init__(mine)
        self.mode = UPGRADE
        self.opponent = st.sides[other(side)].faction
        self.tech_text = str(st.sides[side].tech_points)
        self.battle_text = str(len(c.battles))
        self.recorded = len(mine.upgrades)             # upgrades already in the campaign file
        self.campaign_name = c.name
        self.say("note", f"Side {side} of {c.name}: {st.sides[side].tech_points} tech points banked after battle "
                         f"{len(c.battles)}. Each + buys +1; Record when done [p.31, A45].")
        self.refresh()

    def _build(self, size) -> None:
        super()._build(size)
        for key in FIXED:
            widget = self.widgets.get(key)
            if widget is not None:
                widget.disable()
        save = self.widgets.get("save")
        if save is not None:
            save.set_text("Record")
            save.set_tooltip("record the upgrades bought in the campaign file")
        for button in self.emblem_buttons:
            button.disable()

    def heading(self) -> str:
        return f"Campaign upgrades: side {self.side}"

    def where(self) -> str:
        return f"{self.campaign_name} ({self.campaign_path.name})"

    def undo_upgrade(self) -> None:
        if len(self.draft.upgrades) <= self.recorded:
            self.say("note", "No unrecorded upgrade to take back: purchases recorded in the campaign stay [p.31].")
            return
        super().undo_upgrade()

    def save(self, path=None, confirmed: bool = False) -> Path | None:
        """Record the new purchases in the campaign file; refused with the rule if the campaign would not add up."""
        new = self.draft.upgrades[self.recorded:]
        if not new:
            self.say("note", "Nothing new to record: buy an upgrade with a + button first.")
            return None
        try:
            c, _ = load_campaign(self.campaign_path)
            refused = between_battles(self.campaign_path, c)
            if refused is not None:
                self.say("error", f"Not recorded: {refused}.")
                return None
            purchases = [Purchase(side=as_side(self.side), rating=u.rating, stat=u.stat, after_battle=len(c.battles))
                         for u in new]
            st = record_purchases(self.campaign_path, c, purchases)
        except InputError as e:
            self.say("error", f"Not recorded: {e.message()}")
            return None
        except OSError as e:
            self.say("error", f"Not recorded: {self.campaign_path}: {e.strerror or e}")
            return None
        self.recorded = len(self.draft.upgrades)
        self.baseline = self.draft.data()
        self.escape_armed = False
        bought = ", ".join(f"{RATING_TITLES[u.rating]} {STAT_SHORT[u.stat]}" for u in new)
        self.say("ok", f"Recorded in {c.name}: {bought}; side {self.side} has {st.sides[self.side].tech_points} "
                       f"tech points left, banked [p.31, A45].")
        self.refresh()
        self._build(self.size)
        return self.campaign_path
