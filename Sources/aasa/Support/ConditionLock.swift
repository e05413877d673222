import Foundation

/// A mutex with any number of condition variables on it (POSIX threads). Foundation's
/// `NSCondition` is a mutex with exactly one condition, so a thread that must wake one kind
/// of waiter (the printing thread, say) can only broadcast to all of them; here each kind of
/// waiter has its own condition and is woken alone. Written by hand: neither the standard
/// library's `Synchronization` nor swift-atomics has a condition variable.
final class ConditionLock: @unchecked Sendable {
    // @unchecked: the mutex is what makes the state it guards safe to share.
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// A new condition variable on this lock.
    func condition() -> Condition { Condition(self) }

    /// A condition variable whose waiters hold ``ConditionLock``'s mutex.
    final class Condition: @unchecked Sendable {
        private let owner: ConditionLock
        private let variable: UnsafeMutablePointer<pthread_cond_t>

        fileprivate init(_ owner: ConditionLock) {
            self.owner = owner
            variable = .allocate(capacity: 1)
            precondition(pthread_cond_init(variable, nil) == 0, "pthread_cond_init failed")
        }

        deinit {
            pthread_cond_destroy(variable)
            variable.deallocate()
        }

        /// Releases the lock, waits to be woken (or spuriously), and takes the lock again:
        /// call it in a loop that checks what it waits for, with the lock held.
        func wait() { pthread_cond_wait(variable, owner.mutex) }
        /// Wakes one waiter, if any.
        func signal() { pthread_cond_signal(variable) }
        /// Wakes every waiter.
        func broadcast() { pthread_cond_broadcast(variable) }
    }
}
