"""A blip's Move weighed without looking at what it holds, so that how a blip moves never tells a decoy.

The opponent watches every blip: which are activated, as a turn's primary or a free extra blip activation, how far
they go and whether toward him or an objective. Weighed on what it really holds, a decoy gained nothing from any
Move (an empty counter holds no objective and shoots no one), so the computer moved its decoys seldom, at random and
nowhere in particular, and its real blips with purpose: a player across the table could pick out the real ones.

So a blip of its own that stays hidden is weighed as the opponent must see it: in an imagined world where each of
its blips on the table holds the same stand-in (one trooper of its side's commonest kind), decoy or not, and none is
revealed. Which blip it activates, as a primary or an extra blip activation, and where the blip goes then read
nothing of what any blip holds: shuffle the contents among its blips and the same blips move the same way. Only the
decision to reveal a blip of units looks at them, and a reveal shows them to everyone anyway. A decoy in its own
activation is revealed where a blip holding the stand-in would be (``Computer._decoy_shown``), so that the blips a
turn's activation leaves hidden are no likelier decoys than the rest.
"""

from __future__ import annotations

import copy
from collections import Counter

from ...battle.state import Data


def stand_in(view: Data, me: str) -> list[Data]:
    """What every hidden blip of ``me`` is weighed as holding: one unit of the commonest trooper kind of its force
    (on the table and in the holding area, the Commander left out), of the side's faction and rating."""
    pieces = [u for u in view["units"] if u["side"] == me]
    for contents in (view.get("holding", {}).get(me) or {}).values():
        pieces.extend(contents or [])
    troopers = [p for p in pieces if not str(p["type"]).endswith("-drone")]
    kinds = Counter(p["type"] for p in troopers if p["type"] != "commander") or Counter(p["type"] for p in troopers)
    if not kinds:
        kinds = Counter(p["type"] for p in pieces)
    if not kinds:
        return []
    kind = min(kinds, key=lambda k: (-kinds[k], k))
    model = min((p for p in pieces if p["type"] == kind), key=lambda p: p["id"])
    return [{"id": f"{me.lower()}-{kind}-stand-in", "side": me, "faction": model["faction"],
             "rating": model["rating"], "type": kind, "base": model.get("base", 1.0), "target_counters": 0,
             "damaged": False, "stunned": False, "jammer_on": False}]


def blind_view(view: Data, me: str) -> Data:
    """``view`` with every blip of ``me``'s on the table holding the stand-in in the holding area, and shown as
    holding nothing on its counter, so that no reveal is weighed: the same view whichever blips hold units."""
    out = dict(view)
    squares = [str(b["square"]) for b in view["blips"] if b["side"] == me and b.get("square") is not None]
    out["blips"] = [{**b, "contents": []} if b["side"] == me else b for b in view["blips"]]
    holding = copy.copy(view.get("holding") or {})
    own = dict(holding.get(me) or {})
    standing = stand_in(view, me)
    for n in squares:
        own[n] = standing
    holding[me] = own
    out["holding"] = holding
    return out


def hidden_own_blip(view: Data, me: str, ident: str | None) -> bool:
    return ident is not None and any(b["id"] == ident and b["side"] == me for b in view["blips"])
