"""What a player asks of the battle and what it is told back, as plain values that hold no battle state.

``Action`` is one action in the game's words (the form a save records, ``docs/actions.md``); ``LegalAction`` is an
action a side may take now with the parameters it still chooses; ``Preview`` is the engine's word on an action before
any die or reveal. The engine makes them; the service hands them to its clients (the window, the command line, the
computer), which hold nothing else of the battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .action_kinds import AT_A_TARGET, TO_A_POINT, Kind
from .dice import RollRequest


@dataclass(frozen=True, slots=True)
class Action:
    """One action in the game's words: ``kind`` from the Action Table, the acting unit, and its arguments."""

    kind: str
    actor: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "actor": self.actor, "args": dict(self.args)}

    @staticmethod
    def from_data(d: dict[str, Any]) -> "Action":
        return Action(d["kind"], d.get("actor", ""), dict(d.get("args", {})))

    def text(self) -> str:
        a = self.args
        parts = [self.kind] + ([self.actor] if self.actor else [])
        if self.kind in TO_A_POINT:
            parts += [f"{a['x']:g}", f"{a['y']:g}"]
            for v in a.get("via", []):
                parts += ["--via", f"{v[0]:g}", f"{v[1]:g}"]
            if a.get("target"):
                parts += ["--target", a["target"]]
            if a.get("jump"):
                parts.append("--jump")
        elif self.kind == Kind.SENSOR_POOL:
            parts.append(f"--dice-count {a.get('dice')}")
        elif self.kind == Kind.TARGET:
            parts += [f"--dice-count {a['dice']}"] + [f"--assign {k}={v}" for k, v in a.get("assign", {}).items()]
            if a.get("up_to"):
                parts.append("--up-to")
        elif self.kind in AT_A_TARGET:
            parts.append(a["target"])
        elif self.kind in (Kind.REVEAL, Kind.FACE) and a.get("facing") is not None:
            parts += ["--facing", f"{a['facing']:g}"]
        elif self.kind == Kind.END_OF_ROUND:
            parts += [f"{k}={v}" for k, v in a.items()]
        elif self.kind in (Kind.PLACE_OBJECTIVE, Kind.PLACE_BLIP, Kind.CHOOSE_EDGE):
            # Only what the table shows: a blip's square stays secret (A59).
            if a.get("objective"):
                parts.append(str(a["objective"]))
            if "x" in a and "y" in a:
                parts += [f"{a['x']:g}", f"{a['y']:g}"]
            if "turn" in a:
                parts.append("--turn" if a["turn"] else "--keep")
        return " ".join(parts)


@dataclass(frozen=True)
class LegalAction:
    kind: str
    actor: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    free: dict[str, Any] = field(default_factory=dict)

    def action(self, **chosen: Any) -> Action:
        """The action with its free parameters chosen."""
        return Action(self.kind, self.actor, {**self.args, **chosen})

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "actor": self.actor, "args": dict(self.args)}
        if self.free:
            data["free"] = self.free
        return data


@dataclass(frozen=True)
class Preview:
    """The engine's word on ``action`` before any die: legal or the rule that forbids it, and its figures."""

    action: Action
    legal: bool
    reason: str = ""
    figures: dict[str, Any] = field(default_factory=dict)
    first_roll: RollRequest | None = None
    explain: tuple[str, ...] = ()
    # The blip whose reveal the preview stopped at (a Move into passive sensor range, counters on a blip): only its
    # id, which the table shows; what it holds is known once the action is taken.
    reveals: str | None = None
    needs_contents: str | None = None                # a blip to reveal whose contents were never told

    def to_data(self) -> dict[str, Any]:
        data = {"action": self.action.to_data(), "legal": self.legal, "figures": self.figures}
        if not self.legal:
            data["reason"] = self.reason
        if self.first_roll is not None:
            data["first_roll"] = self.first_roll.describe()
        if self.reveals is not None:
            data["reveals"] = self.reveals
        return data
