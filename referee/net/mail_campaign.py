"""A campaign's battle by e-mail (``seven-seconds mail new --campaign``): what its file says of the campaign, and what
the computer that began it does with the file.

The campaign file stays on the computer that began the battle. The battle file names the campaign and the battle's
number (``campaign``), never a path of that computer; that computer notes which campaign file it is in its own
folder (``service/campaigns.py: mail_note_path``), and records the battle there as soon as it has the finished file.

The other player buys their upgrades on their own computer, in the finished battle's file: ``mail upgrade FILE --side
B --rating R --stat S`` adds the purchase asked (``purchases``), checked there by the upgrade rules on the faction the
file carries (p.31, A45). When the file comes back, the computer that began the battle buys each purchase of the other
side in the campaign with that side's banked tech points, exactly as ``campaign upgrade`` would, and writes what came
of it in the file (``bought``) for the other player to read. A purchase asked for the side that computer plays is not
made: that player buys their own there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from ..game.battle.sides import SIDES, other
from ..rules.campaign_upgrades import check_upgrade
from ..rules.errors import InputError
from ..rules.factions import UPGRADE_COST, Faction, Upgrade
from ..rules.stats import RATING_TITLES, RATINGS, STAT_NAMES, STAT_SHORT
from ..service.campaigns import buy_upgrade, note_recorded, noted_campaign, record_mail_battle, recorded_as
from ..service.session import BattleSession

# Purchases asked in one file, and those made kept in it (the latest): more than any campaign's tech points could pay.
MOST_ASKED: Final = 30


def campaign_of(doc: dict[str, Any], source: str) -> dict[str, Any] | None:
    """The campaign the battle file says it is a battle of (its name and the battle's number), or None."""
    told = doc.get("campaign")
    if told is None:
        return None
    if not isinstance(told, dict) or not isinstance(told.get("name"), str) or not isinstance(told.get("battle"), int) \
            or isinstance(told.get("battle"), bool) or told["battle"] < 1 or set(told) != {"name", "battle"}:
        raise InputError(source, "campaign: expected the campaign's name and the battle's number")
    return {"name": told["name"][:200], "battle": told["battle"]}


def _purchase(item: object) -> dict[str, str] | None:
    if not isinstance(item, dict) or item.get("side") not in SIDES or item.get("rating") not in RATINGS \
            or item.get("stat") not in STAT_NAMES:
        return None
    return {"side": str(item["side"]), "rating": str(item["rating"]), "stat": str(item["stat"])}


def purchases_of(doc: dict[str, Any], source: str) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """The purchases the file asks for (each ``side``, ``rating``, ``stat``) and those made already, each with what
    came of it (``told``). Raises ``InputError`` naming the part that is not that."""
    asked, made = doc.get("purchases") or [], doc.get("bought") or []
    if not isinstance(asked, list) or len(asked) > MOST_ASKED or any(_purchase(p) is None for p in asked):
        raise InputError(source, f"purchases: expected at most {MOST_ASKED} purchases asked, each a side (A or B), a "
                                 f"rating ({', '.join(RATINGS)}) and a stat ({', '.join(STAT_NAMES)})")
    if not isinstance(made, list) or len(made) > MOST_ASKED or any(
            _purchase(p) is None or not isinstance(p.get("told"), str) for p in made):
        raise InputError(source, "bought: expected the purchases made, each with what came of it")
    return ([p for p in (_purchase(item) for item in asked) if p is not None],
            [{**p, "told": str(item["told"])[:500]} for item, p in ((i, _purchase(i)) for i in made) if p is not None])


def campaign_parts(campaign: dict[str, Any] | None, asked: list[dict[str, str]],
                   made: list[dict[str, str]]) -> dict[str, Any]:
    """The campaign's parts of the battle file, as ``mail_document`` writes them (none for a battle of no campaign)."""
    if campaign is None:
        return {}
    return {"campaign": campaign, **({"purchases": asked} if asked else {}), **({"bought": made} if made else {})}


def checked_purchase(campaign: dict[str, Any] | None, over: bool, carried: dict[str, Faction],
                     factions: dict[str, str], side: str, rating: str, stat: str, asked: list[dict[str, str]],
                     source: str) -> tuple[dict[str, str], str]:
    """``side``'s purchase of +1 to ``stat`` at ``rating``, asked in the battle file ``source``: checked by the upgrade
    rules on the faction the file carries (the budget is the campaign's, on the other computer), and what to tell the
    player. Raises ``InputError`` with the reason it cannot be asked."""
    if campaign is None:
        raise InputError(source, "not a campaign's battle: upgrades are bought in a campaign (seven-seconds campaign "
                                 "upgrade)")
    if not over:
        raise InputError(source, "the battle is not over: tech points come after it [p.31]")
    if rating not in RATINGS or stat not in STAT_NAMES:
        raise InputError(source, f"expected a rating ({', '.join(RATINGS)}) and a stat ({', '.join(STAT_NAMES)})")
    if len(asked) >= MOST_ASKED:
        raise InputError(source, f"purchases: at most {MOST_ASKED} asked in one file")
    own, theirs = carried.get(factions.get(side, "")), carried.get(factions.get(other(side), ""))
    if own is None:
        raise InputError(source, f"factions: side {side}'s faction is not in the file")
    # The purchases asked already count: a second +1 to the same stat is checked on the stat the first one makes.
    for p in asked:
        if p["side"] == side:
            up = Upgrade.model_validate({"rating": p["rating"], "stat": p["stat"], "cost": UPGRADE_COST[p["rating"]]})
            own = own.model_copy(update={"upgrades": [*own.upgrades, up]})
    check = check_upgrade(own, rating, stat, theirs)
    if not check.allowed:
        raise InputError(source, f"not allowed: {check.reason}")
    purchase = {"side": side, "rating": rating, "stat": stat}
    points = f"{check.cost} tech point{'' if check.cost == 1 else 's'}"
    return purchase, (f"Asked in {Path(source).name}: {purchase_words(purchase)} ({check.current} -> "
                      f"{check.raised_to}, {points} at today's stats). Send the file to the computer that began battle "
                      f"{campaign['battle']} of {campaign['name']}: it buys the purchase in the campaign with side "
                      f"{side}'s banked tech points when it opens the file, and writes in the file what came of it.")


def purchase_words(p: dict[str, str]) -> str:
    return f"side {p['side']}'s {RATING_TITLES[p['rating']]} {STAT_SHORT[p['stat']]} +1"


def record_in_campaign(path: Path, session: BattleSession, folder: Path, battle: str) -> list[str]:
    """The battle in the file at ``path``, ended and scored, recorded in the campaign this computer began it for (its
    note): what to tell the player. Nothing when this computer did not begin it for a campaign; a battle the
    campaign holds already is not recorded again."""
    try:
        noted = noted_campaign(battle, folder)
    except InputError as e:
        return [f"{e.message()}: record the battle with seven-seconds campaign battle CAMPAIGN --save {path}"]
    if noted is None or noted[1]:
        return []
    campaign = noted[0]
    try:
        told = []
        if recorded_as(campaign, session) is None:          # recorded by hand already
            c, _st = record_mail_battle(campaign, path, session)
            told.append(f"Recorded in the campaign {campaign} as battle {len(c.battles)}.")
        note_recorded(battle, folder)
    except InputError as e:
        # The note stays as it was: the next turn at the file tries again (the campaign file moved back, say).
        return [f"Not recorded in the campaign {campaign}: {e.message()}. Record it with seven-seconds campaign "
                f"battle {campaign} --save {path}"]
    return told


def buy_asked(asked: list[dict[str, str]], side: str, folder: Path,
              battle: str) -> tuple[list[dict[str, str]], list[str]] | None:
    """On the computer that began the battle (``side``: the side it plays), once the battle is recorded: each purchase
    of the other side asked in the file, bought in the campaign or refused there with the reason. What was made of
    each (for the file's ``bought``) and the lines for the player here; None when this computer has no campaign to buy
    them in (the other side's computer, or a battle not recorded yet)."""
    try:
        noted = noted_campaign(battle, folder)
    except InputError:
        return None
    if noted is None or not noted[1] or not asked:
        return None
    campaign, made, told = noted[0], [], []
    for p in asked:
        if p["side"] != other(side):
            result = (f"not made here: side {side}'s purchases are made on this computer, in the campaign "
                      f"({purchase_words(p)})")
        else:
            try:
                result = buy_upgrade(campaign, p["side"], p["rating"], p["stat"], folder).told
            except InputError as e:
                result = f"not made: {e.message()}"
        made.append({**p, "told": result})
        told.append(f"Asked by e-mail, {purchase_words(p)}: {result}")
    return made, told

