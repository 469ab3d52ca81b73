"""The placement word under the pointer stays inside the table's area, however narrow a large-text window makes it
(it was 440 px wide whatever the area, and was drawn off the screen's left edge)."""

import pygame

from referee.ui.scenes.setup_drawing import hover_box, hover_width


def test_the_placement_word_stays_inside_a_narrow_table_area():
    for table in (pygame.Rect(0, 40, 415, 420), pygame.Rect(0, 40, 720, 760), pygame.Rect(10, 60, 300, 300)):
        width = hover_width(table)
        for mouse in ((table.left + 5, table.bottom - 5), (table.right - 5, table.bottom - 5), table.center):
            box = hover_box(mouse, table, width, 60)
            assert table.contains(box), (table, mouse, box)
