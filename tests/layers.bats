#!/usr/bin/env bats
# layers.bats -- src/ARCHITECTURE.md is true of the code: every file of src/
# is in its table of layers, and no file includes a header of a layer above
# its own.

load helpers

# check_layers DIR: print each file of DIR/src missing from the table and
# each include that goes up; exit 1 if there is any.
check_layers ()
{
  python3 - "$1" <<'PY'
import os, re, sys
src = os.path.join(sys.argv[1], "src")
layer = {}
for line in open(os.path.join(src, "ARCHITECTURE.md"), encoding="utf-8"):
    m = re.match(r"\|\s*(\d+)\s[^|]*\|([^|]*)\|", line)
    if m:
        for name in m.group(2).split():
            layer[name] = int(m.group(1))
def layer_of(name):
    """A header's layer is its .c file's, or its own entry's."""
    if name in layer:
        return layer[name]
    return layer.get(re.sub(r"\.h$", ".c", name))
bad = 0
for name in sorted(os.listdir(src)):
    if not re.search(r"\.[ch]$", name):
        continue
    mine = layer_of(name)
    if mine is None:
        print(f"{name}: in no layer of ARCHITECTURE.md")
        bad = 1
        continue
    text = open(os.path.join(src, name), encoding="utf-8").read()
    for inc in re.findall(r'^#\s*include\s+"([^"]+)"', text, re.M):
        if not os.path.exists(os.path.join(src, inc)):
            continue            # config.h, gnulib's
        theirs = layer_of(inc)
        if theirs is None:
            print(f"{name}: includes {inc}, which is in no layer")
            bad = 1
        elif theirs < mine:
            print(f"{name} (layer {mine}) includes {inc} (layer {theirs})")
            bad = 1
for name in sorted(layer):
    if not os.path.exists(os.path.join(src, name)):
        print(f"ARCHITECTURE.md lists {name}, which is not in src/")
        bad = 1
print(f"{len(layer)} files in layers")
sys.exit(bad)
PY
}

@test "every file of src/ is in a layer, and no include goes up" {
  run check_layers "$abs_top_srcdir"
  echo "$output" >&2
  assert_status 0
  [[ $output == *" files in layers" ]]
}

@test "the check finds an include that goes up" {
  local copy=$BATS_TEST_TMPDIR/copy
  mkdir -p "$copy"
  cp -r "$abs_top_srcdir/src" "$copy/src"
  # engine.c (layer 4) including tree.h (layer 2) must be refused.
  sed -i '0,/#include "engine.h"/s//#include "engine.h"\n#include "tree.h"/' \
    "$copy/src/engine.c"
  grep -q '#include "tree.h"' "$copy/src/engine.c"
  run check_layers "$copy"
  echo "$output" >&2
  assert_status 1
  [[ $output == *"engine.c (layer 4) includes tree.h (layer 2)"* ]]
}

@test "the check finds a file in no layer" {
  local copy=$BATS_TEST_TMPDIR/copy
  mkdir -p "$copy"
  cp -r "$abs_top_srcdir/src" "$copy/src"
  printf '/* new.c */\n' > "$copy/src/new.c"
  run check_layers "$copy"
  echo "$output" >&2
  assert_status 1
  [[ $output == *"new.c: in no layer of ARCHITECTURE.md"* ]]
}
