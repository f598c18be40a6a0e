"""A real headless Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium, for checks that
look at pages as a person would. Nothing is downloaded at run time: both binaries come from the system."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
# Headless on a machine without a display or a network: no sandbox (root in CI), no GPU, and nothing that
# phones home (QUIC, background updates, sync), which would otherwise hang on closed connections.
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars",
)  # fmt: skip


@contextmanager
def chromium(width: int = 1600, height: int = 1000) -> Iterator[webdriver.Chrome]:
    """A fresh browser with an empty profile, closed (and its profile deleted) afterwards."""
    for binary in (CHROMIUM, DRIVER):
        if shutil.which(binary) is None:
            raise SystemExit(f"{binary} is missing: run `bash scripts/system-deps.sh test`")
    profile = tempfile.mkdtemp(prefix="graphrag-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console, for driver.get_log
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
