"""The key of a faction sheet: each unit type's kit and abilities in a line, as the catalogue gives them (the PNG and
the PDF sheet print the same words)."""

from __future__ import annotations

from ..rules.catalogue import unit_types
from ..rules.stats import STAT_SHORT


def unit_key_entries() -> list[tuple[str, str]]:
    """Each unit type's kit and abilities in a line, as the catalogue gives them."""
    types = unit_types()
    entries = []
    for t in types.troopers.values():
        kit = [("Plasma" if t.rifle == "plasma" else "Gauss") + " rifle", "flamer",
               "missiles" if t.missile else "no missiles"]
        if t.jump:
            kit.append("jump")
        special = [" ".join(f"{v:+d} {STAT_SHORT[s]}" for s, v in t.modifiers.items())] if t.modifiers else []
        if t.double_rifle_bands:
            special.append("double range bands when firing rifles")
        if t.double_target_bands:
            special.append("double range bands when Targeting")
        if t.command == "any":
            special.append("Commands any friendly unit")
        elif t.command == "drones":
            special.append("Commands drones")
        if t.repair:
            special.append("Repairs troopers")
        extra = "; ".join(special)
        entries.append((t.name, ", ".join(kit) + (". " + extra[:1].upper() + extra[1:] + "." if extra else ".")))
    drone_names = ", ".join(d.name.replace(" drone", "") for d in types.drones.values())
    entries.append(("Drones", f"{drone_names}: one action each; Robotics is every drone stat."))
    return entries
