"""What the window reads before it opens: the scale, the theme and the player's own keys (``preferences.py``)."""

from __future__ import annotations

from . import keys, preferences, scale, theme


def window_preferences(scale_arg: float | None, theme_arg: str | None,
                       screenshot: bool = False) -> tuple[float, list[str]]:
    """The scale to open at (the command line's, else the remembered one, else the first guess; screenshots 100 %
    unless asked), with the theme applied and the keys moved; the settings file's problems come back as sentences,
    never as a reason not to open."""
    prefs = preferences.load()
    problems = list(prefs.problems)
    theme.apply(theme_arg or prefs.theme)
    if prefs.keys:          # checking the names imports every scene: only when there is something to move
        problems += keys.remap(prefs.keys, all_key_tables())
    if scale_arg is not None:
        return scale_arg, problems
    if screenshot:
        return 1.0, problems
    if prefs.scale is not None:
        return prefs.scale, problems
    found = scale.screen()
    return scale.first_guess(found.pixels, found.dpi), problems


SCREEN_SHARE = 0.95         # of the desktop, for a window that must grow to show the scale chosen


def window_size(default: tuple[int, int], ui_scale: float) -> tuple[int, int]:
    """``default``, or nearly the whole screen when ``default`` has no room for ``ui_scale`` (a 250 % guess on a
    laptop would otherwise open at 200 %)."""
    if scale.fitted(ui_scale, default) >= ui_scale:
        return default
    desktop = scale.screen().pixels
    return (max(default[0], int(desktop[0] * SCREEN_SHARE)), max(default[1], int(desktop[1] * SCREEN_SHARE)))


def all_key_tables() -> list[keys.KeyTable]:
    """Every scene's key table, to check the names a settings file moves."""
    # lazy: every scene's module loads only when the key tables are all asked for
    from . import registry

    tables = [keys.WINDOW_KEYS]
    for name in registry.SCENES:
        table = getattr(registry.scene_class(name), "key_table", ())
        if table:
            tables.append(table)
    return tables
