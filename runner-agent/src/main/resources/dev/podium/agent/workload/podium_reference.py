#!/usr/bin/env python3
"""Podium reference workload: fine-tunes a small vision-language model on synthetic image+text pairs.

Every sample is made on the fly and costs real work, as a real image pipeline does: a random picture is drawn and encoded
to JPEG (the file a real loader reads), then decoded, cropped, flipped and normalised. With --dataloader cpu the decoding
and augmentation run in the DataLoader's processes on the CPU, which is what makes dataloader_num_workers matter, as in
the BridgeTower study; with --dataloader device they run on the accelerator (torchvision.io.decode_jpeg on CUDA), the
analogue of Gaudi's mediapipe dataloader. Nothing is downloaded.

Launched by torchrun (WORLD_SIZE > 1), every process trains a replica through DistributedDataParallel (gloo on the CPU,
NCCL on GPUs) on its own shard of the data, and rank 0 reports the system's throughput and the throughput per accelerator.

With --find-max-batch the workload doubles the batch from --batch-size until the device runs out of memory, the batch
reaches --max-batch, or the next batch would pass --memory-limit-mb (peak RSS on the CPU, peak allocated memory on a GPU),
so that a CPU host never grows until the machine runs out.

Output follows Podium's JSON-lines protocol (one JSON object per line, key "podium": 1):
  {"podium": 1, "type": "info", ...}                      environment: python, torch, device, world size, pipeline
  {"podium": 1, "type": "step", "step": n, "warmup": b, "samples": k, "seconds": s, "samples_per_second": x, "loss": l}
  {"podium": 1, "type": "metric", "name": ..., "value": ..., "unit": ..., "direction": "higher"|"lower"}
and ends with a Hugging Face Trainer-style "***** train metrics *****" block and metrics dict line.
Exit codes: 0 ok, 2 bad arguments or unsupported combination (message on stderr), 3 device not available,
4 the loss diverged, 5 the requested data pipeline does not exist on this device or torchvision (nothing was measured).
"""
import argparse
import io
import math
import os
import random
import sys
import time

from podium_common import (device_name, device_type, emit, fail, peak_memory_mb, pick_device, print_trainer_block,
                           torch_version, versions)

SIZES = {
    # name: (image size drawn, crop size, patch, width, layers, heads, text length, vocab)
    "tiny": (96, 64, 16, 64, 2, 2, 16, 512),
    "small": (256, 224, 16, 256, 4, 4, 32, 8192),
    "base": (384, 224, 16, 512, 6, 8, 64, 30522),
}
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)
NO_DEVICE_PIPELINE = 5


def parse_args(argv):
    p = argparse.ArgumentParser(description="Podium reference fine-tuning workload")
    p.add_argument("--size", choices=sorted(SIZES), default="tiny")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--dataloader-num-workers", type=int, default=0)
    p.add_argument("--dataloader", choices=["cpu", "device"], default="cpu",
                   help="where JPEG decoding and augmentation run")
    p.add_argument("--precision", choices=["fp32", "bf16", "fp16"], default="fp32")
    p.add_argument("--steps", type=int, default=20, help="measured steps, after warm-up")
    p.add_argument("--warmup-steps", type=int, default=3)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", choices=["auto", "cuda", "hpu", "xpu", "mps", "cpu"], default="auto")
    p.add_argument("--threads", type=int, default=0, help="torch intra-op threads in the main process (0: torch default)")
    p.add_argument("--find-max-batch", action="store_true", help="double the batch until it no longer fits")
    p.add_argument("--max-batch", type=int, default=4096, help="the largest batch --find-max-batch tries")
    p.add_argument("--memory-limit-mb", type=int, default=0,
                   help="with --find-max-batch: never try a batch whose peak memory could pass this (0: no limit on "
                        "an accelerator; on the CPU the limit is required)")
    a = p.parse_args(argv)
    for name in ("batch_size", "steps", "max_batch"):
        if getattr(a, name) < 1:
            fail(2, "--%s must be 1 or more" % name.replace("_", "-"))
    for name in ("dataloader_num_workers", "warmup_steps", "threads", "memory_limit_mb"):
        if getattr(a, name) < 0:
            fail(2, "--%s must not be negative" % name.replace("_", "-"))
    return a


