/// One thing to say: its text and the language it is written in (a BCP-47-like code as the
/// kiosk shows it: `en`, `de`, `pt-BR`).
public struct Utterance: Equatable, Sendable {
    public var text: String
    public var language: String
    public init(text: String, language: String) {
        self.text = text
        self.language = language
    }
}
