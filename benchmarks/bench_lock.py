#!/usr/bin/env python3
"""Benchmark the `.jobs.lock` wait: `_wait_for_flock` (a helper thread blocked in
`flock`) against `_poll_flock` (non-blocking `flock` with a 1 ms..50 ms backoff).

Issue 21 ("The shape", 4): use polling alone for the lock if the helper thread
in `_wait_for_flock` buys nothing measurable.  Run from the repo root:

    python benchmarks/bench_lock.py            # about 2 minutes, prints a table
    python benchmarks/bench_lock.py --quick    # fewer rounds (about 45 s)
    python benchmarks/bench_lock.py --json     # one JSON object on stdout

Both functions are called directly, as `_FileLock.__enter__` calls them: on a
descriptor of the lock file whose `LOCK_EX | LOCK_NB` attempt just failed.

1. handoff  A holder child process takes a real `fcntl.flock` on the lock
            file, says so on a pipe, holds it 0.3 s, reads
            `time.monotonic()` (CLOCK_MONOTONIC: one clock for the whole
            boot on Linux, so comparable across processes), releases, and
            writes that instant back.  The waiter (this process) calls the
            method as soon as the holder holds the lock; the figure is
            (instant the method returned True) - (holder's release instant).
            The methods alternate round by round.  A fixed 0.3 s hold puts
            the poller's release-time phase in one place of its 50 ms
            period (it has slept 1+2+..+32 ms, then 50 ms steps), so the
            run is repeated with holds of 0.3 s + uniform 0..50 ms.
2. contend  8 worker processes (this script with --worker) compete for the
            lock for a few seconds: each loops try-LOCK_NB / wait with the
            method / hold 5 ms / close / think 2 ms (they start together,
            once every one has imported the module and said so).  Reported: acquisitions
            per second (all workers), the lock's busy share, the idle gap
            between a release and the next contended acquisition (median,
            p90), each acquisition's wait (median, p99, max) and the spread
            of acquisitions between workers (min..max), a fairness measure.
3. burst    8 worker processes ask for the lock at one instant and hold it
            20 ms once each: this process holds the lock until every worker
            has said it failed LOCK_NB and is waiting, then releases it.  Reported: time until the last
            of the 8 got it (ideal: 7 x 20 ms after the first) and its wait.
4. free     The common case, a free lock: `_FileLock.__enter__` / `__exit__`
            takes it with `LOCK_NB` and neither method is reached.  Shown:
            the cost of that enter+exit, and for information what each
            method costs if called on a free lock (it is never called so).
"""

import argparse
import fcntl
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import hermes_cron  # noqa: E402

METHODS = {"thread": "_wait_for_flock", "poll": "_poll_flock"}
TIMEOUT = 10.0

HOLDER = r"""
import fcntl, os, sys, time
path = sys.argv[1]
inp, out = sys.stdin.buffer, sys.stdout.buffer
while True:
    line = inp.readline().split()
    if not line or line[0] != b"go":
        break
    hold = float(line[1])
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    out.write(b"held\n"); out.flush()
    time.sleep(hold)
    t = time.monotonic()
    os.close(fd)  # releases the flock
    out.write(repr(t).encode() + b"\n"); out.flush()
"""


def method(name):
    return getattr(hermes_cron, METHODS[name])


def pct(values, p):
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def ms(x):
    return x * 1000.0


# -- 1. handoff latency -------------------------------------------------------

def bench_handoff(path, rounds, hold, jitter=0.0):
    import random

    rng = random.Random(21)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, path],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lat = {m: [] for m in METHODS}
    try:
        turns = [m for r in range(rounds) for m in (list(METHODS) if r % 2 == 0 else list(METHODS)[::-1])]
        for m in turns:
            holder.stdin.write(f"go {hold + rng.uniform(0, jitter)!r}\n".encode())
            holder.stdin.flush()
            assert holder.stdout.readline().strip() == b"held"
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                raise RuntimeError("the holder does not hold the lock")
            except BlockingIOError:
                pass
            ok = method(m)(fd, TIMEOUT)
            got = time.monotonic()
            assert ok, f"{m} timed out"
            released = float(holder.stdout.readline())
            os.close(fd)
            lat[m].append(got - released)
    finally:
        holder.stdin.close()
        holder.wait(10)
    return {m: {"n": len(v), "median_ms": ms(statistics.median(v)), "p90_ms": ms(pct(v, 90)),
                "max_ms": ms(max(v)), "min_ms": ms(min(v)), "mean_ms": ms(statistics.mean(v))}
            for m, v in lat.items()}


# -- 2./3. worker processes ---------------------------------------------------

