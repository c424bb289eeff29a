@_exported import GeoCore
@_exported import GeoFence
@_exported import GeoRoute
@_exported import GeoCluster
