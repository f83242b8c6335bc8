#!/usr/bin/env python3
"""Podium reference workload: fine-tunes a small vision-language model on synthetic image+text pairs.

Every sample is made on the fly and costs real CPU work, as a real image pipeline does: a random picture is drawn,
encoded to JPEG, decoded again, cropped, flipped and normalised. That is what makes dataloader_num_workers matter, as in
the BridgeTower study. Nothing is downloaded.

Output follows Podium's JSON-lines protocol (one JSON object per line, key "podium": 1):
  {"podium": 1, "type": "info", ...}                      environment: python, torch, device
  {"podium": 1, "type": "step", "step": n, "warmup": b, "samples": k, "seconds": s, "samples_per_second": x, "loss": l}
  {"podium": 1, "type": "metric", "name": ..., "value": ..., "unit": ..., "direction": "higher"|"lower"}
and ends with a Hugging Face Trainer-style "***** train metrics *****" block and metrics dict line.
Exit codes: 0 ok, 2 bad arguments or unsupported combination (message on stderr), 3 device not available.
"""
import argparse
import io
import json
import math
import os
import platform
import random
import sys
import time

SIZES = {
    # name: (image size drawn, crop size, patch, width, layers, heads, text length, vocab)
    "tiny": (96, 64, 16, 64, 2, 2, 16, 512),
    "small": (256, 224, 16, 256, 4, 4, 32, 8192),
    "base": (384, 224, 16, 512, 6, 8, 64, 30522),
}


def emit(obj):
    obj = dict({"podium": 1}, **obj)
    sys.stdout.write(json.dumps(obj, sort_keys=True) + "\n")
    sys.stdout.flush()


def fail(code, message):
    sys.stderr.write("podium_reference: " + message + "\n")
    sys.stderr.flush()
    sys.exit(code)


def parse_args(argv):
    p = argparse.ArgumentParser(description="Podium reference fine-tuning workload")
    p.add_argument("--size", choices=sorted(SIZES), default="tiny")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--dataloader-num-workers", type=int, default=0)
    p.add_argument("--precision", choices=["fp32", "bf16", "fp16"], default="fp32")
    p.add_argument("--steps", type=int, default=20, help="measured steps, after warm-up")
    p.add_argument("--warmup-steps", type=int, default=3)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", choices=["auto", "cuda", "hpu", "xpu", "mps", "cpu"], default="auto")
    p.add_argument("--threads", type=int, default=0, help="torch intra-op threads in the main process (0: torch default)")
    a = p.parse_args(argv)
    for name in ("batch_size", "steps"):
        if getattr(a, name) < 1:
            fail(2, "--%s must be 1 or more" % name.replace("_", "-"))
    for name in ("dataloader_num_workers", "warmup_steps", "threads"):
        if getattr(a, name) < 0:
            fail(2, "--%s must not be negative" % name.replace("_", "-"))
    return a


