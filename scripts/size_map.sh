#!/usr/bin/env bash
# What each part of libtelenorid.so costs: builds the release library with a linker map (lld's -Map) and
# prints the stripped size, the bytes each group of input objects brings into the loaded sections (what
# `strip` keeps; .bss takes no file space and is left out), our largest object files and the largest
# single input sections (functions and tables), demangled. It also links the floor: a library with one
# empty export, linked the same way, which is what the static Swift runtime and stdlib cost alone.
#   bash scripts/size_map.sh [MAP] [N]   MAP: where the map goes (default .build/telenorid.map), N: rows per list
#   bash scripts/size_map.sh --compare OLD NEW   two maps group by group (another commit's, made the same way)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$([ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)}

if [ "${1:-}" != --compare ]; then
    map=${1:-.build/telenorid.map}
    # swiftc keeps an object file whose LLVM IR is unchanged (.swift_modhash), even when code generation
    # flags (-function-sections) changed: the objects are made again so the map measures the flags given.
    rm -f .build/release/Telenorid.build/*.o .build/release/TelenoridCore.build/*.o
    swift build -c release --product telenorid -Xlinker "-Map=$map" >&2
    strip -o .build/telenorid.stripped.so .build/release/libtelenorid.so
    floor=.build/size-floor
    mkdir -p "$floor"
    echo '@_cdecl("telenorid_version") public func version() -> Int32 { 0 }' > "$floor/floor.swift"
    echo '{ global: telenorid_*; local: *; };' > "$floor/exports.map"
    swiftc -Osize -emit-library -module-name Floor "$floor/floor.swift" -o "$floor/libfloor.so" \
        -static-stdlib -use-ld=lld -Xlinker --icf=all -Xlinker --gc-sections \
        -Xlinker "--version-script=$floor/exports.map" -Xlinker "-Map=.build/floor.map"
    strip -o "$floor/libfloor.stripped.so" "$floor/libfloor.so"
    echo "stripped: $(stat -c %s .build/telenorid.stripped.so) bytes; the floor (one empty export):" \
         "$(stat -c %s "$floor/libfloor.stripped.so") bytes"
fi

"$PYTHON" - "$@" <<'EOF'
import collections, re, subprocess, sys

# lld's map: "VMA LMA Size Align Out In Symbol"; an output section's name starts at column 1 of that
# field, an input section's 8 columns further (a symbol's 16).
ROW = re.compile(r'^\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ ( *)(\S.*)$')
# Sections the stripped file keeps that take file space.
UNLOADED = re.compile(r'^\.(debug|comment|symtab|strtab|shstrtab|bss|tbss)')


def group(path, section):
    if '/TelenoridCore.build/' in path:
        return 'TelenoridCore (ours)'
    if '/Telenorid.build/' in path:
        return 'Telenorid export layer (ours)'
    if path.endswith('(Swift.o)'):
        # The stdlib's Swift.o has one whole .text/.rodata/... (always linked) beside per-function sections
        # (kept only when something reaches them).
        if re.match(r'^\.(text|rodata|data|data\.rel\.ro)$', section) or not section.startswith('.'):
            return 'Swift stdlib, Swift.o whole sections and metadata'
        if section.startswith('.eh_frame'):
            return 'Swift stdlib, Swift.o unwind tables'
        return 'Swift stdlib, Swift.o functions kept by use'
    if re.search(r'\(Unicode\w*\.cpp\.o\)$', path):
        return 'Swift stdlib, Unicode data tables'
    if 'libswiftCore.a(' in path:
        return 'Swift runtime (C++)'
    if path == '<internal>':
        return 'linker: ' + section
    return 'other: ' + re.sub(r'^.*/', '', path)


def read(path):
    groups, files, pieces, out = collections.Counter(), collections.Counter(), collections.Counter(), None
    for line in open(path):
        m = ROW.match(line)
        if not m:
            continue
        size, indent, rest = int(m.group(1), 16), len(m.group(2)), m.group(3)
        if indent == 0:
            out = rest
            continue
        if indent != 8 or UNLOADED.match(out):
            continue
        obj, _, section = rest.rpartition(':(')
        section = section[:-1]
        g = group(obj, section)
        if g.startswith('linker: '):
            g = 'linker: ' + out  # relocations, .eh_frame_hdr, dynamic symbols, GOT/PLT
        groups[g] += size
        if '(ours)' in g:
            files[re.sub(r'^.*/(\w+)\.build/(\w+)\.swift\.o$', r'\1/\2.swift', obj)] += size
        if not section.startswith('.eh_frame'):
            pieces[(re.sub(r'^.*/', '', obj), re.sub(r'^\.(text|rodata|data\.rel\.ro|data)\.', '', section))] += size
    return groups, files, pieces


def demangle(names):
    try:
        return subprocess.run(['swift-demangle', '--simplified'], input='\n'.join(names), capture_output=True,
                              text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return names


def collapse(groups):
    # The linker's own sections under one row beside the groups of objects.
    c = collections.Counter()
    for g, n in groups.items():
        c['linker: relocations, unwind index, merged strings, dynamic symbols' if g.startswith('linker: ') else g] += n
    return c


def compare(old_map, new_map, before='before', after='after'):
    old, new = (collapse(read(p)[0]) for p in (old_map, new_map))
    print(f'  {"group":68} {before:>10} {after:>10} {"change":>9}')
    for g in sorted(set(old) | set(new), key=lambda g: -new[g]):
        if old[g] or new[g]:
            print(f'  {g:68} {old[g]:10,} {new[g]:10,} {new[g] - old[g]:+9,}')
    print(f'  {"total":68} {sum(old.values()):10,} {sum(new.values()):10,} '
          f'{sum(new.values()) - sum(old.values()):+9,}')


if sys.argv[1:2] == ['--compare']:
    compare(sys.argv[2], sys.argv[3])
    sys.exit()

path = sys.argv[1] if len(sys.argv) > 1 else '.build/telenorid.map'
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 25
groups, files, pieces = read(path)
print('\nbytes per group in the loaded sections (the stripped file adds headers and alignment), beside the'
      '\nfloor: what is not ours there is the Swift runtime and stdlib, which our code barely moves')
compare('.build/floor.map', path, 'floor', 'library')
print(f'\nour largest object files ({rows}):')
for f, n in files.most_common(rows):
    print(f'  {n:10,}  {f}')
top = [p for p in pieces.most_common() if p[0][0].endswith('.swift.o')][:rows * 2]
print(f'\nour largest functions and tables ({rows * 2}):')
for ((obj, sec), n), name in zip(top, demangle([s for (_, s), _ in top])):
    print(f'  {n:10,}  {obj}: {name[:150]}')
EOF
