import Foundation

/// Whole Unix seconds of a date, as the chain check and its caches give them to OpenSSL.
///
/// `Int64(date.timeIntervalSince1970)` traps for a date past `Int64.max` seconds (or a NaN
/// or infinite interval), and a check time can come from a user (`--at`, issue #24). Here the
/// seconds are rounded down and taken into ``range``: year 0000 to 9999, what a
/// certificate's validity (GeneralizedTime) can say, so a time past the end of 9999 is
/// checked as its last second, which every certificate's validity ends before.
public enum UnixSeconds {
    /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
    public static let range: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// `date`'s Unix seconds, rounded down and taken into ``range`` (a NaN as its start).
    public static func of(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return range.lowerBound }
        if seconds <= Double(range.lowerBound) { return range.lowerBound }
        if seconds >= Double(range.upperBound) { return range.upperBound }
        return Int64(seconds)
    }
}
