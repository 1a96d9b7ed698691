#!/usr/bin/env python3
"""Writes bindings/python/telenorid/_bindings.py, the ctypes declarations of include/telenorid.h: one
Structure per opaque handle type with its pointer type, the integer typedefs, the callback CFUNCTYPE types,
and every function's restype and argtypes, in the header's order. Standard library only.

    python3 scripts/gen_python_bindings.py [--output PATH]   # default: the committed _bindings.py

The header is regular C99 and this reads only what it holds: `typedef struct x y;`, `typedef int32_t x;`,
`typedef R (*x)(...);`, `typedef x y;` (another name for a handle or callback type: an old name kept as an
alias) and `R telenorid_x(...);`, one declaration per statement. Anything else outside
comments and preprocessor lines stops the generator with the statement it could not read, so a new kind of
declaration is noticed here rather than mistranslated. `make check-bindings` (part of `make test`) regenerates
into a temporary file and fails when it differs from the committed one.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import List, NamedTuple, NoReturn, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "telenorid.h"
OUTPUT = ROOT / "bindings" / "python" / "telenorid" / "_bindings.py"
WIDTH = 120

# C scalar types of the header and their ctypes names.
SCALARS = {"void": "None", "int": "c_int", "int32_t": "c_int32", "uint32_t": "c_uint32", "int64_t": "c_int64",
           "uint16_t": "c_uint16", "uint8_t": "c_uint8", "size_t": "c_size_t"}

IDENT = r"[A-Za-z_]\w*"


class CType(NamedTuple):
    base: str  # a scalar, `char`, a handle struct, an integer typedef or a callback typedef
    const_base: bool  # `const` on the base type (`const char *`)
    depth: int  # pointer levels


class Declarations(NamedTuple):
    structs: List[str]
    integers: List[Tuple[str, str]]  # (typedef name, scalar)
    callbacks: List[Tuple[str, CType, List[CType]]]
    functions: List[Tuple[str, CType, List[CType]]]
    aliases: List[Tuple[str, str]]  # (another name, the handle or callback type it names)


def fail(message: str) -> NoReturn:
    sys.exit(f"gen_python_bindings: {message}")


def statements(text: str) -> List[str]:
    """The header's C statements, without comments, preprocessor lines and the C++ `extern "C"` guard."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
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


def parse_parameters(text: str, where: str) -> List[CType]:
    text = text.strip()
    if text in ("", "void"):
        return []
    types = []
    for parameter in text.split(","):
        match = re.fullmatch(rf"(.*?)\b({IDENT})", parameter.strip())
        if match is None or match.group(2) in ("const",) or not match.group(1).strip():
            fail(f"unnamed or unreadable parameter {parameter.strip()!r} in {where!r}")
        types.append(parse_type(match.group(1), where))
    return types


def parse(header: str) -> Declarations:
    found = Declarations([], [], [], [], [])
    tags = {}  # struct tag -> the first typedef name of that struct, the one its Python class takes
    for statement in statements(header):
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
                                    parse_parameters(match.group(3), statement)))
            continue
        match = re.fullmatch(rf"(.+?)\b(telenorid_\w+)\s*\((.*)\)", statement)
        if match and "(" not in match.group(3):
            found.functions.append((match.group(2), parse_type(match.group(1), statement),
                                    parse_parameters(match.group(3), statement)))
            continue
        fail(f"a declaration this generator does not read: {statement!r}")
    if not found.functions:
        fail(f"no functions in {HEADER}")
    return found


def pointer_name(struct: str) -> str:
    """telenorid_config_builder -> ConfigBuilderP."""
    return "".join(word.capitalize() for word in struct[len("telenorid_"):].split("_")) + "P"


def callback_name(typedef: str) -> str:
    """telenorid_auth_state_callback -> AuthStateCallback."""
    return "".join(word.capitalize() for word in typedef[len("telenorid_"):].split("_"))


