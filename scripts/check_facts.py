#!/usr/bin/env python3
"""Checks every hand-kept copy of a fact of include/telenorid.h against the header.

The header is the one home of the status codes, configuration keys, authorization parameters, claim targets,
token fields, PKCE methods, socket verdicts, device fields, login hint forms, the input limit and the version. Swift, Python, Java and the
build files repeat some of them (a ctypes table, an enum, a switch, a string literal); this script reads
each copy as text (Python through `ast`, so no library needs to be built or loaded) and reports every
disagreement as `file: what: header <value>, copy <value>`, exiting 1. On success it prints one line.

Copies that read the header themselves (the C tests, the JNI bridge, the Swift code that uses the imported
macros, the Makefile's VERSION) need no check here, nor do the mirrors scripts/gen writes from it (`make
check-generated`): Python's _bindings.py and _constants.py, Java's Native.java, Status.java and Config.Key.
Python 3.11, standard library only.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
HEADER = "include/telenorid.h"
PY = "bindings/python/telenorid"
JAVA = "bindings/jni/src/main/java/no/telenor/id"
SWIFT = "Sources/Telenorid"

# family key -> (header prefix, word a copy may put before the suffix, e.g. token_type for TELENORID_TOKEN_TYPE)
FAMILIES: Dict[str, tuple[str, str]] = {
    "statuses": ("TELENORID_E_", "E"),
    "config keys": ("TELENORID_CONFIG_", "CONFIG"),
    "authorization parameters": ("TELENORID_AUTH_", "AUTH"),
    "claim targets": ("TELENORID_CLAIMS_", "CLAIMS"),
    "token fields": ("TELENORID_TOKEN_", "TOKEN"),
    "PKCE methods": ("TELENORID_PKCE_", "PKCE"),
    "socket verdicts": ("TELENORID_SOCKET_", "SOCKET"),
    "device fields": ("TELENORID_DEVICE_", "DEVICE"),
    "login hint forms": ("TELENORID_LOGIN_HINT_", "LOGIN_HINT"),
}


class Checker:
    def __init__(self) -> None:
        self.problems: List[str] = []
        self.agreements = 0

    def fail(self, file: str, what: str, header: Any, copy: Any) -> None:
        self.problems.append(f"{file}: {what}: header {header!r}, copy {copy!r}")

    def note(self, file: str, message: str) -> None:
        self.problems.append(f"{file}: {message}")

    def same(self, file: str, what: str, header: Any, copy: Any) -> None:
        if header == copy:
            self.agreements += 1
        else:
            self.fail(file, what, header, copy)


def read(relative: str) -> str:
    return (ROOT / relative).read_text(encoding="utf-8")


def arithmetic(node: ast.AST) -> int:
    """An integer constant expression of literals, + - * << | and parentheses."""
    if isinstance(node, ast.Expression):
        return arithmetic(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -arithmetic(node.operand)
    if isinstance(node, ast.BinOp):
        ops: Dict[type, Callable[[int, int], int]] = {
            ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
            ast.LShift: lambda a, b: a << b, ast.BitOr: lambda a, b: a | b}
        if type(node.op) in ops:
            return ops[type(node.op)](arithmetic(node.left), arithmetic(node.right))
    raise ValueError(f"not a constant integer expression: {ast.dump(node)}")


# ------------------------------------------------------------------------------------------------------
# The header
# ------------------------------------------------------------------------------------------------------

class Header:
    def __init__(self, text: str) -> None:
        self.defines: Dict[str, str] = {}
        for match in re.finditer(r"^#define\s+(TELENORID_\w+)(?:[ \t]+([^\n]*?))?\s*(?:/\*.*)?$", text, re.M):
            self.defines[match.group(1)] = (match.group(2) or "").strip()
        self.names = set(self.defines)
        self.families: Dict[str, Dict[str, int]] = {}
        for family, (prefix, _) in FAMILIES.items():
            values = {name[len(prefix):]: int(value) for name, value in self.defines.items()
                      if name.startswith(prefix) and re.fullmatch(r"-?\d+", value)}
            if not values:
                raise SystemExit(f"check_facts: {HEADER}: no {prefix}* constants found; has the header's "
                                 "spelling changed?")
            self.families[family] = values
        ok = self.defines.get("TELENORID_OK")
        if ok is None:
            raise SystemExit(f"check_facts: {HEADER}: no TELENORID_OK")
        # Statuses keyed by the name after TELENORID_ / TELENORID_E_: OK, INVALID_ARGUMENT, ...
        self.statuses: Dict[str, int] = {"OK": int(ok), **self.families["statuses"]}
        self.families["statuses"] = self.statuses
        self.max_input = arithmetic(ast.parse(self.defines["TELENORID_MAX_INPUT"], mode="eval"))
        self.major = int(self.defines["TELENORID_VERSION_MAJOR"])
        self.minor = int(self.defines["TELENORID_VERSION_MINOR"])
        self.patch = int(self.defines["TELENORID_VERSION_PATCH"])
        string = re.fullmatch(r'"([^"]*)"', self.defines["TELENORID_VERSION_STRING"])
        if string is None:
            raise SystemExit(f"check_facts: {HEADER}: TELENORID_VERSION_STRING is not a string literal")
        self.version = string.group(1)

    def full_name(self, family: str, suffix: str) -> str:
        if family == "statuses" and suffix == "OK":
            return "TELENORID_OK"
        return FAMILIES[family][0] + suffix

    def check_self(self, c: Checker) -> None:
        c.same(HEADER, "TELENORID_VERSION_STRING vs MAJOR.MINOR.PATCH",
               f"{self.major}.{self.minor}.{self.patch}", self.version)
        for family, values in self.families.items():
            seen: Dict[int, str] = {}
            for name, value in values.items():
                if value in seen:
                    c.note(HEADER, f"{family}: {self.full_name(family, name)} and "
                                   f"{self.full_name(family, seen[value])} share the value {value}")
                seen[value] = name
        codes = sorted(self.statuses.values())
        if codes != list(range(len(codes))):
            c.note(HEADER, f"status codes are not dense from 0: {codes}")


def match_name(header_suffix: str, copy_name: str, word: str) -> bool:
    """A copy names TELENORID_TOKEN_TYPE as TYPE, type, TOKEN_TYPE or token_type."""
    upper = copy_name.upper()
    return upper == header_suffix.upper() or upper == f"{word}_{header_suffix}".upper()


def compare_table(c: Checker, h: Header, file: str, family: str, copy: Dict[str, int], what: str,
                  skip: tuple[str, ...] = ()) -> None:
    """Both ways: every header constant of the family is in the copy with its value, and nothing more."""
    word = FAMILIES[family][1]
    header = {k: v for k, v in h.families[family].items() if k not in skip}
    unmatched = dict(copy)
    for suffix, value in header.items():
        names = [name for name in unmatched if match_name(suffix, name, word)]
        if not names:
            c.fail(file, f"{what}: {h.full_name(family, suffix)}", value, "missing")
            continue
        c.same(file, f"{what}: {h.full_name(family, suffix)} ({names[0]})", value, unmatched.pop(names[0]))
    for name, value in unmatched.items():
        c.fail(file, f"{what}: {name}", "no such constant", value)


# ------------------------------------------------------------------------------------------------------
# Python
# ------------------------------------------------------------------------------------------------------

def module_assignments(relative: str) -> Dict[str, ast.expr]:
    tree = ast.parse(read(relative), relative)
    values: Dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values[node.target.id] = node.value
    return values


def check_python(c: Checker, h: Header) -> None:
    # _constants.py (the tables, the version, MAX_INPUT) and _bindings.py are generated (scripts/gen).
    # config.py: Settings, the keywords of Config.from_settings, names every configuration key once.
    file = f"{PY}/config.py"
    settings = [node for node in ast.parse(read(file), file).body
                if isinstance(node, ast.ClassDef) and node.name == "Settings"]
    if not settings:
        c.note(file, "no class Settings")
    else:
        names = [s.target.id for s in settings[0].body
                 if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        header_names = {name.lower() for name in h.families["config keys"]}
        c.same(file, "Settings: TELENORID_CONFIG_* keys (in lower case) missing",
               [], sorted(header_names - set(names)))
        c.same(file, "Settings: names that are no TELENORID_CONFIG_* key", [], sorted(set(names) - header_names))
        if len(set(names)) != len(names):
            c.note(file, "Settings names a key twice")

    # errors.py: one exception class per error status, each with the status's code, all in _BY_STATUS.
    file = f"{PY}/errors.py"
    tree = ast.parse(read(file), file)
    by_code: Dict[int, List[str]] = {}
    for definition in tree.body:
        if not isinstance(definition, ast.ClassDef):
            continue
        for statement in definition.body:
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id == "code"):
                by_code.setdefault(arithmetic(statement.value), []).append(definition.name)
    codes = {value: name for name, value in h.statuses.items()}
    for name, value in h.statuses.items():
        if name == "OK":
            continue
        classes = by_code.pop(value, [])
        if len(classes) == 1:
            c.agreements += 1
        else:
            c.fail(file, f"exception classes with code {value} (TELENORID_E_{name})", "exactly one",
                   classes or "none")
    for value, classes in by_code.items():
        c.fail(file, f"code of {', '.join(classes)}", "no such status" if value not in codes else
               f"TELENORID_{'' if value == 0 else 'E_'}{codes[value]} has no exception", value)
    listed: set[str] = set()
    for any_node in ast.walk(tree):
        if (isinstance(any_node, ast.AnnAssign) and isinstance(any_node.target, ast.Name)
                and any_node.target.id == "_BY_STATUS"):
            listed = {n.id for n in ast.walk(any_node) if isinstance(n, ast.Name) and n.id[0].isupper()}
    classes_with_code = {n.name for n in tree.body if isinstance(n, ast.ClassDef)
                         and any(isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "code"
                                                                   for t in s.targets) for s in n.body)}
    for missing in sorted(classes_with_code - listed):
        c.fail(file, f"_BY_STATUS", f"lists {missing}", "missing")

    # The package version: __init__.__version__, and pyproject takes it from there (or repeats it).
    file = f"{PY}/__init__.py"
    node = module_assignments(file).get("__version__")
    c.same(file, "__version__", h.version, ast.literal_eval(node) if node is not None else "missing")
    file = "bindings/python/pyproject.toml"
    text = read(file)
    static = re.search(r'^version\s*=\s*"([^"]*)"', text, re.M)
    if static:
        c.same(file, "[project] version", h.version, static.group(1))
    elif re.search(r'^dynamic\s*=\s*\[[^\]]*"version"', text, re.M) and \
            re.search(r'^version\s*=\s*\{\s*attr\s*=\s*"telenorid\.__version__"\s*\}', text, re.M):
        c.agreements += 1
    else:
        c.note(file, "neither a static version nor version = {attr = \"telenorid.__version__\"}")


def same_stem(python: str, java: str) -> bool:
    """One stem in each language's casing: TLSError / TlsException, AuthorizationError / AuthorizationErrorException
    (a Python name ends in Error, a Java one in Exception)."""
    stem = java[:-len("Exception")].lower() if java.endswith("Exception") else None
    return python.endswith("Error") and stem is not None and python.lower() in (stem, stem + "error")


def check_exception_names(c: Checker, h: Header, java_by_class: Dict[str, str]) -> None:
    """Each status's Python exception and Java exception share a stem, and so do the families (the classes
    built from no status): the same names in both languages, each in its casing."""
    file = f"{PY}/errors.py"
    tree = ast.parse(read(file), file)
    python_by_code: Dict[int, str] = {}
    python_families: List[str] = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name == "TelenoridError":
            continue
        codes = [arithmetic(s.value) for s in node.body if isinstance(s, ast.Assign)
                 and any(isinstance(target, ast.Name) and target.id == "code" for target in s.targets)]
        if codes:
            python_by_code[codes[0]] = node.name
        else:
            python_families.append(node.name)
    for java, status in java_by_class.items():
        python = python_by_code.get(h.statuses[status])
        if python is not None and not same_stem(python, java):
            c.fail(file, f"the exception for TELENORID_E_{status}", f"the stem of Java's {java}", python)
        elif python is not None:
            c.agreements += 1
    java_families = sorted(path.stem for path in (ROOT / JAVA).glob("*Exception.java")
                           if path.stem not in java_by_class and path.stem != "TelenoridException")
    for java in java_families:
        matches = [python for python in python_families if same_stem(python, java)]
        if len(matches) == 1:
            c.agreements += 1
        else:
            c.fail(file, f"the family of Java's {java}", "one exception class with its stem", matches or "none")
    for python in python_families:
        if not any(same_stem(python, java) for java in java_families):
            c.fail(file, f"the family {python}", "a Java family with its stem", "none")


# ------------------------------------------------------------------------------------------------------
# Java
# ------------------------------------------------------------------------------------------------------

def java_source(name: str) -> str:
    return re.sub(r"/\*.*?\*/", "", read(f"{JAVA}/{name}"), flags=re.S)


def java_enum(c: Checker, name: str, enum: str) -> Dict[str, int]:
    text = re.sub(r"//[^\n]*", "", java_source(name))
    match = re.search(r"\benum\s+" + enum + r"\s*\{([^;]*);", text)
    if match is None:
        c.note(f"{JAVA}/{name}", f"no enum {enum}")
        return {}
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b([A-Z][A-Z0-9_]*)\s*\(\s*(-?\d+)\s*\)",
                                                              match.group(1))}


def check_java(c: Checker, h: Header) -> None:
    # Status.java and Config.Key's constants are generated (scripts/gen); the enums below are hand-kept.
    for file, enum, family in (("AuthorizationRequest.java", "Parameter", "authorization parameters"),
                               ("AuthorizationRequest.java", "ClaimTarget", "claim targets"),
                               ("AuthState.java", "Field", "token fields"),
                               ("Pkce.java", "Method", "PKCE methods"),
                               ("SocketHook.java", "Verdict", "socket verdicts"),
                               ("DeviceAuthorization.java", "Field", "device fields"),
                               ("LoginHints.java", "Form", "login hint forms")):
        compare_table(c, h, f"{JAVA}/{file}", family, java_enum(c, file, enum), f"{enum} enum")

    # TelenoridException.forStatus: every error status exactly once, each to a class built with that status.
    file = f"{JAVA}/TelenoridException.java"
    cases: Dict[str, List[str]] = {}
    for m in re.finditer(r"\bcase\s+([A-Z_]+)\s*:\s*return\s+new\s+(\w+)\s*\(", java_source("TelenoridException.java")):
        cases.setdefault(m.group(1), []).append(m.group(2))
    mapped: Dict[str, str] = {}
    for name in h.statuses:
        if name == "OK":
            continue
        classes = cases.pop(name, [])
        if len(classes) != 1:
            c.fail(file, f"case {name} (TELENORID_E_{name})", "exactly one exception class", classes or "none")
            continue
        if classes[0] in mapped:
            c.fail(file, f"case {name}", "its own exception class", f"{classes[0]}, as for {mapped[classes[0]]}")
        mapped[classes[0]] = name
        path = ROOT / JAVA / f"{classes[0]}.java"
        if not path.exists():
            c.fail(file, f"case {name}", "an existing class", classes[0])
            continue
        used = set(re.findall(r"\bStatus\.([A-Z_]+)\.code\(\)", java_source(path.name)))
        c.same(f"{JAVA}/{path.name}", "the status its constructor passes", {name}, used)
    for name, classes in cases.items():
        c.fail(file, f"case {name}", "no such status", classes)
    owners: Dict[str, List[str]] = {}
    for path in sorted((ROOT / JAVA).glob("*Exception.java")):
        for name in set(re.findall(r"\bStatus\.([A-Z_]+)\.code\(\)", java_source(path.name))):
            owners.setdefault(name, []).append(path.stem)
    for name, classes in owners.items():
        if len(classes) > 1:
            c.fail(JAVA, f"exception classes built with Status.{name}", "exactly one", classes)
        elif classes[0] not in mapped:
            c.fail(file, f"mapping for {classes[0]} (Status.{name})", "present", "missing")

    check_exception_names(c, h, mapped)

    file = "bindings/jni/android/build.gradle"
    gradle = re.search(r"^version\s*=\s*'([^']*)'", read(file), re.M)
    c.same(file, "version", h.version, gradle.group(1) if gradle else "missing")


# ------------------------------------------------------------------------------------------------------
# Swift
# ------------------------------------------------------------------------------------------------------

def check_swift(c: Checker, h: Header) -> None:
    file = f"{SWIFT}/StaticCStrings.swift"
    text = read(file)
    version = re.search(r'static\s+var\s+version\b[^{]*\{\s*pointer\(\s*"([^"]*)"\s*\)', text)
    c.same(file, "version literal (TELENORID_VERSION_STRING)", h.version, version.group(1) if version else "missing")

    # The switches that turn header constants into Swift values must name every constant of their family. (The
    # configuration keys have none: the core's key table numbers its settings as the header does, and
    # Tests/TelenoridCoreTests/Configuration/SettingTableTests.swift checks it against the header.)
    for name, families in (("Boundary.swift", ("statuses",)),
                           ("AuthorizationExports.swift", ("authorization parameters", "claim targets",
                                                           "PKCE methods")),
                           ("AuthStateExports.swift", ("token fields",)),
                           ("DeviceAuthorizationExports.swift", ("device fields",)),
                           ("BackchannelAuthExports.swift", ("login hint forms",))):
        file = f"{SWIFT}/{name}"
        used = set(re.findall(r"\bTELENORID_[A-Z0-9_]+\b", read(file)))
        for family in families:
            for suffix in h.families[family]:
                full = h.full_name(family, suffix)
                if full in used:
                    c.agreements += 1
                else:
                    c.fail(file, full, "mapped", "not mentioned")
    for path in sorted((ROOT / SWIFT).glob("*.swift")):
        for name in sorted(set(re.findall(r"\bTELENORID_[A-Z0-9_]+\b", path.read_text(encoding="utf-8")))):
            if name not in h.names:
                c.fail(f"{SWIFT}/{path.name}", name, "no such constant", "used")

    file = "Sources/TelenoridCore/HTTP/HTTPMessage.swift"
    agent = re.search(r'\buserAgent\s*:\s*String\s*=\s*"([^"]*)"', read(file))
    c.same(file, "default userAgent", f"telenorid/{h.version}", agent.group(1) if agent else "missing")


# ------------------------------------------------------------------------------------------------------
# Build files
# ------------------------------------------------------------------------------------------------------

def check_build(c: Checker, h: Header) -> None:
    file = "Makefile"
    line = re.search(r"^VERSION\s*:?=\s*(.*)$", read(file), re.M)
    if line is None:
        c.note(file, "no VERSION")
    elif "telenorid.h" in line.group(1):
        c.agreements += 1  # read from the header by make itself
    else:
        c.same(file, "VERSION", h.version, line.group(1).strip())


def main() -> int:
    c = Checker()
    h = Header(read(HEADER))
    h.check_self(c)
    for check in (check_python, check_java, check_swift, check_build):
        check(c, h)
    if c.problems:
        for problem in c.problems:
            print(f"check_facts: {problem}", file=sys.stderr)
        print(f"check_facts: {len(c.problems)} disagreement(s) with {HEADER}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{len(values)} {family}" for family, values in h.families.items())
    print(f"check_facts: {counts}, MAX_INPUT and version {h.version} agree in {c.agreements} places")
    return 0


if __name__ == "__main__":
    sys.exit(main())