def main(argv):
    args = parse_args(argv)
    try:
        import numpy as np
        import torch
        from PIL import Image
        from torch import nn
        from torch.utils.data import DataLoader, Dataset
    except ImportError as e:
        fail(2, "missing Python package: %s (install torch, numpy and Pillow)" % e)

    device = pick_device(torch, args.device)
    if args.threads:
        torch.set_num_threads(args.threads)
    dtype = {"fp32": None, "bf16": torch.bfloat16, "fp16": torch.float16}[args.precision]
    major_minor = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
    if device == "cpu" and args.precision == "fp16" and major_minor < (2, 3):
        fail(2, "precision fp16 is not supported by CPU autocast in torch %s; use bf16 or fp32 on CPU" % torch.__version__)

    draw, crop, patch, width, layers, heads, text_len, vocab = SIZES[args.size]
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    class SyntheticImageText(Dataset):
        """Image-text pairs made from the sample index, so every run with the same seed sees the same data."""

        def __len__(self):
            return 1 << 30

        def __getitem__(self, index):
            rng = np.random.default_rng((args.seed, index))
            label = int(rng.integers(0, 10))
            pixels = rng.integers(0, 256, size=(draw, draw, 3), dtype=np.uint8)
            # A label-dependent band, so that there is something to learn.
            pixels[:, label * draw // 10:(label + 1) * draw // 10, label % 3] = 255
            buf = io.BytesIO()
            Image.fromarray(pixels).save(buf, format="JPEG", quality=90)
            img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
            x0 = int(rng.integers(0, draw - crop + 1))
            y0 = int(rng.integers(0, draw - crop + 1))
            img = img.crop((x0, y0, x0 + crop, y0 + crop))
            if rng.random() < 0.5:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
            arr = np.asarray(img, dtype=np.float32) / 255.0
            arr = (arr - np.array([0.485, 0.456, 0.406], dtype=np.float32)) / np.array([0.229, 0.224, 0.225], dtype=np.float32)
            image = torch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))
            tokens = torch.from_numpy(rng.integers(1, vocab, size=text_len).astype(np.int64))
            tokens[0] = label + 1
            return image, tokens, label

    class TinyVisionLanguage(nn.Module):
        """Patch embedding for the image, token embedding for the text, one joint transformer encoder, a classifier."""

        def __init__(self):
            super().__init__()
            self.patches = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
            self.tokens = nn.Embedding(vocab, width)
            n_pos = (crop // patch) ** 2 + text_len + 1
            self.pos = nn.Parameter(torch.zeros(1, n_pos, width))
            self.cls = nn.Parameter(torch.zeros(1, 1, width))
            layer = nn.TransformerEncoderLayer(width, heads, dim_feedforward=width * 4, dropout=0.1, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, layers)
            self.norm = nn.LayerNorm(width)
            self.head = nn.Linear(width, 10)

        def forward(self, image, tokens):
            v = self.patches(image).flatten(2).transpose(1, 2)
            t = self.tokens(tokens)
            x = torch.cat([self.cls.expand(image.shape[0], -1, -1), v, t], dim=1) + self.pos
            x = self.encoder(x)
            return self.head(self.norm(x[:, 0]))

    model = TinyVisionLanguage().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler() if (args.precision == "fp16" and device == "cuda") else None
    loader = DataLoader(SyntheticImageText(), batch_size=args.batch_size, shuffle=False,
                        num_workers=args.dataloader_num_workers, drop_last=True)

    emit({"type": "info", "python": platform.python_version(), "torch": torch.__version__,
          "numpy": np.__version__, "pillow": Image.__version__, "device": device,
          "device_name": device_name(torch, device), "size": args.size, "precision": args.precision,
          "batch_size": args.batch_size, "dataloader_num_workers": args.dataloader_num_workers,
          "parameters": sum(p.numel() for p in model.parameters())})

    total = args.warmup_steps + args.steps
    model.train()
    losses = []
    measured_samples = 0
    measure_start = None
    step = 0
    last = time.perf_counter()
    start = last
    for image, tokens, label in loader:
        if step == args.warmup_steps:
            measure_start = last
        image = image.to(device, non_blocking=True)
        tokens = tokens.to(device, non_blocking=True)
        label = label.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        if dtype is None:
            loss = nn.functional.cross_entropy(model(image, tokens), label)
        else:
            with torch.autocast(device_type=device_type(device), dtype=dtype):
                loss = nn.functional.cross_entropy(model(image, tokens), label)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
        value = float(loss.detach().float().item())  # item() waits for the device, so the step time is honest
        if not math.isfinite(value):
            fail(4, "loss became %s at step %d" % (value, step + 1))
        now = time.perf_counter()
        seconds = now - last
        last = now
        warmup = step < args.warmup_steps
        if not warmup:
            measured_samples += image.shape[0]
            losses.append(value)
        step += 1
        emit({"type": "step", "step": step, "total_steps": total, "warmup": warmup, "samples": int(image.shape[0]),
              "seconds": round(seconds, 6), "samples_per_second": round(image.shape[0] / seconds, 4) if seconds > 0 else None,
              "loss": round(value, 6)})
        if step >= total:
            break

    end = time.perf_counter()
    measured_seconds = end - measure_start
    throughput = measured_samples / measured_seconds
    steps_per_second = args.steps / measured_seconds
    train_loss = sum(losses) / len(losses)
    emit({"type": "metric", "name": "train_samples_per_second", "value": round(throughput, 4), "unit": "samples/s",
          "direction": "higher"})
    emit({"type": "metric", "name": "train_steps_per_second", "value": round(steps_per_second, 4), "unit": "steps/s",
          "direction": "higher"})
    emit({"type": "metric", "name": "train_loss", "value": round(train_loss, 6), "unit": "1", "direction": "lower"})
    runtime = end - start
    metrics = {"epoch": 1.0, "train_loss": round(train_loss, 4), "train_runtime": round(runtime, 4),
               "train_samples_per_second": round(throughput, 3), "train_steps_per_second": round(steps_per_second, 3)}
    print_trainer_block(metrics)
    print(repr({k: metrics[k] for k in ("train_runtime", "train_samples_per_second", "train_steps_per_second",
                                         "train_loss", "epoch")}))
    sys.stdout.flush()


def print_trainer_block(metrics):
    """The block transformers' Trainer.log_metrics prints, runtime as H:MM:SS.cc."""
    shown = dict(metrics)
    r = shown["train_runtime"]
    shown["train_runtime"] = "%d:%02d:%05.2f" % (int(r // 3600), int(r % 3600 // 60), r % 60)
    print("***** train metrics *****")
    width = max(len(k) for k in shown)
    vwidth = max(len(str(v)) for v in shown.values())
    for k in sorted(shown):
        print("  %s = %s" % (k.ljust(width), str(shown[k]).rjust(vwidth)))


def pick_device(torch, wanted):
    available = {
        "cuda": lambda: torch.cuda.is_available(),
        "hpu": lambda: hpu_available(),
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
        if device == "cuda":
            return torch.cuda.get_device_name(0)
        if device == "xpu":
            return torch.xpu.get_device_name(0)
    except Exception:
        return None
    return platform.processor() or None


if __name__ == "__main__":
    main(sys.argv[1:])
