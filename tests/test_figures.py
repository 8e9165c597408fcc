"""Figures, thesis tables 58/59 and the Snakemake report, on a tiny pipeline in a temp folder.

One workflow run (boards 5x5 and 6x6, every start x every order, brute engine, one sweep
job per board) feeds every test here; the report test opens the report in headless Chromium.
"""

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import polars as pl
import pytest
import yaml
from PIL import Image
from workflow_run import snakemake as run_snakemake

from knight.core.board import Board
from knight.core.board import board_grid as square_grid
from knight.core.symmetry import group
from knight.sweep.images import image_outcomes as order_images
from knight.sweep.thesis import table59

BOARD_FIGURES = ("ends_complete", "ends_closed", "failing", "closed_starts")
FIG_CONFIG = {
    "dpi": 100,
    "tours": [
        {"board": 5, "start": [1, 1], "order": "12345678"},
        {"board": "6x6", "start": [2, 3], "order": "87654321"},
    ],
    "images_of_order": {"board": 6, "order": "31245678"},
    "queens": False,
}
TOUR_PNGS = ["results/figures/tours/5x5_1-1_12345678.png", "results/figures/tours/6x6_2-3_87654321.png"]
IMAGES_PNG = "results/figures/symmetry/6x6_31245678.png"


def snakemake(repo, workdir, *extra, target="figures"):
    return run_snakemake(workdir, *([target] if target else []), *extra, configfile=workdir / "cfg.yaml", timeout=600)


def write_config(workdir, figures=FIG_CONFIG):
    cfg = {
        "sweep": {"boards": [5, 6], "engine": "brute", "chunk_runs": 2_000_000},
        "dask": {"workers": 2},
        "figures": figures,
    }
    (workdir / "cfg.yaml").write_text(yaml.safe_dump(cfg))


@pytest.fixture(scope="module")
def tiny(repo, tmp_path_factory):
    work = tmp_path_factory.mktemp("figures")
    write_config(work)
    res = snakemake(repo, work)
    assert res.returncode == 0, res.stderr[-4000:]
    return work


@pytest.fixture(scope="module")
def runs(tiny):
    return pl.scan_parquet(str(tiny / "results/runs/**/*.parquet"), hive_partitioning=False).collect()


def png_pixels(path):
    with Image.open(path) as im:
        assert im.format == "PNG"
        return np.asarray(im.convert("RGB"))


def assert_nontrivial_png(path):
    rgb = png_pixels(path)
    assert rgb.shape[0] > 200 and rgb.shape[1] > 200, path
    colours = {tuple(c) for c in rgb.reshape(-1, 3)[::5]}
    assert len(colours) > 20, f"{path}: {len(colours)} colours, looks blank"
    assert (rgb.sum(axis=2) < 600).mean() > 0.01, f"{path}: almost all white"


@pytest.mark.slow
def test_every_figure_exists_and_is_nontrivial(tiny):
    pngs = TOUR_PNGS + [IMAGES_PNG, "results/figures/rates.png", "results/figures/runtime.png"]
    pngs += [f"results/figures/boards/{b}/{n}.png" for b in ("5x5", "6x6") for n in BOARD_FIGURES]
    for png in pngs:
        assert_nontrivial_png(tiny / png)
        svg = (tiny / png).with_suffix(".svg")
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", svg
        assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 10, svg
    assert not list((tiny / "results").rglob(".*.tmp"))
    # The queens plot is not asked for (figures.queens: false), so its stage did not run.
    assert not (tiny / "results/queens").exists()


@pytest.mark.slow
def test_tour_figure_shows_the_run(tiny):
    rgb = png_pixels(tiny / TOUR_PNGS[1])
    # chequered board in the two greys, the whole board visible
    assert (rgb == (0xBD, 0xBD, 0xBD)).all(axis=2).mean() > 0.05
    assert (rgb == (0xF2, 0xF2, 0xF2)).all(axis=2).mean() > 0.05


