"""One headless Chromium shared by a test module's browser tests: starting one was most of such a test's CPU. And how
every browser test starts Chromium (the distribution's, driven by Selenium), or is skipped with the reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
# Headless, and nothing of its own on the network (the machine's closed network refuses it, many at a time).
HEADLESS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")
# A page in a tab behind another keeps its timers and its socket as a phone in a player's hand does.
AWAKE = ("--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows")


def require_chromium() -> None:
    """Skip the calling test module, with the reason, where Selenium or Chromium is missing."""
    pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra has it)")
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("headless Chromium is not installed: apt-get install -y chromium chromium-driver",
                    allow_module_level=True)


def new_chromium(size: tuple[int, int], *extra: str) -> Any:
    """A headless Chromium of ``size`` (its window), with ``extra`` arguments."""
    from selenium import webdriver  # lazy: only once require_chromium let the module run
    from selenium.webdriver.chrome.service import Service  # lazy: with the line above

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (*HEADLESS, *extra, f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))


class SharedBrowser:
    """Made on first use by ``make``; each test gets it back as a new one is (``fresh``); ``quit`` after the
    module's last test."""

    def __init__(self, make: Callable[[], Any], size: tuple[int, int] | None = None) -> None:
        self.make, self.size = make, size
        self.driver: Any = None

    def fresh(self) -> Any:
        """The browser with one blank tab, no cookie of any page, no screen size emulated, and its starting size."""
        if self.driver is None:
            self.driver = self.make()
        driver = self.driver
        first, *others = driver.window_handles
        for handle in others:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(first)
        driver.get("about:blank")
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        if self.size is not None:
            driver.set_window_size(*self.size)
        return driver

    def quit(self) -> None:
        if self.driver is not None:
            self.driver, driver = None, self.driver
            driver.quit()
