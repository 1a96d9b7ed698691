"""The JNI bridge's natives as the header gives them: which header function a native of the regular shapes
binds, its Java declaration, its JNI signature and its C adapter. The list of natives, regular and
hand-written, is jni_natives.py's."""
from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Tuple

from header import CType, Declarations, Function, Parameter, resolve

# Java names of the header's object prefixes where the Java side names the object differently.
JAVA_PREFIXES = (("telenorid_authorization_callback_", "callback_"), ("telenorid_line_authenticator_", "line_auth_"),
                 ("telenorid_loopback_listener_", "loopback_"), ("telenorid_", ""))

JNI_TYPES = {"long": ("J", "jlong"), "int": ("I", "jint"), "boolean": ("Z", "jboolean"), "void": ("V", "void"),
             "byte[]": ("[B", "jbyteArray"), "byte[][]": ("[[B", "jobjectArray"), "int[]": ("[I", "jintArray")}
PACKAGE = "no/telenor/id"


def camel(snake: str) -> str:
    words = snake.split("_")
    return words[0] + "".join(word.capitalize() for word in words[1:])


def java_name(function: str) -> str:
    for prefix, java in JAVA_PREFIXES:
        if function.startswith(prefix):
            return camel(java + function[len(prefix):])
    raise AssertionError(function)


def adapter_name(java: str) -> str:
    """The C adapter of a native: n_ and the Java name in snake case (clientSetDPoPSigner: n_client_set_dpop_signer)."""
    return "n_" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", java.replace("DPoP", "Dpop")).lower()


class JavaDeclaration(NamedTuple):
    restype: str
    name: str
    parameters: List[Tuple[str, str]]  # (Java type, name)

    def text(self) -> str:
        return f"{self.restype} {self.name}({', '.join(f'{t} {n}' for t, n in self.parameters)})"

    def signature(self) -> str:
        return "(" + "".join(jni_code(t) for t, _ in self.parameters) + ")" + jni_code(self.restype)


# Classes of java.lang a native takes (the others are no.telenor.id's).
JAVA_LANG = ("Runnable", "String", "Object")


def jni_code(java_type: str) -> str:
    if java_type in JNI_TYPES:
        return JNI_TYPES[java_type][0]
    return f"L{'java/lang' if java_type in JAVA_LANG else PACKAGE}/{java_type};"


def c_type(java_type: str) -> str:
    return JNI_TYPES[java_type][1] if java_type in JNI_TYPES else "jobject"


def parse_java(text: str) -> JavaDeclaration:
    match = re.fullmatch(r"([\w.\[\]]+) (\w+)\((.*)\)", text)
    if match is None:
        raise SystemExit(f"scripts/gen: jni_natives.py: not a Java declaration: {text!r}")
    parameters = []
    for parameter in filter(None, (p.strip() for p in match.group(3).split(","))):
        java_type, name = parameter.rsplit(" ", 1)
        parameters.append((java_type, name))
    return JavaDeclaration(match.group(1), match.group(2), parameters)


class Regular(NamedTuple):
    """A native the generator writes whole: one library call and its result."""
    function: Function
    declaration: JavaDeclaration
    adapter: str  # the C adapter's name


def is_handle(ctype: CType, found: Declarations) -> bool:
    return resolve(found, ctype.base) in found.structs and ctype.depth == 1


def is_integer(ctype: CType, found: Declarations) -> bool:
    integers = dict(found.integers)
    return ctype.depth == 0 and (ctype.base == "int32_t" or integers.get(ctype.base) == "int32_t")


