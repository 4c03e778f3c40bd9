import Glibc

/// Starts programs with `posix_spawn`: no shell, no `fork` of the kiosk's address space.
///
/// The child gets a clean signal state (empty mask, default dispositions: the loop blocks
/// TERM/INT/HUP/CHLD for its signalfd and a child must not inherit that), its own process group
/// (so a timeout can end the program and everything it started), every descriptor above 2
/// closed (`posix_spawn_file_actions_addclosefrom_np`, glibc ≥ 2.34) and the working directory
/// set with `posix_spawn_file_actions_addchdir_np` (glibc ≥ 2.29). Both `_np` calls are looked up
/// at run time because Swift's Glibc module does not declare them; without `addchdir_np` a
/// working directory cannot be honoured and the spawn fails with a clear message rather than
/// calling `chdir` in the (multi-threaded) kiosk.
enum ProcessSpawner {
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?,
                                                  UnsafePointer<CChar>?) -> Int32
    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    private static let addChdir: AddChdir? = lookup("posix_spawn_file_actions_addchdir_np")
    private static let addClosefrom: AddClosefrom? = lookup("posix_spawn_file_actions_addclosefrom_np")

    private static func lookup<F>(_ name: String) -> F? {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(sym, to: F.self)
    }

    /// True when this C library can set a child's working directory.
    static var supportsWorkingDirectory: Bool { addChdir != nil }

    /// Why a spawn failed, in words for the log and the `action_failed` event.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Finds the program: `argv0` itself when it contains `/` (checked to be an executable
    /// file), otherwise the first executable regular file named `argv0` in `path`
    /// (colon-separated; empty entries mean the current directory, as in `execvp`).
    ///
    /// A path is checked here rather than left to `posix_spawn`'s error: glibc hands the exec's
    /// errno back through `CLONE_VFORK`, which an emulator (qemu-user) runs as a plain fork, and
    /// there a missing program became a child that exits 127 instead of a refusal. The exec can
    /// still fail (the file removed in between); then `posix_spawn` says so where it can.
    static func resolve(_ argv0: String, path: String?) throws -> String {
        if argv0.isEmpty { throw Failure(description: "empty program name") }
        if argv0.contains("/") {
            var st = stat()
            guard stat(argv0, &st) == 0 else { throw Failure(description: errnoMessage("stat", subject: argv0)) }
            guard st.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "\(argv0): not a regular file") }
            guard access(argv0, X_OK) == 0 else { throw Failure(description: errnoMessage("access", subject: argv0)) }
            return argv0
        }
        let dirs = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for d in dirs {
            let candidate = (d.isEmpty ? "." : String(d)) + "/" + argv0
            var st = stat()
            if stat(candidate, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        throw Failure(description: "\(argv0): not found in PATH")
    }

    /// Starts `argv` with exactly `environment`, in `workingDirectory` when given, as the leader
    /// of a new process group. With `stdio`, its stdin is /dev/null and its stdout and stderr
    /// are those two descriptors (else it shares the kiosk's). Returns the child's pid.
    static func spawn(argv: [String], environment: [String: String], workingDirectory: String?,
                      stdio: (output: Int32, errors: Int32)? = nil) throws -> pid_t {
        guard let first = argv.first else { throw Failure(description: "empty argv") }
        for (k, v) in environment where k.isEmpty || k.contains("=") || k.contains("\0") || v.contains("\0") {
            throw Failure(description: "invalid environment variable name or value: '\(k)'")
        }
        if argv.contains(where: { $0.contains("\0") }) { throw Failure(description: "an argument contains a NUL byte") }
        let program = try resolve(first, path: environment["PATH"])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let dir = workingDirectory {
            guard let addChdir else {
                throw Failure(description: "this C library has no posix_spawn_file_actions_addchdir_np: cannot run in \(dir)")
            }
            var st = stat()
            guard stat(dir, &st) == 0 else { throw Failure(description: errnoMessage("stat", subject: dir)) }
            guard st.st_mode & S_IFMT == S_IFDIR else { throw Failure(description: "\(dir): not a directory") }
            let rc = dir.withCString { addChdir(&actions, $0) }
            if rc != 0 { throw Failure(description: errnoMessage("posix_spawn_file_actions_addchdir_np", subject: dir, code: rc)) }
        }
        if let stdio {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, stdio.output, 1)
            posix_spawn_file_actions_adddup2(&actions, stdio.errors, 2)
        }
        if let addClosefrom { _ = addClosefrom(&actions, 3) }

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in 1..<Int32(32) where s != SIGKILL && s != SIGSTOP { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = ActionEnvironment.entries(environment).map { strdup($0) } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = program.withCString { path in
            cArgv.withUnsafeBufferPointer { a in
                cEnv.withUnsafeBufferPointer { e in
                    posix_spawn(&pid, path, &actions, &attr, a.baseAddress!, e.baseAddress!)
                }
            }
        }
        if rc != 0 { throw Failure(description: errnoMessage("posix_spawn", subject: program, code: rc)) }
        return pid
    }
}
