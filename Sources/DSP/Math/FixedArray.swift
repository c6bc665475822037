// DSP's arrays are Realtime's FixedArray (Sources/Realtime/FixedArray.swift), the owned fixed-size array every
// module shares; this name lets DSP's files use it without each importing Realtime.
import Realtime

typealias FixedArray<Element: BitwiseCopyable> = Realtime.FixedArray<Element>
