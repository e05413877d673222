import NIOCore

extension TimeAmount {
    /// `seconds` as a time amount, taken into 0 to `Int64.max` nanoseconds (a NaN as 0).
    ///
    /// `.nanoseconds(Int64(seconds * 1e9))` traps for a value past about 292 years, a NaN or an
    /// infinity, and the seconds come from the configuration (a library user's timeout, retry
    /// delay or rate): no value may reach that trap (issue #24).
    static func seconds(clamping seconds: Double) -> TimeAmount {
        let nanoseconds = (seconds * 1e9).rounded(.up)
        guard nanoseconds > 0 else { return .nanoseconds(0) }  // NaN, zero or negative
        guard nanoseconds < Double(Int64.max) else { return .nanoseconds(Int64.max) }
        return .nanoseconds(Int64(nanoseconds))
    }
}
