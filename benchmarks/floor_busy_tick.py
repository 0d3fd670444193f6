#!/usr/bin/env python3
"""Stdlib floor of a busy tick: the crash-safe bookkeeping of N fires, nothing more.

    python benchmarks/floor_busy_tick.py HOME [--journal-mode MODE]

What `benchmarks/bench_scale.py` (figure 1, "busy tick") compares
`python -m hermes_cron --home HOME tick` with.  Plain stdlib, no hermes_cron:

1. exclusive flock on HOME/.jobs.lock (non-blocking, retried for up to 30 s);
2. load HOME/jobs.json with json; "due" = jobs whose `next_run_at` is at or
   before now (HERMES_CRON_NOW when set, else the system clock);
3. open HOME/executions.db (executions table and indexes created if missing,
   the same schema as hermes_cron's), `PRAGMA journal_mode=MODE` (default:
   leave the file's mode as it is) and `synchronous=FULL`, autocommit;
4. per due job one commit: INSERT a `claimed` row (job id, scheduled instant);
5. per due job, in a thread pool of `max_parallel` threads (HOME/config.json,
   default 4): a `running` UPDATE commit, the job's script as a child process
   run the way hermes_cron runs it (an executable file with a `#!` line is
   exec'd directly; else its `#!` interpreter, else `bash` for .sh/.bash and
   this Python for the rest; scripts live in HOME/../scripts, cwd there, own
   session, stdout/stderr captured), a `completed` (or `failed`) UPDATE
   commit.  The three statements of all
   threads go through one connection, one at a time (SQLite has one writer);
6. one atomic store write: each fired job's `next_run_at` += 60 s (every job
   of the benchmark is `* * * * *`), `last_run_at`/`last_status` set, then
   compact json to a temp file, fsync, rename over jobs.json, fsync the dir.

Prints the number of fires that completed.  Exit 0 when every due job ran
and completed, 1 otherwise.
"""

import fcntl
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS executions(
        id TEXT PRIMARY KEY, job_id TEXT NOT NULL, source TEXT NOT NULL,
        process_id TEXT NOT NULL, pid INTEGER NOT NULL, process_started_at INTEGER,
        status TEXT NOT NULL CHECK(status IN ('claimed','running','completed','failed','unknown')),
        claimed_at TEXT NOT NULL, started_at TEXT, finished_at TEXT, error TEXT,
        handoff_pending INTEGER NOT NULL DEFAULT 0, handoff_started_at REAL,
        delivery_outcome TEXT, scheduled_instant TEXT)""",
    "CREATE INDEX IF NOT EXISTS idx_executions_job_claimed "
    "ON executions(job_id, claimed_at DESC, id DESC)",
    "CREATE INDEX IF NOT EXISTS idx_executions_status_claimed "
    "ON executions(status, claimed_at DESC, id DESC)",
    "CREATE INDEX IF NOT EXISTS idx_executions_occurrence "
    "ON executions(job_id, scheduled_instant) WHERE status='completed'",
)
_INSERT = ("INSERT INTO executions (id, job_id, source, process_id, pid, process_started_at, "
           "status, claimed_at, scheduled_instant) VALUES (?,?,'builtin',?,?,NULL,'claimed',?,?)")
_START = "UPDATE executions SET status='running', started_at=? WHERE id=?"
_FINISH = ("UPDATE executions SET status=?, finished_at=?, error=?, "
           "delivery_outcome='not_configured', handoff_pending=0 WHERE id=?")


def _iso(dt):
    return dt.astimezone(timezone.utc).replace(microsecond=0).isoformat()


def _lock(path):
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + 30.0
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise SystemExit("floor_busy_tick: .jobs.lock is busy")
            time.sleep(0.01)


def _atomic_write(path, data):
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    dfd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _script_argv(path):
    """The command hermes_cron's `_script_argv` builds for *path* (no arguments)."""
    try:
        with open(path, "rb") as f:
            head = f.readline(512)
    except OSError:
        head = b""
    if head.startswith(b"#!"):
        if os.access(path, os.X_OK):
            return [path]
        line = head[2:].decode("utf-8", "replace").strip().replace("\t", " ")
        interpreter, _, option = line.partition(" ")
        if interpreter:
            return [interpreter, *([option.strip()] if option.strip() else []), path]
    if os.path.splitext(path)[1].lower() in (".sh", ".bash"):
        return ["bash", path]
    return [sys.executable, path]