def worker(args):
    """One competing process: says "ready", then prints its acquisitions as JSON.

    Looping (contend): reads "start stop" (monotonic instants) on stdin first.
    Once (burst): the lock is held by the parent; says "ready" once its own
    LOCK_NB attempt failed, then waits with the method.
    """
    name, path, hold, think, once = args.worker, args.path, args.hold, args.think, args.once
    wait_fn = method(name)
    log = []  # (asked, got, released, contended)
    if once:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        asked = time.monotonic()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            raise SystemExit("burst: the lock was free")
        except BlockingIOError:
            pass
        print("ready", flush=True)
        if not wait_fn(fd, TIMEOUT):
            raise SystemExit(f"{name}: timed out")
        got = time.monotonic()
        time.sleep(hold)
        released = time.monotonic()
        os.close(fd)
        print(json.dumps([(asked, got, released, True)]), flush=True)
        return
    print("ready", flush=True)
    start, stop = map(float, sys.stdin.readline().split())
    while time.monotonic() < start:
        time.sleep(min(0.001, max(0.0, start - time.monotonic())))
    while True:
        asked = time.monotonic()
        if asked >= stop:
            break
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        contended = False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            contended = True
            if not wait_fn(fd, TIMEOUT):
                raise SystemExit(f"{name}: timed out")
        got = time.monotonic()
        time.sleep(hold)
        released = time.monotonic()
        os.close(fd)
        log.append((asked, got, released, contended))
        time.sleep(think)
    print(json.dumps(log), flush=True)


def spawn(name, path, n, hold, think, once):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", name, "--path", path,
           "--hold", str(hold), "--think", str(think)] + (["--once"] if once else [])
    procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(n)]
    for p in procs:
        if p.stdout.readline().strip() != b"ready":
            raise RuntimeError("a worker failed to start")
    return procs


def collect(procs):
    logs = []
    for p in procs:
        out, _ = p.communicate(timeout=60)
        if p.returncode:
            raise RuntimeError(f"worker exited {p.returncode}")
        logs.append(json.loads(out))
    return logs


def bench_contend(path, name, workers, seconds, hold, think):
    procs = spawn(name, path, workers, hold, think, False)
    start = time.monotonic() + 0.05
    for p in procs:
        p.stdin.write(f"{start!r} {start + seconds!r}\n".encode())
        p.stdin.flush()
    logs = collect(procs)
    events = sorted((e for log in logs for e in log), key=lambda e: e[1])
    waits = [e[1] - e[0] for e in events]
    gaps, last_release = [], None
    for asked, got, released, contended in events:
        if contended and last_release is not None and asked < last_release:
            gaps.append(got - last_release)  # idle lock between a release and a waiter's grab
        last_release = released if last_release is None else max(last_release, released)
    span = events[-1][2] - events[0][1]
    busy = sum(e[2] - e[1] for e in events)
    counts = [len(log) for log in logs]
    return {"acquisitions": len(events), "per_s": len(events) / span, "busy_share": busy / span,
            "gap_median_ms": ms(statistics.median(gaps)) if gaps else float("nan"),
            "gap_p90_ms": ms(pct(gaps, 90)) if gaps else float("nan"),
            "wait_median_ms": ms(statistics.median(waits)), "wait_p99_ms": ms(pct(waits, 99)),
            "wait_max_ms": ms(max(waits)), "per_worker_min": min(counts),
            "per_worker_max": max(counts), "contended_share": sum(e[3] for e in events) / len(events)}


def bench_burst(path, name, workers, rounds, hold):
    last, spread = [], []
    for _ in range(rounds):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)  # held until every worker is asking
        procs = spawn(name, path, workers, hold, 0.0, True)
        time.sleep(0.05)  # every worker said ready after its LOCK_NB failed: all are waiting now
        released = time.monotonic()
        os.close(fd)
        events = sorted((e for log in collect(procs) for e in log), key=lambda e: e[1])
        assert len(events) == workers and all(e[0] < released for e in events)
        last.append(events[-1][1] - released)                # release -> last worker got it
        spread.append(events[-1][1] - events[0][1] - (workers - 1) * hold)  # idle beyond ideal
    return {"rounds": rounds, "last_got_median_ms": ms(statistics.median(last)),
            "last_got_max_ms": ms(max(last)), "idle_median_ms": ms(statistics.median(spread)),
            "idle_max_ms": ms(max(spread)), "ideal_last_ms": ms((workers - 1) * hold)}


# -- 4. a free lock -----------------------------------------------------------

def bench_free(path, n):
    def per_call(fn):
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(n):
                fn()
            best = min(best, (time.perf_counter() - t) / n)
        return best * 1e6

    def file_lock():
        with hermes_cron._FileLock(path, TIMEOUT):
            pass

    def direct(m):
        def run():
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            assert method(m)(fd, TIMEOUT)
            os.close(fd)
        return run

    def bare():
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)

    return {"filelock_us": per_call(file_lock), "open_close_us": per_call(bare),
            "thread_direct_us": per_call(direct("thread")), "poll_direct_us": per_call(direct("poll"))}


