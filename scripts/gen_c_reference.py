#!/usr/bin/env python3
"""The C API reference, out/docs/c/index.html, made from include/telenorid.h's own comments. Standard library only.

    python3 scripts/gen_c_reference.py [--output DIR]   # `make docs`; default out/docs/c
    python3 scripts/gen_c_reference.py --check          # `make check-docs` (in `make test`): writes nothing

The header keeps its documentation in plain C comments, and this reads them as the header places them:
  - a comment directly above a declaration (no blank line between) documents it; a comment above a run of
    declarations with no comment of their own documents the whole run (the old names at the end, the log
    levels, a callback type with the setter that takes it);
  - a comment that starts on a declaration's own line (`#define TELENORID_E_TIMEOUT 14  /* ... */`) documents
    that declaration; in a run where some declarations have such comments (the status codes, the keys), every
    one after the first needs its own;
  - a banner (`/* ----...`) starts a section: its first paragraph up to ": " or ". " is the title, the rest
    its introduction;
  - any other comment (after a blank line, before another comment) is prose of its section.

Every declaration of the header is read: functions, `typedef`s (opaque handles, integer types, callback
types, the host's struct, other names of them) and `#define`s (constants and macros); anything else outside
comments, the include guard and the C++ guard stops the script with the text it could not read, so a new kind of
declaration is noticed here rather than left out of the reference. `--check` fails when any declaration has
no comment, or when a comment names a `telenorid_*` / `TELENORID_*` identifier the header does not declare
(a renamed function left behind in prose); it renders the page too, and fails if any declaration lacks its
anchor in it.
"""
from __future__ import annotations

import argparse
import html
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, NamedTuple, NoReturn, Optional, Set, Tuple, Union

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "telenorid.h"
OUTPUT = ROOT / "out" / "docs" / "c"
IDENT = r"[A-Za-z_]\w*"
GUARD = "TELENORID_H"


def fail(message: str) -> NoReturn:
    sys.exit(f"gen_c_reference: {message}")


class Comment(NamedTuple):
    text: str  # the comment's lines without the /* */ and the leading " * "
    line: int
    trailing: bool  # starts on a line that holds code before it


class Declaration(NamedTuple):
    kind: str  # function, type, constant, macro
    name: str
    source: str  # the declaration as written, comments removed
    line: int
    note: Optional[Comment]  # the comment that starts on its line, if any
    members: List[Tuple[str, str]]  # a struct's (member declaration, its comment)


class Blank(NamedTuple):
    line: int


Item = Union[Comment, Declaration, Blank]


def comment_text(raw: str) -> str:
    """The text of a /* ... */ comment: the markers gone, and the " * " that starts its continuation lines."""
    body = raw[2:-2]
    lines = body.split("\n")
    out = [lines[0].strip()]
    for line in lines[1:]:
        stripped = line.lstrip()
        if stripped.startswith("*"):
            stripped = stripped[1:]
            # keep the indentation after " * " beyond its one space: it marks lists and examples
            stripped = stripped[1:] if stripped.startswith(" ") else stripped
            out.append(stripped.rstrip())
        else:
            # a continuation without " * " (a trailing comment's second line): its own indentation means nothing
            out.append(stripped.rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out)


def classify(statement: str, line: int) -> Tuple[str, str]:
    """(kind, name) of one C statement or #define, comments removed and whitespace collapsed."""
    text = " ".join(statement.split())
    match = re.fullmatch(rf"#define ({IDENT})\(.*", text)
    if match:
        return "macro", match.group(1)
    match = re.fullmatch(rf"#define ({IDENT})(?: .*)?", text)
    if match:
        return "constant", match.group(1)
    patterns = [
        rf"typedef struct {IDENT} \{{.*\}} ({IDENT});",  # a struct the host fills in
        rf"typedef struct {IDENT} ({IDENT});",  # an opaque handle, or another name of one
        rf"typedef .+?\( ?\* ?({IDENT}) ?\) ?\(.*\);",  # a callback type
        rf"typedef {IDENT} ({IDENT});",  # an integer type, or another name of a callback type
    ]
    for pattern in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            return "type", match.group(1)
    match = re.fullmatch(rf"(?:const )?{IDENT}(?: ?\*)* ?({IDENT}) ?\(.*\);", text)
    if match:
        return "function", match.group(1)
    fail(f"line {line}: a statement this script cannot read: {text[:100]!r}")


