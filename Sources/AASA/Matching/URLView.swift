// The URL, as each mode reads it.

struct ComponentSet {
    /// Trailing `/` removed.
    var path: UnsafeBufferPointer<UInt8>
    /// Empty when absent.
    var query: UnsafeBufferPointer<UInt8>
    /// Empty when absent.
    var fragment: UnsafeBufferPointer<UInt8>
}

/// One URL during one evaluation: the components per mode, made when first needed. Bytes
/// that had to be decoded or folded live until ``deallocate()``.
struct URLView {
    let bytes: UnsafeBufferPointer<UInt8>
    let layout: URLLayout
    private var sets: (ComponentSet?, ComponentSet?, ComponentSet?, ComponentSet?) = (nil, nil, nil, nil)
    private var allocations: [UnsafeMutableBufferPointer<UInt8>] = []

    init(bytes: UnsafeBufferPointer<UInt8>, layout: URLLayout) {
        self.bytes = bytes
        self.layout = layout
    }

    mutating func deallocate() {
        for allocation in allocations { allocation.deallocate() }
        allocations = []
    }

    @inline(__always)
    mutating func components(_ mode: Int) -> ComponentSet {
        switch mode {
        case 0:
            if let set = sets.0 { return set }
            let set = make(0)
            sets.0 = set
            return set
        case 1:
            if let set = sets.1 { return set }
            let set = make(1)
            sets.1 = set
            return set
        case 2:
            if let set = sets.2 { return set }
            let set = make(2)
            sets.2 = set
            return set
        default:
            if let set = sets.3 { return set }
            let set = make(3)
            sets.3 = set
            return set
        }
    }

    private mutating func make(_ mode: Int) -> ComponentSet {
        var path = transform(layout.path, mode: mode)
        while let last = path.last, last == UInt8(ascii: "/") { path = UnsafeBufferPointer(rebasing: path.dropLast()) }
        let empty = UnsafeBufferPointer(rebasing: bytes[0..<0])
        return ComponentSet(
            path: path,
            query: layout.query.map { transform($0, mode: mode) } ?? empty,
            fragment: layout.fragment.map { transform($0, mode: mode) } ?? empty)
    }

    /// The bytes of `range` as `mode` reads them (the URL's own bytes when nothing changes).
    mutating func transform(_ range: Range<Int>, mode: Int) -> UnsafeBufferPointer<UInt8> {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        if mode == MatchMode.raw { return raw }
        let decode = mode & MatchMode.decode != 0
        let lowercase = mode & MatchMode.lowercase != 0
        var needsDecoding = false, needsFolding = false
        for byte in raw {
            if decode && byte == UInt8(ascii: "%") { needsDecoding = true }
            if lowercase && (byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A)) { needsFolding = true }
        }
        if !needsDecoding && !needsFolding { return raw }
        var owned = Array(raw)
        if needsDecoding {
            let decoded = percentDecoded(owned)
            // Bytes that are not UTF-8 once decoded: matched as written.
            if String(validating: decoded, as: UTF8.self) != nil { owned = decoded }
        }
        if lowercase {
            if owned.allSatisfy({ $0 < 0x80 }) {
                for index in owned.indices where owned[index] >= 0x41 && owned[index] <= 0x5A { owned[index] |= 0x20 }
            } else {
                owned = Array(String(decoding: owned, as: UTF8.self).lowercased().utf8)
            }
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: owned.count)
        _ = buffer.initialize(from: owned)
        allocations.append(buffer)
        return UnsafeBufferPointer(buffer)
    }

    /// Calls `body` with the name and value ranges of each non-empty query item (an item
    /// without `=` has an empty value range); stops when `body` returns false.
    mutating func forEachQueryItem(_ body: (inout URLView, Range<Int>, Range<Int>) -> Bool) {
        guard let query = layout.query else { return }
        var start = query.lowerBound
        while start <= query.upperBound {
            var end = start
            var equals = -1
            while end < query.upperBound, bytes[end] != UInt8(ascii: "&") {
                if equals < 0 && bytes[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                let name = start..<(equals >= 0 ? equals : end)
                let value = equals >= 0 ? (equals + 1)..<end : end..<end
                if !body(&self, name, value) { return }
            }
            start = end + 1
        }
    }

    /// `range` as a person reads it: percent-decoded when the mode decodes, never case-folded.
    mutating func display(_ range: Range<Int>, mode: Int) -> String {
        String(decoding: transform(range, mode: mode & MatchMode.decode), as: UTF8.self)
    }
}

/// `%XX` sequences replaced by their bytes (the URL scan already checked every escape).
func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x41...0x46: return digit - 0x41 + 10
        case 0x61...0x66: return digit - 0x61 + 10
        default: return 0
        }
    }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            URLLayout.isHexDigit(bytes[index + 1]), URLLayout.isHexDigit(bytes[index + 2])
        {
            result.append(value(bytes[index + 1]) << 4 | value(bytes[index + 2]))
            index += 3
        } else {
            result.append(bytes[index])
            index += 1
        }
    }
    return result
}
