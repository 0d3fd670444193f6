#!/usr/bin/env python3
"""Benchmark hermes_cron's `tick` (end to end) and its ledger bookkeeping.

Run from the repo root:

    python benchmarks/bench_tick.py            # full run, prints a table
    python benchmarks/bench_tick.py --quick    # fewer runs
    python benchmarks/bench_tick.py --json     # one JSON object on stdout

(a) tick cost.  Two homes in a temp dir hold 1,000 and 100,000 jobs whose
    `next_run_at` are all in the future (nothing due): one job is created with
    the real CLI, then cloned into jobs.json with fresh 12-hex ids.  Child
    processes, alternated in one loop (the machine is noisy), after one
    warm-up run each, bytecode caching on (PYTHONDONTWRITEBYTECODE removed):
        python -m hermes_cron --home H tick    (HERMES_CRON_NOW pinned)
        python benchmarks/baseline_tick.py H   (flock + json + compare)
        python -c pass                         (interpreter start, reference)
    Medians (and min) in ms; target: tick <= 1.3x baseline (medians).
(b) ledger rate.  In process, N fires of claim -> start -> finish through
    hermes_cron._Ledger, alternated fire by fire (order flipped each time)
    with the same three autocommit statements on a plain sqlite3 connection
    to a separate db with the same executions schema and indexes, in the
    journal mode and auto_vacuum setting hermes_cron chose for its own file
    (read back with PRAGMA after it opened it: DELETE on SQLite < 3.51.3,
    WAL otherwise), synchronous=FULL.  Each fire is timed; fires/second =
    1 / median fire time (fsync spikes make sums noisy; mean-based rates are
    reported too).  Target: ledger >= 80% of raw (median-based).
Stdlib only.
"""

import argparse
import json
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import hermes_cron as hc  # noqa: E402

CREATE_NOW = "2026-03-06T12:00:00+00:00"
TICK_NOW = "2026-03-06T12:00:30+00:00"
BASELINE = os.path.join(REPO_ROOT, "benchmarks", "baseline_tick.py")
TARGET_TICK_RATIO = 1.3
TARGET_LEDGER_RATIO = 0.80
LEDGER_WARMUP = 5


