/// A reproducible random source (SplitMix64): the same seed gives the same inputs, so a failing
/// one is seen again; tests print the seed when they fail.
package struct SeededGenerator: RandomNumberGenerator {
  /// The seed it started from.
  package let seed: UInt64
  private var state: UInt64

  package init(seed: UInt64) {
    self.seed = seed
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
