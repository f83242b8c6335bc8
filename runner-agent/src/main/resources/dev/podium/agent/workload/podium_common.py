"""What Podium's shipped workloads share: the JSON-lines protocol, failing with an exit code, and finding the device.

Protocol lines are one JSON object each, key "podium": 1 (see podium_reference.py for the line types).
"""
import json
import platform
import resource
import sys


def emit(obj):
    obj = dict({"podium": 1}, **obj)
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


def fail(code, message):
    sys.stderr.write("%s: %s\n" % (sys.argv[0].rsplit("/", 1)[-1], message))
    sys.stderr.flush()
    sys.exit(code)


def torch_version(torch):
    return tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])


def versions(torch, np, image):
    return {"python": platform.python_version(), "torch": torch.__version__, "numpy": np.__version__,
            "pillow": image.__version__}


def pick_device(torch, wanted):
    available = {
        "cuda": lambda: torch.cuda.is_available(),
        "hpu": hpu_available,
        "xpu": lambda: hasattr(torch, "xpu") and torch.xpu.is_available(),
        "mps": lambda: hasattr(torch.backends, "mps") and torch.backends.mps.is_available(),
        "cpu": lambda: True,
    }
    if wanted == "auto":
        for name in ("cuda", "hpu", "xpu", "mps", "cpu"):
            if available[name]():
                return name
    if not available[wanted]():
        fail(3, "device %s is not available to torch %s on this host" % (wanted, torch.__version__))
    return wanted


def hpu_available():
    try:
        import habana_frameworks.torch.core  # noqa: F401  (registers the hpu device)
        import habana_frameworks.torch.hpu as hthpu
        return hthpu.is_available()
    except Exception:
        return False


def device_type(device):
    return device.split(":")[0]


def device_name(torch, device):
    try:
        if device.startswith("cuda"):
            return torch.cuda.get_device_name(0)
        if device == "xpu":
            return torch.xpu.get_device_name(0)
    except Exception:
        return None
    return platform.processor() or None


def synchronize(torch, device):
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def peak_memory_mb(torch, device):
    """Peak allocated device memory on a GPU; on the CPU the process's peak RSS (Linux reports it in KiB)."""
    if device.startswith("cuda"):
        return torch.cuda.max_memory_allocated() / 2 ** 20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def print_trainer_block(metrics):
    """The block transformers' Trainer.log_metrics prints, runtime as H:MM:SS.cc."""
    shown = dict(metrics)
    if "train_runtime" in shown:
        r = shown["train_runtime"]
        shown["train_runtime"] = "%d:%02d:%05.2f" % (int(r // 3600), int(r % 3600 // 60), r % 60)
    print("***** train metrics *****")
    width = max(len(k) for k in shown)
    vwidth = max(len(str(v)) for v in shown.values())
    for k in sorted(shown):
        print("  %s = %s" % (k.ljust(width), str(shown[k]).rjust(vwidth)))
