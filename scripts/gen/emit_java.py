"""The Java and JNI mirrors of the header: Status.java (the status codes), the Key enum's constants in
Config.java and the token type identifiers in TokenType.java (generated regions: the rest of those classes is
hand-written), Native.java whole, and the bridge's
telenorid_jni_natives.c (the adapters of the regular shapes and the registration table of every native) with
telenorid_jni_natives.h (the prototypes of the hand-written adapters: the extern list)."""
from __future__ import annotations

import html
import textwrap
from typing import Dict, List, Union

import jni
from header import ROOT, Declarations
from jni_natives import NATIVES, ON_LOAD, Section
from output import GENERATED, WIDTH, region

JAVA = "bindings/jni/src/main/java/no/telenor/id"
Entry = Union[Section, jni.Regular, jni.JavaDeclaration]
BRIDGE = "bindings/jni/src/main/c"


def javadoc(text: str, indent: str) -> List[str]:
    """A Javadoc comment of the header's text (HTML-escaped: `<token>`, `>=`), wrapped to WIDTH."""
    if not text:
        return []
    body = html.escape(text, quote=False).replace("*/", "*&#47;").replace("@", "{@literal @}")
    one = f"{indent}/** {body} */"
    if len(one) <= WIDTH:
        return [one]
    lines = textwrap.wrap(body, WIDTH - len(indent) - 3, break_long_words=False, break_on_hyphens=False)
    return [f"{indent}/**"] + [f"{indent} * {line}" for line in lines] + [f"{indent} */"]


def status(found: Declarations) -> str:
    statuses = found.families["statuses"]
    size = max(constant.value for constant in statuses) + 1
    out = [
        f"// {GENERATED}",
        "package no.telenor.id;",
        "",
        "/**",
        " * The library's status codes ({@code TELENORID_OK} and {@code TELENORID_E_*} in telenorid.h, whose",
        " * comments these are). The codes are append-only in C and never renumbered; a code this binding does not",
        " * know yet maps to {@link #UNKNOWN}.",
        " */",
        "public enum Status {",
    ]
    for constant in statuses:
        out += javadoc(constant.comment, "    ")
        out.append(f"    {constant.suffix}({constant.value}),")
    out += [
        "    /** A code from a newer library than this binding. */",
        "    UNKNOWN(-1);",
        "",
        f"    private static final Status[] BY_CODE = new Status[{size}];",
        "",
        "    static {",
        "        for (Status status : values()) {",
        "            if (status.code >= 0) {",
        "                BY_CODE[status.code] = status;",
        "            }",
        "        }",
        "    }",
        "",
        "    private final int code;",
        "",
        "    Status(int code) {",
        "        this.code = code;",
        "    }",
        "",
        "    /** The C value; -1 for {@link #UNKNOWN}. */",
        "    public int code() {",
        "        return code;",
        "    }",
        "",
        "    /**",
        "     * True when a failure with this status may pass on its own, so the same call may succeed later with",
        "     * nothing changed. The library's rule ({@code telenorid_status_is_transient}), asked, not copied: see",
        "     * {@link Telenorid#isTransient(int)}. False for {@link #UNKNOWN}.",
        "     */",
        "    public boolean isTransient() {",
        "        return Telenorid.isTransient(code);",
        "    }",
        "",
        "    /** The status of a C value, {@link #UNKNOWN} when this binding does not know it. */",
        "    public static @NonNull Status of(int code) {",
        "        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;",
        "    }",
        "}",
    ]
    return "\n".join(out) + "\n"


def config_keys(found: Declarations, indent: str) -> str:
    keys = found.families["config keys"]
    out: List[str] = []
    for index, constant in enumerate(keys):
        out += javadoc(constant.comment, indent)
        out.append(f"{indent}{constant.suffix}({constant.value}){';' if index == len(keys) - 1 else ','}")
    return "\n".join(out) + "\n"


def token_types(found: Declarations, indent: str) -> str:
    """The token type identifiers (TELENORID_TOKEN_TYPE_*, RFC 8693 §3) as String constants."""
    prefix = "TELENORID_TOKEN_TYPE_"
    out: List[str] = []
    for name, value in found.defines.items():
        if name.startswith(prefix) and value.startswith('"'):
            out.append(f"{indent}/** {{@code {name}}}: {{@code {value[1:-1]}}}. */")
            out.append(f"{indent}public static final @NonNull String {name[len(prefix):]} = {value};")
    return "\n".join(out) + "\n"


