/// `*`, `?`, literal bytes and one-character classes: the classic wildcard algorithm.
struct GlobProgram: Sendable {
    var units: [UInt16]
    /// The fewest bytes an input needs (every unit but `*` takes at least one).
    var minimumLength: Int

    init(units: [UInt16]) {
        self.units = units
        self.minimumLength = units.reduce(0) { $0 + ($1 == Unit.star ? 0 : 1) }
    }

    @inline(__always)
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if input.count < minimumLength { return false }
        return units.withUnsafeBufferPointer { GlobProgram.run($0, input) }
    }

    static func run(_ pattern: UnsafeBufferPointer<UInt16>, _ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let patternCount = pattern.count, inputCount = input.count
        var p = 0, s = 0
        var starP = -1, starS = 0
        while s < inputCount {
            if p < patternCount {
                let unit = pattern[p]
                let byte = input[s]
                if unit < 256 {
                    if UInt8(truncatingIfNeeded: unit) == byte {
                        p += 1
                        s += 1
                        continue
                    }
                } else if unit == Unit.star {
                    starP = p
                    starS = s
                    p += 1
                    continue
                } else if unit == Unit.anyScalar {
                    let length = utf8SequenceLength(byte)
                    if length > 0 {
                        p += 1
                        s = min(inputCount, s + length)
                        continue
                    }
                } else if CharacterClass.contains(Int(unit - Unit.classBase), byte) {
                    p += 1
                    s += 1
                    continue
                }
            }
            // Mismatch: let the last `*` take one more byte, or fail.
            guard starP >= 0 else { return false }
            p = starP + 1
            starS += 1
            s = starS
        }
        while p < patternCount, pattern[p] == Unit.star { p += 1 }
        return p == patternCount
    }
}
