"""The C API reference, out/docs/c/index.html, made from include/telenorid.h's own comments as header.py reads
them, and the check that every declaration has one (`make docs`, `make check-docs`; see __main__.py).

The header keeps its documentation in plain C comments, and header.py's sections() places them:
  - a comment directly above a declaration (no blank line between) documents it; a comment above a run of
    declarations with no comment of their own documents the whole run (the old names at the end, the log
    levels, a callback type with the setter that takes it);
  - a comment that starts on a declaration's own line (`#define TELENORID_E_TIMEOUT 14  /* ... */`) documents
    that declaration; in a run where some declarations have such comments (the status codes, the keys), every
    one after the first needs its own;
  - a banner (`/* ----...`) starts a section: its first paragraph up to ": " or ". " is the title, the rest
    its introduction;
  - any other comment (after a blank line, before another comment) is prose of its section.

problems() finds a declaration without a comment, a comment naming a `telenorid_*` / `TELENORID_*` identifier
the header does not declare (a renamed function left behind in prose), and a page that is not well formed or
lacks a declaration's anchor. The page is built output, not a committed file: `make check-generated` does not
compare it.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Dict, List, Optional, Set, Tuple

from header import Comment, Declarations, Group, Statement, fail

KINDS = ("function", "type", "constant", "macro")


def names(found: Declarations) -> Set[str]:
    return {statement.name for statement in found.statements}


def kinds(found: Declarations) -> Dict[str, int]:
    return {kind: sum(1 for statement in found.statements if statement.kind == kind) for kind in KINDS}


def undocumented(found: Declarations) -> List[Statement]:
    """Declarations without a comment of their own, by the rules in this file's docstring."""
    missing = []
    for section in found.sections:
        for block in section.blocks:
            if not isinstance(block, Group):
                continue
            group_doc = block.doc is not None and not any(s.note for s in block.statements)
            for position, statement in enumerate(block.statements):
                documented = (statement.note is not None or group_doc
                              or (position == 0 and block.doc is not None))
                if not documented:
                    missing.append(statement)
    return missing


def texts(found: Declarations) -> List[Tuple[int, str]]:
    """Every comment's text with its line (0 for a section's title and introduction)."""
    found_texts = [(1, found.preamble)]
    for section in found.sections:
        found_texts.append((0, section.title + "\n" + section.intro))
        for block in section.blocks:
            if isinstance(block, Comment):
                found_texts.append((block.line, block.text))
                continue
            if block.doc:
                found_texts.append((block.doc.line, block.doc.text))
            for statement in block.statements:
                if statement.note:
                    found_texts.append((statement.line, statement.note.text))
                found_texts.extend((statement.line, note) for _, note in statement.members)
    return found_texts


def unknown_names(found: Declarations) -> List[Tuple[int, str]]:
    """telenorid_* / TELENORID_* identifiers in the comments that the header does not declare. A struct tag
    (`struct telenorid_callback`) and file names (telenorid.h, telenorid_jni) are not API names."""
    declared = names(found)
    typedefs = (re.match(r"typedef\s+struct\s+(\w+)", statement.source) for statement in found.statements)
    tags = {match.group(1) for match in typedefs if match}
    unknown = []
    for line, text in texts(found):
        for match in re.finditer(r"(?<![\w./-])(telenorid_\w+|TELENORID_\w+)(\*?)(?![\w./]*\.(?:h|so|c)\b)", text):
            name = match.group(1)
            if match.group(2):  # a family, `TELENORID_E_*`, `telenorid_error_*`
                continue
            if name not in declared and name not in tags:
                unknown.append((line, name))
    return unknown


# ------------------------------------------------------------------------------------------------
# HTML
# ------------------------------------------------------------------------------------------------

