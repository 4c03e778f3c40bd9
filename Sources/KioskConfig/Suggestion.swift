/// "Did you mean …?" for misspelt keys, sections and choices.
public enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo: equal after
    /// ignoring case, `_` and `-` (so `fadeMin` finds `fade_min`), or within a small edit
    /// distance (one edit per three characters, at most three; a swap of neighbours is one).
    static func closest(to word: String, in candidates: [String]) -> String? {
        let w = normalized(word)
        if let exact = candidates.first(where: { normalized($0) == w }) { return exact }
        let limit = min(3, max(1, w.count / 3))
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, normalized(c))
            if d <= limit, d < (best?.1 ?? .max) { best = (c, d) }
        }
        return best?.0
    }

    /// Up to `count` of `candidates` near `word`, nearest first: within an edit distance of half
    /// its length (ignoring case, `_` and `-`), or starting with it (`Noto` finds `Noto Sans`).
    /// For the "installed families near it" of a font that is not installed.
    public static func nearest(to word: String, in candidates: [String], count: Int) -> [String] {
        let w = normalized(word)
        guard !w.isEmpty else { return [] }
        let limit = max(2, w.count / 2)
        var ranked: [(name: String, distance: Int)] = []
        for c in candidates {
            let n = normalized(c)
            let d = distance(w, n)
            if d <= limit || n.starts(with: w) { ranked.append((c, d)) }
        }
        ranked.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return ranked.prefix(count).map(\.name)
    }

    /// `" (did you mean 'x'?)"` or "".
    static func clause(for word: String, in candidates: [String], quote: (String) -> String = { "'\($0)'" }) -> String {
        guard let s = closest(to: word, in: candidates) else { return "" }
        return "; did you mean \(quote(s))?"
    }

    static func normalized(_ s: String) -> [Character] {
        Array(s.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        if a.count > 64 || b.count > 64 { return max(a.count, b.count) }  // no typo is that long
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
