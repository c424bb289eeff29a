import Foundation
import GeoCore

/// One location update of one device, for ``GeofenceEvaluator/evaluate(_:now:)``.
public struct GeofenceUpdate: Hashable, Sendable {
    /// The device the fix belongs to.
    public var device: String
    /// The fix.
    public var location: Location

    /// Creates an update.
    public init(device: String, location: Location) {
        self.device = device
        self.location = location
    }
}

/// An event of one device and one fence of a ``GeofenceIndex``.
public struct GeofenceTransition: Hashable, Sendable {
    /// The position of the update in the batch that caused it; `nil` for
    /// ``GeofenceEvaluator/advance(to:)``.
    public var update: Int?
    /// The device.
    public var device: String
    /// The fence's position in the array the index was built from.
    public var fence: Int
    /// The event; its identifier is the fence's.
    public var event: GeofenceEvent

    /// Creates a transition.
    public init(update: Int?, device: String, fence: Int, event: GeofenceEvent) {
        self.update = update
        self.device = device
        self.fence = fence
        self.event = event
    }
}

/// An update that was turned away, and why.
public struct GeofenceRejection: Hashable, Sendable {
    /// The position of the update in the batch.
    public var update: Int
    /// The device.
    public var device: String
    /// Why: `GeoError.Kind.invalidCoordinate`,
    /// `GeoError.Kind.invalidArgument`, `GeoError.Kind.staleFix` or
    /// `GeoError.Kind.filteredFix`.
    public var error: GeoError

    /// Creates a rejection.
    public init(update: Int, device: String, error: GeoError) {
        self.update = update
        self.device = device
        self.error = error
    }
}

/// What a batch of updates caused.
public struct GeofenceEvaluation: Hashable, Sendable {
    /// The events, ordered by update, then time, then fence position.
    public var transitions: [GeofenceTransition]
    /// The updates that were rejected (and changed nothing), in batch order.
    public var rejections: [GeofenceRejection]

    /// Creates an evaluation result.
    public init(transitions: [GeofenceTransition] = [], rejections: [GeofenceRejection] = []) {
        self.transitions = transitions
        self.rejections = rejections
    }
}

/// Devices moving through the fences of a ``GeofenceIndex``: per-device state with the semantics
/// of ``GeofenceMonitor`` (accuracy, hysteresis, dwell, crossings, rejected fixes) for every device
/// and fence, at server scale.
///
/// ```swift
/// let index = try GeofenceIndex(zones)
/// var devices = GeofenceEvaluator(index: index, configuration: GeofenceConfiguration(dwellTime: 120))
/// for batch in stream {
///     let result = devices.evaluate(batch)       // transitions in a deterministic order
///     publish(result.transitions); log(result.rejections)
/// }
/// ```
///
/// State is kept sparsely: only the fences a device is inside of (or undecided about) are stored,
/// all others are outside. So it reports changes into and out of ``GeofenceState/satisfied`` and
/// dwells, but not the first "outside" decision of the (possibly millions of) fences far from a new
/// device.
///
/// An evaluator is a value with one writer: copies share the immutable index and have their own
/// device states. Any number of evaluators (one per shard of devices, say) can share one index.
public struct GeofenceEvaluator: Sendable {
    /// The fences.
    public let index: GeofenceIndex
    /// The rules ``evaluate(_:now:)`` applies.
    public let configuration: GeofenceConfiguration

    /// What the evaluator remembers about a device.
    struct DeviceState: Sendable {
        var lastFix: Location?
        /// The fences this device is inside of, or undecided about, by input position; all others
        /// are outside (or unknown before the first fix).
        var tracked: [Int32: FenceTracking] = [:]
    }

    /// Per-device state.
    var devices: [String: DeviceState] = [:]
    /// Scratch of ``evaluate(_:now:)``: which fences the current update has looked at, by a stamp
    /// renewed per update and kept between batches.
    var evaluationStamps: [UInt32] = []
    var evaluationGeneration: UInt32 = 0

    /// An evaluator with no devices yet.
    ///
    /// - Throws: `GeoError.Kind.invalidArgument` for a bad configuration (see
    ///   ``GeofenceConfiguration/validated()``).
    public init(
        index: GeofenceIndex, configuration: GeofenceConfiguration = GeofenceConfiguration()
    ) throws(GeoError) {
        self.index = index
        self.configuration = try configuration.validated()
    }

