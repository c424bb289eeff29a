// swift-tools-version:6.0
//
// Meridian: the geospatial toolkit for Swift on Linux and macOS.
//
// Layering: GeoCore <- GeoFence, GeoRoute, GeoCluster, GeoRender, GeoSearch <- Meridian (umbrella).
// Only GeoCore sees the C libraries, and only through `internal import`.

import PackageDescription

let package = Package(
    name: "Meridian",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Meridian", targets: ["Meridian"]),
        .library(name: "GeoCore", targets: ["GeoCore"]),
        .library(name: "GeoFence", targets: ["GeoFence"]),
        .library(name: "GeoRoute", targets: ["GeoRoute"]),
        .library(name: "GeoCluster", targets: ["GeoCluster"]),
        .library(name: "GeoRender", targets: ["GeoRender"]),
        .library(name: "GeoSearch", targets: ["GeoSearch"]),
        .executable(name: "meridian", targets: ["MeridianCLI"]),
        .executable(name: "meridian-bench", targets: ["MeridianBench"]),
        .executable(name: "meridian-fuzz", targets: ["MeridianFuzz"]),
        .executable(name: "meridian-demo", targets: ["MeridianDemo"]),
        .executable(name: "field-notes", targets: ["FieldNotes"]),
        .executable(name: "cluster-tiles", targets: ["ClusterTiles"]),
        .executable(name: "fleet-fences", targets: ["FleetFences"]),
        .executable(name: "static-map", targets: ["StaticMap"]),
        .executable(name: "live-fleet", targets: ["LiveFleet"]),
        .executable(name: "spot-search", targets: ["SpotSearch"]),
    ],
    targets: [
        // MARK: - C libraries (not API)
        .systemLibrary(
            name: "CPROJ",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"]), .brew(["proj"])]
        ),
        .systemLibrary(
            name: "CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),

        // MARK: - Libraries
        .target(
            name: "GeoCore", dependencies: ["CPROJ", "CGEOS"],
            resources: [.copy("Resources/ne_110m_countries.geojson")]),
        .target(name: "GeoFence", dependencies: ["GeoCore"]),
        .target(name: "GeoRoute", dependencies: ["GeoCore"]),
        .target(name: "GeoCluster", dependencies: ["GeoCore"]),
        .target(name: "GeoRender", dependencies: ["GeoCore"]),
        .target(
            name: "GeoSearch", dependencies: ["GeoCore"],
            resources: [.copy("Resources/geonames_cities15000.tsv")]),
        .target(
            name: "Meridian",
            dependencies: [
                "GeoCore", "GeoFence", "GeoRoute", "GeoCluster", "GeoRender", "GeoSearch",
            ]
        ),

        // MARK: - Command-line tool
        .executableTarget(name: "MeridianCLI", dependencies: ["Meridian"]),

        // MARK: - Benchmarks (C baselines are called from C, not through Meridian)
        .target(
            name: "CBaselines",
            dependencies: ["CPROJ", "CGEOS"],
            path: "Benchmarks/CBaselines"
        ),
        .executableTarget(
            name: "MeridianBench",
            dependencies: ["Meridian", "CBaselines", "GeoTestSupport"],
            path: "Benchmarks/MeridianBench"
        ),

        // MARK: - Fuzzing (Scripts/fuzz.sh builds it with libFuzzer; normally it replays inputs)
        .executableTarget(
            name: "MeridianFuzz", dependencies: ["Meridian"], path: "Fuzz/MeridianFuzz"),

        // MARK: - Examples
        .executableTarget(
            name: "MeridianDemo", dependencies: ["Meridian", "GeoTestSupport"],
            path: "Examples/Demo"),
        .executableTarget(
            name: "FieldNotes", dependencies: ["Meridian"], path: "Examples/FieldNotes"),
        .executableTarget(
            name: "ClusterTiles", dependencies: ["Meridian", "GeoTestSupport"],
            path: "Examples/ClusterTiles"),
        .executableTarget(
            name: "FleetFences", dependencies: ["Meridian", "GeoTestSupport"],
            path: "Examples/FleetFences"),
        .executableTarget(
            name: "StaticMap", dependencies: ["Meridian"], path: "Examples/StaticMap"),
        .executableTarget(
            name: "LiveFleet", dependencies: ["Meridian", "GeoTestSupport"],
            path: "Examples/LiveFleet"),
        .executableTarget(
            name: "SpotSearch", dependencies: ["Meridian"], path: "Examples/SpotSearch"),

        // MARK: - Tests
        .target(name: "GeoTestSupport", dependencies: ["GeoCore"], path: "Tests/Support"),
        .testTarget(name: "GeoCoreTests", dependencies: ["GeoCore", "GeoTestSupport"]),
        .testTarget(name: "GeoFenceTests", dependencies: ["GeoFence", "GeoTestSupport"]),
        .testTarget(name: "GeoRouteTests", dependencies: ["GeoRoute", "GeoTestSupport"]),
        .testTarget(name: "GeoClusterTests", dependencies: ["GeoCluster", "GeoTestSupport"]),
        .testTarget(name: "GeoRenderTests", dependencies: ["GeoRender", "GeoTestSupport"]),
        .testTarget(name: "GeoSearchTests", dependencies: ["GeoSearch", "GeoTestSupport"]),
        .testTarget(
            name: "MeridianTests",
            dependencies: ["Meridian", "MeridianCLI", "MeridianFuzz", "GeoTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
