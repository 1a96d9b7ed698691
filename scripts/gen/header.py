"""The reader of include/telenorid.h that every emitter of scripts/gen works from. Standard library only.

The header is regular C99 and this reads only what it holds: `typedef struct x y;`, `typedef int32_t x;`,
`typedef R (*x)(...);`, `typedef struct x { T a; U b; } y;` (a struct of scalars and callback types the host
fills in), `typedef x y;` (another name for a handle or callback type: an old name kept as an alias),
`R telenorid_x(...);` (one declaration per statement, every parameter named) and `#define TELENORID_X value
/* comment */`. Anything else outside comments and preprocessor lines stops the generator with the statement
it could not read, so a new kind of declaration is noticed here rather than mistranslated.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, NoReturn, Optional, Tuple

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
)

IDENT = r"[A-Za-z_]\w*"


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


class Declarations(NamedTuple):
    structs: List[str]
    integers: List[Tuple[str, str]]  # (typedef name, scalar)
    callbacks: List[Tuple[str, CType, List[CType]]]
    functions: List[Function]
    aliases: List[Tuple[str, str]]  # (another name, the handle or callback type it names)
    fields: List[Tuple[str, List[Tuple[str, CType]]]]  # (struct the host fills in, its (member, type)s)
    defines: Dict[str, str]  # every TELENORID_* macro without parameters: its text
    families: Dict[str, List[Constant]]  # family -> its constants in the header's order (OK among statuses)
    comments: Dict[str, str]  # function name -> the doc comment just above its declaration

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


def statements(text: str) -> List[str]:
    """The header's C statements, without comments, preprocessor lines and the C++ `extern "C"` guard."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
    # A struct's members end in `;` too: kept inside its one statement, separated by `|`.
    text = re.sub(r"\{[^{}]*\}", lambda body: body.group(0).replace(";", "|"), text)
    lines = []
    continued = False
    for line in text.splitlines():
        directive = continued or line.lstrip().startswith("#")
        continued = directive and line.rstrip().endswith("\\")
        if not directive:
            lines.append(line)
    body = " ".join(lines)
    parts = [" ".join(part.split()) for part in body.split(";")]
    if parts[-1]:
        fail(f"text after the last declaration: {parts[-1][:80]!r}")
    return parts[:-1]


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


def parse_defines(text: str) -> Tuple[Dict[str, str], Dict[str, List[Constant]]]:
    """Every parameterless TELENORID_* macro, and the constants of each family with their comments."""
    defines: Dict[str, str] = {}
    found: Dict[str, List[Constant]] = {family: [] for family, _, _ in FAMILIES}
    # A definition, continued over `\` lines, then a comment that may run over several lines.
    pattern = re.compile(r"^#define[ \t]+(TELENORID_\w+)(?![\w(])((?:[^\n/]|/(?!\*)|\\\n)*)(/\*.*?\*/)?", re.M | re.S)
    for match in pattern.finditer(text):
        name, value = match.group(1), " ".join(match.group(2).replace("\\\n", " ").split())
        comment = " ".join((match.group(3) or "")[2:-2].split())
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


def parse_comments(text: str) -> Dict[str, str]:
    """Each function's doc comment: the comment that ends just before its declaration (blank lines between
    are allowed, other declarations are not)."""
    comments: Dict[str, str] = {}
    for match in re.finditer(r"/\*((?:(?!\*/).)*)\*/\s*\n(?:[^\n;]*?\n)??[^\n;/]*?\b(telenorid_\w+)\s*\(", text, re.S):
        comments.setdefault(match.group(2), " ".join(line.strip().lstrip("*").strip()
                                                       for line in match.group(1).splitlines()).strip())
    return comments


def parse(header: str) -> Declarations:
    defines, families = parse_defines(header)
    found = Declarations([], [], [], [], [], [], defines, families, parse_comments(header))
    tags = {}  # struct tag -> the first typedef name of that struct, the one its Python class takes
    for statement in statements(header):
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
