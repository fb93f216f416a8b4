#!/usr/bin/env python3
"""A campaign of hostile uses of iso3dfd and iso3dfd-studio, as a careless or hostile user would try them.

Each case runs a program on one hostile input and classifies what happened:

  ok        the run worked, or refused with a message, and everything that should stay stayed
  crash     the program died of a signal it was not sent (SIGSEGV, SIGABRT, ...)
  hang      it was still running at the timeout
  loss      a file that should have stayed was changed, replaced or removed (a device, a FIFO, a link,
            a folder, an input, the previous output of a failed run, a cache of another user), or an
            output was left half written
  litter    a temporary file of the program's was left behind
  message   the program failed with a bare exception text ("stoul", "std::bad_alloc") instead of a message

Kinds of cases: output targets (every output option against files, links, FIFOs, folders, the standard
output, devices), malformed inputs (checkpoints, scenarios, model files), hostile caches (tuning, ceilings,
kernel entries, foreign cache folders), numbers past their limits, interrupts (SIGINT/SIGTERM/SIGHUP in the
middle of writing), stale temporaries, and the studio's screenshots, recordings and benchmark reports.

Device files are made only inside private mount namespaces (unshare -m, a tmpfs), never on the machine's
/dev; those cases are skipped, and counted as such, where unshare is not allowed.

  tests/fuzz/campaign/campaign.py --iso3dfd build/app/cli/iso3dfd --studio build/app/studio/iso3dfd-studio \\
      --table campaign.md            # the whole campaign (minutes)
  tests/fuzz/campaign/campaign.py --iso3dfd build/app/cli/iso3dfd --quick   # a subset of seconds (CI)

The exit status is 1 when any case is a crash, hang, loss, litter or message.
"""
import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

BAD_OUTCOMES = ("crash", "hang", "loss", "litter", "message")
# Texts of exceptions that reached the user without a message of the program's own.
BARE_TEXTS = re.compile(r"error: (stoul|stoi|stod|stol|std::bad_alloc|basic_string|vector::|bad_array_new_length)\b|"
                        r"terminate called|Assertion .* failed|AddressSanitizer|runtime error:")
TEMPORARY = re.compile(r"^\..+\.(iso3dfd-\d+-\d+\.tmp|\d+\.\d+\.tmp|partial-[a-z0-9]{6})$")


