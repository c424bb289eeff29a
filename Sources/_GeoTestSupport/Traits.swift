import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test only when the shared reference data is present; otherwise it is skipped and the
    /// reason (where the data was looked for) is printed.
    public static var requiresSharedData: Self {
        .enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason))
    }
}