@pytest.mark.slow
def test_table58_against_runs(tiny, runs):
    for (r, c), part in runs.group_by(["rows", "cols"]):
        name = f"{r}x{c}"
        n_starts = part["start"].n_unique()
        per_order = part.group_by("order").agg(pl.col("complete").sum(), pl.col("closed").sum())
        want = per_order.filter(pl.col("complete") == n_starts).sort("order")
        got = pl.read_csv(tiny / f"results/thesis/{name}/table58.csv")
        if want.height == 0:
            assert got.height == 0
        else:
            assert got["rank"].to_list() == want["order"].to_list()
            assert got["closed"].to_list() == want["closed"].to_list()
            assert (got["starts"] == n_starts).all()
        md = (tiny / f"results/thesis/{name}/table58.md").read_text()
        assert f"{want.height:,} of 40,320 orders run complete from all {n_starts} starts" in md
        md_orders = re.findall(r"^\| (\d{8}) \|", md, re.M)
        assert md_orders == [f"{o:08d}" for o in got["order"].to_list()]
    # Known values: no 5x5 order completes from every start (tours need a start on the 13
    # majority-colour squares); on 6x6 4,928 orders fail from each centre square.
    assert pl.read_csv(tiny / "results/thesis/5x5/table58.csv").height == 0
    assert "No order completes from every start." in (tiny / "results/thesis/5x5/table58.md").read_text()
    # complete_all is a property of a symmetry class (all starts run), and 6x6 classes have 8 members.
    six = pl.read_csv(tiny / "results/thesis/6x6/table58.csv")
    assert six.height > 0 and six.height % 8 == 0 and six["class_id"].n_unique() == six.height // 8


@pytest.mark.slow
def test_table59_against_runs(tiny, runs):
    for (r, c), part in runs.group_by(["rows", "cols"]):
        name = f"{r}x{c}"
        failing = part.group_by("start").agg((~pl.col("complete")).sum().alias("failing"))
        want = np.full((r, c), -1)
        for s, f in failing.iter_rows():
            want[s // c, s % c] = f
        csv = pl.read_csv(tiny / f"results/thesis/{name}/table59.csv")
        assert csv.columns == ["row", *[str(j) for j in range(1, c + 1)]]
        assert csv["row"].to_list() == list(range(1, r + 1))
        assert (csv.drop("row").to_numpy() == want).all()
        md = (tiny / f"results/thesis/{name}/table59.md").read_text()
        md_rows = [line for line in md.splitlines() if re.match(r"^\| \d", line)]
        md_grid = np.array([[int(v) for v in line.strip("| ").split(" | ")] for line in md_rows])
        assert (md_grid[:, 1:] == want).all() and (md_grid[:, 0] == np.arange(1, r + 1)).all()
    six = pl.read_csv(tiny / "results/thesis/6x6/table59.csv").drop("row").to_numpy()
    assert six[2:4, 2:4].tolist() == [[4928, 4928], [4928, 4928]] and six.sum() == 4 * 4928
    five = pl.read_csv(tiny / "results/thesis/5x5/table59.csv").drop("row").to_numpy()
    odd = (np.add.outer(np.arange(5), np.arange(5)) % 2) == 1
    assert (five[odd] == 40320).all() and (five[~odd] < 40320).all()


def test_square_grid_and_table59_layout():
    board = Board(3, 4)
    grid = square_grid(board, [0, 5, 11], [1, 2, 3])
    assert grid[0, 0] == 1 and grid[1, 1] == 2 and grid[2, 3] == 3 and np.isnan(grid[0, 1])
    t = table59(pl.DataFrame({"start": [0, 7], "failing": [4, 9]}), board)
    assert t.row(0) == (1, 4, None, None, None) and t.row(1) == (2, None, None, None, 9)


def test_heatmap_of_partial_starts(tmp_path):
    """Starts not run (NaN) get no number; the run ones are written in their cells."""
    from knight.report.figures import save, square_heatmap

    board = Board(6, 8)
    grid = square_grid(board, [0, 5, 11, 47], [3, 0, 10, 7])
    fig = square_heatmap(grid, title="t", label="orders (count)", board=board)
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in fig.axes[0].texts}
    assert texts == {(0, 0): "3", (0, 5): "0", (1, 3): "10", (5, 7): "7"}
    save(fig, tmp_path / "h.png", dpi=50)
    save(fig, tmp_path / "h.svg")
    assert png_pixels(tmp_path / "h.png").shape[2] == 3
    assert ET.parse(tmp_path / "h.svg").getroot().tag.endswith("svg")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == ["h.png", "h.svg"]  # not seals