def regular(found: Declarations, name: str) -> Tuple[Optional[Regular], str]:
    """The regular native of the header function `name`, or None and why it is not regular."""
    functions = {function.name: function for function in found.functions}
    if name not in functions:
        return None, "not in the header"
    function = functions[name]
    parameters: List[Parameter] = list(function.parameters)
    java: List[Tuple[str, str]] = []
    if function.restype == CType("void", False, 0):
        if len(parameters) == 1 and is_handle(parameters[0].ctype, found) and name.endswith("_free"):
            java = [("long", camel(parameters[0].name))]
            return Regular(function, JavaDeclaration("void", java_name(name), java), adapter_name(java_name(name))), ""
        return None, "returns nothing and is not a free function"
    if function.restype != CType("telenorid_status", False, 0):
        return None, "does not return a telenorid_status"
    result = "void"
    if parameters and parameters[-1].name == "out":
        out = parameters.pop().ctype
        base = resolve(found, out.base)
        if base == "char" and out.depth == 2 and not out.const_base:
            result = "byte[]"
        elif base in found.structs and out.depth == 2:
            result = "long"
        elif out.depth == 1 and is_integer(CType(out.base, False, 0), found):
            result = "int"
        elif out.depth == 1 and out.base == "int64_t":
            result = "long"
        else:
            return None, f"an output of type {out}"
    for parameter in parameters:
        ctype = parameter.ctype
        if is_handle(ctype, found):
            java.append(("long", camel(parameter.name)))
        elif ctype.base == "char" and ctype.depth == 1 and ctype.const_base:
            java.append(("byte[]", camel(parameter.name)))
        elif is_integer(ctype, found):
            java.append(("int", camel(parameter.name)))
        elif ctype == CType("int64_t", False, 0):
            java.append(("long", camel(parameter.name)))
        else:
            return None, f"the parameter {parameter.name} of type {ctype}"
    declaration = JavaDeclaration(result, java_name(name), java)
    return Regular(function, declaration, adapter_name(declaration.name)), ""


def adapter(found: Declarations, native: Regular) -> List[str]:
    """The C adapter of a regular native: each string in, one library call, each string released, the result."""
    function, declaration = native.function, native.declaration
    c_parameters = ["JNIEnv *env", "jclass cls"]
    strings: List[str] = []
    arguments: List[str] = []
    for parameter, (java_type, java) in zip(function.parameters, declaration.parameters):
        ctype = parameter.ctype
        if java_type == "byte[]":
            c_parameters.append(f"jbyteArray {parameter.name}_bytes")
            strings.append(parameter.name)
            arguments.append(f"{parameter.name}.chars")
        elif is_handle(ctype, found):
            c_parameters.append(f"jlong {parameter.name}")
            arguments.append(f"HANDLE({'const ' if ctype.const_base else ''}{ctype.base}, {parameter.name})")
        else:
            c_parameters.append(f"{c_type(java_type)} {parameter.name}")
            arguments.append(f"({ctype.base}){parameter.name}")
    restype = c_type(declaration.restype)
    lines = [f"/* {function.name} */", f"static {restype} {native.adapter}({', '.join(c_parameters)})", "{"]
    if function.restype.base == "void":
        lines += ["    (void)env;", "    (void)cls;", f"    {function.name}({', '.join(arguments)});", "}"]
        return lines
    lines.append("    (void)cls;")
    out = function.parameters[-1].ctype if function.parameters and function.parameters[-1].name == "out" else None
    if out is not None:
        initial = "NULL" if out.depth == 2 else "0"
        lines.append(f"    {'const ' if out.const_base else ''}{out.base} {'*' * (out.depth - 1)}out = {initial};")
        arguments.append("&out")
    if strings:
        lines.append(f"    in_string {', '.join(f'{s} = {{0}}' for s in strings)};")
    failed = {"void": None, "byte[]": "NULL", "long": "0", "int": "0"}[declaration.restype]
    if failed is not None:
        lines.append(f"    {restype} result = {failed};")
    call = f"telenorid_status status = {function.name}({', '.join(arguments)});"
    finishes = {"void": "void_result(env, status);", "byte[]": "result = string_result(env, status, out);",
              "long": ("result = handle_result(env, status, out);" if out is not None and out.depth == 2
                       else "void_result(env, status);\nif (status == TELENORID_OK) {\n    result = (jlong)out;\n}"),
              "int": "void_result(env, status);\nif (status == TELENORID_OK) {\n    result = (jint)out;\n}"}
    finish = finishes[declaration.restype]
    indent = "    "
    if strings:
        condition = " &&\n        ".join(f'in_string_get(env, {s}_bytes, "{camel(s)}", &{s})' for s in strings)
        lines.append(f"    if ({condition}) {{")
        indent = "        "
    lines.append(indent + call)
    lines += [indent + line for line in finish.split("\n")]
    if strings:
        lines.append("    }")
        lines += [f"    in_string_release(&{s});" for s in strings]
    if failed is not None:
        lines.append("    return result;")
    lines.append("}")
    return lines


def camel_to_snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