def scan(text: str) -> List[Item]:
    """The header as comments, declarations and blank lines, in order."""
    items: List[Item] = []
    lines = text.split("\n")
    # line numbers of each offset, for messages
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def line_of(offset: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    i = 0
    n = len(text)
    code_on_line = False  # has this line held code (so a comment starting here is trailing)?
    last: Optional[Declaration] = None  # the declaration that ended on the current line
    skipping_cplusplus = False
    while i < n:
        c = text[i]
        if c == "\n":
            # a blank line: only whitespace since the previous newline
            j = i + 1
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "\n":
                items.append(Blank(line_of(j)))
                i = j
                continue
            code_on_line = False
            last = None
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                fail(f"line {line_of(i)}: an unterminated comment")
            comment = Comment(comment_text(text[i:end + 2]), line_of(i), code_on_line)
            i = end + 2
            if skipping_cplusplus:
                continue
            if comment.trailing and last is not None and last.note is None:
                index = len(items) - 1 - items[::-1].index(last)
                last = last._replace(note=comment)
                items[index] = last
            elif not comment.trailing:
                items.append(comment)
            # else: a comment after a guard (`#endif /* TELENORID_H */`), which is no declaration
            continue
        if c == "#":
            end = i
            while True:
                newline = text.find("\n", end)
                newline = n if newline < 0 else newline
                if text[end:newline].rstrip().endswith("\\"):
                    end = newline + 1
                    continue
                break
            directive = text[i:newline]
            # a comment on the directive's line ends the directive
            cut = directive.find("/*")
            if cut >= 0:
                directive = directive[:cut]
                newline = i + cut
            words = directive.split()
            at = line_of(i)
            i = newline
            code_on_line = True
            if words[0] == "#ifdef" and words[1:] == ["__cplusplus"]:
                skipping_cplusplus = True
                continue
            if skipping_cplusplus:
                if words[0] == "#endif":
                    skipping_cplusplus = False
                continue
            if words[0] in ("#ifndef", "#endif", "#include") or directive.split()[:2] == ["#define", GUARD]:
                last = None
                continue
            if words[0] != "#define":
                fail(f"line {at}: a directive this script cannot read: {directive.strip()!r}")
            source = re.sub(r"\\\n\s*", " ", directive).strip()
            kind, name = classify(source, at)
            last = Declaration(kind, name, directive.rstrip(), at, None, [])
            items.append(last)
            continue
        if skipping_cplusplus:
            i += 1
            continue
        # C code up to the `;` at brace depth 0; comments inside a struct body are its members' comments
        start = i
        depth = 0
        pieces: List[str] = []
        members: List[Tuple[str, str]] = []
        member = ""
        while True:
            if i >= n:
                fail(f"line {line_of(start)}: a declaration without its ';'")
            if text.startswith("/*", i):
                end = text.find("*/", i + 2)
                note = comment_text(text[i:end + 2])
                if depth == 0:
                    fail(f"line {line_of(i)}: a comment inside a declaration")
                if members and not member.strip():
                    members[-1] = (members[-1][0], note)
                i = end + 2
                continue
            ch = text[i]
            pieces.append(ch)
            if depth > 0 and ch not in "{}":
                member += ch
                if ch == ";":
                    members.append((" ".join(member.split()), ""))
                    member = ""
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == ";" and depth == 0:
                i += 1
                break
            i += 1
        source = "".join(pieces)
        kind, name = classify(source, line_of(start))
        last = Declaration(kind, name, source, line_of(start), None, members)
        items.append(last)
        code_on_line = True
    return items


class Group(NamedTuple):
    doc: Optional[Comment]  # the comment above the run
    declarations: List[Declaration]


class Section(NamedTuple):
    title: str
    intro: str
    blocks: List[Union[Comment, Group]]  # prose and groups, in the header's order


def sections(items: List[Item]) -> Tuple[str, List[Section]]:
    """The file's opening comment and its sections. A run is the declarations between blank lines and
    comments; a comment directly above a run is its doc."""
    preamble = ""
    result: List[Section] = []
    current = Section("", "", [])
    pending: Optional[Comment] = None  # a comment not yet known to be prose or a doc
    run: Optional[Group] = None
    for index, item in enumerate(items):
        if isinstance(item, Comment):
            if pending is not None:
                current.blocks.append(pending)
            pending = None
            run = None
            if item.text.startswith("---"):
                lines = item.text.split("\n")
                body = [line for line in lines[1:] if not line.startswith("---")]
                # the title is the banner's first paragraph up to its first ": " or ". " ("Accounts: the users
                # signed in through one client"); the rest of it, and the paragraphs after, its introduction
                ends = body.index("") if "" in body else len(body)
                first = " ".join(line.strip() for line in body[:ends])
                cut = re.search(r"[.:] ", first)
                title = (first[:cut.start()] if cut else first).rstrip(".")
                lead = first[cut.end():] if cut else ""
                lead = lead[:1].upper() + lead[1:]
                intro = (lead + "\n\n" + "\n".join(body[ends:])).strip()
                current = Section(title, intro, [])
                result.append(current)
            elif index == 0:
                preamble = item.text
            else:
                pending = item
        elif isinstance(item, Blank):
            if pending is not None:
                current.blocks.append(pending)
            pending = None
            run = None
        else:
            if run is None:
                run = Group(pending, [])
                pending = None
                current.blocks.append(run)
            run.declarations.append(item)
    if pending is not None:
        current.blocks.append(pending)
    if current.blocks and not result:
        fail("declarations before the first section banner")
    return preamble, result


def undocumented(section_list: List[Section]) -> List[Declaration]:
    """Declarations without a comment of their own, by the rules in this file's docstring."""
    missing = []
    for section in section_list:
        for block in section.blocks:
            if not isinstance(block, Group):
                continue
            group_doc = block.doc is not None and not any(d.note for d in block.declarations)
            for position, declaration in enumerate(block.declarations):
                documented = (declaration.note is not None or group_doc
                              or (position == 0 and block.doc is not None))
                if not documented:
                    missing.append(declaration)
    return missing


def all_text(preamble: str, section_list: List[Section]) -> List[Tuple[int, str]]:
    texts = [(1, preamble)]
    for section in section_list:
        texts.append((0, section.title + "\n" + section.intro))
        for block in section.blocks:
            if isinstance(block, Comment):
                texts.append((block.line, block.text))
            else:
                if block.doc:
                    texts.append((block.doc.line, block.doc.text))
                for declaration in block.declarations:
                    if declaration.note:
                        texts.append((declaration.line, declaration.note.text))
                    texts.extend((declaration.line, note) for _, note in declaration.members)
    return texts


def unknown_names(preamble: str, section_list: List[Section], declared: Set[str], tags: Set[str]) -> List[Tuple[int, str]]:
    """telenorid_* / TELENORID_* identifiers in the comments that the header does not declare. A struct tag
    (`struct telenorid_callback`) and file names (telenorid.h, telenorid_jni) are not API names."""
    found = []
    for line, text in all_text(preamble, section_list):
        for match in re.finditer(r"(?<![\w./-])(telenorid_\w+|TELENORID_\w+)(\*?)(?![\w./]*\.(?:h|so|c)\b)", text):
            name = match.group(1)
            if match.group(2):  # a family, `TELENORID_E_*`, `telenorid_error_*`
                continue
            if name not in declared and name not in tags:
                found.append((line, name))
    return found


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
.since { color: #666; font-size: 90%; }
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


def render(version: str, preamble: str, section_list: List[Section], declared: Set[str],
           counts: Dict[str, int]) -> str:
    body: List[str] = []
    body.append(f"<h1>telenorid {html.escape(version)}: the C API</h1>")
    body.append("<p>Generated from <code>include/telenorid.h</code> by <code>scripts/gen_c_reference.py</code>: "
                f"{counts['function']} functions, {counts['type']} types, {counts['constant']} constants and "
                f"{counts['macro']} macros. The header is the contract; this page only arranges its comments.</p>")
    body.append(prose(preamble, declared))
    body.append("<nav><h2>Sections</h2><ul>")
    for section in section_list:
        body.append(f'<li><a href="#{slug(section.title)}">{inline(section.title, declared)}</a></li>')
    body.append('<li><a href="#index">Index</a></li></ul></nav>')
    for section in section_list:
        body.append(f'<h2 id="{slug(section.title)}">{inline(section.title, declared)}</h2>')
        if section.intro:
            body.append(prose(section.intro, declared))
        for block in section.blocks:
            if isinstance(block, Comment):
                body.append(prose(block.text, declared))
                continue
            body.append('<div class="entry">')
            simple = [d for d in block.declarations if not d.note or d.kind not in ("constant", "type")]
            table = [d for d in block.declarations if d.note and d.kind in ("constant", "type")]
            if simple:
                decls = []
                for declaration in simple:
                    source = link_names(html.escape(declaration.source.strip()), declared - {declaration.name})
                    source = source.replace(declaration.name, f'<span id="{declaration.name}">{declaration.name}</span>',
                                            1)
                    decls.append(source)
                body.append('<pre class="decl">' + "\n".join(decls) + "</pre>")
            if block.doc:
                body.append(prose(block.doc.text, declared))
            for declaration in simple:
                if declaration.note:
                    body.append(prose(f"`{declaration.name}`: " + declaration.note.text, declared))
                if declaration.members:
                    members = "".join(f"<tr><td><code>{html.escape(m)}</code></td><td>{inline(note, declared)}</td></tr>"
                                      for m, note in declaration.members)
                    body.append(f"<table><tr><th>member</th><th></th></tr>{members}</table>")
            if table:
                rows = []
                for declaration in table:
                    value = declaration.source.split(None, 2)[2] if declaration.kind == "constant" else ""
                    rows.append(f'<tr><td><code id="{declaration.name}">{declaration.name}</code></td>'
                                f"<td><code>{html.escape(' '.join(value.split()))}</code></td>"
                                f"<td>{prose(declaration.note.text if declaration.note else '', declared)}</td></tr>")
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


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="directory for index.html (default out/docs/c)")
    parser.add_argument("--check", action="store_true", help="check every declaration is documented; write nothing")
    parser.add_argument("--header", type=Path, default=HEADER, help="the header to read (default include/telenorid.h)")
    args = parser.parse_args(argv)

    text = args.header.read_text(encoding="utf-8")
    items = scan(text)
    preamble, section_list = sections(items)
    declarations = [item for item in items if isinstance(item, Declaration)]
    declared = {d.name for d in declarations}
    version = re.search(r'#define TELENORID_VERSION_STRING "([^"]+)"', text)
    if not version:
        fail("no TELENORID_VERSION_STRING in the header")
    counts = {kind: sum(1 for d in declarations if d.kind == kind) for kind in ("function", "type", "constant", "macro")}
    page = render(version.group(1), preamble, section_list, declared, counts)

    problems = []
    for declaration in undocumented(section_list):
        problems.append(f"{args.header.name}:{declaration.line}: {declaration.kind} {declaration.name} has no comment")
    tags = set(re.findall(rf"typedef struct ({IDENT})", text))
    for line, name in unknown_names(preamble, section_list, declared, tags):
        problems.append(f"{args.header.name}:{line}: a comment names {name}, which the header does not declare")
    anchors = Anchors()
    anchors.feed(page)
    problems += [f"the page: {error}" for error in anchors.errors]
    problems += [f"the page has no anchor for {name}" for name in sorted(declared - anchors.ids)]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"gen_c_reference: {len(problems)} problem(s); a declaration's comment goes directly above it or on its "
              "line (see scripts/gen_c_reference.py)", file=sys.stderr)
        return 1
    if args.check:
        print(f"check-docs: every one of the header's {len(declarations)} declarations is documented "
              f"({counts['function']} functions, {counts['type']} types, {counts['constant']} constants, "
              f"{counts['macro']} macros)")
        return 0
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "index.html").write_text(page, encoding="utf-8")
    print(f"{args.output / 'index.html'}: {len(declarations)} declarations, {len(page)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
