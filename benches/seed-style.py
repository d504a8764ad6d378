#!/usr/bin/env python3
"""A web sudoku bot written the way the project's seed blog posts describe theirs, as a yardstick
for `sudobot web`'s speed (never used by sudobot): Python Selenium, the full Chromium headless,
one WebDriver call per cell to read it and one Send Keys per empty cell to type it, and a plain
backtracking solver. Written for this project from that description.

    python3 benches/seed-style.py URL        # a page of 81 <input id="c1".."c81"> (sudoku.name)

Needs `pip install selenium` (4.x) and Debian's chromium + chromium-driver. Exits 0 once every
cell holds a digit. The ignored test `web::versus_a_seed_style_selenium_bot` times it against
`sudobot web --site sudoku.name` on the replica, in one run.
"""

import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def candidates(grid, i):
    row, col = divmod(i, 9)
    seen = set(grid[row * 9:row * 9 + 9]) | set(grid[col::9])
    top, left = row - row % 3, col - col % 3
    for r in range(top, top + 3):
        seen |= set(grid[r * 9 + left:r * 9 + left + 3])
    return [d for d in range(1, 10) if d not in seen]


def solve(grid):
    """Fills `grid` (81 ints, 0 for empty) in place; returns whether it could."""
    try:
        i = grid.index(0)
    except ValueError:
        return True
    for d in candidates(grid, i):
        grid[i] = d
        if solve(grid):
            return True
    grid[i] = 0
    return False


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(sys.argv[1])
        cells = [driver.find_element(By.ID, "c%d" % i) for i in range(1, 82)]
        given = [(c.get_attribute("value") or "").strip() for c in cells]
        grid = [int(v) if v.isdigit() else 0 for v in given]
        if not solve(grid):
            sys.exit("seed-style: no solution")
        for cell, was, digit in zip(cells, given, grid):
            if not was:
                cell.send_keys(str(digit))
        filled = [(c.get_attribute("value") or "").strip() for c in cells]
        if not all(v.isdigit() for v in filled):
            sys.exit("seed-style: the board did not take every digit")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
