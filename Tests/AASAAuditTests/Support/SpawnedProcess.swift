import Foundation

/// A child started with `posix_spawn` and a clean signal mask and dispositions. Foundation's
/// `Process` passes on the mask of the spawning thread, where the test runner blocks nearly
/// every signal; nginx without a master process never unblocks them, so it would not stop.
final class SpawnedProcess {
    let pid: pid_t
    private var status: Int32?

    init(_ executable: String, _ arguments: [String], output: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            throw NginxServer.ServerError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    var isRunning: Bool {
        guard status == nil else { return false }
        var value: Int32 = 0
        if waitpid(pid, &value, WNOHANG) == pid {
            status = value
            return false
        }
        return true
    }

    /// TERM, up to 5 s to exit, then KILL; always reaped.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var value: Int32 = 0
            waitpid(pid, &value, 0)
            status = value
        }
    }
}
