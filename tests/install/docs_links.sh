#!/usr/bin/env bash
# The documentation's relative links (issue #28): every [text](target) and ![alt](target) in
# README.md, docs/*.md and the other guides names a file or directory that exists in the
# repository, and a #anchor names a heading of the target page (GitHub's anchors: lower case,
# punctuation dropped, spaces as '-', a repeated heading -1, -2, ...). Links inside code
# blocks and code spans are text, not links; http(s) and mailto links are not followed.
#   tests/install/docs_links.sh SOURCE_DIR [FILE.md ...]   (default: README.md docs/*.md
#   python/README.md bench/README.md format-specs/*.md tests/interop/README.md)
# A broken link is named with its file and line: fix the link, or the heading it points at.
set -euo pipefail
src=$1
shift
cd "$src"
if [ $# -eq 0 ]; then
  set -- README.md docs/*.md python/README.md bench/README.md format-specs/*.md \
    tests/interop/README.md
fi
exec python3 - "$@" <<'PY'
import os, re, sys, urllib.parse

def strip_code(lines):
    """Lines with fenced blocks blanked and `code spans` removed (their text is no link)."""
    out, fence = [], None
    for line in lines:
        m = re.match(r'^ {0,3}(`{3,}|~{3,})', line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append('')
            continue
        if m:
            fence = m.group(1)
            out.append('')
            continue
        out.append(re.sub(r'(`+)(.+?)\1', '', line))
    return out

def slug(text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)   # a link in a heading: its text
    text = re.sub(r'<[^>]+>', '', text).strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, names = {}, set()
        with open(path, encoding='utf-8') as f:
            raw = f.read().split('\n')
        fence = None
        for line in raw:
            m = re.match(r'^ {0,3}(`{3,}|~{3,})', line)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            h = re.match(r'^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if not h:
                continue
            s = slug(h.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            names.add(s if n == 0 else '%s-%d' % (s, n))
        for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', '\n'.join(raw)):
            names.add(a)
        anchors_cache[path] = names
    return anchors_cache[path]

link = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
bad = checked = 0
for md in sys.argv[1:]:
    if not os.path.isfile(md):
        print('FAIL: %s: no such file' % md)
        bad += 1
        continue
    with open(md, encoding='utf-8') as f:
        lines = strip_code(f.read().split('\n'))
    for no, line in enumerate(lines, 1):
        for target in link.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):   # http:, https:, mailto:
                continue
            checked += 1
            path, _, frag = target.partition('#')
            path = urllib.parse.unquote(path)
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            where = '%s:%d: (%s)' % (md, no, target)
            if not os.path.exists(dest):
                print('FAIL: %s: %s does not exist' % (where, dest))
                bad += 1
                continue
            if frag:
                if not dest.endswith('.md') or os.path.isdir(dest):
                    print('FAIL: %s: an anchor into %s, which is not a Markdown page' % (where, dest))
                    bad += 1
                elif urllib.parse.unquote(frag).lower() not in anchors(dest):
                    print('FAIL: %s: %s has no heading #%s' % (where, dest, frag))
                    bad += 1
if bad:
    print('docs_links: %d of %d relative links broken' % (bad, checked))
    sys.exit(1)
print('docs_links: %d relative links in %d files resolve' % (checked, len(sys.argv) - 1))
PY