def main(argv):
    args = argv[1:]
    mode = None
    if len(args) == 3 and args[1] == "--journal-mode":
        mode = args[2]
        args = args[:1]
    if len(args) != 1:
        print("usage: python benchmarks/floor_busy_tick.py HOME [--journal-mode MODE]",
              file=sys.stderr)
        return 2
    home = os.path.abspath(args[0])
    pinned = os.environ.get("HERMES_CRON_NOW")
    now = datetime.fromisoformat(pinned) if pinned else datetime.now(timezone.utc)
    scripts = os.path.join(os.path.dirname(home), "scripts")
    try:
        with open(os.path.join(home, "config.json"), "rb") as f:
            max_parallel = int(json.load(f).get("max_parallel", 4))
    except FileNotFoundError:
        max_parallel = 4

    fd = _lock(os.path.join(home, ".jobs.lock"))
    try:
        path = os.path.join(home, "jobs.json")
        with open(path, "rb") as f:
            doc = json.load(f)
        due = [job for job in doc["jobs"] if job.get("enabled", True) and job.get("next_run_at")
               and datetime.fromisoformat(job["next_run_at"]) <= now]

        conn = sqlite3.connect(os.path.join(home, "executions.db"), timeout=30.0,
                               isolation_level=None, check_same_thread=False)
        if mode:
            conn.execute(f"PRAGMA journal_mode={mode}")
        conn.execute("PRAGMA synchronous=FULL")
        for ddl in _SCHEMA:
            conn.execute(ddl)
        process_id, pid, stamp = os.urandom(16).hex(), os.getpid(), _iso(now)
        eids = []
        for job in due:  # one commit per claim
            eid = os.urandom(16).hex()
            conn.execute(_INSERT, (eid, job["id"], process_id, pid, stamp,
                                   _iso(datetime.fromisoformat(job["next_run_at"]))))
            eids.append(eid)

        db_lock = threading.Lock()
        argvs = {name: _script_argv(os.path.join(scripts, name))
                 for name in {job["script"] for job in due}}
        env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG") if k in os.environ}

        def fire(job, eid):
            with db_lock:
                conn.execute(_START, (_iso(datetime.now(timezone.utc)), eid))
            proc = subprocess.run(argvs[job["script"]], cwd=scripts, env=dict(env, HERMES_CRON_JOB_ID=job["id"],
                                                              HERMES_CRON_EXECUTION_ID=eid),
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, start_new_session=True, timeout=120)
            ok = proc.returncode == 0
            with db_lock:
                conn.execute(_FINISH, ("completed" if ok else "failed",
                                       _iso(datetime.now(timezone.utc)),
                                       None if ok else f"exit {proc.returncode}", eid))
            return ok

        workers = max(1, min(max_parallel, len(due)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(fire, due, eids))
        conn.close()

        for job, ok in zip(due, results):  # one atomic store write for the batch
            job["next_run_at"] = _iso(datetime.fromisoformat(job["next_run_at"])
                                      + timedelta(seconds=60))
            job["last_run_at"] = stamp
            job["last_status"] = "ok" if ok else "error"
        doc["updated_at"] = stamp
        _atomic_write(path, json.dumps(doc, ensure_ascii=False).encode("utf-8"))
    finally:
        os.close(fd)  # releases the flock
    done = sum(results)
    print(done)
    return 0 if done == len(due) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
