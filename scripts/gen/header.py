"""The reader of include/telenorid.h that every emitter of scripts/gen works from: the one parser of the header.
Standard library only.

scan() is the one pass over the header's text: it gives comments, declarations (with the comment that starts on
a declaration's line, and a struct's members' comments) and blank lines in order, skipping the include guard and
the C++ guard. sections() arranges them as the C reference reads them (a banner comment starts a section, a
comment directly above a run of declarations documents it), and parse() reads the declarations' C.

The header is regular C99 and this reads only what it holds: `typedef struct x y;`, `typedef int32_t x;`,
`typedef R (*x)(...);`, `typedef struct x { T a; U b; } y;` (a struct of scalars and callback types the host
fills in), `typedef x y;` (another name for a handle or callback type: an old name kept as an alias),
`R telenorid_x(...);` (one declaration per statement, every parameter named), `#define TELENORID_X value
/* comment */` and `#define TELENORID_X(a, b) ...`. Anything else outside comments stops the generator with the
statement it could not read, so a new kind of declaration is noticed here rather than mistranslated or left out
of the reference.
"""
from __future__ import annotations

import bisect
import re
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, NoReturn, Optional, Tuple, Union

ROOT = Path(__file__).resolve().parent.parent.parent
HEADER = ROOT / "include" / "telenorid.h"

# C scalar types of the header and their ctypes names.
SCALARS = {"void": "None", "int": "c_int", "int32_t": "c_int32", "uint32_t": "c_uint32", "int64_t": "c_int64",
           "uint16_t": "c_uint16", "uint8_t": "c_uint8", "size_t": "c_size_t"}

# The constant families: (family, the prefix of its names, the typedef its values have or None). The header
# names each constant <prefix><SUFFIX>; a family's values are append-only there.
FAMILIES: Tuple[Tuple[str, str, Optional[str]], ...] = (
    ("statuses", "TELENORID_E_", "telenorid_status"),
    ("config keys", "TELENORID_CONFIG_", "telenorid_config_key"),
    ("authorization parameters", "TELENORID_AUTH_", "telenorid_auth_param"),
    ("claim targets", "TELENORID_CLAIMS_", "telenorid_claim_target"),
    ("token fields", "TELENORID_TOKEN_", "telenorid_token_field"),
    ("PKCE methods", "TELENORID_PKCE_", "telenorid_pkce_method"),
    ("socket verdicts", "TELENORID_SOCKET_", None),
    ("device fields", "TELENORID_DEVICE_", "telenorid_device_field"),
    ("login hint forms", "TELENORID_LOGIN_HINT_", "telenorid_login_hint_form"),
    ("log levels", "TELENORID_LOG_", None),
    ("resource server options", "TELENORID_RESOURCE_SERVER_", "telenorid_resource_server_option"),
    ("token info fields", "TELENORID_INFO_", "telenorid_token_info_field"),
    ("back-channel logout options", "TELENORID_BACKCHANNEL_LOGOUT_", "telenorid_backchannel_logout_option"),
    ("logout token fields", "TELENORID_LOGOUT_TOKEN_", "telenorid_logout_token_field"),
    ("issued token fields", "TELENORID_ISSUED_", "telenorid_issued_token_field"),
)

IDENT = r"[A-Za-z_]\w*"
GUARD = "TELENORID_H"  # the include guard's macro, which is no declaration


class CType(NamedTuple):
    base: str  # a scalar, `char`, a handle struct, an integer typedef or a callback typedef
    const_base: bool  # `const` on the base type (`const char *`)
    depth: int  # pointer levels


class Parameter(NamedTuple):
    name: str
    ctype: CType


class Function(NamedTuple):
    name: str
    restype: CType
    parameters: List[Parameter]


class Constant(NamedTuple):
    name: str  # TELENORID_CONFIG_ISSUER
    suffix: str  # ISSUER (the name after its family's prefix)
    value: int
    comment: str  # the comment on its line(s), without /* */ and joined into one line


class Comment(NamedTuple):
    text: str  # the comment's lines without the /* */ and the " * " that starts each continuation line
    line: int
    trailing: bool  # starts on a line that holds code before it


class Statement(NamedTuple):
    kind: str  # function, type, constant (a #define without parameters) or macro (one with parameters)
    name: str
    source: str  # the declaration as written, comments removed
    line: int
    note: Optional[Comment]  # the comment that starts on its line, if any
    members: List[Tuple[str, str]]  # a struct's (member declaration, its comment)


class Blank(NamedTuple):
    line: int


Item = Union[Comment, Statement, Blank]


class Group(NamedTuple):
    """A run of declarations (between blank lines and comments) and the comment directly above it."""
    doc: Optional[Comment]
    statements: List[Statement]


class Section(NamedTuple):
    """What follows a banner comment (`/* ----`): its title, its introduction, then prose and groups in order."""
    title: str
    intro: str
    blocks: List[Union[Comment, Group]]


