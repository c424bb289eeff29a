@_exported import GeoCluster
@_exported import GeoCore
@_exported import GeoFence
@_exported import GeoRender
@_exported import GeoRoute
@_exported import GeoSearch
