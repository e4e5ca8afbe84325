"""The rulebook on the site (/rules/): the r1 rulebook's text, shipped with the site as a data file
(roc_site/rulebooks/r1.txt, a copy of the source document 000_de752e3fb48c5cba.txt), rendered to HTML with an
anchor per numbered section, so every rule a page cites (§6.2, S.8, Appendix A) is a link to its text.

The text is plain: numbered headings ("6. Struggles"), numbered sections ("6.2 Procedure …"), tab-separated
tables, the struggle steps ("(S.8) Determine the winner."), Appendix A's preformatted charts. Each line is escaped,
its "§n" references become links to their anchors, and the whole is passed through nh3 with a short list of tags:
nothing in the file can run as script.

Anchors: `s6` (a chapter), `s6.2` (a section), `S.8` (a struggle step, §6.2), `appendix-a`, `appendix-b`,
`quick-reference`, `index`. `rule_href("§6.2 S.8")` is the address of a citation.
"""
from __future__ import annotations

import functools
import html
import re
from pathlib import Path

import nh3

RULEBOOK_FILE = Path(__file__).resolve().parent / "rulebooks" / "r1.txt"
START_LINE = "A Reign of Kings — Rulebook"   # the lines before it are the source page's own navigation

CHAPTER_RE = re.compile(r"^(\d{1,2})\. (\S.{0,60})$")
SECTION_RE = re.compile(r"^(\d{1,2}\.\d{1,2}) (.+)$")
LIST_RE = re.compile(r"^(\d{1,2})\. \S")
STEP_RE = re.compile(r"^\(S\.(\d{1,2})(?:[–-]S\.(\d{1,2}))?\) (.+)$")
NAMED = {"Appendix A": "appendix-a", "Appendix B": "appendix-b", "Quick Reference": "quick-reference",
         "Index": "index"}
# a citation: "§6.2", "§ 6.2 S.8", "§4", a bare "S.8", "Appendix A"; "002 §18" (another game's rulebook) is not r1's
CITE_RE = re.compile(r"(?<![\w§])(?:(?P<other>\d{3}) )?§\s?(?P<sec>\d{1,2}(?:\.\d{1,2})?)(?:\.\d+)*(?:\s+S\.(?P<sstep>\d{1,2}))?"
                     r"|(?<![\w.])S\.(?P<step>\d{1,2})\b|\bAppendix (?P<app>[AB])\b")

ALLOWED_TAGS = {"h1", "h2", "h3", "p", "strong", "em", "a", "table", "thead", "tbody", "tr", "th", "td", "pre",
                "span", "ol", "li", "nav", "ul"}
ALLOWED_ATTRS = {"*": {"id", "class"}, "a": {"href", "title"}}


def rule_href(rule: str) -> str | None:
    """The rules page's address for a citation ("§6.2 S.8" -> "/rules/#S.8"); None for another game's rule."""
    m = CITE_RE.search(rule or "")
    if m is None:
        return "/rules/" if rule else None
    if m.group("other"):
        return None
    return "/rules/#" + _anchor(m)


def _anchor(m: re.Match) -> str:
    if m.group("sstep") or m.group("step"):
        return "S." + str(int(m.group("sstep") or m.group("step")))
    if m.group("app"):
        return "appendix-" + m.group("app").lower()
    return "s" + m.group("sec")


def link_citations(escaped: str, base: str = "/rules/") -> str:
    """Escaped text with its r1 citations made links (`base` is "" on the rules page itself)."""
    def repl(m: re.Match) -> str:
        if m.group("other"):
            return m.group(0)
        return f'<a class="rule-ref" href="{base}#{_anchor(m)}">{m.group(0)}</a>'
    return CITE_RE.sub(repl, escaped)


def _inline(line: str) -> str:
    return link_citations(html.escape(line, quote=False), base="")


