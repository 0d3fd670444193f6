#!/usr/bin/env python3
"""Stdlib lower bounds of reading and writing a jobs.json store.

    python benchmarks/floor_store.py load HOME
    python benchmarks/floor_store.py write HOME JOB_ID NAME

What `benchmarks/bench_scale.py` (figures 5 and 6) compares `list` and
`edit --name` with (issue 24.4):

load   json.load of HOME/jobs.json, nothing printed: the least any `list`
       must do.
write  flock HOME/.jobs.lock; load the store; set the name of job JOB_ID;
       encode it one job per line with json's C encoder (the module's
       layout); write a temp file, fsync it, rename it over jobs.json and
       fsync the directory; then the due summary (the earliest next_run_at
       of all jobs, parsed with datetime.fromisoformat) to HOME/.floor_due
       by temp file + rename.  Exit 1 if the job is not there.
"""

import fcntl
import json
import os
import sys
from datetime import datetime


def load(home):
    with open(os.path.join(home, "jobs.json"), "rb") as f:
        json.loads(f.read())
    return 0


def write(home, job_id, name):
    fd = os.open(os.path.join(home, ".jobs.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    path = os.path.join(home, "jobs.json")
    with open(path, "rb") as f:
        doc = json.loads(f.read())
    jobs = doc["jobs"]
    for job in jobs:
        if job.get("id") == job_id:
            job["name"] = name
            break
    else:
        print(f"floor_store: no job {job_id}", file=sys.stderr)
        return 1
    dump = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    rest = "".join(f",\n{dump(k)}: {dump(v)}" for k, v in doc.items() if k != "jobs")
    data = ('{"jobs": [\n' + ",\n".join(map(dump, jobs)) + "\n]" + rest + "}\n").encode()
    # floor_busy_tick.py writes the same way; not imported from there, as its
    # imports (sqlite3) would be this floor's cost too.
    tmp = path + ".floor.tmp"
    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(out, data)
        os.fsync(out)
    finally:
        os.close(out)
    os.replace(tmp, path)
    dfd = os.open(home, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    due = min((datetime.fromisoformat(j["next_run_at"]).timestamp() for j in jobs
               if isinstance(j.get("next_run_at"), str)), default=None)
    st = os.stat(path)
    summary = os.path.join(home, ".floor_due")
    with open(summary + ".tmp", "w") as f:
        f.write(f"{st.st_size} {st.st_mtime_ns} {st.st_ino} {due!r}\n")
    os.replace(summary + ".tmp", summary)
    os.close(fd)
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "load":
        return load(argv[2])
    if len(argv) == 5 and argv[1] == "write":
        return write(argv[2], argv[3], argv[4])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
