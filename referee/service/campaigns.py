"""The campaign service: a campaign told of a finished battle from its save (``campaign battle FILE --save SAVE``;
the result is read from the battle itself, as the window records it when the battle ends, ``BattleSession``), and
what the window's campaign screens ask: the campaigns, a new one, the next battle's set-up, the battle under way."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..game.campaigns.campaign import Campaign, CampaignStatus, Purchase, campaign_data, load_campaign, status
from ..game.campaigns.campaign_battle import (battle_choices, battle_fingerprint, battle_save_path, campaign_files,
                                              played_streak, record_battle, start_campaign, unfinished_battle)
from ..game.records.record import read_save
from ..game.records.sealing import Keyring
from ..rules.campaign_upgrades import check_upgrade
from ..rules.errors import InputError
from ..rules.explain import lines
from ..rules.scenario import Scenario
from ..rules.stats import RATING_TITLES, STAT_SHORT
from ..storage import atomic_write_text, write_document
from .battles import new_session
from .look_back import LookBack
from .mail_battle import arrive, is_mail_file
from .session import BattleSession
from .opening import SealedBattle, read_battle


def record_saved_battle(campaign_path: Path | str, save_path: Path | str,
                        keys: Keyring | None = None) -> tuple[Campaign, CampaignStatus]:
    """Add the battle the save at ``save_path`` holds to the campaign file at once (atomically); the campaign as it
    now stands. A battle not over, or a campaign already won, raises ``InputError``. A sealed save needs its
    players' PINs (``keys``). A battle played by e-mail is read from its file as a look at it reads it, every action
    resolved again."""
    if is_mail_file(Path(save_path)):
        return record_mail_battle(campaign_path, save_path)
    game = read_save(save_path, keys).game
    return record_battle(campaign_path, game.state, save_path, setup_streak=played_streak(game))


def record_mail_battle(campaign_path: Path | str, mail_path: Path | str,
                       session: BattleSession | None = None) -> tuple[Campaign, CampaignStatus]:
    """Add the battle played by e-mail in the file at ``mail_path`` to the campaign (``session``: the battle as this
    computer resolved the file, else resolved again here); as ``record_saved_battle``."""
    if session is None:
        session = arrive(Path(mail_path), "", None, {}).session
    game = session.game
    return record_battle(campaign_path, game.state, mail_path, setup_streak=played_streak(game))


def look_back_at(path: Path) -> LookBack:
    """A campaign's battle to look back on, from the file its record names: a save, or a battle played by e-mail
    (every action resolved again, as a look at the file resolves it). An unreadable file raises ``InputError``."""
    if is_mail_file(path):
        return LookBack(arrive(path, "", None, {}).session.game)
    return LookBack.of_save(path)


@dataclass(frozen=True)
class Bought:
    """A campaign purchase tried: whether it was bought, the rules' working (p.31, A45) and the line that says so."""

    allowed: bool
    explain: list[str]
    told: str


def under_way(campaign_path: Path | str, c: Campaign, folder: Path | None = None) -> str | None:
    """The campaign's next battle in words when it was begun and is not recorded yet (in the window, on a host or
    by e-mail from this computer, ``folder``: where its notes are), else None."""
    number = len(c.battles) + 1
    started = unfinished(campaign_path, c)
    if started is not None:
        return f"battle {number} is under way ({started.path})"
    mailed = next((m for m in battles_by_mail(campaign_path, folder) if m.number == number), None)
    if mailed is not None:
        return f"battle {number} is being played by e-mail in {mailed.file}"
    return None


