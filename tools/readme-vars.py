#!/usr/bin/env python3
"""Regenerates README.md's configuration table from webapp-server/platform/src/config.rs VARIABLES.
Run from the repository root: python3 tools/readme-vars.py. Replaces the rows after the `| variable | default | what |` header; tests/api/docs.rs checks that README.md matches it row for row."""
import re
src = open('webapp-server/platform/src/config.rs').read()
block = src[src.index('pub const VARIABLES'):]
block = block[:block.index('\n];')]
pat = re.compile(r'var\(\s*"([^"]+)",\s*(None|Some\(\s*"((?:[^"\\]|\\.)*)",?\s*\)),\s*(true|false),\s*"((?:[^"\\]|\\.)*)",?\s*\)', re.S)
# A Rust string's `\` at a line's end drops the line break and the next line's indentation.
unwrap = lambda text: re.sub(r'\\\n\s*', '', text) if text is not None else None
rows = []
for m in pat.finditer(block):
    env, _, default, secret, doc = m.groups()
    default, doc = unwrap(default), unwrap(doc)
    doc = doc.replace('\\"', '"').replace('|', '\\|')
    d = 'empty' if default == '' else (f'`{default}`' if default is not None else 'unset')
    if secret == 'true':
        doc += ' **Secret.**'
    rows.append(f'| `{env}` | {d} | {doc} |')
n = block.count('var(')
assert len(rows) == n, f'parsed {len(rows)} of {n} var( entries'
lines = open('README.md').read().split('\n')
h = lines.index('| variable | default | what |')
end = h + 2
while end < len(lines) and lines[end].startswith('|'):
    end += 1
lines[h + 2:end] = rows
open('README.md', 'w').write('\n'.join(lines))
print(f'{len(rows)} variables')
