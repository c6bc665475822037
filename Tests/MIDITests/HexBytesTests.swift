import Testing
import MIDI

@Suite struct HexBytesTests {
    @Test(arguments: ["90 3C 64", "903C64", "0x90 0x3c 0X64", "  90\n3c\t64  ", "903c 64"])
    func parses(_ text: String) throws {
        #expect(try HexBytes.parse(text) == [0x90, 0x3C, 0x64])
    }

    @Test func emptyIsNoBytes() throws {
        #expect(try HexBytes.parse("  \n") == [])
    }

    @Test(arguments: [
        ("90 zz", "zz", 2, 3), ("903 64", "903", 1, 0), ("90 0x", "0x", 2, 3), ("90  3G", "3G", 2, 4),
    ])
    func rejects(_ text: String, _ token: String, _ number: Int, _ offset: Int) {
        #expect(throws: HexParseError.self) { try HexBytes.parse(text) }
        do {
            _ = try HexBytes.parse(text)
        } catch {
            #expect(error.token == token)
            #expect(error.tokenNumber == number)
            #expect(error.offset == offset)
            #expect(error.description.contains("'\(token)'"))
        }
    }
}