def _table(rows: list[list[str]]) -> str:
    width = max(len(r) for r in rows)
    head = "".join(f"<th>{_inline(c)}</th>" for c in rows[0] + [""] * (width - len(rows[0])))
    body = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r + [""] * (width - len(r))) + "</tr>"
                   for r in rows[1:])
    return f'<div class="table-scroll"><table class="rules-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def parse(text: str, book=None) -> tuple[str, list[dict]]:
    """The rulebook as (HTML body, table of contents [{"id", "title", "level"}]); `book` is the game's
    `registry.Rulebook` (its chapter limit, list anchors and lost headings), r1's when None."""
    max_chapter = book.max_chapter if book is not None else 13
    list_anchors = book.list_anchors if book is not None else False
    headings = dict(book.headings) if book is not None else {}
    lines = text.splitlines()
    try:
        lines = lines[[x.strip() for x in lines].index(START_LINE):]
    except ValueError:
        pass
    out: list[str] = []
    toc: list[dict] = []
    table: list[list[str]] = []
    pre: list[str] = []
    in_appendix_a = False
    used: set[str] = set()
    current = ""   # the anchor of the chapter or section being read (a numbered list item's is under it)

    def flush():
        if table:
            out.append(_table(table))
            table.clear()
        if pre:
            out.append('<pre class="rules-chart">' + "\n".join(_inline(x) for x in pre) + "</pre>")
            pre.clear()

    for raw in lines:
        # a glyph the source lost leaves "()" behind ("a Hero () leading"): it says nothing
        line = raw.rstrip().replace(" ()", "")
        if not line.strip():
            if pre:
                pre.append("")
            else:
                flush()
            continue
        if "\t" in line and not in_appendix_a:
            if pre:
                flush()
            table.append(line.split("\t"))
            continue
        if table:
            flush()
        named = next((k for k in NAMED if line == k or line.startswith(k + " — ")), None)
        if named:
            flush()
            in_appendix_a = named == "Appendix A"
            toc.append({"id": NAMED[named], "title": line, "level": 2})
            out.append(f'<h2 id="{NAMED[named]}">{_inline(line)}</h2>')
            continue
        if in_appendix_a and (line.startswith(" ") or "  " in line or "→" in line and line[:1].isdigit()):
            pre.append(line)
            continue
        if pre:
            while pre and not pre[-1]:
                pre.pop()
            flush()
        if line == START_LINE:
            out.append(f"<h1>{html.escape(line)}</h1>")
            continue
        lost = next((h for k, h in headings.items() if line.startswith(k)), None)
        if lost:
            m = CHAPTER_RE.match(lost)
            sid = "s" + m.group(1) if m else re.sub(r"[^a-z0-9]+", "-", lost.lower()).strip("-")
            mark = f'<a class="rules-anchor" href="#{sid}">§{m.group(1)}</a> ' if m else ""
            toc.append({"id": sid, "title": lost, "level": 2})
            out.append(f'<h2 id="{sid}">{mark}{html.escape(m.group(2) if m else lost)}</h2>')
            used.add(sid)
            current = sid
        m = CHAPTER_RE.match(line)
        if m and not in_appendix_a and int(m.group(1)) <= max_chapter and not m.group(2).endswith("."):
            sid = "s" + m.group(1)
            used.add(sid)
            current = sid
            toc.append({"id": sid, "title": line, "level": 2})
            out.append(f'<h2 id="{sid}"><a class="rules-anchor" href="#{sid}">§{m.group(1)}</a> {_inline(m.group(2))}</h2>')
            continue
        m = SECTION_RE.match(line)
        if m and not in_appendix_a:
            sid = "s" + m.group(1)
            rest = m.group(2).removesuffix(" §")   # the source page's own anchor mark after a heading
            mark = f'<a class="rules-anchor" href="#{sid}">§{m.group(1)}</a>'
            chapter = "s" + m.group(1).split(".")[0]
            if chapter not in used:   # a chapter whose heading the source lost: anchored at its first section
                used.add(chapter)
                out.append(f'<span id="{chapter}"></span>')
            used.add(sid)
            current = sid
            if len(rest) <= 40 and (rest.endswith(".") and rest.count(". ") == 0 or not rest.endswith(".")) \
                    and not rest.endswith(":") and rest.count(" ") < 6:
                toc.append({"id": sid, "title": f"{m.group(1)} {rest.rstrip('.')}", "level": 3})
                out.append(f'<h3 id="{sid}">{mark} {_inline(rest.rstrip("."))}</h3>')
            else:
                lead = re.split(r"(?<!\bvs)\. ", rest)[0].rstrip(".:")
                if " — " in lead and len(lead.split(" — ")[0]) <= 36:   # "Leader — represents the player, …"
                    lead = lead.split(" — ")[0]
                if len(lead) > 36:
                    lead = " ".join(lead.split()[:5]).rstrip(",:;") + " …"
                toc.append({"id": sid, "title": f"{m.group(1)} {lead}", "level": 3})
                out.append(f'<p id="{sid}" class="rules-section">{mark} {_inline(rest)}</p>')
            continue
        m = STEP_RE.match(line)
        if m:
            first = int(m.group(1))
            last = int(m.group(2) or first)
            # "(S.6) Declare defenders. … (Action window, S.7.)": a step named inside a line is anchored there too
            named_steps = {int(k) for k in re.findall(r"\bS\.(\d{1,2})\b", m.group(3)) if int(k) > last}
            extra = "".join(f'<span id="S.{n}"></span>' for n in sorted(set(range(first + 1, last + 1)) | named_steps))
            out.append(f'<p id="S.{first}" class="rules-step">{extra}<strong>{html.escape(line.split(")")[0] + ")")}'
                       f'</strong> {_inline(m.group(3))}</p>')
            continue
        m = LIST_RE.match(line)
        if m and list_anchors and current and f"{current}.{m.group(1)}" not in used:
            sid = f"{current}.{m.group(1)}"
            used.add(sid)
            out.append(f'<p id="{sid}" class="rules-item">{_inline(line)}</p>')
            continue
        out.append(f"<p>{_inline(line)}</p>")
    flush()
    body = nh3.clean("\n".join(out), tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRS, link_rel=None,
                     url_schemes={"http", "https"}, strip_comments=True)
    return body, toc