    /// Feeds a batch of updates, in order, through the per-device state machine: the semantics of
    /// ``GeofenceMonitor`` (see ``GeofenceConfiguration``) for every device and fence.
    ///
    /// For each update only the fences that can change are looked at: those listed in the grid cells
    /// within the fix's accuracy plus the hysteresis margin, those the device is inside of or
    /// undecided about, and (for crossings) those in the cells along the path from the device's
    /// previous fix. Every other fence is provably decisively outside and stays so. For circles the
    /// cheap distance of `CircleContainmentTest` bounds the geodesic distance; `geod_inverse` is
    /// called only when those bounds cannot decide a comparison of the rules.
    ///
    /// - Parameters:
    ///   - updates: Fixes of any number of devices; each device's fixes must be in time order.
    ///   - now: The current time, for the fix filter's maximum age.
    /// - Returns: The transitions in a deterministic order (by update, then time, then fence
    ///   position), and the rejected updates.
    /// - Complexity: O(updates × fences near each fix), a geodesic distance per nearby fence.
    public mutating func evaluate(
        _ updates: [GeofenceUpdate], now: Date = Date()
    ) -> GeofenceEvaluation {
        let rules = TransitionRules(configuration)
        var transitions = [GeofenceTransition]()
        var rejections = [GeofenceRejection]()
        var candidates = [Int32]()
        // Which fences an update has looked at already: a stamp per fence, renewed per update, kept
        // between batches.
        var seen = evaluationStamps
        evaluationStamps = []
        if seen.count != index.count { seen = [UInt32](repeating: 0, count: index.count) }
        var generation = evaluationGeneration
        defer {
            evaluationStamps = seen
            evaluationGeneration = generation
        }
        for (updateIndex, update) in updates.enumerated() {
            let fix = update.location
            let previous = devices[update.device]?.lastFix
            do throws(GeoError) {
                try FixCheck.validate(
                    fix, after: previous?.timestamp, filter: configuration.fixFilter, now: now)
            } catch {
                rejections.append(
                    GeofenceRejection(update: updateIndex, device: update.device, error: error))
                continue
            }
            var path = PathCrossing.LazyPath(
                from: configuration.detectsCrossings ? previous : nil, to: fix)
            candidates.removeAll(keepingCapacity: true)
            index.collectFences(
                within: fix.horizontalAccuracy + configuration.hysteresis, of: fix.coordinate,
                into: &candidates)
            var pathBound = 0.0
            if let previous = path.from {
                // Fences the path from the previous fix may cross: a short path lies in a disc round
                // its start whose radius bounds its length; a long one is followed cell by cell.
                pathBound = Self.pathLengthBound(from: previous.coordinate, to: fix.coordinate)
                let cellMeters =
                    index.grid.cellHeight * EllipsoidMetric.minimumMetersPerDegreeLatitude
                if pathBound <= 2 * cellMeters {
                    index.collectFences(
                        within: pathBound, of: previous.coordinate, into: &candidates)
                } else if let line = path.get() {
                    index.collectFences(along: line, into: &candidates)
                }
            }
            evaluate(
                updateIndex, update, path: &path, pathBound: pathBound, rules: rules,
                candidates: &candidates,
                seen: &seen, generation: &generation, into: &transitions)
        }
        return GeofenceEvaluation(transitions: transitions, rejections: rejections)
    }