# -- main ---------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rounds", type=int, help="handoff rounds per method (default 50; quick 20)")
    ap.add_argument("--worker", choices=sorted(METHODS), help=argparse.SUPPRESS)
    ap.add_argument("--path", help=argparse.SUPPRESS)
    ap.add_argument("--hold", type=float, default=0.005, help=argparse.SUPPRESS)
    ap.add_argument("--think", type=float, default=0.002, help=argparse.SUPPRESS)
    ap.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    rounds = args.rounds or (20 if args.quick else 50)
    seconds = 1.5 if args.quick else 3.0
    bursts = 4 if args.quick else 6
    with tempfile.TemporaryDirectory(prefix="bench-lock-") as home:
        path = os.path.join(home, ".jobs.lock")
        res = {"handoff": bench_handoff(path, rounds, 0.3),
               "handoff_jitter": bench_handoff(path, rounds, 0.3, 0.05),
               "contend": {m: bench_contend(path, m, 8, seconds, 0.005, 0.002) for m in METHODS},
               "burst": {m: bench_burst(path, m, 8, bursts, 0.020) for m in METHODS},
               "free": bench_free(path, 2000)}
    res["settings"] = {"handoff_rounds": rounds, "handoff_hold_s": 0.3, "handoff_jitter_s": 0.05, "contend_workers": 8,
                       "contend_s": seconds, "contend_hold_ms": 5, "contend_think_ms": 2,
                       "burst_workers": 8, "burst_hold_ms": 20, "burst_rounds": bursts,
                       "cpus": os.cpu_count(), "load": os.getloadavg()[0],
                       "python": sys.version.split()[0]}
    if args.json:
        json.dump(res, sys.stdout, indent=1)
        print()
        return
    h, hj, c, b, f = res["handoff"], res["handoff_jitter"], res["contend"], res["burst"], res["free"]
    print(f"bench_lock: .jobs.lock wait, {METHODS['thread']} (thread) vs {METHODS['poll']} (poll); "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print(f"\n1. handoff: holder releases after 0.3 s -> waiter has the lock ({rounds} rounds each)")
    print(f"   {'method':8} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'min ms':>8}")
    for m in METHODS:
        r = h[m]
        print(f"   {m:8} {r['median_ms']:10.3f} {r['p90_ms']:8.3f} {r['max_ms']:8.3f} {r['min_ms']:8.3f}")
    print("   the same, hold 0.3 s + uniform 0..50 ms (the poll's phase at release is no longer fixed)")
    for m in METHODS:
        r = hj[m]
        print(f"   {m:8} {r['median_ms']:10.3f} {r['p90_ms']:8.3f} {r['max_ms']:8.3f} {r['min_ms']:8.3f}")
    print(f"\n2. contention: 8 processes, hold 5 ms, think 2 ms, {seconds:g} s each")
    print(f"   {'method':8} {'acq/s':>7} {'busy':>6} {'gap med':>8} {'gap p90':>8} "
          f"{'wait med':>9} {'wait p99':>9} {'wait max':>9} {'per worker':>11} {'waited':>7}")
    for m in METHODS:
        r = c[m]
        print(f"   {m:8} {r['per_s']:7.1f} {r['busy_share']:6.1%} {r['gap_median_ms']:8.3f} "
              f"{r['gap_p90_ms']:8.3f} {r['wait_median_ms']:9.1f} {r['wait_p99_ms']:9.1f} "
              f"{r['wait_max_ms']:9.1f} {r['per_worker_min']:5d}..{r['per_worker_max']:<5d} {r['contended_share']:7.0%}")
    print(f"\n3. burst: 8 processes ask at once, hold 20 ms each ({bursts} rounds; ideal last "
          f"{b['thread']['ideal_last_ms']:.0f} ms)")
    print(f"   {'method':8} {'last got med':>13} {'max':>8} {'idle med':>9} {'idle max':>9}  (ms)")
    for m in METHODS:
        r = b[m]
        print(f"   {m:8} {r['last_got_median_ms']:13.1f} {r['last_got_max_ms']:8.1f} "
              f"{r['idle_median_ms']:9.1f} {r['idle_max_ms']:9.1f}")
    print("\n4. free lock (the common case: _FileLock takes it with LOCK_NB, no method is reached)")
    print(f"   _FileLock enter+exit {f['filelock_us']:.1f} us (open+close alone {f['open_close_us']:.1f} us); "
          f"if called on a free lock: thread {f['thread_direct_us']:.1f} us, poll {f['poll_direct_us']:.1f} us")


if __name__ == "__main__":
    main()
