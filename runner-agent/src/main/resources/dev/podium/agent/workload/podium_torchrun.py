#!/usr/bin/env python3
"""torchrun, as `python -m torch.distributed.run`, with one fix for torch before 2.0 on Python 3.11 and later.

There, Std.from_str("0") returns None, because Python 3.11 no longer iterates the zero and composite members of an IntFlag,
and torchrun then fails on its own default arguments (--redirects 0 --tee 0). Where from_str works, nothing is changed.
"""
import re
import sys

from torch.distributed import run
from torch.distributed.elastic.multiprocessing import api


def _from_str(vm):
    if re.fullmatch(r"[0-3]", vm):
        return api.Std(int(vm))
    return {int(i): api.Std(int(v)) for i, v in (m.split(":") for m in vm.split(","))}


if api.Std.from_str("0") is None:
    api.Std.from_str = staticmethod(_from_str)

if __name__ == "__main__":
    sys.exit(run.main())
