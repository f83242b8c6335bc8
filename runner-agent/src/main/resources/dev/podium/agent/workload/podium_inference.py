#!/usr/bin/env python3
"""Podium inference workload: the shapes of the published inference claims, on tiny synthetic models.

  --task image     an image-generation loop: a small convolutional denoiser applied --denoise-steps times to a latent,
                   then a decoder to pixels. Metric: seconds per image (lower is better), as SD3's "3.2 s per image at
                   30 steps"; each image is one request, so its percentiles exist.
  --task text      autoregressive text generation with a key/value cache: --input-len prompt tokens, --output-len new
                   tokens, --batch-size sequences at once. Metrics: output tokens per second for the system and per
                   accelerator, time to first token and time per output token (each with per-request percentiles),
                   as Stable Beluga's "673 tokens/s per accelerator at 128 in / 2048 out".
  --task classify  a small ResNet-style network on a batch of images: samples per second, as AITemplate's speed-ups
                   over PyTorch eager on ResNet-50.
  --compiler eager|compiled: compiled means torch.compile where the installed PyTorch has it (2.0 and later), else
                   TorchScript with freezing; the info line names the compiler that ran, so the speed-up is never
                   claimed for a compiler that did not run.

Requests: --warmup-requests are run first and not measured, then --requests are measured, and more while fewer than
--min-seconds have passed since the first measured one (at most 1,500 measured in all): the agent passes the shortest
repetition it counts, so that a fast device's few requests still make a counted run. Output follows Podium's JSON-lines
protocol (see podium_reference.py); each measured request is a "step" line whose "seconds" is its latency.
Exit codes: 0 ok, 2 bad arguments, 3 device not available.
"""
import argparse
import sys
import time

from podium_common import device_name, emit, fail, pick_device, synchronize, torch_version, versions


# Per-request latencies are reported as one metric line's values, which the agent reads up to 16 KiB a line (this many
# at 10 characters each).
MAX_MEASURED_REQUESTS = 1500


def parse_args(argv):
    p = argparse.ArgumentParser(description="Podium inference workload")
    p.add_argument("--task", choices=["image", "text", "classify"], required=True)
    p.add_argument("--compiler", choices=["eager", "compiled"], default="eager")
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--image-size", type=int, default=64, help="pixels per side (image and classify)")
    p.add_argument("--denoise-steps", type=int, default=30)
    p.add_argument("--input-len", type=int, default=128)
    p.add_argument("--output-len", type=int, default=64)
    p.add_argument("--requests", type=int, default=8)
    p.add_argument("--warmup-requests", type=int, default=3)
    p.add_argument("--min-seconds", type=float, default=0.0)
    p.add_argument("--precision", choices=["fp32", "bf16", "fp16"], default="fp32")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--device", choices=["auto", "cuda", "hpu", "xpu", "mps", "cpu"], default="auto")
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args(argv)
    for name in ("batch_size", "image_size", "denoise_steps", "input_len", "output_len", "requests"):
        if getattr(a, name) < 1:
            fail(2, "--%s must be 1 or more" % name.replace("_", "-"))
    if a.warmup_requests < 0 or a.threads < 0 or not 0 <= a.min_seconds <= 3600:
        fail(2, "--warmup-requests and --threads must not be negative, --min-seconds must be 0 to 3600")
    if a.requests > MAX_MEASURED_REQUESTS:
        fail(2, "--requests must be %d or fewer" % MAX_MEASURED_REQUESTS)
    return a


def main(argv):
    args = parse_args(argv)
    try:
        import numpy as np
        import torch
        from PIL import Image
        from torch import nn
    except ImportError as e:
        fail(2, "missing Python package: %s (install torch, numpy and Pillow)" % e)
    device = pick_device(torch, args.device)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[args.precision]
    if device == "cpu" and args.precision == "fp16":
        fail(2, "precision fp16 is not supported for inference on the CPU here; use bf16 or fp32")
    task = {"image": ImageGeneration, "text": TextGeneration, "classify": Classification}[args.task](torch, nn, args,
                                                                                                       device, dtype)
    compiler = task.compile(args.compiler)
    emit(dict(versions(torch, np, Image), type="info", device=device, device_name=device_name(torch, device),
              task=args.task, compiler=compiler, precision=args.precision, batch_size=args.batch_size))
    latencies = []
    planned = args.warmup_requests + args.requests
    measured_since = None
    with torch.inference_mode():
        i = 0
        while i < planned or more_wanted(args, measured_since, len(latencies)):
            warmup = i < args.warmup_requests
            if not warmup and measured_since is None:
                measured_since = time.perf_counter()
            seconds, extra = task.request()
            if not warmup:
                latencies.append((seconds, extra))
            i += 1
            emit(dict(extra, type="step", step=i, total_steps=max(planned, i), warmup=warmup,
                      samples=args.batch_size, seconds=round(seconds, 6),
                      samples_per_second=round(args.batch_size / seconds, 4)))
    task.report(latencies)


