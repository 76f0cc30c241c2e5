"""A report page and its HTML: sections of text, tables and plots, written as one
self-contained file (the plots embedded as PNG data, the style inline, no script and no
link to anything outside the file).

>>> page = Page("Classic", "20 deals", [Section("Who takes", "", [Table(["rate"], [["58%"]])])],
...             [("seed", "1")])
>>> "<h2>Who takes</h2>" in render(page, {})
True
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field

from matplotlib.figure import Figure


@dataclass
class Plot:
    """A figure of the report: ``name`` is its file's stem in ``plots/``."""

    name: str
    figure: Figure
    caption: str = ""


@dataclass
class Table:
    """A table of text cells (numbers already written with their intervals)."""

    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    folded: bool = False  # shown behind a "show" toggle (long tables)


@dataclass
class Section:
    """A heading, a paragraph under it, then its tables and plots in order."""

    heading: str
    intro: str = ""
    blocks: list[Plot | Table] = field(default_factory=list)


@dataclass
class Page:
    """A whole report: title, one line under it, sections, then the provenance block
    (``(name, value)`` pairs)."""

    title: str
    subtitle: str
    sections: list[Section]
    provenance: list[tuple[str, str]]

    def plots(self) -> list[Plot]:
        """Every plot of the page, in page order."""
        return [b for s in self.sections for b in s.blocks if isinstance(b, Plot)]


# Readable on a laptop without scrolling sideways: one column at most 960 px wide,
# images shrink with it, a wide table scrolls inside its own box.
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       margin: 0; background: #fafafa; color: #222; line-height: 1.45; }
main { max-width: 920px; margin: 0 auto; padding: 16px 20px 48px; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.1em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
p.sub { color: #555; margin-top: 0; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption, caption { font-size: 0.9em; color: #555; text-align: left; padding: 4px 0; }
div.table { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.88em; margin: 0.6em 0; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right;
         white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; }
th { background: #f3f3f3; }
dl.prov { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px;
          font-size: 0.88em; }
dl.prov dt { font-weight: 600; }
dl.prov dd { margin: 0; overflow-wrap: anywhere; }
"""


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def _table(t: Table) -> str:
    head = "".join(f"<th>{_esc(c)}</th>" for c in t.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>" for row in t.rows
    )
    caption = f"<caption>{_esc(t.caption)}</caption>" if t.caption else ""
    inner = (f'<div class="table"><table>{caption}<thead><tr>{head}</tr></thead>'
             f"<tbody>{body}</tbody></table></div>")
    if t.folded:
        return f"<details><summary>{_esc(t.caption or 'table')}</summary>{inner}</details>"
    return inner


def _plot(p: Plot, png: bytes) -> str:
    data = base64.b64encode(png).decode("ascii")
    alt = p.caption or p.name
    caption = f"<figcaption>{_esc(p.caption)}</figcaption>" if p.caption else ""
    return (f'<figure id="{_esc(p.name)}"><img src="data:image/png;base64,{data}" '
            f'alt="{_esc(alt)}">{caption}</figure>')


def render(page: Page, images: dict[str, bytes]) -> str:
    """The page as one HTML document; ``images`` maps each plot's name to its PNG."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(page.title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{_esc(page.title)}</h1>",
        f'<p class="sub">{_esc(page.subtitle)}</p>',
    ]
    for s in page.sections:
        parts.append(f"<section><h2>{_esc(s.heading)}</h2>")
        if s.intro:
            parts.append(f"<p>{_esc(s.intro)}</p>")
        for b in s.blocks:
            parts.append(_plot(b, images[b.name]) if isinstance(b, Plot) else _table(b))
        parts.append("</section>")
    parts.append("<section><h2>How this was made</h2><dl class=\"prov\">")
    for name, value in page.provenance:
        parts.append(f"<dt>{_esc(name)}</dt><dd>{_esc(value)}</dd>")
    parts.append("</dl></section></main></body></html>")
    return "\n".join(parts) + "\n"
