"""A real browser (Debian's chromium, headless) walks setup -> the built-in game -> a settlement -> export.

Screenshots land in ``runs/screenshots/`` (ignored by git). ``make test`` installs chromium and its
driver with apt (``make browser-deps``); where that is impossible the test is skipped and says why.
"""

import shutil
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from referee.record import read_record

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "runs" / "screenshots"

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="chromium and chromium-driver are not installed (make browser-deps)"
)


@pytest.fixture
def server(tmp_path):
    from werkzeug.serving import make_server

    from web.app import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "SOURCE": "builtin", "READER": "truth",
                      "REALTIME": False, "BUILTIN_SIZE": (640, 360), "BUILTIN_FPS": 5.0})  # fmt: skip
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{http.server_port}"
    http.shutdown()
    live = app.extensions["dice-referee"].live
    if live is not None:
        live.stop()


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                     "--mute-audio"):  # fmt: skip
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_for(condition, timeout=90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"not seen within {timeout} s")


def test_setup_game_settlement_and_export_in_a_real_browser(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _, base = server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.get(base + "/")
    assert browser.current_url.endswith("/setup")  # no game yet
    colours = browser.find_elements(By.NAME, "colour")
    names = browser.find_elements(By.NAME, "name")
    Select(colours[0]).select_by_value("red")
    Select(colours[1]).select_by_value("blue")
    Select(colours[2]).select_by_value("")
    names[0].send_keys("Ann")
    names[1].send_keys("Bo")
    browser.find_element(By.NAME, "seed").send_keys("7")
    browser.save_screenshot(str(SCREENSHOTS / "1-setup.png"))
    browser.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()

    # The live page: the built-in game is refereed; wait for the first round's settlement on screen.
    wait_for(lambda: browser.find_elements(By.ID, "video"))
    log = browser.find_element(By.ID, "log")
    wait_for(lambda: "settled" in log.text)
    assert "Ann" in browser.find_element(By.ID, "scores").text
    casinos = browser.find_element(By.ID, "casinos").text
    assert "casino 1" in casinos and "casino 6" in casinos
    browser.save_screenshot(str(SCREENSHOTS / "2-settled.png"))

    # History -> export: the exported record replays to the game being refereed.
    browser.get(base + "/history")
    link = browser.find_element(By.PARTIAL_LINK_TEXT, "JSON lines").get_attribute("href")
    browser.save_screenshot(str(SCREENSHOTS / "3-history.png"))
    with urllib.request.urlopen(link, timeout=10) as response:
        state = read_record(response.read().decode().splitlines())
    assert state.round >= 2 and [str(p) for p in state.players] == ["red", "blue"]
    browser.get(base + "/games/1?step=5")
    wait_for(lambda: "Step 5 of" in browser.page_source, timeout=20)  # the live page's streams may be closing
    browser.save_screenshot(str(SCREENSHOTS / "4-replay.png"))


def test_calibration_by_clicking_four_corners_then_zones_to_drag(server, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    _, base = server
    browser.get(base + "/setup")
    browser.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    wait_for(lambda: browser.find_elements(By.ID, "video"))
    time.sleep(1)
    browser.get(base + "/calibration")
    image = browser.find_element(By.ID, "still")
    wait_for(lambda: browser.execute_script("return arguments[0].naturalWidth", image))
    width, height = image.size["width"], image.size["height"]
    for fx, fy in ((0.15, 0.15), (0.85, 0.15), (0.9, 0.9), (0.1, 0.9)):  # clockwise from far-left
        ActionChains(browser).move_to_element_with_offset(image, int((fx - 0.5) * width), int((fy - 0.5) * height)) \
            .click().perform()  # fmt: skip
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: "saved" in browser.find_element(By.ID, "calibration-result").text)
    browser.refresh()
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#marks polygon")) == 7)  # six casinos and the tray
    browser.save_screenshot(str(SCREENSHOTS / "5-zones.png"))
    browser.find_element(By.ID, "save-zones").click()
    wait_for(lambda: "zones saved" in browser.find_element(By.ID, "calibration-result").text)


def test_the_chips_counted_at_a_royale_table_are_entered_on_the_live_page(server, browser):
    """Issue 21: chips are entered on the page. The live page of a Royale game has a field per player; a
    count typed there and entered replaces the referee's and is shown on the scoreboard."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _, base = server
    browser.get(base + "/setup")
    Select(browser.find_element(By.NAME, "game")).select_by_value("las-vegas-royale")
    colours = browser.find_elements(By.NAME, "colour")
    for select, colour in zip(colours, ("red", "blue", "green"), strict=False):
        Select(select).select_by_value(colour)
    browser.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    form = wait_for(lambda: browser.find_elements(By.ID, "chips-form"))[0]
    wait_for(lambda: "chips" in browser.find_element(By.ID, "scores").text)
    field = form.find_element(By.NAME, "blue")
    field.clear()
    field.send_keys("5")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(lambda: "5 chips" in browser.find_element(By.ID, "scores").text, timeout=60)  # slow on a busy machine
    assert browser.find_element(By.ID, "correction-result").text == "done"


def test_the_live_page_of_just_4_fun_draws_its_board_and_asks_for_the_cards(server, browser):
    """Issue 22: the setup page offers Just 4 Fun; its live page draws the 6x6 board and each player's stones,
    hand and count, and has the entries for the cards drawn and played."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _, base = server
    browser.get(base + "/setup")
    Select(browser.find_element(By.NAME, "game")).select_by_value("just-4-fun")
    for select, colour in zip(browser.find_elements(By.NAME, "colour"), ("red", "blue", "", ""), strict=False):
        Select(select).select_by_value(colour)
    browser.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#board td.field")) == 36)
    wait_for(lambda: "stones left" in browser.find_element(By.ID, "scores").text)
    assert not browser.find_elements(By.ID, "event-form")  # the dice games' correction form is not shown
