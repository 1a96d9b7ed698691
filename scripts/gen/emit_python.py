"""The Python mirrors of the header: bindings/python/telenorid/_bindings.py (the ctypes declarations: one
Structure per opaque handle type with its pointer type, the integer typedefs, the callback CFUNCTYPE types, the
fields of the structs the host fills in, every function's restype and argtypes in the header's order) and
_constants.py (the version, the input limit and the tables of every constant family)."""
from __future__ import annotations

import re
from typing import Dict, List

from header import SCALARS, CType, Declarations, fail
from output import GENERATED, WIDTH

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


def bindings(found: Declarations) -> str:
    out = [
        f"# {GENERATED}",
        '"""ctypes declarations of include/telenorid.h. Change the header and run `make generate`; `make',
        "check-generated` fails when this file and the header disagree. The binding calls each function through",
        'telenorid._ffi."""',
        "from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_size_t, c_uint8,",
        "                    c_uint16, c_uint32, c_void_p)",
        "from typing import Any, Dict, List, Tuple",
        "",
        "# Handles: each its own incomplete struct, so a pointer to one is refused where another belongs (and the",
        "# structs the host fills in, whose members follow the callback types).",
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
    if found.fields:
        out += ["", "# The members of the structs the host fills in."]
    for struct, members in found.fields:
        where = f"struct {struct}"
        out += wrap(f"{struct}._fields_ = [",
                    [f'("{name}", {ctypes_expression(ctype, found, where)})' for name, ctype in members], "]")
    if found.aliases:
        out += ["", "# Old names of handle and callback types (aliases until 1.0)."]
    for alias, target in found.aliases:
        if target in found.structs:
            out += [f"{alias} = {target}", f"{pointer_name(alias)} = {pointer_name(target)}"]
        else:
            out.append(f"{callback_name(alias)} = {callback_name(target)}")
    out += ["", "# name: (restype, argtypes), for every function of the header in its order.",
            "SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {"]
    for function in found.functions:
        name = function.name
        out += wrap(f'    "{name}": ({ctypes_expression(function.restype, found, name)}, [',
                    [ctypes_expression(p.ctype, found, name) for p in function.parameters], "]),")
    out.append("}")
    return "\n".join(out) + "\n"




# Each family's table in _constants.py: (its name there, the family). Keys are the constant's name after the
# family's prefix, in lower case (as the settings are named in JSON and in Python keywords), except the statuses,
# whose keys keep the header's case (they name exception classes and are compared with Java's Status).
TABLES = (("STATUS", "statuses"), ("CONFIG_KEYS", "config keys"), ("AUTH_PARAMS", "authorization parameters"),
          ("CLAIM_TARGETS", "claim targets"), ("TOKEN_FIELDS", "token fields"), ("PKCE_METHODS", "PKCE methods"),
          ("SOCKET_VERDICTS", "socket verdicts"), ("DEVICE_FIELDS", "device fields"),
          ("LOGIN_HINT_FORMS", "login hint forms"), ("LOG_LEVELS", "log levels"),
          ("RESOURCE_SERVER_OPTIONS", "resource server options"), ("TOKEN_INFO_FIELDS", "token info fields"),
          ("BACKCHANNEL_LOGOUT_OPTIONS", "back-channel logout options"), ("LOGOUT_TOKEN_FIELDS", "logout token fields"),
          ("ISSUED_TOKEN_FIELDS", "issued token fields"))

# The string constants of the header, by the prefix of their names: the token type identifiers (RFC 8693 §3).
STRING_TABLES = (("TOKEN_TYPES", "TELENORID_TOKEN_TYPE_"),)

# The keys that are not the lower-case suffix, each with its reason.
KEY_NAMES = {
    "TELENORID_PKCE_S256": "S256",  # RFC 7636 §4.2's spelling of the method, as the request sends it
    "TELENORID_TOKEN_TYPE": "token_type",  # the token response's member (RFC 6749 §5.1), not a bare "type"
}


def constants(found: Declarations) -> str:
    major, minor, patch = found.version()
    out = [
        f"# {GENERATED}",
        '"""The constants of include/telenorid.h by value (append-only there): the version this package was made',
        "from, the input limit and one table per constant family, keyed by the name after the family's prefix.",
        'Change the header and run `make generate`."""',
        "from typing import Dict",
        "",
        "# The header this package was made from (TELENORID_VERSION_MAJOR, _MINOR, _PATCH): the library loaded must",
        "# have the same major and at least this minor.",
        f"VERSION_MAJOR = {major}",
        f"VERSION_MINOR = {minor}",
        f"VERSION_PATCH = {patch}",
        f"MAX_INPUT = {found.constant('TELENORID_MAX_INPUT')}  # TELENORID_MAX_INPUT",
        f"OK = {found.constant('TELENORID_OK')}  # TELENORID_OK",
    ]
    for table, family in TABLES:
        out += ["", f"{table}: Dict[str, int] = {{"]
        for constant in found.families[family]:
            if constant.name == "TELENORID_OK":
                continue
            key = KEY_NAMES.get(constant.name, constant.suffix if family == "statuses" else constant.suffix.lower())
            out.append(f'    "{key}": {constant.value},  # {constant.name}')
        out.append("}")
    for table, prefix in STRING_TABLES:
        out += ["", f"{table}: Dict[str, str] = {{"]
        for name, value in found.defines.items():
            if name.startswith(prefix) and re.fullmatch(r'"[^"\\]*"', value):
                out.append(f'    "{name[len(prefix):].lower()}": {value},  # {name}')
        out.append("}")
    return "\n".join(out) + "\n"


def files(found: Declarations) -> Dict[str, str]:
    package = "bindings/python/telenorid"
    return {f"{package}/_bindings.py": bindings(found), f"{package}/_constants.py": constants(found)}
