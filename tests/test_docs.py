"""The documentation site builds strictly, with its notebooks executed (docs/development.md,
"This documentation").

One build, as the README's development section prints it: ``sphinx-build -W --keep-going
-n`` (a warning, an unresolved cross-reference or internal link, a config section or a
command missing from the reference, a notebook cell that raises: each fails it), into a
fresh output folder. No external URL is fetched. Then a few pages in headless Chromium
at 1,400 x 900: the top bar's six sections, each page's section navigation, and wide
code and tables that scroll in boxes no taller than the window (docs/development.md,
"This documentation").
"""

import json
import re
import shutil
import subprocess
import sys
import time
from html import unescape as html_unescape
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytestmark = pytest.mark.slow

NOTEBOOKS = ["01-first-tour", "02-sweep-analysis", "03-rules-results", "04-queens-speedup"]


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory):
    pytest.importorskip("sphinx", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html"]
    cmd += ["-d", str(out / "doctrees"), "docs", str(out / "html")]
    t0 = time.monotonic()
    res = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=1200)
    seconds = time.monotonic() - t0
    assert res.returncode == 0, f"strict docs build failed:\n{res.stdout[-4000:]}\n{res.stderr[-8000:]}"
    print(f"docs built in {seconds:.0f} s")
    return out / "html", res.stdout + res.stderr


def test_the_strict_build_passes_and_has_every_part(site):
    html, _ = site
    for page in [
        "index",
        "get-started",
        "user-guide",
        "examples",
        "reference/index",
        "changelog",
        "workflow",
        "sweep",
        "tables",
        "rules",
        "queens",
        "exact",
        "figures",
        "census",
        "claims",
        "integrity",
        "cluster",
        "slurm-admin",
        "results/census",
        "results/claims",
        "reference/api",
        "reference/config",
        "reference/cli",
        "conventions",
        "performance",
        "development",
    ]:
        assert (html / f"{page}.html").exists(), page


def test_every_notebook_is_executed_with_its_plots(site, repo):
    html, log = site
    on_disk = sorted(p.stem for p in Path(repo, "examples").glob("*.ipynb"))
    assert on_disk == NOTEBOOKS
    for name in NOTEBOOKS:
        assert f"{name}.ipynb: Executed notebook" in log, name
        page = (html / "examples" / f"{name}.html").read_text()
        assert re.search(r'<img[^>]+src="[^"]+\.png"', page), f"{name}: no plot rendered"
        assert "Traceback" not in page, name


def test_the_top_bar_is_the_six_sections(site):
    html, _ = site
    header = (html / "index.html").read_text().split('class="bd-header', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r'class="nav-link nav-internal" href="[^"]+">\s*([^<]+?)\s*</a>', header) == SECTIONS


def test_no_page_shows_an_empty_section_navigation(site):
    html, _ = site
    without = []
    for page in sorted(html.rglob("*.html")):
        if page.relative_to(html).parts[0] in ("_static", "_modules"):  # the theme's templates, viewcode's sources
            continue
        text = page.read_text()
        if "bd-docs-nav" not in text:
            without.append(page.relative_to(html).with_suffix("").as_posix())
            continue
        nav = text.split("bd-docs-nav", 1)[1].split("</nav>", 1)[0]
        assert "<a " in nav, f"{page.relative_to(html)}: an empty section navigation"
    # the landing page, the one-page sections and Sphinx's own index and search pages
    assert without == ["changelog", "genindex", "get-started", "index", "py-modindex", "search"]


def test_the_changelog_is_on_the_site(site, repo):
    html, _ = site
    page = (html / "changelog.html").read_text()
    for heading in re.findall(r"^## (.+)$", Path(repo, "CHANGELOG.md").read_text(), re.M):
        assert heading in page, heading


def test_the_gallery_has_a_card_per_notebook_with_its_first_figure(site, repo):
    html, _ = site
    gallery = (html / "examples.html").read_text()
    cards = re.findall(
        r'<p class="knight-card-image"><a [^>]*href="examples/([^"]+)\.html"><img [^>]*src="(_images/[^"]+)"', gallery
    )
    notebooks = sorted(p.stem for p in Path(repo, "examples").glob("*.ipynb"))
    assert [name for name, _ in cards] == notebooks, "one card per notebook of examples/, in name order"
    for name, src in cards:
        assert (html / src).stat().st_size > 1000, src
        article = (html / "examples" / f"{name}.html").read_text().split('class="bd-article', 1)[1]
        first = re.search(r'<img [^>]*src="\.\./(_images/[^"]+)"', article)
        assert first and first.group(1) == src, f"{name}: the thumbnail is not the notebook's first figure"


