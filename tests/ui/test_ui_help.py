"""The help overlay fits the window: at the smallest window (800 x 560) the referee's roughly 50 rows are all there,
over pages the arrows and the wheel turn, every line inside the box and the box inside the window."""

import pygame
import pytest

from referee.ui.app import App
from referee.ui import keys, panels
from referee.ui.registry import scene_class
from referee.ui.scenes.help import BOTTOM, TOP, HelpScene, _height, lay_out
from referee.ui.widgets import text_width


@pytest.fixture(scope="module")
def app():
    """The smallest window the program supports."""
    a = App((800, 560))
    yield a
    pygame.quit()


def referee_groups():
    return keys.help_groups(scene_class("referee").key_table)


@pytest.mark.parametrize("window", [(800, 560), (1024, 700), (1280, 800)])
@pytest.mark.parametrize("groups", [referee_groups, lambda: [*keys.help_groups(scene_class("table").key_table),
                                                             panels.LEGEND]])
def test_every_row_is_on_a_page_and_every_page_fits_the_window(fresh, window, groups):
    groups = groups()
    layout = lay_out(groups, window)
    w, h = window
    lines = [item for page in layout.pages for column in page for item in column]
    for _, rows in groups:
        for key, text in rows:
            at = next(i for i, item in enumerate(lines) if item.kind == "row" and item.key == key
                      and text.startswith(item.text))
            written = [lines[at].text]
            for item in lines[at + 1:]:
                if item.kind != "more":
                    break
                written.append(item.text.strip())
            assert " ".join(written) == text                             # the whole text, wrapped in order
    for page in layout.pages:
        assert len(page) * layout.col_w + 28 * (len(page) - 1) + 48 <= w - 40
        for column in page:
            assert sum(_height(i, layout.lh) + (10 if i.kind == "title" and n else 0)
                       for n, i in enumerate(column)) <= h - 40 - TOP - BOTTOM
            for item in column:
                if item.kind != "title":
                    assert text_width(item.text, layout.size) <= layout.col_w - layout.key_w


def test_the_smallest_window_turns_pages_and_any_other_key_closes(fresh):
    help_scene = HelpScene(referee_groups())
    fresh.push(help_scene)
    pages = help_scene.pages()
    assert pages >= 2
    shots = []
    for _ in range(pages):
        fresh.render()
        shots.append(pygame.image.tobytes(fresh.screen, "RGB"))
        fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    assert help_scene.page == pages - 1 and fresh.scene is help_scene and len(set(shots)) == pages
    fresh.dispatch(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    assert help_scene.page == pages - 2
    fresh.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a"))
    assert fresh.scene is not help_scene
