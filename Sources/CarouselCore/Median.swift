extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count); nil when empty.
    /// The benches and the render-scale governor summarise frame times with it.
    public func median() -> Double? {
        guard !isEmpty else { return nil }
        let s = sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
