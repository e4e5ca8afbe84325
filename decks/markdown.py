"""Markdown for deck notes and decklist descriptions, sanitised: players' text never runs as script."""
from __future__ import annotations

import markdown
import nh3

ALLOWED_TAGS = {"p", "br", "strong", "em", "code", "pre", "blockquote", "ul", "ol", "li", "a", "h3", "h4", "hr",
                "table", "thead", "tbody", "tr", "th", "td"}


def render_markdown(text: str) -> str:
    """Markdown to safe HTML: only the tags above; links get rel="nofollow noopener"; no raw HTML survives."""
    html = markdown.markdown(text or "", extensions=["tables", "sane_lists"], output_format="html")
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes={"a": {"href", "title"}}, link_rel="nofollow noopener",
                     url_schemes={"http", "https", "mailto"})
