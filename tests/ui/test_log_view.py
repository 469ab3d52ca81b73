"""The log panel renders only the lines it shows, into one picture of its own, and leaves the shared text cache to
everything else: a long battle's log grows as text, never as rendered lines."""

import pygame

from referee.ui import log_view, panels, theme, widgets
from referee.ui.log_view import LogBody

RECT = pygame.Rect(0, 0, 440, 240)


def long_log(n: int) -> list[tuple[str, bool]]:
    return [(f"[round {i // 10 + 1}] entry {i}" if i % 3 == 0 else f"    working of entry {i}", i % 3 == 0)
            for i in range(n)]


class CountingFont:
    """A font that counts the lines it renders."""

    def __init__(self, font: pygame.font.Font) -> None:
        self.font, self.rendered = font, []

    def render(self, text, *args):
        self.rendered.append(text)
        return self.font.render(text, *args)

    def get_linesize(self) -> int:
        return self.font.get_linesize()


def drawn_by_hand(lines, body: pygame.Rect, x: int) -> pygame.Surface:
    """The body as the log panel drew it line by line before it kept a picture of it."""
    out = pygame.Surface(body.size)
    out.fill(panels.LOG_BACKGROUND)
    lh = theme.font(panels.SMALL).get_linesize()
    for i, (text, heading) in enumerate(lines):
        if text:
            img = theme.font(panels.SMALL).render(text, True, theme.TEXT if heading else theme.TEXT_DIM)
            out.blit(img, (x - body.x, i * lh))
    return out


def test_only_the_visible_lines_are_rendered_and_only_when_they_change(app, monkeypatch):
    font = CountingFont(theme.font(panels.SMALL))
    monkeypatch.setattr(log_view.theme, "font", lambda size, bold=False: font)
    body = LogBody()
    surface = pygame.Surface(RECT.size)
    lines = long_log(10_000)
    visible = RECT.h // font.get_linesize() + 1
    body.draw(surface, RECT, lines[9_980:], 12, panels.SMALL, panels.LOG_BACKGROUND)
    assert font.rendered == [t for t, _ in lines[9_980:9_980 + visible]]
    for _ in range(5):                              # the frames that follow copy the picture
        body.draw(surface, RECT, lines[9_980:], 12, panels.SMALL, panels.LOG_BACKGROUND)
    assert len(font.rendered) == visible
    body.draw(surface, RECT, lines[9_981:], 12, panels.SMALL, panels.LOG_BACKGROUND)     # scrolled by one line
    assert len(font.rendered) == 2 * visible


def test_the_picture_shows_what_drawing_each_line_showed(app):
    lines = long_log(50)[7:]
    body = pygame.Rect(30, 40, 300, 150)
    surface = pygame.Surface((400, 240))
    surface.fill((200, 0, 0))
    LogBody().draw(surface, body, lines, 42, panels.SMALL, panels.LOG_BACKGROUND)
    expected = drawn_by_hand(lines[:body.h // theme.font(panels.SMALL).get_linesize() + 1], body, 42)
    got = surface.subsurface(body)
    assert all(got.get_at((x, y)) == expected.get_at((x, y)) for x in range(0, body.w, 3) for y in range(body.h))
    assert surface.get_at((body.x - 1, body.y)) == (200, 0, 0)          # nothing drawn outside the body
    assert surface.get_at((body.x, body.bottom)) == (200, 0, 0)


def test_scrolling_a_long_log_leaves_the_text_cache_alone(app):
    lines = long_log(3_000)
    widgets.text_surface.cache_clear()
    surface = pygame.Surface(RECT.size)
    for scroll in range(0, 3_000, 7):
        panels.draw_log(surface, RECT, "Battle log (as side A sees it)", lines, scroll)
    cached = {key[0] for key in widgets.text_surface._items}
    assert not cached & {t for t, _ in lines}       # the title and the line counter only
    assert "Battle log (as side A sees it)" in cached
