"""The rulebook page (/rules/, roc_site/rulebook.py): the r1 rulebook shipped with the site, an anchor per
numbered section, citations as links, and nothing in the text can run as script."""
from __future__ import annotations

import re

from roc_site import rulebook


def test_every_numbered_section_has_its_anchor():
    body, toc = rulebook.rendered()
    ids = re.findall(r'id="([^"]+)"', body)
    assert len(ids) == len(set(ids))
    text = rulebook.RULEBOOK_FILE.read_text(encoding="utf-8")
    sections = set(re.findall(r"^(\d{1,2}\.\d{1,2}) ", text, re.M))
    assert sections and {"s" + s for s in sections} <= set(ids)
    assert {f"s{n}" for n in range(1, 14)} <= set(ids)
    assert {f"S.{n}" for n in range(1, 15)} <= set(ids)   # the struggle steps of §6.2
    assert {"appendix-a", "appendix-b", "index"} <= set(ids)
    assert [t["id"] for t in toc][:3] == ["s1", "s1.1", "s1.2"]


def test_citations_point_at_their_section():
    assert rulebook.rule_href("§6.2 S.8") == "/rules/#S.8"
    assert rulebook.rule_href("S.10") == "/rules/#S.10"
    assert rulebook.rule_href("§5.1") == "/rules/#s5.1"
    assert rulebook.rule_href("§4") == "/rules/#s4"
    assert rulebook.rule_href("Appendix A") == "/rules/#appendix-a"
    assert rulebook.rule_href("002 §18") is None   # another game's rulebook is not r1's
    assert rulebook.link_citations("see §9.2 and 002 §3") == \
        'see <a class="rule-ref" href="/rules/#s9.2">§9.2</a> and 002 §3'


def test_the_text_is_escaped_and_sanitised(tmp_path):
    evil = tmp_path / "r.txt"
    evil.write_text("A Reign of Kings — Rulebook\n\n1. Overview\n\n1.1 Objective <script>alert(1)</script> "
                    "<a href=\"javascript:x\">x</a> §1.1\n\nA\tB\n<img src=x onerror=y>\tc\n", encoding="utf-8")
    body, _ = rulebook.parse(evil.read_text(encoding="utf-8"))
    assert "<script" not in body and "<img" not in body
    assert "&lt;script&gt;" in body and "&lt;img" in body and '<a href="javascript' not in body
    assert '<a class="rule-ref" href="#s1.1">§1.1</a>' in body


def test_the_rules_page(client, db):
    r = client.get("/rules/")
    body = r.content.decode()
    assert r.status_code == 200 and '<h2 id="s6">' in body and 'id="S.8"' in body
    assert '<a href="#s6.2">' in body   # the contents
    assert "<script" not in body.split('id="rules"')[1].split("</article>")[0]
