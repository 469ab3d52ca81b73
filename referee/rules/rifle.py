"""Fire Rifle (p.20-21): gauss, plasma and drone machine gun; dice from counters, bands, cover and terrain."""

from __future__ import annotations

from dataclasses import dataclass

from .battlefield import Battlefield, Piece
from .explain import Step, Working, inches
from .geometry import edge_range, in_arc
from .ranges import band_index, rifle_band_size
from .sight import CoverResult, cover


@dataclass(frozen=True)
class RifleShot:
    allowed: bool
    reason: str
    weapon: str | None
    band: int
    base_dice: int
    dice: int
    p_kill: float
    p_graze: float
    in_arc: bool
    cover: CoverResult | None
    explain: tuple[Step, ...]


def rifle_shot(bf: Battlefield, shooter: Piece, target: Piece) -> RifleShot:

    rules = bf.rulings
    why = Working()
    reason = ""
    weapon, size, steps = rifle_band_size(bf, shooter)
    if shooter.is_blip:
        reason = "an unrevealed blip may only Move; reveal it first [A18]"
    elif weapon is None or size is None:
        reason = f"{shooter.id} carries no rifle [p.20]"
    elif target.id == shooter.id:
        reason = "a unit cannot fire at itself [p.20]"
    elif target.is_objective:
        reason = "rifles never affect objectives [p.20]"
    elif target.side == shooter.side:
        reason = f"{target.id} is a friendly unit [p.20]"
    elif target.is_blip:
        reason = f"{target.id} is a blip: blips never keep Target counters, so it cannot be fired on [p.17, p.~13]"
    elif weapon == "mg" and target.is_trooper and rules.reads("A57", "B"):
        reason = "a machine gun cannot harm troopers; firing it at one is not allowed [p.20, A57]"
    why.extend(steps)
    arc = in_arc(shooter, target)
    if reason or weapon is None or size is None:
        why.add(f"not allowed: {reason}")
        return RifleShot(False, reason, weapon, 0, 0, 0, 0.0, 0.0, arc, None, why.freeze())

    tc = target.target_counters
    d = edge_range(shooter, target)
    b = band_index(bf, d, size)
    why.add(f"range {inches(d)}: band {b}", "p.20", rules.label("A2"))
    cov = cover(bf, shooter, target)
    why.extend(cov.explain)
    total_band = b + cov.cover_bands
    if cov.cover_bands:
        why.add(f"+{cov.cover_bands} band{'s' if cov.cover_bands > 1 else ''}: target in {cov.target_cover} cover ({cov.cover_feature}): band {total_band}", "p.20", "p.24")
    base = tc // total_band
    why.add(f"{tc} Target counter{'s' if tc != 1 else ''} / band {total_band} = {base} dice", "p.20")
    # The working, the window and the JSON all say the same count: never fewer than 0 dice.
    dice = max(0, base - cov.penalty)
    if cov.penalty:
        why.add(f"-{cov.penalty} dice for intervening terrain: {dice} dice", "p.20", "p.24")
    if tc < 1:
        reason = f"{target.id} has no Target counters; only a unit with counters may be fired on [p.~13, p.20]"
    elif not cov.los.visible:
        reason = f"no line of sight: more than half of {target.id} is hidden ({', '.join(cov.los.blocked_by)}) [p.20, A9]"
    elif not arc:
        reason = f"{target.id} is outside {shooter.id}'s 180° firing arc [p.20, A12]"
    elif cov.blocked:
        heavy = [i.terrain for i in cov.intervening if i.blocks]
        reason = f"no line of fire: more than 3\" of Heavy cover ({', '.join(heavy)}) [p.20, A6]"
    elif dice <= 0:
        reason = f"the shot would roll {dice} dice: impossible [p.20, A49]"
    if reason:
        why.add(f"not allowed: {reason}")
        return RifleShot(False, reason, weapon, total_band, base, dice, 0.0, 0.0, arc, cov, why.freeze())
    # lazy: the odds' exact arithmetic (nine result classes, fractions) is needed once a shot is weighed, not by the
    # table's first frame, which loads this module for the side panel's reports
    from .odds import rifle_odds

    odds = rifle_odds(weapon, dice, target.is_drone)
    why.extend(odds.explain)
    p_kill, p_graze = float(odds.p_kill), float(odds.p_graze)
    if weapon == "mg" and target.is_trooper:
        why.add("a machine gun cannot harm troopers: the shot has no effect", rules.label("A57"))
        p_kill = p_graze = 0.0
    return RifleShot(True, "", weapon, total_band, base, dice, p_kill, p_graze, arc, cov, why.freeze())
