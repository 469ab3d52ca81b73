"""The battle served on the network (issue 31): how long an intent on a phone's hand takes to reach the other
clients as a new screen, and what an idle host costs.

Run ``python -m benchmarks.network`` (``--quick`` for a short run, ``--json`` for one JSON object on the last line).
The host runs in a process of its own on 127.0.0.1, serving a battle set up by the program in its first round, with
2 hands (sides A and B), 2 windows (each side's second client) and 20 spectators connected from this process. Each
intent (ten a second) is sent from the hand of the side to act; its latency is the time from sending it to the
moment the last of the other 23 clients holds the new screen (p50 and p95; goals 30 and 100 ms). Then every client
stays connected and nobody acts: the host's CPU time over that idle spell, as a share of one core (goal: under
50 %). Figures depend on the machine and its load: they are reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import re
import uuid
from pathlib import Path

VERSION = re.compile(r'"version":(\d+)}$')

GOAL_P50_MS, GOAL_P95_MS, GOAL_IDLE_CORE = 30.0, 100.0, 0.5
PACE = 0.1          # seconds between intents: ten a second, far above a table's pace, under the host's rate cap


def serve() -> None:
    """The host's process: a battle served on 127.0.0.1; its links as one JSON line; it stops when stdin closes."""
    from referee.net.host import Host
    from tests.net_support import battle_state, session_of

    host = Host.start(session_of(battle_state()), bind="127.0.0.1")
    print(json.dumps({seat: host.link(seat) for seat in ("A", "B", "spectator")}), flush=True)
    sys.stdin.read()
    host.stop()


def cpu_seconds(pid: int) -> float | None:
    """The user and system CPU time of process ``pid`` so far (Linux's /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watched:
    """A client that notes when each screen version reached it. A hand reads its screens (``RemoteSeat``); a window
    or a spectator here only notes the frame's arrival: read in this one process, 23 clients' JSON would measure this
    process's parsing, where each real client parses on its own machine."""

    def __init__(self, link: str, hand: bool = False) -> None:
        from referee.net.client import RemoteSeat, split_link

        self.arrived: dict[int, float] = {}
        self.lock = threading.Lock()
        self.seat = RemoteSeat(link, on_screen=self._screen) if hand else None
        if not hand:
            from websockets.sync.client import connect

            base, token = split_link(link)
            self.ws = connect(base.replace("http", "ws", 1) + "/ws", additional_headers={
                "Authorization": f"Bearer {token}"}).__enter__()
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()

    def _read(self) -> None:
        try:
            for frame in self.ws:
                found = VERSION.search(str(frame))
                if found:
                    self._screen(int(found.group(1)), {})
        except Exception:  # noqa: BLE001 (the connection closed at the end of the run)
            pass

    def _screen(self, version: int, screen: dict) -> None:
        with self.lock:
            self.arrived.setdefault(version, time.perf_counter())

    @property
    def version(self) -> int:
        with self.lock:
            return max(self.arrived, default=-1)

    def reached(self, version: int) -> float | None:
        with self.lock:
            return next((t for v, t in self.arrived.items() if v >= version), None)

    def close(self) -> None:
        if self.seat is not None:
            self.seat.close()
        else:
            self.ws.close()


def _seat(client: Watched):
    assert client.seat is not None
    return client.seat


