#!/usr/bin/env python3
"""What each crate, and each of cctv's modules, costs in a wasm file: the bytes of its functions'
code, by the names in the file's name section. (Issue 34: measure before choosing what a page's
first module leaves to the engine's.)

    python3 scripts/wasm-sizes.py [WASM]

WASM must still have its names: cargo's own output, before wasm-bindgen and wasm-opt strip them.
By default, the viewer `make build` compiled: $CARGO_TARGET_DIR (as the Makefile sets it:
~/.cache/cctv-target)/wasm32-unknown-unknown/wasm-release/viewer.wasm. A generic function is counted where its impl's type comes from (serde's
`deserialize_struct` for serde_json's `Deserializer` is serde_json's, whatever it deserializes):
inlining already blurs the lines, so the figures say where the weight is, not its exact split.
"""

import os
import re
import sys
from collections import Counter


def leb128(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def sections(data):
    """(id, start, end) of each section."""
    at = 8
    while at < len(data):
        kind = data[at]
        size, at = leb128(data, at + 1)
        yield kind, at, at + size
        at += size


def imported_functions(data, at):
    count, at = leb128(data, at)
    functions = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            length, at = leb128(data, at)
            at += length
        kind = data[at]
        at += 1
        if kind == 0:  # a function: its type index
            _, at = leb128(data, at)
            functions += 1
        elif kind == 1:  # a table: element type, limits
            flags = data[at + 1]
            _, at = leb128(data, at + 2)
            if flags & 1:
                _, at = leb128(data, at)
        elif kind == 2:  # a memory: limits
            flags = data[at]
            _, at = leb128(data, at + 1)
            if flags & 1:
                _, at = leb128(data, at)
        elif kind == 3:  # a global: type, mutability
            at += 2
        elif kind == 4:  # a tag: attribute, type index
            _, at = leb128(data, at + 1)
        else:
            sys.exit(f"an import of a kind this script does not read ({kind})")
    return functions


def body_sizes(data, at):
    count, at = leb128(data, at)
    sizes = []
    for _ in range(count):
        size, at = leb128(data, at)
        sizes.append(size)
        at += size
    return sizes


def function_names(data, at, end):
    length, at = leb128(data, at)
    if data[at : at + length] != b"name":
        return {}
    at += length
    names = {}
    while at < end:
        sub = data[at]
        size, at = leb128(data, at + 1)
        if sub == 1:
            count, k = leb128(data, at)
            for _ in range(count):
                index, k = leb128(data, k)
                length, k = leb128(data, k)
                names[index] = data[k : k + length].decode("utf-8", "replace")
                k += length
        at += size
    return names


ESCAPES = [("$LT$", "<"), ("$GT$", ">"), ("$RF$", "&"), ("$BP$", "*"), ("$u20$", " "), ("$C$", ","), ("..", "::")]


def demangled(name):
    """A legacy Rust symbol (`_ZN4core3fmt5write17h…E`) as its path; other names as they are."""
    match = re.match(r"_?_ZN(.*)E$", name)
    if not match:
        return name
    mangled, parts, at = match.group(1), [], 0
    while at < len(mangled) and mangled[at].isdigit():
        digits = re.match(r"\d+", mangled[at:]).group()
        at += len(digits)
        parts.append(mangled[at : at + int(digits)])
        at += int(digits)
    path = "::".join(part for part in parts if not re.fullmatch(r"h[0-9a-f]{16}", part))
    for escape, text in ESCAPES:
        path = path.replace(escape, text)
    return path.lstrip("_")


def crate_of(path):
    """The crate a function's path starts with, inside `<&mut … as …>` if it is an impl."""
    inner = re.sub(r"^[<&\s]*(?:(?:mut|dyn|const) )*[<&\s]*", "", path)
    word = re.match(r"[A-Za-z0-9_]+", inner)
    crate = word.group() if word else "(other)"
    # `<T as Trait>::f`: a blanket impl, counted with the trait's crate.
    if len(crate) <= 3 and crate[:1].isupper():
        trait = re.search(r" as ([A-Za-z0-9_]+)", inner)
        crate = trait.group(1) if trait else "(other)"
    return crate


def module_of(path):
    """cctv's module (two levels deep for the layers) a function of cctv's belongs to."""
    match = re.search(r"\bcctv::([a-z_]+)(?:::([a-z_]+))?", path)
    if not match:
        return None
    layer, module = match.groups()
    layered = ("model", "normalize", "present", "insight", "redact", "export", "ui", "browser")
    return f"{layer}::{module}" if module and layer in layered else layer


def main():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.expanduser("~/.cache/cctv-target")
    path = sys.argv[1] if len(sys.argv) > 1 else f"{target}/wasm32-unknown-unknown/wasm-release/viewer.wasm"
    if not os.path.exists(path):
        sys.exit(f"{path}: no such file (make build writes it; or give a wasm's path)")
    with open(path, "rb") as file:
        data = file.read()
    imports, sizes, names, data_bytes = 0, [], {}, 0
    for kind, start, end in sections(data):
        if kind == 2:
            imports = imported_functions(data, start)
        elif kind == 10:
            sizes = body_sizes(data, start)
        elif kind == 11:
            data_bytes = end - start
        elif kind == 0:
            names = names or function_names(data, start, end)
    if not names:
        sys.exit(f"{path} has no names: give cargo's own output, not what wasm-bindgen or wasm-opt wrote")
    crates, modules = Counter(), Counter()
    for index, size in enumerate(sizes):
        path_of = demangled(names.get(imports + index, "?"))
        crates[crate_of(path_of)] += size
        module = module_of(path_of)
        if module:
            modules[module] += size
    code = sum(sizes)
    print(f"{path}: code {code / 1e6:.2f} MB in {len(sizes)} functions, data {data_bytes / 1e6:.2f} MB")
    print("\nby crate:")
    for crate, size in crates.most_common(25):
        print(f"{size / 1e3:8.0f} kB {100 * size / code:5.1f}%  {crate}")
    print("\ncctv's own, by module:")
    for module, size in modules.most_common(30):
        print(f"{size / 1e3:8.0f} kB {100 * size / code:5.1f}%  {module}")


if __name__ == "__main__":
    main()
