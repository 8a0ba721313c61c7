#!/usr/bin/env python3
"""A bounded fuzzing pass over bloomlab's command line.

Each case runs one subcommand with flags and inputs drawn, from a fixed seed,
out of pools of hostile values: numbers at and past every limit (0, -1, 2^32,
2^64, 1e308, 5e-324, nan, 0x10, 1_0, ''), words that are nearly right, files
that are missing, empty, binary, not UTF-8, a directory, /dev/zero on standard
input, and real filter files of every kind. Flags come from each command's own
--help, so a new flag is fuzzed without editing this file.

A case passes when bloomlab
  - exits 0, or 2 with one line on stderr (1 only from query: "some item
    answered no"), never by a signal;
  - prints nothing from AddressSanitizer or UndefinedBehaviorSanitizer;
  - finishes within --seconds and peaks under --rss-mb of resident memory.

Usage: fuzz_cli.py BLOOMLAB [--cases N] [--seed S] [--seconds T] [--rss-mb M]
Prints the cases run, how they ended, and every failure as a command line
that reproduces it; exits 1 on any failure.
"""
import argparse
import collections
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

COMMANDS = ["size", "analyze", "hash", "positions", "measure", "trials", "build", "query", "add",
            "remove", "info", "merge", "intersect", "removal", "combine", "bip37"]

NUMBERS = ["0", "1", "2", "3", "7", "8", "64", "65", "100", "1000", "2,000", "2_000", "1_0", "0x10", "-1",
           " 5", "5 ", "", " ", "1e3", "1.5", ".5", "4294967295", "4294967296", "4294967297",
           "18446744073709551615", "18446744073709551616", "1.8446744073709552e19", "1e308", "5e-324",
           "1e-300", "inf", "nan", "9" * 40, "100000000", "1125899906842624", "9007199254740992"]
RATES = ["0.01", "1%", "0.5", "0.99", "0", "1", "100%", "1e-29", "1e-308", "5e-324", "1e-9", "-0.1", "nan",
         "0x0.1p0", "0.01%", ""]
WORDS = ["murmur3", "fnv1a", "enhanced", "double", "independent", "classic", "counting", "blocked", "cuckoo",
         "scalable", "bogus", "MURMUR3", "murmur3_x86_32", "murmur3_x64_128", "fnv1a_32", "fnv1a_64", ""]
TEXTS = ["apple", "", "x" * 5000, "caf\u00e9", "probe-1", "-", "--", "a\tb"]


