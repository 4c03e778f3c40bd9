import Foundation
import Glibc

/// The answers of a media check by file: a file whose device, inode, size and change time are
/// those it had when it was checked gets the same answer without being read again. Safe from
/// several threads (the loader checks files concurrently).
public final class MediaProbeCache: @unchecked Sendable {
    private struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, changed: Int64, changedNanoseconds: Int
    }
    private let lock = NSLock()
    private var answers: [String: (identity: Identity, problem: String?)] = [:]
    /// More files than this and the cache starts again (a folder of clips is far fewer).
    private let limit: Int
    private var checkCount = 0
    /// How many times a file was actually checked.
    public var checks: Int { lock.lock(); defer { lock.unlock() }; return checkCount }

    public init(limit: Int = 4096) { self.limit = limit }

    /// `check(path)`, or its earlier answer when the file is unchanged since.
    public func problem(path: String, check: (String) -> String?) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return check(path) }
        let identity = Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
                                changed: Int64(st.st_ctim.tv_sec), changedNanoseconds: st.st_ctim.tv_nsec)
        lock.lock()
        if let known = answers[path], known.identity == identity {
            lock.unlock()
            return known.problem
        }
        lock.unlock()
        let answer = check(path)
        lock.lock()
        if answers.count >= limit { answers.removeAll() }
        answers[path] = (identity, answer)
        checkCount += 1
        lock.unlock()
        return answer
    }
}
