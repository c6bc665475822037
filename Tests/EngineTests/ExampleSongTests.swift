// examples/first-song.mid, the song README's "First five minutes" plays (written by scripts/make-example-song):
// a General MIDI file a strict reader takes, with its parts named, markers, lyrics on the melody, and sound.
@testable import Engine
import Foundation
import MIDI
import Testing
import TestSupport

struct ExampleSongTests {
    @Test func theFirstSongIsAStrictGeneralMIDIFileWithLyricsAndMarkers() throws {
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("examples/first-song.mid")))
        let (file, warnings) = try StandardMIDIFile.read(bytes, strict: true)
        #expect(warnings.isEmpty)
        #expect(file.tracks.count == 6)
        let metas = file.tracks.flatMap { $0 }.compactMap { event -> StandardMIDIFile.MetaEvent? in
            if case .meta(let meta) = event.event { return meta } else { return nil }
        }
        #expect(metas.filter { $0.type == 0x03 }.compactMap(\.text) == ["First song", "Piano", "Bass", "Strings", "Flute", "Drums"])
        #expect(metas.filter { $0.type == 0x06 }.compactMap(\.text) == ["Intro", "Verse", "Chorus", "Outro"])
        let lyrics = metas.filter { $0.type == 0x05 }.compactMap(\.text)
        #expect(lyrics.count == 25 && lyrics.first == "Play ")
        #expect(abs(file.duration - 40) < 0.01, "16 bars at 96 BPM: \(file.duration) s")
        let audio = OfflineRenderer.render(OfflineRenderer.messages(of: file), periodFrames: 512, until: file.duration)
        #expect(AudioAnalysis.rmsDecibels(audio.left[...]) > -40, "it plays")
    }
}
