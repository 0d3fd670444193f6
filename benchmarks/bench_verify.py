#!/usr/bin/env python3
"""Benchmark a run's checks (``verify``) and the tokens the monitor gate saves.

Run from the repo root:

    python benchmarks/bench_verify.py           # prints a table
    python benchmarks/bench_verify.py --json    # one JSON object on stdout

Measures, best of 5 repeats, each against its floor in the same run:
  url      an answer naming 100 URLs on a real local HTTP server (HEAD, 200),
           checked by ``_verify_answer``; the floor is 100 bare http.client
           HEAD requests to the same server (one connection each, as the check
           makes), so the figure is what the address checks and the pinned
           connection add.
  path     an answer naming 1,000 files (a pattern check) against 1,000
           os.stat calls.
  regex    1,000 answers through a must-match and a must-not-match check.
  git      an answer naming 20 commits of a real repository (one ``git
           cat-file -e`` each), when git is installed.
and a simulated day of the monitor gate: a job every 5 minutes watches a
feed on a local server that changes twice a day (at 09:00 and 17:00); 288
ticks on a fake clock, counting the model calls (the agent runner's calls)
against the fires.  Stdlib only.
"""

import argparse
import http.client
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import hermes_cron as hc  # noqa: E402


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    body = b"item 1\n"

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(_Handler.body)))
        self.end_headers()
        self.wfile.write(_Handler.body)

    def log_message(self, *args):
        pass


def best(fn, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    root = tempfile.mkdtemp(prefix="bench-verify-")
    results = {}
    try:
        home = hc.CronHome(os.path.join(root, "cron"), runner=lambda p, j: "x")
        os.makedirs(home.path)
        with open(os.path.join(home.path, "config.json"), "w") as f:
            json.dump({"verify_allow_networks": ["127.0.0.0/8"]}, f)
        sched = home.scheduler
        context = {"eid": "e" * 32, "job_id": "j", "document": None,
                   "started": datetime.now(timezone.utc), "workdir": root}

        urls = [f"{base}/post-{n}" for n in range(100)]
        answer = "Published: " + " ".join(urls)

        def check_urls():
            verdict = hc._verify_answer(sched, {}, [{"check": "url"}], answer, context)
            assert verdict.verdict == "verified", verdict.error

        def floor_urls():
            for n in range(100):
                conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=5)
                conn.request("HEAD", f"/post-{n}")
                assert conn.getresponse().status == 200
                conn.close()

        results["url"] = (best(check_urls), best(floor_urls), 100)

        files = os.path.join(root, "files")
        os.makedirs(files)
        for n in range(1000):
            open(os.path.join(files, f"f{n}.md"), "w").close()
        named = " ".join(f"files/f{n}.md" for n in range(1000))
        path_check = [{"check": "path", "pattern": r"files/\S+\.md"}]

        def check_paths():
            assert hc._verify_answer(sched, {}, path_check, named, context).verdict == "verified"

        def floor_paths():
            for n in range(1000):
                os.stat(os.path.join(root, f"files/f{n}.md"))

        results["path"] = (best(check_paths), best(floor_paths), 1000)

        regex_checks = [{"check": "regex", "pattern": r"post-\d+"},
                        {"check": "regex", "pattern": "(?i)lorem ipsum", "match": False}]
        texts = [f"Published post-{n} today, all good." for n in range(1000)]

        def check_regex():
            for text in texts:
                hc._verify_answer(sched, {}, regex_checks, text, context)

        import re

        must, must_not = re.compile(r"post-\d+"), re.compile("(?i)lorem ipsum")

        def floor_regex():
            for text in texts:
                assert must.search(text) and not must_not.search(text)

        results["regex"] = (best(check_regex), best(floor_regex), 1000)

        if shutil.which("git"):
            repo = os.path.join(root, "repo")
            git = ["git", "-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.org"]
            subprocess.run(["git", "init", "-q", repo], check=True)
            hashes = []
            for n in range(20):
                subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", str(n)], check=True)
                hashes.append(subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True,
                                             text=True, check=True).stdout.strip())
            commits = "Committed " + " ".join(hashes)
            git_check = [{"check": "git", "repo": repo}]

            def check_git():
                assert hc._verify_answer(sched, {}, git_check, commits,
                                         context).verdict == "verified"

            def floor_git():
                for h in hashes:
                    subprocess.run(["git", "-C", repo, "cat-file", "-e", h], check=True)

            results["git"] = (best(check_git, 3), best(floor_git, 3), 20)

        # A simulated day of a gated job: every 5 minutes, the feed changes twice.
        calls = []
        clock = {"now": datetime(2026, 3, 6, 0, 0, tzinfo=timezone.utc)}
        day = hc.CronHome(os.path.join(root, "day"), clock=lambda: clock["now"],
                          runner=lambda p, j: calls.append(p) or "summary")
        day.add_job("every 5m", "Summarise what changed in the feed", name="feed",
                    monitor_url=f"{base}/feed")
        _Handler.body = b"item 1\n"
        start = time.perf_counter()
        for step in range(288):
            clock["now"] += timedelta(minutes=5)
            if clock["now"].hour == 9 and clock["now"].minute == 0:
                _Handler.body = b"item 1\nitem 2\n"
            if clock["now"].hour == 17 and clock["now"].minute == 0:
                _Handler.body = b"item 2\nitem 3\n"
            day.tick()
        took = time.perf_counter() - start
        fires = len(day.runs(limit=1000))
        results["gate"] = {"fires": fires, "model_calls": len(calls),
                           "saved": fires - len(calls), "seconds": took}
    finally:
        server.shutdown()
        shutil.rmtree(root, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'check':<7}{'claims':>8}{'checks/s':>12}{'floor/s':>12}{'ratio':>8}")
    for name in ("url", "path", "regex", "git"):
        if name not in results:
            continue
        took, floor, n = results[name]
        print(f"{name:<7}{n:>8}{n / took:>12,.0f}{n / floor:>12,.0f}{took / floor:>7.2f}x")
    gate = results["gate"]
    print(f"\nmonitor gate, one simulated day (every 5m, the feed changes twice): "
          f"{gate['fires']} fires, {gate['model_calls']} model calls, {gate['saved']} saved "
          f"({100 * gate['saved'] / gate['fires']:.1f}%); 288 ticks in {gate['seconds']:.1f} s")


if __name__ == "__main__":
    main()
