extension UnsafeMutableBufferPointer {
    /// A new buffer holding a copy of `array`, for the matcher's flat tables: read in place
    /// with no reference counting. The owner frees it with `deallocate()`.
    static func copying(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = buffer.initialize(from: array)
        return buffer
    }
}
