"""Keep the pictures of docs/reports.md current: the balance chart of the bundled house_rules
sweep and a screenshot of a `unosim report --html` page.

    python docs/report_page.py

It plays, in a scratch folder, the bundled house_rules sweep at 5,000 hands a point (the
file's 100,000 take minutes; the chart's layout is the same, its intervals wider) and two
runs, then writes:

* docs/balance_house_rules.png: `unosim plot` of the sweep;
* docs/report_page.png: headless Chromium's screenshot of `unosim report A B --html` (the
  top of the page: its findings in words, the bots, then the figures).

Needs Debian's chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from unosim.cli import main
from unosim.rules.bundled import bundled_sweeps

DOCS = Path(__file__).resolve().parent
HANDS = 5_000


def _unosim(*args: object) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args])
    if res.exit_code != 0:
        sys.exit(f"unosim {' '.join(map(str, args))} failed:\n{res.output}")
    return res.output


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "chromium-headless-shell", "google-chrome"):
        if found := shutil.which(name):
            return found
    sys.exit("needs headless Chromium: apt-get install chromium")


def main_() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        text = bundled_sweeps()["house_rules"].read_text()
        text = re.sub(r"(?m)^hands = .*$", f"hands = {HANDS}", text)
        text = re.sub(r'(?m)^base = .*$', 'base = "standard"', text)
        (d / "house_rules.toml").write_text(text)
        _unosim("sweep", d / "house_rules.toml", "--out", d / "house_rules", "--quiet")
        for p in _unosim("plot", d / "house_rules", "--out", d / "plots").split():
            shutil.copy(p, DOCS / "balance_house_rules.png")
        (d / "until.toml").write_text('name = "until_playable"\n[rules]\ndraw = "until_playable"\n')
        _unosim("run", "standard", "--hands", 20_000, "--out", d / "standard", "--quiet")
        _unosim("run", d / "until.toml", "--hands", 20_000, "--out", d / "until_playable", "--quiet")
        page = d / "report.html"
        _unosim("report", d / "standard", d / "until_playable", "--html", page)
        subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={d / 'profile'}", "--window-size=1100,1400",
                        f"--screenshot={DOCS / 'report_page.png'}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    print(f"wrote {DOCS / 'balance_house_rules.png'} and {DOCS / 'report_page.png'}")


if __name__ == "__main__":
    main_()
