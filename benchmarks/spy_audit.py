"""The adversarial leak audit on many seeded battles (issues 11 and 32).

* **Token spy** (issue 11): how well a spy that sees only side A's outputs tells B's real blips from decoys, guesses
  whether B's force is larger than usual and which half of its missions B drew, as the area under its ROC curve
  (0.5: chance). The same battles are watched through a view with planted leaks, which the spy must find.
* **Dice foreseen** (issue 32): with the seed typed at set-up, a save made mid-turn and ``replay SAVE --do``, the next
  action's dice foretold three ways and compared with those rolled (``tests/foresee.py``); one face in six matches by
  chance.
* **Tampering caught**: four kinds of edit of a save (a blip's contents swapped, the mission, a card, the dice seed),
  each in several battles, and whether loading flags it (``tests/test_tamper.py``); the fingerprint's bits.
* **Re-deal differential**: B's secrets dealt again as side A cannot tell; any output side A gets that changes is a
  leak (``tests/redeal.py``); a planted position leak (real blips 0.004" off) must be caught in every state.

* **Files**: a spy playing side A, with A's PIN and read access to every file the program wrote (saves, autosaves,
  journals, kept copies, temporary files, the campaign's battle saves), counts B's secrets it can read, over
  battles sealed for their players and, as a control, the same battles written in clear (as before format 5).
* **Files by e-mail** (``seven-seconds mail``): battles played to their score by two computers sending one file
  back and forth; every file either side held is searched for the other side's secrets (its dice contribution, its
  cards' salt, each square's salt) before the file's own record opened them.
* **Crashes**: a kill before each durable step of the saves (``tests/crash_points.py``): acknowledged actions lost
  and battles refused.

Run ``python -m benchmarks.spy_audit`` (``--quick`` for a short run, ``--json`` for one JSON object on the last
line)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee import paths
from referee.game.records.record import read_save, save_game
from referee.game.views.view import player_view
from referee.game.views.view_words import FINGERPRINT_HEX
from tests.crash_points import kill_points, recover
from tests.file_spy import killed_while_writing, play_battle, spy_on
from tests.foresee import WAYS, foresee
from tests.redeal import differential, shifted_view
from tests.spy import observe, planted_leak, spy
from tests.test_net_kept import FACTIONS
from tests.test_net_mail import play_by_mail, unopened_secrets_in
from tests.test_tamper import EDITS, edited, keyed_battle


def token_spy(battles: int, steps: int) -> dict[str, Any]:
    pairs = [observe(seed, steps, (player_view, planted_leak)) for seed in range(battles)]
    clean, leaky = spy([q[0] for q in pairs]), spy([q[1] for q in pairs])
    return {"battles": battles, "blips_scored": sum(len(q[0].blips) for q in pairs[len(pairs) // 2:]),
            "clean": {"blips": clean.blips, "force": clean.force, "mission": clean.mission},
            "planted": {"blips": leaky.blips, "force": leaky.force, "mission": leaky.mission}}


def dice_foreseen(battles: int, actions: int, total: int | None = None) -> dict[str, Any]:
    seen = foresee(battles, actions, total=total)
    return {"battles": battles, "actions": seen.actions, "whole_by_chance": round(seen.whole_chance, 2),
            "ways": {way: {"dice": seen.dice[way], "matched": seen.matched[way], "rate": round(seen.rate(way), 3),
                           "p_value": round(seen.p_value(way), 4), "above_chance": seen.above_chance(way),
                           "whole_actions": seen.whole[way]} for way in WAYS}}


def tampering(battles: int) -> dict[str, Any]:
    caught: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, (edit, words) in sorted(EDITS.items()):
            caught[kind] = 0
            for seed in range(1, battles + 1):
                game, dice = keyed_battle(seed)
                path = save_game(game, Path(tmp) / f"{kind}-{seed}.json", dice)
                edited(path, edit)
                caught[kind] += any(words in line for line in read_save(path).game.tampered)
    return {"battles": battles, "caught": caught, "fingerprint_bits": FINGERPRINT_HEX * 4}


def redeal(states: int) -> dict[str, Any]:
    clean, leaky = differential(player_view, states), differential(shifted_view, states)
    return {"states": states,
            "clean": {"differed": clean.differed, "timed_apart": clean.timed_apart, "by_output": clean.by_output},
            "planted_position_leak": {"caught": leaky.differed, "by_output": leaky.by_output}}


def files(battles: int, actions: int, sealed: bool) -> dict[str, object]:
    """``battles`` battles played one after another in one saves folder (each new one sets the last aside), each
    saved by hand too; then the spy reads every file."""
    home = Path(tempfile.mkdtemp(prefix="spy-files-"))
    os.environ["SEVEN_SECONDS_HOME"] = str(home)
    try:
        pins: dict[str, str] = {}
        for seed in range(battles):
            session = play_battle(seed, actions, sealed=sealed)
            if session.game.keys is not None:
                pins[session.game.keys.battle] = session.game.keys.pins["A"]
            session.save(paths.saves_dir() / f"battle-{seed}.json")
            if seed % 10 == 0 and hasattr(os, "fork"):
                killed_while_writing(session, paths.saves_dir() / f"killed-{seed}.json")    # a .tmp left behind
        found = spy_on([paths.saves_dir()], pins)
        return {"battles": battles, "files read": found.files, "bytes read": found.bytes,
                "secrets recovered": found.total, "by kind": dict(sorted(found.secrets.items()))}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def files_by_mail(battles: int) -> dict[str, object]:
    """``battles`` battles by e-mail on the default table, each played to its score between two computers' folders;
    every file a side held is searched for the other side's secrets not yet opened by the file's own record."""
    # Lazy: the network host loads for this attack only.
    from referee.net.mail import new_mail_battle
    from referee.rules.scenario import load_scenario

    home = Path(tempfile.mkdtemp(prefix="spy-mail-"))
    os.environ["SEVEN_SECONDS_HOME"] = str(home)
    try:
        texts_read = bytes_read = secrets = recovered = trips = 0
        for n in range(battles):
            path = home / f"battle-{n}.json"
            new_mail_battle(load_scenario(paths.DEFAULT_SCENARIO), FACTIONS, path)
            disks = {"A": home / f"a-{n}", "B": home / f"b-{n}"}
            texts: list[str] = []

            def received(trip: int, side: str, texts: list[str] = texts, path: Path = path) -> None:
                texts.append(path.read_text("utf-8"))          # the file as the side about to open it holds it

            trips += len(play_by_mail(path, disks, each=received))
            texts.append(path.read_text("utf-8"))
            texts_read += len(texts)
            bytes_read += sum(len(t.encode("utf-8")) for t in texts)
            for side in ("A", "B"):
                count, leaked = unopened_secrets_in(texts, disks, side)
                secrets += count
                recovered += len(leaked)
        return {"battles": battles, "trips": trips, "files read": texts_read, "bytes read": bytes_read,
                "secrets": secrets, "secrets recovered": recovered}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def crashes() -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="spy-crash-"))
    os.environ["SEVEN_SECONDS_HOME"] = str(home / "home")
    try:
        run, points = kill_points([paths.saves_dir(), home / "campaign"], home / "copies")
        outcomes = [recover(p, run.pins) for p in points]
        return {"kill points": len(points), "acknowledged actions": sum(len(r) for r in run.acknowledged.values()),
                "actions lost": sum(o.lost for o in outcomes), "battles refused": sum(len(o.refused) for o in outcomes)}
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.spy_audit")
    p.add_argument("--battles", type=int, default=200, help="battles the token spy watches")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--quick", action="store_true", help="a short run: a check that every attack runs")
    p.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = p.parse_args(argv)
    quick = args.quick
    started = time.process_time()
    out = {
        "token_spy": token_spy(20 if quick else args.battles, 10 if quick else args.steps),
        # 100 actions that roll, in as many battles as it takes (issue 32's measure).
        "dice_foreseen": dice_foreseen(1, 10) if quick else dice_foreseen(20, 25, total=100),
        "tampering": tampering(1 if quick else 4),
        "redeal": redeal(5 if quick else 20),
        "files_sealed": files(10 if quick else 50, 40, sealed=True),
        "files_in_clear": files(3 if quick else 10, 40, sealed=False),
        "files_by_mail": files_by_mail(1 if quick else 5),
        "crashes": crashes(),
    }
    out["cpu_seconds"] = round(time.process_time() - started, 1)
    t, d, k, r = out["token_spy"], out["dice_foreseen"], out["tampering"], out["redeal"]
    print(f"spy audit{' (quick)' if quick else ''}, {out['cpu_seconds']:.0f} s CPU")
    print(f"token spy, {t['battles']} seeded battles ({t['blips_scored']} of B's blips scored); ROC AUC, 0.5 is "
          "chance:")
    for name in ("clean", "planted"):
        s = t[name]
        print(f"  {'as the program shows it' if name == 'clean' else 'with planted leaks':24s} real blips "
              f"{s['blips']:.3f}, force size {s['force']:.3f}, mission {s['mission']:.3f}")
    print(f"dice foreseen, {d['actions']} actions that rolled in {d['battles']} battles (a blind guess foretells "
          f"{d['whole_by_chance']} whole actions; one face in six):")
    for way, w in d["ways"].items():
        print(f"  {way:12s} {w['matched']} of {w['dice']} faces ({w['rate']:.3f}), {w['whole_actions']} whole actions; "
              f"{'ABOVE chance' if w['above_chance'] else 'not above chance'} (p = {w['p_value']})")
    print(f"tampering caught, of {k['battles']} battles each: "
          + ", ".join(f"{kind} {n}/{k['battles']}" for kind, n in k["caught"].items())
          + f"; fingerprint {k['fingerprint_bits']} bits")
    print(f"re-deal differential, {r['states']} states: outputs changed by B's deal "
          f"{r['clean']['differed']}/{r['states']} (timing buckets apart {r['clean']['timed_apart']}); planted "
          f"position leak caught {r['planted_position_leak']['caught']}/{r['states']}")
    for name in ("files_sealed", "files_in_clear"):
        f = out[name]
        print(f"{name.replace('_', ', ', 1).replace('_', ' ')}: side A's spy read {f['files read']} files "
              f"({f['bytes read']} bytes) of {f['battles']} battles: {f['secrets recovered']} of B's secrets "
              f"recovered {f['by kind'] or ''}".rstrip())
    m = out["files_by_mail"]
    print(f"files by e-mail: {m['battles']} battles played to their score in {m['trips']} trips; each side's spy read "
          f"the {m['files read']} files ({m['bytes read']} bytes): {m['secrets recovered']} of the other side's "
          f"{m['secrets']} secrets recovered before they were opened")
    c = out["crashes"]
    print(f"crashes: {c['kill points']} kill points over {c['acknowledged actions']} acknowledged actions: "
          f"{c['actions lost']} lost, {c['battles refused']} battles refused")
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
