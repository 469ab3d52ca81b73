"""Line of sight (50 % rule), the cover a target is in, and the terrain in between (p.~6, p.24; A6-A11)."""

from __future__ import annotations

from typing import NamedTuple

from .battlefield import Battlefield, Feature, Piece
from .catalogue import COVER_BANDS
from .explain import Step, Working, inches
from .geometry import closest_points, viewer_point
from .numbers import more_than
from .rulings import Rulings
from .sight_reference import crossings, hidden_fraction, segment_crosses

HEAVY_LIMIT = 3.0


class LineOfSight(NamedTuple):
    """Whether the viewer sees the target (50 % rule), with its working. The results here are named tuples: plain
    values, and cheaper than dataclasses for every start that measures (a one-shot query among them)."""

    visible: bool
    hidden_fraction: float
    blocked_by: tuple[str, ...]
    explain: tuple[Step, ...]


class Intervening(NamedTuple):
    terrain: str
    cover: str
    length: float
    penalty: int         # counters eaten (Target) or dice lost (rifle)
    blocks: bool         # Heavy with more than 3" inside it

    def as_dict(self) -> dict[str, object]:
        return {"terrain": self.terrain, "cover": self.cover, "length": round(self.length, 6)}


class CoverResult(NamedTuple):
    target_cover: str
    cover_feature: str | None
    intervening: tuple[Intervening, ...]
    penalty: int
    los: LineOfSight
    blocked: bool
    explain: tuple[Step, ...]

    @property
    def cover_bands(self) -> int:
        return COVER_BANDS[self.target_cover]


def feature_cover(f: Feature, drone: bool, rulings: Rulings) -> str:
    cover = f.column(drone).cover
    if f.type_id == "swamp" and rulings.reads("A11", "A"):
        return "light"
    return cover


def blockers_between(bf: Battlefield, viewer: Piece, target: Piece) -> list[Feature]:
    """Blocking features that may break this sight line: one holding either centre never does (A10, option B)."""
    if bf.rulings.reads("A10", "A"):
        return list(bf.blocking_features)
    return [
        f for f in bf.blocking_features
        if not f.holds(viewer.x, viewer.y) and not f.holds(target.x, target.y)
    ]


def line_of_sight(bf: Battlefield, viewer: Piece, target: Piece) -> LineOfSight:
    why = Working()
    blockers = blockers_between(bf, viewer, target)
    for f in bf.blocking_features:
        if f not in blockers:
            who = viewer.id if f.holds(viewer.x, viewer.y) else target.id
            why.add(f"{f.id} does not block: {who} stands on it", bf.rulings.label("A10"))
    if bf.rulings.reads("A9", "A"):
        hiders = segment_crosses(viewer, target, blockers)
        fraction = 1.0 if hiders else 0.0
        visible = not hiders
        if hiders:
            why.add(f"the closest-points line crosses blocking terrain ({', '.join(hiders)}): no line of sight", bf.rulings.label("A9"))
        else:
            why.add("the closest-points line crosses no blocking terrain: line of sight", bf.rulings.label("A9"))
        return LineOfSight(visible, fraction, hiders, why.freeze())
    hidden = hidden_fraction(viewer, target, blockers)
    visible = not more_than(hidden.fraction, 0.5)
    pct = f"{hidden.fraction * 100:.1f} %"
    if hidden.fraction <= 0:
        why.add(f"no blocking terrain hides {target.id} from {viewer.id}'s closest point: line of sight", "A9")
    elif visible:
        why.add(
            f"{pct} of {target.id}'s base is hidden by {', '.join(hidden.hiders)}; at least half is visible: line of sight",
            "p.~6", "A9", "A58" if abs(hidden.fraction - 0.5) <= 1e-6 else "",
        )
    else:
        why.add(
            f"{pct} of {target.id}'s base is hidden by {', '.join(hidden.hiders)}; more than half obscured: no line of sight",
            "p.24", "A9",
        )
    return LineOfSight(visible, hidden.fraction, hidden.hiders if not visible else (), why.freeze())


def cover_of(bf: Battlefield, piece: Piece) -> tuple[str, Feature | None]:
    """The cover a piece is in: that of the best feature holding its base centre (p.~6, p.24)."""
    best, where = "none", None
    drone = piece.is_drone
    for f in bf.features:
        if f.blocking:
            continue
        c = feature_cover(f, drone, bf.rulings)
        if COVER_BANDS[c] > COVER_BANDS[best] and f.holds(piece.x, piece.y):
            best, where = c, f
    return best, where