class Distributed:
    """The process group torchrun asked for, or a world of one."""

    def __init__(self, torch, device_kind):
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        self.dist = None
        if self.world <= 1:
            return
        import torch.distributed as dist
        if not dist.is_available():
            fail(2, "this torch %s was built without torch.distributed" % torch_version(torch))
        backend = "nccl" if device_kind == "cuda" else "gloo"
        if backend == "gloo" and not dist.is_gloo_available():
            fail(2, "torch %s has no gloo backend for a distributed CPU run" % torch_version(torch))
        if backend == "nccl" and not dist.is_nccl_available():
            fail(2, "torch %s has no NCCL backend for a distributed GPU run" % torch_version(torch))
        dist.init_process_group(backend=backend)
        self.dist = dist
        self.backend = backend

    @property
    def leader(self):
        return self.rank == 0

    def sum_and_max(self, torch, device, samples, seconds):
        """Samples of all ranks and the slowest rank's step time: a step is done when every replica is."""
        if self.dist is None:
            return samples, seconds
        t = torch.tensor([float(samples), seconds], dtype=torch.float64, device=device)
        total = t[:1].clone()
        slowest = t[1:].clone()
        self.dist.all_reduce(total, op=self.dist.ReduceOp.SUM)
        self.dist.all_reduce(slowest, op=self.dist.ReduceOp.MAX)
        return int(total.item()), float(slowest.item())

    def close(self):
        if self.dist is not None:
            self.dist.destroy_process_group()


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
    dist = Distributed(torch, device)
    if dist.world > 1 and device == "cuda":
        device = "cuda:%d" % dist.local_rank
        torch.cuda.set_device(dist.local_rank)
    if args.threads:
        torch.set_num_threads(args.threads)
    dtype = {"fp32": None, "bf16": torch.bfloat16, "fp16": torch.float16}[args.precision]
    if device == "cpu" and args.precision == "fp16" and torch_version(torch) < (2, 3):
        fail(2, "precision fp16 is not supported by CPU autocast in torch %s; use bf16 or fp32 on CPU" % torch.__version__)
    if args.find_max_batch and device == "cpu" and args.memory_limit_mb == 0:
        fail(2, "--find-max-batch on the CPU needs --memory-limit-mb, so that it stops before the machine runs out")
    decode_on_device = device_pipeline(torch, device) if args.dataloader == "device" else None

    draw, crop, patch, width, layers, heads, text_len, vocab = SIZES[args.size]
    seed = args.seed + dist.rank
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(args.seed)  # the same initial weights on every replica

    class SyntheticImageText(Dataset):
        """Image-text pairs made from the sample index, so every run with the same seed sees the same data; each rank of
        a distributed run reads its own shard (index * world + rank)."""

        def __len__(self):
            return 1 << 30

        def __getitem__(self, index):
            index = index * dist.world + dist.rank
            rng = np.random.default_rng((args.seed, index))
            label = int(rng.integers(0, 10))
            pixels = rng.integers(0, 256, size=(draw, draw, 3), dtype=np.uint8)
            # A label-dependent band, so that there is something to learn.
            pixels[:, label * draw // 10:(label + 1) * draw // 10, label % 3] = 255
            buf = io.BytesIO()
            Image.fromarray(pixels).save(buf, format="JPEG", quality=90)
            x0 = int(rng.integers(0, draw - crop + 1))
            y0 = int(rng.integers(0, draw - crop + 1))
            flip = bool(rng.random() < 0.5)
            tokens = torch.from_numpy(rng.integers(1, vocab, size=text_len).astype(np.int64))
            tokens[0] = label + 1
            if decode_on_device is not None:
                jpeg = torch.frombuffer(bytearray(buf.getvalue()), dtype=torch.uint8)
                return jpeg, torch.tensor([x0, y0, int(flip)]), tokens, label
            img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
            img = img.crop((x0, y0, x0 + crop, y0 + crop))
            if flip:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
            arr = np.asarray(img, dtype=np.float32) / 255.0
            arr = (arr - np.array(MEAN, dtype=np.float32)) / np.array(STD, dtype=np.float32)
            image = torch.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))
            return image, tokens, label

    def encoded_batch(items):
        """JPEG bytes differ in length, so a device-pipeline batch stays a list until the device decodes it."""
        return ([i[0] for i in items], torch.stack([i[1] for i in items]), torch.stack([i[2] for i in items]),
                torch.tensor([i[3] for i in items]))

    mean = torch.tensor(MEAN, device=device).view(1, 3, 1, 1)
    std = torch.tensor(STD, device=device).view(1, 3, 1, 1)

    def to_device(batch):
        if decode_on_device is None:
            image, tokens, label = batch
            image = image.to(device, non_blocking=True)
        else:
            jpegs, crops, tokens, label = batch
            images = []
            for jpeg, (x0, y0, flip) in zip(jpegs, crops.tolist()):
                img = decode_on_device(jpeg)[:, y0:y0 + crop, x0:x0 + crop]
                images.append(img.flip(-1) if flip else img)
            image = (torch.stack(images).float() / 255.0 - mean) / std
        return image, tokens.to(device, non_blocking=True), label.to(device, non_blocking=True)

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

    def train(batch_size, emit_steps):
        """Warm-up and measured steps at one batch size; returns (samples/s of the system, steps/s, mean loss, seconds)."""
        model = TinyVisionLanguage().to(device)
        if dist.dist is not None:
            from torch.nn.parallel import DistributedDataParallel
            model = DistributedDataParallel(model, device_ids=[dist.local_rank] if device.startswith("cuda") else None)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        scaler = torch.cuda.amp.GradScaler() if (args.precision == "fp16" and device.startswith("cuda")) else None
        loader = DataLoader(SyntheticImageText(), batch_size=batch_size, shuffle=False,
                            num_workers=args.dataloader_num_workers, drop_last=True,
                            collate_fn=encoded_batch if decode_on_device is not None else None)
        total = args.warmup_steps + args.steps
        model.train()
        losses = []
        measured_samples = 0
        measured_seconds = 0.0
        step = 0
        last = time.perf_counter()
        start = last
        for batch in loader:
            image, tokens, label = to_device(batch)
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
            samples, seconds = dist.sum_and_max(torch, device, image.shape[0], now - last)
            last = time.perf_counter()
            warmup = step < args.warmup_steps
            if not warmup:
                measured_samples += samples
                measured_seconds += seconds
                losses.append(value)
            step += 1
            if emit_steps and dist.leader:
                emit({"type": "step", "step": step, "total_steps": total, "warmup": warmup, "samples": samples,
                      "seconds": round(seconds, 6),
                      "samples_per_second": round(samples / seconds, 4) if seconds > 0 else None, "loss": round(value, 6)})
            if step >= total:
                break
        return (measured_samples / measured_seconds, args.steps / measured_seconds, sum(losses) / len(losses),
                time.perf_counter() - start)

    if dist.leader:
        emit(dict(versions(torch, np, Image), type="info", device=device, device_name=device_name(torch, device),
                  size=args.size, precision=args.precision, batch_size=args.batch_size,
                  dataloader_num_workers=args.dataloader_num_workers, dataloader=args.dataloader,
                  world_size=dist.world, distributed_backend=getattr(dist, "backend", None),
                  parameters=sum(p.numel() for p in TinyVisionLanguage().parameters())))

    if args.find_max_batch:
        find_max_batch(torch, args, device, train)
        dist.close()
        return
    throughput, steps_per_second, train_loss, runtime = train(args.batch_size, True)
    if dist.leader:
        emit_training_metrics(throughput, steps_per_second, train_loss, runtime, dist.world,
                              train_flops_per_sample(args.size))
    dist.close()


