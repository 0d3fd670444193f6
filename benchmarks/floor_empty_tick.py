#!/usr/bin/env python3
"""Stdlib lower bound of a tick with nothing due, whatever the store's size.

    python benchmarks/floor_empty_tick.py HOME

What `benchmarks/bench_scale.py` (figure 3, "empty tick") compares
`python -m hermes_cron --home HOME tick` with, time and peak RSS.  It does
only what any tick must do to know that nothing is due without parsing the
store:

1. exclusive flock on HOME/.tick.lock, non-blocking (exit 4 if it is held);
2. os.stat(HOME/jobs.json), to notice a hand edit;
3. read HOME/.floor_summary, a text file of a few hundred bytes that the
   benchmark writes (`jobs_json_size`, `jobs_json_mtime_ns`, `next_due`:
   epoch seconds of the earliest `next_run_at`, plus padding);
4. compare: the summary matches the stat and `next_due` is after now
   (HERMES_CRON_NOW when set, else the system clock);
5. write HOME/.floor_heartbeat via a temp file and rename (no fsync, as
   hermes_cron's heartbeat).

Prints "no jobs due" (exit 0), or "stale summary"/"due" (exit 1) when the
premise does not hold.  No json, no sqlite3.
"""

import fcntl
import os
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: python benchmarks/floor_empty_tick.py HOME", file=sys.stderr)
        return 2
    home = argv[1]
    fd = os.open(os.path.join(home, ".tick.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("floor_empty_tick: another tick holds .tick.lock", file=sys.stderr)
            return 4
        st = os.stat(os.path.join(home, "jobs.json"))
        with open(os.path.join(home, ".floor_summary"), "rb") as f:
            fields = dict(line.split(b"=", 1) for line in f.read().splitlines() if b"=" in line)
        if (int(fields[b"jobs_json_size"]) != st.st_size
                or int(fields[b"jobs_json_mtime_ns"]) != st.st_mtime_ns):
            print("stale summary")
            return 1
        pinned = os.environ.get("HERMES_CRON_NOW")
        if pinned:
            from datetime import datetime

            now = datetime.fromisoformat(pinned).timestamp()
        else:
            import time

            now = time.time()
        if int(fields[b"next_due"]) <= now:
            print("due")
            return 1
        path = os.path.join(home, ".floor_heartbeat")
        tmp = f"{path}.{os.getpid()}.tmp"
        hb = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(hb, f"{int(now)}\n".encode())
        finally:
            os.close(hb)
        os.replace(tmp, path)
    finally:
        os.close(fd)
    print("no jobs due")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
