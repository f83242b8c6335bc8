#!/usr/bin/env python3
"""Podium's measured achievable matmul (MAMF) workload: the best sustained matmul rate a host's accelerators reach.

As in the public Maximum Achievable Matmul FLOPS finder, it sweeps matmul shapes (M, N, K) at one precision, times each
shape's iterations after its warm-up iterations (excluded), and keeps the best shape's sustained rate: 2*M*N*K FLOPs per
matmul. Each accelerator is swept in turn, pinned to it, and the run reports the mean of the accelerators' best rates per
accelerator, with one info line per accelerator (its index, name, best shape and rate) so that a weak one shows.

On the CPU the sweep is a fixed small set of fp32 shapes that finishes within a minute on one thread; on an accelerator
the sweep stops taking new shapes once --max-seconds have passed, so a slow device cannot hold the agent.

Output follows Podium's JSON-lines protocol (see podium_reference.py):
  {"podium": 1, "type": "info", ...}                           environment, then one line per accelerator swept
  {"podium": 1, "type": "step", "step": n, "warmup": false, ...} one line per shape measured (its sustained rate)
  {"podium": 1, "type": "metric", "name": "matmul_tflops", ...} the best sustained rate, per accelerator
Exit codes: 0 ok, 2 bad arguments or unsupported combination, 3 device not available.
"""
import argparse
import sys
import time

from podium_common import device_name, emit, fail, pick_device, synchronize

CPU_SHAPES = [(128, 128, 128), (256, 256, 256), (384, 384, 384), (512, 512, 512), (256, 512, 384)]
ACCELERATOR_DIMS = [1024, 2048, 4096, 6144, 8192]


def parse_args(argv):
    p = argparse.ArgumentParser(description="Podium measured achievable matmul workload")
    p.add_argument("--precision", choices=["fp32", "tf32", "bf16", "fp16"], default="bf16")
    p.add_argument("--device", choices=["auto", "cuda", "hpu", "xpu", "cpu"], default="auto")
    p.add_argument("--threads", type=int, default=0, help="torch intra-op threads on the CPU (0: torch default)")
    p.add_argument("--warmup-iterations", type=int, default=3, help="per shape, excluded from the rate")
    p.add_argument("--iterations", type=int, default=10, help="timed matmuls per shape")
    p.add_argument("--max-seconds", type=float, default=60.0, help="no new shape starts after this many seconds")
    args = p.parse_args(argv)
    if args.iterations < 1 or args.warmup_iterations < 0 or args.max_seconds <= 0:
        fail(2, "iterations must be 1 or more, warm-up iterations 0 or more and max seconds positive")
    return args


def shapes(device):
    if device == "cpu":
        return CPU_SHAPES
    return [(m, n, k) for m in ACCELERATOR_DIMS for n in ACCELERATOR_DIMS for k in ACCELERATOR_DIMS]


def dtype_of(torch, precision, device):
    if device == "cpu" and precision != "fp32":
        fail(2, "on the CPU the matmul sweep measures fp32 only, not %s" % precision)
    if precision == "tf32":
        torch.backends.cuda.matmul.allow_tf32 = True
        return torch.float32
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = False
    return {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]


def rate(torch, device, dtype, shape, args):
    """Sustained FLOP/s of one shape: iterations timed together after the warm-up ones."""
    m, n, k = shape
    a = torch.randn(m, k, device=device, dtype=dtype)
    b = torch.randn(k, n, device=device, dtype=dtype)
    for _ in range(args.warmup_iterations):
        torch.mm(a, b)
    synchronize(torch, device)
    start = time.perf_counter()
    for _ in range(args.iterations):
        torch.mm(a, b)
    synchronize(torch, device)
    seconds = time.perf_counter() - start
    return 2.0 * m * n * k * args.iterations / seconds, seconds


def sweep(torch, device, dtype, args, first_step, deadline):
    """(best FLOP/s, its shape, steps emitted) over the shapes that start before the deadline."""
    best, best_shape, step = 0.0, None, first_step
    for shape in shapes(device.split(":")[0]):
        if time.perf_counter() > deadline and best_shape is not None:
            break
        flops, seconds = rate(torch, device, dtype, shape, args)
        step += 1
        emit({"type": "step", "step": step, "warmup": False, "samples": args.iterations, "seconds": round(seconds, 6),
              "samples_per_second": round(args.iterations / seconds, 4), "device": device,
              "shape": list(shape), "tflops": round(flops / 1e12, 6)})
        if flops > best:
            best, best_shape = flops, shape
    return best, best_shape, step


def devices(torch, kind):
    if kind == "cuda":
        return ["cuda:%d" % i for i in range(torch.cuda.device_count())]
    if kind == "xpu":
        return ["xpu:%d" % i for i in range(torch.xpu.device_count())]
    return [kind]


def main(argv):
    args = parse_args(argv)
    try:
        import torch
    except ImportError as e:
        fail(2, "missing Python package: %s (install torch)" % e)
    kind = pick_device(torch, args.device)
    if args.threads:
        torch.set_num_threads(args.threads)
    dtype = dtype_of(torch, args.precision, kind)
    emit({"type": "info", "torch": torch.__version__, "device": kind, "precision": args.precision,
          "iterations": args.iterations, "warmup_iterations": args.warmup_iterations})
    bests, step = [], 0
    with torch.inference_mode():
        for device in devices(torch, kind):
            if device.startswith("cuda"):
                torch.cuda.set_device(device)
            deadline = time.perf_counter() + args.max_seconds
            best, shape, step = sweep(torch, device, dtype, args, step, deadline)
            bests.append(best)
            emit({"type": "info", "accelerator": device, "device_name": device_name(torch, device),
                  "best_shape": list(shape), "best_tflops": round(best / 1e12, 6)})
    emit({"type": "metric", "name": "matmul_tflops", "value": round(sum(bests) / len(bests) / 1e12, 6),
          "unit": "TFLOP/s", "direction": "higher", "scope": "per_accelerator"})


if __name__ == "__main__":
    main(sys.argv[1:])