@functools.lru_cache(maxsize=8)
def _rendered(path: str, mtime: float, slug: str | None = None) -> tuple[str, list[dict]]:
    from cards.games import registry

    book = registry.get(slug).rulebook if slug else None
    return parse(Path(path).read_text(encoding="utf-8"), book)


def rendered(path: Path = RULEBOOK_FILE) -> tuple[str, list[dict]]:
    """The rulebook's HTML and contents, read once per change of the file."""
    return _rendered(str(path), path.stat().st_mtime)


# ---- every game's rulebook: /rules/ for r1, /<game>/rules/ for the others ----------------------------------------
PROJECT_ROOT = Path(__file__).resolve().parent.parent
ID_RE = re.compile(r'\bid="([^"]+)"')
# a citation of a game's own rulebook: "§8", "002 §8", "§4.2", "§2.6"; the number, where given, names the document
GAME_CITE_RE = re.compile(r"(?<![\w§])(?:(?P<num>\d{3}) )?§\s?(?P<sec>\d{1,2}(?:\.\d{1,2})*)")


def rules_url(game) -> str:
    """The address of a game's rulebook page (`game` a registry Game or a slug)."""
    game = _game(game)
    return f"{game.prefix}/rules/"


def _game(game):
    from cards.games import registry

    return game if isinstance(game, registry.Game) else registry.get(game)


def game_rendered(game) -> tuple[str, list[dict], frozenset[str]]:
    """A game's rulebook as (HTML body, contents, its anchors); r1's exactly as `rendered()`. Raises LookupError
    when the game has no rulebook."""
    game = _game(game)
    if game.rulebook is None:
        raise LookupError(f"the game {game.slug!r} has no rulebook page")
    path = PROJECT_ROOT / game.rulebook.file
    body, toc = _rendered(str(path), path.stat().st_mtime, game.slug if game.prefix else None)
    return body, toc, _anchors(body)


@functools.lru_cache(maxsize=8)
def _anchors(body: str) -> frozenset[str]:
    return frozenset(ID_RE.findall(body))


def _section_anchor(sec: str, anchors: frozenset[str]) -> str:
    """The most precise anchor the page has for a section ("§14.4" where only §14 is numbered -> `s14`)."""
    parts = sec.split(".")
    while parts:
        sid = "s" + ".".join(parts)
        if sid in anchors:
            return sid
        parts.pop()
    return ""


def link_game_citations(escaped: str, game) -> str:
    """Escaped text with a game's citations of its own rulebook made links to its page, without the document's
    number ("002 §8" -> a link "§8" to /realms/rules/#s8); r1's as `link_citations`. A citation of another
    document stays as written."""
    game = _game(game)
    if not game.prefix or game.rulebook is None:
        return link_citations(escaped) if not game.prefix else escaped
    _, _, anchors = game_rendered(game)
    base = rules_url(game)
    number = game.rulebook.number

    def repl(m: re.Match) -> str:
        if m.group("num") and m.group("num") != number:
            return m.group(0)
        sid = _section_anchor(m.group("sec"), anchors)
        shown = "§" + m.group("sec")
        return (f'<a class="rule-ref" href="{base}{"#" + sid if sid else ""}" title="The rulebook, {shown}">'
                f'{shown}</a>')
    return GAME_CITE_RE.sub(repl, escaped)