def natives(found: Declarations) -> List[Entry]:
    """NATIVES with each header function's name replaced by its jni.Regular."""
    resolved: List[Entry] = []
    for entry in NATIVES:
        if isinstance(entry, Section):
            resolved.append(entry)
        elif entry.startswith("telenorid_"):
            native, why = jni.regular(found, entry)
            if native is None:
                raise SystemExit(f"scripts/gen: jni_natives.py: {entry} is not of a regular shape ({why}): give the "
                                 "Java declaration of its hand-written adapter instead")
            resolved.append(native)
        else:
            resolved.append(jni.parse_java(entry))
    names = [entry.declaration.name if isinstance(entry, jni.Regular) else entry.name
             for entry in resolved if not isinstance(entry, Section)]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SystemExit(f"scripts/gen: jni_natives.py: natives declared twice: {', '.join(twice)}")
    return resolved


NATIVE_HEAD = '''package no.telenor.id;

/**
 * The natives of the JNI bridge, one per C function or close to it: generated from include/telenorid.h and
 * scripts/gen/jni_natives.py, as are the bridge's adapters of the regular shapes and its registration table
 * (src/main/c/telenorid_jni_natives.c); the others are hand-written in src/main/c/telenorid_jni_*.c.
 *
 * <p>Package-private: the public classes wrap these. Conventions, as in the bridge:
 * <ul>
 *   <li>{@code long} arguments and results are native handles; {@code 0} is never passed in.
 *   <li>{@code byte[]} is a UTF-8 string ({@link Utf8}); {@code null} is a C {@code NULL} both ways.
 *   <li>A failed call throws the {@link TelenoridException} subclass for its status, built by
 *       {@link TelenoridException#fromNative}; an embedded NUL in a string is an
 *       {@link IllegalArgumentException}.
 * </ul>
 *
 * <p>The bridge registers these with {@code RegisterNatives} in {@code JNI_OnLoad}. Keep this class and
 * {@link TelenoridException#fromNative} from being renamed by R8/ProGuard (android/consumer-rules.pro).
 */
final class Native {
    static {
        load();
    }

    private Native() {
    }

    /** Forces the class (and so the library) to load; throws {@link UnsatisfiedLinkError} when it can't. */
    static void ensureLoaded() {
    }

    private static void load() {
        NativeLoader.load();
        checkCompatible(version(), headerVersion());
        LogSink.install();
    }

    /**
     * The header's rule: the library's major version must equal the one the bridge was compiled against,
     * its minor must be at least that one's.
     */
    static void checkCompatible(int library, int header) {
        int libraryMajor = library >>> 16, libraryMinor = (library >>> 8) & 0xff;
        int headerMajor = header >>> 16, headerMinor = (header >>> 8) & 0xff;
        if (libraryMajor != headerMajor || libraryMinor < headerMinor) {
            throw new UnsatisfiedLinkError("libtelenorid " + Telenorid.formatVersion(library)
                    + " is not compatible with the bridge, which was built against "
                    + Telenorid.formatVersion(header));
        }
    }
'''


def wrap_declaration(declaration: jni.JavaDeclaration) -> List[str]:
    head = f"    static native {declaration.restype} {declaration.name}("
    parameters = [f"{t} {n}" for t, n in declaration.parameters]
    lines = [head]
    for index, parameter in enumerate(parameters):
        piece = parameter + (", " if index < len(parameters) - 1 else "")
        if len(lines[-1]) + len(piece.rstrip()) + 2 > WIDTH:
            lines[-1] = lines[-1].rstrip()
            lines.append("            " + piece)
        else:
            lines[-1] += piece
    lines[-1] += ");"
    return lines


def native_java(entries: List[Entry]) -> str:
    out = [f"// {GENERATED}", NATIVE_HEAD.rstrip("\n")]
    for entry in entries:
        if isinstance(entry, Section):
            out += ["", *textwrap.wrap(entry.title, WIDTH - 7, initial_indent="    // ", subsequent_indent="    // ")]
            continue
        out += wrap_declaration(entry.declaration if isinstance(entry, jni.Regular) else entry)
    out.append("}")
    return "\n".join(out) + "\n"


