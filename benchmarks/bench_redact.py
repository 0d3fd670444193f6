#!/usr/bin/env python3
"""Benchmark hermes_cron.redact() on a 1 MiB script output and on hostile inputs.

Run from the repo root:

    python benchmarks/bench_redact.py            # full run, prints a table
    python benchmarks/bench_redact.py --quick    # fewer repeats
    python benchmarks/bench_redact.py --json     # one JSON object on stdout

The realistic input is 1 MiB of generated log lines (timestamps, words,
paths, hex ids, URLs, some key=value pairs and a few secrets).  Each input is
timed beside two floors measured in the same run over the same text: a
trivial ``re.sub`` of a literal (the least any pass costs) and one regex pass
that stops at every word start (what one rule costs that is tried at every
token, the way 200 separate rules would each cost it).  The best of N runs is
reported (the machine is noisy).  Targets: the log in <= 100 ms; each hostile
input (repeated keywords, long runs of key characters, deep nesting) within
2x of that target (<= 200 ms).

Linearity: each hostile input, and a few more adversarial units the tests
use (``MORE_UNITS``), is also timed at a quarter of the size; 4x the text
must cost under 6x the time (``LINEAR_RATIO``; inputs that take under 5 ms
at a quarter size are compared against 5 ms, below which timings are
noise).  This check used to be a test and failed on loaded machines (ratios
7-10): timing comparisons live here, run on a quiet machine.

Exit status: 0 when every target holds, 1 when any is missed (the table
says which).  Stdlib only.
"""

import argparse
import json
import os
import random
import re
import sys
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO_ROOT)

import hermes_cron as hc  # noqa: E402

SIZE = 1 << 20
WORDS = ("starting worker request finished cache miss hit retry connection closed upload "
         "download user job queue scheduled tick ok error warning timeout the a of to and for "
         "with from into database query rows returned latency monkey keyboard turkey tokenizer "
         "passage session author access keys password reset token expired").split()


