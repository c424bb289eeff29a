#!/usr/bin/env python3
"""Independent reference values for the GeoRoute track tests.

Reads the track points that were extracted from the GPX files into CSV
(Tests/Fixtures/tracks/trackpoints/*.csv, so no GPX parser is involved) and computes, per track,
with GeographicLib 2.1 (`pip install geographiclib`, Karney's geodesics on WGS84) and plain Python:

  length       sum of Geodesic.WGS84.Inverse(...)['s12'] between consecutive points of a segment
  length_3d    the same with each step sqrt(s12^2 + dh^2) where both points have an elevation
  intervals    within a segment, a point whose time is not later than the latest time before it is
               out of order (as are points without a time); intervals run between consecutive
               in-order timed points, over the distance travelled between them
  duration     sum over segments of (last in-order time - first in-order time)
  moving       intervals with distance / dt >= 0.5 m/s: their total time and distance
  max_speed    the largest distance / dt over intervals; robust_max the 95th percentile (nearest
               rank) of the intervals' speeds
  gain / loss  sums of the positive / negative differences of consecutive elevations (points
               without an elevation skipped), and the same with a 5 m hysteresis threshold
  stationary   stay points: from point i, extend while points stay within 25 m of point i; a
               period if the time span is >= 120 s (then continue after it, else at i + 1)

Times are parsed here by hand (ISO 8601 with any fractional digits and Z), independent of the
Swift parser. Run: python3 Scripts/track_reference.py [data directory]
"""
import csv, math, os, sys
from collections import defaultdict
from datetime import datetime, timezone
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84

def parse_time(text):
    if not text:
        return None
    text = text.strip()
    zone = 0
    if text.endswith("Z"):
        text = text[:-1]
    elif len(text) > 6 and text[-6] in "+-" and text[-3] == ":":
        sign = -1 if text[-6] == "-" else 1
        zone = sign * (int(text[-5:-3]) * 3600 + int(text[-2:]) * 60)
        text = text[:-6]
    date, clock = text.split("T")
    y, mo, d = (int(v) for v in date.split("-"))
    hms = clock.split(":")
    h, mi = int(hms[0]), int(hms[1])
    sec = hms[2]
    whole, _, frac = sec.partition(".")
    base = datetime(y, mo, d, h, mi, int(whole), tzinfo=timezone.utc).timestamp()
    fraction = int(frac) / 10 ** len(frac) if frac else 0.0
    return base + fraction - zone

def stats(segments):
    length = length_3d = duration = moving_time = moving_distance = 0.0
    speeds = []
    out_of_order = 0
    gain = loss = gain5 = loss5 = 0.0
    stationary = []
    for s_index, seg in enumerate(segments):
        along = 0.0
        anchor = None  # (time, along)
        first = None
        for i, p in enumerate(seg):
            if i > 0:
                a = seg[i - 1]
                d = G.Inverse(a["lat"], a["lon"], p["lat"], p["lon"])["s12"]
                along += d
                if a["ele"] is not None and p["ele"] is not None:
                    length_3d += math.hypot(d, p["ele"] - a["ele"])
                else:
                    length_3d += d
            t = p["time"]
            if t is None:
                continue
            if anchor is None:
                anchor = (t, along)
                first = t
                continue
            dt = t - anchor[0]
            if dt <= 0:
                out_of_order += 1
                continue
            dist = along - anchor[1]
            v = dist / dt
            speeds.append(v)
            if v >= 0.5:
                moving_time += dt
                moving_distance += dist
            anchor = (t, along)
        length += along
        if anchor is not None:
            duration += anchor[0] - first
        elevations = [p["ele"] for p in seg if p["ele"] is not None]
        for x, y in zip(elevations, elevations[1:]):
            if y > x: gain += y - x
            else: loss += x - y
        ref = None
        for e in elevations:
            if ref is None:
                ref = e
            elif e - ref >= 5:
                gain5 += e - ref; ref = e
            elif ref - e >= 5:
                loss5 += ref - e; ref = e
        i = 0
        while i < len(seg):
            j = i + 1
            while j < len(seg) and G.Inverse(seg[i]["lat"], seg[i]["lon"], seg[j]["lat"], seg[j]["lon"])["s12"] <= 25:
                j += 1
            ti, tj = seg[i]["time"], seg[j - 1]["time"]
            if j - 1 > i and ti is not None and tj is not None and tj - ti >= 120:
                stationary.append((s_index, i, j - 1))
                i = j
            else:
                i += 1
    speeds.sort()
    robust = speeds[max(0, math.ceil(0.95 * len(speeds)) - 1)] if speeds else None
    return dict(length=length, length_3d=length_3d, duration=duration, moving_time=moving_time,
                moving_distance=moving_distance, max_speed=speeds[-1] if speeds else None,
                robust_max=robust, out_of_order=out_of_order, gain=gain, loss=loss, gain5=gain5,
                loss5=loss5, stationary=stationary)

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures")
    folder = os.path.join(root, "tracks", "trackpoints")
    for name in sorted(os.listdir(folder)):
        tracks = defaultdict(lambda: defaultdict(list))
        with open(os.path.join(folder, name)) as f:
            for row in csv.DictReader(f):
                if row["kind"] != "trk":
                    continue
                tracks[int(row["track_or_route"])][int(row["segment"])].append(dict(
                    lat=float(row["lat"]), lon=float(row["lon"]),
                    ele=float(row["ele"]) if row["ele"] else None, time=parse_time(row["time"])))
        for t, segs in sorted(tracks.items()):
            segments = [segs[k] for k in sorted(segs)]
            r = stats(segments)
            print(f'{name} track {t}: points {sum(len(s) for s in segments)} segments {len(segments)}')
            for k, v in r.items():
                if k == "stationary":
                    print(f'  stationary {len(v)} {v[:3]}')
                else:
                    print(f'  {k} {v!r}')

if __name__ == "__main__":
    main()
