import CRasterSupport
import RasterCore
import RasterKernels
#if canImport(RasterKernelsAVX2)
import RasterKernelsAVX2
#endif
#if canImport(RasterKernelsV2)
import RasterKernelsV2
#endif
#if canImport(RasterKernelsNEON)
import RasterKernelsNEON
#endif

/// The instruction sets the compositor's loops are built for. `Compositor` uses the best one
/// the CPU has (as Qt's and pixman's raster code do); tests and `bench composite
/// --instruction-set` can pick one.
public enum InstructionSet: String, CaseIterable, Sendable {
    /// What the build targets by default (x86-64: SSE2; AArch64: NEON).
    case baseline
    /// x86-64 with SSSE3, SSE4.1, SSE4.2 and POPCNT (x86-64-v2: Nehalem and later, the Atom,
    /// Celeron J/N and Pentium Silver cores without AVX2): 128-bit vectors with byte shuffles
    /// (`pshufb`) and byte multiply-adds (`pmaddubsw`).
    case v2 = "x86-64-v2"
    /// x86-64 with AVX2, FMA, BMI1/2 and F16C (x86-64-v3, "haswell"): 256-bit vectors.
    case avx2
    /// AArch64 with the NEON counterparts of the AVX2 build's byte shuffles and byte
    /// multiply-adds (module `RasterKernelsNEON`; NEON is part of every AArch64 CPU).
    case neon

    /// True when this build contains loops for it (x86-64 builds: baseline, x86-64-v2, AVX2;
    /// AArch64 builds: baseline, NEON), whether or not this CPU can run them.
    public var isBuilt: Bool {
        switch self {
        case .baseline: return true
        case .v2:
            #if canImport(RasterKernelsV2)
            return true
            #else
            return false
            #endif
        case .avx2:
            #if canImport(RasterKernelsAVX2)
            return true
            #else
            return false
            #endif
        case .neon:
            #if canImport(RasterKernelsNEON)
            return true
            #else
            return false
            #endif
        }
    }

    /// True when this build contains loops for it and this CPU can run them.
    public var isAvailable: Bool {
        guard isBuilt else { return false }
        switch self {
        case .baseline, .neon: return true      // NEON is part of every AArch64 CPU
        case .v2: return raster_cpu_has_x86_64_v2() != 0
        case .avx2: return raster_cpu_has_x86_64_v3() != 0
        }
    }

    /// The fastest available one: AVX2, else x86-64-v2, else NEON (AArch64), else the baseline.
    public static var best: InstructionSet {
        [.avx2, .v2, .neon].first(where: \.isAvailable) ?? .baseline
    }

    /// New loops for this instruction set (the baseline ones when it is not available).
    func makeKernels() -> CompositorKernels {
        #if canImport(RasterKernelsAVX2)
        if self == .avx2 && isAvailable { return RasterKernelsAVX2.DrawKernels() }
        #endif
        #if canImport(RasterKernelsV2)
        if self == .v2 && isAvailable { return RasterKernelsV2.DrawKernels() }
        #endif
        #if canImport(RasterKernelsNEON)
        if self == .neon { return RasterKernelsNEON.DrawKernels() }
        #endif
        return RasterKernels.DrawKernels()
    }
}