def more_wanted(args, measured_since, measured):
    """Whether one more measured request is wanted once --requests ran: until --min-seconds passed, within the cap."""
    return (measured_since is not None and measured < MAX_MEASURED_REQUESTS
            and time.perf_counter() - measured_since < args.min_seconds)


def timed(torch, device, fn):
    synchronize(torch, device)
    start = time.perf_counter()
    out = fn()
    synchronize(torch, device)
    return time.perf_counter() - start, out


def compile_module(torch, module, example, how):
    """(module, compiler name): torch.compile on 2.0 and later, else TorchScript traced and frozen."""
    if how == "eager":
        return module, "eager"
    if torch_version(torch) >= (2, 0) and hasattr(torch, "compile"):
        return torch.compile(module), "torch.compile (torch %s)" % torch.__version__
    with torch.inference_mode(False), torch.no_grad():
        traced = torch.jit.trace(module.eval(), example)
        return torch.jit.freeze(traced), "torchscript-freeze (torch %s)" % torch.__version__


class ImageGeneration:
    def __init__(self, torch, nn, args, device, dtype):
        self.torch, self.args, self.device = torch, args, device
        latent = max(8, args.image_size // 8)
        self.latent_shape = (args.batch_size, 4, latent, latent)
        self.denoiser = nn.Sequential(nn.Conv2d(5, 64, 3, padding=1), nn.SiLU(), nn.Conv2d(64, 64, 3, padding=1),
                                      nn.SiLU(), nn.Conv2d(64, 4, 3, padding=1)).to(device, dtype).eval()
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=8), nn.Conv2d(4, 32, 3, padding=1), nn.SiLU(),
                                     nn.Conv2d(32, 3, 3, padding=1)).to(device, dtype).eval()
        self.dtype = dtype

    def compile(self, how):
        t = self.torch
        example = t.randn(self.latent_shape[0], 5, *self.latent_shape[2:], device=self.device, dtype=self.dtype)
        self.denoiser, name = compile_module(t, self.denoiser, example, how)
        return name

    def request(self):
        t, steps = self.torch, self.args.denoise_steps

        def generate():
            x = t.randn(self.latent_shape, device=self.device, dtype=self.dtype)
            for s in range(steps):
                level = t.full((x.shape[0], 1, x.shape[2], x.shape[3]), 1.0 - s / steps, device=self.device,
                               dtype=self.dtype)
                x = x - self.denoiser(t.cat([x, level], dim=1)) / steps
            return self.decoder(x)

        seconds, _ = timed(t, self.device, generate)
        return seconds, {"seconds_per_image": round(seconds / self.args.batch_size, 6)}

    def report(self, latencies):
        per_image = [extra["seconds_per_image"] for _, extra in latencies]
        emit({"type": "metric", "name": "seconds_per_image", "values": per_image, "unit": "s", "direction": "lower",
              "scope": "system", "value": round(sum(per_image) / len(per_image), 6)})
        images = self.args.batch_size * len(latencies)
        emit({"type": "metric", "name": "images_per_second", "unit": "images/s", "direction": "higher",
              "value": round(images / sum(s for s, _ in latencies), 4)})


