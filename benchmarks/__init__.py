"""Performance benchmarks of the referee (run ``python -m benchmarks.run``)."""

import os

# What players meet is the program started from the shell, which goes without numpy's BLAS thread pool
# (``referee/cli/main.py: entry``). With the pool, its thread keeps busy for a tenth of a second or so after numpy's
# import, and a question asked that soon after loading a table (a bundled table loads from the cache in less) was
# charged twice its CPU time. So the benchmarks, and the processes they start, go without it too. Set here, before any
# benchmark imports numpy; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
