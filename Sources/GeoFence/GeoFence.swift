import GeoCore
