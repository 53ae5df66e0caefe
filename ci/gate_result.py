"""ci/gate_result.py: the --json result file of one gate run, for the
benchmark scripts (ci/machinebench.py, ci/selftest.py)."""

import json
import os
import shutil


def take(path, keep=None):
    """The JSON result at PATH (None when the run wrote none or it does not
    parse); the file is then moved to KEEP when given, else removed."""
    try:
        with open(path) as f:
            result = json.load(f)
    except (OSError, ValueError):
        result = None
    if keep and os.path.exists(path):
        shutil.move(path, keep)   # KEEP may be on another file system
    elif os.path.exists(path):
        os.unlink(path)
    return result
