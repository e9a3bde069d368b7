/// How common each byte is in English text, for the searches that look for a needle by its
/// rarest byte (the index's word tables, `library search`): the cost of a `memchr` or a SIMD
/// compare is how often the byte it looks for stands in the text.
package enum LetterFrequency {
  /// A rank per byte, higher for commoner: the letters by their frequency in English, in either
  /// case (`z` 1 … `e` 26), the space above them all (27), every other byte 0.
  package static let commonness: [Int] = {
    var table = [Int](repeating: 0, count: 256)
    for (rank, letter) in "zqxjkvbpygfwmucldrhsnioate".utf8.enumerated() {
      table[Int(letter)] = rank + 1
      table[Int(letter) - 0x20] = rank + 1
    }
    table[0x20] = 27
    return table
  }()
}
