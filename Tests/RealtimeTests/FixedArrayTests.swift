// FixedArray, the owned array every module keeps its buffers in: counts, contents, alignment, no cap on how
// many one owner holds, and the memory given back when the owner goes.
import Foundation
import Testing
@testable import Realtime

@Suite struct FixedArrayTests {
    @Test func holdsWhatItWasMadeWith() {
        let repeated = FixedArray<Float>(5, 1.5)
        #expect(repeated.count == 5)
        #expect((0..<5).allSatisfy { repeated[$0] == 1.5 })
        let computed = FixedArray<Int32>(count: 4) { Int32($0 * $0) }
        #expect(Array(computed.buffer) == [0, 1, 4, 9])
        let copied = FixedArray<UInt16>(copying: [7, 8, 9])
        #expect(Array(copied.buffer) == [7, 8, 9])
        let zeroed = FixedArray<Int>(zeroed: 3)
        #expect(Array(zeroed.buffer) == [0, 0, 0])
        zeroed[1] = 42 // through a `let`: the values live in the allocation
        #expect(zeroed[1] == 42 && zeroed.baseAddress[1] == 42)
    }

    @Test func anEmptyArrayStillHasOneValidElement() {
        #expect(FixedArray<Float>(0, 2).count == 1)
        #expect(FixedArray<UInt8>(copying: []).count == 1)
        #expect(FixedArray<UInt8>(copying: [])[0] == 0)
    }

    @Test func everyArrayStartsOnACacheLine() {
        for count in [1, 3, 17, 1000] {
            let bytes = FixedArray<UInt8>(count, 0), doubles = FixedArray<Double>(count, 0)
            #expect(Int(bitPattern: bytes.baseAddress) % 64 == 0)
            #expect(Int(bitPattern: doubles.baseAddress) % 64 == 0)
        }
    }

    /// ArrayStore held at most 32 arrays; an owner of FixedArrays holds as many as it declares.
    @Test func anOwnerOfMoreThanThirtyTwoArraysInitialises() {
        struct Owner: ~Copyable {
            let arrays: InlineArray<40, FixedArray<Int>>
            let last: FixedArray<Float>
            init() {
                arrays = InlineArray { i in FixedArray(count: 8) { i * 8 + $0 } }
                last = FixedArray(3, 0.5)
            }
        }
        let owner = Owner()
        #expect((0..<40).allSatisfy { owner.arrays[$0][7] == $0 * 8 + 7 })
        #expect(owner.last[2] == 0.5)
    }

    /// Made and dropped many times over, the arrays leave the resident set where it was.
    @Test func droppedArraysGiveTheirMemoryBack() throws {
        let before = try #require(residentBytes())
        for _ in 0..<2_000 {
            let big = FixedArray<Float>(1 << 18, 1) // 1 MiB
            #expect(big[(1 << 18) - 1] == 1)
        }
        let grown = try #require(residentBytes()) - before
        #expect(grown < 64 << 20, "grew \(grown / 1024) kB over 2000 arrays of 1 MiB")
    }

    private func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