def make_inputs(tmp, exe):
    """Lists and filter files to give as arguments, built once per run."""
    paths = {}

    def write(name, data):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    paths["list"] = write("list.txt", b"".join(b"item%d\n" % i for i in range(300)))
    paths["small"] = write("small.txt", b"apple\nbanana\ncherry\n")
    paths["empty"] = write("empty.txt", b"")
    paths["binary"] = write("binary.bin", bytes(range(256)) * 8)
    paths["latin1"] = write("latin1.txt", b"caf\xe9\n")
    paths["longline"] = write("longline.txt", b"a" * (2 << 20))
    paths["hexes"] = write("hexes.txt", b"00\nff\n0102\nzz\n")
    paths["dir"] = tmp
    paths["missing"] = os.path.join(tmp, "missing.txt")
    filters = []
    for kind, sizing in [("classic", ["--n", "300", "--p", "0.01"]), ("counting", ["--n", "300", "--p", "0.01"]),
                         ("blocked", ["--n", "300", "--p", "0.01"]), ("cuckoo", ["--n", "300", "--p", "0.01"]),
                         ("scalable", ["--n", "50", "--p", "0.01"]), ("fuse8", []), ("xor8", []),
                         ("cacheline", ["--n", "300", "--p", "0.01"])]:
        out = os.path.join(tmp, kind + ".blf")
        subprocess.run([exe, "build", paths["list"], "--kind", kind, *sizing, "-o", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        filters.append(out)
    paths["filters"] = filters
    paths["junk_filter"] = write("junk.blf", b"BLOOMLAB" + bytes(64))
    # Key files for --key-file: raw and hex keys, and ones refused (too
    # short, not hex, all zeros); and a keyed filter built with the raw key.
    keys = [write("raw.key", bytes(range(1, 17))), write("hex.key", b"00112233445566778899aabbccddeeff\n"),
            write("short.key", b"0123"), write("nothex.key", b"z" * 32), write("zero.key", bytes(16))]
    paths["keys"] = keys + [paths["missing"], paths["dir"], paths["binary"]]
    keyed = os.path.join(tmp, "keyed.blf")
    subprocess.run([exe, "build", paths["list"], "--n", "300", "--p", "0.01", "--key-file", keys[0], "-o", keyed],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    paths["filters"].append(keyed)
    return paths


def options_of(exe, command):
    """The flags of one command, from its --help: (name, takes_value)."""
    text = subprocess.run([exe, command, "--help"], capture_output=True, text=True).stdout
    opts = []
    for m in re.finditer(r"^\s+(?:-\w,)?(--[\w-]+)(\s+\S+)?", text, re.M):
        name, arg = m.group(1), m.group(2)
        if name == "--help":
            continue
        opts.append((name, bool(arg) and not arg.strip().startswith(("Print", "Round"))))
    return opts


# Values a user would give, per flag; a case takes one of these most of the
# time, so that it gets past the first check and reaches the work.
PLAUSIBLE = {"--n": ["20", "300", "1000", "100000"], "--m": ["1000", "2000", "100000", "1000000"],
             "--k": ["1", "3", "7", "16"], "--p": ["0.01", "1%", "0.001", "0.1"], "--probes": ["10", "1000"],
             "--filters": ["2", "10"], "--step": ["1", "20", "100"], "--width": ["1", "4", "8"],
             "--growth": ["1", "2", "4"], "--tighten": ["0.5", "0.85", "0.99"], "--fingerprint": ["4", "8", "32"],
             "--seed": ["0", "1", "42"], "--tweak": ["0", "7"], "--flags": ["0", "1", "2"],
             "--kind": ["classic", "counting", "blocked", "blocked256", "cuckoo", "scalable", "fuse8", "fuse16", "xor8",
                        "cacheline"],
             "--layout": ["512", "256"]}  # refused now, by name


def value_for(rng, name, tmp, inputs=None):
    if name in ("-o", "--output"):
        return rng.choice([os.path.join(tmp, "out.blf")] * 4 +
                          [tmp, os.path.join(tmp, "fifo"), os.path.join(tmp, "link.blf"),
                           os.path.join(tmp, "no", "such", "dir.blf")])
    if name in PLAUSIBLE and rng.random() < 0.7:
        return rng.choice(PLAUSIBLE[name])
    if name in ("--p", "--tighten"):
        return rng.choice(RATES + NUMBERS[:8])
    if name in ("--hash", "--scheme", "--kind", "--fn"):
        return rng.choice(WORDS)
    if name == "--remove":
        return rng.choice(TEXTS)
    if name == "--key-file" and inputs is not None:
        return rng.choice(inputs["keys"])
    return rng.choice(NUMBERS)


def positionals(rng, command, inputs):
    """What the command takes before its flags: most often the right kind of thing."""
    lists = [inputs["list"], inputs["small"]]
    hostile = [inputs["empty"], inputs["binary"], inputs["latin1"], inputs["longline"], inputs["dir"],
               inputs["missing"], inputs["junk_filter"], "-"]

    def one(good):
        return rng.choice(good) if rng.random() < 0.8 else rng.choice(hostile + TEXTS)

    if command in ("measure", "removal", "build"):
        return [one(lists)]
    if command == "combine":
        return [one(lists), one(lists)]
    if command in ("query", "add", "remove"):
        return [one(inputs["filters"])] + rng.choice([["-"], ["apple", "probe-1"], rng.sample(TEXTS, 2)])
    if command == "info":
        return [one(inputs["filters"])]
    if command in ("merge", "intersect"):
        return [one(inputs["filters"]), one(inputs["filters"])]
    if command in ("hash", "positions"):
        return rng.sample(TEXTS, rng.randint(1, 3))
    if command == "bip37":
        return rng.choice([[], ["00", "ff01"], ["-"], ["zz"]])
    return [one(TEXTS)] if rng.random() < 0.1 else []


def make_case(rng, command, opts, inputs, tmp):
    args = [command] + positionals(rng, command, inputs)
    sizing = [o for o in opts if o[0] in ("--n", "--p", "--m", "--k", "-o", "--output")]
    chosen = set(rng.sample(opts, min(len(opts), rng.randint(0, 4))))
    chosen |= {o for o in sizing if rng.random() < 0.7}
    for name, takes in sorted(chosen):
        args.append(name)
        if takes:
            args.append(value_for(rng, name, tmp, inputs))
    stdin = rng.choice(["/dev/null", inputs["list"], inputs["small"], inputs["small"], "/dev/zero", inputs["binary"]])
    return args, stdin


def run_case(exe, args, stdin, seconds, env):
    start = time.monotonic()
    with open(stdin, "rb") as fin:
        proc = subprocess.Popen([exe, *args], stdin=fin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=seconds)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            timed_out = True
    elapsed = time.monotonic() - start
    return proc.returncode, out, err.decode("utf-8", "replace"), elapsed, timed_out


def check(command, rc, err, timed_out, rss_mb, limits):
    problems = []
    if timed_out:
        problems.append("ran past %d s" % limits.seconds)
    if rss_mb > limits.rss_mb:
        problems.append("peaked at %.0f MiB, over %d MiB" % (rss_mb, limits.rss_mb))
    if rc < 0:
        problems.append("killed by signal %d" % -rc)
    elif rc not in (0, 2) and not (rc == 1 and command == "query"):
        problems.append("exit code %d" % rc)
    if re.search(r"AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|LeakSanitizer", err):
        problems.append("sanitizer: " + err.strip().splitlines()[0][:300])
    if rc == 2 and (err.count("\n") != 1 or not err.endswith("\n")):
        problems.append("exit 2 without exactly one line on stderr: %r" % err[:300])
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("exe")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--rss-mb", type=int, default=4096)
    limits = ap.parse_args()

    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    rng = random.Random(limits.seed)
    tmp = tempfile.mkdtemp(prefix="bloomlab-fuzz-cli-")
    failures = []
    endings = collections.Counter()
    try:
        inputs = make_inputs(tmp, limits.exe)
        os.mkfifo(os.path.join(tmp, "fifo"))
        os.symlink(os.path.join(tmp, "classic.blf"), os.path.join(tmp, "link.blf"))
        opts = {c: options_of(limits.exe, c) for c in COMMANDS}
        started = time.monotonic()
        slowest = (0.0, None)
        for i in range(limits.cases):
            command = rng.choice(COMMANDS)
            args, stdin = make_case(rng, command, opts[command], inputs, tmp)
            # RUSAGE_CHILDREN's ru_maxrss is the largest of all children so far:
            # a fresh watcher process per case makes it this case's own peak.
            pid = os.fork()
            if pid == 0:
                rc, out, err, elapsed, timed_out = run_case(limits.exe, args, stdin, limits.seconds, env)
                rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
                problems = check(command, rc, err, timed_out, rss, limits)
                with open(os.path.join(tmp, "result"), "w") as f:
                    f.write("%d\t%.3f\t%.0f\n%s" % (rc, elapsed, rss, "\n".join(problems)))
                os._exit(0)
            os.waitpid(pid, 0)
            with open(os.path.join(tmp, "result")) as f:
                head, *problems = f.read().split("\n")
            rc, elapsed, rss = head.split("\t")
            endings[(command, int(rc))] += 1
            if float(elapsed) > slowest[0]:
                slowest = (float(elapsed), args)
            problems = [p for p in problems if p]
            if problems:
                line = "bloomlab " + " ".join(shlex.quote(a) for a in args) + " < " + shlex.quote(stdin)
                failures.append("%s\n    %s" % (line, "; ".join(problems)))
        total = time.monotonic() - started
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("fuzz_cli: %d cases (seed %d) in %.0f s; slowest %.1f s: %s" %
          (limits.cases, limits.seed, total, slowest[0], " ".join(slowest[1] or [])[:200]))
    by_rc = collections.Counter()
    for (command, rc), n in endings.items():
        by_rc[rc] += n
    print("fuzz_cli: endings by exit code: " + ", ".join("%d: %d" % kv for kv in sorted(by_rc.items())))
    for f in failures:
        print("FAIL " + f)
    print("fuzz_cli: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