def _child_env(now=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_CRON_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if now is not None:
        env["HERMES_CRON_NOW"] = now
    return env


# -- (a) tick cost ----------------------------------------------------------

def build_home(root, n_jobs):
    """Create a home with *n_jobs* future jobs; return its path."""
    home = os.path.join(root, f"home_{n_jobs}")
    subprocess.run([sys.executable, "-m", "hermes_cron", "--home", home, "add", "0 9 * * *",
                    "prompt", "--name", "j0"], cwd=REPO_ROOT, env=_child_env(CREATE_NOW),
                   check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    path = os.path.join(home, "jobs.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    template = doc["jobs"][0]
    assert hc.parse_iso(template["next_run_at"]) > hc.parse_iso(TICK_NOW), template
    rng = random.Random(n_jobs)
    ids = {template["id"]}
    jobs = [template]
    for i in range(1, n_jobs):
        job_id = template["id"]
        while job_id in ids:
            job_id = f"{rng.getrandbits(48):012x}"
        ids.add(job_id)
        jobs.append(dict(template, id=job_id, name=f"j{i}"))
    doc["jobs"] = jobs
    # The same layout hermes_cron writes (indent=2, ensure_ascii=False).
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return home


def _timed(cmd, env, expect):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0 or (expect is not None and proc.stdout.strip() != expect):
        raise SystemExit(f"bench_tick: {' '.join(cmd)} -> rc={proc.returncode}, "
                         f"stdout={proc.stdout!r}, stderr={proc.stderr!r}")
    return elapsed * 1e3


def bench_tick(home, runs):
    env = _child_env(TICK_NOW)
    cases = {
        "pass": ([sys.executable, "-c", "pass"], None),
        "baseline": ([sys.executable, BASELINE, home], "0"),
        "tick": ([sys.executable, "-m", "hermes_cron", "--home", home, "tick"], "no jobs due"),
    }
    for cmd, expect in cases.values():  # warm-up (also writes __pycache__)
        _timed(cmd, env, expect)
    times = {name: [] for name in cases}
    for _ in range(runs):
        for name, (cmd, expect) in cases.items():
            times[name].append(_timed(cmd, env, expect))
    out = {"runs": runs}
    for name, ts in times.items():
        out[f"{name}_median_ms"] = statistics.median(ts)
        out[f"{name}_min_ms"] = min(ts)
    out["ratio"] = out["tick_median_ms"] / out["baseline_median_ms"]
    out["ratio_min"] = out["tick_min_ms"] / out["baseline_min_ms"]
    out["jobs_json_bytes"] = os.path.getsize(os.path.join(home, "jobs.json"))
    return out


# -- (b) ledger rate --------------------------------------------------------

_RAW_INSERT = ("INSERT INTO executions (id, job_id, source, process_id, pid, "
               "process_started_at, status, claimed_at, scheduled_instant) "
               "VALUES (?,?,?,?,?,?,'claimed',?,?)")
_RAW_START = "UPDATE executions SET status='running', started_at=? WHERE id=?"
_RAW_FINISH = ("UPDATE executions SET status='completed', finished_at=?, error=NULL, "
               "delivery_outcome=?, handoff_pending=0 WHERE id=?")


def bench_ledger(root, fires):
    """Alternate hermes_cron._Ledger fires with raw ones in the module's journal mode."""
    home = os.path.join(root, "ledger_home")
    os.makedirs(home)
    led = hc._Ledger(home)
    now = datetime.now(timezone.utc)
    job_id = "0123456789ab"
    # The mode the module actually uses for a new file on this SQLite.
    probe = led.connect()
    journal_mode = probe.execute("PRAGMA journal_mode").fetchone()[0].lower()
    auto_vacuum = probe.execute("PRAGMA auto_vacuum").fetchone()[0]

    raw_path = os.path.join(root, "raw.db")
    conn = sqlite3.connect(raw_path, isolation_level=None)
    conn.execute(f"PRAGMA auto_vacuum={int(auto_vacuum)}")  # before the first table
    conn.execute(f"PRAGMA journal_mode={journal_mode.upper()}")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(hc._LEDGER_SCHEMA[0])  # the executions table ...
    for ddl in hc._LEDGER_INDEXES:      # ... and its indexes
        if " ON executions(" in ddl:
            conn.execute(ddl)
    stamp = now.isoformat()
    pid = os.getpid()
    claim, start, finish, ex = led.claim, led.start, led.finish, conn.execute
    clock = time.perf_counter

    def ledger_fire():
        t0 = clock()
        eid = claim([(job_id, None)], "manual", now)[0]
        start(eid, now)
        finish(eid, True, None, "not_configured", now)
        return clock() - t0

    def raw_fire():
        t0 = clock()
        eid = os.urandom(16).hex()
        ex(_RAW_INSERT, (eid, job_id, "manual", "p" * 32, pid, None, stamp, None))
        ex(_RAW_START, (stamp, eid))
        ex(_RAW_FINISH, (stamp, "not_configured", eid))
        return clock() - t0

    for _ in range(LEDGER_WARMUP):  # opens the connection, creates the schema
        ledger_fire()
        raw_fire()
    t_led, t_raw = [], []
    for i in range(fires):  # alternate fire by fire, flipping the order each time
        if i % 2:
            t_led.append(ledger_fire())
            t_raw.append(raw_fire())
        else:
            t_raw.append(raw_fire())
            t_led.append(ledger_fire())
    led.close()
    conn.close()
    rows = {}
    for label, path in (("ledger", led.path), ("raw", raw_path)):
        c = sqlite3.connect(path)
        rows[label] = c.execute("SELECT count(*) FROM executions WHERE status='completed'"
                                ).fetchone()[0]
        c.close()
    expected = fires + LEDGER_WARMUP
    if rows != {"ledger": expected, "raw": expected}:
        raise SystemExit(f"bench_tick: unexpected completed rows {rows} (want {expected})")
    med_led, med_raw = statistics.median(t_led), statistics.median(t_raw)
    return {"fires": fires, "journal_mode": journal_mode, "auto_vacuum": auto_vacuum,
            "ledger_fires_per_s": 1 / med_led, "raw_fires_per_s": 1 / med_raw,
            "ratio": med_raw / med_led,
            "ledger_mean_fires_per_s": fires / sum(t_led),
            "raw_mean_fires_per_s": fires / sum(t_raw),
            "ratio_mean": sum(t_raw) / sum(t_led),
            "ledger_median_ms": med_led * 1e3, "raw_median_ms": med_raw * 1e3}


# -- main -------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs")
    ap.add_argument("--json", action="store_true",
                    help="print the figures as one JSON object")
    ap.add_argument("--dir", default=None,
                    help="where to create the temporary homes (default: the system temp dir)")
    args = ap.parse_args(argv)

    sizes = ((1000, 5 if args.quick else 15), (100_000, 2 if args.quick else 5))
    fires = 60 if args.quick else 300

    root = tempfile.mkdtemp(prefix="bench_tick_", dir=args.dir)
    try:
        homes = {n: build_home(root, n) for n, _ in sizes}
        ticks = []
        for n, runs in sizes:
            row = bench_tick(homes[n], runs)
            row["jobs"] = n
            ticks.append(row)
        ledger = bench_ledger(root, fires)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    targets = {
        "tick_ratio_max": TARGET_TICK_RATIO,
        "ledger_ratio_min": TARGET_LEDGER_RATIO,
        "tick_ok": {str(r["jobs"]): r["ratio"] <= TARGET_TICK_RATIO for r in ticks},
        "ledger_ok": ledger["ratio"] >= TARGET_LEDGER_RATIO,
    }
    result = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "hermes_cron_version": getattr(hc, "__version__", None),
        "sqlite_version": sqlite3.sqlite_version,
        "quick": args.quick,
        "tick": ticks,
        "ledger": ledger,
        "targets": targets,
    }
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
        return 0
    _print_table(result)
    return 0


def _print_table(res):
    def ok(flag):
        return "OK" if flag else "MISSED"

    print(f"hermes_cron {res['hermes_cron_version']} on {res['implementation']} "
          f"{res['python']}, SQLite {res['sqlite_version']} ({res['platform']})"
          + (" [quick]" if res["quick"] else ""))
    print()
    print("(a) tick with nothing due, child processes, median (min) in ms")
    head = (f"{'jobs':>7} {'runs':>4} {'python -c pass':>16} {'baseline_tick':>16} "
            f"{'hermes tick':>16} {'tick/base':>9}  target")
    print(head)
    print("-" * len(head))
    t = res["targets"]
    for r in res["tick"]:
        cells = [f"{r[k + '_median_ms']:7.1f} ({r[k + '_min_ms']:6.1f})"
                 for k in ("pass", "baseline", "tick")]
        print(f"{r['jobs']:>7,} {r['runs']:>4} {cells[0]:>16} {cells[1]:>16} {cells[2]:>16} "
              f"{r['ratio']:>8.2f}x  <= {t['tick_ratio_max']:g}x "
              f"{ok(t['tick_ok'][str(r['jobs'])])}")
    led = res["ledger"]
    print()
    print(f"(b) ledger claim+start+finish, {led['fires']} fires alternated one by one, "
          f"journal_mode={led['journal_mode'].upper()} + synchronous=FULL (the module's "
          "mode, raw db alike); fires/s = 1/median fire (mean-based in brackets)")
    print(f"  hermes_cron _Ledger : {led['ledger_fires_per_s']:8.1f} fires/s "
          f"({led['ledger_mean_fires_per_s']:8.1f})  {led['ledger_median_ms']:.2f} ms/fire")
    print(f"  raw sqlite3         : {led['raw_fires_per_s']:8.1f} fires/s "
          f"({led['raw_mean_fires_per_s']:8.1f})  {led['raw_median_ms']:.2f} ms/fire")
    print(f"  ledger / raw        : {led['ratio'] * 100:8.1f} %       "
          f"({led['ratio_mean'] * 100:7.1f} %)  >= {t['ledger_ratio_min'] * 100:g}% "
          f"{ok(t['ledger_ok'])}")

if __name__ == "__main__":
    sys.exit(main())