def natives_h(entries: List[Entry]) -> str:
    out = [
        f"/* {GENERATED}",
        " *",
        " * telenorid_jni_natives.h: the hand-written adapters of the bridge (each in the file of its family) and",
        " * what JNI_OnLoad calls before registering them, declared for telenorid_jni_natives.c's table. The",
        " * compiler checks each definition against its line here, and this list is scripts/gen/jni_natives.py's. */",
        "#ifndef TELENORID_JNI_NATIVES_H",
        "#define TELENORID_JNI_NATIVES_H",
        "",
        "#include <jni.h>",
        "#include <stddef.h>",
        "",
    ]
    for name in ON_LOAD:
        out.append(f"int {name}(JNIEnv *env);")
    out.append("")
    for entry in entries:
        if isinstance(entry, jni.JavaDeclaration):
            parameters = ", ".join(["JNIEnv *env", "jclass cls"] + [f"{jni.c_type(t)} {jni.camel_to_snake(n)}"
                                                                   for t, n in entry.parameters])
            line = f"{jni.c_type(entry.restype)} {jni.adapter_name(entry.name)}({parameters});"
            out += wrap_c(line)
    out += ["", "/* The table of every native, and what runs before it is registered: in JNI_OnLoad. */",
            "extern const JNINativeMethod natives[];", "extern const jint natives_count;",
            "extern int (*const natives_on_load[])(JNIEnv *env);", "extern const size_t natives_on_load_count;", "",
            "#endif"]
    return "\n".join(out) + "\n"


def wrap_c(line: str) -> List[str]:
    """A declaration or a call over WIDTH broken after its top-level commas, aligned after its first parenthesis
    (or, when that leaves no room, indented one step more than the line)."""
    if len(line) <= WIDTH:
        return [line]
    open_at = line.index("(") + 1
    pieces, depth, start = [], 0, open_at
    for index in range(open_at, len(line)):
        if line[index] == "(":
            depth += 1
        elif line[index] == ")":
            depth -= 1
        elif line[index] == "," and depth == 0:
            pieces.append(line[start:index + 1])
            start = index + 2
    pieces.append(line[start:])
    indent = " " * open_at
    if open_at + max(len(piece) for piece in pieces) > WIDTH:
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        lines = [line[:open_at]]
    else:
        lines = [line[:open_at] + pieces.pop(0)]
    for piece in pieces:
        if len(lines[-1]) + 1 + len(piece) <= WIDTH and lines[-1].strip() != line[:open_at].strip():
            lines[-1] += " " + piece
        else:
            lines.append(indent + piece)
    return lines


def natives_c(found: Declarations, entries: List[Entry]) -> str:
    out = [
        f"/* {GENERATED}",
        " *",
        " * telenorid_jni_natives.c: the natives of the regular shapes (scripts/gen/jni.py: a free function, or one",
        " * library call with its strings converted in and its result converted out, a failed status thrown as its",
        " * exception) and the registration table of every native, in Native.java's order. */",
        '#include "telenorid_jni_bridge.h"',
        "",
    ]
    table: List[str] = []
    for entry in entries:
        if isinstance(entry, Section):
            continue
        if isinstance(entry, jni.Regular):
            out += [wrapped for lines in jni.adapter(found, entry) for line in lines.split("\n")
                    for wrapped in wrap_c(line)] + [""]
            declaration, adapter = entry.declaration, entry.adapter
        else:
            declaration, adapter = entry, jni.adapter_name(entry.name)
        table.append(f'    NATIVE("{declaration.name}", "{declaration.signature()}", {adapter}),')
    out += ["const JNINativeMethod natives[] = {", *table, "};",
            "const jint natives_count = (jint)(sizeof natives / sizeof natives[0]);", "",
            "int (*const natives_on_load[])(JNIEnv *env) = {", *(f"    {name}," for name in ON_LOAD), "};",
            "const size_t natives_on_load_count = sizeof natives_on_load / sizeof natives_on_load[0];"]
    return "\n".join(out) + "\n"


def files(found: Declarations) -> Dict[str, str]:
    entries = natives(found)
    config_path = f"{JAVA}/Config.java"
    config = region((ROOT / config_path).read_text(encoding="utf-8"), config_path, "TELENORID_CONFIG_*",
                    lambda indent: config_keys(found, indent))
    types_path = f"{JAVA}/TokenType.java"
    types = region((ROOT / types_path).read_text(encoding="utf-8"), types_path, "TELENORID_TOKEN_TYPE_*",
                   lambda indent: token_types(found, indent))
    return {f"{JAVA}/Status.java": status(found), config_path: config, types_path: types,
            f"{JAVA}/Native.java": native_java(entries),
            f"{BRIDGE}/telenorid_jni_natives.h": natives_h(entries),
            f"{BRIDGE}/telenorid_jni_natives.c": natives_c(found, entries)}
