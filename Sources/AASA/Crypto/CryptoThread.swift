// The calling thread's OpenSSL state.
internal import CAASACrypto

/// What OpenSSL keeps per thread (its error queue, per-thread random generators).
public enum CryptoThread {
    /// Frees the calling thread's OpenSSL state now rather than when the thread exits.
    ///
    /// A worker thread calls this as its last step before it reports that it has finished,
    /// so that nothing of OpenSSL's is left behind if the process ends right after. Calling
    /// OpenSSL again on the same thread afterwards is allowed: the state is recreated.
    public static func releaseResources() {
        caasa_thread_stop()
    }
}
