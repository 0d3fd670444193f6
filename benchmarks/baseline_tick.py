#!/usr/bin/env python3
"""Minimal stdlib "tick": the floor hermes_cron's `tick` is compared with.

    python benchmarks/baseline_tick.py HOME

Takes an exclusive flock on HOME/.jobs.lock (non-blocking, retried for up to
30 s), loads HOME/jobs.json with json, counts the jobs whose `next_run_at`
(ISO 8601 with an offset) is at or before now, and prints that count.  "Now"
is HERMES_CRON_NOW when set (so it agrees with a pinned hermes_cron tick),
else the system clock.  Nothing else: no validation, no ledger, no writes.
"""

import fcntl
import json
import os
import sys
import time
from datetime import datetime, timezone


def main(argv):
    if len(argv) != 2:
        print("usage: python benchmarks/baseline_tick.py HOME", file=sys.stderr)
        return 2
    home = argv[1]
    pinned = os.environ.get("HERMES_CRON_NOW")
    now = datetime.fromisoformat(pinned) if pinned else datetime.now(timezone.utc)

    fd = os.open(os.path.join(home, ".jobs.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + 30.0
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    print("baseline_tick: .jobs.lock is busy", file=sys.stderr)
                    return 1
                time.sleep(0.05)
        try:
            with open(os.path.join(home, "jobs.json"), "rb") as f:
                jobs = json.load(f)["jobs"]
        except FileNotFoundError:
            jobs = []
        due = 0
        for job in jobs:
            next_run_at = job.get("next_run_at")
            if next_run_at and datetime.fromisoformat(next_run_at) <= now:
                due += 1
    finally:
        os.close(fd)  # releases the flock
    print(due)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
