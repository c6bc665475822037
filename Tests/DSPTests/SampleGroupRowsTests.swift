@testable import DSP
import Testing

/// `SampleGroupRows.clearLane` writes through the struct's bytes: it relies on every field before `offsets`
/// being eight lanes of four bytes, and on `offsets` coming last.
@Suite struct SampleGroupRowsTests {
    @Test func everyRowIsEightFourByteLanesAndOffsetsComeLast() {
        #expect(MemoryLayout<SampleGroupRows>.offset(of: \.play.offsets) == SampleGroupRows.rowCount * MemoryLayout<Lanes>.size)
        #expect(MemoryLayout<SampleGroupRows>.size == SampleGroupRows.rowCount * 32 + MemoryLayout<SIMD8<Int>>.size)
        // 58 float rows (two envelopes of five, two LFOs of three, the filter's three mix weights among them),
        // 2 stages, the LFOs' 2 shapes, 12 integer rows.
        #expect(SampleGroupRows.rowCount == 74)
    }

    @Test func clearLaneZeroesOneLaneOfEveryRowAndNothingElse() {
        let rows = UnsafeMutablePointer<SampleGroupRows>.allocate(capacity: 1)
        defer { rows.deallocate() }
        rows.initialize(to: SampleGroupRows())
        rows.pointee.block.cents = Lanes(repeating: 3)
        rows.pointee.controls.volumeEnvelope.stage = LaneInts(repeating: SampleEnvelope.attack)
        rows.pointee.controls.vibratoLFO.wait = Lanes(repeating: 7)
        rows.pointee.output.level = Lanes(repeating: 0.5)
        rows.pointee.play.copy = LaneInts(repeating: 9)
        rows.pointee.play.offsets = SIMD8(repeating: 11)
        SampleGroupRows.clearLane(rows, 5)
        for (row, value) in [(rows.pointee.block.cents, Float(3)), (rows.pointee.controls.vibratoLFO.wait, 7), (rows.pointee.output.level, 0.5)] {
            #expect(row[5] == 0)
            #expect((0..<8).filter { $0 != 5 }.allSatisfy { row[$0] == value })
        }
        #expect(rows.pointee.controls.volumeEnvelope.stage[5] == 0 && rows.pointee.controls.volumeEnvelope.stage[4] == SampleEnvelope.attack)
        #expect(rows.pointee.play.copy[5] == 0 && rows.pointee.play.copy[6] == 9)
        #expect(rows.pointee.play.offsets == SIMD8(repeating: 11)) // not a row of four-byte lanes: untouched
    }
}
