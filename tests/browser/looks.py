"""What a person sees, measured in the page: contrast of text against what is behind it, and whether a thing is
on screen at all. For browser tests (Playwright pages)."""
from __future__ import annotations

# WCAG 2 contrast of an element's text against the first opaque background behind it (its own or an ancestor's).
CONTRAST_JS = """
el => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let node = el, bg = null;
  while (node && node.nodeType === 1) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) { bg = c; break; }
    node = node.parentElement;
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(el).color);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
"""


def contrast(locator) -> float:
    """The contrast ratio of the element's text against its background (1 = invisible, 21 = black on white)."""
    return locator.evaluate(CONTRAST_JS)


def on_screen(locator) -> bool:
    """Visible and with a size: not display:none, not hidden, not zero-sized."""
    box = locator.bounding_box()
    return locator.is_visible() and box is not None and box["width"] > 0 and box["height"] > 0