def cover(bf: Battlefield, viewer: Piece, target: Piece, los: LineOfSight | None = None) -> CoverResult:
    """The target's cover against the viewer and each intervening feature (A6 per feature, A7 own wood, A8 shooter)."""
    rules = bf.rulings
    why = Working()
    los = los or line_of_sight(bf, viewer, target)
    why.extend(los.explain)
    target_cover, home = cover_of(bf, target)
    if home is not None:
        why.add(f"{target.id}'s centre is in {home.id} ({home.ttype.name}): {target_cover} cover", "p.24")
        if home.type_id == "marsh" or (home.type_id == "swamp" and target_cover != "none"):
            why.add(f"{home.ttype.name} counts as Light cover", rules.label("A11"))
    else:
        swampy = [f.id for f in bf.features if f.type_id == "swamp" and f.holds(target.x, target.y)]
        if swampy:
            why.add(f"{target.id} is in swamp ({', '.join(swampy)}): swamps give no cover", rules.label("A11"))
        else:
            why.add(f"{target.id}'s centre is in the open: no cover", "p.24")

    found, heavy_blocked = intervening(bf, viewer, target, why)
    if not found:
        # Nothing on the line measured: which line that is is a ruling's (A6), so the answer names it too.
        why.add("no cover intervenes", "p.24", rules.label("A6"))
    penalty = sum(i.penalty for i in found)
    blocked = (not los.visible) or heavy_blocked
    return CoverResult(target_cover, home.id if home else None, tuple(found), penalty, los, blocked, why.freeze())


def intervening(bf: Battlefield, viewer: Piece, target: Piece,
                why: Working | None = None) -> tuple[list[Intervening], bool]:
    """The features intervening between ``viewer`` and ``target`` (A6 per feature, A7 own wood, A8 shooter), and
    whether Heavy cover blocks the line; each decision's working added to ``why`` when one is given (the whole-table
    engine asks for a knife-edge pair's figures without it: the wording costs more than the crossings)."""
    rules = bf.rulings
    limit = bf.distance(HEAVY_LIMIT)
    drone = target.is_drone
    if rules.reads("A6", "B"):
        start = viewer_point(viewer, target)
        end = (target.x, target.y)
        if why is not None:
            why.add("intervening terrain measured from the viewer's closest edge to the target's centre", rules.label("A6"))
    else:
        cp = closest_points(viewer.x, viewer.y, viewer.radius, target.x, target.y, target.radius)
        start, end = cp.start, cp.end
    found: list[Intervening] = []
    for c in crossings(start, end, [f for f in bf.features if not f.blocking]):
        f = c.feature
        kind = feature_cover(f, drone, rules)
        if kind == "none":
            continue
        own_target = f.holds(target.x, target.y)
        own_viewer = f.holds(viewer.x, viewer.y)
        if own_viewer and not own_target and rules.reads("A8", "B"):
            if why is not None:
                why.add(f"{f.id}: {viewer.id}'s own feature is ignored", rules.label("A8"))
            continue
        if kind == "light":
            if own_target:
                if why is not None:
                    why.add(f"{f.id}: the Light cover {target.id} is in does not also count as intervening", "p.24")
                continue
            found.append(Intervening(f.id, kind, c.length, 1, False))
            if why is not None:
                why.add(f"-1: {inches(c.length)} of Light {f.id} ({f.ttype.name}) intervenes", "p.24",
                        rules.label("A8") if own_viewer else "")
        else:
            if own_target and rules.reads("A7", "B"):
                if why is not None:
                    why.add(f"{f.id}: the target's own Heavy feature is not intervening", rules.label("A7"))
                continue
            blocks = rules.reads("A6", "A") and more_than(c.length, limit)
            found.append(Intervening(f.id, kind, c.length, 2, blocks))
            if why is not None:
                cite = [rules.label("A6")]
                if own_target:
                    cite.append(rules.label("A7"))
                if own_viewer:
                    cite.append(rules.label("A8"))
                if blocks:
                    why.add(f"{inches(c.length)} of Heavy {f.id} ({f.ttype.name}) intervenes, more than {inches(limit)}: blocked", "p.19", "p.24", *cite)
                else:
                    why.add(f"-2: {inches(c.length)} of Heavy {f.id} ({f.ttype.name}) intervenes, up to {inches(limit)}", "p.24", *cite)
    heavy_blocked = any(i.blocks for i in found)
    if rules.reads("A6", "B"):
        total = sum(i.length for i in found if i.cover == "heavy")
        if more_than(total, limit):
            heavy_blocked = True
            if why is not None:
                why.add(f"{inches(total)} of Heavy cover in all, more than {inches(limit)}: blocked", "p.24", rules.label("A6"))
    return found, heavy_blocked