    /// Applies one accepted update to its device's fences, in place.
    ///
    /// A fence the device is outside of, whose cheap bounds prove the fix is farther outside than
    /// the path could reach back in (so neither an entry nor a crossing is possible), is skipped
    /// without running the rules: it would stay outside with no event.
    private mutating func evaluate(
        _ updateIndex: Int, _ update: GeofenceUpdate, path: inout PathCrossing.LazyPath,
        pathBound: Double,
        rules: TransitionRules, candidates: inout [Int32], seen: inout [UInt32],
        generation: inout UInt32,
        into transitions: inout [GeofenceTransition]
    ) {
        let fix = update.location
        let conditions = index.conditions
        let slotOfFence = index.slotOfFence
        let identifiers = index.identifiers
        var produced = [GeofenceTransition]()
        var device = devices.removeValue(forKey: update.device) ?? DeviceState()
        candidates.append(contentsOf: device.tracked.keys)
        generation &+= 1
        if generation == 0 {
            for i in seen.indices { seen[i] = 0 }
            generation = 1
        }
        let accuracy = fix.horizontalAccuracy
        let entryDepth = -(accuracy + configuration.hysteresis)
        // A crossing needs the path h + the larger accuracy deep; every point of the path is within
        // `pathBound` of the fix.
        let crossingReach =
            path.from.map {
                pathBound - configuration.hysteresis - max(accuracy, $0.horizontalAccuracy)
            } ?? -.infinity
        for fence in candidates {
            let f = Int(fence)
            guard seen[f] != generation else { continue }
            seen[f] = generation
            let tracked = device.tracked[fence]
            let bounds = index.signedDistanceBounds(slot: Int(slotOfFence[f]), fix.coordinate)
            if tracked == nil, let bounds {
                if device.lastFix == nil {
                    // decided outside at once, nothing to store
                    if bounds.lower > accuracy { continue }
                } else if bounds.lower > entryDepth && bounds.lower > crossingReach {
                    continue  // stays outside, no crossing
                }
            }
            var tracking =
                tracked ?? FenceTracking(state: device.lastFix == nil ? .unknown : .unsatisfied)
            let before = tracking.state
            var changes = [TransitionRules.Change]()
            rules.apply(
                fix: fix, path: &path, condition: { conditions[f] }, bounds: bounds,
                tracking: &tracking, changes: &changes)
            for change in changes where !(before == .unknown && change.state == .unsatisfied) {
                let event = GeofenceEvent(
                    identifier: identifiers?[f] ?? String(f), state: change.state,
                    date: change.date,
                    location: change.location, reason: change.reason)
                produced.append(
                    GeofenceTransition(
                        update: updateIndex, device: update.device, fence: f, event: event)
                )
            }
            if tracking.state == .unsatisfied {
                device.tracked[fence] = nil
            } else {
                device.tracked[fence] = tracking
            }
        }
        produced.sort { a, b in
            a.event.date != b.event.date ? a.event.date < b.event.date : a.fence < b.fence
        }
        transitions += produced
        device.lastFix = fix
        devices[update.device] = device
    }

