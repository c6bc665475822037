import Testing
@testable import SFZ
import DSP

/// Each opcode family of docs/sfz.md reaches its typed field.
@Suite struct SFZOpcodeTests {
    func region(_ opcodes: String) -> SFZRegion? {
        let sfz = parse("<region> sample=a.wav " + opcodes)
        #expect(sfz.diagnostics.isEmpty, "\(sfz.diagnostics)")
        #expect(sfz.unknownOpcodes.isEmpty, "\(sfz.unknownOpcodes)")
        return sfz.regions.first
    }

    @Test func mapping() throws {
        let r = try #require(region("""
            lokey=36 hikey=c3 pitch_keycenter=sample lovel=20 hivel=90 lochan=2 hichan=3 locc1=10 hicc1=100 hicc64=63
            lobend=-100 hibend=8191 lorand=0.25 hirand=0.5 seq_length=4 seq_position=3 trigger=release_key rt_decay=6
            sw_lokey=24 sw_hikey=35 sw_last=24 sw_down=25 sw_up=26 sw_previous=27 sw_default=28 sw_label=Legato long
            on_locc20=64 on_hicc20=127
            """))
        #expect(r.keys == SFZRange(36, 48) && r.pitchKeycenterFromSample)
        #expect(r.velocities == SFZRange(20, 90) && r.channels == SFZRange(2, 3))
        #expect(r.ccRanges == [1: SFZRange(10, 100), 64: SFZRange(0, 63)])
        #expect(r.bend == SFZRange(-100, 8191) && r.random == SFZRange(0.25, 0.5))
        #expect(r.seqLength == 4 && r.seqPosition == 3 && r.trigger == .releaseKey && r.rtDecay == 6)
        #expect(r.switchKeys == SFZRange(24, 35) && r.switchLast == 24 && r.switchDown == 25 && r.switchUp == 26)
        #expect(r.switchPrevious == 27 && r.switchDefault == 28 && r.switchLabel == "Legato long")
        #expect(r.ccTriggers == [20: SFZRange(64, 127)])
    }

    @Test func playback() throws {
        let r = try #require(region("""
            offset=100 end=44099 count=2 loop_mode=loop_sustain loop_start=1000 loop_end=2000 delay=0.5 group=3 off_by=4
            off_mode=time off_time=0.2 polyphony=8 note_polyphony=2 transpose=-12 tune=-50 pitch_keytrack=0 pitch_veltrack=1200
            bend_up=1200 bend_down=-1200
            """))
        #expect(r.offset == 100 && r.end == 44099 && r.count == 2 && r.loopMode == .loopSustain)
        #expect(r.loopStart == 1000 && r.loopEnd == 2000 && r.delay == 0.5 && r.group == 3 && r.offBy == 4)
        #expect(r.offMode == .time && r.offTime == 0.2 && r.polyphony == 8 && r.notePolyphony == 2)
        #expect(r.transpose == -12 && r.tune == -50 && r.pitchKeytrack == 0 && r.pitchVeltrack == 1200)
        #expect(r.bendUp == 1200 && r.bendDown == -1200)
        let defaults = try #require(region(""))
        #expect(defaults.loopMode == nil && defaults.offTime == 0.006 && defaults.bendUp == 200 && defaults.pitchKeytrack == 100)
    }

    @Test func levelAndPan() throws {
        let r = try #require(region("""
            volume=-6.5 amplitude=50 pan=-30 width=0 position=20 amp_veltrack=80 amp_velcurve_1=0.1 amp_velcurve_127=1
            amp_keytrack=-1.5 amp_keycenter=c5 xfin_lokey=40 xfin_hikey=50 xfout_lokey=70 xfout_hikey=80 xfin_lovel=1
            xfin_hivel=60 xfout_lovel=61 xfout_hivel=127 xfin_locc1=0 xfin_hicc1=64 xf_keycurve=gain xf_velcurve=power
            xf_cccurve=gain volume_oncc7=-12 amplitude_oncc11=100 pan_oncc10=100 volume_curvecc7=4 amplitude_curvecc11=1 pan_curvecc10=2
            """))
        #expect(r.volume == -6.5 && r.amplitude == 50 && r.pan == -30 && r.width == 0 && r.position == 20)
        #expect(r.ampVeltrack == 80 && r.ampVelcurve == [1: 0.1, 127: 1] && r.ampKeytrack == -1.5 && r.ampKeycenter == 72)
        #expect(r.keyCrossfade.inLow == 40 && r.keyCrossfade.inHigh == 50 && r.keyCrossfade.outLow == 70 && r.keyCrossfade.outHigh == 80)
        #expect(r.velocityCrossfade.inHigh == 60 && r.velocityCrossfade.outLow == 61)
        #expect(r.ccCrossfades[1]?.inHigh == 64 && r.ccCrossfades[1]?.outLow == 127)
        #expect(r.keyCrossfadeCurve == .gain && r.velocityCrossfadeCurve == .power && r.ccCrossfadeCurve == .gain)
        #expect(r.volumeOnCC == [7: -12] && r.amplitudeOnCC == [11: 100] && r.panOnCC == [10: 100])
        #expect(r.volumeCurveCC == [7: 4] && r.amplitudeCurveCC == [11: 1] && r.panCurveCC == [10: 2])
    }

    @Test func envelopes() throws {
        let r = try #require(region("""
            ampeg_delay=0.1 ampeg_start=5 ampeg_attack=0.02 ampeg_hold=0.3 ampeg_decay=1.5 ampeg_sustain=40 ampeg_release=0.8
            ampeg_vel2attack=-0.01 ampeg_attack_oncc73=0.5 ampeg_releasecc72=1 fileg_depth=2400 fileg_vel2depth=-600
            fileg_sustain_oncc1=-20 pitcheg_attack=0.05 pitcheg_depth=-1200 pitcheg_depth_oncc2=100
            """))
        #expect(r.ampEG.delay == 0.1 && r.ampEG.start == 5 && r.ampEG.attack == 0.02 && r.ampEG.hold == 0.3)
        #expect(r.ampEG.decay == 1.5 && r.ampEG.sustain == 40 && r.ampEG.release == 0.8)
        #expect(r.ampEG.velocity == [.attack: -0.01] && r.ampEG.onCC == [.attack: [73: 0.5], .release: [72: 1]])
        #expect(r.filterEG.depth == 2400 && r.filterEG.velocity == [.depth: -600] && r.filterEG.onCC == [.sustain: [1: -20]])
        #expect(r.pitchEG.attack == 0.05 && r.pitchEG.depth == -1200 && r.pitchEG.onCC == [.depth: [2: 100]])
        // The amplitude envelope has no depth.
        let sfz = parse("<region> sample=a.wav ampeg_depth=10")
        #expect(sfz.unknownOpcodes == [SFZNameCount(name: "ampeg_depth", count: 1)])
    }

    @Test func lfos() throws {
        let r = try #require(region("""
            amplfo_delay=0.5 amplfo_fade=1 amplfo_freq=5 amplfo_depth=-3 fillfo_freq=0.5 fillfo_depth=600 pitchlfo_freq=6
            pitchlfo_depth=25 lfo1_freq=4.5 lfo1_wave=1 lfo1_pitch=50 lfo2_freq=0.2 lfo2_wave=7 lfo2_cutoff=-1200 lfo2_amplitude=30
            """))
        #expect(r.ampLFO == { var l = SFZLFO(); l.delay = 0.5; l.fade = 1; l.frequency = 5; l.depth = -3; return l }())
        #expect(r.filterLFO.frequency == 0.5 && r.filterLFO.depth == 600 && r.pitchLFO.frequency == 6 && r.pitchLFO.depth == 25)
        #expect(r.lfos[1]?.frequency == 4.5 && r.lfos[1]?.wave == 1 && r.lfos[1]?.pitch == 50)
        #expect(r.lfos[2]?.wave == 7 && r.lfos[2]?.cutoff == -1200 && r.lfos[2]?.amplitude == 30)
    }

    /// jRhodes3d's LFOs: a tremolo whose depth the mod wheel gives and an auto-pan; then the voice's two LFOs
    /// as the plan gives them out, and what it leaves.
    @Test func lfoTargetsAndTheirPlan() throws {
        let r = try #require(region("""
            lfo01_freq=0.1 lfo01_volume=0 lfo01_volume_oncc1=6 lfo02_wave=0 lfo02_pan=0 lfo02_pan_oncc95=100
            lfo3_freq=5 lfo3_wave=1 lfo3_pitch=20 lfo4_freq=2 lfo4_cutoff=300
            """))
        #expect(r.lfos[1]?.wave == 0 && r.lfos[1]?.onCC[.volume] == [1: 6] && r.lfos[2]?.onCC[.pan] == [95: 100])
        let plan = r.lfoPlan
        // The tremolo moves the volume: the modulation LFO, a triangle; the vibrato moves only the pitch.
        #expect(plan.modulation == SFZLFOUse(frequency: 0.1, delay: 0, sine: false, volumeOnCC: [1: 6]))
        #expect(plan.vibrato == SFZLFOUse(frequency: 5, delay: 0, sine: true, pitch: 20))
        #expect(plan.notes.contains("lfoN_amplitude and lfoN_pan (not played)"))
        #expect(plan.notes.contains { $0.hasPrefix("lfo4_: a third LFO") })
        #expect(SFZRegion.sineLFOs(plan) == SampleZoneRule.sineVibratoLFO)
    }

    @Test func filter() throws {
        let r = try #require(region("fil_type=hpf_1p cutoff=800 resonance=6 fil_keytrack=100 fil_keycenter=c5 fil_veltrack=2400 cutoff_oncc74=3600 resonance_oncc71=12"))
        #expect(r.filterType == .hpf1p && r.cutoff == 800 && r.resonance == 6)
        #expect(r.filterKeytrack == 100 && r.filterKeycenter == 72 && r.filterVeltrack == 2400)
        #expect(r.cutoffOnCC == [74: 3600] && r.resonanceOnCC == [71: 12])
        for type in ["lpf_1p", "lpf_2p", "hpf_2p", "bpf_2p", "brf_2p"] {
            #expect(region("fil_type=\(type)")?.filterType.rawValue == type)
        }
        #expect(try #require(region("")).cutoff == nil)
    }

    @Test func curves() {
        let sfz = parse("<curve> curve_index=7 v000=0 v064=0.25 v127=1\n<curve> v10=1\n<region> sample=a.wav volume_curvecc1=7")
        #expect(sfz.curves.count == 1)
        #expect(sfz.curves[0].index == 7 && sfz.curves[0].points == [0: 0, 64: 0.25, 127: 1])
        #expect(sfz.diagnostics.map(\.description) == ["/inst/test.sfz:2: <curve> without a curve_index is ignored"])
        #expect(sfz.regions[0].volumeCurveCC == [1: 7])
    }

    @Test func hugeNumbersInNamesAreUnknownNotTraps() {
        let sfz = parse("<region> sample=a.wav locc99999999999999999999=1 lfo99_freq=1 amp_velcurve_500=1 hicc600=1")
        #expect(sfz.unknownOpcodes.map(\.name) == ["amp_velcurve_500", "hicc600", "lfo99_freq", "locc99999999999999999999"])
        #expect(sfz.regions.count == 1)
    }
}
