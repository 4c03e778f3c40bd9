/// The kiosk's own words on screen (the empty carousel, the USB stick's and the updater's
/// notices, the idle warning), in the languages it speaks: one Swift table, so every text is
/// checked by the compiler, found by a test when a language lacks one, and ships inside the
/// program (no file to install or find at run time; docs/accessibility.md, Languages). A
/// language without a table, or without a text, gets the English one.
public enum KioskText: String, CaseIterable, Sendable {
    case noItemsYet, addPictures, appearWhenCopied, addItemTables, theConfigFile, appearWhenSaved
    case checkingContent, readingStick, leaveStickIn, newContent, newContentFromStick
    case oneItemToShow, itemsToShow, takeStickOut
    case contentNotShown, journalSaysWhy, showsWhatItShowed, contentNotUsed, stickNotUsed
    case rolledBack, newVersionDidNotStart, aNewVersionDidNotStart, runsVersionBefore
    case updating, keepsRunningDuringUpdate, updateInstalled, restartsWhenUnused, updateNotInstalled, keepsVersion
    // The idle warning (issue 30, seeing): its question and what answers it.
    case needMoreTime, needMoreTimeHint, needMoreTimeFooter
    // What speech says of what the kiosk did (issue 30, speech; {1}: an item's title or a level).
    case spokenPlaying, spokenCouldNotPlay, spokenStarting, spokenSelected, spokenVolume, spokenSpeechOn, spokenSpeechOff
}

public enum KioskStrings {
    /// The languages with a table of their own.
    public static var languages: [String] { tables.keys.sorted() }

    /// `key`'s text in `language` (its first subtag: "de-AT" reads "de"), `{1}`, `{2}`… replaced
    /// by `arguments`; English when the language has no text for it.
    public static func text(_ key: KioskText, _ language: String, _ arguments: String...) -> String {
        let primary = String(language.split(separator: "-").first ?? "")
        var text = tables[language]?[key] ?? tables[primary]?[key] ?? english[key] ?? key.rawValue
        for (n, argument) in arguments.enumerated() { text = text.replacingOccurrences(of: "{\(n + 1)}", with: argument) }
        return text
    }

    /// "1 item to show." / "3 items to show." in `language`.
    public static func itemsToShow(_ count: Int, _ language: String) -> String {
        count == 1 ? text(.oneItemToShow, language) : text(.itemsToShow, language, String(count))
    }

    static let tables: [String: [KioskText: String]] = ["en": english, "de": german]

    static let english: [KioskText: String] = [
        .noItemsYet: "No items yet",
        .addPictures: "Add pictures to {1}",
        .appearWhenCopied: "They appear here as soon as they are copied.",
        .addItemTables: "Add [[item]] tables to {1}",
        .theConfigFile: "the config file",
        .appearWhenSaved: "They appear here as soon as the file is saved.",
        .checkingContent: "New content is being checked…",
        .readingStick: "Reading the USB stick…",
        .leaveStickIn: "Please leave it in until the screen says it is done.",
        .newContent: "New content",
        .newContentFromStick: "New content from the USB stick",
        .oneItemToShow: "1 item to show.",
        .itemsToShow: "{1} items to show.",
        .takeStickOut: "You can take the stick out.",
        .contentNotShown: "The new content could not be shown",
        .journalSaysWhy: "The journal says why.",
        .showsWhatItShowed: "The kiosk shows what it showed before.",
        .contentNotUsed: "The new content was not used",
        .stickNotUsed: "This USB stick was not used",
        .rolledBack: "Rolled back to {1}",
        .newVersionDidNotStart: "The new version {1} did not start.",
        .aNewVersionDidNotStart: "The new version did not start.",
        .runsVersionBefore: "The kiosk runs the version it had before.",
        .updating: "Updating…",
        .keepsRunningDuringUpdate: "The kiosk keeps running while the update is written.",
        .updateInstalled: "Update installed",
        .restartsWhenUnused: "The kiosk restarts when nobody is using it.",
        .updateNotInstalled: "Update not installed",
        .keepsVersion: "The kiosk keeps the version it runs.",
        .needMoreTime: "Do you need more time?",
        .needMoreTimeHint: "Touch the screen or press a key.",
        .needMoreTimeFooter: "Otherwise the kiosk starts again for the next person.",
        .spokenPlaying: "Playing {1}",
        .spokenCouldNotPlay: "{1}: the video could not play",
        .spokenStarting: "Starting {1}",
        .spokenSelected: "Selected {1}",
        .spokenVolume: "Volume {1} percent",
        .spokenSpeechOn: "Speech on.",
        .spokenSpeechOff: "Speech off.",
    ]

    static let german: [KioskText: String] = [
        .noItemsYet: "Noch keine Inhalte",
        .addPictures: "Bilder in {1} ablegen",
        .appearWhenCopied: "Sie erscheinen hier, sobald sie kopiert sind.",
        .addItemTables: "[[item]]-Tabellen in {1} eintragen",
        .theConfigFile: "die Konfigurationsdatei",
        .appearWhenSaved: "Sie erscheinen hier, sobald die Datei gespeichert ist.",
        .checkingContent: "Neue Inhalte werden geprüft …",
        .readingStick: "Der USB-Stick wird gelesen …",
        .leaveStickIn: "Bitte stecken lassen, bis hier steht, dass es fertig ist.",
        .newContent: "Neue Inhalte",
        .newContentFromStick: "Neue Inhalte vom USB-Stick",
        .oneItemToShow: "1 Inhalt wird gezeigt.",
        .itemsToShow: "{1} Inhalte werden gezeigt.",
        .takeStickOut: "Sie können den Stick jetzt abziehen.",
        .contentNotShown: "Die neuen Inhalte konnten nicht gezeigt werden",
        .journalSaysWhy: "Das Journal nennt den Grund.",
        .showsWhatItShowed: "Der Kiosk zeigt weiter, was er vorher gezeigt hat.",
        .contentNotUsed: "Die neuen Inhalte wurden nicht verwendet",
        .stickNotUsed: "Dieser USB-Stick wurde nicht verwendet",
        .rolledBack: "Zurück zu Version {1}",
        .newVersionDidNotStart: "Die neue Version {1} ist nicht gestartet.",
        .aNewVersionDidNotStart: "Die neue Version ist nicht gestartet.",
        .runsVersionBefore: "Der Kiosk läuft mit der Version, die er vorher hatte.",
        .updating: "Aktualisierung …",
        .keepsRunningDuringUpdate: "Der Kiosk läuft weiter, während die Aktualisierung geschrieben wird.",
        .updateInstalled: "Aktualisierung installiert",
        .restartsWhenUnused: "Der Kiosk startet neu, sobald ihn niemand benutzt.",
        .updateNotInstalled: "Aktualisierung nicht installiert",
        .keepsVersion: "Der Kiosk behält die Version, mit der er läuft.",
        .needMoreTime: "Brauchen Sie mehr Zeit?",
        .needMoreTimeHint: "Berühren Sie den Bildschirm oder drücken Sie eine Taste.",
        .needMoreTimeFooter: "Sonst beginnt der Kiosk für die nächste Person von vorn.",
        .spokenPlaying: "{1} wird abgespielt",
        .spokenCouldNotPlay: "{1}: das Video konnte nicht abgespielt werden",
        .spokenStarting: "{1} wird gestartet",
        .spokenSelected: "{1} ausgewählt",
        .spokenVolume: "Lautstärke {1} Prozent",
        .spokenSpeechOn: "Sprachausgabe an.",
        .spokenSpeechOff: "Sprachausgabe aus.",
    ]
}
