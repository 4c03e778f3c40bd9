import Foundation

/// Two runs of the product binary with the dynamic loader's own trace on (`LD_DEBUG=files`), for
/// the tests of a library the program opens with `dlopen` only when it needs it
/// (docs/start-up.md, "Libraries opened on demand"): one run that should not need it, one that
/// should.
public struct OnDemandLoad {
    /// The run that should not open the library, and the run that should.
    public let without: ProductBinary.Result, with: ProductBinary.Result
    /// The trace is there (the run without lists `libc.so.6` as loaded).
    public let traced: Bool
    /// A library whose soname starts with the given prefix was loaded by the run without.
    public let loadedWithout: Bool
    /// The run with opened the library with `dlopen` (`file=SONAME [0];  dynamically loaded`).
    public let openedWith: Bool

    /// What is not as it should be, in words (empty when the runs ended well, the trace is there,
    /// the run without did not load the library and the run with opened it with `dlopen`), with
    /// the runs' error streams for the ones about a run.
    public var problems: [String] {
        var found: [String] = []
        if without.status != 0 { found.append("the run without ended with \(without.status): \(without.errors.suffix(2000))") }
        if with.status != 0 { found.append("the run with ended with \(with.status): \(with.errors.suffix(2000))") }
        if !traced { found.append("no LD_DEBUG trace") }
        if loadedWithout { found.append("loaded by the run that does not need it") }
        if !openedWith { found.append("not opened with dlopen by the run that needs it") }
        return found
    }

    /// Runs `without` and then `with` (arguments of the product binary), and reads the traces
    /// for `soname` (the run without is checked for any soname starting with `prefix`, default
    /// the soname's name up to `.so`).
    public init(_ soname: String, prefix: String? = nil, without: [String], with: [String]) throws {
        let trace = ["LD_DEBUG": "files"]
        self.without = try ProductBinary.run(without, environment: trace)
        self.with = try ProductBinary.run(with, environment: trace)
        let name = prefix ?? String(soname.prefix { $0 != "." })
        traced = self.without.errors.contains("file=libc.so.6")
        loadedWithout = self.without.errors.contains("file=\(name)")
        openedWith = self.with.errors.contains("file=\(soname) [0];  dynamically loaded")
    }
}
