import Audio

/// The volume keys set the level of everything the kiosk plays (speech and soundtracks alike).
extension AudioMixer: VolumeControl {}
