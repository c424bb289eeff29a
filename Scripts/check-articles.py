#!/usr/bin/env python3
"""Checks that every Swift code block of the documentation articles is code the tests compile and
run: each block must appear, line for line (indentation aside), between an `// article: NAME N`
marker and `// end` in Tests/MeridianTests/ArticleExamplesTests.swift; and that GeoCore's article
BadInput.md holds the README's table of what bad input gets. Exits 1 on a mismatch."""
import glob
import re
import sys

def lines(text):
    return [l.strip() for l in text.strip("\n").split("\n")]

tests = open("Tests/MeridianTests/ArticleExamplesTests.swift").read()
compiled = {}
for m in re.finditer(r"// article: (\S+) (\d+)\n(.*?)\n\s*// end", tests, re.S):
    compiled[(m.group(1), m.group(2))] = lines(m.group(3))

status = 0
checked = 0
for path in sorted(glob.glob("Sources/*/*.docc/*.md")):
    name = path.rsplit("/", 1)[-1][:-3]
    text = open(path).read()
    # The module pages ("# ``GeoCore``") show code from elsewhere; the articles' code is compiled.
    if text.startswith("# ``"):
        continue
    for k, m in enumerate(re.finditer(r"```swift\n(.*?)```", text, re.S), start=1):
        block = lines(m.group(1))
        if compiled.get((name, str(k))) != block:
            print(f"{path}: block {k} is not the code of '// article: {name} {k}' in the tests")
            status = 1
        checked += 1
marker = re.compile(r"<!-- bad-input-table -->\n.*?<!-- /bad-input-table -->", re.S)
readme_table = marker.search(open("README.md").read())
article_table = marker.search(open("Sources/GeoCore/GeoCore.docc/BadInput.md").read())
if not readme_table or not article_table or readme_table.group(0) != article_table.group(0):
    print("Sources/GeoCore/GeoCore.docc/BadInput.md: the table differs from README.md's "
          "(run Scripts/sync-articles.py)")
    status = 1
if status == 0:
    print(f"articles: {checked} code blocks are compiled and run by the tests; the bad-input table matches")
sys.exit(status)
