// DSP's arrays come from Realtime's ArrayStore (Sources/Realtime/ArrayStore.swift), the one owner of raw
// memory that every module shares; this name lets DSP's files use it without each importing Realtime.
import Realtime

typealias ArrayStore = Realtime.ArrayStore
