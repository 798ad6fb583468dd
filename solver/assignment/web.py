"""``python -m solver web --out DIR``: write the browser game, one self-contained ``DIR/index.html``.

The page's parts live beside this module in ``web/`` (``index.html`` the template, ``game.css``,
``solver.js`` the search shared by the page and its Web Worker, ``step.js`` the step-through search,
``game.js`` the game) and are inlined here, with the default picture as a data URI, so the file
works opened straight from disk, offline. docs/game.md describes the page and its contract.
"""

from __future__ import annotations

import base64
from pathlib import Path

import click

from solver.assignment.picture import DEFAULT_PICTURE
from solver.errors import OutputError

ASSETS = Path(__file__).with_name("web")
PARTS = {"style": "game.css", "solver": "solver.js", "step": "step.js", "game": "game.js"}
"""Template marker ``/*@name@*/`` → the asset inlined there."""


def render_page() -> str:
    """The whole page as text."""
    page = (ASSETS / "index.html").read_text(encoding="utf-8")
    for marker, name in PARTS.items():
        text = (ASSETS / name).read_text(encoding="utf-8")
        # An inline script or style ends at the first closing tag, wherever it sits.
        if f"</{'script' if name.endswith('.js') else 'style'}" in text.lower():
            raise AssertionError(f"{name} holds a closing tag, which would end its inline block early")
        page = page.replace(f"/*@{marker}@*/", text, 1)
    picture = base64.b64encode(DEFAULT_PICTURE.read_bytes()).decode("ascii")
    return page.replace("/*@picture@*/", f'--picture: url("data:image/png;base64,{picture}");', 1)


@click.command("web")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Folder to write index.html into (made if missing).")
def web(out_dir: str) -> int:
    """Write the browser game: DIR/index.html, one file that works offline, opened straight from disk.

    Open it with ?board=1,2,3,4,5,6,0,7,8 (row by row, 0 the blank) to start from a given board.
    """
    target = Path(out_dir) / "index.html"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render_page(), encoding="utf-8")
    except OSError as exc:
        raise OutputError(f"{target}: cannot write the page ({exc.strerror or exc})") from None
    click.echo(f"wrote {target}")
    return 0