@pytest.mark.parametrize("shape, order", [((6, 6), "31245678"), ((5, 6), "12345678")])
def test_order_images_are_symmetric_images(shape, order):
    """Panel g is the identity panel moved by g: the run from g·s under g·o mirrors the one from s under o."""
    board = Board(*shape)
    images = order_images(board, order)
    g = group(board)
    assert len(images) == g.size and images[0]["order"] == order and images[0]["element"] == "identity"
    base_codes = images[0]["codes"].ravel()
    base_unvisited = images[0]["unvisited"].ravel()
    for k, im in enumerate(images):
        moved = np.empty_like(base_codes)
        moved[g.squares[k]] = base_codes
        assert (im["codes"].ravel() == moved).all(), im["element"]
        moved[g.squares[k]] = base_unvisited
        assert (im["unvisited"].ravel() == moved).all(), im["element"]
        assert (im["complete"], im["closed"]) == (images[0]["complete"], images[0]["closed"])


@pytest.mark.slow
def test_rerun_only_on_changed_inputs_or_params(repo, tiny):
    res = snakemake(repo, tiny, "-n")
    assert res.returncode == 0 and "Nothing to be done" in res.stdout + res.stderr
    write_config(tiny, {**FIG_CONFIG, "dpi": 90})
    try:
        res = snakemake(repo, tiny, "-n", "--quiet", "rules")
        out = res.stdout + res.stderr
        assert res.returncode == 0, out[-2000:]
        jobs = dict(re.findall(r"^(\w+)\s+(\d+)$", out, re.M))
        assert jobs.get("figure_board") == "2" and jobs.get("figure_tour") == "2", out
        assert "sweep_chunk" not in jobs and "board_tables" not in jobs and "thesis_tables" not in jobs
    finally:
        write_config(tiny)


@pytest.mark.slow
def test_bad_figures_config_names_the_key(repo, tmp_path):
    write_config(tmp_path, {"tours": [{"board": 5, "start": [6, 1], "order": "12345678"}]})
    res = snakemake(repo, tmp_path, "-n")
    assert res.returncode != 0
    assert "figures.tours[0].start: [6, 1]: off the 5x5 board" in res.stdout + res.stderr
    write_config(tmp_path, {"dpi": 150, "colour": "red"})
    res = snakemake(repo, tmp_path, "-n")
    assert res.returncode != 0 and "colour" in res.stdout + res.stderr


@pytest.fixture(scope="module")
def report(repo, tiny):
    res = snakemake(repo, tiny, "--report", "results/report.html")
    assert res.returncode == 0, res.stderr[-4000:]
    html = (tiny / "results/report.html").read_text()
    results = json.loads(re.search(r"var results = (\{.*?\});\n", html, re.S).group(1))
    return tiny / "results/report.html", html, results


@pytest.mark.slow
def test_report_lists_every_figure_and_table_with_captions(tiny, report):
    _, _, results = report
    pngs = TOUR_PNGS + [IMAGES_PNG, "results/figures/rates.png", "results/figures/runtime.png"]
    pngs += [f"results/figures/boards/{b}/{n}.png" for b in ("5x5", "6x6") for n in BOARD_FIGURES]
    tables = [f"results/thesis/{b}/table{n}.html" for b in ("5x5", "6x6") for n in (58, 59)]
    tables += ["results/report/tables/completion.html"]
    assert set(results) == set(pngs + tables)
    for path in pngs:
        assert results[path]["mime_type"] == "image/png"
        assert results[path]["data_uri"].startswith("data:image/png")
    for path in tables:
        assert results[path]["mime_type"] == "text/html"
    for path, entry in results.items():
        assert len(entry["caption"]) > 200, path
    # Captions carry the config values the figures were made with.
    assert "100 dpi" in results["results/figures/rates.png"]["caption"]
    assert "brute" in results["results/figures/boards/6x6/failing.png"]["caption"]
    assert "(2, 3)" in results[TOUR_PNGS[1]]["caption"] and "87654321" in results[TOUR_PNGS[1]]["caption"]