class TextGeneration:
    """A small decoder-only transformer with a key/value cache per layer, greedy decoding."""

    def __init__(self, torch, nn, args, device, dtype):
        self.torch, self.args, self.device, self.dtype = torch, args, device, dtype
        self.vocab, self.width, self.layers, self.heads = 1024, 128, 2, 4
        t = torch
        self.embed = nn.Embedding(self.vocab, self.width).to(device, dtype)
        self.pos = nn.Embedding(args.input_len + args.output_len, self.width).to(device, dtype)
        self.qkv = nn.ModuleList(nn.Linear(self.width, 3 * self.width) for _ in range(self.layers)).to(device, dtype)
        self.out = nn.ModuleList(nn.Linear(self.width, self.width) for _ in range(self.layers)).to(device, dtype)
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(self.width, 4 * self.width), nn.GELU(),
                                               nn.Linear(4 * self.width, self.width))
                                 for _ in range(self.layers)).to(device, dtype)
        self.head = nn.Linear(self.width, self.vocab).to(device, dtype)
        self.compiled_mlp = None
        self.generator = t.Generator(device="cpu").manual_seed(args.seed)

    def compile(self, how):
        example = self.torch.randn(self.args.batch_size, 1, self.width, device=self.device, dtype=self.dtype)
        names = []
        for i, block in enumerate(self.mlp):
            self.mlp[i], name = compile_module(self.torch, block, example, how)
            names.append(name)
        return names[0]

    def forward(self, tokens, start, cache):
        t = self.torch
        b, n = tokens.shape
        x = self.embed(tokens) + self.pos(t.arange(start, start + n, device=self.device))
        for layer in range(self.layers):
            q, k, v = self.qkv[layer](x).view(b, n, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
            if layer in cache:
                k = t.cat([cache[layer][0], k], dim=2)
                v = t.cat([cache[layer][1], v], dim=2)
            cache[layer] = (k, v)
            scores = q @ k.transpose(-1, -2) / (k.shape[-1] ** 0.5)
            if n > 1:
                mask = t.ones(n, k.shape[2], device=self.device, dtype=t.bool).tril(k.shape[2] - n)
                scores = scores.masked_fill(~mask, float("-inf"))
            x = x + self.out[layer]((scores.softmax(-1) @ v).transpose(1, 2).reshape(b, n, self.width))
            x = x + self.mlp[layer](x)
        return self.head(x[:, -1:])

    def request(self):
        t, a = self.torch, self.args
        prompt = t.randint(0, self.vocab, (a.batch_size, a.input_len), generator=self.generator).to(self.device)
        cache = {}
        synchronize(t, self.device)
        start = time.perf_counter()
        token = self.forward(prompt, 0, cache).argmax(-1)
        synchronize(t, self.device)
        first = time.perf_counter() - start
        for i in range(1, a.output_len):
            token = self.forward(token, a.input_len + i - 1, cache).argmax(-1)
        synchronize(t, self.device)
        total = time.perf_counter() - start
        tpot = (total - first) / (a.output_len - 1) if a.output_len > 1 else 0.0
        return total, {"ttft_ms": round(first * 1000, 4), "tpot_ms": round(tpot * 1000, 4),
                       "output_tokens_per_second": round(a.batch_size * a.output_len / total, 4)}

    def work_per_token(self):
        """(FLOPs, bytes read) per output token at the mean context of a request: 2 FLOPs per matmul weight plus 4*L*W
        per context token for attention (PaLM's count, forward only); the weights read once per decoding step for the
        whole batch plus the sequence's key/value cache (the MBU numerator of Databricks' inference guide)."""
        a, w, layers = self.args, self.width, self.layers
        context = a.input_len + a.output_len / 2.0
        weights = layers * 12 * w * w + w * self.vocab
        element = self.torch.tensor([], dtype=self.dtype).element_size()
        parameters = weights + self.vocab * w + (a.input_len + a.output_len) * w
        kv_cache = 2 * layers * w * context
        return (float(2 * weights + 4 * layers * w * context),
                float((parameters / a.batch_size + kv_cache) * element))

    def report(self, latencies):
        a = self.args
        tokens = a.batch_size * a.output_len * len(latencies)
        system = tokens / sum(s for s, _ in latencies)
        flops, moved = self.work_per_token()
        emit({"type": "metric", "name": "output_tokens_per_second", "value": round(system, 4), "unit": "tokens/s",
              "direction": "higher", "scope": "system", "flops_per_unit": flops, "bytes_per_unit": moved})
        emit({"type": "metric", "name": "output_tokens_per_second_per_accelerator", "value": round(system, 4),
              "unit": "tokens/s", "direction": "higher", "scope": "per_accelerator"})
        for name in ("ttft_ms", "tpot_ms"):
            values = [extra[name] for _, extra in latencies]
            emit({"type": "metric", "name": name, "values": values, "value": round(sum(values) / len(values), 4),
                  "unit": "ms", "direction": "lower"})


class Classification:
    def __init__(self, torch, nn, args, device, dtype):
        self.torch, self.args, self.device, self.dtype = torch, args, device, dtype

        def block(c_in, c_out, stride):
            return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(),
                                 nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU())

        self.model = nn.Sequential(block(3, 32, 2), block(32, 64, 2), block(64, 128, 2), nn.AdaptiveAvgPool2d(1),
                                   nn.Flatten(), nn.Linear(128, 1000)).to(device, dtype).eval()
        self.images = torch.randn(args.batch_size, 3, args.image_size, args.image_size, device=device, dtype=dtype)

    def compile(self, how):
        self.model, name = compile_module(self.torch, self.model, self.images, how)
        return name

    def request(self):
        seconds, _ = timed(self.torch, self.device, lambda: self.model(self.images))
        return seconds, {}

    def report(self, latencies):
        seconds = [s for s, _ in latencies]
        emit({"type": "metric", "name": "inference_samples_per_second", "unit": "samples/s", "direction": "higher",
              "value": round(self.args.batch_size * len(seconds) / sum(seconds), 4)})
        emit({"type": "metric", "name": "latency_ms", "values": [round(s * 1000, 4) for s in seconds], "unit": "ms",
              "direction": "lower", "value": round(sum(seconds) * 1000 / len(seconds), 4)})


if __name__ == "__main__":
    main(sys.argv[1:])
