"""A side that keeps its secrets, joined from the window: the host serves a new battle with ``kept_by=("A",)``, this
window joins side A's seat and fills its holding area by clicks as any joined window does; its seat sends the host
one commitment a square, the host holds every square of A's as unknown, and the window shows A's own squares and
blips from what its computer keeps."""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from referee.net.client import RemoteSeat  # noqa: E402
from referee.net.host import Host  # noqa: E402
from referee.ui.scenes.remote_battle import RemoteBattleScene  # noqa: E402
from referee.ui.scenes.remote_setup import RemoteSetupScene  # noqa: E402

from referee.ui.app import App  # noqa: E402
from referee.ui.joining import join  # noqa: E402
from referee.ui.scenes.dialogs import Dialog  # noqa: E402

from . import test_net_kept as net_kept  # noqa: E402
from .test_net_kept import PIN, fresh, set_up, to_the_end  # noqa: E402
from .test_net_kept_cards import kept_mission, small_kept_battle, target_delta, the_hosts_words  # noqa: E402

from .test_window_join_setup import (B_KINDS, clear, fill_holding_by_clicks, follow, free_point,  # noqa: E402
                                     joined, pastoral_host, press_button)


kept = net_kept.kept          # the same host, side B kept on its own computer (tests/test_net_kept.py)


@pytest.fixture(scope="module")
def app():
    a = App((1100, 720))
    yield a
    pygame.quit()


@pytest.fixture
def kept_a():
    host, session = pastoral_host(kept_by=("A",))
    yield host, session
    host.stop()


def test_a_joined_window_keeps_its_sides_holding_area_and_shows_it_to_its_side(app, kept_a, tmp_path):
    host, session = kept_a
    scene = joined(app, host.link("A"))
    other = RemoteSeat(host.link("B"))
    battle = scene.battle
    holding_a: dict[str, list[str]] = {}
    try:
        for _ in range(200):
            if not isinstance(app.scene, RemoteSetupScene):
                break
            d = scene.decision()
            step, side = d["step"], d["side"]
            if side == "B":
                assert other.act(B_KINDS[step], "B")["ok"]
                follow(app, scene, host)
                continue
            if step == "roles":
                press_button(app, scene, "roll")
            elif step == "edge":
                press_button(app, scene, "keep")
            elif step == "objective":
                x, y = free_point(scene)
                assert scene.place_at(x, y), scene.message
            elif step == "cards":
                press_button(app, scene, "draw")
                app.scene.choose("ok")
            elif step == "holding":
                holding_a = fill_holding_by_clicks(app, scene)
            else:
                press_button(app, scene, "rest")
            app.step(1 / 30, events=[])
        assert isinstance(app.scene, RemoteBattleScene) and holding_a
        keeper = battle.seat.keeper
        assert keeper is not None and keeper.side == "A"
        # The host: commitments only, every square of A's unknown.
        with host.lock:
            assert sorted(session.state.square_commitments) == ["A"]
            assert all(c is None for c in session.state.holding["A"].squares.values())
        # The window: A's squares as it filled them by clicks, from what its computer keeps.
        battle.seat.wait_version(host.version)
        app.step(1 / 30, events=[])
        shown = battle.view()["holding"]["A"]
        assert {n: sorted(u["id"] for u in units) for n, units in shown.items() if units} == \
            {n: sorted(units) for n, units in holding_a.items()}
        mine = [b for b in battle.view()["blips"] if b["side"] == "A"]
        assert mine and all(b["contents"] is not None for b in mine)
        pygame.image.save(app.screen, str(tmp_path / "joined-kept-round-one.png"))
    finally:
        other.close()
        clear(app)


def test_a_joined_window_may_claim_the_battle_from_a_kept_side_whose_computer_stays_away(app, kept):
    session, host, seats, b_disk = kept
    # B's computer opens nothing by itself, then goes away while the battle waits for its squares at the end.
    seats["B"] = b = RemoteSeat(host.link("B"), answers=False, pins={"B": PIN}, kept_folder=b_disk)
    set_up(session, host, seats)
    to_the_end(session, host, seats)
    b.close()
    seats["A"].wait_for(lambda s: (s.get("waits_for_computer") or {}).get("away") is True)
    with host.lock:
        host.desk.away_limit = 0.0           # as though B had been away long enough
    joined_a = join(app, host.link("A"))
    assert not isinstance(joined_a, str), joined_a
    try:
        assert "side B's device to open its square (it is away)" in joined_a.banner_text()
        dialog = app.scene
        assert isinstance(dialog, Dialog) and [k for k, _ in dialog.choices] == ["claim", "wait"], dialog
        assert "has been away too long" in " ".join(dialog.text_lines())
        dialog.choose("claim")
        with host.lock:
            result = session.state.result
        assert result is not None and result.level == "forfeited" and result.winner == "A"
    finally:
        joined_a.battle.close()


def test_a_joined_window_of_the_kept_side_shows_its_own_missions_word_on_an_objective(app, tmp_path):
    # The small table, side B kept and joined from this window: A's Target brings delta to the 10 Target counters
    # B's mission counts it Inspected from; B's computer says so in the window's log, the host holds nothing of it.
    session = small_kept_battle()
    host = Host.start(session, bind="127.0.0.1", kept_by=("B",))
    a = RemoteSeat(host.link("A"))
    clear(app)
    scene = join(app, host.link("B"), pins={"B": PIN})
    assert isinstance(scene, RemoteBattleScene), scene
    try:
        keeper = scene.battle.seat.kept()
        assert keeper is not None
        kept_mission(keeper, "counter-intelligence")
        target_delta(a)
        follow(app, scene, host)
        words = the_hosts_words("counter-intelligence", "B")
        assert f"[round 1] 3 Target counters on delta at 4 each: 12 points  (only you: {words})" in list(
            scene.log_lines)
        # The log as the host serves it to B's seat (a window reading back its older entries) has no such note.
        entries = scene.battle.seat.ask("log")["result"]["entries"]
        assert entries and not [e for e in entries if e.get("note")]
        with host.lock:
            assert not [e for e in session.state.log if "B" in e.private]
        assert words not in json.dumps(fresh(a)) and words not in json.dumps(fresh(scene.battle.seat))
        pygame.image.save(app.screen, str(tmp_path / "joined-kept-inspected.png"))
    finally:
        a.close()
        scene.battle.close()
        clear(app)
        host.stop()
