import GeoCore

// MARK: - Error kinds of GeoFence

extension GeoError.Kind {
    /// A fix whose timestamp is older than the last fix the monitor or index processed for the same
    /// device. The fix is rejected and nothing changes.
    public static let staleFix = GeoError.Kind("staleFix")

    /// A valid fix that the configured ``FixFilter`` turned away (too inaccurate or too old). The fix
    /// is rejected and nothing changes.
    public static let filteredFix = GeoError.Kind("filteredFix")

    /// A ``GeofenceMonitor`` with the same name and storage is already open, in this process or in
    /// another one.
    public static let monitorInUse = GeoError.Kind("monitorInUse")

    /// The ``GeofenceMonitor`` was closed; open a new one with the same name and storage.
    public static let monitorClosed = GeoError.Kind("monitorClosed")

    /// A geofence store file that is truncated, corrupt or of an unknown format. The file is left as
    /// it is; the message names it, says what is wrong and where the last good copy is.
    public static let corruptStore = GeoError.Kind("corruptStore")
}