def train_flops_per_sample(size):
    """Model FLOPs of one training sample, as PaLM counts them (arXiv 2204.02311, appendix B): 6 per matmul weight per
    token (forward and backward) plus 12*L*W*T per token for attention, over the T = patches + text + 1 tokens; the
    embeddings' lookups and the norms are not counted, nor any recomputation."""
    _, crop, patch, width, layers, _, text_len, _ = SIZES[size]
    patches = (crop // patch) ** 2
    tokens = patches + text_len + 1
    weights = layers * 12 * width * width * tokens + 3 * patch * patch * width * patches + width * 10
    return float(6 * weights + 12 * layers * width * tokens * tokens)


def emit_training_metrics(throughput, steps_per_second, train_loss, runtime, world, flops_per_sample):
    emit({"type": "metric", "name": "train_samples_per_second", "value": round(throughput, 4), "unit": "samples/s",
          "direction": "higher", "scope": "system", "flops_per_unit": flops_per_sample})
    emit({"type": "metric", "name": "train_samples_per_second_per_accelerator", "value": round(throughput / world, 4),
          "unit": "samples/s", "direction": "higher", "scope": "per_accelerator"})
    emit({"type": "metric", "name": "train_steps_per_second", "value": round(steps_per_second, 4), "unit": "steps/s",
          "direction": "higher"})
    emit({"type": "metric", "name": "train_loss", "value": round(train_loss, 6), "unit": "1", "direction": "lower"})
    metrics = {"epoch": 1.0, "train_loss": round(train_loss, 4), "train_runtime": round(runtime, 4),
               "train_samples_per_second": round(throughput, 3), "train_steps_per_second": round(steps_per_second, 3)}
    print_trainer_block(metrics)
    print(repr({k: metrics[k] for k in ("train_runtime", "train_samples_per_second", "train_steps_per_second",
                                         "train_loss", "epoch")}))
    sys.stdout.flush()


def find_max_batch(torch, args, device, train):
    """Doubles the batch while it fits. A batch is tried only when twice the last batch's peak memory is within the
    limit, since activations grow about linearly with the batch and the next try must not take the host down."""
    batch, fitted = args.batch_size, None
    while batch <= args.max_batch:
        reset_peak(torch, device)
        try:
            throughput, _, _, _ = train(batch, False)
        except RuntimeError as e:
            if "out of memory" not in str(e).lower():
                raise
            emit({"type": "info", "batch_size_tried": batch, "fits": False, "reason": "out of memory"})
            break
        peak = peak_memory_mb(torch, device)
        fitted = (batch, throughput, peak)
        emit({"type": "info", "batch_size_tried": batch, "fits": True, "samples_per_second": round(throughput, 4),
              "peak_memory_mb": round(peak, 1)})
        if args.memory_limit_mb and peak * 2 > args.memory_limit_mb:
            emit({"type": "info", "stopped": "the next batch could pass the memory limit of %d MB" % args.memory_limit_mb})
            break
        batch *= 2
    if fitted is None:
        fail(2, "batch size %d does not fit on %s" % (args.batch_size, device))
    batch, throughput, peak = fitted
    memory_kind = "peak_rss_mb" if device == "cpu" else "peak_device_memory_mb"
    emit({"type": "metric", "name": "max_batch_size", "value": batch, "unit": "samples", "direction": "higher"})
    emit({"type": "metric", "name": memory_kind, "value": round(peak, 1), "unit": "MB", "direction": "lower"})
    emit({"type": "metric", "name": "train_samples_per_second", "value": round(throughput, 4), "unit": "samples/s",
          "direction": "higher", "scope": "system", "flops_per_unit": train_flops_per_sample(args.size)})


def reset_peak(torch, device):
    if device.startswith("cuda"):
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()


def device_pipeline(torch, device):
    """The accelerator's own JPEG decoder, or exit 5 saying why there is none (no result is recorded then)."""
    if not device.startswith("cuda"):
        fail(NO_DEVICE_PIPELINE, "no device-side JPEG pipeline on %s: torchvision decodes on the device only with CUDA "
             "(Gaudi's is habana's mediapipe, outside torchvision)" % device)
    try:
        import torchvision
        from torchvision.io import decode_jpeg
    except ImportError as e:
        fail(NO_DEVICE_PIPELINE, "no device-side JPEG pipeline: torchvision is missing (%s)" % e)
    probe = tiny_jpeg(torch)
    try:
        decode_jpeg(probe, device=device)
    except Exception as e:  # a CPU-only torchvision build raises here
        fail(NO_DEVICE_PIPELINE, "torchvision %s cannot decode JPEG on %s: %s" % (torchvision.__version__, device, e))
    return lambda jpeg: decode_jpeg(jpeg, device=device)


def tiny_jpeg(torch):
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 10, 10)).save(buf, format="JPEG")
    return torch.frombuffer(bytearray(buf.getvalue()), dtype=torch.uint8)


if __name__ == "__main__":
    main(sys.argv[1:])
