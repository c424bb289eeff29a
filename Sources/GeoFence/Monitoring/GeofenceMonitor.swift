import Foundation
import GeoCore

/// Geofence monitoring with Core Location's `CLMonitor` semantics, fed with fixes, persistent, and
/// without a limit on the number of conditions.
///
/// ```swift
/// let monitor = try GeofenceMonitor(name: "field-notes", storage: .directory(appSupport))
/// try await monitor.add(
///     try CircularGeographicCondition(center: site, radius: 150), identifier: "Cerknica lake")
/// Task { for await event in await monitor.events { print(event.identifier, event.state, event.reason) } }
/// for fix in fixes { try await monitor.process(fix) }   // an app forwards its fixes; a server its feed
/// ```
///
/// ### Semantics
/// - **Inside and outside** are decided by the exact WGS84 geodesic distance to the boundary
///   (`geod_inverse`; ``GeographicCondition/signedDistance(from:)``).
/// - **Accuracy.** A fix whose accuracy circle straddles the boundary neither enters nor exits; a
///   condition without a decisive fix yet stays ``GeofenceState/unknown``.
/// - **Hysteresis.** Once inside, a fix must be ``GeofenceConfiguration/hysteresis`` meters beyond
///   the boundary (past its accuracy) to exit, and the same inside to enter again (default 5 m).
///   The exact rules are the table in ``GeofenceConfiguration``.
/// - **Dwell.** With a ``GeofenceConfiguration/dwellTime``, a device that stays inside that long gets
///   one dwell event, at the first fix (or ``advance(to:)``) at or after the time.
/// - **Crossing between fixes.** When the geodesic path between two consecutive fixes passes through
///   a fence that both are outside of, the fence gets an enter and an exit at interpolated times
///   (``GeofenceEvent/Reason/crossing(from:to:deepestDistanceToBoundary:)``).
/// - **Bad fixes** are rejected with a typed error and change nothing: NaN or out-of-range
///   coordinates (`GeoError.Kind.invalidCoordinate`), a negative horizontal accuracy
///   (`GeoError.Kind.invalidArgument`), a timestamp older than the last processed
///   fix (`GeoError.Kind.staleFix`), and fixes the ``FixFilter`` turns away
///   (`GeoError.Kind.filteredFix`). Equal timestamps are accepted.
/// - **Events** of one fix are delivered in time order (crossings before the fix), then by
///   identifier. A change from ``GeofenceState/unknown`` is an event too, as in Core Location.
///
/// ### Persistence
/// With ``GeofenceStorage/directory(_:)`` every change (adding or removing a condition, each accepted
/// fix) is saved before the call returns, atomically and with a checksum (see the store format in
/// the module documentation), so reopening a monitor with the same name and storage restores the
/// conditions, their states, their last events and the last fix. If saving fails, the call throws
/// and the monitor's state is unchanged. Only one monitor per name and storage may be open at a time,
/// across processes; a second gets `GeoError.Kind.monitorInUse`.
///
/// Time is taken from the fixes; the injected `clock` is consulted only for the fix filter's
/// maximum age, so tests are deterministic.
public actor GeofenceMonitor {
    /// The monitor's name, unique per storage.
    public nonisolated let name: String
    /// Where the state is kept.
    public nonisolated let storage: GeofenceStorage
    /// The rules in force.
    public nonisolated let configuration: GeofenceConfiguration

    private let rules: TransitionRules
    private let clock: @Sendable () -> Date
    private let store: GeofenceStore?
    private var lock: MonitorLock?
    private var records: [String: GeofenceRecord] = [:]
    private var lastFix: Location?
    private var subscribers: [Int: AsyncStream<GeofenceEvent>.Continuation] = [:]
    private var nextSubscriber = 0

    /// Opens a monitor, restoring its saved state if it has one.
    ///
    /// - Parameters:
    ///   - name: 1 to 128 letters, digits, `.`, `_` or `-` (it names the files).
    ///   - storage: A directory, or ``GeofenceStorage/inMemory``.
    ///   - configuration: Hysteresis, dwell, fix filter, crossings.
    ///   - clock: The current time, used only for the fix filter's maximum age.
    /// - Throws: `GeoError.Kind.monitorInUse` if a monitor of this name is open on
    ///   this storage; `GeoError.Kind.corruptStore` if the saved state is damaged
    ///   (nothing is overwritten; see ``restoreBackup(name:storage:)``);
    ///   `GeoError.Kind.invalidArgument` for a bad name or configuration;
    ///   `GeoError.Kind.io` for file-system failures.
    public init(
        name: String,
        storage: GeofenceStorage,
        configuration: GeofenceConfiguration = GeofenceConfiguration(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(GeoError) {
        try GeofenceStorage.check(name: name)
        let configuration = try configuration.validated()
        var store: GeofenceStore?
        if case .directory(let url) = storage.place {
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw GeoError(
                    .io,
                    "cannot create geofence storage directory \(GeoError.quoted(url.path, limit: .max)): \(error.localizedDescription)"
                )
            }
            store = GeofenceStore(directory: url, name: name)
        }
        let lock = try MonitorLock.acquire(name: name, storage: storage)
        var restored: [String: GeofenceRecord] = [:]
        var lastFix: Location?
        if let store {
            store.removeLeftovers()
            if let snapshot = try store.load() {
                for stored in snapshot.records { restored[stored.identifier] = stored.record }
                lastFix = snapshot.lastFix
            }
        }
        self.name = name
        self.storage = storage
        self.configuration = configuration
        self.rules = TransitionRules(configuration)
        self.clock = clock
        self.store = store
        self.lock = lock
        self.records = restored
        self.lastFix = lastFix
    }

    deinit {
        for continuation in subscribers.values { continuation.finish() }
    }

    // MARK: - Conditions

    /// Starts monitoring a condition, replacing any condition with the same identifier.
    ///
    /// - Parameters:
    ///   - condition: The fence.
    ///   - identifier: Its name in events and records.
    ///   - state: The state to assume until a fix decides (``GeofenceState/unknown`` by default).
    /// - Throws: `GeoError.Kind.monitorClosed` after ``close()``;
    ///   `GeoError.Kind.io` if the change cannot be saved (then nothing changes).
    public func add(
        _ condition: GeographicCondition, identifier: String,
        assuming state: GeofenceState = .unknown
    ) throws(GeoError) {
        try checkOpen()
        var updated = records
        updated[identifier] = GeofenceRecord(condition: condition, state: state)
        try save(updated, lastFix: lastFix)
        records = updated
    }

    /// Starts monitoring many conditions at once, each replacing any condition with the same
    /// identifier (a later fence of the list replaces an earlier one), saved once (an empty list
    /// changes and saves nothing): what a fences file read with `FenceFile` gives.
    ///
    /// - Parameters:
    ///   - fences: The conditions and their identifiers.
    ///   - state: The state to assume for each until a fix decides (``GeofenceState/unknown``
    ///     by default).
    /// - Throws: `GeoError.Kind.monitorClosed` after ``close()``;
    ///   `GeoError.Kind.io` if the change cannot be saved (then nothing changes).
    /// - Complexity: O(n + m) for n fences added to m monitored, and one save; adding them one by
    ///   one saves (and copies) the whole state n times.
    public func add(
        contentsOf fences: some Sequence<GeofenceIndex.Fence>,
        assuming state: GeofenceState = .unknown
    ) throws(GeoError) {
        try checkOpen()
        var updated = records
        var added = 0
        for fence in fences {
            updated[fence.identifier] = GeofenceRecord(condition: fence.condition, state: state)
            added += 1
        }
        guard added > 0 else { return }
        try save(updated, lastFix: lastFix)
        records = updated
    }

    /// Starts monitoring a circle; see ``add(_:identifier:assuming:)-(GeographicCondition,_,_)``.
    ///
    /// - Throws: As ``add(_:identifier:assuming:)-(GeographicCondition,_,_)``.
    public func add(
        _ condition: CircularGeographicCondition, identifier: String,
        assuming state: GeofenceState = .unknown
    ) throws(GeoError) {
        try add(.circle(condition), identifier: identifier, assuming: state)
    }

    /// Starts monitoring a polygon; see ``add(_:identifier:assuming:)-(GeographicCondition,_,_)``.
    ///
    /// - Throws: As ``add(_:identifier:assuming:)-(GeographicCondition,_,_)``.
    public func add(
        _ condition: PolygonGeographicCondition, identifier: String,
        assuming state: GeofenceState = .unknown
    ) throws(GeoError) {
        try add(.polygon(condition), identifier: identifier, assuming: state)
    }

    /// Stops monitoring a condition; removing an unknown identifier does nothing.
    ///
    /// - Throws: `GeoError.Kind.monitorClosed` after ``close()``;
    ///   `GeoError.Kind.io` if the change cannot be saved (then nothing changes).
    public func remove(_ identifier: String) throws(GeoError) {
        try checkOpen()
        guard records[identifier] != nil else { return }
        var updated = records
        updated[identifier] = nil
        try save(updated, lastFix: lastFix)
        records = updated
    }

    /// The identifiers of all monitored conditions, sorted.
    public var identifiers: [String] { records.keys.sorted() }

    /// The condition, state and last event of a monitored condition.
    public func record(for identifier: String) -> GeofenceRecord? { records[identifier] }

    /// The last fix that was accepted, if any.
    public var lastProcessedFix: Location? { lastFix }

    // MARK: - Events

    /// The events from now on, in order: state changes and dwells, each with the location and
    /// reason that caused it.
    ///
    /// Each access returns a new sequence that receives every later event; events are buffered until
    /// read. The sequences finish when the monitor is closed or freed.
    public var events: AsyncStream<GeofenceEvent> {
        let (stream, continuation) = AsyncStream<GeofenceEvent>.makeStream(
            bufferingPolicy: .unbounded)
        if lock == nil {
            continuation.finish()
            return stream
        }
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers[id] = nil }

    // MARK: - Fixes

    /// Feeds one fix: updates every condition's state and returns (and publishes to ``events``) the
    /// events it caused.
    ///
    /// - Throws: `GeoError.Kind.invalidCoordinate`,
    ///   `GeoError.Kind.invalidArgument`, `GeoError.Kind.staleFix`,
    ///   `GeoError.Kind.filteredFix` for a rejected fix, which changes nothing;
    ///   `GeoError.Kind.io` if the new state cannot be saved (then nothing changes);
    ///   `GeoError.Kind.monitorClosed` after ``close()``.
    /// - Complexity: O(conditions), each a geodesic distance (a polygon's a few).
    @discardableResult
    public func process(_ location: Location) throws(GeoError) -> [GeofenceEvent] {
        try checkOpen()
        try FixCheck.validate(
            location, after: lastFix?.timestamp, filter: configuration.fixFilter, now: clock())
        var updated = records
        var events = [GeofenceEvent]()
        var path = PathCrossing.LazyPath(from: lastFix, to: location)
        for identifier in updated.keys.sorted() {
            guard var record = updated[identifier] else { continue }
            var changes = [TransitionRules.Change]()
            let condition = record.condition
            rules.apply(
                fix: location, path: &path, condition: { condition }, tracking: &record.tracking,
                changes: &changes)
            let produced = changes.map {
                GeofenceEvent(
                    identifier: identifier, state: $0.state, date: $0.date, location: $0.location,
                    reason: $0.reason)
            }
            if let last = produced.last { record.lastEvent = last }
            updated[identifier] = record
            events += produced
        }
        try save(updated, lastFix: location)
        records = updated
        lastFix = location
        return publish(events)
    }

    /// Lets time pass without a fix: produces the dwell events that fall due by `date` for
    /// conditions still inside (a server calls this from a timer; a device that stopped moving may
    /// stop sending fixes).
    ///
    /// - Throws: `GeoError.Kind.staleFix` if `date` is before the last fix;
    ///   `GeoError.Kind.io` if the new state cannot be saved;
    ///   `GeoError.Kind.monitorClosed` after ``close()``.
    @discardableResult
    public func advance(to date: Date) throws(GeoError) -> [GeofenceEvent] {
        try checkOpen()
        guard let lastFix else { return [] }
        guard date >= lastFix.timestamp else {
            throw GeoError(
                .staleFix,
                "time \(FixCheck.describe(date)) is before the last processed fix at \(FixCheck.describe(lastFix.timestamp))"
            )
        }
        var updated = records
        var events = [GeofenceEvent]()
        for identifier in updated.keys.sorted() {
            guard var record = updated[identifier] else { continue }
            var changes = [TransitionRules.Change]()
            rules.checkDwell(
                at: date, lastFix: lastFix, tracking: &record.tracking, changes: &changes)
            let produced = changes.map {
                GeofenceEvent(
                    identifier: identifier, state: $0.state, date: $0.date, location: $0.location,
                    reason: $0.reason)
            }
            guard let last = produced.last else { continue }
            record.lastEvent = last
            updated[identifier] = record
            events += produced
        }
        guard !events.isEmpty else { return [] }
        try save(updated, lastFix: lastFix)
        records = updated
        return publish(events)
    }

    // MARK: - Lifecycle

    /// Closes the monitor: finishes the event sequences and releases the name, so a new monitor with
    /// the same name and storage can be opened. Later calls throw
    /// `GeoError.Kind.monitorClosed`. Freeing the monitor closes it too.
    public func close() {
        lock = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }

    /// Installs the backup copy of a monitor's state after its state file was found damaged; the
    /// damaged file is moved aside to `<name>.geofences.corrupt-<n>`, nothing is deleted.
    ///
    /// - Returns: The path the damaged file was moved to, if there was one.
    /// - Throws: `GeoError.Kind.corruptStore` if the backup is missing or damaged too
    ///   (nothing changes); `GeoError.Kind.monitorInUse` if the monitor is open;
    ///   `GeoError.Kind.invalidArgument` for memory storage or a bad name.
    @discardableResult
    public static func restoreBackup(
        name: String, storage: GeofenceStorage
    ) throws(GeoError) -> String? {
        try GeofenceStorage.check(name: name)
        guard case .directory(let url) = storage.place else {
            throw GeoError(.invalidArgument, "memory storage has no backup to restore")
        }
        let lock = try MonitorLock.acquire(name: name, storage: storage)
        return try withExtendedLifetime(lock) { () throws(GeoError) -> String? in
            try GeofenceStore(directory: url, name: name).restoreBackup()
        }
    }

    // MARK: - Helpers

    private func checkOpen() throws(GeoError) {
        guard lock != nil else {
            throw GeoError(.monitorClosed, "geofence monitor \(GeoError.quoted(name)) is closed")
        }
    }

    private func save(_ records: [String: GeofenceRecord], lastFix: Location?) throws(GeoError) {
        guard let store else { return }
        let stored = records.keys.sorted().compactMap { id in
            records[id].map { GeofenceStore.Snapshot.Stored(identifier: id, record: $0) }
        }
        try store.save(GeofenceStore.Snapshot(name: name, records: stored, lastFix: lastFix))
    }

    private func publish(_ events: [GeofenceEvent]) -> [GeofenceEvent] {
        let ordered = events.enumerated().sorted { a, b in
            if a.element.date != b.element.date { return a.element.date < b.element.date }
            if a.element.identifier != b.element.identifier {
                return a.element.identifier < b.element.identifier
            }
            return a.offset < b.offset
        }.map(\.element)
        for event in ordered {
            for id in subscribers.keys.sorted() { subscribers[id]?.yield(event) }
        }
        return ordered
    }
}