def entry_state(path):
    """What is at `path`, compared before and after a case (links are not followed)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ("missing",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", tuple(sorted(os.listdir(path))))
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo", st.st_ino)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return ("device", st.st_mode & 0o170000, st.st_rdev, st.st_ino)
    with open(path, "rb") as f:  # the first MiB, the size and the times: a sparse file may be 770 GB
        return ("file", hashlib.sha256(f.read(1 << 20)).hexdigest(), stat.S_IMODE(st.st_mode), st.st_size,
                st.st_mtime_ns, st.st_ino)


def leftovers(folder):
    try:
        return [n for n in os.listdir(folder) if TEMPORARY.match(n)]
    except OSError:
        return []


class Campaign:
    def __init__(self, args):
        self.iso3dfd = os.path.abspath(args.iso3dfd)
        self.studio = os.path.abspath(args.studio) if args.studio else None
        self.quick = args.quick
        self.timeout = args.timeout
        self.random = random.Random(args.seed)
        self.work = tempfile.mkdtemp(prefix="iso3dfd-campaign-")
        self.results = collections.OrderedDict()  # kind -> Counter of outcomes
        self.failures = []
        self.case_number = 0
        self.env = dict(os.environ)
        self.env["ISO3DFD_CACHE_DIR"] = self.folder("cache")
        self.env.setdefault("POCL_CACHE_DIR", self.folder("pocl-cache"))
        self.namespaces = self.check_namespaces()
        self.opencl = "No OpenCL device found" not in self.run([self.iso3dfd, "devices"])[1]

    # -- plumbing ------------------------------------------------------------------------------------------

    def folder(self, name):
        path = os.path.join(self.work, name)
        os.makedirs(path, exist_ok=True)
        os.chmod(path, 0o700)
        return path

    def case_folder(self):
        self.case_number += 1
        return self.folder("case-%05d" % self.case_number)

    def check_namespaces(self):
        if shutil.which("unshare") is None or os.geteuid() != 0:
            return False
        return subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True).returncode == 0

    def run(self, argv, env=None, timeout=None, shell=False, delay_signal=None):
        """(status, output): status is the exit status, -N for death by signal N, None for a hang."""
        process = subprocess.Popen(argv, shell=shell, env=env or self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            if delay_signal:
                delay, sig = delay_signal
                try:
                    process.wait(timeout=delay)
                except subprocess.TimeoutExpired:
                    process.send_signal(sig)
            output, _ = process.communicate(timeout=timeout or self.timeout)
            return process.returncode, output.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            return None, output.decode("utf-8", "replace")

    def record(self, kind, case, status, output, losses=(), folders=(), sent_signal=None):
        litter = [os.path.join(f, n) for f in folders for n in leftovers(f)]
        if status is None:
            outcome = "hang"
        elif status < 0 and -status != sent_signal:
            outcome = "crash"
        elif losses:
            outcome = "loss"
        elif litter:
            outcome = "litter"
        elif BARE_TEXTS.search(output or ""):
            outcome = "message"
        else:
            outcome = "ok"
        self.results.setdefault(kind, collections.Counter())[outcome] += 1
        if outcome != "ok":
            self.failures.append({"kind": kind, "case": case, "outcome": outcome, "status": status,
                                  "losses": list(losses), "litter": litter, "output": (output or "")[-2000:]})
        return outcome

    def skip(self, kind, count=1):
        self.results.setdefault(kind, collections.Counter())["skipped"] += count

    def cli(self, args, folder, kind, case, watched=(), expect_change=(), env=None, timeout=None, prefix=""):
        """Runs `iso3dfd args` (a shell line) in `folder`; `watched` paths must not change, except those in
        `expect_change`, which may change only when the run succeeds."""
        before = {p: entry_state(p) for p in watched}
        status, output = self.run("cd %s && %s %s %s" % (quote(folder), prefix, quote(self.iso3dfd), args), shell=True,
                                  env=env, timeout=timeout)
        losses = []
        for path, state in before.items():
            after = entry_state(path)
            if after == state:
                continue
            if path in expect_change and status == 0 and after[0] == "file" and (state[0] != "file" or after[2] == state[2]):
                continue  # a successful run replaced the file's contents, and kept its mode
            losses.append("%s: %s -> %s" % (path, state[0], after[0]))
        return self.record(kind, case, status, output, losses, folders=[folder]), status, output

    # -- output targets ------------------------------------------------------------------------------------

    OUTPUTS = [("--dump", ".npy"), ("--dump", ".vti"), ("--dump-model", ".npy"), ("--traces", ".csv"),
               ("--traces", ".npy"), ("--traces", ".sgy"), ("--save-scenario", ".json"), ("--checkpoint", ".ckp"),
               ("bench --json", ".json"), ("bench --csv", ".csv")]

    def command_for(self, option, target):
        if option.startswith("bench"):
            return "bench 12 12 12 2 --stages cpu-serial --repeat 1 %s %s" % (option.split()[1], quote(target))
        return "run 12 12 12 3 --stage cpu-serial --receiver 2,2,2 %s %s" % (option, quote(target))

    def output_targets(self):
        kinds = [self.target_missing, self.target_regular, self.target_link, self.target_dangling_link,
                 self.target_link_to_folder, self.target_folder, self.target_fifo_with_reader,
                 self.target_fifo_without_reader, self.target_read_only, self.target_missing_folder,
                 self.target_stdout, self.target_descriptor, self.target_long_name, self.target_odd_name,
                 self.target_same_as_input, self.target_link_loop]
        if self.quick:
            kinds = kinds[:3] + [self.target_fifo_without_reader, self.target_stdout]
        for option, extension in (self.OUTPUTS[:3] if self.quick else self.OUTPUTS):
            for make in kinds:
                make(option, extension)
            if not self.quick:
                self.device_targets(option, extension)

    def simple_target(self, option, extension, name, prepare, must_stay, may_change=()):
        folder = self.case_folder()
        target = os.path.join(folder, name + extension)
        extra = prepare(folder, target) or ""
        self.cli(self.command_for(option, target) + extra, folder, "output targets", "%s -> %s" % (option, name),
                 watched=must_stay(folder, target), expect_change=may_change(folder, target) if may_change else ())

    def target_missing(self, option, extension):
        self.simple_target(option, extension, "new", lambda f, t: None, lambda f, t: [])

    def target_regular(self, option, extension):
        def prepare(folder, target):
            with open(target, "w") as f:
                f.write("previous output")
        self.simple_target(option, extension, "old", prepare, lambda f, t: [t], lambda f, t: [t])

    def target_link(self, option, extension):
        def prepare(folder, target):
            with open(os.path.join(folder, "real" + extension), "w") as f:
                f.write("previous output")
            os.symlink("real" + extension, target)
        self.simple_target(option, extension, "link", prepare, lambda f, t: [t, os.path.join(f, "real" + extension)],
                           lambda f, t: [os.path.join(f, "real" + extension)])

    def target_dangling_link(self, option, extension):
        self.simple_target(option, extension, "dangling", lambda f, t: os.symlink("nowhere" + extension, t),
                           lambda f, t: [t])

    def target_link_to_folder(self, option, extension):
        def prepare(folder, target):
            os.mkdir(os.path.join(folder, "sub"))
            with open(os.path.join(folder, "sub", "keep"), "w") as f:
                f.write("keep")
            os.symlink("sub", target)
        self.simple_target(option, extension, "dirlink", prepare,
                           lambda f, t: [t, os.path.join(f, "sub"), os.path.join(f, "sub", "keep")])

    def target_folder(self, option, extension):
        def prepare(folder, target):
            os.mkdir(target)
            with open(os.path.join(target, "keep"), "w") as f:
                f.write("keep")
        self.simple_target(option, extension, "folder", prepare, lambda f, t: [t, os.path.join(t, "keep")])

    def target_fifo_with_reader(self, option, extension):
        folder = self.case_folder()
        target = os.path.join(folder, "fifo" + extension)
        os.mkfifo(target)
        # The reader is this script: the FIFO is held open before the run starts (a reader started beside the
        # run may not have opened it yet when the run writes), and a thread reads whatever comes.
        holder = os.open(target, os.O_RDONLY | os.O_NONBLOCK)

        def drain():
            with open(target, "rb") as fifo:  # opens once a writer has
                while fifo.read(1 << 16):
                    pass

        reader = threading.Thread(target=drain)
        reader.start()
        try:
            self.cli(self.command_for(option, target), folder, "output targets", option + " -> FIFO with a reader",
                     watched=[target])
        finally:
            os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK))  # a run that refused leaves the reader waiting
            reader.join()
            os.close(holder)

    def target_fifo_without_reader(self, option, extension):
        folder = self.case_folder()
        target = os.path.join(folder, "fifo" + extension)
        os.mkfifo(target)
        self.cli(self.command_for(option, target), folder, "output targets", option + " -> FIFO without a reader",
                 watched=[target], timeout=30)

    def target_read_only(self, option, extension):
        def prepare(folder, target):
            with open(target, "w") as f:
                f.write("read-only")
            os.chmod(target, 0o444)
        # Root writes a read-only file as `>` does; the mode must stay.
        self.simple_target(option, extension, "readonly", prepare, lambda f, t: [t],
                           (lambda f, t: [t]) if os.geteuid() == 0 else None)

    def target_missing_folder(self, option, extension):
        self.simple_target(option, extension, "missing/x", lambda f, t: None,
                           lambda f, t: [os.path.join(f, "missing")])

    def target_stdout(self, option, extension):
        folder = self.case_folder()
        log = os.path.join(folder, "log")
        with open(log, "w") as f:
            f.write("before\n")
        before = os.lstat(log).st_ino
        outcome, status, _ = self.cli(self.command_for(option, "/dev/stdout") + " >> " + quote(log), folder,
                                      "output targets", option + " -> /dev/stdout >> log")
        with open(log, "rb") as f:
            text = f.read()
        if outcome == "ok" and (os.lstat(log).st_ino != before or not text.startswith(b"before\n")):
            self.reclassify("output targets", option + " -> /dev/stdout", "log was replaced")

    def target_descriptor(self, option, extension):
        folder = self.case_folder()
        log = os.path.join(folder, "fd3")
        with open(log, "w") as f:
            f.write("before\n")
        outcome, status, _ = self.cli(self.command_for(option, "/dev/fd/3") + " 3>>" + quote(log), folder,
                                      "output targets", option + " -> /dev/fd/3")
        with open(log, "rb") as f:
            if outcome == "ok" and not f.read().startswith(b"before\n"):
                self.reclassify("output targets", option + " -> /dev/fd/3", "fd3 lost its first line")

    def target_long_name(self, option, extension):
        self.simple_target(option, extension, "n" * 300, lambda f, t: None, lambda f, t: [f])

    def target_odd_name(self, option, extension):
        name = self.random.choice(["new\nline", " spaced ", "-dash", "ü\u00e9\u4e2d", "a'quote", "$(id)", "*", ".."])
        self.simple_target(option, extension, name, lambda f, t: None, lambda f, t: [])

    def target_same_as_input(self, option, extension):
        if option.startswith("bench"):
            return self.target_missing(option, extension)
        folder = self.case_folder()
        scenario = os.path.join(folder, "s" + extension)
        self.run("%s run 12 12 12 2 --save-scenario %s" % (quote(self.iso3dfd), quote(os.path.join(folder, "s.json"))),
                 shell=True)
        if extension != ".json":
            os.symlink("s.json", scenario)
        args = "run --scenario %s 12 12 12 2 --stage cpu-serial --receiver 2,2,2 %s %s" % (
            quote(os.path.join(folder, "s.json")), option, quote(scenario))
        self.cli(args, folder, "output targets", option + " -> the scenario it reads",
                 watched=[os.path.join(folder, "s.json"), scenario])

    def target_link_loop(self, option, extension):
        def prepare(folder, target):
            os.symlink("b" + extension, target)
            os.symlink(os.path.basename(target), os.path.join(folder, "b" + extension))
        self.simple_target(option, extension, "loop", prepare, lambda f, t: [t, os.path.join(f, "b" + extension)])

    def reclassify(self, kind, case, why):
        counter = self.results[kind]
        counter["ok"] -= 1
        counter["loss"] += 1
        self.failures.append({"kind": kind, "case": case, "outcome": "loss", "losses": [why]})

    def device_targets(self, option, extension):
        """Character and block devices in a private mount namespace: /dev itself a fresh tmpfs there."""
        devices = [("null", "c 1 3"), ("zero", "c 1 5"), ("full", "c 1 7"), ("random", "c 1 8"), ("loop200", "b 7 200")]
        for name, numbers in devices + [("link-to-null", None)]:
            case = "%s -> /dev/%s (private namespace)" % (option, name)
            if not self.namespaces:
                self.skip("output targets")
                continue
            make = "ln -s null /dev/%s" % name if numbers is None else "mknod /dev/%s %s" % (name, numbers)
            before = "mknod /dev/null c 1 3 2>/dev/null; " if numbers is None else ""
            script = ("mount -t tmpfs tmpfs /dev && %s%s && A=$(stat -c %%F:%%t:%%T /dev/%s) && "
                      "%s %s > /tmp/.iso3dfd-campaign-out 2>&1; S=$?; B=$(stat -c %%F:%%t:%%T /dev/%s); "
                      "cat /tmp/.iso3dfd-campaign-out; [ \"$A\" = \"$B\" ] || echo DEVICE-REPLACED $A $B; exit $S") % (
                before, make, name, quote(self.iso3dfd), self.command_for(option, "/dev/" + name), name)
            status, output = self.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script])
            losses = ["/dev/%s replaced" % name] if "DEVICE-REPLACED" in output else []
            self.record("output targets", case, status, output, losses)

    # -- malformed inputs ----------------------------------------------------------------------------------

    def mutate(self, data):
        data = bytearray(data)
        for _ in range(1 + self.random.randrange(4)):
            choice = self.random.randrange(8)
            at = self.random.randrange(len(data) + 1) if data else 0
            if choice == 0 and data:
                data[self.random.randrange(len(data))] ^= 1 << self.random.randrange(8)
            elif choice == 1:
                del data[self.random.randrange(len(data) + 1):]
            elif choice == 2:
                data[at:at] = os.urandom(1 + self.random.randrange(16))
            elif choice == 3:
                number = self.random.choice([b"1e308", b"-1", b"18446744073709551616", b"2305843009213693957",
                                             b"2147483648", b"NaN", b"0", b"99999999999"])
                match = list(re.finditer(rb"\d+", bytes(data)))
                if match:
                    m = self.random.choice(match)
                    data[m.start():m.end()] = number
            elif choice == 4:
                depth = self.random.choice([10, 70, 100000])
                data[at:at] = b"[" * depth + b"1" + b"]" * depth
            elif choice == 5 and data:
                del data[at:at + self.random.randrange(64)]
            elif choice == 6:
                data[at:at] = bytes(data[at:at + 4096])
            else:
                data[at:at] = b"\x00\xff\x7f\x80"
        return bytes(data)

    def inputs(self):
        counts = {"checkpoints": 10, "scenario files": 10, "model files": 6} if self.quick else \
            {"checkpoints": 220, "scenario files": 200, "model files": 110}
        seeds = self.folder("seeds")
        checkpoint = os.path.join(seeds, "seed.ckp")
        self.run("%s run 12 10 8 4 --stage cpu-serial --boundary absorbing --boundary-width 2 --receiver 1,1,1 "
                 "--checkpoint %s" % (quote(self.iso3dfd), quote(checkpoint)), shell=True)
        scenario = os.path.join(seeds, "seed.json")
        self.run("%s run 12 12 12 2 --receiver 1,2,3 --save-scenario %s" % (quote(self.iso3dfd), quote(scenario)), shell=True)
        model = os.path.join(seeds, "model.npy")
        self.run("%s run 12 12 12 1 --stage cpu-serial --dump-model %s" % (quote(self.iso3dfd), quote(model)), shell=True)
        with open(checkpoint, "rb") as f:
            checkpoint_bytes = f.read()
        with open(scenario, "rb") as f:
            scenario_bytes = f.read()
        with open(model, "rb") as f:
            model_bytes = f.read()
        for n in range(counts["checkpoints"]):
            self.input_case("checkpoints", "mutated checkpoint %d" % n, "c.ckp", self.mutate(checkpoint_bytes),
                            "run 3 --restart {}")
        self.special_checkpoints(checkpoint_bytes)
        for n in range(counts["scenario files"]):
            self.input_case("scenario files", "mutated scenario %d" % n, "s.json", self.mutate(scenario_bytes),
                            "run --scenario {} 12 12 12 2 --stage cpu-serial")
        for n in range(counts["model files"]):
            kind = n % 3
            if kind == 0:
                self.input_case("model files", "mutated .npy %d" % n, "m.npy", self.mutate(model_bytes),
                                "run 12 12 12 2 --stage cpu-serial --model-file {}")
            elif kind == 1:
                raw = self.mutate(model_bytes[128:])
                self.input_case("model files", "raw float32 %d" % n, "m.bin", raw,
                                "run 12 12 12 2 --stage cpu-serial --model-file {} --model-dims 12,12,%d" %
                                self.random.choice([12, 0, 16384, 2147483647]))
            else:
                self.segy_case(n)

    def input_case(self, kind, case, name, data, args, sparse_to=None):
        folder = self.case_folder()
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        if sparse_to:
            os.truncate(path, sparse_to)
        self.cli(args.format(quote(path)), folder, kind, case, watched=[path])

    def special_checkpoints(self, seed):
        """Header edits that reach past the length and checksum checks: the known ways to hurt."""
        length = struct.unpack("<I", seed[12:16])[0]
        header = json.loads(seed[16:16 + length])
        data = seed[16 + length:]

        def build(edit, data_bytes=None, sparse=None):
            h = json.loads(json.dumps(header))
            edit(h)
            text = json.dumps(h).encode()
            return seed[:12] + struct.pack("<I", len(text)) + text + (data if data_bytes is None else data_bytes), sparse

        def deep_scenario():
            text = json.dumps(header).encode()
            nested = b'{"a": ' * 100000 + b"1" + b"}" * 100000
            text = text.replace(b'"scenario": {', b'"scenario": {"extra": ' + nested + b", ", 1)
            return seed[:12] + struct.pack("<I", len(text)) + text + data, None

        def huge_grid(h):
            h["scenario"]["n1"] = h["scenario"]["n2"] = h["scenario"]["n3"] = 4000
            h["scenario"]["receivers"] = []
            h["arrays"][0]["count"] = h["arrays"][1]["count"] = 4016 ** 3
            h["arrays"][2]["count"] = 4000 ** 3
            h["arrays"][3]["count"] = 0
        cases = {
            "step 2^61+5": build(lambda h: h.update(step=2 ** 61 + 5)),
            "step -1": build(lambda h: h.update(step=-1)),
            "step 1e9 + 1": build(lambda h: h.update(step=10 ** 9 + 1)),
            "deep scenario": deep_scenario(),
            "count 2^64-1": build(lambda h: h["arrays"][4].update(count=2 ** 64 - 1)),
            "4000^3 grid, sparse": build(huge_grid, b"", sparse=(2 * 4016 ** 3 + 4000 ** 3) * 4),
        }
        for name, (data_text, sparse) in cases.items():
            self.input_case("checkpoints", name, "c.ckp", data_text, "run 3 --restart {}",
                            sparse_to=(len(data_text) + sparse) if sparse else None)

    def segy_case(self, n):
        """A SEG-Y file: a few traces, then made sparse to a huge size, or mutated."""
        traces, samples = 4, 12
        binary = bytearray(b" " * 3200 + bytes(400))
        for offset, value in ((3216, 4000), (3220, samples), (3224, 5)):  # interval (us), samples, IEEE float
            struct.pack_into(">h", binary, offset, value)
        body = b"".join(bytes(240) + struct.pack(">%df" % samples, *([2000.0] * samples)) for _ in range(traces))
        data = bytes(binary) + body
        if n % 2:
            dims, size = "16384,16384,0", 3600 + 16384 * 16384 * (240 + 4 * samples)
            self.input_case("model files", "sparse SEG-Y 16384x16384 %d" % n, "m.sgy", data,
                            "run 12 12 12 2 --stage cpu-serial --model-file {} --model-dims " + dims, sparse_to=size)
        else:
            self.input_case("model files", "mutated SEG-Y %d" % n, "m.sgy", self.mutate(data),
                            "run 12 12 12 2 --stage cpu-serial --model-file {} --model-dims 4,1,0")

    # -- caches --------------------------------------------------------------------------------------------

    def caches(self):
        deep = b"[" * 1000000 + b"]" * 1000000
        bodies = [deep, b"null", b"{", b"\x00" * 64, b'{"schema": "iso3dfd-tuning/2", "entries": []}', b" " * (17 << 20),
                  b'{"schema": "iso3dfd-tuning/1", "entries": [{"stage": "gpu-basic", "params": {"x": 2147483648}}]}',
                  json.dumps({"schema": "iso3dfd-tuning/1", "entries": [{"stage": "gpu-slm", "match": {},
                              "params": {"tile_x": 2 ** 31}, "measured": {"mpts_per_s": 1e308, "grid": [2 ** 40, 1, 1]}}]}).encode(),
                  b'{"any device": {"copy_gbs": {"min": 1, "median": 1e308, "max": 1e308, "runs": 7, "date": "x"}}}']
        files = ["tuning.json", "bandwidth.json", "host-bandwidth.json"]
        rounds = 1 if self.quick else 6
        stage = "gpu-basic" if self.opencl else "cpu-serial"
        for r in range(rounds):
            for name in files:
                for i, body in enumerate(bodies):
                    if self.quick and i != 0:
                        continue
                    if r > 0:
                        body = self.mutate(body[:4096]) if len(body) > 4096 else self.mutate(body)
                    # The host's ceiling is read for the CPU stages, the devices' and the tuning for OpenCL ones.
                    self.cache_case(name, body, "cpu-serial" if name.startswith("host") else stage,
                                    "%s: body %d, round %d" % (name, i, r))
        if not self.quick:
            self.kernel_cache_cases(stage)
            self.foreign_cache_folders(stage)
            self.tune_over_damaged_database()

    def cache_case(self, name, body, stage, case):
        folder = self.case_folder()
        cache = os.path.join(folder, "cache")
        os.mkdir(cache, 0o700)
        path = os.path.join(cache, name)
        with open(path, "wb") as f:
            f.write(body)
        env = dict(self.env, ISO3DFD_CACHE_DIR=cache)
        digest = hashlib.sha256(body).hexdigest()
        outcome, status, output = self.cli("run 40 40 40 2 --stage " + stage, folder, "caches", case, env=env)
        # The file is used, left, or set aside whole: never lost.
        kept = [n for n in os.listdir(cache) if n == name or n.startswith(name + ".damaged-")]
        if outcome == "ok" and not any(hashlib.sha256(open(os.path.join(cache, n), "rb").read()).hexdigest() == digest or
                                       n == name for n in kept):
            self.reclassify("caches", case, "the damaged cache file was not kept")

    def kernel_cache_cases(self, stage):
        if stage != "gpu-basic":
            return self.skip("caches", 24)
        folder = self.case_folder()
        cache = os.path.join(folder, "cache")
        env = dict(self.env, ISO3DFD_CACHE_DIR=cache)
        self.run("cd %s && %s run 12 12 12 1 --stage gpu-basic" % (quote(folder), quote(self.iso3dfd)), shell=True, env=env)
        entries = [os.path.join(cache, "kernels", n) for n in os.listdir(os.path.join(cache, "kernels")) if n.endswith(".bin")]
        originals = {p: open(p, "rb").read() for p in entries}
        for n in range(24):
            for p, data in originals.items():
                forged = bytearray(data)
                if n % 3 == 0:   # payload changed, the MAC left as it was
                    forged[48 + self.random.randrange(len(forged) - 48)] ^= 0x40
                elif n % 3 == 1:  # garbage of the right length and a made-up MAC
                    forged[16:] = os.urandom(len(forged) - 16)
                else:
                    forged = bytearray(self.mutate(data))
                with open(p, "wb") as f:
                    f.write(forged)
            self.cli("run 12 12 12 1 --stage gpu-basic", folder, "caches", "forged kernel-cache entries %d" % n, env=env)

    def foreign_cache_folders(self, stage):
        """Cache folders another user can write or owns: never used, never written into."""
        for n, (mode, owner) in enumerate([(0o777, None), (0o775, None), (0o700, 12345), (0o755, 12345)] * 3):
            if owner is not None and os.geteuid() != 0:
                self.skip("caches")
                continue
            folder = self.case_folder()
            cache = os.path.join(folder, "theirs")
            os.mkdir(cache)
            os.chmod(cache, mode)
            if owner is not None:
                os.chown(cache, owner, owner)
            elif mode & 0o020:  # writable by a group that is not the user's own private one (which may write)
                others = [g for g in os.getgroups() if g != os.getegid()]
                if os.geteuid() != 0 and not others:
                    self.skip("caches")
                    continue
                os.chown(cache, -1, 12345 if os.geteuid() == 0 else others[0])
            env = dict(self.env, ISO3DFD_CACHE_DIR=cache, XDG_CACHE_HOME=os.path.join(folder, "mine"))
            self.cli("run 40 40 40 2 --stage " + stage, folder, "caches", "cache folder mode %o owner %s" % (mode, owner),
                     watched=[cache], env=env)

    def tune_over_damaged_database(self):
        if not self.opencl:
            return self.skip("caches", 2)
        for n, body in enumerate([b"{\"schema\": \"iso3dfd-tuning/1\", \"entries\": [", b"[" * 100000]):
            folder = self.case_folder()
            cache = os.path.join(folder, "cache")
            os.mkdir(cache, 0o700)
            with open(os.path.join(cache, "tuning.json"), "wb") as f:
                f.write(body)
            env = dict(self.env, ISO3DFD_CACHE_DIR=cache)
            outcome, status, output = self.cli("tune 16 16 16 --stage gpu-slm --steps 1 --repeats 1", folder, "caches",
                                               "tune over a damaged database %d" % n, env=env, timeout=600)
            backups = [n for n in os.listdir(cache) if n.startswith("tuning.json.damaged-")]
            if outcome == "ok" and (len(backups) != 1 or open(os.path.join(cache, backups[0]), "rb").read() != body or
                                    "kept as" not in output):
                self.reclassify("caches", "tune over a damaged database %d" % n, "the database was not kept, or tune did not say")

    # -- numbers past their limits -------------------------------------------------------------------------

    def numbers(self):
        values = {
            "--device": ["99999999999999999999", "-1", "0:99", "99:0", ":", "1:2:3", "", "x" * 5000, "\u00e9", "gpu cpu"],
            "--dt": ["1e-320", "1e-4abc", "nan", "inf", "-1", "0x1p-1074", "1e308", " 1e-4", "1e-4 ", "auto"],
            "--boundary-width": ["4096", "-1", "2147483648", "3", "4"],
            "--frequency": ["0", "-5", "1e300", "nan"],
            "--amplitude": ["1e13", "-1e13", "nan"],
            "--dx": ["0", "1e-9", "1e9", "inf"],
            "--receiver": ["12,12,12", "-1,0,0", "2147483648,1,1", "1,2", "a,b,c"],
            "--source-pos": ["99,0,0", "-2,-2,-2"],
            "--param": ["tile_x=2147483648", "tile_x=-1", "=5", "tile_x=", "x=1"],
            "--model-dims": ["0,0,0", "16385,1,1", "-1,1,1"],
            "sizes": ["0 12 12 2", "-1 12 12 2", "16385 12 12 2", "99999999999 12 12 2", "12 12 12 -5", "12 12 12 2147483648"],
            "--checkpoint-every": ["0", "-3", "2147483648"],
        }
        for option, options in values.items():
            for value in (options[:1] if self.quick else options):
                folder = self.case_folder()
                if option == "sizes":
                    args = "run %s --stage cpu-serial" % value
                elif option == "--device":
                    args = "run 12 12 12 2 --stage gpu-basic --device %s" % quote(value)
                elif option == "--param":
                    args = "run 12 12 12 2 --stage gpu-slm --param %s" % quote(value)
                elif option == "--checkpoint-every":
                    args = "run 12 12 12 2 --stage cpu-serial --checkpoint c.ckp --checkpoint-every %s" % quote(value)
                else:
                    args = "run 12 12 12 2 --stage cpu-serial %s %s" % (option, quote(value))
                self.cli(args, folder, "numbers", "%s %s" % (option, value[:40]))
        if not self.quick:
            self.many_receivers()

    def many_receivers(self):
        folder = self.case_folder()
        scenario = os.path.join(folder, "s.json")
        receivers = ",".join('{"i": 1, "j": 2, "k": 3}' for _ in range(300000))
        with open(scenario, "w") as f:
            f.write('{"preset": "default", "n1": 12, "n2": 12, "n3": 12, "steps": 100000, '
                    '"source": {"i": 6, "j": 6, "k": 6}, "receivers": [%s]}' % receivers)
        self.cli("run --scenario %s --stage cpu-serial" % quote(scenario), folder, "numbers",
                 "300,000 receivers x 10^5 steps", timeout=60)

    # -- interrupts and stale temporaries ------------------------------------------------------------------

    def interrupts(self):
        count = 3 if self.quick else 60
        signals = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
        for n in range(count):
            folder = self.case_folder()
            dump, checkpoint = os.path.join(folder, "u.npy"), os.path.join(folder, "c.ckp")
            with open(dump, "w") as f:
                f.write("previous output")
            sig = signals[n % 3]
            delay = self.random.uniform(0.05, 1.5)
            status, output = self.run("cd %s && exec %s run 96 96 96 24 --stage cpu-parallel --dump u.npy --checkpoint c.ckp "
                                      "--checkpoint-every 4" % (quote(folder), quote(self.iso3dfd)), shell=True,
                                      delay_signal=(delay, sig))
            losses = [p + " is half written" for p in (dump, checkpoint) if self.half_written(p)]
            self.record("interrupts", "%s after %.2f s" % (signal.Signals(sig).name, delay), status, output, losses,
                        folders=[folder], sent_signal=sig)
        self.stale_temporaries()
        if self.studio and not self.quick:
            self.interrupted_recordings()

    def half_written(self, path):
        """An output that exists is the previous one or a whole new one, never a part."""
        if not os.path.exists(path):
            return False
        with open(path, "rb") as f:
            data = f.read()
        if data == b"previous output":
            return False
        if path.endswith(".npy"):
            if not data.startswith(b"\x93NUMPY"):
                return True
            header_length = struct.unpack("<H", data[8:10])[0]
            return len(data) != 10 + header_length + 96 * 96 * 96 * 4
        if not data.startswith(b"ISO3DCKP"):
            return True
        length = struct.unpack("<I", data[12:16])[0]
        try:
            header = json.loads(data[16:16 + length])
        except ValueError:
            return True
        return len(data) != 16 + length + 4 * sum(a["count"] for a in header["arrays"])

    def stale_temporaries(self):
        for n in range(2 if self.quick else 12):
            folder = self.case_folder()
            stale = [".u.npy.iso3dfd-4194305-%d.tmp" % n, ".u.npy.4194305.%d.tmp" % n, ".rec.mp4.partial-a1b2c%d" % (n % 10)]
            fresh = ".v.npy.iso3dfd-4194305-%d.tmp" % n
            for name in stale + [fresh]:
                with open(os.path.join(folder, name), "w") as f:
                    f.write("left by a crash")
                if name != fresh:
                    old = time.time() - 2 * 86400
                    os.utime(os.path.join(folder, name), (old, old))
            status, output = self.run("cd %s && %s run 12 12 12 2 --stage cpu-serial --dump u.npy" %
                                      (quote(folder), quote(self.iso3dfd)), shell=True)
            left = set(os.listdir(folder))
            problems = ["stale %s stayed" % s for s in stale if s in left] + (["a fresh one was removed"] if fresh not in left else [])
            if fresh in left:  # expected: not litter of this run
                os.remove(os.path.join(folder, fresh))
            self.record("stale temporaries", "sweep %d" % n, status, output, problems, folders=[folder])

    # -- the studio ----------------------------------------------------------------------------------------

    def studio_cases(self):
        if not self.studio:
            return
        if not os.environ.get("DISPLAY"):
            return self.skip("studio", 30)
        base = [quote(self.studio), "--size", "16", "--stage", "cpu-serial"]
        for name, prepare, option in [
                ("screenshot to a new file", lambda f: "new.png", "--screenshot"),
                ("screenshot over a file", lambda f: self.touch(f, "old.png"), "--screenshot"),
                ("screenshot through a link", lambda f: self.link(f, "link.png", "real.png"), "--screenshot"),
                ("screenshot to a FIFO without a reader", lambda f: self.fifo(f, "fifo.png"), "--screenshot"),
                ("screenshot to a folder", lambda f: self.subfolder(f, "dir.png"), "--screenshot"),
                ("screenshot to /dev/stdout", lambda f: "/dev/stdout", "--screenshot"),
                ("screenshot to an empty name", lambda f: "", "--screenshot"),
                ("screenshot into a missing folder", lambda f: "missing/x.png", "--screenshot"),
                ("recording to a FIFO", lambda f: self.fifo(f, "fifo.mp4"), "--record"),
                ("recording to /dev/stdout", lambda f: "/dev/stdout", "--record"),
                ("recording over a file", lambda f: self.touch(f, "old.mp4"), "--record"),
                ("recording through a link", lambda f: self.link(f, "link.mp4", "real.mp4"), "--record"),
                ("frames into a non-empty folder", lambda f: self.subfolder(f, "frames"), "--record"),
                ("recording with an empty name", lambda f: "", "--record")]:
            folder = self.case_folder()
            target = prepare(folder)
            watched = [os.path.join(folder, n) for n in os.listdir(folder)]
            extra = ["--frames", "2"] if option == "--record" else ["--steps", "3"]
            before = {p: entry_state(p) for p in watched}
            status, output = self.run("cd %s && %s %s %s %s > out.log 2>&1; S=$?; cat out.log | head -c 4000; exit $S" % (
                quote(folder), " ".join(base), option, quote(target), " ".join(extra)), shell=True, timeout=180)
            losses = ["%s: %s -> %s" % (p, s[0], entry_state(p)[0]) for p, s in before.items()
                      if entry_state(p) != s and not (status == 0 and entry_state(p)[0] == "file" and s[0] == "file")]
            self.record("studio", name, status, output, losses, folders=[folder])
        for n, text in enumerate(self.hostile_reports()):
            folder = self.case_folder()
            report = os.path.join(folder, "r.json")
            with open(report, "wb") as f:
                f.write(text)
            status, output = self.run([self.studio, "--bench-panel", "--stages", "cpu-serial", "--size", "8", "--steps", "2",
                                       "--load", report, "--screenshot", os.path.join(folder, "p.png")], timeout=180)
            self.record("studio", "benchmark report %d" % n, status, output, folders=[folder])

    def hostile_reports(self):
        row = {"stage": "cpu-serial", "title": "t", "device": "d", "n1": 8, "n2": 8, "n3": 8, "steps": 2, "seconds": 1.0,
               "seconds_per_step": 0.5, "mpts": 1.0, "gflops": 1.0, "gbs_sample": 1.0, "gbs_traffic": 1.0, "ceiling": "c",
               "ceiling_gbs": 1.0, "roofline_percent": 1.0, "speedup_vs_serial": None, "previous": "",
               "speedup_vs_previous": None, "max_abs_diff": None, "rel_l2": None, "non_finite": None, "params": {}, "error": ""}
        top = {"schema": "iso3dfd-bench/1", "date": "d", "host_cpu": "c", "devices": ["d"], "warmup_steps": 1, "repeats": 1,
               "cancelled": False, "rows": [row]}
        out = []
        for key, value in [("ceiling_gbs", 1e308), ("mpts", 1e308), ("mpts", 1e-300), ("ceiling_gbs", 1e9), ("n1", 2 ** 31),
                           ("steps", -1), ("title", "x" * 100000), ("params", {"tile_x": 2 ** 31})]:
            r = dict(row, **{key: value})
            out.append(json.dumps(dict(top, rows=[r] * 3)).encode())
        out.append(b"[" * 1000000)
        return out[:3] if self.quick else out

    def interrupted_recordings(self):
        for n, sig in enumerate([signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGTERM, signal.SIGINT]):
            folder = self.case_folder()
            target = "rec.mp4" if n % 2 == 0 else "frames"
            status, output = self.run([self.studio, "--size", "64", "--record", os.path.join(folder, target), "--frames",
                                       "100000"], delay_signal=(self.random.uniform(3.0, 8.0), sig), timeout=120)
            self.record("interrupts", "studio recording, %s" % signal.Signals(sig).name, status, output, folders=[folder],
                        sent_signal=sig)

    def touch(self, folder, name):
        with open(os.path.join(folder, name), "w") as f:
            f.write("previous")
        return name

    def link(self, folder, name, real):
        self.touch(folder, real)
        os.symlink(real, os.path.join(folder, name))
        return name

    def fifo(self, folder, name):
        os.mkfifo(os.path.join(folder, name))
        return name

    def subfolder(self, folder, name):
        os.mkdir(os.path.join(folder, name))
        self.touch(os.path.join(folder, name), "keep")
        return name

    # -- the table -----------------------------------------------------------------------------------------

    def table(self):
        columns = ["ok"] + list(BAD_OUTCOMES) + ["skipped"]
        lines = ["| kind | cases | " + " | ".join(columns) + " |", "|---|---:|" + "---:|" * len(columns)]
        total = collections.Counter()
        for kind, counter in self.results.items():
            total.update(counter)
            run = sum(v for k, v in counter.items() if k != "skipped")
            lines.append("| %s | %d | %s |" % (kind, run, " | ".join(str(counter.get(c, 0)) for c in columns)))
        run = sum(v for k, v in total.items() if k != "skipped")
        lines.append("| **all** | **%d** | %s |" % (run, " | ".join("**%d**" % total.get(c, 0) for c in columns)))
        return "\n".join(lines)


def quote(text):
    return "'" + str(text).replace("'", "'\\''") + "'"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iso3dfd", required=True, help="the iso3dfd binary")
    parser.add_argument("--studio", help="the iso3dfd-studio binary (needs $DISPLAY; its cases are skipped without)")
    parser.add_argument("--quick", action="store_true", help="a subset of seconds, for CI")
    parser.add_argument("--seed", type=int, default=20261127)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a case counts as a hang")
    parser.add_argument("--table", help="also write the table (Markdown) to this file")
    parser.add_argument("--failures", help="write the cases that went wrong (JSON) to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    campaign = Campaign(args)
    started = time.time()
    try:
        for step in (campaign.output_targets, campaign.inputs, campaign.caches, campaign.numbers, campaign.interrupts,
                     campaign.studio_cases):
            step()
    finally:
        table = campaign.table()
        print(table)
        print("%.0f s, seed %d, %s" % (time.time() - started, args.seed,
                                      "private namespaces" if campaign.namespaces else "no private namespaces: device cases skipped"))
        if args.table:
            with open(args.table, "w") as f:
                f.write(table + "\n")
        if args.failures:
            with open(args.failures, "w") as f:
                json.dump(campaign.failures, f, indent=1)
        for failure in campaign.failures[:20]:
            print("%s: %s: %s %s" % (failure["outcome"], failure["kind"], failure["case"], failure.get("losses", "")),
                  file=sys.stderr)
        if not args.keep:
            subprocess.run(["chmod", "-R", "u+rwX", campaign.work], capture_output=True)
            shutil.rmtree(campaign.work, ignore_errors=True)
    return 1 if any(f["outcome"] in BAD_OUTCOMES for f in campaign.failures) else 0


if __name__ == "__main__":
    sys.exit(main())
