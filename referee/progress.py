"""Progress bars for long work (a whole battle played headless, the benchmarks): tqdm on standard error, shown only
when standard error is a terminal, so piped output, scripts and tests see nothing of them."""

from __future__ import annotations

import sys
from typing import Any


def progress_bar(total: int | None, what: str, unit: str) -> Any:
    # lazy: tqdm loads only when a long piece of work shows its progress
    from tqdm import tqdm

    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=None, leave=False, dynamic_ncols=True)