class Declarations(NamedTuple):
    structs: List[str]
    integers: List[Tuple[str, str]]  # (typedef name, scalar)
    callbacks: List[Tuple[str, CType, List[CType]]]
    functions: List[Function]
    aliases: List[Tuple[str, str]]  # (another name, the handle or callback type it names)
    fields: List[Tuple[str, List[Tuple[str, CType]]]]  # (struct the host fills in, its (member, type)s)
    defines: Dict[str, str]  # every TELENORID_* macro without parameters: its text
    families: Dict[str, List[Constant]]  # family -> its constants in the header's order (OK among statuses)
    statements: List[Statement]  # every declaration (functions, typedefs, #defines) as written, in order
    preamble: str  # the file's opening comment
    sections: List[Section]  # what each banner comment introduces: prose and declarations with their comments

    def constant(self, name: str) -> int:
        for constants in self.families.values():
            for constant in constants:
                if constant.name == name:
                    return constant.value
        return evaluate(self.defines[name], name)

    def version(self) -> Tuple[int, int, int]:
        return (self.constant("TELENORID_VERSION_MAJOR"), self.constant("TELENORID_VERSION_MINOR"),
                self.constant("TELENORID_VERSION_PATCH"))


def fail(message: str) -> NoReturn:
    sys.exit(f"scripts/gen: {HEADER.relative_to(ROOT)}: {message}")


def evaluate(text: str, name: str) -> int:
    """An integer macro: digits, or `(a * b)` of digits (TELENORID_MAX_INPUT)."""
    if not re.fullmatch(r"[\d\s()*+<|-]+", text):
        fail(f"{name} is not an integer constant expression: {text!r}")
    return int(eval(text, {"__builtins__": {}}))  # digits and operators only, checked above


def comment_text(raw: str) -> str:
    """The text of a /* ... */ comment: the markers gone, and the " * " that starts its continuation lines."""
    lines = raw[2:-2].split("\n")
    out = [lines[0].strip()]
    for line in lines[1:]:
        stripped = line.lstrip()
        if stripped.startswith("*"):
            stripped = stripped[1:]
            # keep the indentation after " * " beyond its one space: it marks lists and examples
            stripped = stripped[1:] if stripped.startswith(" ") else stripped
        # a continuation without " * " (a trailing comment's second line): its own indentation means nothing
        out.append(stripped.rstrip())
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out)


def classify(statement: str, line: int) -> Tuple[str, str]:
    """(kind, name) of one C statement or #define, comments removed."""
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
    fail(f"line {line}: a statement this generator cannot read: {text[:100]!r}")


def scan(text: str) -> List[Item]:
    """The header as comments, declarations and blank lines, in order: the one pass over its text. A comment
    that starts on a declaration's line is that declaration's note; comments inside a struct are its members'."""
    items: List[Item] = []
    starts = [0]  # the offset of each line, for line numbers in messages
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    i = 0
    n = len(text)
    code_on_line = False  # has this line held code (so a comment starting here is trailing)?
    last: Optional[Statement] = None  # the declaration that ended on the current line
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
            cut = directive.find("/*")  # a comment on the directive's line ends the directive
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
            if words[0] in ("#ifndef", "#endif", "#include") or words[:2] == ["#define", GUARD]:
                last = None
                continue
            if words[0] != "#define":
                fail(f"line {at}: a directive this generator cannot read: {directive.strip()!r}")
            kind, name = classify(re.sub(r"\\\n\s*", " ", directive).strip(), at)
            last = Statement(kind, name, directive.rstrip(), at, None, [])
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
                if depth == 0 or end < 0:
                    fail(f"line {line_of(i)}: a comment inside a declaration")
                if members and not member.strip():
                    members[-1] = (members[-1][0], comment_text(text[i:end + 2]))
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
        last = Statement(kind, name, source, line_of(start), None, members)
        items.append(last)
        code_on_line = True
    return items


def sections(items: List[Item]) -> Tuple[str, List[Section]]:
    """The file's opening comment and its sections. A comment directly above a run of declarations is its doc;
    any other comment is prose of its section."""
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
                current = Section(title, (lead + "\n\n" + "\n".join(body[ends:])).strip(), [])
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
            run.statements.append(item)
    if pending is not None:
        current.blocks.append(pending)
    if current.blocks and not result:
        fail("declarations before the first section banner")
    return preamble, result


def statements(items: List[Item]) -> List[str]:
    """The C statements (not the #defines) on one line each, without their `;`. A struct's members end in `;`
    too: they stay inside its one statement, separated by `|`."""
    found = []
    for item in items:
        if isinstance(item, Statement) and item.kind in ("function", "type"):
            source = re.sub(r"\{[^{}]*\}", lambda body: body.group(0).replace(";", "|"), item.source)
            found.append(" ".join(source.split()).rstrip(";").rstrip())
    return found


