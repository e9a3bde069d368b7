import ArgumentParser
import Terminal

struct Doctor: GlobalOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check the data directory's files: one line each, ok or damaged (and why).",
    discussion: """
      The check reads through a read-only connection: nothing is written, and a damaged file \
      stays byte for byte as it was. With --repair, each damaged store (favourites and library, \
      page cache) is replaced by a new file holding every row that can still be read, and the \
      damaged file is kept beside it as NAME.damaged-YYYYMMDD-HHMMSS; a store another process \
      has open is left as it is (close that process first). Exit status: 0 all ok or \
      repaired, 65 damage left, 1 a file could not be checked or repaired.
      """)

  @OptionGroup(title: GlobalOptions.title) var global: GlobalOptions
  @Flag(help: "Copy what can be read of each damaged store into a new file; keep the old one.")
  var repair = false

  func run() async throws {
    let output = TerminalOutput.standard(color: global.color)
    let configuration: AppConfiguration
    do {
      configuration = try AppConfiguration(global.appOptions)
    } catch {
      output.printError("error: \(error.message)")
      throw ExitCode(error.status.rawValue)
    }
    let status = DoctorRunner.run(
      location: configuration.location, repair: repair, output: output)
    if status != .ok { throw ExitCode(status.rawValue) }
  }
}
