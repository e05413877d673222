import Foundation

/// Formats dates as RFC 3339 / ISO 8601 UTC with whole seconds, `2025-01-01T00:00:00Z`: the
/// text `ISO8601DateFormatter()` gives with its default options, without creating an ICU
/// formatter (milliseconds per process, on every thread of a batch).
public enum InternetDateTime {
    /// `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC, fractions of a second dropped (after rounding
    /// to the millisecond, as ICU does).
    public static func string(from date: Date) -> String {
        let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        // The proleptic Gregorian calendar of gmtime agrees with ICU's from 1583 on; outside
        // the years 1583...9999 the exact spelling is left to Foundation.
        guard seconds >= -12_212_553_600, seconds < 253_402_300_800 else {
            return ISO8601DateFormatter().string(from: date)
        }
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return ISO8601DateFormatter().string(from: date) }
        var text = ""
        text.reserveCapacity(20)
        func append(_ value: Int32, digits: Int) {
            var divisor: Int32 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8(48 + rest / divisor)))
                rest %= divisor
                divisor /= 10
            }
        }
        append(parts.tm_year + 1900, digits: 4)
        text += "-"
        append(parts.tm_mon + 1, digits: 2)
        text += "-"
        append(parts.tm_mday, digits: 2)
        text += "T"
        append(parts.tm_hour, digits: 2)
        text += ":"
        append(parts.tm_min, digits: 2)
        text += ":"
        append(parts.tm_sec, digits: 2)
        text += "Z"
        return text
    }
}