def parse_type(text: str, where: str) -> CType:
    """`const telenorid_config *`, `char **`, `const char *const *`... (a parameter without its name)."""
    tokens = re.findall(rf"{IDENT}|\*", text)
    if not tokens:
        fail(f"no type in {where!r}")
    const_base = False
    while tokens and tokens[0] == "const":
        const_base = True
        tokens.pop(0)
    if not tokens or tokens[0] == "*":
        fail(f"no base type in {where!r}")
    base, rest = tokens[0], tokens[1:]
    if any(token not in ("*", "const") for token in rest):
        fail(f"cannot read the type {text!r} in {where!r}")
    return CType(base, const_base, rest.count("*"))


def parse_parameters(text: str, where: str) -> List[Parameter]:
    text = text.strip()
    if text in ("", "void"):
        return []
    parameters = []
    for parameter in text.split(","):
        match = re.fullmatch(rf"(.*?)\b({IDENT})", parameter.strip())
        if match is None or match.group(2) in ("const",) or not match.group(1).strip():
            fail(f"unnamed or unreadable parameter {parameter.strip()!r} in {where!r}")
        parameters.append(Parameter(match.group(2), parse_type(match.group(1), where)))
    return parameters


def parse_defines(items: List[Item]) -> Tuple[Dict[str, str], Dict[str, List[Constant]]]:
    """Every parameterless TELENORID_* macro, and the constants of each family with their comments."""
    defines: Dict[str, str] = {}
    found: Dict[str, List[Constant]] = {family: [] for family, _, _ in FAMILIES}
    for item in items:
        if not isinstance(item, Statement) or item.kind != "constant" or not item.name.startswith("TELENORID_"):
            continue
        name, value = item.name, " ".join(item.source.replace("\\\n", " ").split()[2:])
        comment = " ".join(item.note.text.split()) if item.note else ""
        defines[name] = value
        for family, prefix, _ in FAMILIES:
            statuses = family == "statuses" and name == "TELENORID_OK"
            if (name.startswith(prefix) or statuses) and re.fullmatch(r"-?\d+", value):
                suffix = "OK" if statuses else name[len(prefix):]
                found[family].append(Constant(name, suffix, int(value), comment))
                break
    for family, prefix, _ in FAMILIES:
        if not found[family]:
            fail(f"no {prefix}* constants found; has the header's spelling changed?")
    return defines, found


def parse(header: str) -> Declarations:
    items = scan(header)
    defines, families = parse_defines(items)
    preamble, layout = sections(items)
    found = Declarations([], [], [], [], [], [], defines, families,
                         [item for item in items if isinstance(item, Statement)], preamble, layout)
    tags = {}  # struct tag -> the first typedef name of that struct, the one its Python class takes
    for statement in statements(items):
        match = re.fullmatch(rf"typedef struct ({IDENT}) \{{(.*)\}} ({IDENT})", statement)
        if match and match.group(1) == match.group(3):
            members = []
            for member in filter(None, (part.strip() for part in match.group(2).split("|"))):
                named = re.fullmatch(rf"(.*?)\b({IDENT})", member)
                if named is None or not named.group(1).strip():
                    fail(f"unreadable member {member!r} in {statement!r}")
                members.append((named.group(2), parse_type(named.group(1), statement)))
            tags[match.group(1)] = match.group(3)
            found.structs.append(match.group(3))
            found.fields.append((match.group(3), members))
            continue
        match = re.fullmatch(rf"typedef struct ({IDENT}) ({IDENT})", statement)
        if match:
            if match.group(1) in tags:
                found.aliases.append((match.group(2), tags[match.group(1)]))
            else:
                tags[match.group(1)] = match.group(2)
                found.structs.append(match.group(2))
            continue
        match = re.fullmatch(rf"typedef ({IDENT}) ({IDENT})", statement)
        if match and (match.group(1) in found.structs or match.group(1) in {name for name, _, _ in found.callbacks}):
            found.aliases.append((match.group(2), match.group(1)))
            continue
        if match:
            if match.group(1) not in SCALARS or match.group(1) == "void":
                fail(f"a typedef of something other than an integer: {statement!r}")
            found.integers.append((match.group(2), match.group(1)))
            continue
        match = re.fullmatch(rf"typedef (.+?)\(\s*\*\s*({IDENT})\s*\)\s*\((.*)\)", statement)
        if match:
            found.callbacks.append((match.group(2), parse_type(match.group(1), statement),
                                    [p.ctype for p in parse_parameters(match.group(3), statement)]))
            continue
        match = re.fullmatch(rf"(.+?)\b(telenorid_\w+)\s*\((.*)\)", statement)
        if match and "(" not in match.group(3):
            found.functions.append(Function(match.group(2), parse_type(match.group(1), statement),
                                            parse_parameters(match.group(3), statement)))
            continue
        fail(f"a declaration this generator does not read: {statement!r}")
    if not found.functions:
        fail("no functions")
    return found


def read(path: Path = HEADER) -> Declarations:
    return parse(path.read_text(encoding="utf-8"))


def resolve(found: Declarations, base: str) -> str:
    """A type's own name: the handle or callback type an alias names, else the name itself."""
    return dict(found.aliases).get(base, base)