def test_notebooks_are_committed_without_outputs(repo):
    for path in sorted(Path(repo, "examples").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        assert code and all(not c.get("outputs") and c.get("execution_count") is None for c in code), path.name


def test_the_reference_is_generated_from_the_code(site):
    html, _ = site
    config = (html / "reference" / "config.html").read_text()
    for key in ["sweep.chunk_runs", "dask.scheduler_file", "rules.studies[].orders", "claims.entries[].finding"]:
        assert key in config, key
    cli = (html / "reference" / "cli.html").read_text()
    for option in ["--engine", "--store", "--closed", "--method"]:
        assert option in cli, option
    api = (html / "reference" / "api.html").read_text()
    for name in ["knight.tour", "knight.sweep.run", "knight.rules.tables.completion", "knight.queens.SearchResult"]:
        assert f'href="generated/{name}.html"' in api, name  # a page per public name
        assert f'id="{name}"' in (html / "reference" / "generated" / f"{name}.html").read_text(), name


# --- the site in a browser ----------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
SECTIONS = ["Get started", "User guide", "Examples", "Reference", "Development", "Changelog"]
WINDOW = (1400, 900)
# The landing page, a user-guide page, a reference page, a notebook, and the widest table.
BROWSED = ["index", "sweep", "reference/api", "examples/03-rules-results", "results/census"]

# Run in the page once it has loaded: the facts the checks read, as JSON in a <pre>.
_LAYOUT_SCRIPT = """
<script>
window.addEventListener("load", () => setTimeout(() => {
  const article = document.querySelector(".bd-article");
  const boxes = [];
  for (const el of article.querySelectorAll("pre, table")) {
    const box = el.tagName === "PRE" ? el : el.parentElement;  // a table scrolls in its parent
    boxes.push({
      what: el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60),
      scrollWidth: box.scrollWidth,
      clientWidth: box.clientWidth,
      height: box.clientHeight,
      overflowX: getComputedStyle(box).overflowX,
    });
  }
  const links = (selector) => [...document.querySelectorAll(selector)]
    .filter((a) => a.offsetWidth > 0).map((a) => a.textContent.trim());
  const facts = {
    top: links(".bd-header .navbar-header-items .navbar-nav a.nav-link"),
    side: links(".bd-sidebar-primary .bd-docs-nav a"),
    boxes,
    pageWidth: document.documentElement.scrollWidth,
    window: [window.innerWidth, window.innerHeight],
  };
  const pre = document.createElement("pre");
  pre.id = "layout-facts";
  pre.textContent = JSON.stringify(facts);
  document.body.appendChild(pre);
}, 100));
</script>
"""


def chromium(profile: Path, *args: str) -> subprocess.CompletedProcess:
    """Headless Chromium with a fresh profile; without the networking flags it waits on
    the closed network."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
    cmd += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
    cmd += [f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def layout(page: Path, profile: Path) -> dict:
    """The facts ``_LAYOUT_SCRIPT`` reads from ``page`` (a built HTML file) in the window."""
    html = page.read_text()
    head, sep, tail = html.rpartition("</body>")
    probe = page.with_name(f"{page.stem}.layout-check.html")  # beside it: same relative links
    probe.write_text(head + _LAYOUT_SCRIPT + sep + tail)
    try:
        res = chromium(profile, "--virtual-time-budget=5000", "--dump-dom", probe.resolve().as_uri())
    finally:
        probe.unlink()
    m = re.search(r'<pre id="layout-facts">(.*?)</pre>', res.stdout, re.S)
    assert m, f"{page.name}: no layout facts\n{res.stderr[-2000:]}"
    return json.loads(html_unescape(m.group(1)))


def layout_faults(facts: dict) -> list[str]:
    """What a reader at this window would find wrong: the top bar's sections, content
    past the page's right edge, a box wider than its content area that does not scroll,
    or one taller than the window (its scroll bar off screen while it is read)."""
    faults = []
    if facts["top"] != SECTIONS:
        faults.append(f"top bar {facts['top']}")
    width, height = facts["window"]
    if facts["pageWidth"] > width:
        faults.append(f"page {facts['pageWidth']} px wide in a {width} px window")
    for box in facts["boxes"]:
        if box["scrollWidth"] <= box["clientWidth"]:
            continue
        if box["overflowX"] not in ("auto", "scroll"):
            faults.append(
                f"{box['what']!r}: {box['scrollWidth']} px in {box['clientWidth']}, overflow-x {box['overflowX']}"
            )
        elif box["height"] > height:
            faults.append(f"{box['what']!r}: scrolls sideways but is {box['height']} px high in a {height} px window")
    return faults


def png_pixels(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        assert im.format == "PNG"
        return np.asarray(im.convert("RGB"))


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium not installed (Debian package; .ci/run installs it)")
@pytest.mark.parametrize("name", BROWSED)
def test_pages_read_well_in_a_browser(site, name, tmp_path, repo):
    html, _ = site
    facts = layout(html / f"{name}.html", tmp_path / "profile-layout")
    assert layout_faults(facts) == [], name
    if name == "index":
        assert facts["side"] == [], "the landing page has no sidebar"
    else:
        assert len(facts["side"]) >= 2, f"{name}: section navigation {facts['side']}"
    shot = tmp_path / f"{name.replace('/', '-')}.png"
    res = chromium(
        tmp_path / "profile-shot",
        "--virtual-time-budget=5000",
        f"--screenshot={shot}",
        (html / f"{name}.html").as_uri(),
    )
    assert shot.exists(), res.stderr[-2000:]
    pixels = png_pixels(shot)
    assert pixels.shape[:2] == (WINDOW[1], WINDOW[0]) and pixels.std() > 20, f"{name}: blank screenshot"
    keep = Path(repo, "docs", "_build", "screenshots")  # for a person to look at
    keep.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, keep / shot.name)
