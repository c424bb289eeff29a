#!/usr/bin/env python3
"""Copies the code of Tests/MeridianTests/ArticleExamplesTests.swift (between `// article: NAME N`
and `// end`) into the Swift blocks of the articles, in order, so that an article shows exactly
the code the tests run, and the README's table of what bad input gets (between
`<!-- bad-input-table -->` markers) into GeoCore's article BadInput.md. `Scripts/check-articles.py`
checks the result in CI."""
import glob
import re

tests = open("Tests/MeridianTests/ArticleExamplesTests.swift").read()
blocks = {}
for m in re.finditer(r"// article: (\S+) (\d+)\n(.*?)\n\s*// end", tests, re.S):
    body = m.group(3).split("\n")
    indent = min(len(l) - len(l.lstrip()) for l in body if l.strip())
    blocks[(m.group(1), m.group(2))] = "\n".join(l[indent:] for l in body)

for path in sorted(glob.glob("Sources/*/*.docc/*.md")):
    text = open(path).read()
    if text.startswith("# ``"):
        continue
    name = path.rsplit("/", 1)[-1][:-3]
    counter = iter(range(1, 1000))
    def replace(match):
        key = (name, str(next(counter)))
        return "```swift\n" + blocks.get(key, match.group(1).rstrip("\n")) + "\n```"
    updated = re.sub(r"```swift\n(.*?)```", replace, text, flags=re.S)
    if updated != text:
        open(path, "w").write(updated)
        print(f"updated {path}")

marker = re.compile(r"<!-- bad-input-table -->\n.*?<!-- /bad-input-table -->", re.S)
table = marker.search(open("README.md").read()).group(0)
article = "Sources/GeoCore/GeoCore.docc/BadInput.md"
text = open(article).read()
updated = marker.sub(lambda _: table, text)
if updated != text:
    open(article, "w").write(updated)
    print(f"updated {article}")
