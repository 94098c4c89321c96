"""The run as a page: one self-contained index.html, tested in a real headless Chromium (Debian's package) when it
and Playwright are installed, and skipped with the reason otherwise."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from vadaorchestra.agents.run import ask_sync
from vadaorchestra.agents.trace import read_trace
from vadaorchestra.audit.page import build_page

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "scenarios" / "concentration_risk" / "catalog"
QUESTION = "What are Bank Gamma's largest exposures, and do any of them raise concentration-risk concerns?"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOT = ROOT / "docs" / "report-bank-gamma.png"


@pytest.fixture(scope="module")
def gamma_page(concentration_data, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("page")
    result = ask_sync(QUESTION, catalog=CATALOG, data=concentration_data, report=folder)
    assert result.verified
    return build_page(folder / "trace.dl")


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="run-data">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))


def test_the_page_is_one_bounded_file_with_every_step_and_a_proof_per_figure(gamma_page):
    text = gamma_page.read_text(encoding="utf-8")
    assert gamma_page.stat().st_size < 2_000_000
    assert not re.search(r'(?:src|href)=["\'](?:https?:)?//', text)  # nothing fetched from anywhere
    steps = read_trace((gamma_page.parent / "trace.dl").read_text())[1]
    assert len(re.findall(r'<details class="step" data-step=', text)) == len(steps)
    data = _data(gamma_page)
    figure = next(f for f in data["figures"] if f["text"] == "24.6M")
    proof = json.dumps(data["proofs"][figure["proof"]])
    assert '"file": "loans.csv"' in proof and "Synthetix Global Fund" in proof


@pytest.mark.slow
def test_report_builds_the_page_for_an_existing_trace_and_says_what_is_wrong(gamma_page, tmp_path):
    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["report", str(gamma_page.parent / "trace.dl"), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r" / "index.html").stat().st_size > 10_000
    result = runner.invoke(app, ["report", str(tmp_path / "missing.dl"), "--out", str(tmp_path / "m")])
    assert result.exit_code == 1 and "cannot read trace" in result.output and not (tmp_path / "m").exists()


def _browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    return sync_api


def test_the_page_in_headless_chromium_loads_offline_and_shows_the_proof_of_a_figure(gamma_page, tmp_path):
    sync_api = _browser()
    steps = read_trace((gamma_page.parent / "trace.dl").read_text())[1]
    plan = json.loads((gamma_page.parent / "run.json").read_text())["plan"]
    errors, requests = [], []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            for width in (1280, 420):  # a desktop window and a narrow one
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("request", lambda r: requests.append(r.url))
                page.goto(gamma_page.as_uri())
                assert page.locator("svg.plan text.stage").count() == len(plan)
                assert page.locator("details.step").count() == len(steps)
                button = page.get_by_role("button", name="24.6M")
                button.focus()
                page.keyboard.press("Enter")  # keyboard, not only the mouse
                proof = page.locator("#proof").inner_text()
                assert "row of loans.csv, line" in proof and "Synthetix Global Fund" in proof
                assert button.get_attribute("aria-pressed") == "true"
                if width == 1280:
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=str(tmp_path / "report.png"))
                    if os.environ.get("VADA_UPDATE_SCREENSHOT"):
                        shutil.copy(tmp_path / "report.png", SCREENSHOT)
                page.close()
        finally:
            browser.close()
    assert errors == []
    assert {r for r in requests} == {gamma_page.as_uri()}  # the page and nothing else