    /// A proven upper bound of the geodesic distance between two points, without trigonometry on
    /// the ellipsoid: the length of the path straight in latitude and longitude, with the largest
    /// meridional radius and a parallel's radius of at most that times the cosine of the smaller
    /// |latitude|.
    static func pathLengthBound(from a: Coordinate, to b: Coordinate) -> Double {
        let dPhi = (b.latitude - a.latitude) * (.pi / 180)
        var dLon = abs(b.longitude - a.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        let lowest = min(abs(a.latitude), abs(b.latitude))
        let crossesEquator = (a.latitude < 0) != (b.latitude < 0)
        let c = crossesEquator ? 1 : cos(lowest * (.pi / 180))
        let r = EllipsoidMetric.maximumRadius
        return
            (((r * dPhi) * (r * dPhi) + (r * c * dLon * (.pi / 180)) * (r * c * dLon * (.pi / 180)))
            .squareRoot()) * (1 + 1e-9) + 1e-6
    }

    /// Lets time pass without fixes: the dwell events that fall due by `date` for every device still
    /// inside a fence (devices whose last fix is later than `date` are skipped).
    ///
    /// - Returns: The dwells, ordered by device, then fence position.
    public mutating func advance(to date: Date) -> [GeofenceTransition] {
        let rules = TransitionRules(configuration)
        var result = [GeofenceTransition]()
        for name in devices.keys.sorted() {
            guard var device = devices[name], let lastFix = device.lastFix,
                date >= lastFix.timestamp
            else { continue }
            for fence in device.tracked.keys.sorted() {
                guard var tracking = device.tracked[fence] else { continue }
                var changes = [TransitionRules.Change]()
                rules.checkDwell(at: date, lastFix: lastFix, tracking: &tracking, changes: &changes)
                for change in changes {
                    let event = GeofenceEvent(
                        identifier: index.identifier(of: Int(fence)), state: change.state,
                        date: change.date,
                        location: change.location, reason: change.reason)
                    result.append(
                        GeofenceTransition(
                            update: nil, device: name, fence: Int(fence), event: event))
                }
                device.tracked[fence] = tracking
            }
            devices[name] = device
        }
        return result
    }

    /// A device's state for a fence: ``GeofenceState/unknown`` before its first accepted fix or
    /// while undecided, then ``GeofenceState/satisfied`` or ``GeofenceState/unsatisfied``.
    ///
    /// - Returns: ``GeofenceState/unknown`` for a fence identifier the index does not hold.
    public func state(of device: String, fence identifier: String) -> GeofenceState {
        guard let position = index.position(of: identifier) else { return .unknown }
        return state(of: device, position: position)
    }

    /// A device's state for the fence at an input position.
    func state(of device: String, position: Int) -> GeofenceState {
        guard let state = devices[device] else { return .unknown }
        if let tracking = state.tracked[Int32(truncatingIfNeeded: position)] {
            return tracking.state
        }
        return state.lastFix == nil ? .unknown : .unsatisfied
    }

    /// The fences a device is inside of, in the order the index was built from.
    public func fences(containingDevice device: String) -> [GeofenceIndex.Fence] {
        positions(containingDevice: device).map(index.fence(atPosition:))
    }

    /// The input positions of the fences a device is inside of, ascending.
    func positions(containingDevice device: String) -> [Int] {
        (devices[device]?.tracked ?? [:]).filter { $0.value.state == .satisfied }.keys.map {
            Int($0)
        }.sorted()
    }

    /// The last accepted fix of a device.
    public func lastFix(of device: String) -> Location? { devices[device]?.lastFix }

    /// Forgets a device (its next fix starts from ``GeofenceState/unknown``).
    public mutating func removeDevice(_ device: String) { devices[device] = nil }

    /// The devices the evaluator has state for, sorted.
    public var deviceIdentifiers: [String] { devices.keys.sorted() }
}

// MARK: - Finding the fences near a point or a path

extension GeofenceIndex {
    /// Appends the input positions of all fences listed in the cells that a disc of a geodesic radius
    /// around a point touches, and of all large fences.
    func collectFences(
        within radius: Double, of point: Coordinate, into result: inout [Int32],
        includingLarge: Bool = true
    ) {
        let reach = EllipsoidMetric.reach(radius, around: point.latitude)
        if let rows = grid.rows(
            from: point.latitude - reach.latitude, to: point.latitude + reach.latitude)
        {
            let columns: [ClosedRange<Int>]
            if let lon = reach.longitude {
                columns = grid.columns(
                    west: grid.frameX(Angle.normalizedLongitude(point.longitude - lon)),
                    span: 2 * lon)
            } else {
                columns = grid.cols > 0 ? [0...(grid.cols - 1)] : []
            }
            for r in rows {
                for range in columns {
                    for c in range {
                        let cell = r * grid.cols + c
                        for k in Int(grid.cellStart[cell])..<Int(grid.cellStart[cell + 1]) {
                            result.append(fenceOfSlot[Int(grid.entries[k])])
                        }
                    }
                }
            }
        }
        if includingLarge {
            large.forEach(
                from: point.latitude - reach.latitude, to: point.latitude + reach.latitude
            ) {
                result.append(fenceOfSlot[$0])
            }
        }
    }

    /// Appends the fences listed in the cells along a path: discs round points spaced at most a cell
    /// apart cover every point of the path; and the large fences in the path's latitudes.
    func collectFences(along path: PathCrossing.Path, into result: inout [Int32]) {
        let latitude = path.middle.latitude * .pi / 180
        let cellMeters = min(
            grid.cellHeight * EllipsoidMetric.minimumMetersPerDegreeLatitude,
            grid.cellWidth * (.pi / 180)
                * max(1, EllipsoidMetric.parallelRadius(atLatitudeRadians: latitude)))
        let length = path.line.length
        let reach = EllipsoidMetric.reach(length / 2, around: path.middle.latitude)
        large.forEach(
            from: path.middle.latitude - reach.latitude, to: path.middle.latitude + reach.latitude
        ) {
            result.append(fenceOfSlot[$0])
        }
        guard grid.rows > 0 else { return }
        let count = min(100_000, max(1, Int((length / max(cellMeters, 1)).rounded(.up))))
        let spacing = length / Double(count)
        for i in 0...count {
            let point = path.line.position(atDistance: Double(i) * spacing).coordinate
            collectFences(
                within: spacing / 2 + 1e-3, of: point, into: &result, includingLarge: false)
        }
    }
}
