import Foundation

/// Whole-frame comparisons of 0xAARRGGBB pixels for the tests that compare pictures bit for bit
/// or by PSNR: one pass over the raw rows, equal rows skipped with `memcmp`, no allocation and
/// no generic code per pixel. The tests run as a debug build, and in CI under qemu-user, where
/// a per-pixel `zip`/`filter`, a texture subscript or a `for shift in [0, 8, 16]` costs seconds
/// per frame. Rows are `stride` pixels apart; `columns` and `rows` pick the region compared.
public enum PixelComparison {
    /// One differing pixel: where, and the two values.
    public struct Difference: Equatable, CustomStringConvertible {
        public var x: Int, y: Int, a: UInt32, b: UInt32
        public var description: String { "(\(x),\(y)) \(String(a, radix: 16)) vs \(String(b, radix: 16))" }
    }

    /// How many pixels of the region differ between `a` and `b`, and the first `keep` of them
    /// (row by row).
    public static func differences(_ a: UnsafePointer<UInt32>, stride strideA: Int, _ b: UnsafePointer<UInt32>, stride strideB: Int,
                                   columns: Range<Int>, rows: Range<Int>, keep: Int = 4) -> (count: Int, first: [Difference]) {
        var count = 0
        var first: [Difference] = []
        let bytes = columns.count * MemoryLayout<UInt32>.stride
        guard bytes > 0 else { return (0, []) }
        var y = rows.lowerBound
        while y < rows.upperBound {
            let rowA = a + y * strideA, rowB = b + y * strideB
            if memcmp(rowA + columns.lowerBound, rowB + columns.lowerBound, bytes) != 0 {
                var x = columns.lowerBound
                while x < columns.upperBound {
                    if rowA[x] != rowB[x] {
                        count += 1
                        if first.count < keep { first.append(Difference(x: x, y: y, a: rowA[x], b: rowB[x])) }
                    }
                    x += 1
                }
            }
            y += 1
        }
        return (count, first)
    }

    /// How many of the `count` pixels at `a` and `b` differ (one row of `count`).
    public static func differing(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int) -> Int {
        differences(a, stride: count, b, stride: count, columns: 0..<count, rows: 0..<1, keep: 0).count
    }

    /// Over the region, the sum of the squared differences of the red, green and blue channels,
    /// the largest difference of one channel, and how many channel values were compared (3 a
    /// pixel): what a PSNR is worked out from.
    public static func channelDifferences(_ a: UnsafePointer<UInt32>, stride strideA: Int, _ b: UnsafePointer<UInt32>, stride strideB: Int,
                                          columns: Range<Int>, rows: Range<Int>) -> (squares: Int, largest: Int, samples: Int) {
        var squares = 0, largest = 0
        var y = rows.lowerBound
        while y < rows.upperBound {
            let rowA = a + y * strideA, rowB = b + y * strideB
            var x = columns.lowerBound
            while x < columns.upperBound {
                let p = rowA[x], q = rowB[x]
                if p != q {
                    // Blue, green, red; alpha is not compared.
                    var d = Int(p & 0xFF) - Int(q & 0xFF)
                    squares += d * d
                    if d < 0 { d = -d }
                    if d > largest { largest = d }
                    d = Int(p >> 8 & 0xFF) - Int(q >> 8 & 0xFF)
                    squares += d * d
                    if d < 0 { d = -d }
                    if d > largest { largest = d }
                    d = Int(p >> 16 & 0xFF) - Int(q >> 16 & 0xFF)
                    squares += d * d
                    if d < 0 { d = -d }
                    if d > largest { largest = d }
                }
                x += 1
            }
            y += 1
        }
        return (squares, largest, 3 * columns.count * rows.count)
    }

    /// The first pixel of the region (row by row) whose alpha is not 0xFF, if any.
    public static func firstNotOpaque(_ p: UnsafePointer<UInt32>, stride: Int, columns: Range<Int>, rows: Range<Int>) -> (x: Int, y: Int)? {
        var y = rows.lowerBound
        while y < rows.upperBound {
            let row = p + y * stride
            var x = columns.lowerBound
            while x < columns.upperBound {
                if row[x] < 0xFF00_0000 { return (x, y) }
                x += 1
            }
            y += 1
        }
        return nil
    }
}