def between_battles(campaign_path: Path | str, c: Campaign, folder: Path | None = None) -> str | None:
    """Why no upgrade may be bought now, else None. Upgrades are bought between battles (p.31, A45: tech points bank
    between them): the battle under way was set up with the factions as they stood, and a purchase made during it
    would count in the campaign before a battle that was fought without it."""
    if not c.battles:
        return "tech points come after a battle; record one first [p.31]"
    busy = under_way(campaign_path, c, folder)
    if busy is not None:
        return (f"not now: {busy}. Upgrades are bought between battles, with the factions the next battle is set "
                f"up with: buy it once battle {len(c.battles) + 1} is recorded [p.31, A45]")
    return None


def buy_upgrade(campaign_path: Path | str, side: str, rating: str, stat: str, folder: Path | None = None) -> Bought:
    """+1 to ``side``'s ``stat`` at ``rating``, bought with its banked tech points and written to the campaign file
    at once when the rules allow it (p.31, A45); else nothing is written and ``told`` says why. None is bought
    while the next battle is under way (``between_battles``; ``folder``: where this computer's notes of battles by
    e-mail are)."""
    c, st = load_campaign(campaign_path)
    refused = between_battles(campaign_path, c, folder)
    if refused is not None:
        return Bought(False, [], refused)
    me, them = st.sides[side], st.sides["B" if side == "A" else "A"]
    check = check_upgrade(me.the_faction(), rating, stat, them.faction, me.tech_points)
    explain = lines(check.explain)
    if not check.allowed:
        return Bought(False, explain, f"not allowed: {check.reason}")
    purchase = Purchase.model_validate({"side": side, "rating": rating, "stat": stat, "after_battle": len(c.battles)})
    record_purchases(campaign_path, c, [purchase])
    return Bought(True, explain, f"side {side}: {RATING_TITLES[rating]} {STAT_SHORT[stat]} raised to "
                                 f"{check.raised_to}")


def record_purchases(campaign_path: Path | str, c: Campaign, purchases: list[Purchase]) -> CampaignStatus:
    """The purchases written to the campaign file ``c`` was read from, once the whole campaign replays with them
    (a campaign that would not add up raises ``InputError`` and nothing is written): its status after them."""
    c = c.model_copy(update={"purchases": [*c.purchases, *purchases]})
    st = status(c, Path(campaign_path).parent, str(campaign_path))     # never write a campaign that does not add up
    write_document(Path(campaign_path), campaign_data(c))
    return st


def recorded_as(campaign_path: Path | str, session: BattleSession) -> int | None:
    """The number the campaign recorded the session's battle as (by its fingerprint), else None."""
    c, _st = load_campaign(campaign_path)
    fingerprint = battle_fingerprint(session.game.state)
    return next((n for n, b in enumerate(c.battles, 1) if b.battle == fingerprint), None)


def mail_campaign(campaign_path: Path | str, folder: Path | None = None) -> tuple[dict[str, Any], NextBattle]:
    """The campaign's next battle to be played by e-mail: what its file says of the campaign (its name and the
    battle's number; the campaign file stays on its owner's computer) and the battle's set-up. A campaign won, or
    one whose next battle was started (in the window, on a host or by e-mail from this computer, ``folder``: where
    its notes are) and is not over, raises ``InputError``."""
    c, _st = load_campaign(campaign_path)
    started = unfinished(campaign_path, c)
    if started is not None:
        raise InputError(str(campaign_path), f"the campaign's next battle was started and is not over "
                                             f"({started.path}): finish it first")
    battle = next_battle(campaign_path, folder)
    return {"name": c.name, "battle": battle.number}, battle


# ---- a campaign's battle by e-mail, as the computer that began it notes it -------------------------------------------


@dataclass(frozen=True)
class ByMail:
    """A campaign's battle being played by e-mail from this computer: its file and its number in the campaign."""

    file: Path
    number: int


def mail_note_path(battle: str, folder: Path | None = None) -> Path:
    """Where the computer that began a campaign's battle by e-mail notes which campaign file records it and where
    the battle's file is (the file sent names the campaign, never a path of this computer). ``battle``: the battle's
    id (``commit.battle_id``); ``folder``: this computer's folder of kept secrets."""
    return (paths.kept_dir() if folder is None else folder) / f"{battle[:32]}.mail-campaign"


