import Gutendex
import Synchronization
import Testing

@testable import Terminal

/// The interactive prompt's grammar: forgiving about spacing and keyword case, strict about
/// numbers, and one helpful sentence for anything it cannot understand.
@Suite struct PromptParserTests {
  let parser = PromptParser()

  @Test(arguments: [
    ("", PromptCommand.more), ("n", .next), ("  next  ", .next), ("p", .previous),
    ("b", .previous), ("g 3", .goTo(page: 3)), ("go 12", .goTo(page: 12)),
    ("7", .details(row: 7)), ("f 3", .toggleFavorites(rows: [3])),
    ("f 1 3 5", .toggleFavorites(rows: [1, 3, 5])), ("f 2-4", .toggleFavorites(rows: [2, 3, 4])),
    ("f 2,3 3", .toggleFavorites(rows: [2, 3])), ("F", .favorites),
    ("/ great expectations", .search("great expectations")), ("/dickens", .search("dickens")),
    ("/", .search(nil)), ("lang en, FR", .languages(["en", "fr"])),
    ("lang french", .languages(["fr"])), ("lang en fr", .languages(["en", "fr"])),
    ("lang Middle English, Deutsch", .languages(["enm", "de"])), ("lang", .languages([])),
    ("topic science fiction", .topic("science fiction")), ("topic", .topic(nil)),
    ("years 1800 1900", .years(from: 1800, to: 1900)),
    ("years -750 -", .years(from: -750, to: nil)),
    ("copyright yes", .copyright([.copyrighted])), ("copyright no", .copyright([.publicDomain])),
    ("copyright any", .copyright([])), ("sort Descending", .sort(.descending)),
    ("reset", .reset), ("'", .takeSuggestion), (" ' ", .takeSuggestion), ("r", .refresh),
    ("links 2", .links(row: 2)), ("links", .links(row: nil)),
    ("offline on", .offline(true)), ("OFFLINE off", .offline(false)),
    ("export", .export(path: nil)), ("export /tmp/f.json", .export(path: "/tmp/f.json")),
    ("import x.json", .importFile(path: "x.json")), ("s", .status), ("?", .help), ("h", .help),
    ("q", .quit), ("QUIT", .quit),
  ])
  func understands(_ line: String, _ command: PromptCommand) throws {
    #expect(try parser.parse(line, context: .browse) == command)
  }

  @Test func screensChangeWhatSomeKeysMean() throws {
    // Enter is "more" everywhere: the reducer decides what it means on each screen.
    #expect(try parser.parse("", context: .details(from: .browse)) == .more)
    #expect(try parser.parse("b", context: .favorites) == .back)
    #expect(try parser.parse("f", context: .details(from: .browse)) == .toggleFavorites(rows: []))
    #expect(try parser.parse("sort title", context: .favorites) == .favoritesOrder(.title))
    #expect(try parser.parse("rm 1-2", context: .favorites) == .removeFavorites(rows: [1, 2]))
  }

  @Test(arguments: [
    ("xyz", "unknown command 'xyz' — type ? for help"),
    ("topc poetry", "unknown command 'topc' — did you mean 'topic'?"),
    ("favourits", "unknown command 'favourits' — did you mean 'favourites'?"),
    ("g", "usage: g N (go to page N)"),
    ("g 0", "page numbers start at 1"),
    ("g -2", "'-2' is not a page number"),
    ("g 99999999999999999999999", "page 99999999999999999999… is too large"),
    ("f", "usage: f N, f 1 3 5 or f 2-4 (toggle favourites)"),
    ("f 4-2", "'4-2' is not a range (write the smaller row first)"),
    ("f 1-5000", "range '1-5000' is too long"),
    ("lang e1", "unknown language 'e1'; did you mean en (English), es (Spanish), el (Greek)?"),
    (
      "lang en klingon",
      "unknown language 'klingon'; use a code or a name such as en (English), fr (French), fi (Finnish)"
    ),
    ("years 1900 1800", "years: FROM (1900) is after TO (1800)"),
    ("years abc 1", "'abc' is not a year (use e.g. 1850, -750 for 750 BCE, or -)"),
    ("copyright maybe", "copyright takes yes, no, unknown or any, not 'maybe'"),
    ("sort random", "sort takes popular, ascending or descending, not 'random'"),
    ("n 3", "'n' takes no arguments"),
    ("offline maybe", "usage: offline on|off (simulate having no network)"),
  ])
  func explainsWhatIsWrong(_ line: String, _ message: String) {
    #expect(throws: PromptParser.Failure(message: message)) {
      try parser.parse(line, context: .browse)
    }
  }

  /// `lang` takes a code the parser's catalogue has, which the fixed table would refuse, and
  /// asks that catalogue only for a word the table lacks.
  @Test func langResolvesAgainstTheSessionsCatalogue() throws {
    let asked = Mutex(0)
    let synced = PromptParser(catalogueLanguages: {
      asked.withLock { $0 += 1 }
      return ["ger", "tok"]
    })
    #expect(try synced.parse("lang en, french") == .languages(["en", "fr"]))
    #expect(asked.withLock { $0 } == 0)
    #expect(try synced.parse("lang ger tok") == .languages(["ger", "tok"]))
    #expect(asked.withLock { $0 } == 1)
    // Without it, `ger` is German's ISO 639-2 code.
    #expect(try parser.parse("lang ger") == .languages(["de"]))
    #expect(
      throws: PromptParser.Failure(
        message: "unknown language 'tag'; did you mean tl (Tagalog), bgs (Tagabawa)?")
    ) {
      try parser.parse("lang tag")
    }
    #expect(try parser.parse("lang tok, zz") == .languages(["tok", "zz"]))
  }

  @Test func hostileAndOddLinesNeverCrash() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("nfpg/ 0123456789-,?\u{1B}[]\u{0}\u{7F}\u{202E}éあ\t")
    for _ in 0..<2_000 {
      let length = Int.random(in: 0..<80, using: &generator)
      let line = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      // Every line is either understood or refused with a message; neither may trap.
      switch Result(catching: { try parser.parse(line) }) {
      case .success: continue
      case .failure(let error): #expect(!String(describing: error).isEmpty)
      }
    }
  }
}
