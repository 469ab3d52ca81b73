"""One headless Chromium shared by a test module's browser tests: starting one was most of such a test's CPU."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


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