def realistic_log(size=SIZE, seed=15):
    """Mixed log lines like a chatty script's output, about *size* characters."""
    rng = random.Random(seed)
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    lines, total = [], 0
    while total < size:
        kind = rng.random()
        stamp = (f"2026-03-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
                 f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z")
        head = f"{stamp} {rng.choice(('INFO', 'DEBUG', 'WARN', 'ERROR'))} [{rng.choice(WORDS)}]"
        if kind < 0.40:
            body = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        elif kind < 0.55:
            body = (f"GET /v1/items/{rng.randint(1, 99999)}?page={rng.randint(1, 9)}&sort=asc "
                    f"status={rng.choice((200, 201, 404, 500))} took={rng.randint(1, 900)}ms")
        elif kind < 0.65:
            body = f"commit {rng.getrandbits(160):040x} by user{rng.randint(1, 99)}"
        elif kind < 0.75:
            body = (f"open /var/lib/app/data/{rng.choice(WORDS)}/{rng.randint(1, 999)}.json "
                    f"size={rng.randint(1, 10 ** 6)} sha256={rng.getrandbits(256):064x}")
        elif kind < 0.88:
            body = (f"user_id={rng.randint(1, 10 ** 6)} request_id={rng.getrandbits(128):032x} "
                    f"retries={rng.randint(0, 5)} cache_key=item:{rng.randint(1, 999)} "
                    f"max_tokens={rng.randint(1, 4096)}")
        elif kind < 0.98:
            body = (f"connecting to https://api.example.com/v2/{rng.choice(WORDS)} (timeout "
                    f"{rng.randint(1, 60)} s) uuid {rng.getrandbits(32):08x}-"
                    f"{rng.getrandbits(16):04x}-4{rng.getrandbits(12):03x}-"
                    f"a{rng.getrandbits(12):03x}-{rng.getrandbits(48):012x}")
        else:
            secret = "".join(rng.choice(alnum) for _ in range(36))
            body = rng.choice((f"export GITHUB_TOKEN=ghp_{secret}",
                               f'{{"api_key": "{secret}"}}',
                               f"Authorization: Bearer {secret}"))
        line = f"{head} {body}\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)[:size]


B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


LINEAR_RATIO = 6.0      # 4x the text: under 6x the time
LINEAR_FLOOR_MS = 5.0   # quarter-size timings below this are compared against it

# Adversarial units of test_hermes_cron.py that hostile_inputs() has no exact
# copy of (long runs of key words, base64-like runs, a one-letter assignment).
MORE_UNITS = [("'password_' * N", "password_"), ("'a-' * N", "a-"), ("'a.' * N", "a."),
              ("'api-' * N", "api-"), ("'http://' * N", "http://"), ("'x=' * N", "x="),
              ("'aB3+/xY7' * 8 * N (base64-like words)", "aB3+/xY7" * 8),
              ("'aB3+/xY7' * 5 + '==\\n' * N", "aB3+/xY7" * 5 + "==\n"),
              # the passes of issue 22 part 3: curl -u, Kubernetes Secret data,
              # XML values on their own line, two-part JWTs, identifiers after a prefix
              ("'curl -u a:b ' * N", "curl -u a:b "),
              ("'kind: secret\\ndata:\\n  a: bbbbbbbbbbbb\\n' * N",
               "kind: secret\ndata:\n  a: bbbbbbbbbbbb\n"),
              ("'<apiToken>\\n  x\\n</apiToken>\\n' * N", "<apiToken>\n  x\n</apiToken>\n"),
              ("'eyJaaaaaaaaaa.eyJbbbbbbbbbb ' * N", "eyJaaaaaaaaaa.eyJbbbbbbbbbb "),
              ("'hf_requiredCharacteristicTypes ' * N", "hf_requiredCharacteristicTypes ")]


def more_inputs(size=SIZE):
    """(name, text) for MORE_UNITS, each repeated to exactly *size* characters."""
    return [(name, (unit * (size // len(unit) + 1))[:size]) for name, unit in MORE_UNITS]


def hostile_inputs(size=SIZE):
    """(name, text): inputs built to make a backtracking rule slow."""
    def fill(unit):
        return (unit * (size // len(unit) + 1))[:size]
    return [
        ("'token' * N", fill("token")),
        ("'password=' * N", fill("password=")),
        ("'token= ' * N", fill("token= ")),
        ('\'{"password":"x",\' * N', fill('{"password":"x",')),
        ('\'{"a":\' * N (deep nesting)', fill('{"a":')),
        ("'a' * N", fill("a")),
        ("'aB3' * N (key characters)", fill("aB3")),
        ("'sk-' * N", fill("sk-")),
        ("'eyJ' * N", fill("eyJ")),
        ("'https://' * N", fill("https://")),
        ("'a:b@' * N", fill("a:b@")),
        ("'-----BEGIN PRIVATE KEY-----' * N", fill("-----BEGIN PRIVATE KEY-----")),
        ("'Bearer ' * N", fill("Bearer ")),
        ("'key ' * N", fill("key ")),
        ("'Cookie: a=b; ' * N", fill("Cookie: a=b; ")),
        ("'--password ' * N", fill("--password ")),
        ("'\\u200b' between 'ab' * N", fill("ab\u200b")),
        ("'\\u200b' * N", fill("\u200b")),
        ("'Authorization: Bearer ' * N", fill("Authorization: Bearer ")),
        ("'Authorization: ' * N", fill("Authorization: ")),
        ('\'"key": "\' * N', fill('"key": "')),
        ("'AKIA' * N", fill("AKIA")),
        ("'a=' * N", fill("a=")),
        ("'s=' * N (many rules start with s)", fill("s=")),
        ("'key=,' * N (one assignment per 5 chars)", fill("key=,")),
        ("'pass=a b' * N (name runs on left)", fill("pass=a b")),
        ("'key: {' * N", fill("key: {")),
        ("'<password>' * N", fill("<password>")),
        ("'{' * N", fill("{")),
        ("base64 run", fill(B64)),
        ("base64 lines ending '=='", fill(B64[:58] + "==\n")),
        ("'://a@' * N", fill("://a@")),
        ("'://a:b@' * N", fill("://a:b@")),
        ("'mysql ' * N", fill("mysql ")),
        ("'\\\\nghp_' * N (escaped newlines)", fill("\\nghp_")),
    ]


def best_of(func, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    hc.redact("warm up the compiled rules")
    log = realistic_log()
    floor = re.compile("\x00")
    one_rule = re.compile(r"(?<![\w.-])(?=[\w.-]{14})ghp_[A-Za-z0-9]{36}")
    rows = []
    quarter = dict(hostile_inputs(SIZE // 4) + more_inputs(SIZE // 4))
    for name, text in [("1 MiB realistic log", log)] + hostile_inputs() + more_inputs():
        ms = best_of(lambda: hc.redact(text), repeat)
        floor_ms = best_of(lambda: floor.sub("", text), repeat)
        rule_ms = best_of(lambda: one_rule.sub("", text), repeat)
        row = {"input": name, "ms": round(ms, 1), "floor_ms": round(floor_ms, 2),
               "one_rule_ms": round(rule_ms, 1)}
        if name in quarter:
            small = quarter[name]
            quarter_ms = best_of(lambda: hc.redact(small), repeat)
            row["quarter_ms"] = round(quarter_ms, 1)
            row["x4_ratio"] = round(ms / max(quarter_ms, LINEAR_FLOOR_MS), 2)
        rows.append(row)
    hostile = rows[1:]
    report = {"python": sys.version.split()[0], "rows": rows,
              "log_ok": rows[0]["ms"] <= 100,
              "hostile_ok": all(r["ms"] <= 200 for r in hostile),
              "over": [r["input"] for r in hostile if r["ms"] > 200],
              "linear_ok": all(r["x4_ratio"] < LINEAR_RATIO for r in hostile),
              "not_linear": [r["input"] for r in hostile if r["x4_ratio"] >= LINEAR_RATIO]}
    ok = report["log_ok"] and report["hostile_ok"] and report["linear_ok"]
    if args.json:
        print(json.dumps(report))
        return 0 if ok else 1
    width = max(len(r["input"]) for r in rows)
    print(f"{'input':<{width}}  {'redact ms':>9}  {'target':>6}  {'floor ms':>8}  "
          f"{'one rule ms':>11}  {'x one rule':>10}  {'1/4 size ms':>11}  {'x4 ratio':>8}")
    for i, r in enumerate(rows):
        print(f"{r['input']:<{width}}  {r['ms']:>9.1f}  {100 if i == 0 else 200:>6}  "
              f"{r['floor_ms']:>8.2f}  {r['one_rule_ms']:>11.1f}  "
              f"{r['ms'] / max(r['one_rule_ms'], 0.01):>10.1f}  "
              + (f"{r['quarter_ms']:>11.1f}  {r['x4_ratio']:>8.2f}" if "x4_ratio" in r else ""))
    print(f"log <= 100 ms: {report['log_ok']}; hostile <= 200 ms: {report['hostile_ok']}"
          + (f" (over: {', '.join(report['over'])})" if report["over"] else "")
          + f"; 4x the text under {LINEAR_RATIO:g}x the time: {report['linear_ok']}"
          + (f" (not: {', '.join(report['not_linear'])})" if report["not_linear"] else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
