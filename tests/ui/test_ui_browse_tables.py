"""Browse… for a table opens on the user's own tables once there are any (the editor's start and the menu), and on
the bundled ones before."""

from pathlib import Path

from referee import paths
from referee.ui.scenes.editor_start import EditorStartScene
from referee.ui.scenes.menu import MenuScene


def test_browse_opens_the_users_own_tables(fresh):
    start = fresh.push(EditorStartScene())
    fresh.step(1 / 30, events=[])
    start._browse()
    assert Path(start.dialog.current_directory_path).resolve() == paths.SCENARIO_DIR.resolve()
    start.dialog.kill()
    own = paths.user_tables_dir()
    own.mkdir(parents=True)
    (own / "my-table.toml").write_text((paths.DEFAULT_SCENARIO).read_text())
    start._browse()
    assert Path(start.dialog.current_directory_path).resolve() == own.resolve()
    start.dialog.kill()
    fresh.pop()
    menu = fresh.push(MenuScene())
    fresh.step(1 / 30, events=[])
    menu.open_dialog()
    assert Path(menu.dialog.current_directory_path).resolve() == own.resolve()
