#!/usr/bin/env bash
# What each part of libtelenorid.so costs: links the Embedded library (scripts/embedded.sh) with a linker map
# (lld's -Map) and prints the stripped size, the bytes each group brings into the loaded sections (what
# `strip` keeps; .bss takes no file space and is left out), our largest source modules' parts and the largest
# single input sections (functions and tables), demangled. In Embedded Swift the standard library is compiled
# into our own objects, so the groups go by symbol: `$e13TelenoridCore...` is the core's, `$e9Telenorid...`
# the export layer's, `$es...` the standard library's, `swift_*` the embedded runtime's. It also links the
# floor: an Embedded library with one empty export, linked the same way.
#   bash scripts/size_map.sh [MAP] [N]   MAP: where the map goes (default out/size/telenorid.map), N: rows per list
#   bash scripts/size_map.sh --compare OLD NEW   two maps group by group (another commit's, made the same way)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-$([ -x .venv/bin/python ] && echo .venv/bin/python || echo python3)}

if [ "${1:-}" != --compare ]; then
    mkdir -p out/size
    map=${1:-out/size/telenorid.map}
    TELENORID_LINK_MAP=$map bash scripts/embedded.sh x86_64 out/embedded/x86_64 >&2
    strip -o out/size/telenorid.stripped.so out/embedded/x86_64/libtelenorid.so
    floor=out/size/floor
    mkdir -p "$floor"
    echo '@c(telenorid_version) public func version() -> Int32 { 0 }' > "$floor/floor.swift"
    echo '{ global: telenorid_*; local: *; };' > "$floor/exports.map"
    swiftc -target x86_64-unknown-linux-gnu -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
        -Xcc -fPIC -Xfrontend -function-sections -module-name Floor -c "$floor/floor.swift" -o "$floor/floor.o"
    clang -shared -fuse-ld=lld -o "$floor/libfloor.so" "$floor/floor.o" -Wl,--gc-sections -Wl,--icf=all \
        -Wl,--version-script="$floor/exports.map" -Wl,-Map=out/size/floor.map
    strip -o "$floor/libfloor.stripped.so" "$floor/libfloor.so"
    echo "stripped: $(stat -c %s out/size/telenorid.stripped.so) bytes; the floor (one empty export):" \
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
    name = re.sub(r'^\.(text|rodata|data\.rel\.ro|data|bss)\.', '', section)
    if path == '<internal>':
        return 'linker: ' + section
    if 'libswiftUnicodeDataTables' in path:
        return 'Swift stdlib, Unicode data tables'
    if '/EmbeddedSupport/' in path or re.search(r'/(random|partial_instance|bridge_object)\.o$', path):
        return 'EmbeddedSupport (ours, C)'
    if not path.endswith(('TelenoridCore.o', 'Telenorid.o', 'floor.o')):
        return 'other: ' + re.sub(r'^.*/', '', path)
    if section.startswith('.eh_frame'):
        return 'unwind tables'
    if name.startswith('$e13TelenoridCore'):
        return 'TelenoridCore (ours)'
    if name.startswith('$e9Telenorid') or name.startswith('telenorid_'):
        return 'Telenorid export layer (ours)'
    if name.startswith(('$es', '$eS')):
        return 'Swift stdlib, specialized into the library'
    if name.startswith('swift_') or name.startswith('$e'):
        return 'Swift runtime (embedded) and other Swift'
    return 'unnamed sections (constants, metadata, strings)'


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
            files[g] += size
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

path = sys.argv[1] if len(sys.argv) > 1 else 'out/size/telenorid.map'
rows = int(sys.argv[2]) if len(sys.argv) > 2 else 25
groups, files, pieces = read(path)
print('\nbytes per group in the loaded sections (the stripped file adds headers and alignment), beside the'
      '\nfloor: an Embedded library with one empty export')
compare('out/size/floor.map', path, 'floor', 'library')
print(f'\nours, by part ({rows}):')
for f, n in files.most_common(rows):
    print(f'  {n:10,}  {f}')
top = [p for p in pieces.most_common() if p[0][0] in ('TelenoridCore.o', 'Telenorid.o')][:rows * 2]
print(f'\nour largest functions and tables ({rows * 2}):')
for ((obj, sec), n), name in zip(top, demangle([s for (_, s), _ in top])):
    print(f'  {n:10,}  {obj}: {name[:150]}')
EOF
