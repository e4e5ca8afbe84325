"""Markdown for deck notes and decklist descriptions, sanitised: players' text never runs as script.

Notes sit on a page whose title is its h1 and whose sections are h2, so a player's headings start at h3:
`#` is h3, `##` h4, `###` h5 and deeper ones h6 (the toc extension's baselevel), each shown as a heading.
Fenced code blocks (```) are kept as blocks.
"""
from __future__ import annotations

import markdown
import nh3

ALLOWED_TAGS = {"p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "a", "h3", "h4", "h5",
                "h6", "hr", "table", "thead", "tbody", "tr", "th", "td"}
HEADING_BASE_LEVEL = 3


def render_markdown(text: str) -> str:
    """Markdown to safe HTML: only the tags above; links get rel="nofollow noopener"; no raw HTML survives.

    >>> render_markdown("# Plan")
    '<h3>Plan</h3>'
    """
    md = markdown.Markdown(extensions=["tables", "sane_lists", "fenced_code", "toc"], output_format="html",
                           extension_configs={"toc": {"baselevel": HEADING_BASE_LEVEL, "anchorlink": False,
                                                      "permalink": False, "toc_depth": 0}})
    html = md.convert(text or "")
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes={"a": {"href", "title"}}, link_rel="nofollow noopener",
                     url_schemes={"http", "https", "mailto"})
