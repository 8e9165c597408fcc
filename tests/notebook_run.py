"""Run a notebook of examples/ as a script (its code cells in order, matplotlib's Agg
backend) in a folder of one's choosing, and describe what its figures draw."""

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_DESCRIBE = """
import json as _json
import matplotlib.pyplot as _plt

def _ax(ax):
    return {
        "title": ax.get_title(),
        "xlabel": ax.get_xlabel(),
        "lines": [{"label": l.get_label(), "x": [float(v) for v in l.get_xdata()]} for l in ax.lines],
        "xticks": [float(v) for v in ax.get_xticks()],
        "xlim": [float(v) for v in ax.get_xlim()],
    }

_figs = [_plt.figure(n) for n in _plt.get_fignums()]
_out = [{"suptitle": f._suptitle.get_text() if f._suptitle else "", "axes": [_ax(a) for a in f.axes]} for f in _figs]
print("\\n" + _json.dumps({"figures": _out}))
"""


def run_notebook(name: str, cwd, timeout: int = 1200) -> dict:
    """``{"figures": [{"suptitle", "axes": [{"title", "xlabel", "lines": [{"label", "x"}],
    "xticks", "xlim"}]}], "stdout": ...}`` of examples/NAME.ipynb run in ``cwd``."""
    path = os.path.join(REPO, "examples", f"{name}.ipynb")
    cells = ["".join(c["source"]) for c in json.load(open(path, encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    script = "import matplotlib\nmatplotlib.use('Agg')\n" + "\n\n".join(cells) + "\n" + _DESCRIBE
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, timeout=timeout)
    assert res.returncode == 0, f"{name}: {res.stderr[-3000:]}"
    described = json.loads(res.stdout.strip().splitlines()[-1])
    described["stdout"] = res.stdout
    return described


def axes_titled(described: dict, title: str) -> dict:
    """The one axes of the notebook's figures with this title."""
    (ax,) = [a for f in described["figures"] for a in f["axes"] if a["title"] == title]
    return ax


def visible_ticks(ax: dict) -> list[float]:
    low, high = sorted(ax["xlim"])
    return [t for t in ax["xticks"] if low <= t <= high]
