/// `[video]`: how the clips of video items play (docs/video.md).
enum VideoSchema {
    static var section: TableSpec<KioskConfiguration> {
        TableSpec(name: "video", doc: """
            How video items (`[[item]] video = "…"`) play. Decoding runs on a thread of its own per \
            clip, never on the loop; frames that would be late are dropped. A clip's sound plays with `audio = true` on its item (`[audio]`).
            """, prototype: KioskConfiguration(), keys: [
                .bool("play_centred", \.video.playCentred,
                      "While the carousel rests on a video item, its card plays the clip in place (muted unless the item says `audio = true`); false: cards show their poster only.",
                      example: "false"),
                .number("start_delay", \.video.startDelay, .closed(0, 60),
                        "Seconds the carousel must rest on a video item before its clip starts (a quick series of turns starts no decoder).",
                        example: "0.5"),
                .int("budget_mb", \.video.budgetMB, .closed(1, 4096),
                     "Most memory the decoded frames waiting to be shown may hold, in MiB (frames are decoded at the size they are drawn). A clip whose frames do not fit even one at a time keeps its poster, logged.",
                     example: "64"),
                .choice("hardware", \.video.hardware,
                        "`auto`: FFmpeg's V4L2 memory-to-memory decoder for the codec when it has one and the board's decoder opens (Raspberry Pi), else software, said in one log line; `off`: software only.",
                        example: .off),
                .int("threads", \.video.threads, .closed(1, 16), "Threads of a software decoder, per clip.", example: "2"),
            ])
    }
}
