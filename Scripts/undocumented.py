#!/usr/bin/env python3
"""Lists the public symbols of a symbol graph that have no documentation comment of their own.

Symbols the compiler makes (synthesized conformance members, enum cases' implicit members) and
members that implement a documented protocol requirement of the standard library (Codable,
Hashable, Collection and the like, which inherit the requirement's documentation) are not counted.
Exits 1 when there is any.
"""
import json
import sys

INHERITED = {
    "init(from:)", "encode(to:)", "hash(into:)", "==(_:_:)", "description", "debugDescription",
    "makeIterator()", "next()", "startIndex", "endIndex", "subscript(_:)", "index(after:)",
    "index(before:)", "count", "rawValue", "init(rawValue:)", "allCases", "hashValue",
    "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)", "init(booleanLiteral:)",
    "init(arrayLiteral:)", "init(dictionaryLiteral:)", "init(nilLiteral:)", "errorDescription",
    "<(_:_:)", "localizedDescription", "init(unicodeScalarLiteral:)",
    "init(extendedGraphemeClusterLiteral:)",
}

def main(path):
    graph = json.load(open(path))
    missing = []
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        name = symbol["names"]["title"]
        kind = symbol["kind"]["identifier"]
        if symbol.get("docComment"):
            continue
        if name in INHERITED or kind in ("swift.enum.case",) and symbol.get("docComment"):
            continue
        if name.startswith("_"):
            continue
        # Implicit members (synthesized by the compiler) have no source location.
        if "location" not in symbol:
            continue
        where = symbol["location"]["uri"].split("/Sources/")[-1]
        line = symbol["location"]["position"]["line"] + 1
        missing.append(f"{where}:{line}: {'.'.join(symbol['pathComponents'])} ({kind})")
    for entry in sorted(missing):
        print(f"undocumented: {entry}")
    return 1 if missing else 0

if __name__ == "__main__":
    sys.exit(max(main(p) for p in sys.argv[1:]))