# Injected at the end of the report: render the app now, show every image result through
# the app's own image view, keep a copy of each to read its decoded size after `load`,
# then leave one figure on screen for the screenshot.
_CHECK_SCRIPT = """
<script>
(() => {
  ReactDOM.flushSync(() => root.render(e(App)));
  const shelf = document.createElement('div');
  shelf.style.cssText = 'position:absolute;left:-20000px;top:0';
  document.body.appendChild(shelf);
  const shown = {};
  for (const [path, entry] of Object.entries(results)) {
    if (!entry.mime_type.startsWith('image/')) continue;
    ReactDOM.flushSync(() => app.setView({content: 'img', contentPath: entry.data_uri, resultPath: path}));
    const img = [...document.querySelectorAll('#app img')].find(i => i.getAttribute('src') === entry.data_uri);
    shown[path] = img !== undefined;
    if (img) { const c = img.cloneNode(); c.dataset.path = path; shelf.appendChild(c); }
  }
  const SHOW = %s;
  ReactDOM.flushSync(() => app.setView({content: 'img', contentPath: results[SHOW].data_uri, resultPath: SHOW}));
  window.addEventListener('load', () => {
    const out = {};
    for (const c of shelf.querySelectorAll('img'))
      out[c.dataset.path] = {shown: shown[c.dataset.path], width: c.naturalWidth, height: c.naturalHeight};
    shelf.remove();
    const pre = document.createElement('pre');
    pre.id = 'figure-check'; pre.style.display = 'none'; pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  });
})();
</script>
"""


def chromium(tmp_path, *args):
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    profile.mkdir()
    cmd = [
        "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("chromium") is None, reason="chromium not on PATH (Debian package `chromium`; .ci/run installs it)"
)
def test_report_renders_in_headless_chromium(tiny, report, tmp_path):
    path, html, results = report
    # 1. The report itself loads and the app draws its menu (non-blank screenshot).
    shot = tmp_path / "report.png"
    res = chromium(
        tmp_path, f"--screenshot={shot}", "--window-size=1280,900", "--virtual-time-budget=5000", path.as_uri()
    )
    assert shot.exists(), res.stderr[-2000:]
    rgb = png_pixels(shot)
    assert len({tuple(c) for c in rgb.reshape(-1, 3)[::3]}) > 30 and rgb.std() > 20

    # 2. Every figure shows in the report's image view and decodes at its file's size.
    show = TOUR_PNGS[1]
    head, sep, tail = html.rpartition("</body>")
    page = tmp_path / "report-check.html"
    page.write_text(head + _CHECK_SCRIPT % json.dumps(show) + sep + tail)
    res = chromium(tmp_path, "--dump-dom", page.as_uri())
    m = re.search(r'<pre id="figure-check"[^>]*>(.*?)</pre>', res.stdout, re.S)
    assert m, res.stderr[-2000:]
    checked = json.loads(m.group(1).replace("&quot;", '"'))
    images = [p for p, e in results.items() if e["mime_type"].startswith("image/")]
    assert sorted(checked) == sorted(images)
    for p in images:
        with Image.open(tiny / p) as im:
            size = im.size
        assert checked[p] == {"shown": True, "width": size[0], "height": size[1]}, p

    # 3. Screenshot with the 6x6 tour on screen: its chequered board is in the picture.
    shot = tmp_path / "figure.png"
    res = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1400,1000", page.as_uri())
    assert shot.exists(), res.stderr[-2000:]
    rgb = png_pixels(shot)
    content = rgb[:, 300:]  # right of the navigation bar
    assert (content == (0xBD, 0xBD, 0xBD)).all(axis=2).mean() > 0.05
    assert (content == (0xF2, 0xF2, 0xF2)).all(axis=2).mean() > 0.05
    assert len({tuple(c) for c in content.reshape(-1, 3)[::3]}) > 30


@pytest.mark.slow
def test_queens_plot_joins_the_report_when_asked(repo, tmp_path):
    write_config(tmp_path, {**FIG_CONFIG, "queens": True})
    res = snakemake(repo, tmp_path, "-n", "--quiet", "rules")
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-2000:]
    jobs = dict(re.findall(r"^(\w+)\s+(\d+)$", out, re.M))
    assert jobs.get("report_queens") == "1" and jobs.get("queens_speedup") == "1", out
