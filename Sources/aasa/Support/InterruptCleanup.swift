import Foundation

/// What an interrupted process must undo before it dies: temporaries that ``OutputFile`` has
/// created but not yet renamed, and a terminal whose echo the passphrase prompt turned off.
///
/// SIGINT, SIGTERM and SIGHUP are taken over the first time there is something to undo (not at
/// start-up: most runs write nothing), unless the process was started with the signal ignored
/// (`nohup`, a background job), which stays as it is. Each signal is then delivered to a
/// Dispatch signal source instead of killing the process; its handler removes the temporaries,
/// restores the terminal, and raises the signal again with its default action, so the process
/// still ends as one killed by that signal (exit status 128 + N to a shell). Registration and
/// the handler share one lock: a temporary is registered in the same critical section that
/// creates it, and renamed in the one that forgets it, so the handler never removes a file
/// that has become the output, and never misses one that exists.
final class InterruptCleanup: @unchecked Sendable {
    static let shared = InterruptCleanup()

    private var mutex = pthread_mutex_t()
    private var temporaries = Set<Temporary>()
    private var terminal: (fd: Int32, saved: termios)?
    private var sources: [any DispatchSourceSignal] = []
    private var installed = false
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    private init() {
        pthread_mutex_init(&mutex, nil)
    }

    /// A temporary file: its name in the directory open at `directory` (a descriptor that
    /// stays open while the temporary is registered: ``OutputFile`` holds its ``DirectoryHandle``).
    struct Temporary: Hashable {
        var directory: Int32
        var name: String
    }

    /// Runs `create` (which makes a temporary file and returns its name in the directory open
    /// at `directory`, or nil) and registers what it made, as one step with respect to an
    /// interruption.
    func creatingTemporary(in directory: Int32, _ create: () -> String?) -> Temporary? {
        locked {
            installIfNeeded()
            guard let name = create() else { return nil }
            let temporary = Temporary(directory: directory, name: name)
            temporaries.insert(temporary)
            return temporary
        }
    }

    /// Runs `finish` (which renames or removes `temporary`) and forgets it.
    func finishingTemporary<T>(_ temporary: Temporary, _ finish: () -> T) -> T {
        locked {
            let result = finish()
            temporaries.remove(temporary)
            return result
        }
    }

    /// Runs `body` with the terminal at `fd` restored to `saved` if the process is interrupted
    /// meanwhile.
    func restoringTerminal<T>(_ fd: Int32, to saved: termios, _ body: () throws -> T) rethrows -> T {
        locked {
            installIfNeeded()
            terminal = (fd, saved)
        }
        defer { locked { terminal = nil } }
        return try body()
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    /// Takes over the signals that are not ignored (called with the lock held).
    private func installIfNeeded() {
        guard !installed else { return }
        installed = true
        for number in Self.signals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0 else { continue }
            if Self.isIgnore(current.__sigaction_handler.sa_handler) { continue }  // nohup, a background job
            signal(number, SIG_IGN)  // Dispatch's source sees it; the default action no longer runs
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in self.interrupted(by: number) }
            source.resume()
            sources.append(source)
        }
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Undoes what is registered, then dies of the signal. The lock is kept: no writer renames
    /// or creates anything after this.
    private func interrupted(by number: Int32) -> Never {
        pthread_mutex_lock(&mutex)
        for temporary in temporaries { unlinkat(temporary.directory, temporary.name, 0) }
        if var terminal {
            tcsetattr(terminal.fd, TCSAFLUSH, &terminal.saved)
            _ = Foundation.write(terminal.fd, "\n", 1)
        }
        signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(number)
        _exit(128 + number)  // not reached: the default action of these signals ends the process
    }
}
