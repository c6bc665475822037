import Testing
import MIDI

/// The names the rest of Backbeat switches on: controllers, message kinds, system statuses and the universal
/// sysex messages, each checked against the numbers of the MIDI 1.0 and GM specifications.
@Suite struct VocabularyTests {
    @Test func controllersAreTheSpecificationsNumbers() {
        let named: [(Controller, UInt8)] = [
            (.bankSelect, 0), (.modulationWheel, 1), (.portamentoTime, 5), (.dataEntry, 6), (.volume, 7),
            (.pan, 10), (.expression, 11), (.bankSelectLSB, 32), (.dataEntryLSB, 38), (.sustain, 64),
            (.portamento, 65), (.sostenuto, 66), (.portamentoControl, 84), (.reverbSend, 91), (.chorusSend, 93),
            (.dataIncrement, 96), (.dataDecrement, 97), (.nrpnLSB, 98), (.nrpnMSB, 99), (.rpnLSB, 100),
            (.rpnMSB, 101), (.allSoundOff, 120), (.resetAllControllers, 121), (.localControl, 122),
            (.allNotesOff, 123), (.omniOff, 124), (.omniOn, 125), (.monoOn, 126), (.polyOn, 127),
        ]
        for (controller, number) in named { #expect(controller.rawValue == number, "\(controller)") }
        #expect(Set(named.map(\.0)).count == named.count)
        #expect(Controller.bankSelect.lsb == .bankSelectLSB && Controller.dataEntryLSB.msb == .dataEntry)
        #expect(Controller.sustain.lsb == nil && Controller.sustain.msb == nil)
        #expect((0...127).filter { Controller(UInt8($0)).isChannelMode } == Array(120...127))
        #expect(Controller(200) == Controller(72))  // 7 bits, as on the wire
    }

    @Test func channelModeMessagesUseTheControllerNames() {
        let modes: [ChannelMode] = [.allSoundOff, .resetAllControllers, .localControl(on: true), .allNotesOff,
                                    .omniOff, .omniOn, .monoOn(channels: 1), .polyOn]
        for mode in modes {
            #expect(mode.named.isChannelMode && mode.controller == mode.named.rawValue)
            let cc = mode.controlChange(channel: 3)
            #expect(ChannelMode(controller: cc.controller, value: cc.value) == mode)
        }
        #expect(ChannelMode(controller: Controller.sustain.rawValue, value: 0) == nil)
    }

    @Test func kindsAreTheStatusNibbles() {
        let kinds: [(MessageKind, UInt8, Int)] = [
            (.noteOff, 0x80, 2), (.noteOn, 0x90, 2), (.polyPressure, 0xA0, 2), (.controlChange, 0xB0, 2),
            (.programChange, 0xC0, 1), (.channelPressure, 0xD0, 1), (.pitchBend, 0xE0, 2), (.system, 0xF0, 0),
        ]
        for (kind, nibble, length) in kinds {
            #expect(kind.rawValue == nibble && kind.dataLength == length, "\(kind)")
            for channel in UInt8(0)...15 where kind != .system {
                let status = kind.status(channel: channel)
                #expect(status == nibble | channel && MessageKind(status: status) == kind)
                #expect(ShortMessage.dataLength(status: status) == length)
            }
        }
        #expect(ShortMessage.dataLength(status: SystemStatus.songPosition) == 2)
        #expect(ShortMessage.dataLength(status: SystemStatus.songSelect) == 1)
        #expect(ShortMessage.dataLength(status: SystemStatus.timingClock) == 0)
        #expect(ShortMessage.dataLength(status: 0x40) == 0)  // a data byte is no status
    }

    @Test func shortMessagesBuiltByNameAreTheBytes() {
        #expect(ShortMessage.noteOn(60, velocity: 100, channel: 2) == ShortMessage(status: 0x92, data1: 60, data2: 100))
        #expect(ShortMessage.noteOff(60, channel: 15) == ShortMessage(status: 0x8F, data1: 60, data2: 0))
        #expect(ShortMessage.controlChange(.sustain, value: 127, channel: 1) == ShortMessage(status: 0xB1, data1: 64, data2: 127))
        #expect(ShortMessage.programChange(40) == ShortMessage(status: 0xC0, data1: 40))
        #expect(ShortMessage.pitchBend(8191, channel: 9) == ShortMessage(status: 0xE9, data1: 0x7F, data2: 0x7F))
        #expect(ShortMessage.pitchBend(-9000) == ShortMessage(status: 0xE0, data1: 0, data2: 0))
        #expect(ShortMessage(status: 0xB3, data1: 7, data2: 1).controller == .volume)
        #expect(ShortMessage(status: SystemStatus.exclusive).isSystemExclusive)
        #expect(!ShortMessage(status: SystemStatus.exclusive).isChannelMessage)
        // Every status byte converts to the model and back as before the names.
        for status in UInt8(0x80)...0xFF {
            let short = ShortMessage(status: status, data1: 0x12, data2: 0x34)
            guard let message = MIDIMessage(short) else {
                #expect([0xF0, 0xF4, 0xF5, 0xF7, 0xF9, 0xFD].contains(status), "status \(status)")
                continue
            }
            let length = ShortMessage.dataLength(status: status)
            #expect(message.shortMessage == ShortMessage(status: status, data1: length > 0 ? 0x12 : 0, data2: length > 1 ? 0x34 : 0))
        }
    }

    @Test func universalSysexParsesFromTheWholeMessage() {
        func parse(_ bytes: [UInt8]) -> UniversalSystemExclusive? {
            bytes.withUnsafeBufferPointer { UniversalSystemExclusive($0) }
        }
        #expect(parse([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]) == .generalMIDIOn)
        #expect(parse([0xF0, 0x7E, 0x10, 0x09, 0x01, 0xF7]) == .generalMIDIOn)  // any device ID
        #expect(parse([0xF0, 0x7E, 0x7F, 0x09, 0x02, 0xF7]) == .generalMIDIOff)
        #expect(parse([0xF0, 0x7E, 0x7F, 0x09, 0x03, 0xF7]) == .generalMIDI2On)
        #expect(parse([0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7]) == .masterVolume(8192))
        #expect(parse([0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x7F, 0x7F, 0xF7]) == .masterVolume(16383))
        // Not these: unterminated, no F0, a byte too many, another sub-ID, a manufacturer's, a data byte > 7F.
        #expect(parse([0xF0, 0x7E, 0x7F, 0x09, 0x01]) == nil)
        #expect(parse([0x7E, 0x7F, 0x09, 0x01, 0xF7]) == nil)
        #expect(parse([0xF0, 0x7E, 0x7F, 0x09, 0x01, 0x00, 0xF7]) == nil)
        #expect(parse([0xF0, 0x7E, 0x7F, 0x06, 0x01, 0xF7]) == nil)
        #expect(parse([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]) == .gsReset)
        #expect(parse([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x11, 0x15, 0x02, 0x18, 0xF7]) == .gsRhythmPart(channel: 0, map: 2))
        #expect(parse([0xF0, 0x41, 0x10, 0x42, 0x12, 0x40, 0x11, 0x16, 0x40, 0x59, 0xF7]) == nil)  // part key shift
        #expect(parse([0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x80, 0x40, 0xF7]) == nil)
        #expect(parse([]) == nil)
        for message in [UniversalSystemExclusive.generalMIDIOn, .generalMIDIOff, .generalMIDI2On, .masterVolume(0),
                        .masterVolume(1234), .masterVolume(16383)] {
            #expect(parse(message.bytes()) == message)
            #expect(parse(message.bytes(device: 0x10)) == message)
        }
        #expect(UniversalSystemExclusive.masterVolume(8192).bytes() == [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40, 0xF7])
    }

    @Test func registeredParameterNames() {
        #expect(GeneralMIDI.registeredParameterName(RegisteredParameter.pitchBendSensitivity.rawValue) == "Pitch Bend Sensitivity")
        #expect(GeneralMIDI.registeredParameterName(RegisteredParameter.null.rawValue) == "Null")
        #expect(RegisteredParameter.null.rawValue == 127 << 7 | 127)
        #expect(GeneralMIDI.registeredParameterName(6) == nil)
    }
}