CSS = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 62em; margin: 2em auto; padding: 0 1em; color: #1b1b1b; }
code, pre { font: 13px/1.4 ui-monospace, monospace; }
pre { background: #f5f5f3; padding: .6em .8em; overflow-x: auto; border-radius: 4px; }
pre.decl { background: #eef2f7; border-left: 3px solid #4a6fa5; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2.5em; }
.entry { margin: 1.6em 0; }
table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #ddd; padding: .25em .6em; vertical-align: top; text-align: left; }
td code { white-space: nowrap; }
nav ul { columns: 2; }
.index { columns: 3; font-size: 90%; }
.index a { display: block; }
"""


def link_names(escaped: str, declared: Set[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(0)
        return f'<a href="#{name}">{name}</a>' if name in declared else name
    return re.sub(r"(?<![\w#\"])(?:telenorid_\w+|TELENORID_\w+)", replace, escaped)


def link_rfcs(escaped: str) -> str:
    def replace(match: re.Match[str]) -> str:
        number, section = match.group(1), match.group(2)
        anchor = f"#section-{section}" if section else ""
        return f'<a href="https://www.rfc-editor.org/rfc/rfc{number}{anchor}">{match.group(0)}</a>'
    return re.sub(r"RFC (\d{3,5})(?: §(\d+(?:\.\d+)*))?", replace, escaped)


def inline(text: str, declared: Set[str]) -> str:
    """Escapes prose, makes `code` spans, links declared names and RFCs."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append("<code>" + link_names(html.escape(part[1:-1]), declared) + "</code>")
        else:
            out.append(link_rfcs(link_names(html.escape(part), declared)))
    return "".join(out)


def prose(text: str, declared: Set[str]) -> str:
    """A comment as HTML: paragraphs of wrapped lines, "- " items as a list, other indented lines kept as
    they are (the version history, a JSON example)."""
    out: List[str] = []
    paragraph: List[str] = []
    items: List[List[str]] = []
    verbatim: List[str] = []

    def flush() -> None:
        if paragraph:
            out.append("<p>" + inline(" ".join(paragraph), declared) + "</p>")
            paragraph.clear()
        if items:
            out.append("<ul>" + "".join("<li>" + inline(" ".join(item), declared) + "</li>" for item in items)
                       + "</ul>")
            items.clear()
        if verbatim:
            out.append("<pre>" + link_names(html.escape("\n".join(verbatim)), declared) + "</pre>")
            verbatim.clear()

    for line in text.split("\n"):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped:
            flush()
        elif stripped.startswith("- ") and not verbatim:
            if paragraph:
                flush()
            items.append([stripped[2:]])
        elif items and indent > 0:
            items[-1].append(stripped)
        elif indent > 0:
            if paragraph or items:
                flush()
            verbatim.append(line)
        else:
            if verbatim or items:
                flush()
            paragraph.append(stripped)
    flush()
    return "\n".join(out)


def slug(title: str) -> str:
    return "section-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def page(found: Declarations) -> str:
    """out/docs/c/index.html: the sections in the header's order, each declaration with its comment and anchor,
    then an index of every declared name."""
    declared = names(found)
    counts = kinds(found)
    version = found.defines.get("TELENORID_VERSION_STRING", "")
    if not re.fullmatch(r'"[^"]+"', version):
        fail("no TELENORID_VERSION_STRING string")
    version = version[1:-1]
    body: List[str] = []
    body.append(f"<h1>telenorid {html.escape(version)}: the C API</h1>")
    body.append("<p>Generated from <code>include/telenorid.h</code> by <code>scripts/gen</code> (<code>emit_c_reference.py</code>): "
                f"{counts['function']} functions, {counts['type']} types, {counts['constant']} constants and "
                f"{counts['macro']} macros. The header is the contract; this page only arranges its comments.</p>")
    body.append(prose(found.preamble, declared))
    body.append("<nav><h2>Sections</h2><ul>")
    for section in found.sections:
        body.append(f'<li><a href="#{slug(section.title)}">{inline(section.title, declared)}</a></li>')
    body.append('<li><a href="#index">Index</a></li></ul></nav>')
    for section in found.sections:
        body.append(f'<h2 id="{slug(section.title)}">{inline(section.title, declared)}</h2>')
        if section.intro:
            body.append(prose(section.intro, declared))
        for block in section.blocks:
            if isinstance(block, Comment):
                body.append(prose(block.text, declared))
                continue
            body.append('<div class="entry">')
            simple = [s for s in block.statements if not s.note or s.kind not in ("constant", "type")]
            table = [s for s in block.statements if s.note and s.kind in ("constant", "type")]
            if simple:
                sources = []
                for statement in simple:
                    source = link_names(html.escape(statement.source.strip()), declared - {statement.name})
                    source = source.replace(statement.name, f'<span id="{statement.name}">{statement.name}</span>',
                                            1)
                    sources.append(source)
                body.append('<pre class="decl">' + "\n".join(sources) + "</pre>")
            if block.doc:
                body.append(prose(block.doc.text, declared))
            for statement in simple:
                if statement.note:
                    body.append(prose(f"`{statement.name}`: " + statement.note.text, declared))
                if statement.members:
                    members = "".join(f"<tr><td><code>{html.escape(m)}</code></td><td>{inline(note, declared)}</td></tr>"
                                      for m, note in statement.members)
                    body.append(f"<table><tr><th>member</th><th></th></tr>{members}</table>")
            if table:
                rows = []
                for statement in table:
                    value = statement.source.split(None, 2)[2] if statement.kind == "constant" else ""
                    rows.append(f'<tr><td><code id="{statement.name}">{statement.name}</code></td>'
                                f"<td><code>{html.escape(' '.join(value.split()))}</code></td>"
                                f"<td>{prose(statement.note.text if statement.note else '', declared)}</td></tr>")
                body.append("<table>" + "".join(rows) + "</table>")
            body.append("</div>")
    body.append('<h2 id="index">Index</h2><div class="index">')
    for name in sorted(declared, key=lambda name: (name.lower(), name)):
        body.append(f'<a href="#{name}"><code>{name}</code></a>')
    body.append("</div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>telenorid {html.escape(version)}: C API reference</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


class Anchors(HTMLParser):
    """Collects the ids of a page and checks its elements are closed in order (the page is well formed)."""
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.ids: Set[str] = set()
        self.open: List[str] = []
        self.errors: List[str] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        for key, value in attrs:
            if key == "id" and value:
                if value in self.ids:
                    self.errors.append(f"id {value} twice")
                self.ids.add(value)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.open[-1] if self.open else 'nothing'}>")
        else:
            self.open.pop()


def problems(found: Declarations, text: str, where: str) -> List[str]:
    """What `make check-docs` fails on, one line each; `where` names the header in them."""
    found_problems = [f"{where}:{s.line}: {s.kind} {s.name} has no comment" for s in undocumented(found)]
    found_problems += [f"{where}:{line}: a comment names {name}, which the header does not declare"
                       for line, name in unknown_names(found)]
    anchors = Anchors()
    anchors.feed(text)
    found_problems += [f"the page: {error}" for error in anchors.errors]
    found_problems += [f"the page has no anchor for {name}" for name in sorted(names(found) - anchors.ids)]
    return found_problems


def summary(found: Declarations) -> str:
    counts = kinds(found)
    return (f"{len(found.statements)} declarations ({counts['function']} functions, {counts['type']} types, "
            f"{counts['constant']} constants, {counts['macro']} macros)")
