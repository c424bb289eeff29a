#!/usr/bin/env python3
"""Python peers of `meridian-bench places`, timed on the same data in the same run.

    places_peers.py --points P.f64 --queries Q.f64 --k 10 --reverse R.f64

P and Q are little-endian float64 (lat, lon) pairs: scikit-learn's BallTree with the haversine
metric is built over P and asked for the k nearest of each row of Q. R holds reverse-geocoding
queries for reverse_geocoder 1.5.1 over the places of --places (the same file ours read), in
mode 2 (its multiprocess k-d tree). Prints one JSON object; a peer that is not installed is reported as
skipped.
"""
import argparse
import json
import sys
import time


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points")
    ap.add_argument("--queries")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--reverse")
    ap.add_argument("--places", help="the places (TSV: lat lon name admin1 admin2 country_code)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--answers", help="write reverse_geocoder's answers (lat, lon) as f64 here")
    a = ap.parse_args()
    out = {}
    try:
        import numpy as np
    except ImportError:
        print(json.dumps({"skipped": "numpy is not installed"}))
        return
    if a.points and a.queries:
        try:
            import sklearn
            from sklearn.neighbors import BallTree
            pts = np.radians(np.fromfile(a.points, dtype="<f8").reshape(-1, 2))
            qs = np.radians(np.fromfile(a.queries, dtype="<f8").reshape(-1, 2))
            builds, queries = [], []
            for _ in range(a.runs):
                t = time.perf_counter()
                tree = BallTree(pts, metric="haversine")
                builds.append((time.perf_counter() - t) * 1e9)
                t = time.perf_counter()
                tree.query(qs, k=a.k)
                queries.append((time.perf_counter() - t) * 1e9 / len(qs))
            out["balltree"] = {
                "name": f"scikit-learn {sklearn.__version__} BallTree(metric='haversine'), one thread",
                "build_median_ns": median(builds), "query_median_ns_per_query": median(queries),
                "n": len(pts), "queries": len(qs), "k": a.k,
            }
        except ImportError:
            out["balltree"] = {"skipped": "scikit-learn is not installed"}
    if a.reverse:
        try:
            import reverse_geocoder as rg
            qs = np.fromfile(a.reverse, dtype="<f8").reshape(-1, 2)
            coords = [(float(q[0]), float(q[1])) for q in qs]
            stream = None
            if a.places:
                # The same places as ours, in reverse_geocoder's own CSV layout.
                import csv
                import io
                text = io.StringIO()
                writer = csv.writer(text)
                writer.writerow(["lat", "lon", "name", "admin1", "admin2", "cc"])
                with open(a.places, encoding="utf-8") as f:
                    next(f)
                    for line in f:
                        writer.writerow(line.rstrip("\r\n").split("\t"))
                stream = io.StringIO(text.getvalue())
            geocoder = rg.RGeocoder(mode=2, verbose=False, stream=stream)
            times, result = [], None
            for _ in range(a.runs):
                t = time.perf_counter()
                result = geocoder.query(coords)
                times.append((time.perf_counter() - t) * 1e9)
            out["reverse_geocoder"] = {
                "name": "reverse_geocoder 1.5.1, mode 2 (its multiprocess k-d tree; 1.5.1 searches plain latitude-longitude degrees)",
                "median_ns": median(times), "queries": len(coords),
            }
            if a.answers:
                np.array([[float(r["lat"]), float(r["lon"])] for r in result], dtype="<f8").tofile(
                    a.answers)
        except ImportError:
            out["reverse_geocoder"] = {"skipped": "reverse_geocoder is not installed"}
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
