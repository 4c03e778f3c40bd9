/// `[audio]`: the kiosk's sound output (docs/accessibility.md "Sound").
enum AudioSchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "audio", doc: """
            Sound through ALSA (no sound server needed): the soundtracks of video items with \
            `audio = true`, in sync with their frames, and speech. It runs on a thread of its own: a \
            missing or busy device is one log line naming it and its error, a silent kiosk, and \
            another try every 5 s while there is something to play — never a stall. The device is \
            opened only while something plays (and a second after).
            """, prototype: KioskConfiguration(), keys: [
                .string("device", \.audio.device,
                        "The ALSA PCM to play on: `default`, a card's `plughw:CARD,DEV` (`aplay -L` lists them), `hw:…` when it takes 48 kHz 16-bit stereo.",
                        example: "\"plughw:1,0\""),
                .number("volume", \.audio.volume, .closed(0, 1),
                        "The master level, 0 (silent) to 1 (full scale): soundtracks and speech alike.",
                        example: "0.5"),
            ])
    }
}