def measure(intents: int, idle_s: float) -> dict[str, float | int | None]:
    from tests.net_support import next_action

    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "SEVEN_SECONDS_HOME": home}
        proc = subprocess.Popen([sys.executable, "-c", "from benchmarks.network import serve; serve()"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                                cwd=Path(__file__).resolve().parent.parent)
        try:
            assert proc.stdout is not None
            links = json.loads(proc.stdout.readline())
            hands = {side: Watched(links[side], hand=True) for side in ("A", "B")}
            windows = {side: Watched(links[side]) for side in ("A", "B")}
            spectators = [Watched(links["spectator"]) for _ in range(20)]
            everyone = [*hands.values(), *windows.values(), *spectators]
            latencies: list[float] = []
            to_hand: list[float] = []
            cpu_start = cpu_seconds(proc.pid)
            for _ in range(intents):
                side, action = next((s, a) for s in ("A", "B")
                                    if (a := next_action(_seat(hands[s]).wait_version(
                                        max(c.version for c in everyone)))))
                others = [c for c in everyone if c is not hands[side]]
                version = max(c.version for c in everyone) + 1          # the screen this intent makes
                if latencies:
                    time.sleep(PACE)
                start = time.perf_counter()
                reply = _seat(hands[side]).send({"kind": "action", "action": action}, ident=uuid.uuid4().hex)
                if not reply.get("ok"):
                    continue
                deadline = start + 10
                while any(c.reached(version) is None for c in others) and time.perf_counter() < deadline:
                    time.sleep(0.0005)
                latencies.append(max((c.reached(version) or deadline) - start for c in others))
                to_hand.append((hands["B" if side == "A" else "A"].reached(version) or deadline) - start)
            before = cpu_seconds(proc.pid)
            busy = None if before is None or cpu_start is None else before - cpu_start
            t0 = time.perf_counter()
            time.sleep(idle_s)
            after = cpu_seconds(proc.pid)
            wall = time.perf_counter() - t0
            for c in everyone:
                c.close()
        finally:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=30)
    ms = sorted(1000 * x for x in latencies)
    hand_ms = sorted(1000 * x for x in to_hand)
    idle = None if before is None or after is None else (after - before) / wall
    return {"intents": len(ms), "clients": len(everyone),
            "p50_ms": round(statistics.median(ms), 2) if ms else None,
            "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2) if ms else None,
            "max_ms": round(ms[-1], 2) if ms else None,
            "other_hand_p50_ms": round(statistics.median(hand_ms), 2) if hand_ms else None,
            "host_cpu_ms_per_intent": None if busy is None or not ms else round(1000 * busy / len(ms), 2),
            "load_average": round(os.getloadavg()[0], 1), "cores": os.cpu_count(),
            "idle_s": round(wall, 1), "idle_core_share": None if idle is None else round(idle, 4)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.network")
    p.add_argument("--quick", action="store_true", help="30 intents and 3 s idle (default 200 intents, 20 s idle)")
    p.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = p.parse_args(argv)
    figures = measure(30 if args.quick else 200, 3.0 if args.quick else 20.0)

    def verdict(value: float | int | None, goal: float) -> str:
        return "n/a" if value is None else ("PASS" if value <= goal else "MISS")

    print(f"network host on 127.0.0.1: {figures['clients']} clients (2 hands, 2 windows, 20 spectators)")
    print(f"  intent on a hand -> new screen on the 23 others, over {figures['intents']} intents: "
          f"p50 {figures['p50_ms']} ms ({verdict(figures['p50_ms'], GOAL_P50_MS)}, goal {GOAL_P50_MS:g}), "
          f"p95 {figures['p95_ms']} ms ({verdict(figures['p95_ms'], GOAL_P95_MS)}, goal {GOAL_P95_MS:g}), "
          f"max {figures['max_ms']} ms; to the other hand (its screen read) p50 {figures['other_hand_p50_ms']} ms")
    print(f"  the host's CPU time per intent (its screens for 24 clients included): "
          f"{figures['host_cpu_ms_per_intent']} ms; the machine's load average {figures['load_average']} on "
          f"{figures['cores']} cores")
    share = figures["idle_core_share"]
    print(f"  idle host over {figures['idle_s']} s: "
          f"{'n/a' if share is None else f'{100 * float(share):.2f} %'} of one core "
          f"({verdict(share, GOAL_IDLE_CORE)}, goal under {100 * GOAL_IDLE_CORE:g} %)")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
