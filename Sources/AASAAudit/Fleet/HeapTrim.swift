#if canImport(Glibc)
    import Glibc
#endif

/// Gives the memory the allocator holds free back to the system. A long audit at high
/// concurrency frees and allocates the buffers of a thousand connections at a time; glibc's
/// allocator keeps the freed pages, scattered among live ones, so that the resident size
/// creeps up with the number of domains (docs/performance.md). glibc's `malloc_trim` returns
/// every whole free page; it is looked up at run time (Swift's Glibc module does not export
/// `<malloc.h>`), and where there is none this does nothing.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    static func now() {
        _ = trim?(0)
    }
}
