#!/usr/bin/env python3
"""Side by side: divharness's tuner and Kernel Tuner on the same kernel and space.

The kernel is micro/branch gpu_tdr[alg=dgi] (paths=4), exactly as the harness
builds it (taken with `harness run --dump-source`); the space is wg (DH_WG)
in 32..1024 x nf (TDR_NF) a power of two dividing wg: 51 configurations.
Both tune exhaustively on the same OpenCL device (PoCL here) and we print,
for each: the best configuration, its time, and wall time per evaluation.

Needs: pip install kernel_tuner pyopencl (not a dependency of divharness).
Usage: python3 tools/kernel_tuner_compare.py [--harness build/harness] [--iters 256]
"""
import argparse, glob, os, re, subprocess, sys, tempfile, time
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--harness", default="build/harness")
ap.add_argument("--iters", type=int, default=256)
ap.add_argument("--reps", type=int, default=3)
args = ap.parse_args()

tmp = tempfile.mkdtemp(prefix="dh-kt-")
common = ["--suite", "micro", "--variant", "gpu_tdr", "--param", "alg=dgi", "--param", "paths=4",
          "--param", "layers=1", "--param", f"iters={args.iters}", "--size", "small"]
# 1. the exact source and options the harness builds
subprocess.run([args.harness, "run", *common, "--reps", "1", "--tune", "none",
                "--dump-source", f"{tmp}/src", "--out", f"{tmp}/dump"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
src = open(glob.glob(f"{tmp}/src/*.k")[0]).read()
opts = open(glob.glob(f"{tmp}/src/*.options")[0]).read().split()
defines = []
i = 0
while i < len(opts):
    if opts[i] == "-D":
        name = opts[i + 1].split("=")[0]
        if name not in ("DH_WG", "TDR_NF"):        # the tunables: Kernel Tuner defines them
            defines.append("-D" + opts[i + 1])
        i += 2
    else:
        i += 1

# 2. divharness: exhaustive, warm program cache (a first pass fills it)
env = dict(os.environ, DH_JOURNAL=f"{tmp}/journal-warm.tsv")
subprocess.run([args.harness, "run", *common, "--tune", "exhaustive", "--tune-reps", str(args.reps),
                "--out", f"{tmp}/warm"], env=env, check=True, stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL)
env["DH_JOURNAL"] = f"{tmp}/journal.tsv"
t0 = time.time()
out = subprocess.run([args.harness, "run", *common, "--tune", "exhaustive", "--tune-reps",
                      str(args.reps), "--out", f"{tmp}/dh"], env=env, check=True,
                     capture_output=True, text=True).stdout
dh_wall = time.time() - t0
line = [l for l in out.splitlines() if l.startswith("tuned")][0]
m = re.search(r"(\d+) of (\d+) configs.*best (\S+) ([0-9.]+) ms", line)
dh_n, dh_best, dh_ms = int(m.group(1)), m.group(3), float(m.group(4))
ov = re.search(r"overhead ([0-9.]+) ms", line)

# 3. Kernel Tuner, same kernel, same space, same device
import kernel_tuner
n = 1 << 15
rng = np.random.default_rng(1)
x = (rng.random(n, dtype=np.float32) * 16 - 8).astype(np.float32)
key = rng.integers(0, 4, n, dtype=np.int32)
y = np.zeros(n, dtype=np.float32)
tune_params = {"DH_WG": [32, 64, 128, 256, 512, 1024], "TDR_NF": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]}
restrict = ["DH_WG % TDR_NF == 0"]
ref = kernel_tuner.run_kernel("mb_gpu_tdr", src, n, [x, key, y], {"DH_WG": 256, "TDR_NF": 16},
                              lang="OpenCL", block_size_names=["DH_WG"],
                              compiler_options=defines + ["-DDH_WAVE=32"])
t0 = time.time()
res, env_kt = kernel_tuner.tune_kernel("mb_gpu_tdr", src, n, [x, key, y], tune_params,
                                       lang="OpenCL", block_size_names=["DH_WG"],
                                       restrictions=restrict, iterations=args.reps,
                                       compiler_options=defines + ["-DDH_WAVE=32"],
                                       answer=[None, None, ref[2]], strategy="brute_force",
                                       quiet=True, cache=None)
kt_wall = time.time() - t0
best = min(res, key=lambda r: r["time"])
print(f"device: {env_kt.get('device_name')}")
print(f"{'tuner':14s} {'configs':>7s} {'best configuration':>22s} {'best ms':>9s} {'wall s':>7s} {'s/eval':>7s}")
print(f"{'divharness':14s} {dh_n:7d} {dh_best:>22s} {dh_ms:9.4f} {dh_wall:7.1f} {dh_wall/dh_n:7.3f}"
      + (f"   (harness overhead {ov.group(1)} ms/eval, kernel runs excluded)" if ov else ""))
print(f"{'kernel_tuner':14s} {len(res):7d} {'nf=%d,wg=%d' % (best['TDR_NF'], best['DH_WG']):>22s} "
      f"{best['time']:9.4f} {kt_wall:7.1f} {kt_wall/len(res):7.3f}")
print(f"(both verify each configuration: divharness against its CPU reference, Kernel Tuner "
      f"against the default configuration's output; {args.reps} timed runs each)")