def note_mail_battle(campaign_path: Path | str, mail_path: Path, number: int, battle: str,
                     folder: Path | None = None) -> None:
    atomic_write_text(mail_note_path(battle, folder), json.dumps(
        {"campaign": str(Path(campaign_path).resolve()), "file": str(mail_path.resolve()), "battle": number}) + "\n",
        private=True)


def _note(battle: str, folder: Path | None) -> dict[str, Any] | None:
    note = mail_note_path(battle, folder)
    try:
        data = json.loads(note.read_text(encoding="utf-8"))
        Path(str(data["campaign"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(str(note), f"cannot be read ({e})") from None
    if not isinstance(data, dict):
        raise InputError(str(note), "cannot be read (expected the campaign file and the battle's)")
    return data


def noted_campaign(battle: str, folder: Path | None = None) -> tuple[Path, bool] | None:
    """The campaign file this computer noted for the battle (``mail_note_path``) and whether the battle is recorded
    there already, or None when it noted none. A note that cannot be read raises ``InputError`` naming it."""
    data = _note(battle, folder)
    return None if data is None else (Path(str(data["campaign"])), bool(data.get("recorded")))


def note_file(battle: str, mail_path: Path, folder: Path | None = None) -> None:
    """The battle's file is now at ``mail_path`` (the other player's file saved elsewhere, say): the note follows it,
    so the campaign's page opens the file this computer took last."""
    data = _note(battle, folder)
    if data is not None and data.get("file") != str(mail_path.resolve()):
        atomic_write_text(mail_note_path(battle, folder), json.dumps({**data, "file": str(mail_path.resolve())})
                          + "\n", private=True)


def note_recorded(battle: str, folder: Path | None = None) -> None:
    """The battle is recorded in its campaign: the note stays (the other side's purchases asked in the battle's file
    are bought there when the file comes back), but the battle is no longer being played."""
    data = _note(battle, folder)
    if data is not None and not data.get("recorded"):
        atomic_write_text(mail_note_path(battle, folder), json.dumps({**data, "recorded": True}) + "\n", private=True)


def battles_by_mail(campaign_path: Path | str, folder: Path | None = None) -> list[ByMail]:
    """The campaign's battles being played by e-mail from this computer: noted, not yet recorded, and their file
    still there (a battle whose file was deleted is given up)."""
    found = []
    campaign = Path(campaign_path).resolve()
    for note in sorted((paths.kept_dir() if folder is None else folder).glob("*.mail-campaign")):
        try:
            data = json.loads(note.read_text(encoding="utf-8"))
            if Path(str(data["campaign"])) == campaign and not data.get("recorded") and Path(str(data["file"])).is_file():
                found.append(ByMail(Path(str(data["file"])), int(data["battle"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue                     # another note, or one this program cannot read: not this campaign's
    return found


# ---- the window's campaign screens ---------------------------------------------------------------------------------


def campaigns(folder: Path | None = None) -> list[Path]:
    """The campaign files in the campaigns folder (or ``folder``), by name."""
    return campaign_files(folder)


def new_campaign(name: str, length: str, factions: dict[str, str], players: dict[str, str] | None = None,
                 folder: Path | None = None) -> Path:
    """A new campaign file, named after the campaign, never over an existing one; bad choices raise ``InputError``."""
    return start_campaign(name, length, factions, players, folder)


@dataclass(frozen=True)
class NextBattle:
    """The set-up of a campaign's next battle (A47): its number, each side's upgraded faction and streak bonus."""

    number: int
    factions: dict[str, str]
    streak: dict[str, int]


def next_battle(campaign_path: Path | str, folder: Path | None = None) -> NextBattle:
    """The campaign's next battle; a campaign already won, a broken file, or a next battle being played by e-mail
    from this computer (``folder``: where its notes are, ``battles_by_mail``) raises ``InputError``."""
    c, st = load_campaign(campaign_path)
    number = len(c.battles) + 1
    for mailed in battles_by_mail(campaign_path, folder):
        if mailed.number == number:
            raise InputError(str(campaign_path), f"battle {number} of this campaign is being played by e-mail in "
                                                 f"{mailed.file}: go on with it (seven-seconds mail play "
                                                 f"{mailed.file} --side A, or B), or delete that file to begin the "
                                                 f"battle again")
    choices = battle_choices(campaign_path, c, st)
    return NextBattle(number, dict(choices.factions), dict(choices.streak))


def begin_campaign_battle(session: BattleSession, campaign_path: Path | str, number: int) -> None:
    """A new battle of the campaign: it records its result there when it ends, and is saved beside the campaign
    file from its start (a save that fails is told in the session's messages; the battle goes on)."""
    session.campaign = Path(campaign_path)
    session.save_path = battle_save_path(campaign_path, number)
    try:
        session.save()
    except InputError as e:
        session.messages.append(f"the campaign battle's save failed (the battle goes on): {e.message()}")


@dataclass(frozen=True)
class Unfinished:
    """The campaign's next battle, started and not over: where its save is and what it says of itself (nothing
    secret); ``sealed`` when its files are sealed for its players, opened once they give their PINs."""

    path: Path
    summary: str
    sealed: SealedBattle | None = None


def unfinished(campaign_path: Path | str, c: Campaign) -> Unfinished | None:
    """The next battle's save when it was started and is not over (to be continued), else None."""
    save = unfinished_battle(campaign_path, c)
    if save is not None and save.path is not None:
        return Unfinished(Path(save.path), save.summary())
    path = battle_save_path(campaign_path, len(c.battles) + 1)
    if not path.is_file():
        return None
    battle = read_battle(path)
    if isinstance(battle, SealedBattle) and not battle.over:
        return Unfinished(path, battle.summary(), battle)
    return None


def continue_battle(campaign_path: Path | str, battle: Unfinished, pins: dict[str, str] | None = None,
                    served: bool = False) -> BattleSession:
    """The unfinished battle, opened from its save for the window, or ``served`` to its seats' own devices
    (``seven-seconds host --campaign``). A save that no longer reads, a sealed one whose PINs do not open it, or an
    older copy of a battle this computer has rolled for further (``roll_book.py``) raises ``InputError``."""
    if battle.sealed is not None:
        return battle.sealed.unlock(pins or {}).open(campaign=Path(campaign_path), served=served)
    opened = read_battle(battle.path)
    if isinstance(opened, SealedBattle):            # sealed since the campaign screen read it
        raise InputError(str(battle.path), "this battle's files are sealed for its players: give their PINs")
    return opened.open(campaign=Path(campaign_path), served=served)


def unfinished_in(campaign_path: Path | str) -> Unfinished | None:
    """The campaign's next battle when it was started and is not over; a broken campaign file raises
    ``InputError`` naming it."""
    c, _st = load_campaign(campaign_path)
    return unfinished(campaign_path, c)


def new_campaign_session(campaign_path: Path | str, table: Scenario, program_dice: bool = True,
                         computer: tuple[str, str] | None = None) -> tuple[BattleSession, int]:
    """The campaign's next battle on ``table``, about to be set up, served to its seats' own devices (``seven-seconds
    host --campaign``), and its number: each side's faction as the campaign made it, upgrades and all, and the
    streak bonus on the attacker/defender roll (A47), as the window's campaign set-up gives them. Nothing is written
    until ``begin_campaign_battle``. A campaign already won, or a broken file, raises ``InputError``."""
    battle = next_battle(campaign_path)
    session = new_session(table, dict(battle.factions), dict(battle.streak), program_dice=program_dice,
                          computer=computer)
    return session, battle.number