def ctypes_expression(ctype: CType, found: Declarations, where: str) -> str:
    integers = dict(found.integers)
    callbacks = {name for name, _, _ in found.callbacks}
    base, depth = dict(found.aliases).get(ctype.base, ctype.base), ctype.depth
    if base == "char":
        if depth == 1:
            return "c_char_p"  # a NUL-terminated string in, or a caller's buffer to write
        if depth == 2:
            # `const char *const *`: an array of strings in. `char **`: a string the library hands out, taken
            # as a void pointer so that ctypes leaves it alone to be copied, then freed by telenorid_string_free.
            return "POINTER(c_char_p)" if ctype.const_base else "POINTER(c_void_p)"
    elif base == "void" and depth == 1:
        return "c_void_p"
    elif base in found.structs and depth in (1, 2):
        return pointer_name(base) if depth == 1 else f"POINTER({pointer_name(base)})"
    elif base in callbacks and depth == 0:
        return callback_name(base)
    elif base in integers or base in SCALARS:
        name = base if base in integers else SCALARS[base]
        if depth == 0:
            return name
        if depth == 1 and base != "void":
            return f"POINTER({name})"
    fail(f"no ctypes type for {ctype} in {where}")


def wrap(head: str, items: List[str], tail: str) -> List[str]:
    """`head` + items joined by ", " + `tail`, broken after a comma (aligned after `head`) to stay in WIDTH."""
    lines: List[str] = []
    line = head
    for index, item in enumerate(items):
        piece = item + (", " if index < len(items) - 1 else tail)
        if len(line) + len(piece.rstrip()) > WIDTH and line.strip() != head.strip():
            lines.append(line.rstrip())
            line = " " * len(head) + piece
        else:
            line += piece
    if not items:
        line += tail
    lines.append(line.rstrip())
    return lines


def render(found: Declarations) -> str:
    out = [
        '"""ctypes declarations of include/telenorid.h, generated from it by scripts/gen_python_bindings.py.',
        "",
        "DO NOT EDIT: change the header and run `python3 scripts/gen_python_bindings.py`; `make check-bindings`",
        "fails when this file and the header disagree. The binding calls each function through telenorid._ffi.",
        '"""',
        "from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint8,",
        "                    c_uint16, c_uint32, c_void_p)",
        "from typing import Any, Dict, List, Tuple",
        "",
        "# Handles: each its own incomplete struct, so a pointer to one is refused where another belongs.",
    ]
    for struct in found.structs:
        out += ["", "", f"class {struct}(Structure):", "    pass"]
    out += ["", ""]
    for struct in found.structs:
        out.append(f"{pointer_name(struct)} = POINTER({struct})")
    out += ["", "# Integer typedefs."]
    for name, scalar in found.integers:
        out.append(f"{name} = {SCALARS[scalar]}")
    out += ["", "# Callback types."]
    for name, restype, params in found.callbacks:
        where = f"typedef {name}"
        out += wrap(f"{callback_name(name)} = CFUNCTYPE(",
                    [ctypes_expression(restype, found, where)] + [ctypes_expression(p, found, where) for p in params],
                    ")")
    if found.aliases:
        out += ["", "# Old names of handle and callback types (aliases until 1.0)."]
    for alias, target in found.aliases:
        if target in found.structs:
            out += [f"{alias} = {target}", f"{pointer_name(alias)} = {pointer_name(target)}"]
        else:
            out.append(f"{callback_name(alias)} = {callback_name(target)}")
    out += ["", "# name: (restype, argtypes), for every function of the header in its order.",
            "SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {"]
    for name, restype, params in found.functions:
        out += wrap(f'    "{name}": ({ctypes_expression(restype, found, name)}, [',
                    [ctypes_expression(p, found, name) for p in params], "]),")
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where to write (default: %(default)s)")
    args = parser.parse_args(argv)
    args.output.write_text(render(parse(HEADER.read_text(encoding="utf-8"))), encoding="utf-8")


if __name__ == "__main__":
    main()
